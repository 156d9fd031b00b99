"""The web app of ``preflog serve``: the archive read-only, and live scorekeeping at paper level.

Routes (HTML pages are rendered by :func:`preflog.templates.page`; the ``/api`` ones speak JSON):

- ``GET /`` the pulka list (``?player=`` filters, ``?page=`` pages), ``GET /new`` the start form;
- ``GET /pulka/{id}`` a pulka's page: its drawn sheet, settlement, audit findings and, while it runs, the
  entry of the next deal; ``GET /pulka/{id}/viewer`` the deal viewer; ``GET /pulka/{id}/record`` its record;
- ``GET /api/pulka/{id}`` where the pulka stands (JSON), ``GET /api/pulka/{id}/stream`` server-sent events:
  the log's length now and each time it grows (the page then fetches the state; :class:`Streams` bounds
  them), ``POST /api/pulkas`` starts a pulka,
  ``POST /api/pulka/{id}/deals`` appends one deal, ``POST /api/pulka/{id}/end`` ends the pulka;
  ``POST /api/pulka/{id}/cards/draft`` answers a card-level draft of the next deal with what may come next
  and ``POST /api/pulka/{id}/cards`` appends the finished one (:mod:`.cards`).

A pulka id from a request is only ever looked up among the ids the store holds (an unknown id is 404):
no request path reaches the file system. Every write carries the page's CSRF token (double submit: the
``X-CSRF-Token`` header must equal the ``preflog_csrf`` cookie), and, when the app serves other devices
(a table token is set), the table token of the join link; bodies are bounded (:data:`MAX_BODY`, else
413). A deal is appended with the log's last seq as the page saw it (``expected_seq``): if another phone
got there first the store's :class:`~preflog.store.base.ConcurrencyError` becomes 409 with the current
state, and nothing is written.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hmac
import json
import secrets
import threading
from collections.abc import AsyncIterator
from collections.abc import Callable
from collections.abc import Sequence
from collections.abc import Sized
from dataclasses import dataclass
from dataclasses import replace
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
from starlette.responses import StreamingResponse
from starlette.routing import Route

from ..engine.families import family_of
from ..engine.replay import AuditResult
from ..engine.replay import audit
from ..errors import PreflogError
from ..model.events import Event
from ..model.events import EventError
from ..model.events import PulkaEnded
from ..model.events import PulkaStarted
from ..model.events import from_row
from ..projections.facts import date_iso
from ..record.api import read_records
from ..record.api import write_text
from ..render.numbers import mixed
from ..render.sheet_svg import render_svg
from ..rules.config import Rules
from ..rules.presets import PRESETS
from ..store.base import ConcurrencyError
from ..store.base import EventStore
from ..store.delta import DeltaStore
from ..templates import Markup
from ..templates import page
from ..views.json import finding_json
from ..views.json import sheet_json
from ..views.viewer import viewer_html
from ..workspace import Audited
from ..workspace import Loaded
from ..workspace import Workspace
from . import install
from .cards import DraftRefused
from .cards import card_events
from .cards import deck
from .cards import draft_view
from .entry import DealEntry
from .entry import EntryError
from .entry import Table
from .entry import correction_events
from .entry import deal_blocks
from .entry import deal_events
from .entry import history
from .entry import paper_choices
from .entry import refusals
from .entry import standing
from .proxy import RootPath
from .proxy import route_path
from .start import MOST_SPEC
from .start import POOL_UNUSED
from .start import form_options
from .start import form_presets
from .start import has_pool
from .start import started_rules

MAX_BODY = 16 * 1024
"""The largest request body a write takes (bytes); a larger one is 413 before it is parsed."""
MAX_UPLOAD = 2 * 1024 * 1024
"""The largest record file an upload takes (bytes): a long club evening's pulkas with every card fit
(a 60-deal pulka at card level is about 25 KiB); a larger file is imported with ``preflog import``."""
PAGE_SIZE = 20
CSRF_COOKIE = "preflog_csrf"
TABLE_COOKIE = "preflog_table"
LIVE_PRESETS = tuple(name for name, rules in PRESETS.items() if family_of(rules).live_entry)
"""The presets a pulka can be started with here: those of the families whose deals live entry takes
(:attr:`~preflog.engine.families.Family.entry`: the Russian family's, and the Croatian one's in its own
terms)."""
MOST_NAME = 40
KEPT_PULKAS = 64
"""Pulkas whose events and audit the server keeps between requests (then it starts afresh)."""

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
        self._archive: tuple[tuple[Path, ...], list[dict[str, Any]]] | None = None
        self._segments: dict[Path, list[dict[str, Any]]] = {}   # a projection file -> its archive rows
        self._events: dict[str, tuple[int, list[Event]]] = {}   # pulka -> (table version, its events)
        self._standings: dict[tuple[str, int, str], tuple[Table, AuditResult]] = {}
        self._states: dict[tuple[str, int, str], dict[str, Any]] = {}
        self.wrong: dict[str, list[float]] = {}   # client address -> times of its wrong tokens (last window)
        self.checkpointing: threading.Thread | None = None   # the checkpoint being written after an entry
        self.streams = Streams()

    def guess(self, client: str, right: bool) -> None:
        """Count a token a client gave: a wrong one more than :data:`WRONG_TOKENS` times a minute is 429
        (a PIN of a few digits is not guessed by trying them all)."""
        import time

        now = time.monotonic()
        with self.lock:
            recent = [t for t in self.wrong.get(client, []) if now - t < WRONG_WINDOW]
            if len(recent) >= WRONG_TOKENS:
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
        """The stored pulka ``pid``'s events; 404 unless the store holds that id. Kept for the next request
        by the table's version: while no commit came since, or the commits since appended to other pulkas
        only (:meth:`_still`), they are the pulka's events (any process's commits count)."""
        with self.lock:
            store = self.store()
            if store is None:
                raise Refused(404, "no such pulka")
            version = self._version(store)
            kept = self._events.get(pid)
            if kept is not None and version is not None and self._still(store, pid, kept[0], version):
                self._events[pid] = (version, kept[1])
                return list(kept[1])
            events = store.read(pid)  # a value in the store's query, never a path
            if not events:
                raise Refused(404, "no such pulka")
            self._keep(pid, events, version)
        return events

    @staticmethod
    def _version(store: EventStore) -> int | None:
        """The version of the store's table (one ``stat`` when nothing changed), or None for a store
        without versions (nothing is kept then)."""
        return store.version() if isinstance(store, DeltaStore) else None

    @staticmethod
    def _still(store: EventStore, pid: str, kept: int, version: int) -> bool:
        """Whether pulka ``pid`` as read at version ``kept`` is the pulka at ``version``: no commit since
        appended to it, as their heads records say (a commit that records none: no)."""
        if kept == version:
            return True
        touched = store.appended_since(kept) if isinstance(store, DeltaStore) else None
        return touched is not None and pid not in touched

    def _keep(self, pid: str, events: list[Event], version: int | None) -> None:
        if version is None:
            return
        if len(self._events) >= KEPT_PULKAS:
            self._events.clear()
        self._events[pid] = (version, list(events))

    def _appended(self, pid: str, events: list[Event]) -> None:
        """This process appended to ``pid``: its events as they are at the store's own commit (other pulkas'
        stay kept: the commit's heads record names ``pid`` alone)."""
        store = self.store()
        self._events.pop(pid, None)
        if isinstance(store, DeltaStore) and store.committed is not None:
            self._keep(pid, events, store.committed)
            if store.committed % CHECKPOINT_EVERY == 0 and (self.checkpointing is None
                                                           or not self.checkpointing.is_alive()):
                self.checkpointing = threading.Thread(target=_checkpoint, args=(store,), daemon=True)
                self.checkpointing.start()
        self.streams.wake()

    def standing(self, pid: str, events: Sequence[Event]) -> tuple[Table, AuditResult]:
        """:func:`~.entry.standing` of pulka ``pid``'s ``events``, kept by (id, length, last event): the
        log is append-only, so that prefix is always the same events."""
        key = (pid, len(events), repr(events[-1].to_row()) if events else "")
        kept = self._standings.get(key)
        if kept is None:
            kept = standing(events)
            if len(self._standings) >= KEPT_PULKAS:
                self._standings.clear()
            self._standings[key] = kept
        return kept

    def summaries(self) -> list[dict[str, Any]]:
        """Each stored pulka's id, players, rules, date and number of deals on its sheet, sorted by id: from
        the projections (``pulka_results``, brought level with the event table first: cheap when nothing
        changed). Their files are immutable (a refresh writes new ones): each is read once and its rows
        kept, so after an entry only the segment it rewrote is read again. A pulka the projections do not
        hold (its audit found no sheet) comes from its first event."""
        from ..projections.store import snapshot

        with self.lock:
            if not self.ws.exists():
                return []
            self.ws.heal_projections()
            files = tuple(snapshot(self.ws.root).get("pulka_results", []))
            if self._archive is not None and self._archive[0] == files:
                return self._archive[1]
            kept = {f: self._segments[f] for f in files if f in self._segments}
            kept.update(self._projected([f for f in files if f not in kept]))
            self._segments = kept
            rows = [r for f in files for r in kept[f]]
            ids = {r["id"] for r in rows}
            store = self.store()
            heads = store.heads() if store is not None else None
            if isinstance(heads, Sized) and len(ids) < len(heads):
                rows += [r for r in self._first_events() if r["id"] not in ids]
            rows.sort(key=lambda r: r["id"])
            self._archive = (files, rows)
            return rows

    @staticmethod
    def _projected(files: list[Path]) -> dict[Path, list[dict[str, Any]]]:
        """The archive's rows of each of the ``pulka_results`` files: one per pulka, its players in seat
        order (grouped by DuckDB in one query: the files are the projections' own, listed by their
        manifest)."""
        import duckdb

        out: dict[Path, list[dict[str, Any]]] = {f: [] for f in files}
        if not files:
            return out
        by_name = {str(f): f for f in files}
        listed = ", ".join("'" + name.replace("'", "''") + "'" for name in by_name)
        con = duckdb.connect()
        try:
            got = con.sql(f"SELECT filename, pulka, any_value(rules_spec), any_value(preset), "
                          f"CAST(any_value(date) AS VARCHAR), any_value(deals), list(player ORDER BY seat) "
                          f"FROM read_parquet([{listed}], filename = true) GROUP BY filename, pulka").fetchall()
        finally:
            con.close()
        for name, pid, rules, preset, date, deals, players in got:
            out[by_name[name]].append({"id": pid, "players": players, "rules": rules, "preset": preset,
                                       "deals": deals, "date": date or "", "iso_date": date or "",
                                       "who": "\x00".join(players).casefold()})
        return out

    def _first_events(self) -> list[dict[str, Any]]:
        """Each stored pulka's row from its first event (for those the projections leave out)."""
        import duckdb

        with self.lock:
            store = self.store()
            if store is None:
                return []
            con = duckdb.connect()
            try:
                rows = store.duckdb_relation(con).filter("seq = 1").project("pulka, code, payload").fetchall()
            finally:
                con.close()
        out = []
        for pid, code, payload in rows:
            try:
                ev = from_row(code, -1, -1, 0, payload)
            except (EventError, TypeError, ValueError):
                continue
            if isinstance(ev, PulkaStarted):
                date = dict(ev.meta).get("date", "")
                out.append({"id": pid, "players": list(ev.players), "rules": ev.rules, "deals": None,
                            "preset": ev.rules.split("+")[0], "date": date, "iso_date": date_iso(date) or "",
                            "who": "\x00".join(ev.players).casefold()})
        out.sort(key=lambda s: s["id"])
        return out

    def state(self, pid: str, events: Sequence[Event] | None = None) -> dict[str, Any]:
        """Where pulka ``pid`` stands (``events``: its events, when the caller has them): what its page
        draws and what the next deal's entry needs. Kept between requests (phones ask for it every few
        seconds), by the same key as :meth:`standing`."""
        evs = list(events) if events is not None else self.events(pid)
        key = (pid, len(evs), repr(evs[-1].to_row()) if evs else "")
        kept = self._states.get(key)
        if kept is None:
            kept = self._state(pid, evs)
            if len(self._states) >= KEPT_PULKAS:
                self._states.clear()
            self._states[key] = kept
        return dict(kept)

    def _state(self, pid: str, evs: list[Event]) -> dict[str, Any]:
        """:meth:`state` made afresh (it is kept by the same key as :meth:`standing`)."""
        table, result = self.standing(pid, evs)
        loaded = Loaded(pid, evs, str(self.ws.root))
        sheet = sheet_json(Audited(loaded, result))
        dealer = table.dealer
        blocks = deal_blocks(evs)
        return {
            "id": pid,
            "seq": len(evs),
            "players": list(table.players),
            "rules": sheet["rules"],
            "deals": len(sheet["deals"]),
            "svg": render_svg(sheet),
            "portrait": render_svg(sheet, portrait=True),  # the one a phone shows (serve_base.html)
            "totals": sheet["totals"],
            "settlement": sheet["settlement"],
            # as on paper: fractions as mixed numbers (30⅔), minus as −
            "settlement_shown": {k: {p: mixed(v) for p, v in by.items()} if isinstance(by, dict) else by
                                 for k, by in sheet["settlement"].items()},
            "findings": [finding_json(f) for f in result.findings],
            "ended": table.ended,
            "live": _live(table.rules),
            "dealer": dealer,
            "dealers": list(table.dealers),
            "seats_in": list(table.seats_in(dealer)) if dealer is not None else [],
            "contracts": table.contracts(),
            "terms": table.terms(sheet["rules"]),
            "last_deal": blocks[-1] if blocks else "",
            "sheet_dealers": [d.dealer for d in result.deals],
            "seats_of": [list(table.seats_in(d)) for d in range(len(table.players))],
            "history": history(evs, blocks),
            "paper": paper_choices(table),
        }

    def stats_page(self, **filters: str | None) -> str:
        """The statistics page of ``preflog report`` (players, contracts, variants), over the projections
        brought level with the event table first; ``filters``: player, preset, date_from, date_to."""
        from ..reports.html import render

        with self.lock:
            if not self.ws.exists():
                raise Refused(404, "the store holds no pulka yet")
            self.ws.heal_projections()
            con = self.ws.connect(sandbox=True)
        try:
            return render(con, title="preflog · statistics", **filters)  # type: ignore[arg-type]
        finally:
            con.close()

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
    def start(self, data: Any) -> str:
        """Start a pulka from the start form's fields; returns its id."""
        if not isinstance(data, dict):
            raise Refused(400, "the start form is a JSON object")
        players = data.get("players")
        if (not isinstance(players, list) or not all(isinstance(p, str) for p in players)):
            raise Refused(400, "players are a list of names")
        names = tuple(p.strip() for p in players if p.strip())
        if len(names) not in (3, 4):
            raise Refused(400, "a pulka has 3 or 4 players")
        if any(len(p) > MOST_NAME for p in names):
            raise Refused(400, f"a player's name has at most {MOST_NAME} characters")
        spec = data.get("rules")
        if not isinstance(spec, str) or not spec.strip() or len(spec) > MOST_SPEC:
            raise Refused(400, f"rules: a rules spec, one of {', '.join(LIVE_PRESETS)} with its options "
                               f"(sochi+allow_concede_down3=true)")
        try:   # the CLI's spec parser: a bad option is its own sentence
            rules, preset, overrides = started_rules(spec)
        except PreflogError as exc:
            raise Refused(400, str(exc)) from None
        if not _live(rules):
            raise Refused(400, f"rules: one of {', '.join(LIVE_PRESETS)}")
        pool = data.get("pool") if has_pool(rules) or data.get("pool") is not None else POOL_UNUSED
        if type(pool) is not int or not 1 <= pool <= 10_000:
            raise Refused(400, "pool is a whole number from 1 to 10000")
        price = data.get("whist_price", "1")
        date = data.get("date") or dt.date.today().isoformat()
        if not isinstance(price, str) or not isinstance(date, str) or len(price) > 20 or len(date) > 20:
            raise Refused(400, "whist price and date are short texts")
        pid = f"live-{date.strip()[:10]}-{secrets.token_hex(3)}"
        try:
            # the id in the pulka's own tags, as an export writes it: the record imports again to these events
            started = PulkaStarted(players=names, rules=preset, overrides=overrides, pool=pool,
                                   whist_price=price.strip() or "1", meta=(("date", date.strip()), ("id", pid)))
            # what the record reader reads back is what is stored: the export imports again as it is
            back = read_records(write_text([started]), "the start form")
        except (PreflogError, ValueError) as exc:
            raise Refused(400, str(exc)) from None
        if len(back) != 1 or list(back[0].events) != [started]:
            raise Refused(400, "these names cannot be written in a record (see docs/record-format.md, Players)")
        found = audit([started]).findings
        if found:
            raise Refused(400, found[0].message)
        store = self.ws.store(create=True)
        with self.lock:
            store.append(pid, [started], 0)
        return pid

    def _as_seen(self, pid: str, data: Any) -> tuple[int, list[Event]]:
        """``(expected_seq, events)`` of pulka ``pid`` when the page that sent ``data`` saw every event
        (its ``expected_seq``); else 409 with the sheet as it stands. Called holding the lock."""
        if not isinstance(data, dict) or type(data.get("expected_seq")) is not int:
            raise Refused(400, "an entry names the last seq its page saw (expected_seq)")
        expected: int = data["expected_seq"]
        events = self.events(pid)
        if len(events) != expected:
            raise Refused(409, "another entry was made first: here is the sheet as it stands now",
                          state=self.state(pid, events))
        return expected, events

    def _append(self, pid: str, events: list[Event], new: list[Event], expected: int) -> dict[str, Any]:
        """Append ``new`` after the ``expected`` events the page saw (409 with the sheet as it stands when
        another entry came first: the store's optimistic concurrency); returns the new state. Called holding
        the lock, once the audit accepted ``new``."""
        try:
            self.ws.store().append(pid, new, expected)
        except ConcurrencyError:
            raise Refused(409, "another entry was made first: here is the sheet as it stands now",
                          state=self.state(pid)) from None
        self._appended(pid, [*events, *new])
        return self.state(pid, [*events, *new])

    def enter(self, pid: str, data: Any) -> dict[str, Any]:
        """Append one deal to pulka ``pid``; returns the new state."""

        def paper(events: list[Event], table: Table) -> list[Event]:
            return deal_events(DealEntry.from_json(data.get("deal"), len(table.players)), table)

        return self._enter_deal(pid, data, paper)

    def _enter_deal(self, pid: str, data: Any, make: Callable[[list[Event], Table], list[Event]]) -> dict[str, Any]:
        """Append the deal ``make(events, table)`` writes to pulka ``pid`` as the page saw it (paper or card
        level): 400 for an entry of the wrong shape, 422 with the audit's sentence for what the audit refuses
        (nothing written), 409 when another phone got there first; returns the new state."""
        with self.lock:
            expected, events = self._as_seen(pid, data)
            table, _ = self.standing(pid, events)
            if not _live(table.rules):
                raise Refused(400, f"live entry takes the deals of {', '.join(LIVE_PRESETS)} pulkas so far")
            try:
                new = make(events, table)
            except EntryError as exc:
                raise Refused(400, str(exc)) from None
            except DraftRefused as exc:
                raise Refused(422, exc.finding.message, step=exc.step,
                              findings=[finding_json(exc.finding)]) from None
            _, after = self.standing(pid, [*events, *new])
            found = refusals(after, len(events))
            if found:
                raise Refused(422, found[0].message, findings=[finding_json(f) for f in found])
            return self._append(pid, events, new, expected)

    def card_draft(self, pid: str, data: Any) -> dict[str, Any]:
        """What the page shows of its card-level draft ``data["draft"]`` of pulka ``pid``'s next deal
        (:func:`~.cards.draft_view`): 400 for a draft of the wrong shape, 422 with the audit's sentence for a
        step the engine refuses. Nothing is written."""
        with self.lock:
            events = self.events(pid)
            table, _ = self.standing(pid, events)
        if not _live(table.rules):
            raise Refused(400, f"live entry takes the deals of {', '.join(LIVE_PRESETS)} pulkas so far")
        try:
            return draft_view(events, data.get("draft") if isinstance(data, dict) else None, len(table.players),
                              table.dealer)
        except EntryError as exc:
            raise Refused(400, str(exc)) from None
        except DraftRefused as exc:
            raise Refused(422, exc.finding.message, step=exc.step, findings=[finding_json(exc.finding)]) from None

    def enter_cards(self, pid: str, data: Any) -> dict[str, Any]:
        """Append one card-level deal (``data["draft"]``, finished) to pulka ``pid``, as :meth:`enter` does a
        paper-level one; returns the new state."""

        def cards(events: list[Event], table: Table) -> list[Event]:
            return card_events(events, data.get("draft"), len(table.players), table.dealer)

        return self._enter_deal(pid, data, cards)

    def upload(self, name: str, body: bytes) -> list[dict[str, Any]]:
        """Import an uploaded record file (the import of ``preflog import``: one file, all or nothing):
        each pulka's id and status, or the error, located in the file as ``NAME:LINE:COL``. The body is
        written to a file of this call's own temporary folder, under a name of the server's choosing
        (``upload.pref`` or ``upload.json``): nothing of the request names a path."""
        import tempfile

        shown = _upload_name(name)
        suffix = ".json" if body.lstrip()[:1] in (b"{", b"[") else ".pref"
        with tempfile.TemporaryDirectory(prefix="preflog-upload-") as tmp:
            path = Path(tmp) / f"upload{suffix}"
            path.write_bytes(body)
            with self.lock:
                items = self.ws.import_paths([path], workers=1)
            self._events.clear()
            out = []
            for it in items:
                error = it.error.replace(str(path), shown) if it.error else ""
                out.append({"id": it.pulka, "status": it.status, "deals": it.deals, "findings": it.findings,
                            "error": error})
        return out

    def correct(self, pid: str, data: Any) -> dict[str, Any]:
        """Correct deal ``data["deal"]`` of pulka ``pid``: replaced by the entry ``data["entry"]`` (its
        dealer is the corrected deal's), or struck out when there is none. Appended as events
        (:func:`~.entry.correction_events`); refused (422) when the audit finds anything it did not find
        before (a correction re-scores the deals after it); returns the new state."""
        with self.lock:
            expected, events = self._as_seen(pid, data)
            table, before = self.standing(pid, events)
            if not _live(table.rules):
                raise Refused(400, f"live entry takes the deals of {', '.join(LIVE_PRESETS)} pulkas so far")
            if table.ended:
                raise Refused(422, "the pulka has ended: its sheet is final")
            number = data.get("deal")
            if type(number) is not int or not 1 <= number <= len(before.deals):
                raise Refused(400, f"deal is a deal of the sheet (1 to {len(before.deals)})")
            dealer = before.deals[number - 1].dealer
            at = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            replacement: list[Event] | None = None
            if data.get("entry") is not None:
                try:
                    entry = DealEntry.from_json(data["entry"], len(table.players))
                    replacement = deal_events(replace(entry, dealer=dealer), table)
                except EntryError as exc:
                    raise Refused(400, str(exc)) from None
            new = correction_events(number, dealer, replacement, at)
            _, after = self.standing(pid, [*events, *new])
            found = refusals(after, len(events), before)
            if found:
                raise Refused(422, found[0].message, findings=[finding_json(f) for f in found])
            return self._append(pid, events, new, expected)

    def end(self, pid: str, data: Any) -> dict[str, Any]:
        """End pulka ``pid``: ``closed`` when the audit accepts that (every pulya closed), else ``stopped``
        (by agreement, before the end); returns the new state."""
        with self.lock:
            expected, events = self._as_seen(pid, data)
            found: list[Any] = []
            for reason in ("closed", "stopped"):
                new: list[Event] = [PulkaEnded(reason)]
                found = refusals(self.standing(pid, [*events, *new])[1], len(events))
                if not found:
                    break
            if found:
                raise Refused(422, found[0].message, findings=[finding_json(f) for f in found])
            return self._append(pid, events, new, expected)


