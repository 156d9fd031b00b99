"""A whole pulka ("пулька"): rules, players, dealer rotation, deal numbering and scoring.

:class:`PulkaState` starts from :class:`PulkaStarted`, opens one :class:`~preflog.engine.deal.Deal` per
DealStarted (clockwise dealer rotation: previous dealer + 1; the first deal any
dealer), passes the scorer's anti-raspasy minimum to the auction, scores each
finished deal through the family's scorer and compares the
players' written score lines with the computed sheet. The deal state machine and the scorer
are the family's (:func:`preflog.engine.families.family_of`); the deal consults the scorer where its
rules depend on the score (the anti-raspasy minimum, the Croatian 2♠ rule).
"""

from __future__ import annotations

from fractions import Fraction

from ..model.events import DealStarted
from ..model.events import PulkaEnded
from ..model.events import PulkaStarted
from ..model.events import ScoreRecorded
from ..rules.config import Rules
from ..rules.config import RulesError
from ..rules.versions import rules_of
from ..scoring.base import Scorer
from ..scoring.settlement import priced
from ..scoring.settlement import whist_price_value
from ..scoring.sheet import DealScore
from ..scoring.sheet import Number
from ..scoring.sheet import Settlement
from ..scoring.sheet import Sheet
from ..scoring.sheet import StartSheetError
from .codes import Code
from .deal import Deal
from .families import family_of
from .findings import IllegalAction
from .findings import seat_name
from .standings import PlayerSettlement
from .standings import settlement_by_player


def start_place(exc: StartSheetError, players: tuple[str, ...] | list[str]) -> str:
    """Where on the sheet a starting-sheet error is, as words (``" at Anna's visty on Boris"``)."""
    if exc.seat is None or not 0 <= exc.seat < len(players):
        return ""
    on = f" on {players[exc.on]}" if exc.on is not None and 0 <= exc.on < len(players) else ""
    return f" at {players[exc.seat]}'s {exc.area}{on}"


def _start_sheet(started: PulkaStarted, n: int) -> Sheet:
    """The starting sheet of ``started`` (rows of pulya, gora, visty per seat) as a :class:`Sheet`;
    ``IllegalAction(bad_score_line)`` when its shape does not fit the table."""
    rows = started.start
    if len(rows) != n or any(len(r) != n + 2 for r in rows):
        raise IllegalAction(Code.BAD_SCORE_LINE, f"the starting sheet has {len(rows)} rows of "
                            f"{sorted({len(r) for r in rows})} numbers; a {n}-player sheet has {n} rows of "
                            f"{n + 2} (pulya, gora, visty on each seat)")
    return Sheet(n, [r[0] for r in rows], [r[1] for r in rows], [list(r[2:]) for r in rows])


