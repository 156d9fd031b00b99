"""The web app's routes: each reads its request (path, query, body), asks the
:class:`~.app.Server` (and through it :mod:`preflog.application`), and writes the answer as a page or
JSON. The pages and their order are :func:`routes`'s; the helpers they share (the read and write rules,
bodies, the CSRF cookie) are :mod:`.app`'s.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.responses import PlainTextResponse
from starlette.responses import Response
from starlette.responses import StreamingResponse
from starlette.routing import Route

from ..application import PulkaFilter
from ..application.cards import deck
from ..application.start import form_options
from ..application.start import form_presets
from ..application.table import LIVE_PRESETS
from ..application.table import MOST_NAME
from ..errors import NotStoredError
from ..projections.facts import date_iso
from ..templates import Markup
from ..templates import page
from ..templates.i18n import gettext
from ..views.viewer import viewer_html
from ..workspace import Loaded
from . import app as _app
from .app import _HEADERS
from .app import Refused
from .app import _body
from .app import _check_write
from .app import _guarded
from .app import _html
from .app import _page_data
from .app import _raw
from .app import _server


async def home(request: Request) -> Response:
    from urllib.parse import urlencode

    from starlette.concurrency import run_in_threadpool

    server = _server(request)
    f = _filter_of(request)
    try:
        page_no = max(1, int(request.query_params.get("page", "1")[:9]))
    except ValueError:
        page_no = 1
    everything = await run_in_threadpool(server.summaries)
    presets = sorted({r.preset for r in everything if r.preset})
    refused = ""
    try:
        rows = await run_in_threadpool(server.summaries, f)
    except NotStoredError as exc:  # a name the store does not hold: said on the page, as the CLI says it
        rows, refused = [], exc.message
    pages = max(1, -(-len(rows) // _app.PAGE_SIZE))
    page_no = min(page_no, pages)
    shown = rows[(page_no - 1) * _app.PAGE_SIZE: page_no * _app.PAGE_SIZE]
    asked = (("player", f.player), ("rules", f.preset), ("from", f.date_from), ("to", f.date_to))
    query = urlencode([(k, v) for k, v in asked if v])
    text = page("serve_list.html", script="serve.js", same_origin=True, title="preflog · " + gettext("Pulkas"),
                data=_page_data(request), rows=shown, player=f.player or "", preset=f.preset or "",
                presets=presets, since=f.date_from or "", until=f.date_to or "", query=query, page_no=page_no,
                pages=pages, total=len(rows), refused=refused,
                tonight=everything[0] if everything and everything[0].in_progress else None)
    return _html(request, text, 404 if refused else 200)


def _filter_of(request: Request) -> PulkaFilter:
    """The pulka filter of a page's query: ``player``, ``rules`` (a preset), ``from`` and ``to`` (dates as
    records write them too; one that is no date is no filter)."""
    q = request.query_params
    return PulkaFilter(q.get("player", "").strip()[:MOST_NAME] or None, q.get("rules", "").strip()[:MOST_NAME] or None,
                       date_iso(q.get("from", "")[:20]), date_iso(q.get("to", "")[:20]))


async def new(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    known = await run_in_threadpool(_server(request).known_players)
    data = _page_data(request, presets=list(LIVE_PRESETS), today=dt.date.today().isoformat(),
                      rules=form_presets(LIVE_PRESETS), options=form_options(), last_table=list(known.last_table))
    text = page("serve_new.html", script="serve.js", same_origin=True, title="preflog · " + gettext("Start a pulka"),
                data=data, known=known.offered, last=known.last_table)
    return _html(request, text)


async def pulka_page(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    server = _server(request)
    pid = request.path_params["pid"]
    state = await run_in_threadpool(server.state, pid)
    svg, portrait = Markup(state.pop("svg")), Markup(state.pop("portrait"))
    text = page("serve_pulka.html", script=("serve.js", "serve_cards.js"), same_origin=True,
                title=f"preflog · {pid}", pid=pid, svg=svg, portrait=portrait, watch=_app.watch_key(request),
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

    f = _filter_of(request)
    text = await run_in_threadpool(_server(request).stats_page, f)
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


async def api_list(request: Request) -> Response:
    """``GET /api/pulkas``: the list of ``/`` as JSON (its filters, all pulkas that pass, no pages): each
    pulka as ``preflog ls --json`` lists it."""
    from starlette.concurrency import run_in_threadpool

    rows = await run_in_threadpool(_server(request).summaries, _filter_of(request))
    return JSONResponse({"pulkas": [s.as_json() for s in rows]}, headers=_HEADERS)


async def api_stats(request: Request) -> Response:
    """``GET /api/stats/{kind}``: a report of ``/stats`` (``players``, ``contracts``, ``variants``) as
    ``preflog stats KIND --json`` writes it, with the filters of ``/stats``."""
    from starlette.concurrency import run_in_threadpool

    kind = request.path_params["kind"]
    if kind not in ("players", "contracts", "variants"):
        raise Refused(404, f"no report {kind!r} (players, contracts or variants)")
    doc = await run_in_threadpool(_server(request).stats_json, kind, _filter_of(request))
    return JSONResponse(doc, headers=_HEADERS)


async def api_state(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    state = await run_in_threadpool(_server(request).state, request.path_params["pid"])
    return JSONResponse(state, headers=_HEADERS)


async def api_stream(request: Request) -> Response:
    """``GET /api/pulka/{id}/stream``: server-sent events (``text/event-stream``), the ``length`` of the
    pulka's log now and whenever it grows (this process's entries at once, another process's within
    :data:`_app.LOOK` seconds), a comment every :data:`_app.HEARTBEAT` seconds; read rules as ``/api/pulka/{id}``
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
                elif loop.time() - said >= _app.HEARTBEAT:
                    said = loop.time()
                    yield ": still here\n\n"
                event.clear()
                try:
                    await asyncio.wait_for(event.wait(), _app.LOOK)
                except TimeoutError:
                    pass
        finally:
            streams.release(slot)

    return StreamingResponse(lengths(), media_type="text/event-stream", headers={**_HEADERS, "X-Accel-Buffering": "no"})


