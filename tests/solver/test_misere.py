"""The misère bounds of the search (preflog/solver/search.py ``misere_bounds``, _dd.c likewise) against
the plain minimax: first the claims they rest on, checked on the reference alone, then both searches
on random misère positions of 3 to 6 cards a hand, 2 and 3 seats, with and without a trick in progress.

A suit is *safe* for the declarer when, counting from the bottom, his j-th lowest card of it is below
the other seats' j-th lowest (for as many cards as both hold). The claims: every suit safe and another
seat on lead, the declarer of a misère takes no trick; on lead himself, his lowest card of each suit
above all the others' cards of it, he takes every trick left up to his cap; a seat of the other side
on lead holding a suit where his lowest card tops the others' gives him a trick."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings

from preflog.solver import NATIVE
from preflog.solver import Goal
from preflog.solver import Position
from preflog.solver import Solver

from .reference import minimax
from .reference import minimax_values
from .reference import positions
from .test_solver import CLEAN_MISERE

SUITS = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
QUICK = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
SOLVERS = [pytest.param(False, id="python"), pytest.param(True, id="native",
                                                           marks=pytest.mark.skipif(not NATIVE, reason="not built"))]


def _low_to_high(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def all_safe(declarer: int, others: int) -> bool:
    """Every suit safe for the declarer, written out from the definition (no shared code)."""
    for suit in SUITS:
        mine, theirs = _low_to_high(declarer & suit), _low_to_high(others & suit)
        if any(d > e for d, e in zip(mine, theirs, strict=False)):
            return False
    return True


def random_misere(rng: random.Random, m: int, n: int, leader_is_declarer: bool) -> Position:
    """A deal of n cards a hand to m seats of 0..m-1 (declarer 0; at 2 seats a third, out of play, holds
    nothing), the declarer's hand drawn low more often, so that safe hands are common."""
    deck = list(range(32))
    rng.shuffle(deck)
    deck.sort(key=lambda c: (c % 8) + rng.random() * 6)  # low ranks first, with noise
    mine = deck[:n]
    rest = deck[n:]
    rng.shuffle(rest)
    hands = [sum(1 << c for c in mine)] + [sum(1 << c for c in rest[j * n:(j + 1) * n]) for j in range(m - 1)]
    leader = 0 if leader_is_declarer else rng.randrange(1, m)
    return Position(hands=(*hands, 0) if m == 2 else tuple(hands), order=tuple(range(m)), declarer=0,
                    trump=-1, to_play=leader, goal=Goal.FEWEST, declarer_cap=rng.choice((99, 99, 1, 2, 3)),
                    side_cap=rng.choice((99, 99, 1, 2, 3)))


@pytest.mark.parametrize("m", [2, 3])
def test_every_suit_safe_and_another_seat_on_lead_takes_no_trick(m: int) -> None:
    """The claim of the upper bound, on the plain minimax: safe hands (drawn until 25 are found) give
    0 whoever of the other side leads."""
    rng = random.Random(29 + m)
    found = 0
    while found < 25:
        pos = random_misere(rng, m, rng.randint(3, 6 if m == 2 else 5), leader_is_declarer=False)
        others = sum(pos.hands[1:])
        if not all_safe(pos.hands[0], others):
            continue
        found += 1
        assert minimax(pos) == 0, pos


@pytest.mark.parametrize("m", [2, 3])
def test_safety_is_needed(m: int) -> None:
    """The bound is not empty: among the unsafe hands of the same draw some are caught (so a test of
    "every suit safe" that let too much through would show in the test above)."""
    rng = random.Random(7 + m)
    caught = 0
    for _ in range(60):
        pos = random_misere(rng, m, 4, leader_is_declarer=False)
        if not all_safe(pos.hands[0], sum(pos.hands[1:])) and minimax(pos) > 0:
            caught += 1
    assert caught > 0


