"""``preflog serve``: a local web app over a store (docs/serve.md).

:func:`create_app` builds the Starlette app (:mod:`.app`); :func:`run` serves it with uvicorn, printing
the local address (and, when other devices are served, the join link with the table token). Live entry
of paper-level deals is :mod:`.entry`.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

from ..errors import PreflogError
from .app import create_app


class ServeError(PreflogError):
    """The app cannot be served as asked (the port is taken, the address is not this machine's)."""

__all__ = ["ServeError", "create_app", "is_loopback", "join_address", "lan_address", "run"]


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


def run(store: Path, host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True,
        say: Callable[[str], None] = print) -> None:
    """Serve ``store`` until interrupted. Another host than loopback gets a table token: writes need it."""
    import uvicorn

    _check_free(host, port)
    token = None if is_loopback(host) else secrets.token_urlsafe(16)
    # on loopback only the loopback names may address it (DNS rebinding); others need the token to write
    hosts = ["127.0.0.1", "localhost", "::1", host] if token is None else None
    app = create_app(store, table_token=token, allowed_hosts=hosts)
    local = join_address("127.0.0.1" if not is_loopback(host) else host, port, token)
    say(f"preflog serve: {store} at {local}")
    if token is not None:
        shared = lan_address() if host in ("0.0.0.0", "::", "") else host
        say(f"join link for the other devices at the table: {join_address(shared, port, token)} "
            "(writing needs its token)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(local,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")
