"""Games passed that were makeable: a bidding decision of the skill statistics (docs/skill.md).

A player **passed a makeable game** when, at his first pass in the auction, some contract he could still
have bid and played was makeable double dummy with the talon. Precisely, from a copy of the deal just
before his pass (the engine's, every rule its own):

1. **Open to him**: every call the engine allows him there but the pass; for each, the auction is played
   on with that call and every other bidder passing. If he wins it and takes the talon (the deal moves to
   his discard), the contracts he may then declare are open to him (a call that wins a game from hand,
   without the talon, opens none: it is not judged).
2. **Makeable**: a contract open to him, declared after the **best discard** of his twelve cards (hand
   and talon; the talon is known to the analysis), both defenders whisting, played double dummy from the
   engine's opening lead, takes the tricks the scorer needs to call it made (at misère or Bettel: takes
   no more than it allows).

Contracts whose play is the same position (the same strain and goal, the same leader and stops: a
Russian 6♠, 7♠ and 8♠) are searched once: the best discard for that position gives the most tricks
(fewest at misère) over all discards, and each contract of the group is makeable if that number is
enough for it. A group stops searching as soon as a discard reaches what its easiest contract needs.
Cost: at most one solve per distinct discard (66 pairs of twelve cards, fewer once equal cards are
merged) per group — five trick strains and misère in the Russian game, so at most about 400 solves of a
full deal per pass, and far fewer when a game is found early.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.deal import Deal
from ..engine.deal import Phase
from ..engine.findings import IllegalAction
from ..model.bidcodes import PASS
from ..model.calls import CALL_WHIST
from ..model.cards import SUIT_MASKS
from ..model.cards import cards_of
from ..model.outcome import NO_SEAT
from ..scoring.base import Scorer
from ..sim.levels import solver_position
from ..solver import Goal
from ..solver import Position
from ..solver import Solver
from ..solver import SolverError
from .deal import _SCORING_ERRORS
from .deal import _claimed
from .deal import _copy
from .deal import _fill_calls
from .deal import _needed
from .deal import _others
from .deal import _with_hand
from .deal import distinct_discards

_MAX_AUCTION = 16   # calls to end an auction by passing (a table has at most three bidders)


@dataclass(frozen=True, slots=True)
class PassJudgement:
    """One player's first pass: whether a game open to him was makeable, the cheapest such game (its
    label, "" if none), the open contracts and the solves it took."""

    seat: int
    makeable: bool
    game: str
    open_contracts: int
    solves: int


def _wins_talon(at: Deal, seat: int, bid: int) -> Deal | None:
    """The deal after ``seat`` calls ``bid`` and every other bidder passes, if ``seat`` then wins the auction
    and takes the talon (the deal at his discard); None otherwise."""
    d = _copy(at)
    try:
        d.bid(seat, bid)
        for _ in range(_MAX_AUCTION):
            if d.phase != Phase.AUCTION:
                break
            d.bid(d.auction.to_move, PASS)
    except IllegalAction:
        return None
    if d.phase != Phase.DISCARD or d.declarer != seat or d.talon is None:
        return None
    return d


def judge_pass(at: Deal, seat: int, scorer: Scorer, solver: Solver,
               budget: int | None = None) -> PassJudgement | None:
    """The judgement of ``seat``'s pass from ``at``, the deal just before it (module docstring); None when
    nothing can be judged (no call but the pass, no talon known, the engine or the scorer refuses)."""
    if at.phase != Phase.AUCTION or at.auction.to_move != seat or at.talon is None:
        return None
    twelve = at.hands[seat] | at.talon
    if twelve.bit_count() != 12:
        return None
    # 1. the contracts open to him: contract → a deal at his discard from which he may declare it
    open_at: dict[int, Deal] = {}
    for b in at.auction.legal_bids(seat):
        if b == PASS:
            continue
        won = _wins_talon(at, seat, b)
        if won is None:
            continue
        probe = _copy(won)
        probe.push_discard(seat, _two_of(twelve))
        for c in type(at).LADDER:
            if c not in open_at and probe.can_declare(seat, c):
                open_at[c] = won
    if not open_at:
        return None
    # 2. group them by the position their play starts from; per group, the easiest needed count
    groups: dict[tuple[object, ...], tuple[Position, Goal, list[tuple[int, str, int]]]] = {}
    for c in type(at).LADDER:
        won = open_at.get(c)
        if won is None:
            continue
        d = _copy(won)
        try:
            d.push_discard(seat, _two_of(twelve))
            d.push_declare(seat, c)
            terms = scorer.contract_terms(c, False)
            goal = Goal.FEWEST if terms.no_tricks else Goal.MOST
            _fill_calls(d, CALL_WHIST)
            d.begin_play()
        except (IllegalAction, *_SCORING_ERRORS):
            continue
        if d.done or d.phase != d.PLAYING or d.declarer != seat:
            continue
        needed = _needed(scorer, _claimed(d, seat, 0), seat, goal)
        if needed is None:
            continue
        base = solver_position(d, seat, goal)
        key = (base.order, base.trump, base.to_play, base.goal, base.declarer_cap, base.side_cap)
        groups.setdefault(key, (base, goal, []))[2].append((c, terms.label, needed))
    # 3. per group, the best discard, stopping once the easiest contract of the group is reached
    solves = 0
    found: list[tuple[int, str]] = []
    try:
        for base, goal, contracts in groups.values():
            target = (min(n for _c, _l, n in contracts) if goal == Goal.MOST
                      else max(n for _c, _l, n in contracts))
            best, n = _best_tricks(solver, base, seat, goal, twelve, target, budget)
            solves += n
            for c, label, needed in contracts:
                if (best >= needed) if goal == Goal.MOST else (best <= needed):
                    found.append((type(at).LADDER.index(c), label))
    except SolverError:
        return None
    game = min(found)[1] if found else ""
    return PassJudgement(seat, bool(found), game, len(open_at), solves)


def _best_tricks(solver: Solver, base: Position, seat: int, goal: Goal, twelve: int, target: int,
                 budget: int | None = None) -> tuple[int, int]:
    """The declarer's most tricks (fewest at ``Goal.FEWEST``) over the discards of ``twelve``, or the first
    value that reaches ``target``; and the solves it took. ``budget``: try only that many discards, the
    likeliest first (:func:`discard_order`), so the value is a bound (no more than the best, for the
    declarer)."""
    best: int | None = None
    n = 0
    pairs = discard_order(distinct_discards(twelve, _others(base, seat)), twelve, goal, base.trump)
    for pair in pairs[:budget] if budget is not None else pairs:
        n += 1
        t = solver.solve(_with_hand(base, seat, twelve & ~pair))
        if best is None or (t > best if goal == Goal.MOST else t < best):
            best = t
        if (best >= target) if goal == Goal.MOST else (best <= target):
            break
    assert best is not None
    return best, n


def discard_order(pairs: list[int], twelve: int, goal: Goal, trump: int) -> list[int]:
    """The discards ``pairs`` the likeliest best first: for tricks, low cards of short side suits before
    trumps and high cards; at misère, high cards of short suits first. Only an order: every pair stays."""
    length = [(twelve & m).bit_count() for m in SUIT_MASKS]
    cards = sorted(cards_of(twelve), key=lambda c: (
        (c >> 3 == trump, length[c >> 3], c & 7) if goal == Goal.MOST else (-(c & 7), length[c >> 3])))
    at = {c: i for i, c in enumerate(cards)}

    def score(pair: int) -> tuple[int, int]:
        a, b = (at[c] for c in cards_of(pair))
        return a + b, min(a, b)
    return sorted(pairs, key=score)


def _two_of(cards: int) -> int:
    """Two of ``cards`` (the lowest): a discard that moves the engine on; the search tries them all."""
    low = cards & -cards
    rest = cards & ~low
    return low | (rest & -rest)


def judge_passes(at_pass: dict[int, Deal], scorer: Scorer, solver: Solver,
                 budget: int | None = None) -> dict[int, PassJudgement]:
    """:func:`judge_pass` of every seat that passed (seat → the deal before his first pass)."""
    out: dict[int, PassJudgement] = {}
    for seat, at in sorted(at_pass.items()):
        if seat == NO_SEAT:
            continue
        j = judge_pass(at, seat, scorer, solver, budget)
        if j is not None:
            out[seat] = j
    return out


__all__ = ["PassJudgement", "judge_pass", "judge_passes"]
