"""The web app of ``preflog serve``: the archive read-only, and live scorekeeping at paper level.

This module holds the app's state (:class:`Server`), the rules every request goes through and
:func:`create_app`; the handlers of the routes are :mod:`.routes`'s. The list, its filter and the reports
are :mod:`preflog.application`'s, as for the command line. A pulka id in a path may hold ``/``.

Routes (HTML pages are rendered by :func:`preflog.templates.page`; the ``/api`` ones speak JSON):

- ``GET /`` the pulka list (``?player=``, ``?rules=``, ``?from=``, ``?to=`` filter, ``?page=`` pages;
  ``GET /api/pulkas`` the same list as JSON), ``GET /new`` the start form; ``GET /stats`` the report page
  (``GET /api/stats/{kind}`` one report as JSON);
- ``GET /pulka/{id}`` a pulka's page: its drawn sheet, settlement, audit findings and, while it runs, the
  entry of the next deal; ``GET /pulka/{id}/viewer`` the deal viewer; ``GET /pulka/{id}/record`` its record;
- ``GET /api/pulka/{id}`` where the pulka stands (JSON), ``GET /api/pulka/{id}/stream`` server-sent events:
  the log's length now and each time it grows (the page then fetches the state; :class:`Streams` bounds
  them), ``POST /api/pulkas`` starts a pulka,
  ``POST /api/pulka/{id}/deals`` appends one deal, ``POST /api/pulka/{id}/end`` ends the pulka;
  ``POST /api/pulka/{id}/cards/draft`` answers a card-level draft of the next deal with what may come next
  and ``POST /api/pulka/{id}/cards`` appends the finished one (:mod:`preflog.application.cards`).

A pulka id from a request is only ever looked up among the ids the store holds (an unknown id is 404):
no request path reaches the file system. Every write carries the page's CSRF token (double submit: the
``X-CSRF-Token`` header must equal the ``preflog_csrf`` cookie), and, when the app serves other devices
(a table token is set), the pass the join link left in a cookie (or the token, ``X-Table-Token``); a
read-only link (``?watch=``) lets its holder read only (:class:`Access`); bodies are bounded (:data:`MAX_BODY`, else
413). A deal is appended with the log's last seq as the page saw it (``expected_seq``): if another phone
got there first the store's :class:`~preflog.store.base.ConcurrencyError` becomes 409 with the current
state and the entries made since (``since``: the page keeps its draft, to enter as the next deal or
discard), and nothing is written. A write may name its ``entry_id``: sent again (its answer was lost on
the way), it is answered 200 with the state, and not written twice.
"""

from __future__ import annotations

import asyncio
import enum
import hmac
import json
import secrets
import threading
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.responses import JSONResponse
from starlette.responses import PlainTextResponse
from starlette.responses import Response

from ..application import Archive
from ..application import KnownPlayers
from ..application import PulkaFilter
from ..application import PulkaSummary
from ..application.table import LiveTables
from ..application.table import Refusal
from ..application.table import TableRefused
from ..application.table import version_of
from ..errors import NotStoredError
from ..errors import PreflogError
from ..model.events import Event
from ..store.base import EventStore
from ..templates import page
from ..templates.i18n import N_
from ..templates.i18n import gettext
from ..views.viewer import viewer_html
from ..workspace import ImportItem
from ..workspace import Loaded
from ..workspace import Workspace
from . import install
from .language import Speaking
from .proxy import RootPath
from .proxy import route_path

MAX_BODY = 16 * 1024
"""The largest request body a write takes (bytes); a larger one is 413 before it is parsed."""
MAX_UPLOAD = 2 * 1024 * 1024
"""The largest record file an upload takes (bytes): a long club evening's pulkas with every card fit
(a 60-deal pulka at card level is about 25 KiB); a larger file is imported with ``preflog import``."""
PAGE_SIZE = 20
CSRF_COOKIE = "preflog_csrf"
TABLE_COOKIE = "preflog_table"
"""The cookie a join link (``?token=``, or the PIN typed) leaves: this run's pass to write (:meth:`Server.pass_of`)."""
WATCH_COOKIE = "preflog_watch"
"""The cookie the read-only share link (``?watch=``) leaves: this run's pass to read."""


