"""Double-dummy analysis of recorded deals ("разбор сдачи"): what perfect play would have given, which
cards lost tricks, the best discard, the par contract, the whist decisions, and what each mistake cost
on the sheet under the pulka's own rules.

Everything about the game comes from the engine and the scorer, never re-derived here: the pulka is
replayed by the auditor (:class:`~preflog.engine.replay.Auditor`), and copies of its live deal are
taken at the discard, the whist calls and the opening lead. A position for the solver is read off a
deal's play state (hands, trick, trump, leader, the Croatian stop); a counterfactual ("had he played the
best card", "had he passed") is played on a copy of the deal through the engine itself, to its end, by
double-dummy play, and the engine's :class:`~preflog.model.outcome.DealOutcome` is scored on a copy of
the pulka's scorer. A card's **cost** is the difference, for the player who answers for it, between the
sheet after the best card and after his card, each followed by perfect play (docs/analysis.md).

The worth of a deal to a player is how much the exact settlement of the sheet
(:meth:`~preflog.scoring.base.Scorer.settlement`) moves for him when the deal is scored: visty written
and received, gora, and pulya at its settlement price, all in the family's unit (visty; Croatian points).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..engine.deal import Deal
from ..engine.families import family_of
from ..engine.findings import IllegalAction
from ..engine.replay import Auditor
from ..engine.replay import DealSummary
from ..engine.replay import corrected_walk
from ..engine.tricks import N_TRICKS
from ..errors import PreflogError
from ..model.bidcodes import PASS
from ..model.calls import CALL_NAMES
from ..model.calls import CALL_PASS
from ..model.calls import CALL_WHIST
from ..model.cards import cards_of
from ..model.events import BidMade
from ..model.events import CardPlayed
from ..model.events import Event
from ..model.events import WhistCalled
from ..model.outcome import NO_SEAT
from ..model.outcome import DealKind
from ..model.outcome import DealOutcome
from ..model.registry import ROLES
from ..model.registry import STAGES
from ..model.registry import Role
from ..model.registry import Stage
from ..rules.config import Rules
from ..scoring.base import Scorer
from ..sim.levels import solver_position
from ..solver import NATIVE
from ..solver import Goal
from ..solver import Position
from ..solver import Solver
from ..solver import SolverError
from .result import Bound
from .result import CardLoss
from .result import ClaimCheck
from .result import DealAnalysis
from .result import DiscardResult
from .result import ParResult
from .result import PulkaAnalysis
from .result import WhistJudgement

_SCORING_ERRORS = (PreflogError, ValueError, ArithmeticError, KeyError)


@dataclass(frozen=True, slots=True)
class Options:
    """What to compute besides the play: the best discard (up to 66 full-deal solves) and the par
    contract (the same per kind of contract: up to ~400 solves). Both cost more than the play itself."""

    discard: bool = True
    par: bool = False
    cost: bool = True     # the sheet cost of each mistake (two double-dummy playouts per mistake)
    native: bool | None = None   # the compiled search (None: when it is built), or the pure-Python one


def solver_name(native: bool | None = None) -> str:
    """Which search the numbers come from: ``native`` (compiled) or ``python``."""
    return "native" if (NATIVE if native is None else native) else "python"


@dataclass(slots=True)
class _Capture:
    """What the replay keeps of one deal for its analysis: copies of the live deal at its turning points
    and the play events, with the scorer as it stood before the deal."""

    deal: int
    scorer: Scorer | None
    at_discard: Deal | None = None
    at_whist: Deal | None = None
    at_lead: Deal | None = None
    defence: list[Event] = field(default_factory=list)       # whist calls and contras before play
    cards: list[tuple[int, int, int]] = field(default_factory=list)   # (seq, seat, card)
    finish: tuple[int, Event] | None = None                  # a claim or the ten check
    at_pass: dict[int, Deal] = field(default_factory=dict)   # seat → the deal before his first pass


def _copy(d: Deal) -> Deal:
    """A deal to play on: its rules and the pulka's scorer (which the Croatian deal consults) are shared."""
    memo: dict[int, Any] = {id(d.rules): d.rules}
    needs = getattr(d, "_needs_contra", None)
    if needs is not None and hasattr(needs, "__self__"):
        memo[id(needs.__self__)] = needs.__self__
    return copy.deepcopy(d, memo)


