"""A corrected pulka (a deal replaced, a deal struck out) through every command that reads a pulka, the
deal viewer's data and the analysis: each shows the sheet as corrected — the same as a record that holds
only the deals that count — and none reports a valid correction as ``bad_correction``.

The record: deal 1 is entered on paper as Anna's 6♠ made with 8 tricks, deal 2 is a raspasy; deal 3
corrects deal 1 with the deal as it was played, card by card (Anna down one: ``tests/analysis/records.py``
``DOWN_ONE``); deal 4 (Vera's 7♥) is entered and then struck out by deal 5. The sheet counts two deals:
Anna's 6♠ down one, then the raspasy. By hand (Sochi, whist price 1/2): down one on a six is 2 in Anna's
gora; Boris took 5 tricks, 2 visty each, 10 + 2 for Anna's undertrick = 12 on Anna; Vera took none, 2 for
the undertrick on Anna; the raspasy writes each player's tricks into his gora: Anna 2 + 4 = 6, Boris 3,
Vera 3.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.model.events import DealStarted
from preflog.record.api import read_text
from preflog.views.viewer import viewer_data
from preflog.workspace import Workspace

from ..analysis.records import DOWN_ONE_DEAL
from ..analysis.records import HEAD

runner = CliRunner()


# DOWN_ONE's deal, a correction line ({correction}) where it stands: after the hands, before the auction
PLAYED = DOWN_ONE_DEAL.replace("Auction:", "{correction}Auction:", 1)

RASPASY = """Deal 2: dealer A
Tricks: A 4, B 3, C 3
"""

CORRECTED = HEAD.format(id="corrected") + """
Deal 1: dealer C
Contract: A 6s
Whist: B whist, C whist
Tricks: A 8, B 1, C 1

""" + RASPASY + """
Deal 3: dealer C
""" + PLAYED.format(correction="Corrects: deal 1 at 2026-12-03T12:00:00Z\n") + """
Deal 4: dealer B
Contract: C 7h
Whist: A pass, B pass
Tricks: A 0, B 0, C 10

