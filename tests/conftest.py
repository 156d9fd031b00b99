"""The tests that need something the README's install does not bring: an extra, a system package.

``pip install -e ".[test]"`` and ``pytest`` (the README's two commands) run everything else; each test
below is marked and, where what it needs is missing, skipped with a reason that says how to get it.
A run that must not skip them (``.ci/run``'s extras lane) sets the ``PREFLOG_REQUIRE_…`` variable of
each, and then a missing piece fails the test instead (the fixtures and helpers that start Spark or
the browser do that; here the skip is simply not added).

=========  ====================================================  =========================================
marker     what it needs                                         how to get it
=========  ====================================================  =========================================
spark      pyspark (the job in local mode; Java on the machine)  ``pip install -e ".[spark,spark-test]"``
browser    Playwright and Debian's headless Chromium             ``pip install -e ".[browser]"``,
                                                                 ``apt-get install chromium-headless-shell``
nginx      Debian's nginx (run as the user's own process, in     ``apt-get install nginx`` (openssl makes
           front of ``preflog serve``) and openssl               the test's certificate)
=========  ====================================================  =========================================

A test of such a folder that needs nothing of it (the plan's arithmetic, the message a user gets
without the extra) carries ``needs_no_extra`` and runs everywhere. ``pytest -m "spark or browser"``
runs just these folders.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

# folder (or file) under tests/ → the marker every test in it carries (a file in a marked folder may add one)
MARKED: dict[str, str] = {
    "spark": "spark",
    "benchmarks/test_spark_cluster_quick.py": "spark",
    "application/test_front_ends_spark.py": "spark",
    "browser": "browser",
    "browser/test_deploy.py": "nginx",
}

CHROMIUM = ("chromium-headless-shell", "chromium", "/usr/lib/chromium/chromium-headless-shell",
            "/usr/lib/chromium/chromium")


def _has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _chromium() -> bool:
    return any(shutil.which(c) or (os.path.isfile(c) and os.access(c, os.X_OK)) for c in CHROMIUM)


def missing(marker: str) -> str | None:
    """Why the tests of ``marker`` cannot run on this install, or None when they can."""
    if marker == "spark":
        return None if _has("pyspark") else "needs the spark extra: pip install -e '.[spark,spark-test]'"
    if marker == "browser":
        if not _has("playwright"):
            return "needs the browser extra: pip install -e '.[browser]' (and apt-get install chromium-headless-shell)"
        if not _chromium():
            return "needs Debian's headless Chromium: apt-get install chromium-headless-shell"
        return None
    if marker == "nginx":
        if not any(shutil.which(n) for n in NGINX):
            return "needs Debian's nginx: apt-get install nginx"
        return None if shutil.which("openssl") else "needs openssl (the test's certificate): apt-get install openssl"
    raise ValueError(marker)


NGINX = ("nginx", "/usr/sbin/nginx")
REQUIRED = {"spark": "PREFLOG_REQUIRE_SPARK", "browser": "PREFLOG_REQUIRE_BROWSER", "nginx": "PREFLOG_REQUIRE_NGINX"}


def markers_of(path: Path) -> list[str]:
    rel = path.resolve().relative_to(TESTS).as_posix() if path.resolve().is_relative_to(TESTS) else ""
    return [marker for prefix, marker in MARKED.items() if rel == prefix or rel.startswith(prefix + "/")]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    why: dict[str, str | None] = {}
    for item in items:
        for marker in markers_of(item.path):
            item.add_marker(getattr(pytest.mark, marker))
            if item.get_closest_marker("needs_no_extra"):
                continue  # in the folder, but a test of what works without the extra
            if marker not in why:
                why[marker] = missing(marker)
            reason = why[marker]
            if reason is not None and os.environ.get(REQUIRED[marker]) != "1":
                item.add_marker(pytest.mark.skip(reason=reason))
