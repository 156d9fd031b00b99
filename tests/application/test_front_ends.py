"""The cross-front-end test: one store, the same questions asked of the command line (``--json``), the web
app (its JSON routes, Starlette's TestClient) and the Python API (:mod:`preflog.application`), the same
answers required.

The store is made here from a shipped record, ``seed003-settlement`` (paper level, 12 deals, Запад, Восток
and Юг), stored three times with its tags changed:

* ``club/friday``: the players renamed Ann, Anna and Bob (Ann's name is a part of Anna's), the id with a
  ``/`` (the web app opens it all the same);
* ``club/typo``: the same, with deal 2's tricks written 3 + 5 + 3 = 11: a pulka with a finding (its
  audit stops at deal 2), whose deals are still its 12 deals played;
* ``seed003-settlement`` as shipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from preflog.application import Archive
from preflog.application import PulkaFilter
from preflog.cli.app import app as cli
from preflog.errors import NotStoredError
from preflog.serve import create_app
from preflog.views.json import sheet_json
from preflog.workspace import Workspace

SEED = Path(__file__).resolve().parents[2] / "data" / "examples" / "seed003-settlement.pref"
DEALS = 12  # the seed's deals ("Deal 1:" … "Deal 12:")
runner = CliRunner()


def _variant(pid: str, typo: bool = False) -> str:
    text = SEED.read_text(encoding="utf-8")
    for old, new in (("Запад", "Ann"), ("Восток", "Anna"), ("Юг", "Bob")):
        text = text.replace(old, new)
    text = text.replace('[Id "seed003-settlement"]', f'[Id "{pid}"]')
    if typo:
        right = "Tricks: Ann 3, Anna 5, Bob 2"
        assert text.count(right) == 1
        text = text.replace(right, "Tricks: Ann 3, Anna 5, Bob 3")
    return text


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("front-ends")
    (here / "friday.pref").write_text(_variant("club/friday"), encoding="utf-8")
    (here / "typo.pref").write_text(_variant("club/typo", typo=True), encoding="utf-8")
    assert len(re.findall(r"^Deal \d+:", SEED.read_text(encoding="utf-8"), re.M)) == DEALS
    root = here / "st"
    items = Workspace(root).import_paths([here / "friday.pref", here / "typo.pref", SEED])
    assert [(i.pulka, i.status) for i in items] == [("club/friday", "imported"), ("club/typo", "imported"),
                                                   ("seed003-settlement", "imported")]
    assert [i.findings for i in items] != [0, 0, 0] and items[1].findings > 0
    return root


@pytest.fixture(scope="module")
def web(store: Path) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as c:
        yield c


def _cli(store: Path, *args: str) -> Any:
    res = runner.invoke(cli, [*args, "--store", str(store)])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _cli_refusal(store: Path, *args: str) -> str:
    res = runner.invoke(cli, [*args, "--store", str(store)])
    assert res.exit_code == 2 and res.stdout == ""
    [line] = res.stderr.strip().splitlines()
    assert line.startswith("error: ")
    return line.removeprefix("error: ")


def _listed(pulkas: list[dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    return {p["id"]: (p["players"], p["rules"], p["date"], p["deals"], p["settled"], p["events"])
            for p in pulkas}


def test_the_list_of_pulkas_and_their_deals(store: Path, web: TestClient) -> None:
    api = _listed([s.as_json() for s in Archive(Workspace(store)).find()])
    assert _listed(_cli(store, "ls", "--json")["pulkas"]) == api
    assert _listed(web.get("/api/pulkas").json()["pulkas"]) == api
    assert sorted(api) == ["club/friday", "club/typo", "seed003-settlement"]
    # one rule for deals: every deal played, also in the pulka whose audit stopped at its deal 2
    assert {pid: row[3] for pid, row in api.items()} == dict.fromkeys(api, DEALS)
    assert api["club/friday"][0] == ["Ann", "Anna", "Bob"]
    # the web list says it in words as well
    page = web.get("/").text
    listing = page.split('<ul class="list">', 1)[1].split("</ul>", 1)[0]   # the list, not the page's script
    assert listing.count(f"{DEALS} deals") == 3 and "1 deal<" not in listing


@pytest.mark.parametrize(("asked", "found"), [
    ("Ann", ["club/friday", "club/typo"]),    # Ann: not every pulka of Anna too (no substring match)
    ("ann", ["club/friday", "club/typo"]),    # in any case
    ("ANNA", ["club/friday", "club/typo"]),
    ("юг", ["seed003-settlement"]),
])
def test_a_player_filter(store: Path, web: TestClient, asked: str, found: list[str]) -> None:
    api = [s.id for s in Archive(Workspace(store)).find(PulkaFilter(player=asked))]
    assert api == found
    assert [p["id"] for p in _cli(store, "ls", "--json", "--player", asked)["pulkas"]] == found
    assert [p["id"] for p in web.get("/api/pulkas", params={"player": asked}).json()["pulkas"]] == found
    page = web.get("/", params={"player": asked})
    assert page.status_code == 200 and f"{len(found)} pulka" in page.text


@pytest.mark.parametrize(("asked", "hint"), [("nn", "; did you mean Ann or Anna?"), ("Zed", "")])
def test_a_player_the_store_lacks_is_refused_alike(store: Path, web: TestClient, asked: str, hint: str) -> None:
    message = f"no player {asked!r} in the store{hint} (known players: Ann, Anna, Bob, Восток, Запад, Юг)"
    with pytest.raises(NotStoredError) as info:
        Archive(Workspace(store)).find(PulkaFilter(player=asked))
    assert info.value.message == message
    assert _cli_refusal(store, "ls", "--player", asked) == message
    assert _cli_refusal(store, "stats", "players", "--player", asked) == message
    for path in ("/api/pulkas", "/api/stats/players"):
        r = web.get(path, params={"player": asked})
        assert (r.status_code, r.json()) == (404, {"error": message})
    r = web.get("/stats", params={"player": asked})
    assert (r.status_code, r.text) == (404, message)
    r = web.get("/", params={"player": asked})
    assert r.status_code == 404 and "0 pulkas" in r.text
    assert message.replace("'", "&#39;") in r.text


def test_a_players_stats(store: Path, web: TestClient) -> None:
    api = Archive(Workspace(store)).report("players", PulkaFilter(player="anna")).as_json()
    assert api["filters"] == {"player": "Anna"}
    assert _cli(store, "stats", "players", "--json", "--player", "anna") == api
    assert web.get("/api/stats/players", params={"player": "anna"}).json() == api
    (anna,) = [r for r in api["rows"] if r["player"] == "Anna"]
    assert anna["pulkas"] >= 1
    page = web.get("/stats", params={"player": "anna"})
    assert page.status_code == 200 and "Anna" in page.text


def test_one_pulkas_sheet_and_settlement(store: Path, web: TestClient) -> None:
    (audited,) = Workspace(store).audit("club/friday")
    api = sheet_json(audited)
    (cli_sheet,) = _cli(store, "sheet", "club/friday", "--json")["pulkas"]
    state = web.get("/api/pulka/club%2Ffriday").json()
    assert cli_sheet["settlement"] == state["settlement"] == api["settlement"]
    assert cli_sheet["totals"] == state["totals"] == api["totals"]
    # the seed's results (data/examples/seed003-settlement.pref): method 1 +31/−30/−1, exact +30⅔/−29⅓/−1⅓
    assert api["settlement"]["method1"] == {"Ann": 31, "Anna": -30, "Bob": -1}
    assert api["settlement"]["exact"] == {"Ann": "92/3", "Anna": "-88/3", "Bob": "-4/3"}


def _dated(pid: str, date: str | None, deals: int | None = None) -> str:
    """The seed as pulka ``pid`` dated ``date``; cut after its first ``deals`` deals (no ``End:``: a pulka
    still being played)."""
    text = SEED.read_text(encoding="utf-8").replace('[Id "seed003-settlement"]', f'[Id "{pid}"]')
    if date is not None:
        text = text.replace('[Pool "14"]', f'[Pool "14"]\n[Date "{date}"]')
    if deals is not None:
        text = text[:text.index(f"Deal {deals + 1}:")]
    return text


def test_the_list_shows_the_pulkas_in_progress_then_the_most_recent(tmp_path: Path) -> None:
    # ids in the opposite order of the list's: the order is not the ids'
    made = {"a-undated": (None, None), "b-may": ("2024.05.01", None), "c-june": ("2024.06.01", None),
            "d-tonight": ("2024.01.01", 3)}
    for pid, (date, deals) in made.items():
        (tmp_path / f"{pid}.pref").write_text(_dated(pid, date, deals), encoding="utf-8")
    root = tmp_path / "st"
    Workspace(root).import_paths(sorted(tmp_path.glob("*.pref")))
    # in progress (no End: in the log) first though the oldest; then June, May; no date last
    order = ["d-tonight", "c-june", "b-may", "a-undated"]
    found = Archive(Workspace(root)).find()
    assert [s.id for s in found] == order
    assert [s.in_progress for s in found] == [True, False, False, False]
    assert [p["id"] for p in _cli(root, "ls", "--json")["pulkas"]] == order
    with TestClient(create_app(root)) as web:
        assert [p["id"] for p in web.get("/api/pulkas").json()["pulkas"]] == order
        page = web.get("/").text
        assert [page.index(f"<b>{pid}</b><br>") for pid in order] == sorted(page.index(f"<b>{pid}</b><br>")
                                                                          for pid in order)
        # one tap to tonight's pulka: the first link of the page's list, above the filters
        assert page.index('id="tonight"') < page.index("<form")
        assert '<a class="tonight" href="/pulka/d-tonight">Tonight: <b>d-tonight</b>' in page
        # a filter keeps the order; the CLI's table lists it in the same order
        assert [p["id"] for p in web.get("/api/pulkas", params={"player": "юг"}).json()["pulkas"]] == order
    table = runner.invoke(cli, ["ls", "--store", str(root)]).stdout
    assert [table.index(pid) for pid in order] == sorted(table.index(pid) for pid in order)


def test_no_tonight_link_when_every_pulka_has_ended(store: Path, web: TestClient) -> None:
    assert all(not s.in_progress for s in Archive(Workspace(store)).find())
    assert 'id="tonight"' not in web.get("/").text
