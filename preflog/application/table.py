"""The live table: a pulka kept while it is played, deal by deal (``preflog serve``'s scorekeeping).

:class:`LiveTables` starts a pulka, says where one stands (:class:`TableState`), and appends to it: a
deal entered at paper level (:meth:`~LiveTables.enter`) or card by card (:meth:`~LiveTables.enter_cards`),
a correction of an earlier deal (:meth:`~LiveTables.correct`), the end (:meth:`~LiveTables.end`). Each
write names the log's length the page saw (``expected_seq``): when another entry came first nothing is
written and the refusal carries the state as it stands and the deals entered since the page's view
(``since``), so a phone keeps its draft and may enter it as the next deal. A deal may name its
``entry_id`` (the page's own, kept with its draft): sent again after its answer was lost, it is not
entered twice (:attr:`Refusal.REPEATED`). Every entry is checked by the engine's own
audit before it is stored: what the audit refuses is refused with its sentence. The refusals are one
:class:`TableRefused` with a :class:`Refusal` kind; the web app turns the kind into an HTTP status.
"""

from __future__ import annotations

import datetime as dt
import secrets
import threading
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import fields
from dataclasses import replace
from enum import StrEnum
from typing import Any

from ..engine.codes import Code
from ..engine.families import family_of
from ..engine.replay import AuditResult
from ..engine.replay import audit
from ..errors import PreflogError
from ..model.events import Event
from ..model.events import PulkaEnded
from ..model.events import PulkaStarted
from ..record.api import read_records
from ..record.api import write_text
from ..render.numbers import mixed
from ..render.numbers import money_shown
from ..render.sheet_svg import render_svg
from ..render.words import sheet_lang
from ..render.words import words_for
from ..rules.config import Rules
from ..rules.presets import PRESETS
from ..store.base import ConcurrencyError
from ..store.base import EventStore
from ..templates.i18n import LANG
from ..views.json import finding_json
from ..views.json import sheet_json
from ..workspace import Audited
from ..workspace import Loaded
from ..workspace import Workspace
from .cards import DraftRefused
from .cards import card_events
from .cards import draft_view
from .entry import DealEntry
from .entry import EntryError
from .entry import Table
from .entry import correction_events
from .entry import deal_blocks
from .entry import deal_events
from .entry import history
from .entry import last_entry
from .entry import paper_choices
from .entry import refusals
from .entry import standing
from .start import MOST_SPEC
from .start import POOL_UNUSED
from .start import has_pool
from .start import started_rules

LIVE_PRESETS = tuple(name for name, rules in PRESETS.items() if family_of(rules).live_entry)
"""The presets a pulka can be started with here: those of the families whose deals live entry takes
(:attr:`~preflog.engine.families.Family.entry`: the Russian family's, and the Croatian one's in its own
terms)."""
MOST_NAME = 40
"""The longest player's name a pulka is started with (characters)."""
KEPT_PULKAS = 64
"""Pulkas whose events, audit and state are kept between calls (then it starts afresh)."""


class Refusal(StrEnum):
    """Why the live table refused: the web app's status for each is in brackets."""

    BAD_REQUEST = "bad_request"   # (400) an entry of the wrong shape, or a pulka live entry does not take
    NO_PULKA = "no_pulka"         # (404) the store holds no pulka of that id
    STALE = "stale"               # (409) another entry came first: ``state`` is the pulka as it stands
    REFUSED = "refused"           # (422) the audit refuses it: its ``findings``, the draft's ``step``
    REPEATED = "repeated"         # (200) that entry id was entered already: nothing written again, ``state``