def _copy_scorer(s: Scorer) -> Scorer:
    return copy.deepcopy(s, {id(s.rules): s.rules})


def replay_captures(events: Sequence[Event], wanted: Callable[[int], bool], lead_only: bool = False,
                    passes: bool = False) -> tuple[Auditor, dict[int, _Capture]]:
    """Replay a pulka with the auditor (the corrected log, as :func:`~preflog.engine.replay.replay` walks it),
    keeping what the analysis needs of every ``wanted`` deal (``lead_only``: no copies at the discard and
    the whist calls, only at the opening lead; ``passes``: a copy before each player's first pass in the
    auction too)."""
    aud = Auditor()
    caps: dict[int, _Capture] = {}
    cur: _Capture | None = None
    positions = corrected_walk(aud, events)   # the corrected log: a struck or replaced deal is not analysed
    for i, k in enumerate(positions):
        ev = events[k]
        seq = k + 1   # the store's numbering (1 = PulkaStarted), as findings have it
        p = aud.pulka
        d = p.deal if p is not None else None
        if cur is not None and d is not None and not d.done and not aud.skipping and p is not None \
                and p.deal_no == cur.deal:
            stage = STAGES[ev.CODE]   # where in the deal the event stands (the event registry)
            before_play = not cur.cards and cur.finish is None
            if stage == Stage.AUCTION:
                if passes and isinstance(ev, BidMade) and ev.bid == PASS and ev.player not in cur.at_pass:
                    cur.at_pass[ev.player] = _copy(d)
            elif stage == Stage.DISCARD:
                if cur.at_discard is None and not lead_only:
                    cur.at_discard = _copy(d)
            elif stage == Stage.DEFENCE:
                if before_play:
                    if cur.at_whist is None and not lead_only:
                        cur.at_whist = _copy(d)
                    cur.defence.append(ev)
            elif stage == Stage.PLAY or stage == Stage.FINISH:
                if cur.at_lead is None:
                    cur.at_lead = _copy(d)
                if stage == Stage.PLAY:
                    cur.cards.append((seq, ev.player, ev.card))  # type: ignore[attr-defined]
                elif cur.finish is None:
                    cur.finish = (seq, ev)
        aud.step(i, ev.to_row(), ev)
        if ROLES[ev.CODE] == Role.DEAL_START:
            p = aud.pulka
            cur = None
            if p is not None and aud.summary is not None and aud.summary.deal == p.deal_no and wanted(p.deal_no):
                cur = _Capture(p.deal_no, _copy_scorer(p.scorer) if p.scorer is not None else None)
                caps[p.deal_no] = cur
    aud.close_log(len(positions))
    return aud, caps


def analyze_events(pulka: str, events: Sequence[Event], deal: int | None = None,
                   options: Options | None = None) -> PulkaAnalysis:
    """Analyse every card-level deal of a pulka's log (or deal number ``deal`` alone).

    A deal the analysis cannot take is listed with ``skipped`` naming why (paper level, broken by an
    illegal event, no play); an unknown deal number is a :class:`~preflog.errors.PreflogError`."""
    opts = options or Options()
    aud, caps = replay_captures(events, lambda n: deal is None or n == deal)
    res = aud.result()
    p = aud.pulka
    players = res.players
    rules = res.rules
    price = p.whist_price if p is not None else None
    spec = ""
    if p is not None:
        ov = ",".join(f"{k}={v}" for k, v in p.started.overrides)
        spec = p.started.rules + (f" ({ov})" if ov else "")
    out = PulkaAnalysis(pulka, players, spec, price, solver_name(opts.native))
    if deal is not None and not any(s.deal == deal for s in res.deals):
        raise AnalysisError(f"pulka {pulka!r} has no deal {deal} (it has {len(res.deals)})")
    if rules is None:
        return out
    unit = family_of(rules).sheet.unit
    for summary in res.deals:
        if deal is not None and summary.deal != deal:
            continue
        cap = caps.get(summary.deal)
        out.deals.append(_analyze(pulka, summary, cap, rules, players, price, unit, opts))
    return out


