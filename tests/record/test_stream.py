"""The streaming reader: one pulka at a time, the same records and errors as reading the whole text,
locations kept, memory flat in the number of pulkas."""

from __future__ import annotations

import io
import json
import tracemalloc
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import assume
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.record import Record
from preflog.record import RecordError
from preflog.record import iter_records
from preflog.record import read_file_records
from preflog.record import read_records
from preflog.record import stream
from preflog.record import write_json
from preflog.record import write_text
from preflog.record.reader import build_records
from preflog.record.textfmt import parse_text
from preflog.sim import simulate_many
from tests import mutations

from .conftest import doc_blocks

SEEDS = doc_blocks("pref")


@cache
def simulated(n: int = 4) -> str:
    """``n`` short bot-played pulkas (pool 6) as one text record."""
    pulkas = [ev for _, ev in simulate_many([{"rules_spec": "sochi", "players": 3, "pool": 6}], n, 3, workers=1)]
    return write_text([e for p in pulkas for e in p])


def whole(text: str, source: str = "f.pref") -> list[Record]:
    """The reference: the whole text parsed in one go, then built (as the reader did before streaming)."""
    return build_records(parse_text(text, source), source)


def streamed(text: str, source: str = "f.pref", chunk: int = 7) -> list[Record]:
    """The text read through a binary handle ``chunk`` bytes at a time."""
    old = stream.CHUNK_BYTES
    stream.CHUNK_BYTES = chunk
    try:
        return list(iter_records(io.BytesIO(text.encode("utf-8")), source))
    finally:
        stream.CHUNK_BYTES = old


def outcome(read: object, text: str) -> tuple[str, object]:
    try:
        recs = read(text)  # type: ignore[operator]
    except RecordError as exc:
        return "error", str(exc)
    return "ok", [(r.events, r.lines) for r in recs]


MIXED = "\n".join([
    "; a file of several pulkas, with comments between them",
    SEEDS[0],
    "{ a comment that spans\nlines, before the next pulka }",
    "",
    SEEDS[1],
    "; the third pulka has no deals: a second Players tag starts the fourth",
    '[Players "A1, B1, C1"]',
    '[Players "A2, B2, C2"]',
    "Deal 1: dealer A",
    "Contract: B 6s",
    "Tricks: A 2, B 6, C 2",
])


@pytest.mark.parametrize("text", [*SEEDS, MIXED], ids=lambda t: t.split("\n", 1)[0][:30])
def test_blocks_read_as_the_whole_text_does(text: str) -> None:
    want = [(r.events, r.lines) for r in whole(text)]
    assert [(r.events, r.lines) for r in read_records(text, "f.pref")] == want
    assert [(r.events, r.lines) for r in streamed(text)] == want
    assert [(r.events, r.lines) for r in streamed(text, chunk=1 << 20)] == want


def test_a_block_is_one_pulka_and_keeps_its_first_line() -> None:
    text = simulated()
    blocks = list(stream.text_blocks([text]))
    assert len(blocks) == 4 and "".join(b.text for b in blocks) == text
    lines = text.split("\n")
    for b in blocks:  # a block starts with the blank lines that lead up to its first tag
        lead = len(b.text) - len(b.text.lstrip("\n"))
        assert lines[b.line - 1 + lead].startswith("[Players ") and not "".join(lines[b.line - 1:b.line - 1 + lead])
        assert len(whole(b.text)) == 1
    # comment lines leading up to a pulka go with it
    blocks = list(stream.text_blocks([MIXED]))
    assert [b.text.lstrip("\n").split("\n", 1)[0] for b in blocks] == [
        "; a file of several pulkas, with comments between them", "{ a comment that spans",
        "; the third pulka has no deals: a second Players tag starts the fourth", '[Players "A2, B2, C2"]']


def test_records_come_before_the_error_that_follows_them() -> None:
    text = simulated() + "\n[Players \"X, Y, Z\"]\nDeal 1: dealer Q\n"
    got = []
    with pytest.raises(RecordError) as exc:
        for rec in iter_records(io.BytesIO(text.encode()), "big.pref"):
            got.append(rec)
    assert len(got) == 4
    line = text.count("\n") - 1 + 1  # the Deal line, second to last
    assert str(exc.value).startswith(f"big.pref:{line}:")
    with pytest.raises(RecordError) as again:
        read_records(text, "big.pref")
    assert str(again.value) == str(exc.value)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), which=st.integers(0, len(SEEDS)), n=st.integers(1, 6), chunk=st.integers(1, 300))
def test_mutated_records_stream_as_they_read(data: st.DataObject, which: int, n: int, chunk: int) -> None:
    """Corrupted input: the streamed reader (any chunk size) and the whole-text reader accept the same
    texts with the same records, and refuse the same texts; one pulka's text gives the same error."""
    base = (SEEDS + [MIXED])[which]
    text = mutations.mutate(lambda label, lo, hi: data.draw(st.integers(lo, hi), label=label), base, n)
    text = text.replace("\r", "\n")  # a file's CR is a line break; the string readers take it as is
    assume(not text.lstrip().startswith("{"))  # a file that starts so is read as JSON
    ref = outcome(whole, text)
    got = outcome(lambda t: read_records(t, "f.pref"), text)
    assert outcome(lambda t: streamed(t, chunk=chunk), text) == got
    assert got[0] == ref[0]
    if got[0] == "ok" or len(list(stream.text_blocks([text]))) == 1:
        assert got == ref


