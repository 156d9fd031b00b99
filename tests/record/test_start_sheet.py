"""The starting sheet: a paper sheet's totals (``Start:`` lines, JSON ``start``) that a pulka continues from.

Read into ``PulkaStarted.start`` (one row per seat: pulya, gora, visty on each seat), written back
(text and JSON round trips), checked by the family's scorer at read time (an impossible value is a
``RecordError`` at its place on the line); a record without one keeps its bytes and content hash.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.engine.codes import Code
from preflog.engine.replay import audit
from preflog.model.events import PulkaStarted
from preflog.record.api import read_file
from preflog.record.api import read_json
from preflog.record.api import read_text
from preflog.record.api import write_json
from preflog.record.api import write_text
from preflog.record.errors import RecordError
from preflog.store.chain import content_hash

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "record.schema.json").read_text())

HEAD = '[Players "Anna, Boris, Vera"]\n[Rules "sochi"]\n[Pool "10"]\n\n'
START = ("Start: Anna pulya 8 gora 2 visty Boris=10 Vera=0\n"
         "Start: Boris pulya 4 gora 0 visty Anna=6\n"
         "Start: Vera pulya 10 gora 6 visty Boris=12\n")


def test_start_lines_read_into_the_pulka_started_event() -> None:
    """One row per seat (pulya, gora, visty on A, B, C); a missing visty entry is 0."""
    ev = read_text(HEAD + START)[0]
    assert isinstance(ev, PulkaStarted)
    assert ev.start == ((8, 2, 0, 10, 0), (4, 0, 6, 0, 0), (10, 6, 0, 12, 0))


def test_a_player_without_a_line_starts_at_zero_and_halves_are_kept() -> None:
    ev = read_text(HEAD + "Start: B pulya 2 gora 1.5 visty A=25/2\n")[0]
    assert isinstance(ev, PulkaStarted)
    assert ev.start == ((0, 0, 0, 0, 0), (2, Fraction(3, 2), Fraction(25, 2), 0, 0), (0, 0, 0, 0, 0))


def test_a_blank_starting_sheet_is_no_starting_sheet() -> None:
    """All zeros reads as no starting sheet, so it cannot change the event bytes."""
    assert read_text(HEAD + "Start: A pulya 0 gora 0\n") == read_text(HEAD)


@pytest.mark.parametrize("players", ["Anna, Boris, Vera", "Anna, Boris, Vera, Gleb"])
def test_text_and_json_round_trip(players: str) -> None:
    """Written back as one canonical ``Start:`` line per player (seat letters, every opponent's
    visty) and as JSON ``start`` objects valid under the schema; both read back to the same events."""
    n = len(players.split(","))
    lines = "".join(f"Start: {'ABCD'[i]} pulya {2 * i} gora {i + 1} visty {'ABCD'[(i + 1) % n]}={3 * i + 1}\n"
                    for i in range(n))
    events = read_text(HEAD.replace("Anna, Boris, Vera", players) + lines + "\nDeal 1: dealer A\nAuction: all pass\n"
                       "Tricks: " + ", ".join(f"{'ABCD'[i]} {t}" for i, t in enumerate([4, 3, 3, 0][:n])) + "\n")
    text = write_text(events)
    assert text.count("Start: ") == n and text.index("Start: ") < text.index("Deal 1")
    assert read_text(text) == events
    assert write_text(read_text(text)) == text
    obj = json.loads(write_json(events))
    jsonschema.Draft202012Validator(SCHEMA).validate(obj)
    assert len(obj["pulkas"][0]["start"]) == n
    assert read_json(write_json(events)) == events


def test_the_event_row_names_the_start_only_when_there_is_one() -> None:
    """The row payload holds ``start`` for a starting sheet and reads back to the same event."""
    ev = read_text(HEAD + "Start: A pulya 2 gora 1.5\n")[0]
    row = ev.to_row()
    assert row[4] is not None and '"start":[[2,"3/2",0,0,0],[0,0,0,0,0],[0,0,0,0,0]]' in row[4]
    assert PulkaStarted.from_row(row[1], row[2], row[3], json.loads(row[4])) == ev
    assert "start" not in (read_text(HEAD)[0].to_row()[4] or "")


@pytest.mark.parametrize("path, digest", [
    # content hashes computed by the code before starting sheets existed
    ("data/examples/seed003-settlement.pref", -868461802775583443),
    ("tests/golden/four-players.pref", 483154264307766116),
    ("data/examples/seed000-sample-sheet.pref", -7550770881988449909),
])
def test_old_records_keep_their_content_hash_and_export(path: str, digest: int) -> None:
    """These records have comments (and use names in moves): since comments round-trip, their
    annotations are part of the content; without them, the game hashes as before."""
    events = read_file(ROOT / path)
    first = events[0]
    assert isinstance(first, PulkaStarted) and first.notes
    assert content_hash(events) != digest
    events[0] = replace(first, notes=(), by_name=False)
    assert content_hash(events) == digest
    text = write_text(events)
    assert "Start:" not in text and '"start"' not in write_json(events)
    assert read_text(text) == events


def _error(text: str) -> RecordError:
    with pytest.raises(RecordError) as err:
        read_text(text, "sheet.pref")
    return err.value


@pytest.mark.parametrize("line, column, problem", [
    # pulya above the pool of 10: at the number
    ("Start: Anna pulya 11 gora 0", 19, "pulya 11 is not between 0 and the pool 10"),
    ("Start: Anna pulya -1 gora 0", 19, "pulya -1 is not between 0 and the pool 10"),
    ("Start: Anna pulya 2 gora -3", 26, "gora -3 is negative"),
    ("Start: Boris pulya 2 gora 0 visty Anna=4 Vera=-2", 47, "visty -2 are negative"),
    ("Start: Boris pulya 2 gora 0 visty Boris=4", 41, "visty written on oneself"),
])
def test_impossible_values_are_located_record_errors(line: str, column: int, problem: str) -> None:
    e = _error(HEAD + line + "\n")
    assert (e.line, e.column) == (5, column), str(e)
    assert problem in str(e) and "is not possible on a starting sheet" in str(e)


def test_start_after_a_deal_is_refused() -> None:
    e = _error(HEAD + "Deal 1: dealer A\nAuction: all pass\nTricks: A 4, B 3, C 3\nStart: A pulya 2\n")
    assert e.line == 8 and "comes after the first deal" in str(e)


def test_two_lines_for_one_player_are_refused() -> None:
    e = _error(HEAD + "Start: A pulya 2\nStart: Anna gora 2\n")
    assert e.line == 6 and "second starting line" in str(e)


def test_croatian_refuses_clearly() -> None:
    """A Croatian pulka's state is more than its totals (refes, hats): refused at the first line."""
    e = _error('[Players "A, B, C"]\n[Rules "croatian"]\n[Pool "30"]\n\nStart: A pulya -20\n')
    assert e.line == 5 and "Croatian game cannot continue from a written sheet" in str(e)


