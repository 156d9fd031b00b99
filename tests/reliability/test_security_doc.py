"""docs/security.md names the test that keeps each promise: every test it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "security.md"


def test_every_test_named_in_security_md_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    named = re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`", text)
    # "`::name`" continues the file named before it in the same cell
    for cell in re.findall(r"`tests/[\w/]+\.py::\w+`(?:, `::\w+`)+", text):
        file = re.match(r"`(tests/[\w/]+\.py)", cell).group(1)  # type: ignore[union-attr]
        named += [(file, name) for name in re.findall(r"`::(\w+)`", cell)]
    assert len(named) >= 15
    for file, name in named:
        source = (ROOT / file).read_text(encoding="utf-8")
        assert not name or re.search(rf"^def {name}\(", source, re.M), f"{file}::{name} is not there"
