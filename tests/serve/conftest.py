"""What the serve tests share: a client of the app over a store (its CSRF cookie set by a page) and the
header a write carries."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from preflog.serve import create_app


def open_client(store: Path) -> Iterator[TestClient]:
    """A client of the app over ``store``, the CSRF cookie set (the start form's page sets it)."""
    with TestClient(create_app(store)) as c:
        c.get("/new")
        yield c


def csrf(c: TestClient) -> dict[str, str]:
    """The header a write carries: the page's CSRF token (double submit)."""
    return {"X-CSRF-Token": c.cookies["preflog_csrf"]}


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    """Where the app's store goes (created by the first pulka started)."""
    return tmp_path / "store"


@pytest.fixture()
def client(store: Path) -> Iterator[TestClient]:
    yield from open_client(store)
