"""The small display defects of issue 39 item 7 that the served pages show without a browser: the last
deal entered in the sheet's numbers and the players' names, and a word that the pulka is over."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from preflog.application import LiveTables
from preflog.application import TableState
from preflog.workspace import Workspace

from .conftest import csrf

LONG = ["Александра Константинопольская", "Maximilian Württemberg-Hohenzollern", "Константинопольский"]
# raspasy 1 / 9 / 0 (seed 003's first deal), twelve times; the dealer turns A, B, C, A, …
RASPASY = {"kind": "raspasy", "tricks": [1, 9, 0]}


def _last(html: str) -> str:
    found = re.search(r'<p id="last"[^>]*>(.*?)</p>', html, flags=re.S)
    assert found is not None
    return found.group(1)


def test_the_last_deal_entered_is_numbered_as_the_sheet_and_names_the_players(tmp_path) -> None:
    """Twelve raspasy, then deal 5 corrected and deal 12 struck out: the record's blocks are numbered 13
    and 14 and name seats A/B/C; the page says the sheet's deal (5, 12) and the players' names."""
    tables = LiveTables(Workspace(tmp_path / "store"))
    pid = tables.start(LONG, "sochi", pool=14, date="2026-12-03")
    state = tables.state(pid)
    assert state.last_entry == "" and state.dealer is not None
    first = state.dealer   # the dealer of deal 1; the deal passes clockwise (deal k: first + k − 1)
    for _ in range(12):
        state = tables.enter(pid, state.seq, RASPASY)
    assert state.deals == 12
    a, b, c = LONG
    assert state.last_entry == f"Deal 12: dealer {LONG[(first + 11) % 3]}\nTricks: {a} 1, {b} 9, {c} 0"
    state = tables.correct(pid, state.seq, 5, {"kind": "raspasy", "tricks": [2, 8, 0]})
    assert state.last_deal.startswith("Deal 13: dealer ")   # the record's own block, for the API
    assert state.last_entry.startswith(f"Deal 5: dealer {LONG[(first + 4) % 3]}\nCorrects: deal 5 at 20")
    assert state.last_entry.endswith(f"\nTricks: {a} 2, {b} 8, {c} 0")
    state = tables.correct(pid, state.seq, 12, None)
    assert state.deals == 11 and state.last_entry.startswith("Deal 12: dealer ")
    assert "\nStrikes: deal 12 at 20" in state.last_entry


def test_a_deal_won_without_play_names_the_callers(tmp_path) -> None:
    tables = LiveTables(Workspace(tmp_path / "store"))
    pid = tables.start(LONG, "sochi", pool=14, date="2026-12-03")
    state = tables.state(pid)
    state = tables.enter(pid, state.seq, {"kind": "contract", "declarer": 1, "contract": "6s",
                                          "calls": {"0": "pass", "2": "pass"}})
    assert state.findings == []
    a, b, c = LONG
    assert state.last_entry == f"Deal 1: dealer {c}\nContract: {b} 6s\nWhist: {c} pass, {a} pass"
    assert state.sheet_dealers == [2]


def test_the_page_says_the_pulka_is_over_once_it_ended(client: TestClient) -> None:
    r = client.post("/api/pulkas", json={"players": LONG, "rules": "sochi", "pool": 1, "whist_price": "1",
                                         "date": "2026-12-03"}, headers=csrf(client))
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    seq = client.post(f"/api/pulka/{pid}/deals", json={"expected_seq": 1, "deal": RASPASY},
                      headers=csrf(client)).json()["seq"]
    running = client.get(f"/pulka/{pid}").text
    assert _last(running) == ("Deal 1: dealer Константинопольский\nTricks: Александра Константинопольская 1, "
                              "Maximilian Württemberg-Hohenzollern 9, Константинопольский 0")
    assert '<p id="over" class="msg hidden"' in running
    r = client.post(f"/api/pulka/{pid}/end", json={"expected_seq": seq}, headers=csrf(client))
    assert r.status_code == 201 and r.json()["ended"] is True
    over = client.get(f"/pulka/{pid}").text
    assert '<p id="over" class="msg" role="status">This pulka is over' in over


def _croatian(tmp_path: Path, second: dict[str, Any]) -> tuple[LiveTables, str, TableState]:
    """A Croatian pulka of :data:`LONG` at the live table: the rule text's first sample deal (Cvita's 3
    whisted by both, 2 / 2 / 6), then ``second``; each audits clean."""
    tables = LiveTables(Workspace(tmp_path / "store"))
    pid = tables.start(LONG, "croatian", pool=30, date="2026-12-03")
    state = tables.state(pid)
    for deal in ({"kind": "contract", "declarer": 2, "contract": "3", "calls": {"0": "whist", "1": "whist"},
                  "tricks": [2, 2, 6], "dealer": 1}, second):
        state = tables.enter(pid, state.seq, deal)
        assert state.findings == []
    return tables, pid, state


def test_croatian_money_is_shown_in_whole_units_as_the_players_pay_it(tmp_path) -> None:
    """The first two deals of the Croatian rule text's sample sheet (tests/serve/test_croatian_entry.py,
    SAMPLE): columns −30 / −20 / −24, mean −24⅔, juha 12 / 12 / 30 written, 0 / 30 / 24 received; exact
    10 × (column − mean) + written − received: −53⅓ + 12 = −41⅓, 46⅔ + 12 − 30 = 28⅔, 6⅔ + 30 − 24 = 12⅔
    (sum 0). Paid in whole units: floors −42 / 28 / 12 leave two units, handed to the largest remainders
    (all ⅔: the earlier seats) → −41 / 29 / 12, still summing to zero. The exact money stays in the JSON."""
    a, b, c = LONG
    tables, pid, state = _croatian(tmp_path, {"kind": "contract", "declarer": 1, "contract": "5",
                                              "calls": {"2": "whist", "0": "pass"}, "tricks": [0, 7, 3]})
    assert state.totals["pulya"] == {a: -30, b: -20, c: -24}
    assert state.settlement["exact"] == {a: "-124/3", b: "86/3", c: "38/3"}
    assert state.settlement["money"] == {a: "-124/3", b: "86/3", c: "38/3"}   # exact, for JSON and CSV
    assert state.settlement_shown["exact"] == {a: "−41⅓", b: "28⅔", c: "12⅔"}
    assert state.settlement_shown["money"] == {a: "−41", b: "29", c: "12"}
    # the drawn sheets write the money so too (its exact row keeps the thirds)
    for svg in (state.svg, state.portrait):
        cells = set(re.findall(r'data-role="settlement" data-zone="settle-[\d-]+">([^<]*)</text>', svg))
        assert {"−41", "29", "12", "−41⅓", "28⅔", "12⅔"} <= cells and "−20⅔" not in cells, cells


def test_the_croatian_viewer_shows_each_defenders_call_in_its_words(tmp_path) -> None:
    """Issue 39 item 7: the viewer's steps of a Croatian deal carried no calls (the Croatian deal keeps them
    in its defence phase). Cvita's 3 whisted by both, then Ana's 2 passed by both (won without play): each
    call in the game's words, and the deal won without play has its score."""
    from preflog.views.viewer import viewer_data
    from preflog.workspace import Loaded

    tables, pid, _ = _croatian(tmp_path, {"kind": "contract", "declarer": 0, "contract": "2",
                                          "calls": {"1": "pass", "2": "pass"}})
    steps = viewer_data(Loaded(pid, tables.events(pid), str(tmp_path)))["steps"]
    done = [s for s in steps if s.get("done")]
    assert done[0]["calls"] == ["igram", "igram", ""] and "score" in done[0]
    assert done[-1]["calls"] == ["", "pass", "pass"] and "score" in done[-1]