CHECKPOINT_EVERY = 10
"""A checkpoint of the store's log is written (on a thread of its own, after the answer) every this many
table versions, when this server made the commit: a live pulka commits once a deal, and a server started
later (or a reload after a restart) then reads the checkpoint and a few commits, not every commit since
the table's last checkpoint (Delta's own: every hundred)."""


def _checkpoint(store: DeltaStore) -> None:
    """:meth:`~preflog.store.delta.DeltaStore.checkpoint`; a checkpoint that fails costs only speed (the
    log holds every commit), so it is let go."""
    try:
        store.checkpoint()
    except Exception:   # noqa: BLE001, S110 - an optimisation: the next one is written ten commits on
        pass


def _live(rules: Rules | None) -> bool:
    """Whether the live entry takes this pulka's deals (its family's, :data:`LIVE_PRESETS`)."""
    return rules is not None and family_of(rules).live_entry


# --- the HTTP edge ------------------------------------------------------------------------------------
def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def _html(request: Request, text: str) -> HTMLResponse:
    resp = HTMLResponse(text, headers=_HEADERS)
    secure = request.url.scheme == "https"   # behind a TLS proxy (its X-Forwarded-Proto): HTTPS only
    if CSRF_COOKIE not in request.cookies:
        resp.set_cookie(CSRF_COOKIE, request.state.csrf, httponly=True, samesite="strict", secure=secure)
    token = _server(request).settings.table_token
    given = request.query_params.get("token")
    if token is not None and given is not None and _same(given, token):
        resp.set_cookie(TABLE_COOKIE, token, httponly=True, samesite="strict", secure=secure)
    return resp