def test_json_impossible_value_is_located_by_path() -> None:
    obj = {"players": ["Anna", "Boris", "Vera"], "pool": 10,
           "start": [{"player": "Vera", "pulya": 3, "gora": 0, "visty": {"Anna": 1, "Boris": -5}}]}
    with pytest.raises(RecordError) as err:
        read_json(json.dumps(obj), "sheet.json")
    assert "$.start[0].visty.Boris" in str(err.value) and "negative" in str(err.value)


def test_a_stored_event_with_an_impossible_start_is_a_finding() -> None:
    """The engine checks a starting sheet that did not come through the reader (a stored event)."""
    bad = PulkaStarted(("A", "B", "C"), "sochi", (), 10, "1", (), start=((0, 0, 0, 0, 0), (99, 0, 0, 0, 0),
                                                                          (0, 0, 0, 0, 0)))
    res = audit([bad])
    assert [f.code for f in res.findings] == [Code.BAD_SCORE_LINE]
    assert "B's pulya" in res.findings[0].message
    short = PulkaStarted(("A", "B", "C"), "sochi", (), 10, "1", (), start=((1, 0, 0),))
    assert [f.code for f in audit([short]).findings] == [Code.BAD_SCORE_LINE]


_halves = st.integers(0, 400).map(lambda k: Fraction(k, 2)).map(lambda f: f.numerator if f.denominator == 1 else f)


@st.composite
def _starts(draw: st.DrawFn) -> tuple[int, tuple[tuple[Fraction | int, ...], ...]]:
    n = draw(st.sampled_from([3, 4]))
    rows = []
    for i in range(n):
        pulya = draw(st.integers(0, 20))
        row = [pulya, draw(_halves)] + [0 if j == i else draw(_halves) for j in range(n)]
        rows.append(tuple(row))
    return n, tuple(rows)


@settings(max_examples=60, deadline=None)
@given(_starts())
def test_any_possible_starting_sheet_round_trips(start: tuple[int, tuple[tuple[Fraction | int, ...], ...]]) -> None:
    """Every sheet the rules allow (pulya 0..pool, gora and visty ≥ 0 in halves, none on oneself) is
    written and read back unchanged, in text and JSON, with the same row payload."""
    n, rows = start
    names = ("Anna", "Boris", "Vera", "Gleb")[:n]
    ev = PulkaStarted(names, "sochi", (), 20, "1", (), start=rows)
    if not any(v for r in rows for v in r):
        return  # a blank sheet is no starting sheet (tested above)
    assert read_text(write_text([ev])) == [ev]
    assert read_json(write_json([ev])) == [ev]
    row = ev.to_row()
    assert row[4] is not None
    assert PulkaStarted.from_row(row[1], row[2], row[3], json.loads(row[4])) == ev