class TableRefused(PreflogError):
    """A live-table call refused, nothing written: ``refusal`` says why, ``message`` in words; ``state``
    (for :attr:`Refusal.STALE` and :attr:`Refusal.REPEATED`) the pulka as it stands, ``since`` (for
    :attr:`Refusal.STALE`) the entries made after the caller's view (:attr:`TableState.history`'s rows),
    ``findings`` the audit's (as JSON), ``step`` the card-level draft's step the engine refused."""

    def __init__(self, refusal: Refusal, message: str, *, state: TableState | None = None,
                 findings: Sequence[dict[str, Any]] = (), step: int | None = None,
                 since: Sequence[dict[str, Any]] = ()) -> None:
        super().__init__(message, code=str(refusal))
        self.refusal = refusal
        self.state = state
        self.findings = list(findings)
        self.step = step
        self.since = list(since)


def _stale(state: TableState, expected: int) -> TableRefused:
    """The refusal of a write on a view of ``expected`` events: the state, and what was entered since."""
    # each as the table reads it: numbered as the sheet numbers its deals, the players by name (issue 39 item 7)
    since = [{**h, "text": last_entry([h], state.players)} for h in state.history if h["seq"] > expected]
    return TableRefused(Refusal.STALE, "another entry was made first: here is the sheet as it stands now",
                        state=state, since=since)


MOST_ENTRY_ID = 64
"""The longest entry id a page may name (characters: letters, digits, ``-`` and ``_``)."""
KEPT_ENTRIES = 4096
"""Entry ids remembered (this process's, since it started; then it starts afresh: a resend after that
meets :attr:`Refusal.STALE` with the deal it made in ``since``, and the player discards it)."""


def entry_id_of(given: object) -> str | None:
    """The entry id a write names (None: none named); :attr:`Refusal.BAD_REQUEST` for one of the wrong
    shape."""
    if given is None:
        return None
    if (not isinstance(given, str) or not 1 <= len(given) <= MOST_ENTRY_ID
            or not all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in given)):
        raise TableRefused(Refusal.BAD_REQUEST, f"entry_id is up to {MOST_ENTRY_ID} letters, digits, - or _")
    return given


NO_TRICKS = "the tricks are not entered: tap each player's tricks (the last count is filled in from the others)"
"""Why a paper deal that is played, entered without its tricks, is refused."""


def _audit_refusal(found: Sequence[Any]) -> TableRefused:
    return TableRefused(Refusal.REFUSED, found[0].message, findings=[finding_json(f) for f in found])


