"""The reader runs in linear time: a line four times as long takes about four times as long to read.

Each case compares a 20 KB and an 80 KB version of one hostile line; a linear reader takes ~4× as long,
a quadratic one ~16×. The bound (< 8×, best of five runs each, the two sizes read in turn, in CPU time
of this process so that other processes on a loaded machine do not count) leaves room for noise."""

from __future__ import annotations

import gc
import time

import pytest

from preflog.record import RecordError
from preflog.record.textfmt import parse_text

from .conftest import doc_blocks

SMALL = 20_000
BIG = 80_000


def _score_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Score:"))


def _read_seconds(small: str, big: str) -> tuple[float, float]:
    """The best of five reads of each text, the two read in turn (small, big, small, …) so that a change
    in the machine's load falls on both alike."""
    best = [float("inf"), float("inf")]
    gc.collect()
    gc.disable()  # the collector's passes over many live pieces are not the reader's time
    try:
        for _ in range(5):
            for k, text in enumerate((small, big)):
                start = time.process_time()
                try:
                    parse_text(text, "long.pref")
                except RecordError:
                    pass
                best[k] = min(best[k], time.process_time() - start)
    finally:
        gc.enable()
    return best[0], best[1]


@pytest.mark.parametrize("filler", ["x", "x ", "B=1 ", "B :", "  ,"])
def test_a_long_score_line_reads_in_linear_time(filler: str) -> None:
    record = doc_blocks("pref")[0]
    line = _score_line(record)

    def sized(n: int) -> str:
        return record.replace(line, line + " " + filler * (n // len(filler)), 1)

    small, big = _read_seconds(sized(SMALL), sized(BIG))
    assert big < 1.0, f"an {BIG // 1000} KB score line took {big:.2f} s"
    assert big < 8 * max(small, 1e-4), f"4× the input took {big / small:.1f}× the time ({small:.4f} s → {big:.4f} s)"


@pytest.mark.parametrize("head, filler, tail", [
    ("[", " ", "x"),  # a tag that never closes after a run of spaces
    ('[Event "', "a", '"   x]'),
    ("A", " ", "b"),  # neither a key nor a trick line
    ("A", " \t", "b:"),  # a key line with a long run of spaces before the colon
    ("1", " ", "x"),
    ("Deal", " ", "x"),
    ("Auction: ", "A pass, ", ""),
    ("1: ", "7s ", ""),
    ("Claim: ", "A ", ""),
])
def test_a_long_line_reads_in_linear_time(head: str, filler: str, tail: str) -> None:
    lines = doc_blocks("pref")[0].splitlines()
    first_deal = next(i for i, line in enumerate(lines) if line.startswith("Deal"))

    def sized(n: int) -> str:
        return "\n".join([*lines[: first_deal + 1], head + filler * (n // len(filler)) + tail, ""])

    small, big = _read_seconds(sized(SMALL), sized(BIG))
    assert big < 1.0, f"an {BIG // 1000} KB line took {big:.2f} s"
    assert big < 8 * max(small, 1e-4), f"4× the input took {big / small:.1f}× the time ({small:.4f} s → {big:.4f} s)"
