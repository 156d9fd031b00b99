"""Issue 39, item 10, as a club runs it: Debian's nginx with TLS (deploy/nginx-preflog.conf, a self-signed
certificate made here with openssl) in front of ``preflog serve --proxied --root-path /preflog --pin …``
(the command line of deploy/preflog.service), and a phone (390×844) driven through it: the address
without its slash and plain HTTP lead to the HTTPS app, the PIN joins the table, the list, a pulka
started, a deal entered, the sheet redrawn, the web app manifest readable with its icons. nginx runs as
this test's own process (``daemon off``, one process), its files in a temporary folder, on free loopback
ports. Marked ``nginx`` (tests/conftest.py); the screenshot is tests/browser/screenshots/deploy-phone.png.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .conftest import SHOTS
from .dom import SVG_TEXT_SIZES_JS
from .test_serve import _start
from .test_serve import _tap_row

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx-preflog.conf"
SERVICE = ROOT / "deploy" / "preflog.service"
PIN = "271828"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_for(port: int, proc: subprocess.Popen[bytes], log: Path, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"exited {proc.returncode}: {log.read_text(errors='replace')[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on port {port} after {seconds} s: {log.read_text(errors='replace')[-2000:]}")


def _replace(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"deploy/nginx-preflog.conf no longer has {old!r} once"
    return text.replace(old, new)


@contextmanager
def _nginx(tmp: Path, https: int, http: int, app_port: int) -> Iterator[None]:
    """nginx with the shipped site, its ports, certificate and upstream changed, and nothing else."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "1", "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(tmp / "key.pem"),
                    "-out", str(tmp / "cert.pem")], check=True, capture_output=True)
    site = SITE.read_text(encoding="utf-8")
    site = _replace(site, "listen 80;", f"listen 127.0.0.1:{http};")
    site = _replace(site, "listen [::]:80;", "")
    site = _replace(site, "listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;")
    site = _replace(site, "listen [::]:443 ssl http2;", "")
    site = _replace(site, "/etc/letsencrypt/live/club.example.org/fullchain.pem", str(tmp / "cert.pem"))
    site = _replace(site, "/etc/letsencrypt/live/club.example.org/privkey.pem", str(tmp / "key.pem"))
    site = _replace(site, "proxy_pass http://127.0.0.1:8765/;", f"proxy_pass http://127.0.0.1:{app_port}/;")
    (tmp / "site.conf").write_text(site, encoding="utf-8")
    temps = "\n".join(f"  {k}_temp_path {tmp / k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp / "nginx.conf").write_text(f"""daemon off;
master_process off;
pid {tmp / "nginx.pid"};
error_log {tmp / "error.log"} warn;
events {{ worker_connections 64; }}
http {{
  access_log {tmp / "access.log"};
{temps}
  include {tmp / "site.conf"};
}}
""", encoding="utf-8")
    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    log = tmp / "error.log"
    log.touch()
    test = subprocess.run([exe, "-t", "-p", str(tmp), "-e", str(log), "-c", str(tmp / "nginx.conf")],
                          capture_output=True, text=True)
    assert test.returncode == 0, test.stderr
    proc = subprocess.Popen([exe, "-p", str(tmp), "-e", str(log), "-c", str(tmp / "nginx.conf")])
    try:
        _wait_for(https, proc, log)
        yield
    finally:
        proc.send_signal(signal.SIGQUIT)   # a graceful stop
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def _preflog_serve(store: Path, port: int, tmp: Path) -> Iterator[None]:
    """``preflog serve`` with the service unit's own options (its port and store changed)."""
    line = SERVICE.read_text(encoding="utf-8").replace("\\\n", " ")
    (start,) = [x for x in line.splitlines() if x.startswith("ExecStart=")]
    args = start.removeprefix("ExecStart=").split()[1:]
    args = [a.replace("${PREFLOG_PIN}", PIN).replace("/var/lib/preflog/store", str(store)) for a in args]
    args[args.index("--port") + 1] = str(port)
    log = tmp / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "preflog", *args], stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=str(tmp))
    try:
        _wait_for(port, proc, log)
        yield
    finally:
        proc.send_signal(signal.SIGTERM)   # as systemctl stop does
        try:
            assert proc.wait(15) == 0 or proc.returncode == -signal.SIGTERM, log.read_text(errors="replace")
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise AssertionError("preflog serve did not stop within 15 s of SIGTERM") from None
    assert "behind the proxy: players open its address of /preflog" in log.read_text(encoding="utf-8")


