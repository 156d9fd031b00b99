"""docs/api.md is a guide whose examples run: every ``>>>`` line is a doctest."""

from __future__ import annotations

import doctest
from pathlib import Path

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_api_guide_examples_run() -> None:
    result = doctest.testfile(str(API_DOC), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted >= 20  # the guide's examples were found, not skipped
    assert result.failed == 0


def test_the_readme_links_the_api_guide() -> None:
    readme = (API_DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "](docs/api.md)" in readme
    assert "## Statistics as DataFrames and Arrow" in API_DOC.read_text(encoding="utf-8")