class Access(enum.IntEnum):
    """What a request may do at a table served with a token: nothing, read (the share link), or write."""

    NONE = 0
    WATCH = 1
    WRITE = 2

_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
            "Cache-Control": "no-store"}


class Refused(PreflogError):
    """A request answered with ``status`` and one line saying why (JSON ``{"error": …}``)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


@dataclass
class Settings:
    store: Path
    table_token: str | None = None
    """Set when other devices are served: every write needs it (the join link's ``?token=``)."""
    poll_ms: int = 5000
    """How often a pulka's page asks whether another device entered a deal (milliseconds)."""
    public_read: bool = False
    """With a table token: reading needs no token (the archive and the sheets are public), writing does."""
    pin: bool = False
    """The table token is a PIN the players type (digits): the join page asks for it."""


STREAMS = 32
"""Update streams (``/api/pulka/{id}/stream``) open at once; one more is 503 and its page polls instead."""
HEARTBEAT = 15.0
"""Seconds between the comment lines that keep a quiet stream open (and find a client gone)."""
LOOK = 1.0
"""Seconds between a stream's looks for an append by another process (this process's own wake it at once)."""


class Streams:
    """The open update streams: at most :data:`STREAMS`; :meth:`wake` tells them the log of a pulka grew
    (from any thread); :meth:`close` ends them all (the server is shutting down: uvicorn waits for every
    open response before it exits)."""

    def __init__(self, most: int = STREAMS) -> None:
        self.most = most
        self.closing = False
        self._lock = threading.Lock()
        self._open: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Event]] = {}
        self._next = 0

    def __len__(self) -> int:
        return len(self._open)

    def check(self) -> None:
        """:class:`Refused` 503 when no stream can open now (all taken, or the server is shutting down)."""
        if self.closing:
            raise Refused(503, "the server is shutting down")
        if len(self._open) >= self.most:
            raise Refused(503, f"{self.most} update streams are open: this page asks every few seconds instead")

    def open(self) -> tuple[int, asyncio.Event]:
        """A slot and the event that wakes it (in the running loop); :class:`Refused` 503 when none is free."""
        with self._lock:
            self.check()
            self._next += 1
            event = asyncio.Event()
            self._open[self._next] = (asyncio.get_running_loop(), event)
            return self._next, event

    def release(self, slot: int) -> None:
        with self._lock:
            self._open.pop(slot, None)

    def wake(self) -> None:
        """Wake every stream (it looks at its pulka's length; callable from any thread)."""
        with self._lock:
            waiting = list(self._open.values())
        for loop, event in waiting:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:   # its loop is closed: the stream is gone
                pass

    def close(self) -> None:
        """End every stream and refuse new ones."""
        with self._lock:
            self.closing = True
        self.wake()


WRONG_TOKENS = 10
"""Wrong tokens (or PINs) one client may give in :data:`WRONG_WINDOW` seconds; more: 429 until it passes."""
WRONG_WINDOW = 60.0


