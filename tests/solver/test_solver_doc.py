"""docs/solver.md's example runs: every ``>>>`` line is a doctest (the values are worked out in the page)."""

from __future__ import annotations

import doctest
from pathlib import Path

SOLVER_DOC = Path(__file__).resolve().parents[2] / "docs" / "solver.md"


def test_solver_page_example_runs() -> None:
    result = doctest.testfile(str(SOLVER_DOC), module_relative=False, verbose=False)
    assert result.attempted >= 6
    assert result.failed == 0
