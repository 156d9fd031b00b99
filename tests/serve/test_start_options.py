"""The start form takes the rules' options (issue 28: "rules preset and options"): the form lists the chosen
preset's options as :class:`Rules` declares them, sends a rules spec, and the server reads it with the CLI's
spec parser; the pulka page settles as the family's sheet does."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from preflog.model.events import PulkaStarted
from preflog.projections.facts import resolve_spec
from preflog.projections.facts import rules_spec
from preflog.rules import PRESETS
from preflog.rules import Rules
from preflog.rules import RulesError
from preflog.rules.config import option_family
from preflog.workspace import Workspace

from .conftest import csrf as _csrf

NAMES = ["Анна", "Борис", "Вера"]


def _post(c: TestClient, rules: str, **more: Any) -> Any:
    form = {"players": NAMES, "rules": rules, "whist_price": "1", "date": "2026-12-03", **more}
    return c.post("/api/pulkas", json=form, headers=_csrf(c))


def _form_data(c: TestClient) -> dict[str, Any]:
    page = c.get("/new").text
    found = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    assert found
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_a_pulka_started_with_concede_down_three_stores_its_rules_and_takes_a_conceded_deal(
        store: Path, client: TestClient) -> None:
    r = _post(client, "sochi+allow_concede_down3=true", pool=10)
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    started = Workspace(store).store().read(pid)[0]
    assert isinstance(started, PulkaStarted)
    assert started.rules == "sochi" and started.overrides == (("allow_concede_down3", True),)
    assert rules_spec(started) == "sochi+allow_concede_down3=true" and started.pool == 10
    assert client.get(f"/api/pulka/{pid}").json()["paper"]["concede"]
    # «без трёх»: Анна concedes her 7NT before play; by hand a 7-game is worth 4, down three 4 × 3 = 12 gora,
    # and nobody writes visty
    r = client.post(f"/api/pulka/{pid}/deals", headers=_csrf(client), json={
        "expected_seq": 1, "deal": {"kind": "contract", "declarer": 0, "contract": "7NT",
                                    "calls": {"1": "whist", "2": "pass"}, "conceded": True}})
    assert r.status_code == 201, r.text
    t = r.json()["totals"]
    assert t["gora"]["Анна"] == 12 and t["pulya"]["Анна"] == 0
    assert all(v == 0 for row in t["visty"].values() for v in row.values())
    assert "A concede" in r.json()["last_deal"]
    # the record exports and reads back to the same start
    (audited,) = Workspace(store).audit(pid)
    assert audited.result.findings == []


@pytest.mark.parametrize("spec", ["sochi+allow_concede_down3=maybe", "sochi+start=50", "sochi+no_such_option=1",
                                  "croatian+raspasy_cap=4", "sochi+raspasy_exit_level=11"])
def test_a_bad_option_is_refused_with_the_spec_parsers_own_sentence(client: TestClient, spec: str) -> None:
    with pytest.raises(RulesError) as parser:
        resolve_spec(spec)
    r = _post(client, spec, pool=10)
    assert r.status_code == 400
    assert r.json()["error"] == str(parser.value)
    assert "\n" not in r.json()["error"]


def test_a_croatian_pulka_starts_from_its_start_option_without_a_pool(store: Path, client: TestClient) -> None:
    r = _post(client, "croatian+start=50")
    assert r.status_code == 201, r.text
    started = Workspace(store).store().read(r.json()["id"])[0]
    assert isinstance(started, PulkaStarted)
    assert started.rules == "croatian" and started.overrides == (("start", 50),)
    # a Russian pulka still agrees on its pool
    r = _post(client, "sochi")
    assert r.status_code == 400 and r.json()["error"] == "pool is a whole number from 1 to 10000"


def test_the_form_lists_each_presets_options_from_the_rules_themselves(client: TestClient) -> None:
    data = _form_data(client)
    names = [o["name"] for section in data["options"] for o in section["options"]]
    # every option of Rules but the two the preset itself chooses (its name and family), once, in Rules' order
    assert names == [f.name for f in fields(Rules) if f.name not in ("name", "family")]
    for section in data["options"]:
        for o in section["options"]:
            own = option_family(o["name"])
            assert o["family"] == (None if own is None else str(own))
    options = {o["name"]: o for section in data["options"] for o in section["options"]}
    assert options["allow_concede_down3"]["kind"] == "flag" and options["allow_concede_down3"]["family"] == "russian"
    assert options["raspasy_exit"]["kind"] == "choice" and "made_game" in options["raspasy_exit"]["choices"]
    assert options["raspasy_exit_level"]["choices"] == ["6", "7", "8", "9", "10"]
    assert options["start"]["family"] == "croatian"
    titles = [s["title"] for s in data["options"]]
    assert "Auction (A5)" in titles and "Croatian and Slovenian scoring (C)" in titles
    sochi, croatian = data["rules"]["sochi"], data["rules"]["croatian"]
    assert sochi["values"]["allow_concede_down3"] == "false" and sochi["pool"]
    assert croatian["values"]["start"] == "30" and not croatian["pool"] and croatian["family"] == "croatian"
    assert data["rules"]["leningrad"]["values"]["whist_mult"] == "2"


def test_every_value_the_form_shows_reads_back_through_the_spec_parser(client: TestClient) -> None:
    """What the form would send for an option left as the preset has it gives the preset's rules."""
    data = _form_data(client)
    for preset, shown in data["rules"].items():
        for section in data["options"]:
            for o in section["options"]:
                if o["family"] not in (None, shown["family"]):
                    continue
                value = shown["values"][o["name"]]
                assert resolve_spec(f"{preset}+{o['name']}={value}") == PRESETS[preset], (preset, o["name"], value)


