"""docs/house-rules.md: every worked deal is a complete record whose hand-computed Score lines audit clean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from preflog.engine.replay import audit
from preflog.record.api import read_text
from preflog.rules import NAMED_OVERRIDES

DOC = Path(__file__).resolve().parents[2] / "docs" / "house-rules.md"
RECORDS = re.findall(r"```text\n(\[Players.*?)```", DOC.read_text(encoding="utf-8"), re.S)


SPECS = [" ".join(re.findall(r'\[Rules "([^"]+)"', r)) for r in RECORDS]


def test_the_page_has_its_records() -> None:
    """One worked record per convention section (nine sections, two of them with a second record),
    each with its rules tag."""
    assert len(RECORDS) >= 13 and all(SPECS)


@pytest.mark.parametrize("text", RECORDS, ids=SPECS)
def test_worked_deal_audits_clean(text: str) -> None:
    """The Score lines of the worked deal are the running totals the page computes by hand; a wrong
    number is a score mismatch finding."""
    result = audit(read_text(text, str(DOC)))
    assert result.ok, [(f.code, f.deal, f.message) for f in result.findings]
    assert sum(1 for line in text.splitlines() if line.startswith("Score:")) >= 3
    assert len(result.deals) == text.count("Deal ")


def test_page_has_worked_deals_for_the_house_overrides() -> None:
    """Each single-convention named override of the page has a worked deal (a record with it)."""
    specs = " ".join(SPECS)
    for name in ("raspasy-amnesty", "raspasy-amnesty-with-dealer", "no-raspasy-premium", "raspasy-2-4-8",
                 "rostov-min-visty", "whisted-game-exit", "ten-check-no-visty", "mountain-first", "total-pool-end",
                 "half-whist-either", "dealer-whists", "any-played-exit", "dealer-consolation",
                 "both-pass-keeps-raspasy"):
        assert name in NAMED_OVERRIDES and f"+{name}" in specs
