"""The double-dummy solver against a plain minimax, its properties, and hand-checked full deals.

The reference (tests/solver/reference.py) tries every legal card at every node with its own rules of
play and nothing else; the solver must give the same value for the position and for every legal card
on random positions of up to 5 tricks a hand (random deals, random legal play prefixes that stop
inside tricks too, 2 or 3 seats, trump or no trump, both goals, the caps).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.errors import PreflogError
from preflog.model.cards import parse_cards
from preflog.solver import NATIVE
from preflog.solver import Goal
from preflog.solver import Position
from preflog.solver import Solver
from preflog.solver import SolverError
from preflog.solver import card_values
from preflog.solver import legal_cards
from preflog.solver import play
from preflog.solver import solve

from .reference import minimax_values
from .reference import positions

SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3
QUICK = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
MANY = settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))

SOLVERS = [pytest.param(False, id="python"), pytest.param(True, id="native",
                                                           marks=pytest.mark.skipif(not NATIVE, reason="not built"))]


def best(pos: Position, values: dict[int, int]) -> int:
    wants_most = (pos.to_play == pos.declarer) == (pos.goal == Goal.MOST)
    if not values:
        return 0
    return max(values.values()) if wants_most else min(values.values())


def check_against_minimax(pos: Position, solver: Solver) -> None:
    want = minimax_values(pos)
    assert solver.card_values(pos) == want, pos
    assert solver.solve(pos) == best(pos, want), pos


@pytest.mark.parametrize("native", SOLVERS)
@QUICK
@given(pos=positions())
def test_equals_plain_minimax(native: bool, pos: Position) -> None:
    check_against_minimax(pos, Solver(native=native))


@pytest.mark.slow
@MANY
@given(pos=positions())
def test_equals_plain_minimax_thousands(pos: Position) -> None:
    """Both searches (the compiled one where it is built) on 2000 positions."""
    want = minimax_values(pos)
    for native in (False, True) if NATIVE else (False,):
        solver = Solver(native=native)
        assert solver.card_values(pos) == want, (native, pos)
        assert solver.solve(pos) == best(pos, want), (native, pos)


@pytest.mark.skipif(not NATIVE, reason="the compiled search is not built")
@QUICK
@given(pos=positions(max_tricks=7))
def test_compiled_search_equals_python_search(pos: Position) -> None:
    """The differential test on positions too big for the plain minimax: both searches, every card."""
    assert Solver(native=True).card_values(pos) == Solver(native=False).card_values(pos), pos


@pytest.mark.parametrize("native", SOLVERS)
@QUICK
@given(data=st.data())
def test_one_solver_over_many_positions_keeps_its_table_right(native: bool, data: st.DataObject) -> None:
    """The table is kept between calls: positions of other deals, seats and goals must not mix."""
    solver = Solver(native=native)
    for _ in range(4):
        check_against_minimax(data.draw(positions(max_tricks=4)), solver)


@pytest.mark.parametrize("native", SOLVERS)
@pytest.mark.parametrize("transposition,equivalence", [(False, False), (True, False), (False, True)])
@QUICK
@given(pos=positions(max_tricks=4))
def test_switched_off_parts_change_nothing(native: bool, transposition: bool, equivalence: bool,
                                           pos: Position) -> None:
    check_against_minimax(pos, Solver(native=native, transposition=transposition, equivalence=equivalence))


@QUICK
@given(pos=positions())
def test_the_card_values_agree_with_play(pos: Position) -> None:
    """A card's value is the trick it may complete (if the declarer takes it) plus the value after it;
    the best card's value is the position's value."""
    values = card_values(pos)
    assert set(values) == {c for c in range(32) if legal_cards(pos) >> c & 1}
    for card, value in values.items():
        after = play(pos, card)
        took = 1 if not after.trick and after.declarer_cap < pos.declarer_cap else 0
        if pos.declarer_cap == 0 or pos.side_cap == 0:
            assert value == 0
        else:
            assert value == took + solve(after)
    assert best(pos, values) == solve(pos)


@QUICK
@given(pos=positions())
def test_equivalent_cards_have_the_same_value(pos: Position) -> None:
    """Two cards of the hand on turn with no remaining card between them (every card between them was
    played in an earlier trick) are worth the same."""
    values = card_values(pos)
    present = sum(1 << c for c in pos.trick)
    for seat in pos.order:
        present |= pos.hands[seat]
    hand = [c for c in sorted(values)]
    for lo, hi in zip(hand, hand[1:], strict=False):
        if lo // 8 == hi // 8 and not any(present >> c & 1 for c in range(lo + 1, hi)):
            assert values[lo] == values[hi]


@QUICK
@given(pos=positions())
def test_tricks_of_both_sides_add_up(pos: Position) -> None:
    """Without caps the declarer's tricks and the other side's add up to the tricks left: at two seats
    the other side is one seat, so its tricks are a solve with it as declarer (the same game seen from
    the other chair, for each goal); at three seats the declarer's tricks lie between 0 and the tricks
    left."""
    free = Position(pos.hands, pos.order, pos.declarer, pos.trump, pos.to_play, pos.trick, pos.goal,
                    pos.must_trump)
    left = free.hands[free.to_play].bit_count()
    mine = solve(free)
    assert 0 <= mine <= left
    if len(free.order) == 2:
        other = next(s for s in free.order if s != free.declarer)
        theirs = solve(Position(free.hands, free.order, other, free.trump, free.to_play, free.trick, free.goal,
                                free.must_trump))
        assert mine + theirs == left


# ---------------------------------------------------------------------------------------- full deals
def deal(declarer: str, west: str, east: str) -> tuple[int, int, int]:
    return parse_cards(declarer), parse_cards(west), parse_cards(east)


TEN_TOP = deal("As Ks Qs Js 10s 9s 8s 7s Ac Ad",
               "Kc Qc Jc 10c 9c 8c 7c Kd Qd Jd",
               "10d 9d 8d 7d Ah Kh Qh Jh 10h 9h")

CLEAN_MISERE = deal("7s 8s 9s 7c 8c 9c 7d 8d 9d 7h",
                    "10s Js Qs 10c Jc Qc 10d Jd Qd 8h",
                    "Ks As Kc Ac Kd Ad 9h 10h Jh Qh")

CAUGHT_MISERE = deal("As 7c 8c 9c 7d 8d 9d 7h 8h 9h",
                     "9s 10s Js 10c Jc Qc 10d Jd Qd 10h",
                     "Qs Ks Kc Ac Kd Ad Jh Qh Kh Ah")  # the talon: ♠7 ♠8

@pytest.mark.parametrize("native", SOLVERS)
@pytest.mark.parametrize("leader", [0, 1, 2])
def test_ten_top_tricks(native: bool, leader: int) -> None:
    """The declarer holds all eight spades (trumps) and the ♣A and ♦A: the defenders have no trump, so
    each trick is won by his ace of the suit led, or by his trump once he is void in it (a heart at
    once): 10 tricks whoever leads, and on his own lead every card keeps them all."""
    pos = Position(TEN_TOP, (0, 1, 2), 0, SPADES, leader)
    solver = Solver(native=native)
    assert solver.solve(pos) == 10
    if leader == 0:
        assert solver.card_values(pos) == {c: 10 for c in range(32) if TEN_TOP[0] >> c & 1}
    # without trumps the hearts run: East (seat 2) on lead takes his six hearts, and then his
    # diamonds are low; after the ♥9 he must lead a diamond, which the declarer's ♦A takes, and the
    # declarer's other cards are all top: 4 tricks. Led by the declarer or West, East never gets in
    # (no side leads hearts, the declarer has none to lose): 10.
    assert solver.solve(Position(TEN_TOP, (0, 1, 2), 0, -1, 2)) == 4
    assert solver.solve(Position(TEN_TOP, (0, 1, 2), 0, -1, 0)) == 10


@pytest.mark.parametrize("native", SOLVERS)
@pytest.mark.parametrize("leader", [1, 2])
def test_clean_misere(native: bool, leader: int) -> None:
    """Misère (no trump): the declarer holds the three lowest spades, clubs and diamonds and the ♥7,
    each the lowest of its suit. A defender leads; whatever suit is led, the declarer follows lower
    than every defender's card of it or, void, discards, so a defender wins every trick and leads
    the next: 0 tricks."""
    pos = Position(CLEAN_MISERE, (0, 1, 2), 0, -1, leader, goal=Goal.FEWEST)
    assert Solver(native=native).solve(pos) == 0


@pytest.mark.parametrize("native", SOLVERS)
def test_caught_misere(native: bool) -> None:
    """Misère: the declarer's ♠A is bare (his other cards are the three lowest clubs, diamonds and
    hearts), both defenders hold spades, and West leads. A spade led while he still holds the ace
    must be followed with it, and nothing beats it: caught. He could throw the ace away only when
    void in a suit led, after three rounds of it, and the defenders, winning each trick, lead a spade
    before that. As a Bettel (play stops at his first trick) the value is exactly 1 whatever West
    leads; as a misère it is at least 1 (the defenders can catch him again: they discard their clubs
    and diamonds while he must follow, and then his lead after the ace may find nobody following)."""
    bettel = Position(CAUGHT_MISERE, (0, 1, 2), 0, -1, 1, goal=Goal.FEWEST, declarer_cap=1)
    solver = Solver(native=native)
    assert solver.solve(bettel) == 1
    assert solver.card_values(bettel) == {c: 1 for c in range(32) if CAUGHT_MISERE[1] >> c & 1}
    assert solver.solve(Position(CAUGHT_MISERE, (0, 1, 2), 0, -1, 1, goal=Goal.FEWEST)) >= 1


def test_impossible_positions_are_refused_in_one_line() -> None:
    good = Position(TEN_TOP, (0, 1, 2), 0, SPADES, 0)
    bad = [
        (Position(TEN_TOP[:2] + (TEN_TOP[2] & (TEN_TOP[2] - 1),), (0, 1, 2), 0, SPADES, 0), "expected 10"),
        (Position(TEN_TOP, (0, 1, 1), 0, SPADES, 0), "distinct"),
        (Position(TEN_TOP, (0, 1, 2), 3, SPADES, 0), "declarer"),
        (Position(TEN_TOP, (0, 1, 2), 0, 5, 0), "trump"),
        (Position((TEN_TOP[0], TEN_TOP[0], TEN_TOP[2]), (0, 1, 2), 0, SPADES, 0), "twice"),
        (Position(TEN_TOP, (0, 1, 2), 0, SPADES, 1, trick=(24,)), "expected 9"),
    ]
    assert solve(good) == 10
    for pos, word in bad:
        with pytest.raises(SolverError, match=word) as err:
            solve(pos)
        assert isinstance(err.value, PreflogError) and "\n" not in str(err.value)
    with pytest.raises(SolverError, match="cannot play"):
        play(good, parse_cards("Ah").bit_length() - 1)


def test_native_required() -> None:
    """CI builds the compiled search and sets PREFLOG_REQUIRE_NATIVE=1: then it must have loaded."""
    if os.environ.get("PREFLOG_REQUIRE_NATIVE") == "1":
        assert NATIVE, "the compiled search (preflog/solver/_dd.c) did not load"
        assert Solver().native
