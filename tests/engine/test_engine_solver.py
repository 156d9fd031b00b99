"""The engine's trick play and the solver's agree on the same positions: legal cards, the position
after each card, trick winners and where play stops.

The engine (:class:`~preflog.engine.tricks.TrickPlay`, the compiled card loop or its ``.py`` reference,
whichever this build runs) is the referee of the audit; the solver (:mod:`preflog.solver`:
``legal_cards``, ``play``, ``trick_winner``) is what the analysis searches with; the analysis maps one to
the other (:meth:`preflog.analysis.deal._Deal.position`). Random legal deals of every preset and variant
at 3 and 4 players (tests/randomplay.py's dealing; auctions biased to passing, so that raspasy,
misères, Bettels and two-handed Croatian tricks all occur) are played card by card with random legal
cards, and at every card the two must agree:

* the legal cards of the seat on turn (the engine's ``legal_cards``, its ``legal_actions``, the solver's
  ``legal_cards`` of the mapped position);
* after the card: the mapped position of the engine's deal equals the solver's ``play`` of the card
  (hands, seat on turn, trick in progress, the seats in play in their cycle, the caps still to run), so
  the trick's winner leads the next trick in both, and the engine's trick counts grow by the same trick;
* the stop: the engine's deal ends at the card where the solver's position has no card left or a cap
  at 0 (the Croatian stop at the defenders' fifth trick, Bettel's at the declarer's first), never before;
* a talon-led raspasy trick (no solver position: the analysis starts after them) is held to the solver's
  rules of play all the same: each card follows the talon card's suit when it can
  (:func:`preflog.solver.position.follow`), and the trick goes to :func:`~preflog.solver.position.trick_winner`
  of the talon card and the three played at four players (the talon card is the sitting-out dealer's),
  at three to the best card of the talon's suit by :func:`~preflog.solver.position.beats` (the talon card
  takes nothing; nobody takes the trick when nobody follows).

Each mapped position is checked with both goals (the rules of play do not depend on it) and with the
contract's declarer, or at raspasy a seat in play, as the seat whose tricks count.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from preflog.analysis.deal import _Deal
from preflog.engine.deal import Deal
from preflog.engine.families import family_of
from preflog.model.bids import PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import Claimed
from preflog.model.events import DealStarted
from preflog.model.events import WhistCalled
from preflog.model.outcome import NO_SEAT
from preflog.rules import resolve
from preflog.solver import Goal
from preflog.solver import Position
from preflog.solver import legal_cards
from preflog.solver import play
from preflog.solver.position import beats
from preflog.solver.position import follow
from preflog.solver.position import trick_winner

from ..randomplay import random_layout
from ..strategies import TABLES

OPEN = 11   # a cap above the tricks a deal has: play does not stop on it


def _cap(c: int) -> int:
    return min(c, OPEN)


def _cycle(order: tuple[int, ...]) -> tuple[int, ...]:
    """The seats in play as a cycle, from the lowest seat (the mapping starts it at the trick's leader)."""
    k = order.index(min(order))
    return order[k:] + order[:k]


def _same(a: Position, b: Position) -> bool:
    return (a.hands == b.hands and _cycle(a.order) == _cycle(b.order) and a.to_play == b.to_play
            and a.trick == b.trick and a.declarer == b.declarer and a.trump == b.trump
            and _cap(a.declarer_cap) == _cap(b.declarer_cap) and _cap(a.side_cap) == _cap(b.side_cap))


def _over(p: Position) -> bool:
    return p.declarer_cap == 0 or p.side_cap == 0 or not any(p.hands[s] for s in p.order)


def _talon_trick_card(d: Deal, seat: int, card: int, seen: Counter[str]) -> None:
    """A card of a talon-led trick: legal by the solver's rule of following, and the trick's winner."""
    legal = d.legal_cards(seat)
    if d.suit_led >= 0:   # (before the first card of the first trick the talon's order is not known yet)
        assert legal == follow(d.hands[seat], d.suit_led, d.trump, d.rules.must_trump), (seat, d.suit_led)
    before = d.completed
    cards, seats = [*d.trick_cards, card], [*d.trick_seats, seat]
    d.apply(CardPlayed(seat, card))
    seen["talon-led"] += 1
    if d.completed > before:   # the trick is complete: the talon card first, then the three played
        order = d._talon_order
        assert order is not None
        talon = order[before]
        if d.talon_owner != NO_SEAT:   # the 4-player dealer's talon card plays as his
            w = trick_winner((talon, *cards), d.trump)
            want = d.talon_owner if w == 0 else seats[w - 1]
        else:   # at three the talon card names the suit and takes nothing: the best card of it, or nobody
            best = -1
            for j, c in enumerate(cards):
                if (c >> 3 in (talon >> 3, d.trump)) if best < 0 else beats(c, cards[best], d.trump):
                    best = j
            want = seats[best] if best >= 0 else NO_SEAT
        assert d.trick_winners[-1] == want, (talon, cards, seats, d.trick_winners)
        seen["talon-led tricks"] += 1


def _play_and_compare(d: Deal, rng: random.Random, seen: Counter[str]) -> None:
    """At the engine's play phase: one random legal card, the engine and the solver compared around it."""
    seat = d.to_play
    if d.talon_tricks > d.completed:
        legal = d.legal_cards(seat)
        _talon_trick_card(d, seat, rng.choice([c for c in range(32) if legal >> c & 1]), seen)
        return
    declarer = d.declarer if d.declarer != NO_SEAT else seat
    if d.stop_caps != (OPEN, OPEN):
        assert declarer != NO_SEAT
    base = _Deal.position(d, declarer, Goal.MOST)
    legal = d.legal_cards(seat)
    actions = {a.card for a in d.legal_actions() if isinstance(a, CardPlayed)}
    for goal in (Goal.MOST, Goal.FEWEST):
        pos = replace(base, goal=goal)
        assert legal_cards(pos) == legal, pos
    assert actions == {c for c in range(32) if legal >> c & 1}
    card = rng.choice(sorted(actions))
    after = play(base, card)
    tricks_before = list(d.tricks)
    completed = d.completed
    d.apply(CardPlayed(seat, card))
    seen["positions"] += 1
    seen[f"{len(base.order)} in play"] += 1
    seen[f"{len(d.hands)} seats"] += 1
    seen["inside a trick" if base.trick else "on the lead"] += 1
    if d.completed > completed:   # the trick is complete: the solver's next leader is its winner
        winner = d.trick_winners[-1]
        assert after.to_play == winner and after.trick == ()
        assert [t - b for t, b in zip(d.tricks, tricks_before, strict=True)] == [
            int(s == winner) for s in range(len(d.tricks))]
        seen["tricks"] += 1
    if d.done or d.phase != d.PLAYING:
        assert _over(after), (after, d.completed)
        if d.completed < 10:
            seen["stopped early"] += 1
        return
    assert not _over(after), after
    assert _same(_Deal.position(d, declarer, Goal.MOST), after), (_Deal.position(d, declarer, Goal.MOST), after)
    if after.declarer_cap < OPEN or after.side_cap < OPEN:
        seen["with caps"] += 1


def _random_deal(spec: str, n: int, rng: random.Random, seen: Counter[str]) -> None:
    rules = resolve(spec)
    dealer = rng.randrange(n)
    hands, talon = random_layout(n, dealer, rng)
    d = family_of(rules).deal.from_event(rules, n, DealStarted(dealer, hands, talon), 1, 0)
    pass_bias = rng.choice((0.3, 0.6, 0.9))
    while not d.done:
        if d.phase == d.PLAYING and d.to_play != NO_SEAT:
            _play_and_compare(d, rng, seen)
            continue
        acts = [a for a in d.legal_actions() if not isinstance(a, Claimed)]
        assert acts, d.phase_name
        passes = [a for a in acts if isinstance(a, BidMade) and a.bid == PASS]
        whists = [a for a in acts if isinstance(a, WhistCalled) and a.call == CALL_WHIST]
        if passes and rng.random() < pass_bias:
            ev = passes[0]
        elif whists and rng.random() < 0.5:
            ev = whists[0]
        else:
            ev = rng.choice(acts)
        d.apply(ev)


COVERAGE = ("3 seats", "4 seats", "3 in play", "2 in play", "inside a trick", "on the lead", "tricks", "stopped early",
            "with caps", "talon-led", "talon-led tricks")


def _run(positions: int, seed: int) -> Counter[str]:
    """Random deals, table after table, until ``positions`` positions were compared and every kind of
    :data:`COVERAGE` occurred (at most 2,000 deals)."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    k = 0
    while (seen["positions"] < positions or not all(seen[w] for w in COVERAGE)) and k < 2000:
        spec, n = TABLES[k % len(TABLES)]
        _random_deal(spec, n, rng, seen)
        k += 1
    return seen


def test_engine_and_solver_agree_on_random_positions() -> None:
    seen = _run(positions=300, seed=26)
    assert seen["positions"] >= 200
    assert [w for w in COVERAGE if not seen[w]] == []


@pytest.mark.slow
def test_engine_and_solver_agree_on_thousands_of_positions() -> None:
    seen = _run(positions=3000, seed=2026)
    assert seen["positions"] >= 2000
    assert [w for w in COVERAGE if not seen[w]] == []
