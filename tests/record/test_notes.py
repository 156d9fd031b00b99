"""Comments and player names round-trip: read → write → read keeps every comment where it stood (on
the canonical lines) and names in moves when the record used them; JSON and the store keep them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.model.events import PulkaStarted
from preflog.record import Record
from preflog.record import RecordError
from preflog.record import read_json
from preflog.record import read_records
from preflog.record import read_text
from preflog.record import write_json
from preflog.record import write_text
from preflog.workspace import Workspace
from preflog.workspace import with_id
from tests import mutations

from .conftest import doc_blocks

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))

COMMENTED = """; before the pulka
[Players "Anna, Boris, Vera"]   { on the first tag }
[Rules "sochi"]  ; on another tag: goes before the first deal

Deal 1: dealer C   ; Vera deals
A: As Ks Qs Js 10s Ac Kc Ad Kd 7h   ; on a hand line: before the auction
B: 9s 8s Qc Jc 10c Qd Jd 10d Ah Kh
C: 7s 9c 8c 7c 9d 8d 7d Qh Jh 10h
Talon: 9h 8h
Auction: A 6s
Auction: B pass { two auction lines make one }
Auction: C pass ; a } in a line comment
{ a comment
  of two lines }
Discard: A 8h 7h
Contract: A 6s
Whist: B whist, C pass, B open
1: As 9s 7s { first } { second }
Claim: A 6, B 4, C 0
End: stopped ; at the end
; after everything
"""


def start(rec: Record) -> PulkaStarted:
    ev = rec.events[0]
    assert isinstance(ev, PulkaStarted)
    return ev


def test_comments_are_kept_where_they_stand() -> None:
    """Hand-placed: seq 0 is the pulka (tag lines), 1 the deal, 2–4 the bids (one canonical line, so
    their comments go to its first event), 5 the discard, 6 the contract, 7–9 the whist calls and mode,
    10–12 trick 1, 13 the claim, 14 the end (comments after the last line stand after it)."""
    rec = read_records(COMMENTED)[0]
    assert start(rec).notes == (
        (0, "before", "before the pulka"), (0, "after", "on the first tag"),
        (1, "before", "on another tag: goes before the first deal"), (1, "after", "Vera deals"),
        (2, "before", "on a hand line: before the auction"),
        (2, "after", "two auction lines make one"), (2, "after", "a } in a line comment"),
        (5, "before", "a comment\n  of two lines"),
        (10, "after", "first"), (10, "after", "second"),
        (14, "after", "at the end"), (14, "after", "after everything"))
    written = write_text([rec])
    assert "1: As 9s 7s { first } { second }\n" in written and "; a } in a line comment\n" in written
    again = read_records(written)[0]
    assert start(again).notes == start(rec).notes and again.events == rec.events
    assert write_text([again]) == written


def test_names_in_moves_are_kept_when_the_record_used_them() -> None:
    lettered = doc_blocks("pref")[0]
    assert not start(read_records(lettered)[0]).by_name
    named = lettered.replace("A: As", "Anna: As").replace("Whist: B whist", "Whist: Boris whist")
    rec = read_records(named)[0]
    assert start(rec).by_name and rec.events == read_records(lettered)[0].events
    written = write_text([rec])
    assert "Anna: As Ks" in written and "Deal 1: dealer Vera" in written and "Auction: Anna 6s, Boris 6c" in written
    assert "visty Boris=0 Vera=0" in written and "Claim: Anna 2, Boris 0, Vera 0" in written
    assert read_records(written)[0].events == rec.events and start(read_records(written)[0]).by_name
    # a name that would read as a deal header in a hand line: moves stay by seat letter
    odd = named.replace("Anna", "Deal Jo").replace("Deal Jo: As", "A: As")  # Boris is still named
    assert not start(read_records(odd)[0]).by_name
    assert "\nA: As Ks" in write_text(read_records(odd))


def test_names_with_spaces_and_prefixes_read_back() -> None:
    text = doc_blocks("pref")[0].replace("Anna", "Ann").replace("Boris", "Ann Lee").replace("A: As", "Ann: As")
    rec = read_records(text)[0]
    written = write_text([rec])
    assert "Ann Lee: 9s" in written and "Auction: Ann 6s, Ann Lee 6c" in written
    assert read_records(written)[0].events == rec.events


def test_json_carries_notes_and_names() -> None:
    rec = read_records(COMMENTED.replace("A: As", "Anna: As"))[0]
    obj = json.loads(write_json([rec]))
    jsonschema.Draft202012Validator(SCHEMA).validate(obj)
    assert obj["pulkas"][0]["notes"][1] == [0, "after", "on the first tag"]
    assert "Anna" in obj["pulkas"][0]["deals"][0]["hands"]
    back = read_json(obj)
    assert back == list(rec.events) and start(Record(tuple(back))).notes == start(rec).notes
    assert write_text(back) == write_text([rec])


@pytest.mark.parametrize("note, problem", [
    ([99, "after", "x"], "'99' is not a place for a note"),
    ([0, "beside", "x"], "'0' is not a place for a note"),
    ([0, "after", " padded"], "is not a usable note (blank or padded)"),
    ([0, "after", "two\nlines }"], "may not hold '}'"),
    (["0", "after", "x"], "is not a note"),
])
def test_json_notes_are_checked(note: list[object], problem: str) -> None:
    obj = json.loads(write_json(read_text(doc_blocks("pref")[1])))
    obj["pulkas"][0]["notes"] = [note]
    with pytest.raises(RecordError, match=r"^n\.json: \$\.pulkas\[0\]\.notes\[0\]") as exc:
        read_json(obj, "n.json")
    assert problem in str(exc.value)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), which=st.integers(0, 2), n=st.integers(1, 5))
def test_mutated_records_keep_their_notes(data: st.DataObject, which: int, n: int) -> None:
    """Whatever a corrupted record reads to, writing and reading it back keeps its notes and names,
    and the written text is a fixed point."""
    base = [COMMENTED, *doc_blocks("pref")][which]
    text = mutations.mutate(lambda label, lo, hi: data.draw(st.integers(lo, hi), label=label), base, n)
    try:
        recs = read_records(text, "m.pref")
    except RecordError:
        return
    written = write_text(recs)
    again = read_records(written)
    assert [(start(r).notes, start(r).by_name) for r in again] == [(start(r).notes, start(r).by_name) for r in recs]
    assert write_text(again) == written


def test_a_note_on_the_last_line_of_a_pulka_that_is_not_the_files_last_stays_with_it() -> None:
    """A comment at the end of one pulka's last line, with another pulka after it, is written at the end
    of that line: on a line of its own it would read back as a comment before the next pulka (found by
    the mutation test above: a tag line repeated after ``End: stopped ; at the end``)."""
    two = COMMENTED.replace("; after everything", "") + "\n" + doc_blocks("pref")[1]
    recs = read_records(two, "two.pref")
    assert len(recs) == 2 and (14, "after", "at the end") in start(recs[0]).notes
    written = write_text(recs)
    assert "End: stopped { at the end }" in written
    again = read_records(written)
    assert [start(r).notes for r in again] == [start(r).notes for r in recs]
    assert write_text(again) == written


def test_the_store_keeps_comments_and_names(tmp_path: Path) -> None:
    """Import → export gives the comments and names back; the same game imported before comments were
    kept (here: the record without them) is found as a duplicate, not stored twice."""
    text = COMMENTED.replace("A: As", "Anna: As")
    bare = write_text([Record(tuple([PulkaStarted(("Anna", "Boris", "Vera"), "sochi"),
                                     *read_records(text)[0].events[1:]]))])
    assert "{" not in bare and ";" not in bare and "Anna:" not in bare
    ws = Workspace(tmp_path / "store")
    (tmp_path / "bare.pref").write_text(bare, encoding="utf-8")
    (tmp_path / "noted.pref").write_text(text, encoding="utf-8")
    assert [i.status for i in ws.import_paths([tmp_path / "bare.pref"], workers=1)] == ["imported"]
    assert [(i.status, i.pulka) for i in ws.import_paths([tmp_path / "noted.pref"], workers=1)] == [
        ("duplicate", "bare")]
    ws2 = Workspace(tmp_path / "store2")
    assert [i.status for i in ws2.import_paths([tmp_path / "noted.pref"], workers=1)] == ["imported"]
    assert ws2.export("noted") == write_text(with_id(read_records(text)[0].events, "noted"))  # [Id "noted"] too
    assert "Anna: As" in ws2.export("noted") and "; before the pulka" in ws2.export("noted")
    assert json.loads(ws2.export("noted", "json"))["pulkas"][0]["notes"][0] == [0, "before", "before the pulka"]


def test_a_line_comment_after_a_note_of_two_lines_stays_after_its_event() -> None:
    """Two notes after one canonical line, the first of two lines and the last holding ``}`` (so written
    as ``; …``): the ``;`` comment would start on the first note's second line and read back as a note
    before the next event. They are written before the line instead (found by
    test_mutated_records_keep_their_notes)."""
    text = COMMENTED.replace("{ two auction lines make one }", "{ two auction lines\n make one }")
    [rec] = read_records(text, "m.pref")
    notes = start(rec).notes
    # they cannot both stand at the end of the auction line, so the reader places them as the writer
    # will write them: before it, in their order
    assert [n for n in notes if n[0] == 2][-2:] == [(2, "before", "two auction lines\n make one"),
                                                     (2, "before", "a } in a line comment")]
    written = write_text([rec])
    [again] = read_records(written)
    assert start(again).notes == notes
    assert write_text([again]) == written
