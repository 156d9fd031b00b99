"""Replay and audit of a pulka's event log.

- :func:`replay` applies events one by one through the same checks as live play and
  yields the live state after each (state at any deal / trick); it raises
  :class:`AuditFailed` on the first illegal event.
- :func:`audit` reports every finding (code, deal, seq, event, message); after a broken
  deal it skips to the next DealStarted and goes on. ``strict=True`` raises on the first.
- :func:`audit_rows` is the fast path over row tuples ``(code, player, card, value,
  payload)`` (:mod:`preflog.model.events`): the same checks, no event objects for cards.

``seq`` is the 0-based position of the event in the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..model.events import (
    CardPlayed,
    DealStarted,
    Event,
    EventError,
    PulkaEnded,
    PulkaStarted,
    Row,
    ScoreRecorded,
    from_row,
    unpack_layout,
)
from ..model.outcome import DealOutcome
from ..rules.config import Rules
from ..scoring.sheet import DealScore, Number, Settlement, Sheet
from .deal import DEAL_EVENTS, DONE, DealState
from .findings import AuditFailed, Finding, IllegalAction
from .pulka import (
    DEAL_INCOMPLETE,
    DUPLICATE_PULKA_START,
    EVENT_AFTER_END,
    EVENT_OUTSIDE_DEAL,
    MISSING_PULKA_START,
    PULKA_ALREADY_FINISHED,
    SCORE_LINE_MID_DEAL,
    SCORE_MISMATCH,
    SCORING_ERROR,
    PulkaState,
)

BAD_EVENT = "bad_event"
"""A row that does not decode into an event."""

_C_START, _C_DEAL, _C_BID, _C_TALON, _C_DISCARD, _C_CONTRACT, _C_WHIST, _C_MODE = 1, 2, 3, 4, 5, 6, 7, 8
_C_CONTRA, _C_CARD, _C_SCORE, _C_END = 9, 10, 14, 15


@dataclass(slots=True)
class DealSummary:
    """One deal as the audit saw it."""

    deal: int
    dealer: int
    seq: int                                   # seq of its DealStarted
    outcome: DealOutcome | None = None
    score: DealScore | None = None
    findings: list[Finding] = field(default_factory=list)
    broken: bool = False                       # an illegal event stopped the deal's replay


@dataclass(slots=True)
class AuditResult:
    """Everything an audit found: findings, per-deal summaries, final sheet and settlement."""

    findings: list[Finding]
    deals: list[DealSummary]
    rules: Rules | None = None
    players: tuple[str, ...] = ()
    sheet: Sheet | None = None
    settlement: Settlement | None = None
    events: int = 0
    ended: bool = False

    @property
    def ok(self) -> bool:
        return not self.findings

    def codes(self) -> list[str]:
        return [f.code for f in self.findings]


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The state right after one event (``pulka`` and ``deal`` are live objects)."""

    seq: int
    event: Event
    pulka: PulkaState
    deal: DealState | None


