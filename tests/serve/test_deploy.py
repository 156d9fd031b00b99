"""Issue 39, item 10, without a browser: ``preflog serve`` behind a reverse proxy under a path, its web app
manifest and icons, and the command lines of the service units in deploy/ (tests/browser/test_deploy.py
puts nginx with TLS in front and drives a phone through it)."""

from __future__ import annotations

import json
import os
import re
import shlex
import struct
import subprocess
import sys
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
import zlib
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import preflog.serve as serve_mod
from preflog.cli.app import app
from preflog.serve import ServeError
from preflog.serve import create_app
from preflog.serve.install import LOBES
from preflog.serve.install import POLYGONS
from preflog.serve.proxy import RootPathError
from preflog.serve.proxy import check_root_path

from ..browser.names import table_store
from ..browser.test_serve import _serving

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def _get(url: str, **headers: str) -> tuple[int, dict[str, list[str]], bytes]:
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req) as r:
            got: dict[str, list[str]] = {}
            for k, v in r.headers.items():
                got.setdefault(k.lower(), []).append(v)
            return r.status, got, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): [v] for k, v in exc.headers.items()}, exc.read()


def test_under_a_root_path_every_address_a_page_writes_carries_it(tmp_path: Path) -> None:
    store, ids = table_store(tmp_path)
    # the proxy strips /preflog: the app is asked for /…, as nginx's proxy_pass with a slash asks
    with _serving(store, root_path="/preflog", proxied=True) as base:
        for path in ("/", "/new", f"/pulka/{ids['table-russian-3p']}"):
            status, _, body = _get(base + path)
            assert status == 200, path
            html = body.decode("utf-8")
            links = re.findall(r'(?:href|action)="([^"#][^"]*)"', html)
            assert links and all(u.startswith("/preflog/") for u in links), (path, links)
            assert '<meta name="preflog-root" content="/preflog">' in html
            assert '<link rel="manifest" href="/preflog/manifest.webmanifest">' in html
            assert "manifest-src 'self'" in unescape(html)   # the page's policy lets the manifest load
        # the page's script asks every address under the root it reads from the page
        assert "ROOT + \"/api/pulka/\"" in html and not re.search(r'[^+] "/(api|pulka)/', html)
        # an API refusal under the root path is still JSON (a write without the page's CSRF token)
        req = urllib.request.Request(base + "/api/pulkas", data=b"{}", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req)
        assert refused.value.code == 403 and "CSRF" in json.loads(refused.value.read())["error"]
        # behind TLS (the proxy's X-Forwarded-Proto from this machine) the cookies are Secure
        _, headers, _ = _get(base + "/new", **{"X-Forwarded-Proto": "https"})
        assert all("Secure" in c for c in headers["set-cookie"]) and headers["set-cookie"]
        _, headers, _ = _get(base + "/new")
        assert not any("Secure" in c for c in headers["set-cookie"])


def test_forwarded_headers_count_only_when_proxied(tmp_path: Path) -> None:
    store, _ = table_store(tmp_path)
    with _serving(store, proxied=False) as base:
        _, headers, _ = _get(base + "/new", **{"X-Forwarded-Proto": "https"})
        assert not any("Secure" in c for c in headers["set-cookie"])   # anyone could send the header


