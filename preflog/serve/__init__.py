"""``preflog serve``: a local web app over a store (docs/serve.md).

:func:`create_app` builds the Starlette app (:mod:`.app`); :func:`run` serves it with uvicorn, printing
the local address (and, when other devices are served, the join link with the table token). Live entry
of paper-level deals is :mod:`preflog.application.entry`, of card-level ones :mod:`preflog.application.cards`.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import PreflogError
from .app import create_app
from .proxy import check_root_path

if TYPE_CHECKING:
    import uvicorn
    from starlette.applications import Starlette


class ServeError(PreflogError):
    """The app cannot be served as asked (the port is taken, the address is not this machine's)."""

__all__ = ["ServeError", "check_pin", "create_app", "is_loopback", "join_address", "lan_address", "run",
           "uvicorn_server"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` serves this machine alone (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def join_address(host: str, port: int, token: str | None) -> str:
    """The address to open: the host as given (a wildcard shown as this machine's loopback) and the token."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def lan_address() -> str:
    """This machine's address on its network, as other devices reach it (the source address of a route to a
    private address: a UDP socket's connect sends nothing); ``127.0.0.1`` when there is no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            address: str = s.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address


def _check_free(host: str, port: int) -> None:
    """Refuse, in one line, an address the server could not listen on (before anything is printed)."""
    bare = host.strip("[]")
    family = socket.AF_INET6 if ":" in bare else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((bare, port))
        except OSError as exc:
            raise ServeError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
        except OverflowError:
            raise ServeError(f"port {port} is not a port (0 to 65535)") from None


def check_pin(pin: str) -> str:
    """A table PIN as given: 4 to 12 digits (else :class:`ServeError`)."""
    if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12):
        raise ServeError(f"--pin {pin!r}: a PIN is 4 to 12 digits")
    return pin


def uvicorn_server(app: Starlette, host: str, port: int, root_path: str = "",
                   proxied: bool = False) -> uvicorn.Server:
    """The uvicorn server of ``app``: on shutdown (Ctrl-C, or ``should_exit``) it first ends the app's update
    streams (:class:`.app.Streams`), which uvicorn would otherwise wait for; a response still running
    after :data:`GRACE` seconds is cancelled. ``root_path``: the path a reverse proxy serves it under
    (:mod:`.proxy`); ``proxied``: the proxy's ``X-Forwarded-For``/``-Proto`` are honoured when they come
    from this machine (:data:`PROXY_ADDRESSES`), else from nowhere."""
    import uvicorn

    streams = app.state.server.streams

    class _Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            streams.close()
            await super().shutdown(sockets)

    return _Server(uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=GRACE,
                                  root_path=root_path, proxy_headers=proxied,
                                  forwarded_allow_ips=PROXY_ADDRESSES if proxied else ""))


PROXY_ADDRESSES = "127.0.0.1,::1"
"""Where a reverse proxy's forwarded headers are honoured from (``--proxied``): this machine."""


GRACE = 5
"""Seconds uvicorn waits at shutdown for the responses still running."""


def run(store: Path, host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True,
        say: Callable[[str], None] = print, public_read: bool = False, pin: str | None = None,
        proxied: bool = False, root_path: str = "") -> None:
    """Serve ``store`` until interrupted. Another host than loopback, or a reverse proxy in front
    (``proxied``), gets a table token (or ``pin``): writes need it, and reads unless ``public_read``.
    ``root_path``: the path the proxy serves it under (docs/deploy.md)."""
    root = check_root_path(root_path)
    shared_out = proxied or not is_loopback(host)
    if pin is not None:
        check_pin(pin)
        if not shared_out:
            raise ServeError("--pin is for serving other devices: give --host (e.g. --host 0.0.0.0) or --proxied")
    if public_read and not shared_out:
        raise ServeError("--public-read is for serving other devices: give --host (e.g. --host 0.0.0.0) or "
                         "--proxied")
    _check_free(host, port)
    token = (pin or secrets.token_urlsafe(16)) if shared_out else None
    # on loopback only the loopback names may address it (DNS rebinding); others need the token to write
    # (a proxy on this machine addresses it so too: nginx's proxy_pass sends the upstream's name as Host)
    hosts = ["127.0.0.1", "localhost", "::1", host] if is_loopback(host) else None
    app = create_app(store, table_token=token, allowed_hosts=hosts, public_read=public_read, pin=pin is not None)
    local = join_address("127.0.0.1" if not is_loopback(host) else host, port, token)
    say(f"preflog serve: {store} at {local}")
    if proxied:
        say(f"behind the proxy: players open its address of {root or '/'}"
            + (f" with ?token={token} (the join link)" if token else ""))
    elif token is not None:
        shared = lan_address() if host in ("0.0.0.0", "::", "") else host
        needs = "writing needs its token; reading is public" if public_read else "reading and writing need its token"
        say(f"join link for the other devices at the table: {join_address(shared, port, token)} ({needs})")
        if pin is not None:
            say(f"or open {join_address(shared, port, None)} and type the PIN {pin}")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(local,)).start()
    uvicorn_server(app, host, port, root, proxied).run()