class AnalysisError(PreflogError):
    """A request the analysis cannot answer (a deal number the pulka does not have)."""


# --------------------------------------------------------------------------- one deal
def _analyze(pulka: str, summary: DealSummary, cap: _Capture | None, rules: Rules, players: tuple[str, ...],
             price: Fraction | None, unit: str, opts: Options) -> DealAnalysis:
    o = summary.outcome
    kind = str(o.kind) if o is not None else ""
    a = DealAnalysis(pulka, summary.deal, kind, unit=unit)
    if summary.broken:
        a.skipped = "the deal's replay stopped at an illegal event (see preflog audit)"
        return a
    if o is None or cap is None:
        a.skipped = "the deal did not finish"
        return a
    if o.paper:
        a.skipped = "paper-level deal: no cards recorded"
        return a
    if cap.scorer is None:
        a.skipped = "the pulka has no scorer"
        return a
    ctx = _Deal(summary, cap, o, rules, players, price, opts, Solver(native=opts.native))
    if o.declarer == NO_SEAT and o.kind != DealKind.RASPASY:
        a.skipped = "all passed: no play"
        return a
    try:
        if o.declarer == NO_SEAT:
            ctx.raspasy(a)
        else:
            ctx.contract(a)
    except (SolverError, IllegalAction) as exc:   # a position the solver or the engine refuses: say so
        skipped = DealAnalysis(pulka, summary.deal, kind, unit=unit)
        skipped.skipped = f"the analysis stopped: {exc}"
        return skipped
    return a