def test_a_comment_left_open_over_a_pulka_boundary_is_cut_as_the_whole_text_reads_it() -> None:
    """Hypothesis found it: a ``{`` whose ``}`` was cut away runs on to the next ``}``, a comment between
    two pulkas further on, and swallows the lines between (as the whole-text parser reads it). The cutter
    walked back over those blanked lines to the middle of the comment and gave its tail to the next
    pulka, which then refused a comment never closed; the streamed reader must read it as the whole text."""
    text = MIXED.replace("{ Anna trumps the king of hearts }", "{ Anna trumps the king of h", 1)
    assert text != MIXED
    ref = outcome(whole, text)
    assert ref[0] == "ok"
    assert outcome(lambda t: read_records(t, "f.pref"), text) == ref
    for chunk in (1, 7, 300):
        assert outcome(lambda t, c=chunk: streamed(t, chunk=c), text) == ref


def test_iter_records_reads_paths_text_handles_and_json_lines(tmp_path: Path) -> None:
    text = simulated()
    recs = read_records(text, "x")
    path = tmp_path / "many.pref"
    path.write_text(text, encoding="utf-8")
    assert [r.events for r in iter_records(path)] == [r.events for r in recs]
    with path.open(encoding="utf-8") as handle:
        assert [r.lines for r in iter_records(handle)] == [r.lines for r in recs]
    # JSON documents one after another: pretty-printed, then one per line (JSON lines)
    docs = [write_json(r.events) for r in recs[:2]] + [json.dumps(json.loads(write_json(r.events))) + "\n"
                                                      for r in recs[2:]]
    jpath = tmp_path / "many.json"
    jpath.write_text("".join(docs), encoding="utf-8")
    assert [r.events for r in iter_records(jpath)] == [r.events for r in recs]
    assert [r.events for r in read_file_records(jpath)] == [r.events for r in recs]
    # an error in a later document names the line where that document starts
    bad = "".join(docs[:3]) + docs[3].replace('"dealer": "', '"dealer": "Q', 1)
    jpath.write_text(bad, encoding="utf-8")
    first_line = bad[: bad.rindex("{\"format\"")].count("\n") + 1
    with pytest.raises(RecordError, match=rf"^{jpath}:{first_line}: \$\.pulkas\[0\]\.deals\[0\]\.dealer: 'Q"):
        read_file_records(jpath)


def test_a_long_line_and_bad_bytes_are_found_where_they_stand(tmp_path: Path) -> None:
    path = tmp_path / "g.pref"
    path.write_bytes(simulated().encode() + b"\n" + b"x" * 200_000 + b"\n")
    with pytest.raises(RecordError, match=r"starts a line of 200,000 characters"):
        list(iter_records(path))
    path.write_bytes(simulated().encode() + b"\xff\n")
    with pytest.raises(RecordError, match=rf"is not UTF-8 text \(invalid start byte at byte {len(simulated())}\)"):
        list(iter_records(path))


def test_memory_stays_flat_in_the_number_of_pulkas(tmp_path: Path) -> None:
    """tracemalloc's peak while streaming a file of N pulkas and one of 4N: the same within a small
    factor (reading the whole file grows with it: the check could fail)."""
    one = simulated()
    peaks = []
    for copies in (3, 12):
        path = tmp_path / f"x{copies}.pref"
        path.write_text("\n".join([one] * copies), encoding="utf-8")
        stream.CHUNK_BYTES, old = 16_384, stream.CHUNK_BYTES
        tracemalloc.start()
        try:
            n = sum(1 for _ in iter_records(path))
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
            stream.CHUNK_BYTES = old
        assert n == 4 * copies
    assert peaks[1] < 1.5 * peaks[0], peaks
    tracemalloc.start()
    try:
        read_records(path.read_text(encoding="utf-8"), "x")
        whole_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert whole_peak > 2 * peaks[1]  # what streaming saves, on the same file


def reference(text: str) -> tuple[str, object]:
    """The reader with its fast paths turned off (canonical trick, hand and keyed lines, letter-pair
    lists, card masks): every line through the general patterns, the reference the fast paths must
    match, records and errors alike."""
    import re as _re

    from preflog.record import fast
    from preflog.record import textfmt

    saved = (textfmt._FAST_TRICK, textfmt._CANONICAL_KEYS, textfmt._Parser.letter_pairs, textfmt.LETTERS,
             fast.fast_mask)
    textfmt._FAST_TRICK = _re.compile(r"(?!)")
    textfmt._CANONICAL_KEYS = {}
    textfmt._Parser.letter_pairs = lambda self, value: None  # type: ignore[method-assign]
    fast.fast_mask = lambda text: None
    try:
        return noted_outcome(text)
    finally:
        (textfmt._FAST_TRICK, textfmt._CANONICAL_KEYS, textfmt._Parser.letter_pairs, textfmt.LETTERS,
         fast.fast_mask) = saved


def noted_outcome(text: str) -> tuple[str, object]:
    """Records with their lines, notes and names, or the error."""
    try:
        recs = read_records(text, "f.pref")
    except RecordError as exc:
        return "error", str(exc)
    return "ok", [(r.events, r.lines, r.events[0].notes, r.events[0].by_name)  # type: ignore[attr-defined]
                  for r in recs]


def test_the_fast_paths_read_as_the_general_reader_on_simulated_records() -> None:
    text = simulated()
    got = noted_outcome(text)
    assert got[0] == "ok" and got == reference(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), which=st.integers(0, len(SEEDS)), n=st.integers(1, 6))
def test_the_fast_paths_read_as_the_general_reader(data: st.DataObject, which: int, n: int) -> None:
    """Differential: corrupted records give identical records (events, lines, notes) or the identical
    error line with and without the fast paths."""
    base = (SEEDS + [simulated(1)])[which]
    text = mutations.mutate(lambda label, lo, hi: data.draw(st.integers(lo, hi), label=label), base, n)
    assert noted_outcome(text) == reference(text)
