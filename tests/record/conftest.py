"""Shared record texts: the examples of docs/record-format.md are the test fixtures, so the
documentation cannot drift from what the reader accepts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"


def doc_blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.fixture
def sochi_text() -> str:
    return doc_blocks("pref")[0]


@pytest.fixture
def croatian_text() -> str:
    return doc_blocks("pref")[1]