class Server:
    """The app's state: the workspace, the settings, and a lock that makes this process's requests use the
    store one at a time (the store's optimistic concurrency still decides between processes)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.ws = Workspace(settings.store)
        self.lock = threading.RLock()
        self.tables = LiveTables(self.ws, self.lock, on_commit=self._committed)
        """The live pulkas (:mod:`preflog.application.table`): their state, entries, corrections, end."""
        self._archive: tuple[int | None, Archive] | None = None   # the table's version, its pulkas
        self.wrong: dict[str, list[float]] = {}   # client address -> times of its wrong tokens (last window)
        self.checkpointing: threading.Thread | None = None   # the checkpoint being written after an entry
        self.streams = Streams()
        self.secret = secrets.token_bytes(32)
        """This run's own secret: the passes its cookies carry are made with it (:meth:`pass_of`)."""

    def pass_of(self, access: Access) -> str:
        """The pass of ``access`` in this run: the value of its cookie (and, to watch, the share link's
        ``?watch=``), an HMAC of the table token under this run's secret. No pass can be guessed, and one
        of a former run (another secret, or another token) matches nothing: a phone still holding it is
        simply not let in (asked to join again), never counted as guessing."""
        token = (self.settings.table_token or "").encode("utf-8", "surrogatepass")
        return hmac.new(self.secret, access.name.encode() + b":" + token, "sha256").hexdigest()

    def guess(self, client: str, right: bool) -> None:
        """Count a token (or PIN, or share link) a client gave: a client's wrong ones more than
        :data:`WRONG_TOKENS` times a minute are 429 (a PIN of a few digits is not guessed by trying them
        all); the right one is never refused (a phone whose owner mistyped, or a stranger at the same
        address, does not lock the table out)."""
        import time

        now = time.monotonic()
        with self.lock:
            recent = [t for t in self.wrong.get(client, []) if now - t < WRONG_WINDOW]
            if len(recent) >= WRONG_TOKENS and not right:
                self.wrong[client] = recent
                raise Refused(429, "too many wrong PINs or tokens: wait a minute")
            if not right:
                recent.append(now)
            if recent:
                self.wrong[client] = recent
            else:
                self.wrong.pop(client, None)

    # --- reading ------------------------------------------------------------------------------
    def store(self) -> EventStore | None:
        return self.ws.store() if self.ws.exists() else None

    def events(self, pid: str) -> list[Event]:
        """The stored pulka ``pid``'s events (:meth:`LiveTables.events`; 404 unless the store holds it)."""
        return self.tables.events(pid)

    def state(self, pid: str, events: Sequence[Event] | None = None) -> dict[str, Any]:
        """Where pulka ``pid`` stands, as ``GET /api/pulka/{id}`` writes it (:class:`TableState`)."""
        return self.tables.state(pid, events).as_json()

    def _committed(self, pid: str) -> None:
        """This process committed to ``pid``: the streams are woken; every :data:`CHECKPOINT_EVERY` versions
        a checkpoint of the log is written on a thread of its own."""
        store = self.store()
        if store is not None and store.committed is not None:
            if store.committed % CHECKPOINT_EVERY == 0 and (self.checkpointing is None
                                                           or not self.checkpointing.is_alive()):
                self.checkpointing = threading.Thread(target=_checkpoint, args=(store,), daemon=True)
                self.checkpointing.start()
        self.streams.wake()

    def archive(self) -> Archive:
        """The stored pulkas (:class:`~preflog.application.Archive`), kept while the event table stays at
        one version (one ``stat`` when nothing changed): the list and its filter are the application's."""
        with self.lock:
            store = self.store()
            version = version_of(store) if store is not None else None
            if self._archive is None or version is None or self._archive[0] != version:
                self._archive = (version, Archive(self.ws))
            return self._archive[1]

    def summaries(self, f: PulkaFilter | None = None) -> list[PulkaSummary]:
        """The summaries of the stored pulkas ``f`` passes, in the application's order (in progress first,
        then the most recent; none while there is no store); a name the store does not hold is
        :class:`~preflog.errors.NotStoredError`."""
        with self.lock:
            if not self.ws.exists():
                return []
            return self.archive().find(f)

    def known_players(self) -> KnownPlayers:
        """The players the start form offers (:meth:`Archive.known_players`); none while there is no
        store."""
        with self.lock:
            if not self.ws.exists():
                return KnownPlayers((), ())
            return self.archive().known_players()

    def stats_page(self, f: PulkaFilter) -> str:
        """The statistics page of ``preflog report`` (players, contracts, variants) of the pulkas ``f``
        passes (its names as the store spells them: a name it does not hold is
        :class:`~preflog.errors.NotStoredError`), over the projections brought level with the events first."""
        from ..reports.html import render

        with self.lock:
            if not self.ws.exists():
                raise Refused(404, "the store holds no pulka yet")
            f = self.archive().resolve(f)
            self.ws.heal_projections()
            con = self.ws.connect(sandbox=True)
        try:
            return render(con, title="preflog · " + gettext("Statistics"), **f.options())
        finally:
            con.close()

    def stats_json(self, kind: str, f: PulkaFilter) -> dict[str, Any]:
        """The report ``kind`` of the pulkas ``f`` passes as ``preflog stats KIND --json`` writes it."""
        with self.lock:
            if not self.ws.exists():
                raise Refused(404, "the store holds no pulka yet")
            return self.archive().report(kind, f).as_json()

    def analysis_page(self, pid: str) -> str:
        """The deal viewer of pulka ``pid`` with the cards that lost tricks marked (``preflog analyze
        --html``): the double-dummy analysis of its card-level deals (a paper-level deal is not analysed)."""
        from ..analysis import Options
        from ..analysis import analyze_events
        from ..views.analysis import mistake_marks

        events = self.events(pid)
        result = analyze_events(pid, events, None, Options(discard=True))
        return viewer_html(Loaded(pid, events, str(self.ws.root)), mistake_marks(result))

    def record(self, pid: str) -> str:
        """The pulka's record, as ``preflog export`` writes it; 404 unless stored."""
        with self.lock:
            self.events(pid)
            return self.ws.export(pid)

    # --- writing ------------------------------------------------------------------------------
    def upload(self, name: str, body: bytes) -> dict[str, Any]:
        """Import an uploaded record file (the import of ``preflog import``: one file, all or nothing):
        ``items``, each pulka's id, status, deals and audit findings (how many; the first one's line, deal
        and message), or the error, located in the file as ``NAME:LINE:COL``; ``ledger``, the import's row
        of the store's import ledger (its ``headline``: deals clean, with findings by code), or None when
        nothing was stored. The body is written to a file
        of this call's own temporary folder, under a name of the server's choosing (``upload.json`` when
        the file's own name ends so, else ``upload.pref``): the record layer then tells text from JSON
        as ``preflog import NAME`` does; nothing of the request names a path. The file is read and
        audited without the server's lock: only each commit takes it (the table's entries wait for a
        commit, never for a parse)."""
        import tempfile

        shown = _upload_name(name)
        suffix = ".json" if shown.lower().endswith(".json") else ".pref"
        with tempfile.TemporaryDirectory(prefix="preflog-upload-") as tmp:
            path = Path(tmp) / f"upload{suffix}"
            path.write_bytes(body)
            kept: list[ImportItem] = []
            counts = self.ws.import_each([path], kept.append, workers=1, commit_lock=self.lock,
                                         names={str(path): shown})
            self.tables.forget()
            out = []
            for it in kept:
                error = it.error.replace(str(path), shown) if it.error else ""
                line, deal, message = it.first_finding or (0, 0, "")
                first = {"line": line, "deal": deal, "message": message} if it.first_finding else None
                out.append({"id": it.pulka, "status": it.status, "deals": it.deals, "findings": it.findings,
                            "first_finding": first, "error": error})
        return {"items": out, "ledger": None if counts.ledger is None else counts.ledger.as_json()}


