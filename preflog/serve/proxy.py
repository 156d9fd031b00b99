"""``preflog serve`` behind a reverse proxy, under a path of its host (``--root-path /preflog``).

The proxy (docs/deploy.md: nginx with TLS) passes ``https://club.example.org/preflog/pulka/X`` on as
``/pulka/X``; uvicorn, given the root path, hands the app ``/preflog/pulka/X`` with ``root_path`` =
``/preflog`` and Starlette routes it by what follows. What the app writes into its pages must carry the
prefix too: :class:`RootPath` sets :data:`preflog.templates.ROOT` for each request, which every page
writes before its links and its script before its requests. The proxy's ``X-Forwarded-For`` and
``X-Forwarded-Proto`` are honoured from the addresses given (uvicorn's ``forwarded_allow_ips``) and from
nowhere else, so the app sees each phone's own address (the PIN's guesses are counted per phone) and
``https`` (its cookies are then marked ``Secure``).
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from ..errors import PreflogError
from ..templates import ROOT

__all__ = ["RootPath", "RootPathError", "check_root_path", "route_path"]

_SEGMENT = re.compile(r"[A-Za-z0-9._~-]+")


class RootPathError(PreflogError):
    """A ``--root-path`` that cannot be a path of the proxy's host; ``given`` is what was given."""

    def __init__(self, given: str) -> None:
        super().__init__(f"--root-path {given!r}: a path such as /preflog (letters, digits, '.', '_', '~', '-' "
                         "between slashes)")
        self.given = given


def check_root_path(given: str) -> str:
    """The root path as the app uses it: ``""`` for none, else ``/a/b`` (a trailing slash dropped)."""
    parts = given.strip("/").split("/")
    if given.strip("/") == "":
        return ""
    if not given.startswith("/") or not all(_SEGMENT.fullmatch(p) and p not in (".", "..") for p in parts):
        raise RootPathError(given)
    return "/" + "/".join(parts)


def route_path(scope: Scope) -> str:
    """The request's path below the root path (``/api/…``, whatever the prefix)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root):] if root and path.startswith(root) else path


class RootPath:
    """ASGI middleware: the pages of this request are written for the root path it came under."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = ROOT.set(scope.get("root_path", ""))
        try:
            await self.app(scope, receive, send)
        finally:
            ROOT.reset(token)
