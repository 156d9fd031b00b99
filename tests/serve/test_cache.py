"""What the server keeps between requests (a pulka's events by the table's version, its replayed state and
drawn sheet) is never stale: after a correction, an entry by a second server on the same store (another
process, another phone's server) and a restart, every page shows what a fresh server replays from the store;
and an entry on one pulka leaves what is kept of the others."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from preflog.serve import create_app
from preflog.store.delta import DeltaStore
from preflog.workspace import Workspace

from .conftest import csrf as _csrf

NAMES = ["Anna", "Boris", "Vera"]
DEALS: list[dict[str, Any]] = [
    {"kind": "contract", "declarer": 0, "contract": "6s", "calls": {"1": "whist", "2": "pass"}, "tricks": [6, 3, 1]},
    {"kind": "raspasy", "tricks": [1, 5, 4]},
    {"kind": "contract", "declarer": 2, "contract": "7d", "calls": {"0": "whist", "1": "pass"}, "tricks": [2, 1, 7]},
    {"kind": "contract", "declarer": 1, "contract": "6h", "calls": {"2": "pass", "0": "pass"}},
]


def _client(store: Path) -> TestClient:
    c = TestClient(create_app(store))
    c.get("/new")  # the page sets the CSRF cookie
    return c


def _start(c: TestClient) -> str:
    r = c.post("/api/pulkas", json={"players": NAMES, "rules": "sochi", "pool": 30, "date": "2026-12-03"},
               headers=_csrf(c))
    assert r.status_code == 201, r.text
    pid: str = r.json()["id"]
    return pid


def _enter(c: TestClient, pid: str, seq: int, deal: dict[str, Any]) -> Any:
    return c.post(f"/api/pulka/{pid}/deals", json={"expected_seq": seq, "deal": deal}, headers=_csrf(c))


def _fresh(store: Path, pid: str) -> dict[str, Any]:
    """The pulka's state as a server started now replays it from the store."""
    got: dict[str, Any] = _client(store).get(f"/api/pulka/{pid}").json()
    return got


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pulkas read from a store (any server's), in order."""
    seen: list[str] = []
    real = DeltaStore.read

    def read(self: DeltaStore, pulka: str) -> Any:
        seen.append(pulka)
        return real(self, pulka)

    monkeypatch.setattr(DeltaStore, "read", read)
    return seen


def test_a_correction_shows_the_sheet_a_fresh_replay_draws(store: Path) -> None:
    c = _client(store)
    pid = _start(c)
    seq = 1
    for deal in DEALS[:3]:
        r = _enter(c, pid, seq, deal)
        assert r.status_code == 201, r.text
        seq = r.json()["seq"]
    c.get(f"/pulka/{pid}")   # the page of three deals, kept
    r = c.post(f"/api/pulka/{pid}/correct", json={"expected_seq": seq, "deal": 2, "entry": DEALS[3]},
               headers=_csrf(c))
    assert r.status_code == 201, r.text
    after = r.json()
    assert after == c.get(f"/api/pulka/{pid}").json() == _fresh(store, pid)
    assert [h["kind"] for h in after["history"]] == ["entered", "entered", "entered", "correction"]
    assert after["svg"] != _enter_state_before(store, pid, seq)   # the drawing changed with the correction
    page = c.get(f"/pulka/{pid}").text
    assert after["svg"] in page


def _enter_state_before(store: Path, pid: str, seq: int) -> str:
    """The drawn sheet of the pulka's first ``seq`` events (before the correction), replayed afresh."""
    ws = Workspace(store)
    server = create_app(store).state.server
    svg: str = server.state(pid, ws.store().read(pid)[:seq])["svg"]
    return svg


def test_an_entry_by_a_second_server_is_shown_by_the_first(store: Path) -> None:
    """Two servers on one store (two processes, or two phones' servers): what the first kept of the pulka
    gives way to the second's entry, and the first refuses an entry made on the state it no longer shows."""
    one = _client(store)
    pid = _start(one)
    r = _enter(one, pid, 1, DEALS[0])
    assert r.status_code == 201
    seq = r.json()["seq"]
    assert one.get(f"/api/pulka/{pid}").json()["seq"] == seq   # kept by the first server
    two = _client(store)
    r = _enter(two, pid, seq, DEALS[1])
    assert r.status_code == 201, r.text
    now = r.json()
    assert one.get(f"/api/pulka/{pid}").json() == now == _fresh(store, pid)
    stale = _enter(one, pid, seq, DEALS[2])   # the first phone's page still showed one deal
    assert stale.status_code == 409 and stale.json()["state"] == now
    r = _enter(one, pid, now["seq"], DEALS[2])
    assert r.status_code == 201
    assert r.json() == two.get(f"/api/pulka/{pid}").json() == _fresh(store, pid)
    assert r.json()["deals"] == 3


def test_a_restarted_server_shows_the_same_sheet(store: Path) -> None:
    c = _client(store)
    pid = _start(c)
    seq = 1
    for deal in DEALS:
        r = _enter(c, pid, seq, deal)
        assert r.status_code == 201, r.text
        seq = r.json()["seq"]
    before = c.get(f"/api/pulka/{pid}").json()
    again = _client(store)
    assert again.get(f"/api/pulka/{pid}").json() == before
    assert _enter(again, pid, seq, DEALS[0]).json() == _fresh(store, pid)


def test_an_entry_on_one_pulka_keeps_what_is_kept_of_the_others(store: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The server keeps a pulka's events by the table's version; a commit that appended to another pulka
    (its heads record says which) leaves them good. A commit that records no heads (a compaction) does not:
    the pulka is read again, and shows the same."""
    c = _client(store)
    first, second = _start(c), _start(c)
    shown = c.get(f"/api/pulka/{second}").json()
    reads = _reads(monkeypatch)
    seq = 1
    for deal in DEALS[:3]:
        r = _enter(c, first, seq, deal)
        assert r.status_code == 201
        seq = r.json()["seq"]
        assert c.get(f"/api/pulka/{second}").json() == shown
    assert second not in reads    # the second pulka was not read again after the entries on the first
    st = Workspace(store).store()
    assert isinstance(st, DeltaStore)
    st.compact(vacuum_retention_hours=None)
    assert c.get(f"/api/pulka/{second}").json() == shown == _fresh(store, second)
    assert reads.count(second) >= 1   # a commit without a heads record: read again


def test_every_tenth_version_a_checkpoint_and_the_store_verifies_clean(store: Path) -> None:
    """A live pulka commits once a deal: every :data:`~preflog.serve.app.CHECKPOINT_EVERY` versions the
    server writes a checkpoint of the log after answering, so a server started later reads it and a few
    commits; nothing of the log is lost (history whole, verify clean), and the pulka reads the same."""
    from preflog.serve import app as serve_app

    c = _client(store)
    server = c.app.state.server  # type: ignore[attr-defined]
    pid = _start(c)
    seq = 1
    log = store / "events" / "_delta_log"
    for k in range(serve_app.CHECKPOINT_EVERY + 1):
        r = _enter(c, pid, seq, DEALS[k % len(DEALS)])
        assert r.status_code == 201, r.text
        seq = r.json()["seq"]
    assert server.checkpointing is not None
    server.checkpointing.join(60)
    checkpoints = sorted(p.name for p in log.glob("*.checkpoint.parquet"))
    assert checkpoints == [f"{serve_app.CHECKPOINT_EVERY:020d}.checkpoint.parquet"], checkpoints
    assert (log / "_last_checkpoint").exists()
    st = Workspace(store).store()
    assert isinstance(st, DeltaStore) and st.verify() == []
    assert len(st.history()) == st.version() + 1   # every commit still in the log
    assert c.get(f"/api/pulka/{pid}").json() == _fresh(store, pid)