def _expected(data: Any) -> int:
    """The ``expected_seq`` a write names: the log's length its page saw (400 without one)."""
    if not isinstance(data, dict) or type(data.get("expected_seq")) is not int:
        raise Refused(400, "an entry names the last seq its page saw (expected_seq)")
    seq: int = data["expected_seq"]
    return seq


def _start_form(data: Any) -> tuple[list[str], str, int | None, str, str | None]:
    """The start form's fields as :meth:`LiveTables.start` takes them (400 for a field of the wrong type)."""
    if not isinstance(data, dict):
        raise Refused(400, "the start form is a JSON object")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise Refused(400, "players are a list of names")
    spec = data.get("rules")
    if not isinstance(spec, str):
        spec = ""   # refused by the live table as no spec, with the presets it takes
    pool = data.get("pool")
    if pool is not None and type(pool) is not int:
        raise Refused(400, "pool is a whole number from 1 to 10000")
    price = data.get("whist_price", "1")
    date = data.get("date") or None
    if not isinstance(price, str) or not isinstance(date, str | None):
        raise Refused(400, "whist price and date are short texts")
    return players, spec, pool, price, date


async def api_start(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    form = _start_form(await _body(request))
    pid = await run_in_threadpool(_server(request).tables.start, *form)
    return JSONResponse({"id": pid, "url": f"/pulka/{pid}"}, status_code=201, headers=_HEADERS)


async def api_enter(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    state = await run_in_threadpool(_server(request).tables.enter, request.path_params["pid"], _expected(data),
                                    data.get("deal"), data.get("entry_id"))
    return JSONResponse(state.as_json(), status_code=201, headers=_HEADERS)


async def api_correct(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    state = await run_in_threadpool(_server(request).tables.correct, request.path_params["pid"], _expected(data),
                                    data.get("deal"), data.get("entry"), data.get("entry_id"))
    return JSONResponse(state.as_json(), status_code=201, headers=_HEADERS)


async def api_import(request: Request) -> Response:
    """``POST /api/import``: the body is a record file (text or JSON, at most :data:`_app.MAX_UPLOAD` bytes),
    ``X-File-Name`` its name for messages."""
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    body = await _raw(request, _app.MAX_UPLOAD)
    from urllib.parse import unquote

    name = unquote(request.headers.get("x-file-name", "upload")[:400])
    got = await run_in_threadpool(_server(request).upload, name, body)
    failed = [i for i in got["items"] if i["status"] == "error"]
    return JSONResponse({**got, **({"error": failed[0]["error"]} if failed else {})},
                        status_code=422 if failed else 201, headers=_HEADERS)


async def api_card_draft(request: Request) -> Response:
    """``POST /api/pulka/{id}/cards/draft``: the card-level draft's next options (writes nothing; asked as
    an entry is, with the CSRF token)."""
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    draft = data.get("draft") if isinstance(data, dict) else None
    view = await run_in_threadpool(_server(request).tables.card_draft, request.path_params["pid"], draft)
    return JSONResponse(view, headers=_HEADERS)


async def api_enter_cards(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    state = await run_in_threadpool(_server(request).tables.enter_cards, request.path_params["pid"],
                                    _expected(data), data.get("draft"), data.get("entry_id"))
    return JSONResponse(state.as_json(), status_code=201, headers=_HEADERS)


async def api_end(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    _check_write(request)
    data = await _body(request)
    state = await run_in_threadpool(_server(request).tables.end, request.path_params["pid"], _expected(data))
    return JSONResponse(state.as_json(), status_code=201, headers=_HEADERS)


def routes() -> list[Route]:
    """The app's routes: each handler guarded (:func:`~.app._guarded`: the read rules, one line for a
    refusal)."""
    return [
        Route("/", _guarded(home)),
        Route("/new", _guarded(new)),
        # a pulka id may hold "/" (the record reader takes [Id "a/b"]): the {pid:path} routes with a suffix
        # come before the pulka's own page, which takes the whole rest of the path
        Route("/pulka/{pid:path}/viewer", _guarded(viewer)),
        Route("/pulka/{pid:path}/record", _guarded(record)),
        Route("/pulka/{pid:path}/analysis", _guarded(analysis)),
        Route("/pulka/{pid:path}", _guarded(pulka_page)),
        Route("/stats", _guarded(stats)),
        Route("/api/pulka/{pid:path}/stream", _guarded(api_stream)),
        Route("/api/pulkas", _guarded(api_list), methods=["GET"]),
        Route("/api/pulkas", _guarded(api_start), methods=["POST"]),
        Route("/api/stats/{kind}", _guarded(api_stats)),
        Route("/api/pulka/{pid:path}/deals", _guarded(api_enter), methods=["POST"]),
        Route("/api/pulka/{pid:path}/end", _guarded(api_end), methods=["POST"]),
        Route("/api/pulka/{pid:path}/cards/draft", _guarded(api_card_draft), methods=["POST"]),
        Route("/api/pulka/{pid:path}/cards", _guarded(api_enter_cards), methods=["POST"]),
        Route("/api/pulka/{pid:path}/correct", _guarded(api_correct), methods=["POST"]),
        Route("/api/pulka/{pid:path}", _guarded(api_state)),
        Route("/api/import", _guarded(api_import), methods=["POST"]),
    ]
