"""preflog serve's update stream (``GET /api/pulka/{id}/stream``, server-sent events) over a real uvicorn
server in a thread: the log's length at once and when it grows, heartbeats, the read rules, the cap on open
streams, and a shutdown that does not wait for the open streams."""

from __future__ import annotations

import queue
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from preflog.serve import app as serve_app
from preflog.serve import create_app
from preflog.serve import uvicorn_server

NAMES = ["Запад", "Восток", "Юг"]
RASPASY = {"kind": "raspasy", "tricks": [1, 9, 0]}


@contextmanager
def serving(store: Path, **options: Any) -> Iterator[tuple[httpx.Client, Any]]:
    """The app over ``store`` served by :func:`uvicorn_server` on a free port; a client that holds the page's
    CSRF cookie, and the uvicorn server (the ``with`` ends it and checks that its thread ended)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn_server(create_app(store, **options), "127.0.0.1", port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    try:
        yield client, server
    finally:
        server.should_exit = True
        thread.join(10)
        client.close()
        assert not thread.is_alive()


def start(c: httpx.Client, token: str | None = None) -> str:
    q = {"token": token} if token else {}
    c.get("/new", params=q)
    body = {"players": NAMES, "rules": "sochi", "pool": 14, "whist_price": "1", "date": "2026-12-03"}
    r = c.post("/api/pulkas", params=q, json=body, headers={"X-CSRF-Token": c.cookies["preflog_csrf"]})
    assert r.status_code == 201, r.text
    pid: str = r.json()["id"]
    return pid


def enter(c: httpx.Client, pid: str, seq: int) -> None:
    r = c.post(f"/api/pulka/{pid}/deals", json={"expected_seq": seq, "deal": RASPASY},
               headers={"X-CSRF-Token": c.cookies["preflog_csrf"]})
    assert r.status_code == 201, r.text


class Reader:
    """The lines of one open stream, read in a thread (``next`` waits at most ``timeout`` seconds)."""

    def __init__(self, c: httpx.Client, url: str, **params: str) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.opened = threading.Event()
        self.response: httpx.Response | None = None
        self.thread = threading.Thread(target=self._read, args=(c, url, params), daemon=True)
        self.thread.start()
        assert self.opened.wait(10)

    def _read(self, c: httpx.Client, url: str, params: dict[str, str]) -> None:
        try:
            with c.stream("GET", url, params=params, timeout=httpx.Timeout(10, read=60)) as r:
                self.response = r
                self.opened.set()
                for line in r.iter_lines():
                    self.lines.put(line)
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()
            self.lines.put(None)   # the stream ended

    def next(self, timeout: float = 5) -> str | None:
        while True:
            line = self.lines.get(timeout=timeout)
            if line != "":
                return line

    def length(self, timeout: float = 5) -> int:
        """The next ``length`` event's number (comments and the retry line skipped)."""
        while True:
            line = self.next(timeout)
            assert line is not None, "the stream ended"
            if line.startswith("data: "):
                return int(line[6:])


def test_the_stream_says_the_length_at_once_and_when_the_log_grows(tmp_path: Path) -> None:
    with serving(tmp_path / "store") as (c, _):
        pid = start(c)
        r = Reader(c, f"/api/pulka/{pid}/stream")
        assert r.response is not None and r.response.status_code == 200
        assert r.response.headers["content-type"].startswith("text/event-stream")
        assert r.response.headers["x-content-type-options"] == "nosniff"
        assert r.next() == "retry: 2000"
        assert r.next() == "event: length"
        assert r.length() == 1                         # PulkaStarted
        began = time.monotonic()
        enter(c, pid, 1)
        assert r.length() == 3                         # DealStarted, PaperResult
        assert time.monotonic() - began < serve_app.LOOK + 2   # woken by the entry (not a poll of seconds)
        enter(c, pid, 3)
        assert r.length() == 5


def test_an_append_by_another_process_reaches_the_stream(tmp_path: Path) -> None:
    from preflog.model.events import DealStarted
    from preflog.model.events import PaperResult
    from preflog.workspace import Workspace

    with serving(tmp_path / "store") as (c, _):
        pid = start(c)
        r = Reader(c, f"/api/pulka/{pid}/stream")
        assert r.length() == 1
        Workspace(tmp_path / "store").store().append(pid, [DealStarted(1), PaperResult((1, 9, 0))], 1)
        assert r.length(timeout=serve_app.LOOK + 5) == 3


def test_a_quiet_stream_has_heartbeats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve_app, "HEARTBEAT", 0.2)
    monkeypatch.setattr(serve_app, "LOOK", 0.1)
    with serving(tmp_path / "store") as (c, _):
        pid = start(c)
        r = Reader(c, f"/api/pulka/{pid}/stream")
        assert r.length() == 1
        assert r.next() == ": still here"


def test_the_stream_keeps_the_read_rules(tmp_path: Path) -> None:
    with serving(tmp_path / "store", table_token="s3cret") as (c, _):
        pid = start(c, token="s3cret")
        bare = httpx.Client(base_url=str(c.base_url), timeout=10)   # no cookie, no token
        r = bare.get(f"/api/pulka/{pid}/stream")
        assert r.status_code == 401 and "join link" in r.json()["error"]
        assert bare.get(f"/api/pulka/{pid}/stream", params={"token": "wrong"}).status_code == 401
        bare.close()
        assert c.get("/api/pulka/nosuch/stream").status_code == 404
        assert c.get("/api/pulka/..%2F..%2Fetc/stream").status_code == 404
        r2 = Reader(c, f"/api/pulka/{pid}/stream")        # the page's cookie carries the token
        assert r2.length() == 1
    with serving(tmp_path / "store", table_token="s3cret", public_read=True) as (c, _):
        assert Reader(c, f"/api/pulka/{pid}/stream").length() == 1


def test_open_streams_are_capped(tmp_path: Path) -> None:
    with serving(tmp_path / "store") as (c, server):
        streams = server.config.app.state.server.streams
        streams.most = 2
        pid = start(c)
        first, second = Reader(c, f"/api/pulka/{pid}/stream"), Reader(c, f"/api/pulka/{pid}/stream")
        assert first.length() == 1 and second.length() == 1
        r = c.get(f"/api/pulka/{pid}/stream")
        assert r.status_code == 503 and "update streams are open" in r.json()["error"]
        assert len(streams) == 2


def test_shutdown_ends_the_open_streams(tmp_path: Path) -> None:
    with serving(tmp_path / "store") as (c, server):
        pid = start(c)
        readers = [Reader(c, f"/api/pulka/{pid}/stream") for _ in range(3)]
        assert all(r.length() == 1 for r in readers)
        began = time.monotonic()
        server.should_exit = True
        for r in readers:   # each stream ends: its last line, then the end
            while r.next(timeout=5) is not None:
                pass
        assert time.monotonic() - began < serve_app.LOOK + 2    # not uvicorn's grace period: closed at once
        assert len(server.config.app.state.server.streams) == 0
