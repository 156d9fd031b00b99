"""The long fuzz run (benchmarks/fuzz.py) works: a short run of it ends with no traceback, hang or
round-trip difference, and counts every case as accepted or refused."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import fuzz  # this file tests the fuzz script itself
from tests import mutations


def test_a_short_fuzz_run_is_clean(tmp_path: Path) -> None:
    out = tmp_path / "fuzz.json"
    assert fuzz.main(["--text", "400", "--json", "200", "--workers", "1", "--out", str(out)]) == 0
    totals = json.loads(out.read_text(encoding="utf-8"))["totals"]
    assert totals["text"]["cases"] == 400 and totals["json"]["cases"] == 200
    for t in totals.values():
        assert t["accepted"] + t["refused"] == t["cases"]
        assert t["accepted"] > 0 and t["refused"] > 0  # the mutations reach both outcomes
        assert t["traceback"] == t["hang"] == t["round_trip"] == 0


def test_the_json_mutations_never_share_a_node() -> None:
    """A structural edit puts a fresh value in the document: two edits never alias one object (an
    aliased list once made the fuzzer itself write circular documents)."""
    import random

    doc = mutations.mutate_json(random.Random(3), {"a": [1, 2], "b": {"c": [3]}}, 200)
    seen: set[int] = set()

    def walk(node: object) -> None:
        if isinstance(node, (dict, list)):
            assert id(node) not in seen
            seen.add(id(node))
            for child in (node.values() if isinstance(node, dict) else node):
                walk(child)

    walk(doc)
    assert all(v in ([], {}, ["A", "6s"], {"A": 1}) or not isinstance(v, (list, dict)) for v in mutations.VALUES)
