"""The start form offers the store's players to pick (issue 39, item 5): the last table's players first, in
their seats, then every other player the store holds, alphabetically; one button fills the last table."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from preflog.application import Archive
from preflog.workspace import Workspace

from .conftest import csrf


def _start(c: TestClient, players: list[str], date: str) -> None:
    form = {"players": players, "rules": "sochi", "pool": 20, "whist_price": "1", "date": date}
    r = c.post("/api/pulkas", json=form, headers=csrf(c))
    assert r.status_code == 201, r.text


def _offered(page: str) -> list[str]:
    found = re.search(r'<datalist id="known">(.*?)</datalist>', page, re.S)
    assert found
    return [html.unescape(v) for v in re.findall(r'<option value="([^"]*)">', found.group(1))]


def _data(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    assert found
    out: dict[str, Any] = json.loads(found.group(1))
    return out


def test_an_empty_store_offers_no_names(client: TestClient) -> None:
    page = client.get("/new").text
    assert _offered(page) == [] and 'id="last-table"' not in page
    assert page.count('list="known"') == 4


def test_the_last_tables_players_first_then_the_others(client: TestClient, store: Path) -> None:
    _start(client, ["Ольга", "Bob", "Ann"], "2026-12-01")
    _start(client, ["Zoe", "Dan", "Eve", "Bob"], "2026-12-03")  # the most recent: the last table
    page = client.get("/new").text
    # the last table in its seats, then the others (Ann, Ольга) alphabetically; Bob once
    assert _offered(page) == ["Zoe", "Dan", "Eve", "Bob", "Ann", "Ольга"]
    assert '<button id="last-table" type="button">Last table: Zoe, Dan, Eve, Bob</button>' in page
    assert _data(page)["last_table"] == ["Zoe", "Dan", "Eve", "Bob"]
    # the application's answer, which the page shows
    known = Archive(Workspace(store)).known_players()
    assert list(known.offered) == _offered(page)
    assert known.last_table == ("Zoe", "Dan", "Eve", "Bob") and known.others == ("Ann", "Ольга")


def test_a_name_is_escaped_in_the_list(client: TestClient) -> None:
    _start(client, ["O'Neil", "<i>", "C&D"], "2026-12-01")
    page = client.get("/new").text
    assert _offered(page) == ["O'Neil", "<i>", "C&D"]
    assert "<i>" not in page.split('<datalist id="known">')[1].split("</datalist>")[0]