@pytest.mark.parametrize("m", [2, 3])
def test_declarer_on_lead_with_only_high_suits_takes_them_all(m: int) -> None:
    """The claim of the lower bound: on lead, his lowest card of each suit he holds above all the others'
    cards of it (the top cards of one suit, or a suit nobody else holds), he takes every trick left up
    to his cap (the side's cap cannot stop him: the side takes none)."""
    rng = random.Random(3 + m)
    for j in range(30):
        n = rng.randint(2, 3 if m == 3 else 4)  # the others discard freely: the minimax grows fast
        suits = rng.sample(range(4), 3 if m == 3 else 2)
        mine_suit, their_suits = suits[0], suits[1:]
        if j % 2:  # the top n cards of his suit, the others hold the lower ones
            mine = list(range(8 * mine_suit + 8 - n, 8 * mine_suit + 8))
            pool = list(range(8 * mine_suit, 8 * mine_suit + 8 - n))
        else:  # a suit nobody else holds
            mine = rng.sample(range(8 * mine_suit, 8 * mine_suit + 8), n)
            pool = []
        pool += [c for s in their_suits for c in range(8 * s, 8 * s + 8)]
        rng.shuffle(pool)
        hands = [sum(1 << c for c in mine)] + [sum(1 << c for c in pool[j * n:(j + 1) * n]) for j in range(m - 1)]
        cap = rng.choice((99, 1, 2, 3))
        pos = Position(hands=(*hands, 0) if m == 2 else tuple(hands), order=tuple(range(m)), declarer=0,
                       trump=-1, to_play=0, goal=Goal.FEWEST, declarer_cap=cap, side_cap=rng.choice((99, 1, 2)))
        assert minimax(pos) == min(n, cap), pos


@pytest.mark.parametrize("m", [2, 3])
def test_a_defender_on_lead_with_a_high_suit_catches_him(m: int) -> None:
    """The claim of the sure trick: the leader holds a suit where the declarer's lowest card tops all
    the others' cards: at least one trick."""
    rng = random.Random(11 + m)
    found = 0
    while found < 25:
        pos = random_misere(rng, m, rng.randint(3, 5 if m == 2 else 4), leader_is_declarer=False)
        mine, leader = pos.hands[0], pos.hands[pos.to_play]
        others = sum(pos.hands[1:])
        if not any(mine & suit and leader & suit and min(_low_to_high(mine & suit)) > max(_low_to_high(others & suit))
                   for suit in SUITS):
            continue
        found += 1
        assert minimax(pos) >= 1, pos


@pytest.mark.parametrize("native", SOLVERS)
@pytest.mark.parametrize("m", [2, 3])
def test_misere_search_equals_plain_minimax(native: bool, m: int) -> None:
    """Seeded random misère deals, low declarer hands often (where the bounds fire), every card of the
    seat on turn, declarer or a defender on lead."""
    rng = random.Random(1000 + m)
    solver = Solver(native=native)
    for j in range(60):
        pos = random_misere(rng, m, rng.randint(3, 6 if m == 2 else 5), leader_is_declarer=j % 3 == 0)
        want = minimax_values(pos)
        assert solver.card_values(pos) == want, pos
        assert solver.solve(pos) == (min(want.values()) if pos.to_play == 0 else max(want.values())), pos


@pytest.mark.parametrize("native", SOLVERS)
@QUICK
@given(pos=positions(min_tricks=3, max_tricks=5, misere=True, max_prefix=5))
def test_misere_positions_equal_plain_minimax(native: bool, pos: Position) -> None:
    """Random misère positions of 3 to 5 cards a hand, 2 or 3 seats, a play prefix that may stop
    inside a trick."""
    want = minimax_values(pos)
    solver = Solver(native=native)
    assert solver.card_values(pos) == want, pos
    wants_most = pos.to_play != pos.declarer
    assert solver.solve(pos) == (max(want.values()) if wants_most else min(want.values())), pos


@pytest.mark.parametrize("native", SOLVERS)
@pytest.mark.parametrize("leader", [1, 2])
def test_a_safe_misere_is_proven_at_the_root(native: bool, leader: int) -> None:
    """CLEAN_MISERE: each of the declarer's cards lies below all of the others' in its suit, so the
    bound answers at the first node, where the search without it had to refute every defender's card
    down the tree (hundreds of nodes)."""
    pos = Position(CLEAN_MISERE, (0, 1, 2), 0, -1, leader, goal=Goal.FEWEST)
    solver = Solver(native=native)
    assert solver.solve(pos) == 0
    assert solver.nodes <= 2