def _csrf(request: Request) -> str:
    value = request.cookies.get(CSRF_COOKIE)
    return value if value and len(value) <= 64 else secrets.token_urlsafe(24)


def _page_data(request: Request, **data: Any) -> dict[str, Any]:
    return {"csrf": request.state.csrf, "token": _table_token_of(request),
            "poll_ms": _server(request).settings.poll_ms, **data}


def _table_token_of(request: Request) -> str | None:
    """The table token this request carries (query, header or cookie), when it is the right one."""
    server = _server(request)
    token = server.settings.table_token
    if token is None:
        return None
    known: bool | None = getattr(request.state, "table_ok", None)   # asked once per request
    if known is None:
        given = [g for g in (request.query_params.get("token"), request.headers.get("x-table-token"),
                             request.cookies.get(TABLE_COOKIE)) if g]
        known = any(_same(g, token) for g in given)
        if given:
            server.guess(request.client.host if request.client is not None else "", known)
        request.state.table_ok = known
    return token if known else None


def _check_read(request: Request) -> None:
    """With a table token and without ``--public-read``, reading needs the token too (401)."""
    settings = _server(request).settings
    if settings.table_token is not None and not settings.public_read and _table_token_of(request) is None:
        raise Refused(401, "reading needs the table's join link (its ?token=…) or its PIN")


