"""Headless Chromium for the browser tests, driven by Playwright.

The browser is Debian's ``chromium-headless-shell`` (or ``chromium``), never Playwright's own download:
``.ci/run`` installs the package when it is missing and sets ``PREFLOG_REQUIRE_BROWSER=1``, which turns a
missing browser or a missing ``playwright`` into a failure instead of a skip.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
CANDIDATES = ("chromium-headless-shell", "chromium", "/usr/lib/chromium/chromium-headless-shell",
              "/usr/lib/chromium/chromium")
# Screenshots for a person to look at (gitignored).
SHOTS = Path(__file__).parent / "screenshots"


def chromium_path() -> str | None:
    for name in CANDIDATES:
        found = shutil.which(name) or (name if os.path.isfile(name) and os.access(name, os.X_OK) else None)
        if found:
            return found
    return None


def _unavailable(why: str) -> None:
    if os.environ.get("PREFLOG_REQUIRE_BROWSER"):
        pytest.fail(f"browser tests required (PREFLOG_REQUIRE_BROWSER) but {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[browser]')")
    exe = chromium_path()
    if exe is None:
        _unavailable("no chromium-headless-shell or chromium on PATH (apt-get install chromium-headless-shell)")
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=exe, args=LAUNCH_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()
    finally:
        pw.stop()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    """A fresh page that records every request it makes (``page.requests``)."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, device_scale_factor=1)
    pg = context.new_page()
    requests: list[str] = []
    pg.on("request", lambda r: requests.append(r.url))
    pg.requests = requests
    try:
        yield pg
    finally:
        context.close()
