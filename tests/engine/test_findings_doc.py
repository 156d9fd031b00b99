"""docs/findings.md lists every finding code the engine modules define."""

from __future__ import annotations

import importlib
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "findings.md"


def test_every_code_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    from preflog.model import outcome

    kinds = {v for k, v in vars(outcome).items() if k.isupper() and isinstance(v, str)}  # deal kinds, not codes
    missing = []
    for name in ("auction", "auction_hr", "deal", "pulka", "replay"):
        mod = importlib.import_module(f"preflog.engine.{name}")
        for attr, value in vars(mod).items():
            if attr.isupper() and isinstance(value, str) and value.islower() and "_" in value and value not in kinds:
                if f"`{value}`" not in text:
                    missing.append(value)
    assert missing == []
