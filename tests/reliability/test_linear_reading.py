"""Linear reading everywhere (issue 31, D4): a record with a megabyte of one kind of line reads in time
linear in its size, through the file reader the commands use (:func:`~preflog.record.api.read_any`:
the streaming cut into pulkas, comment blanking, the parser, the compiled scanner when it is built).

Each case reads a 256 KB and a 1 MB version of one hostile input in turn, best of two each, in CPU time
of this process (other processes on a loaded machine do not count), and compares the two within the run:
a linear reader takes ~4× as long for the big one, a quadratic one ~16×; the bound is 8×. No wall-clock
limit. 30,000 ``;`` comment lines (840 KB) took 9.7 s on main e2e6e22 against 1.1 s for a short record:
the comment collector counted the lines before each comment from the start of the text.
"""

from __future__ import annotations

import gc
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from preflog.record import RecordError
from preflog.record import scanner
from preflog.record.api import Limits
from preflog.record.api import read_any

DOC = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"
SMALL = 256 << 10
BIG = 1 << 20
LIMITS = Limits(max_file_bytes=64 << 20, max_line_chars=4 << 20)  # the megabyte line is read, not refused


def _doc(lang: str) -> str:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)[0]


def _lines() -> tuple[list[str], int]:
    lines = _doc("pref").splitlines()
    return lines, next(i for i, line in enumerate(lines) if line.startswith("Deal"))


def _insert(before_deal: bool, block: str) -> str:
    lines, first = _lines()
    at = first if before_deal else first + 1
    return "\n".join([*lines[:at], block, *lines[at:]]) + "\n"


def _replace_line(prefix: str, tail: Callable[[int], str]) -> Callable[[int], str]:
    def sized(n: int) -> str:
        lines, _first = _lines()
        k = next(i for i, line in enumerate(lines) if line.startswith(prefix))
        return "\n".join([*lines[:k], lines[k] + tail(n), *lines[k + 1:]]) + "\n"
    return sized


def _json(n: int) -> str:
    doc = json.loads(_doc("json"))
    doc["pulkas"][0]["meta"]["event"] = "x" * n
    return json.dumps(doc)


CASES: dict[str, Callable[[int], str]] = {
    "comment line": lambda n: _insert(True, ";" + "c" * n),
    "comment lines": lambda n: _insert(True, "\n".join(["; a comment line, one of thousands"] * (n // 35))),
    "mixed comments": lambda n: _insert(True, "\n".join(["{ a brace comment } ; then a semicolon one"] * (n // 42))),
    "brace comment": lambda n: _insert(True, "{" + "c\n" * (n // 2) + "}"),
    "tag": lambda n: _insert(True, '[Place "' + "p" * n + '"]'),
    "Score:": _replace_line("Score:", lambda n: " x" * (n // 2)),
    "Start:": lambda n: _insert(True, "Start: " + "A=1 " * (n // 4)),
    "tricks": lambda n: _insert(False, "1: " + "7s " * (n // 3)),
    "JSON string": _json,
}


def _read(text: str, path: Path) -> None:
    path.write_text(text, encoding="utf-8")
    try:
        read_any(path, LIMITS)
    except RecordError:
        pass  # a refusal must come as fast as a reading


def _seconds(small: str, big: str, tmp: Path, suffix: str) -> tuple[float, float]:
    best = [float("inf"), float("inf")]
    gc.collect()
    gc.disable()
    try:
        for _ in range(2):
            for k, text in enumerate((small, big)):
                path = tmp / f"long{k}{suffix}"
                start = time.process_time()
                _read(text, path)
                best[k] = min(best[k], time.process_time() - start)
    finally:
        gc.enable()
    return best[0], best[1]


# the compiled scanner (when built) reads trick lines and card lists: those kinds run on both paths
SCANNED = {"tricks", "Start:", "Score:", "tag"}
RUNS = [(kind, "pure") for kind in CASES] + ([(kind, "compiled") for kind in CASES if kind in SCANNED]
                                              if scanner.BUILT is not None else [])


@pytest.mark.parametrize(("kind", "path"), RUNS)
def test_a_megabyte_of_one_kind_reads_in_linear_time(kind: str, path: str, tmp_path: Path) -> None:
    make = CASES[kind]
    small, big = make(SMALL), make(BIG)
    assert len(big.encode()) >= BIG and len(small.encode()) >= SMALL
    suffix = ".json" if kind == "JSON string" else ".pref"
    with scanner.pure() if path == "pure" else scanner.compiled():
        t_small, t_big = _seconds(small, big, tmp_path, suffix)
    assert t_big < 8 * max(t_small, 1e-3), (f"{kind}: 4× the input took {t_big / max(t_small, 1e-9):.1f}× the "
                                            f"time ({t_small:.3f} s → {t_big:.3f} s)")