def _same(given: str, wanted: str) -> bool:
    """``given == wanted`` in constant time, for any text a request may carry."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), wanted.encode("utf-8", "surrogatepass"))


def _check_write(request: Request) -> None:
    server = _server(request)
    if server.settings.table_token is not None and _table_token_of(request) is None:
        raise Refused(403, "writing needs the table's join link (its ?token=…)")
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


def _refusal(exc: Refused) -> JSONResponse:
    return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status, headers=_HEADERS)


Handler = Callable[[Request], Any]


def _guarded(handler: Handler) -> Handler:
    async def run(request: Request) -> Response:
        request.state.csrf = _csrf(request)
        try:
            if request.method == "GET":
                _check_read(request)
            resp: Response = await handler(request)
            return resp
        except Refused as exc:  # (a PreflogError too: caught first)
            failed = exc
        except PreflogError as exc:  # the store's own refusal (none there, damaged): one line, nothing written
            failed = Refused(500, str(exc))
        if route_path(request.scope).startswith("/api/"):
            return _refusal(failed)
        if failed.status in (401, 429):   # a page: the join form, asking for the PIN or token
            settings = _server(request).settings
            text = page("serve_join.html", same_origin=True, title="preflog · join", path=request.url.path,
                        pin=settings.pin, message="" if failed.status == 401 and "token" not in request.query_params
                        else failed.message if failed.status == 429 else "that is not the table's PIN or token")
            return HTMLResponse(text, status_code=failed.status, headers=_HEADERS)
        return PlainTextResponse(failed.message, status_code=failed.status, headers=_HEADERS)
    return run


async def home(request: Request) -> Response:
    from urllib.parse import urlencode

    from starlette.concurrency import run_in_threadpool

    server = _server(request)
    q = request.query_params
    player = q.get("player", "").strip()[:MOST_NAME]
    preset = q.get("rules", "").strip()[:MOST_NAME]
    since, until = date_iso(q.get("from", "")[:20]) or "", date_iso(q.get("to", "")[:20]) or ""
    try:
        page_no = max(1, int(q.get("page", "1")[:9]))
    except ValueError:
        page_no = 1
    rows = await run_in_threadpool(server.summaries)
    presets = sorted({r["preset"] for r in rows})
    if player:
        wanted = player.casefold()
        rows = [r for r in rows if wanted in r["who"]]
    if preset:
        rows = [r for r in rows if r["preset"] == preset]
    if since or until:  # a pulka without a date is left out of a date range
        rows = [r for r in rows if r["iso_date"] and (not since or r["iso_date"] >= since)
                and (not until or r["iso_date"] <= until)]
    pages = max(1, -(-len(rows) // PAGE_SIZE))
    page_no = min(page_no, pages)
    shown = rows[(page_no - 1) * PAGE_SIZE: page_no * PAGE_SIZE]
    query = urlencode([(k, v) for k, v in (("player", player), ("rules", preset), ("from", since), ("to", until))
                       if v])
    text = page("serve_list.html", script="serve.js", same_origin=True, title="preflog · pulkas",
                data=_page_data(request), rows=shown, player=player,
                preset=preset, presets=presets, since=since, until=until, query=query, page_no=page_no,
                pages=pages, total=len(rows))
    return _html(request, text)


async def new(request: Request) -> Response:
    data = _page_data(request, presets=list(LIVE_PRESETS), today=dt.date.today().isoformat(),
                      rules=form_presets(LIVE_PRESETS), options=form_options())
    text = page("serve_new.html", script="serve.js", same_origin=True, title="preflog · new pulka", data=data)
    return _html(request, text)


async def pulka_page(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    server = _server(request)
    pid = request.path_params["pid"]
    state = await run_in_threadpool(server.state, pid)
    svg, portrait = Markup(state.pop("svg")), Markup(state.pop("portrait"))
    text = page("serve_pulka.html", script=("serve.js", "serve_cards.js"), same_origin=True,
                title=f"preflog · {pid}", pid=pid, svg=svg, portrait=portrait,
                data=_page_data(request, state=state, deck=deck()))
    return _html(request, text)


async def viewer(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    server = _server(request)
    pid = request.path_params["pid"]
    events = await run_in_threadpool(server.events, pid)
    return _html(request, viewer_html(Loaded(pid, events, str(server.ws.root))))


async def stats(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    q = request.query_params
    filters = {"player": q.get("player", "").strip()[:MOST_NAME] or None,
               "preset": q.get("rules", "").strip()[:MOST_NAME] or None,
               "date_from": date_iso(q.get("from", "")[:20]), "date_to": date_iso(q.get("to", "")[:20])}
    text = await run_in_threadpool(lambda: _server(request).stats_page(**filters))
    return _html(request, text)


async def analysis(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    text = await run_in_threadpool(_server(request).analysis_page, request.path_params["pid"])
    return _html(request, text)


async def record(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    server = _server(request)
    pid = request.path_params["pid"]
    text = await run_in_threadpool(server.record, pid)
    return PlainTextResponse(text, headers={**_HEADERS, "Content-Disposition": 'attachment; filename="pulka.pref"'})


async def api_state(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    state = await run_in_threadpool(_server(request).state, request.path_params["pid"])
    return JSONResponse(state, headers=_HEADERS)


async def api_stream(request: Request) -> Response:
    """``GET /api/pulka/{id}/stream``: server-sent events (``text/event-stream``), the ``length`` of the
    pulka's log now and whenever it grows (this process's entries at once, another process's within
    :data:`LOOK` seconds), a comment every :data:`HEARTBEAT` seconds; read rules as ``/api/pulka/{id}``
    (the page's cookie carries the table token); 503 when :data:`STREAMS` are open already."""
    from starlette.concurrency import run_in_threadpool

    server = _server(request)
    streams = server.streams
    pid = request.path_params["pid"]
    await run_in_threadpool(server.events, pid)   # an unknown pulka is 404 before any stream opens
    streams.check()

    async def lengths() -> AsyncIterator[str]:
        try:   # the slot is taken once the body is sent (a response never sent holds none)
            slot, event = streams.open()
        except Refused:
            return
        try:
            loop = asyncio.get_running_loop()
            last, said = -1, loop.time()
            yield "retry: 2000\n\n"
            while not streams.closing:
                try:
                    length = len(await run_in_threadpool(server.events, pid))
                except Refused:
                    return
                if length != last:
                    last, said = length, loop.time()
                    yield f"event: length\ndata: {length}\n\n"
                elif loop.time() - said >= HEARTBEAT:
                    said = loop.time()
                    yield ": still here\n\n"
                event.clear()
                try:
                    await asyncio.wait_for(event.wait(), LOOK)
                except TimeoutError:
                    pass
        finally:
            streams.release(slot)

    return StreamingResponse(lengths(), media_type="text/event-stream", headers={**_HEADERS, "X-Accel-Buffering": "no"})


async def api_start(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    pid = await run_in_threadpool(_server(request).start, data)
    return JSONResponse({"id": pid, "url": f"/pulka/{pid}"}, status_code=201, headers=_HEADERS)


async def api_enter(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    state = await run_in_threadpool(_server(request).enter, request.path_params["pid"], data)
    return JSONResponse(state, status_code=201, headers=_HEADERS)


async def api_correct(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    state = await run_in_threadpool(_server(request).correct, request.path_params["pid"], data)
    return JSONResponse(state, status_code=201, headers=_HEADERS)


async def api_import(request: Request) -> Response:
    """``POST /api/import``: the body is a record file (text or JSON, at most :data:`MAX_UPLOAD` bytes),
    ``X-File-Name`` its name for messages."""
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    body = await _raw(request, MAX_UPLOAD)
    from urllib.parse import unquote

    name = unquote(request.headers.get("x-file-name", "upload")[:400])
    items = await run_in_threadpool(_server(request).upload, name, body)
    failed = [i for i in items if i["status"] == "error"]
    return JSONResponse({"items": items, **({"error": failed[0]["error"]} if failed else {})},
                        status_code=422 if failed else 201, headers=_HEADERS)


async def api_card_draft(request: Request) -> Response:
    """``POST /api/pulka/{id}/cards/draft``: the card-level draft's next options (writes nothing; asked as
    an entry is, with the CSRF token)."""
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    view = await run_in_threadpool(_server(request).card_draft, request.path_params["pid"], data)
    return JSONResponse(view, headers=_HEADERS)


async def api_enter_cards(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    state = await run_in_threadpool(_server(request).enter_cards, request.path_params["pid"], data)
    return JSONResponse(state, status_code=201, headers=_HEADERS)


async def api_end(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    state = await run_in_threadpool(_server(request).end, request.path_params["pid"], data)
    return JSONResponse(state, status_code=201, headers=_HEADERS)


def create_app(store: str | Path, table_token: str | None = None,
               allowed_hosts: Sequence[str] | None = None, poll_ms: int = 5000, public_read: bool = False,
               pin: bool = False) -> Starlette:
    """The app over the store folder ``store``; ``table_token``: writes need it (other devices served), and
    reads unless ``public_read``; ``pin``: the token is a PIN the join page asks for;
    ``allowed_hosts``: the only names a request may address the server by (``Host``; else 400), so that a
    page of another site whose name was made to point at 127.0.0.1 (DNS rebinding) reaches nothing."""
    routes = [
        Route("/", _guarded(home)),
        Route("/new", _guarded(new)),
        Route("/pulka/{pid}", _guarded(pulka_page)),
        Route("/pulka/{pid}/viewer", _guarded(viewer)),
        Route("/pulka/{pid}/record", _guarded(record)),
        Route("/pulka/{pid}/analysis", _guarded(analysis)),
        Route("/stats", _guarded(stats)),
        Route("/api/pulka/{pid}", _guarded(api_state)),
        Route("/api/pulka/{pid}/stream", _guarded(api_stream)),
        Route("/api/pulkas", _guarded(api_start), methods=["POST"]),
        Route("/api/pulka/{pid}/deals", _guarded(api_enter), methods=["POST"]),
        Route("/api/pulka/{pid}/end", _guarded(api_end), methods=["POST"]),
        Route("/api/pulka/{pid}/cards/draft", _guarded(api_card_draft), methods=["POST"]),
        Route("/api/pulka/{pid}/cards", _guarded(api_enter_cards), methods=["POST"]),
        Route("/api/pulka/{pid}/correct", _guarded(api_correct), methods=["POST"]),
        Route("/api/import", _guarded(api_import), methods=["POST"]),
        *install.routes(),
    ]
    middleware = [Middleware(RootPath)]
    middleware += [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))] if allowed_hosts else []
    app = Starlette(routes=routes, middleware=middleware)
    app.state.server = Server(Settings(Path(store), table_token, poll_ms, public_read, pin))
    return app