class _Deal:
    """The analysis of one finished card-level deal (its capture, outcome and the scorer before it)."""

    def __init__(self, summary: DealSummary, cap: _Capture, outcome: DealOutcome, rules: Rules,
                 players: tuple[str, ...], price: Fraction | None, opts: Options, solver: Solver) -> None:
        self.summary = summary
        self.cap = cap
        self.o = outcome
        self.rules = rules
        self.players = players
        self.price = price
        self.opts = opts
        self.solver = solver
        assert cap.scorer is not None
        self.scorer: Scorer = cap.scorer
        self._before: dict[int, Fraction] | None = None

    def name(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"

    # ------------------------------------------------------------------ positions and playouts
    # the solver's position of a deal in play (``declarer``: whose tricks count): one home, shared with the
    # double-dummy bot of the simulator
    position = staticmethod(solver_position)

    def best_of(self, vals: dict[int, int], mover: int, declarer: int, goal: Goal) -> int:
        """The best value for ``mover``: his own side's aim (the declarer's, or the other side's)."""
        most = (goal == Goal.MOST) == (mover == declarer)
        return max(vals.values()) if most else min(vals.values())

    def playout(self, d: Deal, declarer: int, goal: Goal) -> DealOutcome | None:
        """Play ``d`` (a copy) to its end double dummy (ties: the lowest card); the engine's outcome."""
        while not d.done:
            pos = self.position(d, declarer, goal)
            vals = self.solver.card_values(pos)
            best = self.best_of(vals, pos.to_play, declarer, goal)
            card = min(c for c, v in vals.items() if v == best)
            d.play(pos.to_play, card)
        return d.outcome

    def worth(self, outcome: DealOutcome | None, seat: int) -> Fraction | None:
        """How much scoring ``outcome`` moves ``seat``'s exact settlement (None if the scorer refuses it)."""
        every = self.worths(outcome)
        return None if every is None else every[seat]

    def worths(self, outcome: DealOutcome | None) -> tuple[Fraction, ...] | None:
        """:meth:`worth` of every seat at once (one copy of the scorer; None if the scorer refuses it)."""
        if outcome is None:
            return None
        try:
            if self._before is None:
                self._before = dict(enumerate(self.scorer.settlement().exact))
            sc = _copy_scorer(self.scorer)
            sc.score(outcome)
            after = sc.settlement().exact
            return tuple(Fraction(after[seat]) - self._before[seat] for seat in range(len(after)))
        except _SCORING_ERRORS:
            return None

    def money(self, x: Fraction | None) -> Fraction | None:
        return None if x is None or self.price is None else x * self.price

    def lead_deal(self) -> Deal | None:
        """A copy of the deal at its opening lead: as played, or (a deal without play) with both defenders
        whisting, as the engine would then start play."""
        cap = self.cap
        if cap.at_lead is not None:
            d = _copy(cap.at_lead)
        elif cap.at_whist is not None:
            d = _copy(cap.at_whist)
            _fill_calls(d, CALL_WHIST)
        else:
            return None
        d.begin_play()
        return d if not d.done and d.phase == d.PLAYING and not d.completed and not d.trick_cards else None

    # ------------------------------------------------------------------ a contract
    def contract(self, a: DealAnalysis) -> None:
        o = self.o
        decl = o.declarer
        terms = self.scorer.contract_terms(o.contract, o.hand_game)
        goal = Goal.FEWEST if terms.no_tricks else Goal.MOST
        a.declarer, a.declarer_name, a.contract = decl, self.name(decl), terms.label
        a.goal = "fewest" if goal == Goal.FEWEST else "most"
        if o.tricks:
            a.actual = o.tricks[decl]
        result = self.scorer.deal_result(o)
        a.made = result.made if result is not None else None
        lead = self.lead_deal()
        if lead is None:
            a.notes.append("no opening position (the deal ended before play could start)")
            return
        claim_outcome = _claimed(lead, decl, 0)
        a.needed = _needed(self.scorer, claim_outcome, decl, goal)
        d = _copy(lead)
        first = True
        for seq, seat, card in self.cap.cards:
            if d.done:
                break
            pos = self.position(d, decl, goal)
            vals = self.solver.card_values(pos)
            if first:
                a.double_dummy = self.best_of(vals, pos.to_play, decl, goal)
                first = False
            best = self.best_of(vals, seat, decl, goal)
            a.values[seq] = (decl, {c: d.tricks[decl] + v for c, v in vals.items()}, d.tricks[decl] + best)
            lost = abs(best - vals[card]) if card in vals else 0
            who = self.answerer(seat)
            a.cards[who] = a.cards.get(who, 0) + 1
            if lost:
                a.losses.append(self.loss(d, seq, seat, card, vals, best, lost, decl, goal))
            d.play(seat, card)
        if not d.done and self.cap.finish is not None:
            seq, ev = self.cap.finish
            pos = self.position(d, decl, goal)
            value = self.solver.solve(pos)
            if first:
                a.double_dummy = value
                first = False
            claimed = ev.tricks[decl]  # type: ignore[attr-defined]
            a.claim = ClaimCheck(seq, d.completed + 1, claimed, value)
        if first:   # no play at all (not whisted, half-whist, conceded): the opening position
            a.double_dummy = self.solver.solve(self.position(lead, decl, goal))
        if a.double_dummy is not None and a.needed is not None:
            if goal == Goal.MOST:
                a.margin = a.double_dummy - a.needed
            else:
                a.margin = a.needed - a.double_dummy
            a.makeable = a.margin >= 0
        a.whist = self.whist_judgements()
        if self.opts.discard and self.cap.at_discard is not None:
            a.discard = self.best_discard(lead, decl, goal)
        if self.opts.par and self.cap.at_discard is not None:
            a.par = self.par(lead)

    def answerer(self, holder: int) -> int:
        """Who answers for a card from ``holder``'s hand: the lone whister plays the passer's cards in open
        play; everyone else plays his own."""
        o = self.o
        if o.open_play and holder != o.declarer and o.calls and 0 <= holder < len(o.calls) \
                and o.calls[holder] != CALL_WHIST and len(o.whist_order) == 1:
            return o.whist_order[0]
        return holder

    def loss(self, d: Deal, seq: int, holder: int, card: int, vals: dict[int, int], best: int, lost: int,
             decl: int, goal: Goal) -> CardLoss:
        seat = self.answerer(holder)
        best_cards = tuple(sorted(c for c, v in vals.items() if v == best))
        cost: Fraction | None = None
        if self.opts.cost:
            played = _copy(d)
            played.play(holder, card)
            alt = _copy(d)
            alt.play(holder, best_cards[0])
            w_played = self.worth(self.playout(played, decl, goal), seat)
            w_best = self.worth(self.playout(alt, decl, goal), seat)
            if w_played is not None and w_best is not None:
                cost = w_best - w_played
        return CardLoss(seq, d.completed + 1, seat, self.name(seat), holder, card, best_cards, lost,
                        "declarer" if holder == decl else "defender", cost, self.money(cost))

    # ------------------------------------------------------------------ whist decisions
    def whist_judgements(self) -> list[WhistJudgement]:
        cap = self.cap
        if cap.at_whist is None:
            return []
        decl = self.o.declarer
        terms = self.scorer.contract_terms(self.o.contract, self.o.hand_game)
        goal = Goal.FEWEST if terms.no_tricks else Goal.MOST
        first_call: dict[int, int] = {}
        for i, ev in enumerate(cap.defence):
            if isinstance(ev, WhistCalled) and ev.player != decl and ev.player not in first_call:
                first_call[ev.player] = i
        out: list[WhistJudgement] = []
        for seat, i in first_call.items():
            ev = cap.defence[i]
            assert isinstance(ev, WhistCalled)
            call = ev.call
            alt = {CALL_WHIST: CALL_PASS, CALL_PASS: CALL_WHIST}.get(call)
            name = CALL_NAMES.get(call, str(call))
            if alt is None:
                out.append(WhistJudgement(seat, self.name(seat), name, "", None, None, None,
                                          f"a {name} is not judged (only whist against pass)"))
                continue
            flipped = list(cap.defence)
            flipped[i] = WhistCalled(seat, alt)
            value, why = self.calls_value(cap.defence, seat, decl, goal)
            alt_value, why_alt = self.calls_value(flipped, seat, decl, goal)
            reason = why or why_alt
            right = None if value is None or alt_value is None else value >= alt_value
            out.append(WhistJudgement(seat, self.name(seat), name, CALL_NAMES[alt], value, alt_value, right,
                                      reason if right is None else ""))
        return out

    def calls_value(self, calls: Sequence[Event], seat: int, decl: int, goal: Goal) -> tuple[Fraction | None, str]:
        """``seat``'s worth when the defence makes ``calls`` (the rest passes) and play is double dummy."""
        assert self.cap.at_whist is not None
        d = _copy(self.cap.at_whist)
        try:
            for ev in calls:
                d.apply(ev)
        except IllegalAction as exc:
            return None, f"the other choice makes a later call illegal: {exc.message}"
        _fill_calls(d, CALL_PASS)
        if not d.done:
            d.begin_play()
            if d.phase != d.PLAYING:
                return None, "play cannot start after these calls"
        outcome = d.outcome if d.done else self.playout(d, decl, goal)
        value = self.worth(outcome, seat)
        return value, "" if value is not None else "the scorer refuses the outcome"

    # ------------------------------------------------------------------ discard and par
    def twelve(self) -> tuple[int, int]:
        """The declarer's twelve cards (hand and talon) and the discard he made."""
        cap = self.cap
        assert cap.at_discard is not None
        d = cap.at_discard
        decl = self.o.declarer
        return d.hands[decl] | (d.talon or 0), (cap.at_lead or cap.at_whist or d).discard_mask or 0

    def best_discard(self, lead: Deal, decl: int, goal: Goal) -> DiscardResult | None:
        twelve, made = self.twelve()
        if twelve.bit_count() != 12 or made.bit_count() != 2:
            return None
        base = self.position(lead, decl, goal)
        others = _others(base, decl)
        best_t, best_mask, n = self._best_over(base, decl, goal, twelve, others)
        actual_t = self.solver.solve(_with_hand(base, decl, twelve & ~made))
        return DiscardResult(made, actual_t, best_mask, best_t, n)

    def _best_over(self, base: Position, decl: int, goal: Goal, twelve: int, others: int) -> tuple[int, int, int]:
        best_t: int | None = None
        best_mask = 0
        n = 0
        for pair in distinct_discards(twelve, others):
            n += 1
            t = self.solver.solve(_with_hand(base, decl, twelve & ~pair))
            if best_t is None or (t > best_t if goal == Goal.MOST else t < best_t):
                best_t, best_mask = t, pair
            if best_t == (N_TRICKS if goal == Goal.MOST else 0):
                break
        assert best_t is not None
        return best_t, best_mask, n

    def par(self, lead: Deal) -> ParResult | None:
        """The highest contract of the family's ladder that the declarer's twelve cards make double dummy
        (each kind of contract played from the same seat with the same opening leader rule, both defenders
        whisting), after the best discard for it."""
        cap = self.cap
        assert cap.at_discard is not None
        decl = self.o.declarer
        twelve, made = self.twelve()
        if twelve.bit_count() != 12:
            return None
        searched: dict[tuple[Any, ...], tuple[int, int]] = {}
        tricks: dict[str, int] = {}
        par: tuple[int, str, int] | None = None
        for contract in type(cap.at_discard).LADDER:
            d = _copy(cap.at_discard)
            try:
                d.push_discard(decl, made)
                d.push_declare(decl, contract)
                terms = self.scorer.contract_terms(contract, self.o.hand_game)
            except (IllegalAction, *_SCORING_ERRORS):
                continue
            goal = Goal.FEWEST if terms.no_tricks else Goal.MOST
            _fill_calls(d, CALL_WHIST)
            d.begin_play()
            if d.done or d.phase != d.PLAYING:
                continue
            base = self.position(d, decl, goal)
            key = (base.order, base.trump, base.to_play, base.goal, base.declarer_cap, base.side_cap)
            if key not in searched:
                t, mask, _n = self._best_over(base, decl, goal, twelve, _others(base, decl))
                searched[key] = (t, mask)
            t, mask = searched[key]
            tricks.setdefault(_kind_label(terms.label), t)
            outcome = _claimed(d, decl, t)
            result = self.scorer.deal_result(outcome) if outcome is not None else None
            if result is not None and result.made:
                par = (contract, terms.label, mask)
        if par is None:
            return ParResult(None, "", 0, tricks)
        return ParResult(par[0], par[1], par[2], tricks)

    # ------------------------------------------------------------------ raspasy
    def raspasy(self, a: DealAnalysis) -> None:
        a.goal = ""
        cap = self.cap
        if cap.at_lead is None:
            a.skipped = "no cards recorded"
            return
        d = _copy(cap.at_lead)
        bounds_done = False
        for seq, seat, card in cap.cards:
            if d.done:
                break
            if d.talon_tricks > d.completed:   # a trick the talon leads: not a position the solver knows
                d.play(seat, card)
                continue
            if not bounds_done:
                self.bounds(a, d)
                bounds_done = True
            pos = self.position(d, seat, Goal.FEWEST)
            vals = self.solver.card_values(pos)
            a.cards[seat] = a.cards.get(seat, 0) + 1
            best = min(vals.values())
            a.values[seq] = (seat, {c: d.tricks[seat] + v for c, v in vals.items()}, d.tricks[seat] + best)
            lost = vals.get(card, best) - best
            if lost:
                a.losses.append(CardLoss(seq, d.completed + 1, seat, self.name(seat), seat, card,
                                         tuple(sorted(c for c, v in vals.items() if v == best)), lost, "raspasy"))
            d.play(seat, card)
        if not bounds_done and not d.done and d.talon_tricks <= d.completed:
            self.bounds(a, d)
        if d.talon_tricks:
            a.notes.append(f"the first {d.talon_tricks} tricks are led by the talon and are not analysed")

    def bounds(self, a: DealAnalysis, d: Deal) -> None:
        a.first_trick = d.completed + 1
        lead = d.trick_seats[0] if d.trick_cards else d.to_play
        seats = [lead]
        s = d.next_seat(lead)
        while s != lead and s != NO_SEAT and len(seats) < d.n:
            seats.append(s)
            s = d.next_seat(s)
        for seat in sorted(seats):
            bound = d.tricks[seat] + self.solver.solve(self.position(d, seat, Goal.FEWEST))
            a.bounds.append(Bound(seat, self.name(seat), bound, self.o.tricks[seat] if self.o.tricks else 0))


# --------------------------------------------------------------------------- helpers
def _fill_calls(d: Deal, call: int) -> None:
    """Make the calls still due before play: ``call`` for each defender whose turn it is (whist: play
    happens; pass: the rest passes), as long as the next event is a whist call and not yet a card."""
    for _ in range(8):
        if d.done:
            return
        acts = d.legal_actions()
        if not acts or any(isinstance(x, CardPlayed) for x in acts):
            return
        calls = [x for x in acts if isinstance(x, WhistCalled) and x.call == call]
        if not calls:
            calls = [x for x in acts if isinstance(x, WhistCalled) and x.call == CALL_PASS]
        if not calls:
            return
        d.push(calls[0])


def _claimed(d: Deal, declarer: int, tricks: int) -> DealOutcome | None:
    """The engine's outcome of ``d`` (a deal at its opening lead) had the declarer claimed ``tricks``
    and the next seat the rest: the deal's kind and fields as the engine sets them."""
    c = _copy(d)
    vec = [0] * c.n
    nxt = c.next_seat(declarer)
    left = N_TRICKS - c.completed
    vec[declarer] = min(tricks, left)
    if nxt != NO_SEAT:
        vec[nxt] = left - vec[declarer]
    try:
        c.push_claim(tuple(vec))
    except (IllegalAction, *_SCORING_ERRORS):
        return None
    return c.outcome


def _needed(scorer: Scorer, outcome: DealOutcome | None, declarer: int, goal: Goal) -> int | None:
    """The fewest declarer tricks that make the contract (most: the most that still make, for a
    no-trick contract), as the scorer judges ``outcome`` with its tricks changed."""
    if outcome is None:
        return None
    other = next((s for s in outcome.seats if s != declarer), NO_SEAT)
    made: list[int] = []
    for t in range(N_TRICKS + 1):
        vec = [0] * outcome.n_players
        vec[declarer] = t
        if other != NO_SEAT:
            vec[other] = N_TRICKS - t
        r = scorer.deal_result(replace(outcome, tricks=tuple(vec)))
        if r is not None and r.made:
            made.append(t)
    if not made:
        return None
    return min(made) if goal == Goal.MOST else max(made)


def _others(pos: Position, declarer: int) -> int:
    """The cards the other seats in play hold (what separates the declarer's cards)."""
    m = 0
    for s in pos.order:
        if s != declarer:
            m |= pos.hands[s]
    return m | sum(1 << c for c in pos.trick)


def _with_hand(pos: Position, seat: int, hand: int) -> Position:
    hands = list(pos.hands)
    hands[seat] = hand
    return replace(pos, hands=tuple(hands))


def distinct_discards(twelve: int, others: int) -> list[int]:
    """The discards (two of the declarer's ``twelve`` cards) up to equivalence: cards of one suit with
    none of ``others`` between them are interchangeable, so discarding one or the other of them leaves
    the same position but for the names of equal cards. The lowest card of each run stands for it."""
    runs: dict[int, list[int]] = {}
    key_of: dict[int, int] = {}
    run = -1
    prev_suit = -1
    for c in range(32):
        if c >> 3 != prev_suit:
            prev_suit, run = c >> 3, -1
        if twelve >> c & 1:
            if run < 0:
                run = c
                runs[run] = []
            runs[run].append(c)
            key_of[c] = run
        elif others >> c & 1:
            run = -1
    seen: set[tuple[int, int]] = set()
    out: list[int] = []
    cards = list(cards_of(twelve))
    for i, x in enumerate(cards):
        for y in cards[i + 1:]:
            kx, ky = key_of[x], key_of[y]
            k = (kx, ky) if kx <= ky else (ky, kx)
            if k in seen:
                continue
            seen.add(k)
            if kx == ky:
                r = runs[kx]
                out.append((1 << r[0]) | (1 << r[1]))
            else:
                out.append((1 << runs[kx][0]) | (1 << runs[ky][0]))
    return out


def _kind_label(label: str) -> str:
    """A contract's kind for the par table: its strain (``"6s"`` → ``"s"``), or the name of a no-trump game."""
    stripped = label.lstrip("0123456789")
    return stripped or label


__all__ = ["AnalysisError", "Options", "analyze_events", "distinct_discards", "replay_captures", "solver_name"]
