"""Mutations of records, for the fuzz tests (tests/record/test_fuzz.py, tests/record/test_stream.py …) and the
long fuzz run (benchmarks/fuzz.py): 1-6 random edits of a text record (insert noise, delete a span, swap or
repeat a line, copy a span) or structural edits of a JSON document (a value of the wrong type anywhere)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NOISE = list('[]{};:,"\\()=-+ \n\t0123456789AKQJTakqjtschdSCHD♠♣♦♥пчбтДВКТ²٣') + [
    "pass", "hold", "Deal", "Auction:", "Anna", "Talon:", "1:", "igra", "Start:", "Score:", "concede", "9" * 60]
VALUES: list[Any] = [None, 1.5, -3, True, "Xh", [], {}, ["A", "6s"], {"A": 1}, "all pass", 10 ** 40, "﻿x", "\x00"]


def seeds() -> list[str]:
    """The records the mutations start from: the documented examples and the shipped seed examples."""
    import re

    doc = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    texts = re.findall(r"```pref\n(.*?)```", doc, re.S)
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "data" / "examples").glob("*.pref"))]
    return texts


Pick = Callable[[str, int, int], int]
"""``pick(label, lo, hi)``: an int from ``lo`` to ``hi`` — a seeded ``random`` here, a hypothesis draw in the
suite's fuzz test (so that a failure there shrinks to the fewest, smallest edits)."""


def picker(rng: random.Random) -> Pick:
    return lambda _label, lo, hi: rng.randint(lo, hi)


def mutate(pick: Pick, text: str, n: int) -> str:
    """``n`` edits of ``text``: insert noise, delete a span, swap two lines, repeat a line, or copy a span
    elsewhere."""
    for _ in range(n):
        op, i = pick("edit", 0, 4), pick("at", 0, len(text))
        if op == 0:
            text = text[:i] + NOISE[pick("noise", 0, len(NOISE) - 1)] + text[i:]
        elif op == 1:
            text = text[:i] + text[i + pick("length", 1, 7):]
        elif op in (2, 3):
            lines = text.split("\n")
            a, b = pick("line", 0, len(lines) - 1), pick("other line", 0, len(lines) - 1)
            if op == 2:
                lines[a], lines[b] = lines[b], lines[a]
            else:
                lines.insert(b, lines[a])
            text = "\n".join(lines)
        else:
            j = pick("from", 0, len(text))
            text = text[:i] + text[j:j + 6] + text[i:]
    return text


def mutate_json(rng: random.Random, doc: Any, n: int) -> Any:
    for _ in range(n):
        node, key, cur = None, None, doc
        for _ in range(rng.randint(1, 8)):
            if isinstance(cur, dict) and cur:
                k: Any = rng.choice(list(cur))
            elif isinstance(cur, list) and cur:
                k = rng.randrange(len(cur))
            else:
                break
            node, key, cur = cur, k, cur[k]
        if node is not None:
            node[key] = copy.deepcopy(rng.choice(VALUES))  # a fresh value: no shared or circular nodes
    return doc
