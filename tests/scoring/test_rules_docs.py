"""The rules-options reference that preflog.rules.docs generates (that the committed docs/rules-options.md
is what it generates: tests/test_generated.py)."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from preflog.rules import PRESETS
from preflog.rules import Rules
from preflog.rules.docs import format_value
from preflog.rules.docs import options_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules-options.md"


def test_every_option_has_a_row_and_presets_columns() -> None:
    """One table row per Rules field; the header names the five presets."""
    text = options_markdown()
    for f in fields(Rules):
        assert f"| `{f.name}` |" in text
    header = next(line for line in text.splitlines() if line.startswith("| Option"))
    assert all(p in header for p in ("sochi", "leningrad", "rostov", "croatian", "slovenian"))
    assert set(PRESETS) >= {"sochi", "leningrad", "rostov", "croatian", "slovenian"}


def test_values_and_bold_differences() -> None:
    """Leningrad's whist_mult 2 differs from the default 1 → bold; pairs print as 6:4."""
    row = next(line for line in options_markdown().splitlines() if line.startswith("| `whist_mult`"))
    assert "**2**" in row
    assert format_value(((6, 4), (7, 2))) == "6:4, 7:2"
    assert format_value(True) == "true"


def test_family_column_and_not_applicable_cells() -> None:
    """Each row names its option's family; the presets of the other family show n/a."""
    rows = {line.split(" | ")[0]: line for line in options_markdown().splitlines() if line.startswith("| `")}
    start, cap, trump = rows["| `start`"], rows["| `raspasy_cap`"], rows["| `must_trump`"]
    assert start.startswith("| `start` | croatian |") and start.count("| n/a") == 3
    assert cap.startswith("| `raspasy_cap` | russian |") and cap.endswith("| n/a | n/a |")
    assert trump.startswith("| `must_trump` | both |") and "n/a" not in trump