def test_the_settlement_table_says_what_the_familys_sheet_settles(client: TestClient) -> None:
    sochi = _post(client, "sochi", pool=10).json()["id"]
    croatian = _post(client, "croatian").json()["id"]
    assert [c[0] for c in client.get(f"/api/pulka/{sochi}").json()["terms"]["settle"]] == [
        "player", "exact", "method1", "method2", "money"]
    assert [c[0] for c in client.get(f"/api/pulka/{croatian}").json()["terms"]["settle"]] == [
        "player", "exact", "money"]
    head = re.compile(r'<table id="settle"><thead><tr>(.*?)</tr>', re.S)
    sochi_head = head.search(client.get(f"/pulka/{sochi}").text)
    croatian_head = head.search(client.get(f"/pulka/{croatian}").text)
    assert sochi_head and croatian_head
    assert "Method 1" in sochi_head.group(1) and "Method 2" in sochi_head.group(1)
    assert "Method" not in croatian_head.group(1) and "Exact (bule)" in croatian_head.group(1)


def test_the_tables_shorten_a_name_only_where_a_piece_of_it_is_too_long_for_the_phone() -> None:
    from preflog.application.entry import table_names

    # wrapped between words and after hyphens, these fit; one 20-letter piece does not, and the table writes
    # the sheet's next form (first name, initials)
    assert table_names(["Константин Константинопольский-Зарецкий", "Мария Иванова-Кузнецова",
                        "Maximilian von Hohenberg-Schwarzenau"]) == [
        "Константин К.-З.", "Мария Иванова-Кузнецова", "Maximilian von Hohenberg-Schwarzenau"]
    assert table_names(["Ana", "Branko", "Cvita"]) == ["Ana", "Branko", "Cvita"]


def test_the_option_sections_name_options_of_the_rules_in_their_order() -> None:
    from preflog.rules.config import OPTION_SECTIONS
    from preflog.rules.config import option_sections

    order = [f.name for f in fields(Rules)]
    firsts = [name for name, _ in OPTION_SECTIONS]
    assert firsts[0] == order[0] and all(n in order for n in firsts)
    assert [order.index(n) for n in firsts] == sorted(order.index(n) for n in firsts)
    # every option in exactly one section, the sections in the order of the rules' docs (A, B, C)
    assert [n for _, names in option_sections() for n in names] == order
    assert option_sections()[-1][1][0] == "start" and all(
        option_family(n) is not None for n in option_sections()[-1][1])