Deal 5: dealer B
Strikes: deal 3 at 2026-12-03T12:05:00Z
"""

# the same sheet written without corrections: the deals that count, in sheet order
PLAIN = HEAD.format(id="plain") + "\nDeal 1: dealer C\n" + PLAYED.format(correction="") + "\n" + RASPASY

TOTALS = {"pulya": {"Anna": 0, "Boris": 0, "Vera": 0}, "gora": {"Anna": 6, "Boris": 3, "Vera": 3},
          "visty": {"Anna": {"Boris": 0, "Vera": 0}, "Boris": {"Anna": 12, "Vera": 0},
                    "Vera": {"Anna": 2, "Boris": 0}}}


def _block(text: str, n: int) -> range:
    """The store's seqs (1 = PulkaStarted) of the events of deal block ``n`` of the record as entered (its
    ``Deal n:`` header to the next header or the end)."""
    events = read_text(text, "x.pref")
    starts = [i + 1 for i, ev in enumerate(events) if isinstance(ev, DealStarted)] + [len(events) + 1]
    return range(starts[n - 1], starts[n])


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corrected")
    for name, text in (("corrected.pref", CORRECTED), ("plain.pref", PLAIN)):
        (root / name).write_text(text, encoding="utf-8")
        res = runner.invoke(app, ["import", str(root / name), "--store", str(root / "store")])
        assert res.exit_code == 0, res.output
    return root / "store"


def run(store: Path, *args: str) -> str:
    res = runner.invoke(app, [*args, "--store", str(store)])
    assert res.exit_code == 0, res.output
    return res.stdout


def as_json(store: Path, *args: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(run(store, *args, "--json"))
    return out


def test_the_blocks_of_the_record() -> None:
    # (the helper the other tests use to name events: deal block n's seqs)
    assert list(_block(CORRECTED, 1)) == [2, 3, 4, 5, 6]   # header, contract, two whist calls, tricks
    assert len(_block(CORRECTED, 5)) == 2 and _block(CORRECTED, 5)[-1] == len(read_text(CORRECTED, "x.pref"))


def test_audit_sheet_and_settle_show_the_corrected_sheet(store: Path) -> None:
    audit = as_json(store, "audit", "corrected")
    assert audit["pulkas"][0]["findings"] == []
    sheet = as_json(store, "sheet", "corrected")["pulkas"][0]
    plain = as_json(store, "sheet", "plain")["pulkas"][0]
    assert sheet["totals"] == TOTALS == plain["totals"]
    assert sheet["settlement"] == plain["settlement"]
    assert as_json(store, "settle", "corrected")["pulkas"][0]["settlement"] == plain["settlement"]


def test_viewer_data_walks_the_corrected_log_and_tells_its_history(store: Path) -> None:
    (loaded,) = Workspace(store).load("corrected")
    data = viewer_data(loaded)
    assert data["findings"] == [], data["findings"]                # no bad_correction
    sheet = as_json(store, "sheet", "corrected")["pulkas"][0]
    assert data["final"]["totals"] == sheet["totals"] == TOTALS
    assert data["final"]["settlement"] == sheet["settlement"]
    seqs = [s["seq"] for s in data["steps"]]
    struck = {*_block(CORRECTED, 1), *_block(CORRECTED, 4), *_block(CORRECTED, 5)}
    assert not struck & set(seqs)                                   # the struck entries are not on the table
    played = list(_block(CORRECTED, 3))
    assert seqs == [1, *played[:1], *played[2:], *_block(CORRECTED, 2)]   # the correction mark itself: no step
    header = next(s for s in data["steps"] if s["seq"] == played[0])
    assert header["deal"] == 1 and header["hands"] is not None   # the card-level deal is deal 1
    assert header["notes"] == ["corrected at 2026-12-03T12:00:00Z: this deal replaces deal 1 (entered at event 2)"]
    assert sorted(data["results"]) == ["1", "2"]
    assert data["results"]["1"] == "Anna 6♠: down 1, 5 tricks (corrected at 2026-12-03T12:00:00Z)"
    assert data["corrections"] == [
        f"event {played[1]} at 2026-12-03T12:00:00Z: deal 1 (entered at event 2) replaced by the deal at event "
        f"{played[0]}",
        f"event {_block(CORRECTED, 5)[1]} at 2026-12-03T12:05:00Z: deal 3 (entered at event "
        f"{_block(CORRECTED, 4)[0]}) struck out"]


def test_the_viewer_page_lists_the_corrections(store: Path, tmp_path: Path) -> None:
    page = tmp_path / "v.html"
    run(store, "replay", "corrected", "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert '<ul id="corrections">' in html
    assert f"deal 3 (entered at event {_block(CORRECTED, 4)[0]}) struck out" in html


def test_analyze_covers_the_corrected_deals_not_the_struck_ones(store: Path) -> None:
    (pulka,) = as_json(store, "analyze", "corrected")["pulkas"]
    assert [(d["deal"], d["contract"], d["skipped"] is None) for d in pulka["deals"]] == \
        [(1, "6s", True), (2, None, False)]                        # the played 6♠ analysed; the raspasy is paper
    (plain,) = as_json(store, "analyze", "plain")["pulkas"]
    deal1, same = pulka["deals"][0], plain["deals"][0]
    assert (deal1["double_dummy"], deal1["actual"], deal1["made"]) == (same["double_dummy"], 5, False)
    played = _block(CORRECTED, 3)
    assert deal1["losses"] and all(loss["seq"] in played for loss in deal1["losses"])   # the stored seqs
    assert [loss["seq"] - played[0] for loss in deal1["losses"]] == \
        [loss["seq"] - _block(PLAIN, 1)[0] + 1 for loss in same["losses"]]   # (+1: the Corrects line)


def test_replay_shows_the_corrected_deals(store: Path) -> None:
    out = run(store, "replay", "corrected", "--deal", "1", "--trick", "0")
    assert "A♠ K♠ Q♠ J♠ 10♠ A♣ 10♦ 9♦ 8♦ 7♦" in out         # deal 1 is the deal as played
    last = run(store, "replay", "corrected")
    assert "deal 2 · dealer Anna" in last                  # the struck deal 4 is not the last
    res = runner.invoke(app, ["replay", "corrected", "--deal", "3", "--store", str(store)])
    assert res.exit_code == 2 and "no deal 3" in res.output


def test_stats_and_projections_count_the_deals_that_count(store: Path) -> None:
    deals = json.loads(run(store, "sql", "SELECT pulka, deal, paper, contract_label FROM deals ORDER BY ALL",
                           "--format", "json"))
    mine = [(d["deal"], d["paper"], d["contract_label"]) for d in deals if d["pulka"] == "corrected"]
    assert mine == [(1, False, "6s"), (2, True, None)]
    results = json.loads(run(store, "sql", "SELECT pulka, player, deals, gora FROM pulka_results", "--format",
                             "json"))
    assert {(r["pulka"], r["player"]): (r["deals"], r["gora"]) for r in results if r["pulka"] == "corrected"} == \
        {("corrected", "Anna"): (2, 6), ("corrected", "Boris"): (2, 3), ("corrected", "Vera"): (2, 3)}
    players = json.loads(run(store, "stats", "players", "--format", "json"))["rows"]
    assert {p["player"]: p["deals_played"] for p in players} == {"Anna": 4, "Boris": 4, "Vera": 4}   # 2 + 2 of plain


def test_export_writes_the_log_as_entered_and_it_imports_again(store: Path, tmp_path: Path) -> None:
    assert run(store, "export", "corrected") == CORRECTED                       # the history kept whole
    text = run(store, "export", "corrected", "--format", "json")
    (tmp_path / "again.json").write_text(text, encoding="utf-8")
    other = tmp_path / "other"
    run(other, "import", str(tmp_path / "again.json"))
    assert as_json(other, "sheet", "corrected")["pulkas"][0]["totals"] == TOTALS


def test_ls_and_import_count_the_deals_on_the_sheet(store: Path, tmp_path: Path) -> None:
    # five deal blocks were entered; the sheet holds two (deal 3 replaced deal 1, deal 5 struck deal 4)
    assert len(_block(CORRECTED, 5)) == 2                    # (the record has five blocks)
    listed = {p["id"]: p["deals"] for p in as_json(store, "ls")["pulkas"]}
    assert listed == {"corrected": 2, "plain": 2}
    (tmp_path / "c.pref").write_text(CORRECTED.replace('"corrected"', '"again"'), encoding="utf-8")
    res = runner.invoke(app, ["import", str(tmp_path / "c.pref"), "--store", str(tmp_path / "s"), "--json"])
    assert res.exit_code == 0, res.output
    assert [i["deals"] for i in json.loads(res.stdout)["items"]] == [2]
