"""``preflog serve``: the thin command — where it listens, what it prints, when it makes a table token."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app

runner = CliRunner()


@pytest.fixture()
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The uvicorn server's run recorded instead of run (it would serve until interrupted)."""
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a: calls.append(
        {"app": self.config.app, "host": self.config.host, "port": self.config.port}))
    return calls


def test_serve_binds_loopback_and_prints_its_address(served: list[dict[str, Any]], tmp_path: Path) -> None:
    r = runner.invoke(app, ["serve", "--store", str(tmp_path), "--no-browser", "--port", "8999"],
                      env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    (call,) = served
    assert call["host"] == "127.0.0.1" and call["port"] == 8999
    assert r.output == f"preflog serve: {tmp_path} at http://127.0.0.1:8999/\n"
    assert call["app"].state.server.settings.table_token is None
    from starlette.testclient import TestClient

    assert TestClient(call["app"], base_url="http://rebound.example:8999").get("/").status_code == 400
    assert TestClient(call["app"], base_url="http://127.0.0.1:8999").get("/").status_code == 200


def test_another_host_gets_a_table_token_and_a_join_link(served: list[dict[str, Any]], tmp_path: Path) -> None:
    r = runner.invoke(app, ["serve", "--store", str(tmp_path), "--no-browser", "--host", "0.0.0.0"])
    assert r.exit_code == 0, r.output
    (call,) = served
    token = call["app"].state.server.settings.table_token
    assert call["host"] == "0.0.0.0" and token and len(token) >= 20
    assert f"http://127.0.0.1:8765/?token={token}" in r.output
    assert "join link" in r.output and f":8765/?token={token}" in r.output.split("join link", 1)[1]


def test_a_taken_port_is_one_line_and_status_2(served: list[dict[str, Any]], tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = runner.invoke(app, ["serve", "--store", str(tmp_path), "--no-browser", "--port", str(port)])
    assert r.exit_code == 2 and served == []
    assert r.output.count("\n") == 1 and f"cannot listen on 127.0.0.1 port {port}" in r.output


def test_a_pin_and_public_read_go_with_another_host(served: list[dict[str, Any]], tmp_path: Path) -> None:
    r = runner.invoke(app, ["serve", "--store", str(tmp_path), "--no-browser", "--host", "0.0.0.0", "--port", "8998",
                            "--pin", "4711", "--public-read"], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    assert "?token=4711" in r.output and "type the PIN 4711" in r.output and "reading is public" in r.output
    settings = served[0]["app"].state.server.settings
    assert settings.table_token == "4711" and settings.public_read and settings.pin
    for bad in (["--pin", "12"], ["--pin", "abcd"]):
        r = runner.invoke(app, ["serve", "--store", str(tmp_path), "--no-browser", "--host", "0.0.0.0", *bad])
        assert r.exit_code == 2 and "a PIN is 4 to 12 digits" in r.output
    r = runner.invoke(app, ["serve", "--store", str(tmp_path), "--no-browser", "--public-read"])
    assert r.exit_code == 2 and "give --host" in r.output
