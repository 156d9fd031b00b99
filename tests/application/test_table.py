"""The live table from Python (:class:`preflog.application.LiveTables`), what the web app serializes: start,
state, enter, correct and end, each write with the log's length its caller saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from preflog.application import LiveTables
from preflog.application import Refusal
from preflog.application import TableRefused
from preflog.application import TableState
from preflog.application.entry import last_entry
from preflog.workspace import Workspace

NAMES = ["Запад", "Восток", "Юг"]
# the seed's first two deals (data/examples/seed003-settlement.pref): raspasy 1 / 9 / 0, then Запад's 6♠
# down three, Восток whisting alone
RASPASY = {"kind": "raspasy", "tricks": [1, 9, 0]}
SIX_SPADES_DOWN = {"kind": "contract", "declarer": 0, "contract": "6s", "calls": {"1": "whist", "2": "pass"},
                   "tricks": [3, 5, 2]}


@pytest.fixture()
def tables(tmp_path: Path) -> LiveTables:
    return LiveTables(Workspace(tmp_path / "store"))


def test_a_pulka_played_at_the_live_table(tables: LiveTables) -> None:
    pid = tables.start(NAMES, "Sochi", pool=14, date="2026-12-03")
    assert pid.startswith("live-2026-12-03-")
    state = tables.state(pid)
    assert isinstance(state, TableState)
    assert (state.seq, state.deals, state.players, state.ended, state.live) == (1, 0, NAMES, False, True)
    state = tables.enter(pid, state.seq, RASPASY)
    assert (state.seq, state.deals) == (3, 1)   # DealStarted, PaperResult
    state = tables.enter(pid, state.seq, SIX_SPADES_DOWN)
    assert state.deals == 2 and state.findings == []
    # by hand (the seed's comments): raspasy: gora З 1, В 9; deal 2: З gora 2 × 3 = 6 → 7
    assert state.totals["gora"]["Запад"] == 7 and state.totals["gora"]["Восток"] == 9
    state = tables.correct(pid, state.seq, 2, None)   # strike deal 2 out
    assert state.deals == 1 and state.totals["gora"]["Запад"] == 1
    state = tables.end(pid, state.seq)
    assert state.ended is True
    assert state.as_json()["id"] == pid and state.as_json()["seq"] == state.seq
    assert Workspace(tables.ws.root).ids() == [pid]


def test_a_write_on_a_stale_view_is_refused_with_the_state_as_it_stands(tables: LiveTables) -> None:
    pid = tables.start(NAMES, "sochi", pool=14)
    tables.enter(pid, 1, RASPASY)
    with pytest.raises(TableRefused) as info:
        tables.enter(pid, 1, SIX_SPADES_DOWN)   # another phone still saw seq 1
    exc = info.value
    assert exc.refusal is Refusal.STALE and exc.state is not None and exc.state.seq == 3
    assert exc.message == "another entry was made first: here is the sheet as it stands now"
    assert tables.state(pid).seq == 3   # nothing written


@pytest.mark.parametrize(("call", "refusal", "said"), [
    (lambda t, pid: t.enter(pid, 1, {"kind": "raspasy", "tricks": [1, 9, 1]}), Refusal.REFUSED, "11"),
    (lambda t, pid: t.enter(pid, 1, {"kind": "nothing"}), Refusal.BAD_REQUEST, ""),
    (lambda t, pid: t.correct(pid, 1, 5, None), Refusal.BAD_REQUEST, "deal is a deal of the sheet"),
    (lambda t, pid: t.state("nope"), Refusal.NO_PULKA, "no such pulka"),
])
def test_refusals_name_their_kind_and_write_nothing(tables: LiveTables, call: object, refusal: Refusal,
                                                   said: str) -> None:
    pid = tables.start(NAMES, "sochi", pool=14)
    with pytest.raises(TableRefused) as info:
        call(tables, pid)  # type: ignore[operator]
    assert info.value.refusal is refusal and said in info.value.message
    assert tables.state(pid).seq == 1


@pytest.mark.parametrize(("players", "rules", "said"), [
    (["A", "B"], "sochi", "a pulka has 3 or 4 players"),
    (NAMES, "sochi+raspasy_cap=many", "raspasy_cap"),
    (NAMES, "moscow", "unknown rules preset 'moscow'"),
])
def test_a_start_is_refused_by_the_rule_it_breaks(tables: LiveTables, players: list[str], rules: str,
                                                  said: str) -> None:
    with pytest.raises(TableRefused) as info:
        tables.start(players, rules, pool=14)
    assert info.value.refusal is Refusal.BAD_REQUEST and said in info.value.message
    assert not tables.ws.exists()


def test_a_stale_write_says_what_was_entered_since_the_callers_view(tables: LiveTables) -> None:
    pid = tables.start(NAMES, "sochi", pool=14)
    tables.enter(pid, 1, RASPASY)
    with pytest.raises(TableRefused) as info:
        tables.enter(pid, 1, SIX_SPADES_DOWN)
    since = info.value.since
    # the other phone's raspasy, as its record block says it: deal 1, its events from seq 2
    assert [(h["number"], h["seq"], h["kind"]) for h in since] == [(1, 2, "entered")]
    # the block with the players' names for the seat letters, numbered as the sheet numbers its deals
    state = info.value.state
    assert state is not None
    assert since[0]["text"] == last_entry([state.history[0]], NAMES) == state.last_entry != ""
    # the same draft, sent again on the new view, is the next deal
    assert tables.enter(pid, 3, SIX_SPADES_DOWN).deals == 2


def test_an_entry_sent_again_is_entered_once(tables: LiveTables) -> None:
    pid = tables.start(NAMES, "sochi", pool=14)
    assert tables.enter(pid, 1, RASPASY, "draft-1").seq == 3
    # its answer lost: the page sends it again with the same id and the seq it saw
    with pytest.raises(TableRefused) as info:
        tables.enter(pid, 1, RASPASY, "draft-1")
    assert info.value.refusal is Refusal.REPEATED and info.value.state is not None
    assert info.value.state.seq == 3 and info.value.state.deals == 1
    # another id on the same stale view is another phone's deal: stale
    with pytest.raises(TableRefused) as info:
        tables.enter(pid, 1, RASPASY, "draft-2")
    assert info.value.refusal is Refusal.STALE
    assert tables.state(pid).deals == 1
    # corrections remember theirs too
    tables.correct(pid, 3, 1, None, "fix-1")
    with pytest.raises(TableRefused) as info:
        tables.correct(pid, 3, 1, None, "fix-1")
    assert info.value.refusal is Refusal.REPEATED and tables.state(pid).deals == 0


@pytest.mark.parametrize("bad", ["", "x" * 65, "a b", "é", 7, ["a"]])
def test_an_entry_id_of_the_wrong_shape_is_refused(tables: LiveTables, bad: object) -> None:
    pid = tables.start(NAMES, "sochi", pool=14)
    with pytest.raises(TableRefused) as info:
        tables.enter(pid, 1, RASPASY, bad)  # type: ignore[arg-type]
    assert info.value.refusal is Refusal.BAD_REQUEST and "entry_id" in info.value.message
    assert tables.state(pid).seq == 1