class _Auditor:
    """The shared engine of :func:`audit`, :func:`audit_rows` and :func:`replay`."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.findings: list[Finding] = []
        self.deals: list[DealSummary] = []
        self.pulka: PulkaState | None = None
        self.fatal = False                     # no valid PulkaStarted: nothing else can be checked
        self.skipping = False                  # inside a broken deal
        self.summary: DealSummary | None = None
        self.offset: dict[tuple[int, str], Number] = {}
        self.rebase: set[int] = set()          # seats whose next score line re-bases the comparison
        self.n_events = 0
        self.finished_reported = False

    # -- findings --------------------------------------------------------------
    def _find(self, code: str, seq: int, message: str, ev: Event | None, row: Row | None = None,
              deal: int | None = None) -> Finding:
        if ev is None and row is not None:
            try:
                ev = from_row(*row)
            except EventError:
                ev = None
        if deal is None:
            deal = self.pulka.deal_no if self.pulka is not None else 0
        f = Finding(code, deal, seq, message, ev)
        self.findings.append(f)
        if self.summary is not None and self.summary.deal == deal:
            self.summary.findings.append(f)
        if self.strict:
            raise AuditFailed(f)
        return f

    def _break_deal(self, seq: int, exc: IllegalAction, ev: Event | None, row: Row | None) -> None:
        self.skipping = True
        if self.summary is not None:
            self.summary.broken = True
        if self.pulka is not None:
            self.rebase = set(range(self.pulka.n))
        self._find(exc.code, seq, exc.message, ev, row)

    # -- events ----------------------------------------------------------------
    def event(self, seq: int, ev: Event) -> None:
        self.n_events += 1
        t = type(ev)
        if t is CardPlayed:
            self._deal_ints(seq, _C_CARD, ev.player, ev.card, 0, ev, None)  # type: ignore[attr-defined]
        elif t in DEAL_EVENTS:
            self._deal_event(seq, ev, None)
        else:
            self._other(seq, ev, None)

    def row(self, seq: int, row: Row) -> None:
        self.n_events += 1
        code = row[0]
        if _C_BID <= code <= _C_CARD:
            self._deal_ints(seq, code, row[1], row[2], row[3], None, row)
            return
        if code == _C_DEAL and not row[4] and (row[2] == 3 or row[2] == 4):
            # a packed layout: no event object unless there is a finding
            try:
                hands, talon = unpack_layout(row[1], row[2], row[3])
            except (TypeError, ValueError):
                pass   # from_row reports it as a bad event
            else:
                self._deal_row(seq, row, hands, talon)
                return
        try:
            ev = from_row(*row)
        except EventError as exc:
            self._find(BAD_EVENT, seq, str(exc), None)
            return
        if type(ev) in DEAL_EVENTS:
            self._deal_event(seq, ev, row)
        else:
            self._other(seq, ev, row)

    def _deal_guard(self, seq: int, ev: Event | None, row: Row | None) -> DealState | None:
        if self.fatal:
            return None
        p = self.pulka
        if p is None:
            self._no_start(seq, ev, row)
            return None
        if p.ended:
            self._find(EVENT_AFTER_END, seq, "a deal event after PulkaEnded", ev, row)
            return None
        if self.skipping:
            return None
        d = p.deal
        if d is None:
            self._find(EVENT_OUTSIDE_DEAL, seq, "a deal event before the first DealStarted", ev, row)
            return None
        return d

    def _live_deal(self) -> DealState | None:
        """The deal a deal event may go to without the general checks: the open, unbroken deal of a
        running pulka that is not done yet (what :meth:`_deal_guard` would let through)."""
        p = self.pulka
        if self.fatal or p is None or p.ended or self.skipping:
            return None
        d = p.deal
        return d if d is not None and d.phase != DONE else None

    def _deal_ints(self, seq: int, code: int, player: int, card: int, value: int, ev: Event | None,
                   row: Row | None) -> None:
        d = self._deal_guard(seq, ev, row)
        if d is None:
            return
        try:
            if code == _C_CARD:
                d.play(player, card)
            elif code == _C_BID:
                d.bid(player, value)
            elif code == _C_WHIST:
                d.whist(player, value)
            elif code == _C_DISCARD:
                d.discard(player, value)
            elif code == _C_CONTRACT:
                d.declare(player, value)
            elif code == _C_MODE:
                d.choose_mode(player, value)
            elif code == _C_TALON:
                d.reveal_talon(value)
            elif code == _C_CONTRA:
                d.call_contra(player)
            else:  # claims and results carry a payload
                d.apply(ev if ev is not None else from_row(*row))  # type: ignore[misc]
        except IllegalAction as exc:
            self._break_deal(seq, exc, ev, row)
            return
        if d.phase == DONE and self.summary is not None and self.summary.outcome is None:
            self._score(seq, d, ev, row)

    def _deal_event(self, seq: int, ev: Event, row: Row | None) -> None:
        d = self._deal_guard(seq, ev, row)
        if d is None:
            return
        try:
            d.apply(ev)
        except IllegalAction as exc:
            self._break_deal(seq, exc, ev, row)
            return
        if d.done and self.summary is not None and self.summary.outcome is None:
            self._score(seq, d, ev, row)

    def _score(self, seq: int, d: DealState, ev: Event | None, row: Row | None) -> None:
        assert self.summary is not None and self.pulka is not None
        self.summary.outcome = d.outcome
        try:
            self.summary.score = self.pulka.finish_deal()
        except (ValueError, ArithmeticError, KeyError) as exc:
            self.rebase = set(range(self.pulka.n))
            self._find(SCORING_ERROR, seq, f"the scorer rejected the outcome of deal {d.deal}: {exc}", ev, row)

    def _no_start(self, seq: int, ev: Event | None, row: Row | None) -> None:
        self.fatal = True
        self._find(MISSING_PULKA_START, seq, "the log must begin with PulkaStarted (players and rules)", ev, row,
                   deal=0)

    def _other(self, seq: int, ev: Event, row: Row | None) -> None:
        t = type(ev)
        if t is PulkaStarted:
            if self.pulka is not None or self.fatal:
                self._find(DUPLICATE_PULKA_START, seq, "a second PulkaStarted in one log", ev, row)
                return
            try:
                self.pulka = PulkaState(ev)  # type: ignore[arg-type]
            except IllegalAction as exc:
                self.fatal = True
                self._find(exc.code, seq, exc.message, ev, row, deal=0)
            return
        if self.fatal:
            return
        p = self.pulka
        if p is None:
            self._no_start(seq, ev, row)
            return
        if p.ended:
            self._find(EVENT_AFTER_END, seq, f"{ev.KIND} after PulkaEnded", ev, row)
            return
        if t is DealStarted:
            self._deal_started(seq, ev.dealer, ev.hands, ev.talon, ev, row)  # type: ignore[attr-defined]
        elif t is ScoreRecorded:
            self._score_line(seq, ev, row)  # type: ignore[arg-type]
        elif t is PulkaEnded:
            self._close_open_deal(seq, ev, row)
            try:
                p.verify_end(ev)  # type: ignore[arg-type]
            except IllegalAction as exc:
                self._find(exc.code, seq, exc.message, ev, row)
            p.end(ev)  # type: ignore[arg-type]

    def _end_without_play(self, seq: int, ev: Event, row: Row | None) -> None:
        """A deal that ends without a further deal event (Croatian 2♠ rule) ends at the next other event."""
        p = self.pulka
        assert p is not None
        d = p.deal
        if d is not None and not d.done and not self.skipping and d.finish_without_play() \
                and self.summary is not None and self.summary.outcome is None:
            self._score(seq, d, ev, row)

    def _close_open_deal(self, seq: int, ev: Event, row: Row | None) -> None:
        p = self.pulka
        assert p is not None
        self._end_without_play(seq, ev, row)
        if p.deal is not None and not p.deal.done and not self.skipping:
            self.rebase = set(range(p.n))
            self._find(DEAL_INCOMPLETE, seq, f"deal {p.deal_no} ended in its {p.deal.phase_name} phase without an "
                       f"outcome (expected {p.deal._expected()})", ev, row)

    def _deal_row(self, seq: int, row: Row, hands: tuple[int, ...], talon: int) -> None:
        """A DealStarted row with a packed layout (what :meth:`_other` does with its event)."""
        if self.fatal:
            return
        p = self.pulka
        if p is None:
            self._no_start(seq, None, row)
            return
        if p.ended:
            self._find(EVENT_AFTER_END, seq, f"{DealStarted.KIND} after PulkaEnded", None, row)
            return
        self._deal_started(seq, row[1], hands, talon, None, row)

    def _deal_started(self, seq: int, dealer: int, hands: tuple[int, ...] | None, talon: int | None,
                      ev: Event | None, row: Row | None) -> None:
        p = self.pulka
        assert p is not None
        d = p.deal
        if d is not None and d.phase != DONE:   # (a finished deal has nothing to close)
            self._close_open_deal(seq, ev, row)
        self.skipping = False
        self.summary = None
        if not self.finished_reported and p.scores and p.scorer is not None and p.is_finished():
            self.finished_reported = True
            self._find(PULKA_ALREADY_FINISHED, seq, "a new deal although every pulya is closed", ev, row,
                       deal=p.deal_no + 1)
        try:
            p.verify_deal_start(dealer)
        except IllegalAction as exc:
            self._find(exc.code, seq, exc.message, ev, row, deal=p.deal_no + 1)
        summary = DealSummary(p.deal_no + 1, dealer, seq)
        self.deals.append(summary)
        self.summary = summary
        try:
            p.open_deal(dealer, hands, talon)
        except IllegalAction as exc:
            self._break_deal(seq, exc, ev, row)

    def _score_line(self, seq: int, ev: ScoreRecorded, row: Row | None) -> None:
        p = self.pulka
        assert p is not None
        self._end_without_play(seq, ev, row)
        if p.deal is not None and not p.deal.done and not self.skipping:
            self._find(SCORE_LINE_MID_DEAL, seq, f"a score line while deal {p.deal_no} is in its "
                       f"{p.deal.phase_name} phase", ev, row)
            return
        try:
            diffs = p.score_line_differences(ev, self.offset)
        except IllegalAction as exc:
            self._find(exc.code, seq, exc.message, ev, row)
            return
        if ev.player in self.rebase and p.sheet is not None:
            # after a deal the audit could not score, the written line becomes the new baseline
            self.rebase.discard(ev.player)
            sheet = p.sheet
            self.offset[(ev.player, "pulya")] = ev.pulya - sheet.pulya[ev.player]
            self.offset[(ev.player, "gora")] = ev.gora - sheet.gora[ev.player]
            for j in range(p.n):
                self.offset[(ev.player, f"visty on {p.players[j]}")] = ev.visty[j] - sheet.visty[ev.player][j]
            return
        for _name, msg in diffs:
            self._find(SCORE_MISMATCH, seq, msg, ev, row)

    def result(self) -> AuditResult:
        p = self.pulka
        res = AuditResult(self.findings, self.deals, events=self.n_events)
        if p is not None:
            res.rules, res.players, res.ended = p.rules, p.players, p.ended
            if p.scorer is not None:
                res.sheet = p.scorer.sheet.copy()
                res.settlement = p.scorer.settlement()
        return res


def audit(events: Iterable[Event], strict: bool = False) -> AuditResult:
    """Check a whole log; every broken rule is a :class:`Finding` (``strict`` raises on the first)."""
    a = _Auditor(strict)
    live: DealState | None = None   # as in audit_rows: cards straight to a healthy deal in play
    n = 0
    for seq, ev in enumerate(events):
        if live is not None and type(ev) is CardPlayed:
            n += 1
            try:
                live.play(ev.player, ev.card)  # type: ignore[attr-defined]
            except IllegalAction as exc:
                live = None
                a._break_deal(seq, exc, ev, None)
                continue
            if live.phase == DONE:
                if a.summary is not None and a.summary.outcome is None:
                    a._score(seq, live, ev, None)
                live = None
            continue
        a.event(seq, ev)
        live = a._live_deal()
    a.n_events += n
    return a.result()


def audit_rows(rows: Iterable[Row], strict: bool = False) -> AuditResult:
    """:func:`audit` over row tuples ``(code, player, card, value, payload)`` — the store's fast path.

    Deal rows (most of a log) go straight to the open deal while it is healthy, runs of cards
    through :meth:`DealState.play_cards`; the first problem, and every other event, takes the
    general path, so findings are the same.
    """
    if not isinstance(rows, (list, tuple)):
        rows = list(rows)   # (indexed: card runs are played as slices of the log)
    a = _Auditor(strict)
    live: DealState | None = None   # the deal its events may go to directly; None = the general path
    n = len(rows)
    i = 0
    while i < n:
        row = rows[i]
        code = row[0]
        if live is None or not _C_BID <= code <= _C_CARD:
            a.row(i, row)
            live = a._live_deal()
            i += 1
            continue
        if code == _C_CARD:
            j = live.play_cards(rows, i, n)
            if j > i:
                if live.phase == DONE:
                    if a.summary is not None and a.summary.outcome is None:
                        a._score(j - 1, live, None, rows[j - 1])
                    live = None
                i = j
                continue
        try:  # most frequent first
            if code == _C_BID:
                live.bid(row[1], row[3])
            elif code == _C_CARD:
                live.play(row[1], row[2])
            elif code == _C_WHIST:
                live.whist(row[1], row[3])
            elif code == _C_DISCARD:
                live.discard(row[1], row[3])
            elif code == _C_CONTRACT:
                live.declare(row[1], row[3])
            elif code == _C_MODE:
                live.choose_mode(row[1], row[3])
            elif code == _C_TALON:
                live.reveal_talon(row[3])
            else:
                live.call_contra(row[1])
        except IllegalAction as exc:
            live = None
            a._break_deal(i, exc, None, row)
        else:
            if live.phase == DONE:
                if a.summary is not None and a.summary.outcome is None:
                    a._score(i, live, None, row)
                live = None
        i += 1
    a.n_events = n
    return a.result()


def replay(events: Iterable[Event]) -> Iterator[ReplayStep]:
    """Apply events one by one and yield the state after each; raises :class:`AuditFailed` when one is illegal."""
    a = _Auditor(strict=True)
    for seq, ev in enumerate(events):
        a.event(seq, ev)
        assert a.pulka is not None
        yield ReplayStep(seq, ev, a.pulka, a.pulka.deal)


def state_at(events: Iterable[Event], seq: int) -> PulkaState:
    """The pulka state right after event ``seq`` (replayed strictly)."""
    last: PulkaState | None = None
    for step in replay(events):
        last = step.pulka
        if step.seq >= seq:
            break
    if last is None:
        raise ValueError("empty event log")
    return last


def rows_of(events: Iterable[Event]) -> list[Row]:
    """The row form of a log (for tests and the store)."""
    return [ev.to_row() for ev in events]


__all__ = ["AuditResult", "DealSummary", "ReplayStep", "audit", "audit_rows", "replay", "rows_of", "state_at"
           ]
