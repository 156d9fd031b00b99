"""The reliability suite's scale and its count of cases.

``PREFLOG_RELIABILITY=long`` runs the long version at issue 31's scale (every file of the store tampered
in every way, ≥ 60 kills, ≥ 125,000 record mutations); unset, a short sample of each runs in the
ordinary suite. The suite reports, at the end of the run, how many cases of each kind it ran.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

LONG_ENV = "PREFLOG_RELIABILITY"
LONG = os.environ.get(LONG_ENV, "").strip().lower() == "long"

COUNTS: Counter[str] = Counter()
"""Cases run, by kind (``tamper``, ``kill``, ``text mutation``, ``JSON mutation``): added to by the tests."""


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if COUNTS:
        scale = "long" if LONG else f"short; {LONG_ENV}=long for the long run"
        ran = ", ".join(f"{n:,} {kind}{'' if n == 1 else 's'}" for kind, n in sorted(COUNTS.items()))
        terminalreporter.write_line(f"reliability suite ({scale}): {ran}")
