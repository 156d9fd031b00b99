"""Shared by the CLI tests: an 80-column terminal, for the tests that check what a narrow terminal shows."""

from __future__ import annotations

import pytest

from preflog.cli import app as cli

WIDTH = 80


@pytest.fixture
def narrow(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's consoles (standard output and error) print at ``WIDTH`` columns."""
    monkeypatch.setattr(cli.out, "width", WIDTH)
    monkeypatch.setattr(cli.err, "width", WIDTH)