class PulkaState:
    """Pulka-level state. ``deal`` is the deal in progress (or the last one)."""

    reuse_deals: bool = False
    """Open each deal in the object of the last one (:meth:`Deal.reopen`) rather than a new one: for a caller
    that keeps no deal past the next DealStarted (the whole-log audit, :meth:`Auditor.run`)."""

    def __init__(self, started: PulkaStarted) -> None:
        try:
            rules = rules_of(started)
        except RulesError as exc:
            raise IllegalAction(Code.BAD_RULES, f"rules {started.rules!r} with overrides {dict(started.overrides)} "
                                f"do not resolve: {exc}") from None
        n = len(started.players)
        if n not in (3, 4) or n not in rules.players:
            raise IllegalAction(Code.BAD_TABLE_SIZE, f"{n} players; the rules allow tables of "
                                f"{', '.join(map(str, rules.players))}")
        self.family = family_of(rules)
        self._deal_type: type[Deal] = self.family.deal
        self.started = started
        self.rules: Rules = rules
        self.players: tuple[str, ...] = tuple(started.players)
        self.n = n
        self.pool = started.pool
        self.scorer: Scorer | None = self.family.scorer(rules, n, started.pool)
        self.has_start = bool(started.start)
        if started.start and self.scorer is not None:
            try:
                self.scorer.start_from(_start_sheet(started, n))
            except StartSheetError as exc:
                raise IllegalAction(Code.BAD_SCORE_LINE, f"the starting sheet{start_place(exc, self.players)}: "
                                    f"{exc.message}") from None
        try:
            self.whist_price: Fraction | None = whist_price_value(started.whist_price)
        except (ValueError, TypeError, AttributeError):
            # only a log stored before the reader checked the price: the settlement has no money column
            self.whist_price = None
        self.deal_no = 0
        self.last_dealer: int | None = None
        self.deal: Deal | None = None
        self.scores: list[DealScore] = []
        self.ended = False
        self.end_reason = ""

    def __repr__(self) -> str:
        """``<PulkaState sochi, Anna, Boris, Vera, pool 50; deal 2 (play); pulya 2 0 0, gora 0 0 0>`` (a Croatian
        pulka: ``column -20 8 12``)."""
        parts = [f"{self.started.rules}, {', '.join(self.players)}, pool {self.pool}"]
        d = self.deal
        parts.append(f"deal {self.deal_no} ({d.phase_name})" if d is not None else f"{self.deal_no} deals")
        sheet = self.sheet
        if sheet is not None:   # in the family's words (a Croatian sheet: the contract column, no gora)
            terms = self.family.sheet
            text = f"{terms.pulya} {' '.join(map(str, sheet.pulya))}"
            if terms.gora is not None:
                text += f", {terms.gora} {' '.join(map(str, sheet.gora))}"
            parts.append(text)
        if self.ended:
            parts.append(f"ended ({self.end_reason})")
        return f"<PulkaState {'; '.join(parts)}>"

    def who(self, seat: int) -> str:
        """A seat as findings name it: ``Anna (seat 0)``."""
        return seat_name(self.players, seat)

    # -- deals ---------------------------------------------------------------
    def min_level(self) -> int:
        return self.scorer.min_bid_level() if self.scorer is not None else 0

    def verify_deal_start(self, dealer: int) -> None:
        """Dealer rotation: clockwise, previous dealer + 1 (the first deal any dealer)."""
        if not 0 <= dealer < self.n:
            raise IllegalAction(Code.BAD_DEAL, f"dealer {self.who(dealer)} is not at this {self.n}-player table")
        if self.last_dealer is not None and dealer != (self.last_dealer + 1) % self.n:
            want = (self.last_dealer + 1) % self.n
            raise IllegalAction(Code.DEALER_OUT_OF_TURN, f"{self.players[dealer]} deals but after "
                                f"{self.players[self.last_dealer]} the deal passes clockwise to {self.players[want]}")

    def can_start_deal(self, dealer: int) -> bool:
        try:
            self.verify_deal_start(dealer)
        except IllegalAction:
            return False
        return True

    def start_deal(self, ev: DealStarted, check: bool = True) -> Deal:
        """Open the next deal. With ``check`` the rotation is verified first; the layout always is."""
        if check:
            self.verify_deal_start(ev.dealer)
        return self.open_deal(ev.dealer, ev.hands, ev.talon)

    def open_deal(self, dealer: int, hands: tuple[int, ...] | None, talon: int | None) -> Deal:
        """:meth:`start_deal` without the rotation check, from the fields of a DealStarted."""
        self.deal_no += 1
        if 0 <= dealer < self.n:
            self.last_dealer = dealer
        last = self.deal
        self.deal = None   # (and stays None when the layout is refused)
        if last is not None and self.reuse_deals:
            last.next_deal(dealer, hands, talon, self.deal_no, self.scorer)
            self.deal = last
            return last
        # (the family's open_deal, called on its deal class directly: once per deal on the replay path)
        self.deal = self._deal_type.for_pulka(self.rules, self.n, dealer, hands, talon, self.deal_no, self.scorer,
                                              self.players)
        return self.deal

    def finish_deal(self) -> DealScore | None:
        """Score the finished deal in progress (None without a scorer)."""
        d = self.deal
        if d is None or d.outcome is None:
            raise ValueError("no finished deal to score")
        if self.scorer is None:
            return None
        score = self.scorer.score(d.outcome)
        self.scores.append(score)
        return score

    @property
    def sheet(self) -> Sheet | None:
        return self.scorer.sheet if self.scorer is not None else None

    def is_finished(self) -> bool:
        return self.scorer.is_finished() if self.scorer is not None else False

    def settlement(self) -> Settlement | None:
        """The scorer's settlement at this moment, its money column at the pulka's whist price
        (``[WhistPrice]``); no money (``()``) when the price does not read as a number."""
        if self.scorer is None:
            return None
        st = self.scorer.settlement()
        if self.whist_price is None:
            return Settlement(st.exact, st.method1, st.method2)
        return priced(st, self.whist_price, self.rules)

    def settlement_by_player(self) -> dict[str, PlayerSettlement]:
        """:meth:`settlement` keyed by player name; empty without a scorer."""
        st = self.settlement()
        return {} if st is None else settlement_by_player(self.players, st, self.rules)

    # -- score lines and end ---------------------------------------------------
    def score_line_differences(self, ev: ScoreRecorded,
                               offset: dict[tuple[int, str], Number] | None = None) -> list[tuple[str, str]]:
        """(field, message) for every value of a written score line that differs from the sheet.

        ``offset`` (recorded − computed per (seat, field)) re-bases the comparison after a deal
        the audit could not score.
        """
        sheet = self.sheet
        p = ev.player
        if not 0 <= p < self.n:
            raise IllegalAction(Code.BAD_SCORE_LINE, f"score line for {self.who(p)}; the table has {self.n} seats")
        if len(ev.visty) != self.n:
            raise IllegalAction(Code.BAD_SCORE_LINE, f"score line of {self.players[p]} lists {len(ev.visty)} visty "
                                f"entries, expected {self.n}")
        if sheet is None:
            return []
        out = []
        fields: list[tuple[str, Number, Number]] = [
            ("pulya", ev.pulya, sheet.pulya[p]), ("gora", ev.gora, sheet.gora[p])]
        for j in range(self.n):
            fields.append((f"visty on {self.players[j]}", ev.visty[j], sheet.visty[p][j]))
        for name, rec, comp in fields:
            want = comp + (offset or {}).get((p, name), 0)
            if Fraction(rec) != Fraction(want):
                out.append((name, f"{self.players[p]}'s {name} is written as {rec} but the replayed sheet gives "
                                  f"{want}"))
        return out

    def verify_end(self, ev: PulkaEnded) -> None:
        if ev.reason == "closed" and self.scorer is not None and not self.scorer.is_finished():
            raise IllegalAction(Code.PULKA_NOT_FINISHED, "the pulka is declared closed but not every pulya is closed "
                                "(the scorer says it is not finished)")

    def end(self, ev: PulkaEnded) -> None:
        self.ended = True
        self.end_reason = ev.reason
