"""Every code an engine module raises is in the code registry docs/findings.md is generated from (that the
committed file is what it generates: tests/test_generated.py)."""

from __future__ import annotations

import ast
from pathlib import Path

from preflog.engine.codes import SECTIONS
from preflog.engine.codes import Code

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "findings.md"


def test_every_code_has_one_meaning_and_every_raised_code_is_registered() -> None:
    listed = [c for s in SECTIONS for c, _ in s.codes]
    assert sorted(listed) == sorted(Code)          # each code once, none left out
    used: set[str] = set()
    for path in (ROOT / "preflog" / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Code":
                used.add(node.attr)
    assert used <= set(Code.__members__), used - set(Code.__members__)
    assert {"MUST_FOLLOW_SUIT", "BAD_EVENT", "TRICKS_PAST_STOP", "HOLD_NOT_ALLOWED"} <= used


def test_no_bare_code_strings_in_the_engine() -> None:
    """Codes are raised as ``Code.X``, never as string literals (one registry)."""
    values = {c.value for c in Code}
    bare = []
    for path in (ROOT / "preflog" / "engine").rglob("*.py"):
        if path.name == "codes.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and first.value in values:
                    bare.append(f"{path.name}:{node.lineno}")
    assert bare == []
