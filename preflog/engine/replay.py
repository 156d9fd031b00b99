"""Replay and audit of a pulka's event log: one auditor step, three ways to drive it.

- :func:`audit` reports every finding (code, deal, seq, event, message); after a broken
  deal it skips to the next DealStarted and goes on. ``strict=True`` raises on the first.
- :func:`audit_rows` does the same over row tuples ``(code, player, card, value, payload)``
  (:mod:`preflog.model.events`), the store's form: no event objects unless there is a finding;
  :func:`audit_columns` over the same rows as columns (:class:`~preflog.model.columns.RowColumns`, what
  a bulk read of the store gives): no tuple per event either. The auditor walks columns; the other
  forms are turned into columns first.
- :func:`replay` applies events one by one and yields the live state after each (state at any
  deal / trick); it raises :class:`AuditFailed` on the first illegal event. :func:`state_at` wraps it.

All three go through :meth:`Auditor.step`, which applies deal events by ``Event.CODE``
(:data:`preflog.engine.deal.STEPS`, whose events carried by their row are dispatched by
:func:`preflog.engine.deal.apply_row`; the walk over columns calls that with the column values); runs
of card rows go to the trick kernel whole (:meth:`preflog.engine.tricks.TrickPlay.play_cards`) and a
card it refuses takes the same step, so findings are the same on every path.

Numbering: what the auditor hands out — :attr:`Finding.seq`, :attr:`DealSummary.seq`,
:attr:`ReplayStep.seq` — is the event's **seq as the store numbers it**: 1 for the first event of the
log (so ``WHERE seq = …`` in ``preflog sql`` selects it; ``events[f.seq - 1]`` in a Python list). The
methods inside take the 0-based position ``i`` of the event in the log (their ``seq`` argument); the
one conversion is :meth:`Auditor._find` and the two constructors below (``position + 1``).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..model.columns import RowColumns
from ..model.events import CardPlayed
from ..model.events import DealCorrected
from ..model.events import DealStarted
from ..model.events import Event
from ..model.events import EventError
from ..model.events import PulkaEnded
from ..model.events import PulkaStarted
from ..model.events import Row
from ..model.events import ScoreRecorded
from ..model.events import from_row
from ..model.layout import unpack_layout
from ..model.outcome import DealOutcome
from ..model.registry import ROLES
from ..model.registry import Role
from ..rules.config import Rules
from ..scoring.sheet import DealScore
from ..scoring.sheet import Number
from ..scoring.sheet import Settlement
from ..scoring.sheet import Sheet
from .codes import Code
from .corrections import CORRECTED
from .corrections import applied
from .deal import DEAL_CODES
from .deal import DONE
from .deal import ROW_CODE_BITS
from .deal import ROW_CODES
from .deal import STEPS
from .deal import Deal
from .deal import apply_row
from .findings import AuditFailed
from .findings import Finding
from .findings import IllegalAction
from .pulka import PulkaState
from .standings import PlayerSettlement
from .standings import settlement_by_player

_CARD: Final = CardPlayed.CODE
_DEAL: Final = DealStarted.CODE
_DEAL_KIND: Final = DealStarted.KIND
_PULKA_START: Final = int(Role.PULKA_START)
_DEAL_START: Final = int(Role.DEAL_START)
_SCORE_LINE: Final = int(Role.SCORE_LINE)
_PULKA_END: Final = int(Role.PULKA_END)
_CORRECTION: Final = int(Role.CORRECTION)


@dataclass(init=False)
class DealSummary:
    """One deal as the audit saw it. (Its ``__init__`` is written out: one is built per deal on the
    replay's hot path, and the compiled kernel builds it natively.)"""

    deal: int
    dealer: int
    seq: int                                   # seq of its DealStarted (1-based, the store's)
    outcome: DealOutcome | None
    score: DealScore | None
    findings: list[Finding]
    broken: bool                               # an illegal event stopped the deal's replay

    def __init__(self, deal: int, dealer: int, seq: int, outcome: DealOutcome | None = None,
                 score: DealScore | None = None, findings: list[Finding] | None = None, broken: bool = False) -> None:
        self.deal = deal
        self.dealer = dealer
        self.seq = seq
        self.outcome = outcome
        self.score = score
        self.findings = [] if findings is None else findings
        self.broken = broken

    def __reduce__(self) -> tuple[type[DealSummary], tuple[object, ...]]:
        return (DealSummary, (self.deal, self.dealer, self.seq, self.outcome, self.score, self.findings, self.broken))


@dataclass(init=False, slots=True)
class AuditResult:
    """Everything an audit found: findings, per-deal summaries, final sheet and settlement. (Its
    ``__init__`` is written out: one is built per pulka, and the compiled kernel builds it natively.)"""

    findings: list[Finding]
    deals: list[DealSummary]
    rules: Rules | None
    players: tuple[str, ...]
    sheet: Sheet | None
    settlement: Settlement | None
    events: int
    ended: bool

    def __init__(self, findings: list[Finding], deals: list[DealSummary], rules: Rules | None = None,
                 players: tuple[str, ...] = (), sheet: Sheet | None = None, settlement: Settlement | None = None,
                 events: int = 0, ended: bool = False) -> None:
        self.findings = findings
        self.deals = deals
        self.rules = rules
        self.players = players
        self.sheet = sheet
        self.settlement = settlement
        self.events = events
        self.ended = ended

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def settlement_by_player(self) -> dict[str, PlayerSettlement]:
        """:attr:`settlement` keyed by player name (``{"Anna": PlayerSettlement(exact=…, method1=…, …)}``);
        ``settlement`` itself stays by seat. Empty when there is none (the log did not start)."""
        if self.settlement is None or self.rules is None:
            return {}
        return settlement_by_player(self.players, self.settlement, self.rules)

    def codes(self) -> list[str]:
        return [f.code for f in self.findings]


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The state right after event ``seq`` (1-based, the store's; ``pulka`` and ``deal`` are live objects)."""

    seq: int
    event: Event
    pulka: PulkaState
    deal: Deal | None

    def __reduce__(self) -> tuple[type[ReplayStep], tuple[int, Event, PulkaState, Deal | None]]:
        # a frozen class in a compiled module copies through its constructor (see docs/kernel.md)
        return (ReplayStep, (self.seq, self.event, self.pulka, self.deal))


class Auditor:
    """The one engine of :func:`audit`, :func:`audit_rows` and :func:`replay`: :meth:`step` per event."""

    def __init__(self, strict: bool = False) -> None:
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
        self.past_end = False                  # the open deal came after the scorer's end of the pulka
        self.reuse_deals = False               # set by run: no deal object outlives the next DealStarted
        self.positions: list[int] | None = None  # set by run when corrections apply: log position of each step
        self.stored = 0                        # with positions: the length of the log as stored

    # -- findings --------------------------------------------------------------
    def _find(self, code: str, seq: int, message: str, ev: Event | None, row: Row | None = None,
              deal: int | None = None, seat: int | None = None) -> Finding:
        if ev is None and row is not None:
            try:
                ev = from_row(*row)
            except EventError:
                ev = None
        if deal is None:
            deal = self.pulka.deal_no if self.pulka is not None else 0
        if seat is None and ev is not None:
            seat = getattr(ev, "player", None)
        f = Finding(code, deal, self._seq(seq), message, ev, seat)  # position -> the store's 1-based seq
        self.findings.append(f)
        if self.summary is not None and self.summary.deal == deal:
            self.summary.findings.append(f)
        if self.strict:
            raise AuditFailed(f)
        return f

    def _seq(self, i: int) -> int:
        """The store's 1-based seq of the event the replay applies at position ``i`` (its position in the
        log as stored, when corrections apply and the replay walks the corrected log)."""
        p = self.positions
        if p is None:
            return i + 1
        return p[i] + 1 if i < len(p) else self.stored + i - len(p) + 1

    def _break_deal(self, seq: int, exc: IllegalAction, ev: Event | None, row: Row | None) -> None:
        self.skipping = True
        if self.summary is not None:
            self.summary.broken = True
        if self.pulka is not None:
            self.rebase = set(range(self.pulka.n))
        self._find(exc.code, seq, exc.message, ev, row, seat=exc.seat)

    # -- the step --------------------------------------------------------------
    def step(self, seq: int, row: Row, ev: Event | None = None) -> None:
        """Check and apply event ``seq``, given as its row (and the event object, when the caller has it)."""
        self.n_events += 1
        code = row[0]
        if code in ROW_CODES:
            self._deal_step(seq, code, row, ev)
            return
        if ev is None:
            if code == _DEAL and not row[4] and (row[2] == 3 or row[2] == 4):
                try:  # a packed layout: no event object unless there is a finding
                    hands, talon = unpack_layout(row[1], row[2], row[3])
                except (TypeError, ValueError):
                    pass   # from_row reports it as a bad event
                else:
                    self._deal_started(seq, row[1], hands, talon, None, row)
                    return
            try:
                ev = from_row(*row)
            except EventError as exc:
                self._find(Code.BAD_EVENT, seq, str(exc), None)
                return
        if code in DEAL_CODES:
            self._deal_step(seq, code, row, ev)
        else:
            self._other(seq, ev, row)

    def _deal_step(self, seq: int, code: int, row: Row, ev: Event | None) -> None:
        d = self._deal_guard(seq, ev, row)
        if d is not None:
            self._apply(seq, d, code, row, ev)

    def _apply(self, seq: int, d: Deal, code: int, row: Row, ev: Event | None) -> None:
        """Apply a deal event to the open deal ``d`` (past :meth:`_deal_guard`)."""
        try:
            STEPS[code](d, row, ev)
        except IllegalAction as exc:
            self._refused(seq, d, exc, ev, row)
            return
        if d.phase == DONE:
            self._deal_done(seq, d, ev, row)

    def _apply_column(self, rows: RowColumns, i: int, d: Deal, code: int) -> None:
        """:meth:`_apply` of row ``i`` of ``rows``, a row-only event (:data:`ROW_CODES`), from its column
        values: the row tuple is built only for a finding."""
        try:
            apply_row(d, code, rows.player[i], rows.card[i], rows.value[i])
        except IllegalAction as exc:
            self._refused(i, d, exc, None, rows.row(i))
            return
        if d.phase == DONE:
            self._deal_done(i, d, None, None, rows)

    def _refused(self, seq: int, d: Deal, exc: IllegalAction, ev: Event | None, row: Row | None) -> None:
        if exc.phase is None:
            exc.phase = d.phase_name
        self._break_deal(seq, exc, ev, row)

    def play_run(self, d: Deal, rows: RowColumns, i: int, end: int) -> int:
        """Play the card rows ``i:end`` that the open deal ``d`` takes as they are (the kernel's bulk
        entry); returns the index of the first row not taken, which then takes :meth:`step`."""
        j = d.play_cards(rows, i, end)
        if j > i:
            self.n_events += j - i
            if d.phase == DONE:
                self._deal_done(j - 1, d, None, None, rows)
        return j

    def _running(self, seq: int, what: str, ev: Event | None, row: Row | None) -> PulkaState | None:
        """The pulka an event after PulkaStarted goes to: None (with its finding) before the start or after
        the end (``what`` names the event)."""
        if self.fatal:
            return None
        p = self.pulka
        if p is None:
            self._no_start(seq, ev, row)
            return None
        if p.ended:
            self._find(Code.EVENT_AFTER_END, seq, f"{what} after PulkaEnded", ev, row)
            return None
        return p

    def _deal_guard(self, seq: int, ev: Event | None, row: Row | None) -> Deal | None:
        p = self._running(seq, "a deal event", ev, row)
        if p is None or self.skipping:
            return None
        d = p.deal
        if d is None:
            self._find(Code.EVENT_OUTSIDE_DEAL, seq, "a deal event before the first DealStarted", ev, row)
            return None
        return d

    def live_deal(self) -> Deal | None:
        """The deal in play that card runs may go to: the open, unbroken deal of a running pulka."""
        p = self.pulka
        if self.fatal or p is None or p.ended or self.skipping:
            return None
        d = p.deal
        return d if d is not None and d.phase != DONE else None

    def _deal_done(self, seq: int, d: Deal, ev: Event | None, row: Row | None, rows: RowColumns | None = None
                   ) -> None:
        """Score the deal ``d`` that event ``seq`` finished (its row taken from ``rows`` only for a finding)."""
        assert self.summary is not None and self.pulka is not None
        if self.summary.outcome is not None:
            return
        self.summary.outcome = d.outcome
        if self.past_end:   # replayed for its rules, never scored: the pulka was over (PULKA_ALREADY_FINISHED)
            self.rebase = set(range(self.pulka.n))
            return
        try:
            self.summary.score = self.pulka.finish_deal()
        except (ValueError, ArithmeticError, KeyError) as exc:
            self.rebase = set(range(self.pulka.n))
            if row is None and rows is not None:
                row = rows.row(seq)
            self._find(Code.SCORING_ERROR, seq, f"the scorer rejected the outcome of deal {d.deal}: {exc}", ev, row)

    def _no_start(self, seq: int, ev: Event | None, row: Row | None) -> None:
        self.fatal = True
        self._find(Code.MISSING_PULKA_START, seq, "the log must begin with PulkaStarted (players and rules)", ev,
                   row, deal=0)

    def _other(self, seq: int, ev: Event, row: Row | None) -> None:
        """An event that is no deal step, by its role in the event registry (:data:`ROLES`). Each role has
        one event class (the registry's entries); the ``isinstance`` asserts say which, for the type checker
        and as a guard against an entry whose class does not fit its role."""
        code = ev.CODE
        role = ROLES[code] if 0 <= code < len(ROLES) else -1
        if role == _PULKA_START:
            assert isinstance(ev, PulkaStarted)
            if self.pulka is not None or self.fatal:
                self._find(Code.DUPLICATE_PULKA_START, seq, "a second PulkaStarted in one log", ev, row)
                return
            try:
                self.pulka = PulkaState(ev)
                self.pulka.reuse_deals = self.reuse_deals
            except IllegalAction as exc:
                self.fatal = True
                self._find(exc.code, seq, exc.message, ev, row, deal=0)
            return
        if role == _DEAL_START:
            assert isinstance(ev, DealStarted)
            self._deal_started(seq, ev.dealer, ev.hands, ev.talon, ev, row)
            return
        p = self._running(seq, ev.KIND, ev, row)
        if p is None:
            return
        if role == _SCORE_LINE:
            assert isinstance(ev, ScoreRecorded)
            self._score_line(seq, ev, row)
        elif role == _CORRECTION:   # one that applies never reaches the replay (see run)
            assert isinstance(ev, DealCorrected)
            self._find(Code.BAD_CORRECTION, seq, f"a correction of deal {ev.deal} that cannot apply: it comes "
                       "right after a deal header, names a deal the sheet has, before the end", ev, row)
        elif role == _PULKA_END:
            assert isinstance(ev, PulkaEnded)
            self._close_open_deal(seq, ev, row)
            try:
                p.verify_end(ev)
            except IllegalAction as exc:
                self._find(exc.code, seq, exc.message, ev, row)
            p.end(ev)

    def _end_without_play(self, seq: int, ev: Event | None, row: Row | None) -> None:
        """A deal that ends without a further deal event (Croatian 2♠ rule) ends at the next other event."""
        p = self.pulka
        assert p is not None
        d = p.deal
        if d is not None and not d.done and not self.skipping and d.finish_without_play() \
                and self.summary is not None:
            self._deal_done(seq, d, ev, row)

    def _close_open_deal(self, seq: int, ev: Event | None, row: Row | None) -> None:
        p = self.pulka
        assert p is not None
        self._end_without_play(seq, ev, row)
        if p.deal is not None and not p.deal.done and not self.skipping:
            self.rebase = set(range(p.n))
            self._find(Code.DEAL_INCOMPLETE, seq, f"deal {p.deal_no} ended in its {p.deal.phase_name} phase without "
                       f"an outcome (expected {p.deal.expected()})", ev, row)

    def _deal_started(self, seq: int, dealer: int, hands: tuple[int, ...] | None, talon: int | None,
                      ev: Event | None, row: Row | None) -> None:
        p = self._running(seq, _DEAL_KIND, ev, row)
        if p is None:
            return
        d = p.deal
        if d is not None and d.phase != DONE:   # (a finished deal has nothing to close)
            self._close_open_deal(seq, ev, row)
        self.skipping = False
        self.summary = None
        self.past_end = (bool(p.scores) or p.has_start) and p.scorer is not None and p.is_finished()
        if self.past_end:
            self._find(Code.PULKA_ALREADY_FINISHED, seq, "a new deal after the end of the pulka (every pulya "
                       "closed; Croatian: every column at 0): the deal is checked but not scored", ev, row,
                       deal=p.deal_no + 1)
        try:
            p.verify_deal_start(dealer)
        except IllegalAction as exc:
            self._find(exc.code, seq, exc.message, ev, row, deal=p.deal_no + 1)
        summary = DealSummary(p.deal_no + 1, dealer, self._seq(seq))
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
            self._find(Code.SCORE_LINE_MID_DEAL, seq, f"a score line while deal {p.deal_no} is in its "
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
            self._find(Code.SCORE_MISMATCH, seq, msg, ev, row)

    def result(self) -> AuditResult:
        p = self.pulka
        if p is None:
            return AuditResult(self.findings, self.deals, None, (), None, None, self.n_events, False)
        scorer = p.scorer
        if scorer is None:
            return AuditResult(self.findings, self.deals, p.rules, p.players, None, None, self.n_events, p.ended)
        return AuditResult(self.findings, self.deals, p.rules, p.players, scorer.sheet.copy(), p.settlement(),
                           self.n_events, p.ended)

    def run(self, rows: RowColumns, events: Sequence[Event] | None = None) -> AuditResult:
        """Audit a whole log, given as columns: runs of cards to the open deal's kernel, every other event
        by :meth:`step` (its row tuple built for it)."""
        if CORRECTED in rows.code:   # the corrected log is replayed; findings keep their stored seqs
            positions, corrected = applied(rows.rows())
            if corrected:
                self.positions, self.stored = positions, len(rows)
                self.n_events += len(rows) - len(positions)
                rows = RowColumns.of_rows([rows.row(i) for i in positions])
                events = [events[i] for i in positions] if events is not None else None
        live: Deal | None = None   # the open deal, past the general checks; None = the general step
        self.reuse_deals = True    # nothing outside sees a deal before the end: one deal object per pulka
        codes = rows.code
        n = len(codes)
        i = 0
        while i < n:
            if live is not None:
                code = codes[i]
                if code == _CARD:
                    j = self.play_run(live, rows, i, n)
                    if j > i:
                        i = j
                        if live.phase == DONE:
                            live = None
                        continue
                elif 0 <= code < 63 and ROW_CODE_BITS >> code & 1:   # code in ROW_CODES
                    self.n_events += 1
                    if events is None:
                        self._apply_column(rows, i, live, code)
                    else:
                        self._apply(i, live, code, rows.row(i), events[i])
                    if live.phase == DONE or self.skipping:
                        live = None
                    i += 1
                    continue
            self.step(i, rows.row(i), events[i] if events is not None else None)
            live = self.live_deal()
            i += 1
        self.close_log(n)
        return self.result()

    def close_log(self, seq: int) -> None:
        """The log ends at ``seq`` (its length): it closes the deal still open as the next deal or PulkaEnded
        would (a Croatian 2♠ deal is conceded; any other unfinished deal is ``deal_incomplete``)."""
        p = self.pulka
        if self.fatal or p is None or p.ended or p.deal is None or p.deal.done:
            return
        self._close_open_deal(seq, None, None)


def audit(events: Iterable[Event], strict: bool = False) -> AuditResult:
    """Check a whole log; every broken rule is a :class:`Finding` (``strict`` raises on the first)."""
    evs = events if isinstance(events, (list, tuple)) else list(events)
    return Auditor(strict).run(RowColumns.of_rows([ev.to_row() for ev in evs]), evs)


def audit_rows(rows: Iterable[Row], strict: bool = False) -> AuditResult:
    """:func:`audit` over row tuples ``(code, player, card, value, payload)`` — the store's form."""
    return Auditor(strict).run(RowColumns.of_rows(rows if isinstance(rows, (list, tuple)) else list(rows)))


def audit_columns(rows: RowColumns, strict: bool = False) -> AuditResult:
    """:func:`audit_rows` over the rows as columns (:class:`~preflog.model.columns.RowColumns`): what a
    bulk replay from the store hands over, with no tuple per event."""
    return Auditor(strict).run(rows)


def corrected_walk(a: Auditor, events: Sequence[Event]) -> list[int]:
    """The 0-based positions in ``events`` of the events that count once corrections apply
    (:func:`.corrections.applied`), in the order a walk steps them: step ``i`` gives ``a`` the event at
    ``positions[i]`` (``a.step(i, …)``; ``a.close_log(len(positions))`` at the end), and ``a`` reports every
    finding at its seq in the log as stored. What :meth:`Auditor.run` and :func:`replay` walk; views that
    step the auditor themselves (the viewer, the analysis) walk the same."""
    positions = list(range(len(events)))
    if any(type(ev) is DealCorrected for ev in events):
        positions, corrected = applied([ev.to_row() for ev in events])
        if corrected:
            a.positions, a.stored = positions, len(events)
            a.n_events += len(events) - len(positions)
    return positions


def replay(events: Iterable[Event]) -> Iterator[ReplayStep]:
    """Apply events one by one and yield the state after each; raises :class:`AuditFailed` when one is illegal.
    A log with corrections is replayed corrected (:mod:`.corrections`): the steps are those of the events
    that count, each with its seq in the log as given."""
    a = Auditor(strict=True)
    evs = list(events)
    positions = corrected_walk(a, evs)
    for i, k in enumerate(positions):
        ev = evs[k]
        a.step(i, ev.to_row(), ev)
        assert a.pulka is not None
        yield ReplayStep(k + 1, ev, a.pulka, a.pulka.deal)


def state_at(events: Iterable[Event], seq: int) -> PulkaState:
    """The pulka state right after event ``seq`` (1-based, the store's numbering; replayed strictly)."""
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


__all__ = ["AuditResult", "Auditor", "DealSummary", "ReplayStep", "audit", "audit_columns", "audit_rows",
           "corrected_walk", "replay", "rows_of", "state_at"]