CHECKPOINT_EVERY = 10
"""A checkpoint of the store's log is written (on a thread of its own, after the answer) every this many
table versions, when this server made the commit: a live pulka commits once a deal, and a server started
later (or a reload after a restart) then reads the checkpoint and a few commits, not every commit since
the table's last checkpoint (Delta's own: every hundred)."""


def _checkpoint(store: EventStore) -> None:
    """:meth:`~preflog.store.base.EventStore.checkpoint`; a checkpoint that fails costs only speed (the
    log holds every commit), so it is let go."""
    try:
        store.checkpoint()
    except Exception:   # noqa: BLE001, S110 - an optimisation: the next one is written ten commits on
        pass


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def _html(request: Request, text: str, status: int = 200) -> HTMLResponse:
    resp = HTMLResponse(text, status_code=status, headers=_HEADERS)
    _set_csrf(request, resp)
    return resp


def _set_csrf(request: Request, resp: Response) -> None:
    """The page's CSRF cookie, unless the request carries it (Secure behind a TLS proxy: its
    X-Forwarded-Proto)."""
    if CSRF_COOKIE not in request.cookies:
        resp.set_cookie(CSRF_COOKIE, request.state.csrf, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https")


def _joined(request: Request) -> Response | None:
    """A page opened by the join link (``?token=``, the PIN typed) or the share link (``?watch=``) that is
    right: 303 to the same address without it, leaving this run's pass in a cookie (HttpOnly,
    SameSite=Lax, Secure over HTTPS), so the address a player shares or bookmarks holds no token.
    ``None`` for any other request."""
    from urllib.parse import quote
    from urllib.parse import urlencode

    server = _server(request)
    q = request.query_params
    if server.settings.table_token is None or ("token" not in q and "watch" not in q):
        return None
    given = _access(request)
    cookie, access = ((TABLE_COOKIE, Access.WRITE) if given is Access.WRITE and "token" in q
                      else (WATCH_COOKIE, Access.WATCH) if given is Access.WATCH and "watch" in q else (None, None))
    if cookie is None or access is None:
        return None
    rest = urlencode([(k, v) for k, v in q.multi_items() if k not in ("token", "watch")])
    here = quote(request.url.path)   # the path as the request spelt it (an id may hold any letter, or "/")
    resp = Response(status_code=303, headers={**_HEADERS, "Location": here + (f"?{rest}" if rest else "")})
    secure = request.url.scheme == "https"
    resp.set_cookie(cookie, server.pass_of(access), httponly=True, samesite="lax", secure=secure)
    _set_csrf(request, resp)   # as every page sets it (for a client that does not follow the 303)
    return resp


def _csrf(request: Request) -> str:
    value = request.cookies.get(CSRF_COOKIE)
    return value if value and len(value) <= 64 else secrets.token_urlsafe(24)


def _page_data(request: Request, **data: Any) -> dict[str, Any]:
    return {"csrf": request.state.csrf, "write": _access(request) is Access.WRITE,
            "poll_ms": _server(request).settings.poll_ms, **data}


def watch_key(request: Request) -> str | None:
    """The ``?watch=`` of the read-only share link, for a page of someone who may write at a table
    served with a token (else ``None``: without a token every address is open already)."""
    server = _server(request)
    if server.settings.table_token is None or _access(request) is not Access.WRITE:
        return None
    return server.pass_of(Access.WATCH)


def _access(request: Request) -> Access:
    """What this request may do (asked once per request): :attr:`Access.WRITE` without a table token, or
    with this run's write pass (the join link's cookie) or the right token (``?token=``, the PIN typed,
    ``X-Table-Token``); :attr:`Access.WATCH` with the share link's pass (``?watch=`` or its cookie).
    A token or share link given and wrong counts against the client (:meth:`Server.guess`); a cookie
    never does: a pass of a former run is ignored."""
    server = _server(request)
    token = server.settings.table_token
    if token is None:
        return Access.WRITE
    known: Access | None = getattr(request.state, "access", None)
    if known is not None:
        return known
    write, watch = server.pass_of(Access.WRITE), server.pass_of(Access.WATCH)
    tokens = [g for g in (request.query_params.get("token"), request.headers.get("x-table-token")) if g]
    link = request.query_params.get("watch")
    access = (Access.WRITE if _same(request.cookies.get(TABLE_COOKIE, ""), write)
              or any(_same(g, token) for g in tokens)
              else Access.WATCH if _same(request.cookies.get(WATCH_COOKIE, ""), watch) or (link and _same(link, watch))
              else Access.NONE)
    if tokens or link:
        server.guess(request.client.host if request.client is not None else "", access is not Access.NONE)
    request.state.access = access
    return access


def _check_read(request: Request) -> None:
    """With a table token and without ``--public-read``, reading needs the token or the share link (401)."""
    settings = _server(request).settings
    if settings.table_token is not None and not settings.public_read and _access(request) is Access.NONE:
        raise Refused(401, "reading needs the table's join link (its ?token=…), its PIN or its read-only link")


def _same(given: str, wanted: str) -> bool:
    """``given == wanted`` in constant time, for any text a request may carry."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), wanted.encode("utf-8", "surrogatepass"))


def _check_write(request: Request) -> None:
    if _access(request) is not Access.WRITE:
        raise Refused(403, "writing needs the table's join link (its ?token=…); a read-only link only watches")
    cookie = request.cookies.get(CSRF_COOKIE, "")
    header = request.headers.get("x-csrf-token", "")
    if not cookie or not header or not _same(cookie, header):
        raise Refused(403, "the page's CSRF token is missing or wrong: reload the page")


async def _raw(request: Request, most: int) -> bytes:
    """The request's body, read up to ``most`` bytes (more: 413, never read whole)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > most):
        raise Refused(413, f"a request body holds at most {most} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise Refused(413, f"a request body holds at most {most} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _body(request: Request) -> Any:
    """The request's JSON body, read up to :data:`MAX_BODY` bytes (more: 413, never read whole)."""
    raw = await _raw(request, MAX_BODY)
    try:
        return json.loads(raw or b"null")
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError; nesting too deep, RecursionError
        raise Refused(400, "the body is not JSON") from None


def _upload_name(name: str) -> str:
    """The uploaded file's name as shown in messages (its last part, printable, at most 80 characters);
    never used as a path."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    clean = "".join(ch for ch in base if ch.isprintable())[:80]
    return clean or "upload"


_STATUS = {Refusal.BAD_REQUEST: 400, Refusal.NO_PULKA: 404, Refusal.STALE: 409, Refusal.REFUSED: 422,
           Refusal.REPEATED: 200}
"""The HTTP status of each refusal of the live table."""


def _table_refusal(exc: TableRefused) -> Refused:
    extra: dict[str, Any] = {}
    if exc.state is not None:
        extra["state"] = exc.state.as_json()
    if exc.refusal is Refusal.STALE:
        extra["since"] = exc.since
    if exc.step is not None:
        extra["step"] = exc.step
    if exc.findings:
        extra["findings"] = exc.findings
    return Refused(_STATUS[exc.refusal], exc.message, **extra)


def _refusal(exc: Refused) -> JSONResponse:
    return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status, headers=_HEADERS)


Handler = Callable[[Request], Any]


def _guarded(handler: Handler) -> Handler:
    async def run(request: Request) -> Response:
        request.state.csrf = _csrf(request)
        try:
            if request.method == "GET":
                _check_read(request)
                joined = None if route_path(request.scope).startswith("/api/") else _joined(request)
                if joined is not None:
                    return joined
            resp: Response = await handler(request)
            return resp
        except Refused as exc:  # (a PreflogError too: caught first)
            failed = exc
        except NotStoredError as exc:  # a filter naming a player (preset, pulka) the store does not hold
            failed = Refused(404, exc.message)
        except TableRefused as exc:   # the live table's refusal, nothing written
            failed = _table_refusal(exc)
        except PreflogError as exc:  # the store's own refusal (none there, damaged): one line, nothing written
            failed = Refused(500, str(exc))
        if route_path(request.scope).startswith("/api/"):
            return _refusal(failed)
        if failed.status in (401, 429):   # a page: the join form, asking for the PIN or token
            settings = _server(request).settings
            text = page("serve_join.html", same_origin=True, title="preflog · " + gettext("Join the table"),
                        path=request.url.path, pin=settings.pin,
                        message="" if failed.status == 401 and "token" not in request.query_params
                        else failed.message if failed.status == 429 else N_("that is not the table's PIN or token"))
            return HTMLResponse(text, status_code=failed.status, headers=_HEADERS)
        return PlainTextResponse(failed.message, status_code=failed.status, headers=_HEADERS)
    return run


def create_app(store: str | Path, table_token: str | None = None,
               allowed_hosts: Sequence[str] | None = None, poll_ms: int = 5000, public_read: bool = False,
               pin: bool = False) -> Starlette:
    """The app over the store folder ``store``; ``table_token``: writes need it (other devices served), and
    reads unless ``public_read``; ``pin``: the token is a PIN the join page asks for;
    ``allowed_hosts``: the only names a request may address the server by (``Host``; else 400), so that a
    page of another site whose name was made to point at 127.0.0.1 (DNS rebinding) reaches nothing."""
    from .routes import routes  # the handlers: they import this module's helpers

    middleware = [Middleware(RootPath), Middleware(Speaking)]
    middleware += [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))] if allowed_hosts else []
    app = Starlette(routes=[*routes(), *install.routes()], middleware=middleware)
    app.state.server = Server(Settings(Path(store), table_token, poll_ms, public_read, pin))
    return app