@dataclass(frozen=True, slots=True)
class TableState:
    """Where a pulka stands: what its page draws and what the next deal's entry needs.

    ``seq`` is the log's length (the ``expected_seq`` of the next write); ``deals`` the deals on the
    sheet; ``svg`` the drawn sheet, ``portrait`` the same for a phone held upright; ``totals`` and
    ``settlement`` as ``sheet --json`` writes them, ``settlement_shown`` as on paper (30⅔, −);
    ``findings`` the audit's; ``live``: whether live entry takes its deals; the rest is the entry's (the
    dealer and the seats dealt in, the contracts and the family's words, the last deal's record block,
    each deal's dealer and history, the paper choices); ``last_entry`` the last entry's block numbered as the
    sheet numbers its deals and with the players' names (:func:`~.entry.last_entry`)."""

    id: str
    seq: int
    players: list[str]
    rules: str | None
    deals: int
    svg: str
    portrait: str
    totals: dict[str, Any]
    settlement: dict[str, Any]
    settlement_shown: dict[str, Any]
    findings: list[dict[str, Any]]
    ended: bool
    live: bool
    dealer: int | None
    dealers: list[int]
    seats_in: list[int]
    contracts: Any
    terms: dict[str, Any]
    last_deal: str
    last_entry: str
    sheet_dealers: list[int]
    seats_of: list[list[int]]
    history: Any
    paper: Any

    def as_json(self) -> dict[str, Any]:
        """The state as ``GET /api/pulka/{id}`` writes it: its fields, not copied (a state is kept between
        calls: read it, never change it). ``dataclasses.asdict`` copied every list and dict of the sheet,
        a sixth of entering a deal (benchmarks/serve.py)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def live(rules: Rules | None) -> bool:
    """Whether the live entry takes the deals of a pulka under ``rules`` (its family's, :data:`LIVE_PRESETS`)."""
    return rules is not None and family_of(rules).live_entry


class LiveTables:
    """The live pulkas of workspace ``ws``. ``lock`` makes this process's calls use the store one at a time
    (the store's optimistic concurrency still decides between processes); ``on_commit(pid)`` is told of
    each commit this process made (the web app wakes its streams and writes checkpoints)."""

    def __init__(self, ws: Workspace, lock: threading.RLock | None = None,
                 on_commit: Callable[[str], None] | None = None) -> None:
        self.ws = ws
        self.lock = lock if lock is not None else threading.RLock()
        self.on_commit = on_commit
        self._events: dict[str, tuple[int, list[Event]]] = {}   # pulka -> (table version, its events)
        self._standings: dict[tuple[str, int, str], tuple[Table, AuditResult]] = {}
        self._states: dict[tuple[str, int, str, str], TableState] = {}
        self._entered: dict[tuple[str, str], int] = {}   # (pulka, entry id) -> the log's length it made

    # --- reading ------------------------------------------------------------------------------
    def store(self) -> EventStore | None:
        return self.ws.store() if self.ws.exists() else None

    def events(self, pid: str) -> list[Event]:
        """The stored pulka ``pid``'s events (:attr:`Refusal.NO_PULKA` unless the store holds that id). Kept
        for the next call by the table's version: while no commit came since, or the commits since appended
        to other pulkas only (:meth:`_still`), they are the pulka's events (any process's commits count)."""
        with self.lock:
            store = self.store()
            if store is None:
                raise TableRefused(Refusal.NO_PULKA, "no such pulka")
            version = version_of(store)
            kept = self._events.get(pid)
            if kept is not None and version is not None and _still(store, pid, kept[0], version):
                self._events[pid] = (version, kept[1])
                return list(kept[1])
            events = store.read(pid)  # a value in the store's query, never a path
            if not events:
                raise TableRefused(Refusal.NO_PULKA, "no such pulka")
            self._keep(pid, events, version)
        return events

    def forget(self) -> None:
        """Drop the events kept (another writer of this process, an import, changed the store)."""
        with self.lock:
            self._events.clear()

    def _keep(self, pid: str, events: list[Event], version: int | None) -> None:
        if version is None:
            return
        if len(self._events) >= KEPT_PULKAS:
            self._events.clear()
        self._events[pid] = (version, list(events))

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

    def state(self, pid: str, events: Sequence[Event] | None = None) -> TableState:
        """Where pulka ``pid`` stands (``events``: its events, when the caller has them), its sheet and words
        in the language of the pages written now (:data:`~preflog.templates.LANG`). Kept between calls
        (phones ask for it every few seconds), by the same key as :meth:`standing` and the language."""
        evs = list(events) if events is not None else self.events(pid)
        lang = LANG.get()
        key = (pid, len(evs), repr(evs[-1].to_row()) if evs else "", lang.value)
        kept = self._states.get(key)
        if kept is None:
            kept = self._state(pid, evs)
            if len(self._states) >= KEPT_PULKAS:
                self._states.clear()
            self._states[key] = kept
        return kept

    def _state(self, pid: str, evs: list[Event]) -> TableState:
        table, result = self.standing(pid, evs)
        sheet = sheet_json(Audited(Loaded(pid, evs, str(self.ws.root)), result))
        dealer = table.dealer
        blocks = deal_blocks(evs)
        words = sheet_lang(LANG.get())
        terms = table.terms(sheet["rules"], words)
        entries = history(evs, blocks)
        return TableState(
            id=pid, seq=len(evs), players=list(table.players), rules=sheet["rules"], deals=len(sheet["deals"]),
            svg=render_svg(sheet, words), portrait=render_svg(sheet, words, portrait=True),
            totals=sheet["totals"], settlement=sheet["settlement"],
            # as on paper: fractions as mixed numbers (30⅔), minus as −; money as the family pays it
            settlement_shown={k: money_shown(by, words_for(sheet["family"], sheet["rules"]).whole_money)
                              if k == "money" and isinstance(by, dict)
                              else {p: mixed(v) for p, v in by.items()} if isinstance(by, dict) else by
                              for k, by in sheet["settlement"].items()},
            findings=[finding_json(f) for f in result.findings], ended=table.ended, live=live(table.rules),
            dealer=dealer, dealers=list(table.dealers),
            seats_in=list(table.seats_in(dealer)) if dealer is not None else [],
            contracts=table.contracts(), terms=terms, last_deal=blocks[-1] if blocks else "",
            last_entry=last_entry(entries, table.players),
            sheet_dealers=[d.dealer for d in result.deals],
            seats_of=[list(table.seats_in(d)) for d in range(len(table.players))],
            history=entries, paper=paper_choices(table))

    # --- writing ------------------------------------------------------------------------------
    def start(self, players: Sequence[str], rules: str, pool: int | None = None, whist_price: str = "1",
              date: str | None = None) -> str:
        """Start a pulka of ``players`` (3 or 4 names) under the rules spec ``rules`` (a live preset and its
        options), ``pool`` (for a sheet with a pool), ``whist_price`` and ``date`` (default: today); returns
        its id (``live-DATE-xxxxxx``)."""
        names = tuple(p.strip() for p in players if p.strip())
        if len(names) not in (3, 4):
            raise TableRefused(Refusal.BAD_REQUEST, "a pulka has 3 or 4 players")
        if any(len(p) > MOST_NAME for p in names):
            raise TableRefused(Refusal.BAD_REQUEST, f"a player's name has at most {MOST_NAME} characters")
        if not rules.strip() or len(rules) > MOST_SPEC:
            raise TableRefused(Refusal.BAD_REQUEST, f"rules: a rules spec, one of {', '.join(LIVE_PRESETS)} with "
                                                    f"its options (sochi+allow_concede_down3=true)")
        try:   # the one spec parser: a bad option is its own sentence
            parsed, preset, overrides = started_rules(rules)
        except PreflogError as exc:
            raise TableRefused(Refusal.BAD_REQUEST, str(exc)) from None
        if not live(parsed):
            raise TableRefused(Refusal.BAD_REQUEST, f"rules: one of {', '.join(LIVE_PRESETS)}")
        if not has_pool(parsed) and pool is None:
            pool = POOL_UNUSED
        if type(pool) is not int or not 1 <= pool <= 10_000:
            raise TableRefused(Refusal.BAD_REQUEST, "pool is a whole number from 1 to 10000")
        date = date or dt.date.today().isoformat()
        if len(whist_price) > 20 or len(date) > 20:
            raise TableRefused(Refusal.BAD_REQUEST, "whist price and date are short texts")
        pid = f"live-{date.strip()[:10]}-{secrets.token_hex(3)}"
        try:
            # the id in the pulka's own tags, as an export writes it: the record imports again to these events
            started = PulkaStarted(players=names, rules=preset, overrides=overrides, pool=pool,
                                   whist_price=whist_price.strip() or "1", meta=(("date", date.strip()), ("id", pid)))
            # what the record reader reads back is what is stored: the export imports again as it is
            back = read_records(write_text([started]), "the start form")
        except (PreflogError, ValueError) as exc:
            raise TableRefused(Refusal.BAD_REQUEST, str(exc)) from None
        if len(back) != 1 or list(back[0].events) != [started]:
            raise TableRefused(Refusal.BAD_REQUEST, "these names cannot be written in a record (see "
                                                    "docs/record-format.md, Players)")
        found = audit([started]).findings
        if found:
            raise TableRefused(Refusal.BAD_REQUEST, found[0].message)
        store = self.ws.store(create=True)
        with self.lock:
            store.append(pid, [started], 0)
        return pid

    def _as_seen(self, pid: str, expected: int, entry_id: str | None = None) -> list[Event]:
        """Pulka ``pid``'s events when the page saw every one (``expected`` of them); else
        :attr:`Refusal.STALE` with the sheet as it stands, or :attr:`Refusal.REPEATED` when ``entry_id``
        was entered already (its answer lost, it is sent again). Called holding the lock."""
        events = self.events(pid)
        if entry_id is not None and (pid, entry_id) in self._entered:
            raise TableRefused(Refusal.REPEATED, "this entry was made already: it counts once",
                               state=self.state(pid, events))
        if len(events) != expected:
            raise _stale(self.state(pid, events), expected)
        return events

    def _append(self, pid: str, events: list[Event], new: list[Event], expected: int,
                entry_id: str | None = None) -> TableState:
        """Append ``new`` after the ``expected`` events the page saw (:attr:`Refusal.STALE` when another
        entry came first: the store's optimistic concurrency), remembering ``entry_id``; returns the new
        state. Called holding the lock, once the audit accepted ``new``."""
        store = self.ws.store()
        try:
            store.append(pid, new, expected)
        except ConcurrencyError:
            raise _stale(self.state(pid), expected) from None
        if entry_id is not None:
            if len(self._entered) >= KEPT_ENTRIES:
                self._entered.clear()
            self._entered[(pid, entry_id)] = expected + len(new)
        self._events.pop(pid, None)
        if store.committed is not None:
            # the version of this process's own commit: its heads record names pid alone
            self._keep(pid, [*events, *new], store.committed)
        if self.on_commit is not None:
            self.on_commit(pid)
        return self.state(pid, [*events, *new])

    def _live_table(self, pid: str, events: list[Event]) -> Table:
        table, _ = self.standing(pid, events)
        if not live(table.rules):
            raise TableRefused(Refusal.BAD_REQUEST, f"live entry takes the deals of {', '.join(LIVE_PRESETS)} "
                                                    "pulkas so far")
        return table

    def enter(self, pid: str, expected_seq: int, deal: object, entry_id: str | None = None) -> TableState:
        """Append one deal entered at paper level (``deal``: its JSON, :meth:`DealEntry.from_json`) to pulka
        ``pid`` as the page saw it (``expected_seq`` events), ``entry_id`` the page's id of it
        (:func:`entry_id_of`); returns the new state."""

        def paper(events: list[Event], table: Table) -> list[Event]:
            return deal_events(DealEntry.from_json(deal, len(table.players)), table)

        # a deal the audit finds unfinished, entered without tricks, lacks its tricks: said so, not the
        # audit's phase (a deal won without play, entered without tricks, is complete and taken)
        blank = isinstance(deal, dict) and deal.get("tricks") is None
        return self._enter_deal(pid, expected_seq, paper, NO_TRICKS if blank else None, entry_id)

    def enter_cards(self, pid: str, expected_seq: int, draft: object, entry_id: str | None = None) -> TableState:
        """Append one card-level deal (``draft`` finished, :mod:`.cards`) as :meth:`enter` does a
        paper-level one."""

        def cards(events: list[Event], table: Table) -> list[Event]:
            return card_events(events, draft, len(table.players), table.dealer)

        return self._enter_deal(pid, expected_seq, cards, entry_id=entry_id)

    def _enter_deal(self, pid: str, expected: int, make: Callable[[list[Event], Table], list[Event]],
                    unfinished: str | None = None, entry_id: str | None = None) -> TableState:
        """Append the deal ``make`` writes, unless the audit refuses it; ``unfinished``: the sentence to
        refuse it with when the audit finds it unfinished (instead of the audit's)."""
        entry_id = entry_id_of(entry_id)
        with self.lock:
            events = self._as_seen(pid, expected, entry_id)
            table = self._live_table(pid, events)
            try:
                new = make(events, table)
            except EntryError as exc:
                raise TableRefused(Refusal.BAD_REQUEST, str(exc)) from None
            except DraftRefused as exc:
                raise TableRefused(Refusal.REFUSED, exc.finding.message, step=exc.step,
                                   findings=[finding_json(exc.finding)]) from None
            _, after = self.standing(pid, [*events, *new])
            found = refusals(after, len(events))
            if found and unfinished is not None and found[0].code == Code.DEAL_INCOMPLETE:
                raise TableRefused(Refusal.BAD_REQUEST, unfinished)
            if found:
                raise _audit_refusal(found)
            return self._append(pid, events, new, expected, entry_id)

    def card_draft(self, pid: str, draft: object) -> dict[str, Any]:
        """What the page shows of its card-level ``draft`` of pulka ``pid``'s next deal
        (:func:`~.cards.draft_view`). Nothing is written."""
        with self.lock:
            events = self.events(pid)
            table = self._live_table(pid, events)
        try:
            return draft_view(events, draft, len(table.players), table.dealer)
        except EntryError as exc:
            raise TableRefused(Refusal.BAD_REQUEST, str(exc)) from None
        except DraftRefused as exc:
            raise TableRefused(Refusal.REFUSED, exc.finding.message, step=exc.step,
                               findings=[finding_json(exc.finding)]) from None

    def correct(self, pid: str, expected_seq: int, deal: object, entry: object | None,
                entry_id: str | None = None) -> TableState:
        """Correct deal number ``deal`` of pulka ``pid``: replaced by ``entry`` (its JSON; its dealer is the
        corrected deal's), or struck out when there is none; ``entry_id`` as for :meth:`enter`. Appended as events
        (:func:`~.entry.correction_events`); refused when the audit finds anything it did not find before
        (a correction re-scores the deals after it); returns the new state."""
        entry_id = entry_id_of(entry_id)
        with self.lock:
            events = self._as_seen(pid, expected_seq, entry_id)
            table = self._live_table(pid, events)
            _, before = self.standing(pid, events)
            if table.ended:
                raise TableRefused(Refusal.REFUSED, "the pulka has ended: its sheet is final")
            if type(deal) is not int or not 1 <= deal <= len(before.deals):
                raise TableRefused(Refusal.BAD_REQUEST, f"deal is a deal of the sheet (1 to {len(before.deals)})")
            dealer = before.deals[deal - 1].dealer
            at = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            replacement: list[Event] | None = None
            if entry is not None:
                try:
                    parsed = DealEntry.from_json(entry, len(table.players))
                    replacement = deal_events(replace(parsed, dealer=dealer), table)
                except EntryError as exc:
                    raise TableRefused(Refusal.BAD_REQUEST, str(exc)) from None
            new = correction_events(deal, dealer, replacement, at)
            _, after = self.standing(pid, [*events, *new])
            found = refusals(after, len(events), before)
            if found:
                raise _audit_refusal(found)
            return self._append(pid, events, new, expected_seq, entry_id)

    def end(self, pid: str, expected_seq: int) -> TableState:
        """End pulka ``pid``: ``closed`` when the audit accepts that (every pulya closed), else ``stopped``
        (by agreement, before the end); returns the new state."""
        with self.lock:
            events = self._as_seen(pid, expected_seq)
            found: list[Any] = []
            new: list[Event] = []
            for reason in ("closed", "stopped"):
                new = [PulkaEnded(reason)]
                found = refusals(self.standing(pid, [*events, *new])[1], len(events))
                if not found:
                    break
            if found:
                raise _audit_refusal(found)
            return self._append(pid, events, new, expected_seq)


def version_of(store: EventStore) -> int | None:
    """The version of the store's table (one ``stat`` when nothing changed), or None for a store without
    versions (nothing is kept then)."""
    return store.version()


def _still(store: EventStore, pid: str, kept: int, version: int) -> bool:
    """Whether pulka ``pid`` as read at version ``kept`` is the pulka at ``version``: no commit since
    appended to it, as their heads records say (a commit that records none: no)."""
    if kept == version:
        return True
    touched = store.appended_since(kept)
    return touched is not None and pid not in touched


__all__ = ["KEPT_ENTRIES", "KEPT_PULKAS", "LIVE_PRESETS", "MOST_ENTRY_ID", "MOST_NAME", "LiveTables", "Refusal",
           "TableRefused", "TableState", "entry_id_of", "live", "version_of"]