def _png_size_and_pixels(data: bytes) -> tuple[int, int, bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size = 8, b"", (0, 0)
    while pos < len(data):
        (n,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body)
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
            assert body[8:10] == b"\x08\x02"   # 8 bits, RGB
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    return size[0], size[1], zlib.decompress(idat)


def test_the_manifest_and_its_icons(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    c = TestClient(create_app(tmp_path / "store", table_token="secret"))   # no token needed for these
    r = c.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.headers["content-type"] == "application/manifest+json"
    m = r.json()
    assert (m["start_url"], m["scope"], m["display"]) == ("./", "./", "standalone")
    sizes = {i["sizes"] for i in m["icons"]}
    assert {"192x192", "512x512", "any"} <= sizes
    for icon in m["icons"]:
        got = c.get("/" + icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            w, h, rows = _png_size_and_pixels(got.content)
            n = int(icon["sizes"].split("x")[0])
            assert (w, h) == (n, n) and len(rows) == n * (3 * n + 1)

            def pixel(x: int, y: int, rows: bytes = rows, n: int = n) -> bytes:
                return rows[y * (3 * n + 1) + 1 + 3 * x:y * (3 * n + 1) + 4 + 3 * x]
            assert pixel(2, 2) == bytes((11, 93, 42)) and pixel(n // 2, n // 2) == b"\xff\xff\xff"
        else:
            ET.fromstring(got.text)   # well-formed SVG
    assert c.get("/icon-180.png").status_code == 200   # the home screen icon iOS asks for
    # the spade stays in the middle 80 % circle a launcher's mask keeps
    points = [(x, y) for poly in POLYGONS for x, y in poly] + [
        (cx + dx * r, cy + dy * r) for cx, cy, r in LOBES for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    assert max(((x - 0.5) ** 2 + (y - 0.5) ** 2) ** 0.5 for x, y in points) <= 0.4


def test_root_paths() -> None:
    assert check_root_path("") == "" and check_root_path("/") == ""
    assert check_root_path("/preflog/") == "/preflog" and check_root_path("/club/preflog") == "/club/preflog"
    for bad in ("preflog", "/pre flog", "/../etc", '/a"b', "/a//b"):
        with pytest.raises(RootPathError, match="--root-path"):
            check_root_path(bad)


class _Ran:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def __call__(self, app: Any, host: str, port: int, root: str = "", proxied: bool = False) -> Any:
        self.calls.append((app, host, port, root, proxied))
        return self

    def run(self) -> None:
        pass


def _unit_command(unit: str, key: str = "ExecStart") -> list[str]:
    text = (DEPLOY / unit).read_text(encoding="utf-8").replace("\\\n", " ")
    (line,) = [x for x in text.splitlines() if x.startswith(key + "=")]
    # systemd's own escapes: $$ is a dollar sign, %% a percent sign
    return shlex.split(line.removeprefix(key + "=").replace("$$", "$").replace("%%", "%"))


def test_the_service_units_command_line_serves_behind_the_proxy(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    ran = _Ran()
    monkeypatch.setattr(serve_mod, "uvicorn_server", ran)
    args = _unit_command("preflog.service")
    assert args[0].endswith("/bin/preflog")
    args = [a.replace("${PREFLOG_PIN}", "123456").replace("/var/lib/preflog", str(tmp_path)) for a in args[1:]]
    args[args.index("--port") + 1] = "0"
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    (made, host, _, root, proxied), = ran.calls
    assert (host, root, proxied) == ("127.0.0.1", "/preflog", True)
    assert made.state.server.settings.table_token == "123456"   # proxied: the table needs its PIN
    assert "behind the proxy: players open its address of /preflog with ?token=123456" in res.output
    # without a proxy in front, a PIN on loopback is refused in one line
    with pytest.raises(ServeError, match="--proxied"):
        serve_mod.run(tmp_path, port=0, open_browser=False, pin="123456", say=lambda _: None)


def test_the_backup_units_commands_back_up_and_keep_the_newest_30(tmp_path: Path) -> None:
    store, _ = table_store(tmp_path)
    backups = tmp_path / "bk"
    backups.mkdir()
    for day in range(1, 33):   # 32 older backups
        (backups / f"2000-01-{day:02d}T0400").mkdir()

    def sh(key: str) -> None:
        args = _unit_command("preflog-backup.service", key)
        assert args[:2] == ["/bin/sh", "-c"]
        line = (args[2].replace("/opt/preflog/bin/preflog", f"{sys.executable} -m preflog")
                .replace("/var/lib/preflog/store", str(store)).replace("/var/backups/preflog", str(backups)))
        got = subprocess.run(["/bin/sh", "-c", line], capture_output=True, text=True, cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert got.returncode == 0, got.stderr
        if key == "ExecStart":
            assert got.stdout.startswith(f"backed up {store} at version "), got.stdout

    sh("ExecStart")
    made = [p for p in backups.iterdir() if not p.name.startswith("2000")]
    assert len(made) == 1 and re.fullmatch(r"20\d\d-\d\d-\d\dT\d{4}", made[0].name)
    assert (made[0] / "events" / "_delta_log").is_dir()
    sh("ExecStartPost")
    kept = sorted(p.name for p in backups.iterdir())
    assert len(kept) == 30 and kept[-1] == made[0].name and kept[0] == "2000-01-04T0400"
