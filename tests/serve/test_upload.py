"""The web import (``POST /api/import``): text records that start with a tag pair are read as text, an
upload with audit findings says so, and the file is read and audited without the server's lock."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import preflog.importer.session as session
from preflog.serve.app import Server

from .conftest import csrf

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "examples"


def _upload(c: TestClient, path: Path, name: str | None = None) -> Any:
    return c.post("/api/import", content=path.read_bytes(),
                  headers={**csrf(c), "X-File-Name": name or path.name})


def test_a_text_record_that_starts_with_a_tag_pair_is_read_as_text(client: TestClient) -> None:
    # the file's first byte is "[" ([Players "…"]): a text record, not JSON
    worked = EXAMPLES / "digest-b1.6-worked-deal.pref"
    assert worked.read_bytes()[:1] == b"["
    r = _upload(client, worked)
    assert r.status_code == 201, r.text
    assert [i["status"] for i in r.json()["items"]] == ["imported"]
    # a shipped demo file (it starts with its tag pairs too)
    demo = ROOT / "data" / "demo" / "croatian-3p.pref"
    assert demo.read_bytes()[:1] == b"["
    r = _upload(client, demo)
    assert r.status_code == 201, r.text
    assert r.json()["items"] and {i["status"] for i in r.json()["items"]} == {"imported"}
    # a JSON record is still read as JSON, under any name (the record layer tells them apart by content)
    r = _upload(client, ROOT / "data" / "demo" / "paper-3p.json", name="paper.pref")
    assert r.status_code == 201, r.text


def test_an_upload_with_audit_findings_says_how_many_and_where_the_first_is(client: TestClient) -> None:
    r = _upload(client, EXAMPLES / "seed001-bidding-illegal.pref")
    assert r.status_code == 201, r.text
    first = r.json()["items"][0]
    # the file's line 8 is "Auction: A 6s, B 7s": B jumps from 6♠ to 7♠ over 6♣ … 6NT
    assert first["id"] == "seed001-illegal-jump" and first["findings"] == 1
    assert first["first_finding"] == {"line": 8, "deal": 1,
                                      "message": "7s skips ladder steps; the next step is 6c (no jumps)"}
    clean = _upload(client, EXAMPLES / "seed003-settlement.pref").json()["items"][0]
    assert clean["findings"] == 0 and clean["first_finding"] is None


def test_a_table_entry_is_not_held_up_while_an_upload_is_read(client: TestClient,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    r = client.post("/api/pulkas", json={"players": ["Anna", "Boris", "Vera"], "rules": "sochi", "pool": 10},
                    headers=csrf(client))
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    reading, entered = threading.Event(), threading.Event()
    saw_entry: list[bool] = []
    prepared = session.prepared_files

    def slow(*args: Any, **kwargs: Any) -> Iterator[Any]:
        """The upload's reading, held until the table's entry is in (or 5 s passed: the entry was blocked)."""
        reading.set()
        saw_entry.append(entered.wait(5.0))
        yield from prepared(*args, **kwargs)

    monkeypatch.setattr(session, "prepared_files", slow)
    body = (EXAMPLES / "seed003-settlement.pref").read_bytes()
    result: list[Any] = []
    upload = threading.Thread(target=lambda: result.append(server.upload("s.pref", body)))
    upload.start()
    assert reading.wait(5.0)
    began = time.monotonic()
    r = client.post(f"/api/pulka/{pid}/deals", json={"expected_seq": 1, "deal": {"kind": "raspasy",
                                                                                 "tricks": [1, 9, 0]}},
                    headers=csrf(client))
    took = time.monotonic() - began
    entered.set()
    upload.join(30.0)
    assert r.status_code == 201, r.text
    assert saw_entry == [True] and took < 4.0, took   # the entry went in while the upload was being read
    assert [i["status"] for i in result[0]["items"]] == ["imported"]


def test_an_upload_answers_with_its_row_of_the_import_ledger(client: TestClient) -> None:
    """Six one-deal pulkas, each with one illegal auction (tests/cli/test_seed_examples.py names the six
    codes): 0 clean, 6 with findings, one deal a code. The ledger names the upload by its own name, never
    the server's temporary file."""
    r = _upload(client, EXAMPLES / "seed001-bidding-illegal.pref", name="friday.pref")
    assert r.status_code == 201, r.text
    ledger = r.json()["ledger"]
    assert ledger["headline"] == ("0 deals clean, 6 with findings: bid_not_above_last 1, hold_not_allowed 1, "
                                  "jump_bid 1, miser_not_beaten 1, miser_not_bid 1, miser_not_first_call 1")
    assert ledger["sources"] == ["friday.pref"] and ledger["pulkas_imported"] == 6
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    assert server.ws.ledger()[-1].import_id == ledger["import_id"]