def test_a_phone_keeps_a_pulka_through_nginx_with_tls(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    https, http, app_port = _free_port(), _free_port(), _free_port()
    base = f"https://127.0.0.1:{https}"
    with _preflog_serve(tmp_path / "store", app_port, tmp_path), _nginx(tmp_path, https, http, app_port):
        # plain HTTP is sent to HTTPS
        req = urllib.request.Request(f"http://127.0.0.1:{http}/preflog/", method="GET")
        opener = urllib.request.build_opener(type("NoRedirect", (urllib.request.HTTPRedirectHandler,),
                                                  {"redirect_request": lambda *a, **k: None})())
        try:
            opener.open(req)
            raise AssertionError("plain HTTP was answered")
        except urllib.error.HTTPError as exc:
            assert exc.code == 301 and exc.headers["Location"] == "https://127.0.0.1/preflog/"

        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                      has_touch=True, is_mobile=True, ignore_https_errors=True)
        page = context.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        try:
            page.goto(base + "/preflog")   # without its slash: nginx adds it
            assert page.url == base + "/preflog/"
            page.fill("input[name=token]", PIN)   # the join page: the table's PIN
            page.get_by_role("button", name="Join").tap()
            expect(page.get_by_role("link", name="Start a pulka")).to_be_visible()
            assert all(c["secure"] for c in context.cookies())   # behind TLS the cookies are HTTPS-only
            page.get_by_role("link", name="Start a pulka").tap()
            page.wait_for_url(base + "/preflog/new")
            assert "/preflog/pulka/live-" in _start(page, base + "/preflog")
            page.get_by_role("button", name="Raspasy").tap()
            for name, n in (("Запад", "1"), ("Восток", "9"), ("Юг", "0")):
                _tap_row(page, "tricks", name, n)
            page.tap("#enter")
            expect(page.locator("#dealno")).to_have_text("2")
            # the sheet redrew: Восток's gora 9, on the phone's portrait drawing, no text under 12 px
            sizes = page.evaluate(SVG_TEXT_SIZES_JS)
            assert "9" in {t["text"] for t in sizes} and min(t["size"] for t in sizes) >= 12
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / "deploy-phone.png"), full_page=True)
            # back to the list through the proxy: the pulka is there
            page.get_by_role("link", name="All pulkas").tap()
            expect(page.locator("ul.list li")).to_have_count(1)
            # the web app manifest as Chromium reads it: no error, the app's folder its start and scope
            cdp = context.new_cdp_session(page)
            got = cdp.send("Page.getAppManifest")
            assert got["url"] == base + "/preflog/manifest.webmanifest" and got["errors"] == [], got
            m = got["manifest"]
            assert m["startUrl"] == m["scope"] == base + "/preflog/" and m["display"] == "kStandalone", m
            assert {i["sizes"] for i in m["icons"]} >= {"192x192", "512x512"}
            # and Chromium would install it on the home screen (its own checks: manifest, icons, HTTPS)
            assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
            for icon in ("icon-192.png", "icon-512.png", "icon.svg"):
                r = page.request.get(f"{base}/preflog/{icon}")
                assert r.status == 200 and r.headers["content-type"].startswith("image/")
        finally:
            context.close()
        # the one failure the browser logs is the join page's own status (401 until the PIN is given)
        assert problems == ["Failed to load resource: the server responded with a status of 401 ()"], problems
