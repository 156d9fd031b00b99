"""The language of each request's pages: the ``lang`` query of the pages' switch (remembered in a cookie
for a year: the answer is a 303 to the same address without it), else the cookie, else the browser's
``Accept-Language`` (:func:`preflog.templates.i18n.negotiate`), else English. :class:`Speaking` sets
:data:`preflog.templates.LANG` for the request, as :class:`~.proxy.RootPath` sets the root path.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from urllib.parse import parse_qsl
from urllib.parse import urlencode

from starlette.datastructures import Headers
from starlette.responses import RedirectResponse
from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from ..templates.i18n import COOKIE
from ..templates.i18n import HERE
from ..templates.i18n import LANG
from ..templates.i18n import Language
from ..templates.i18n import negotiate

__all__ = ["Speaking", "language_of"]

YEAR = 365 * 24 * 3600


def _cookie(headers: Headers) -> str:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # noqa: BLE001 (a malformed Cookie header: no cookie of ours)
        return ""
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None else ""


def language_of(query: dict[str, str], headers: Headers) -> Language:
    """The request's language: its ``lang`` query, its cookie, its ``Accept-Language``, English."""
    for given in (query.get("lang", ""), _cookie(headers)):
        if given in {lang.value for lang in Language}:
            return Language(given)
    return negotiate(headers.get("accept-language", "")[:1000])


class Speaking:
    """ASGI middleware: the pages of this request are written in its language (:func:`language_of`); a
    request that chose one with ``?lang=`` is sent back to its address without it, the choice in a cookie."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._speak(scope, receive, send)
        else:   # (the lifespan: no page)
            await self.app(scope, receive, send)

    async def _speak(self, scope: Scope, receive: Receive, send: Send) -> None:
        pairs = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        query = dict(pairs)
        headers = Headers(scope=scope)
        lang = language_of(query, headers)
        rest = urlencode([(k, v) for k, v in pairs if k != "lang"])
        path: str = scope["path"]   # (under the root path: Starlette's path holds it)
        if "lang" in query and scope.get("method") == "GET":
            answer = RedirectResponse(path + ("?" + rest if rest else ""), status_code=303)
            if query["lang"] == lang.value:
                answer.set_cookie(COOKIE, lang.value, max_age=YEAR, path=scope.get("root_path", "") or "/",
                                  samesite="lax", httponly=True, secure=scope.get("scheme") == "https")
            await answer(scope, receive, send)
            return
        token, here = LANG.set(lang), HERE.set(path + "?" + (rest + "&" if rest else ""))
        try:
            await self.app(scope, receive, send)
        finally:
            HERE.reset(here)
            LANG.reset(token)
