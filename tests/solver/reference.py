"""A plain minimax over every legal card, written only for the tests: no table, no reduction, no
pruning, no shared code with the solver (its own rules of play), and a hypothesis strategy drawing
positions from random deals and random legal play prefixes."""

from __future__ import annotations

from hypothesis import strategies as st

from preflog.solver import Goal
from preflog.solver import Position

SUITS = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def _legal(hand: int, trick: list[int], trump: int, must_trump: bool) -> list[int]:
    if trick:
        follow = [c for c in _cards(hand) if c // 8 == trick[0] // 8]
        if follow:
            return follow
        if must_trump and trump >= 0:
            ruffs = [c for c in _cards(hand) if c // 8 == trump]
            if ruffs:
                return ruffs
    return _cards(hand)


def _winner(trick: list[int], trump: int) -> int:
    """Index of the winning card: the highest trump, else the highest card of the suit led."""
    def strength(c: int) -> int:
        if c // 8 == trump:
            return 100 + c % 8
        if c // 8 == trick[0] // 8:
            return c % 8
        return -1
    return max(range(len(trick)), key=lambda j: strength(trick[j]))


def _next(order: tuple[int, ...], seat: int) -> int:
    return order[(order.index(seat) + 1) % len(order)]


def minimax_values(pos: Position) -> dict[int, int]:
    """Every legal card of the seat on turn → the declarer's tricks from here if it is played."""
    hands = list(pos.hands)
    order = pos.order

    def after(seat: int, card: int, trick: list[int], dc: int, sc: int) -> int:
        hands[seat] &= ~(1 << card)
        now = [*trick, card]
        if len(now) == len(order):
            leader = order[(order.index(seat) + 1) % len(order)]
            winner = order[(order.index(leader) + _winner(now, pos.trump)) % len(order)]
            if winner == pos.declarer:
                v = 1 + value(winner, [], dc - 1, sc)
            else:
                v = value(winner, [], dc, sc - 1)
        else:
            v = value(_next(order, seat), now, dc, sc)
        hands[seat] |= 1 << card
        return v

    def value(seat: int, trick: list[int], dc: int, sc: int) -> int:
        if dc <= 0 or sc <= 0 or not hands[seat]:
            return 0
        vals = [after(seat, c, trick, dc, sc) for c in _legal(hands[seat], trick, pos.trump, pos.must_trump)]
        wants_most = (seat == pos.declarer) == (pos.goal == Goal.MOST)
        return max(vals) if wants_most else min(vals)

    if pos.declarer_cap <= 0 or pos.side_cap <= 0:
        return dict.fromkeys(_legal(hands[pos.to_play], list(pos.trick), pos.trump, pos.must_trump), 0)
    return {c: after(pos.to_play, c, list(pos.trick), pos.declarer_cap, pos.side_cap)
            for c in _legal(hands[pos.to_play], list(pos.trick), pos.trump, pos.must_trump)}


def minimax(pos: Position) -> int:
    """The declarer's tricks from here with perfect play on both sides."""
    vals = minimax_values(pos).values()
    wants_most = (pos.to_play == pos.declarer) == (pos.goal == Goal.MOST)
    if not vals:
        return 0
    return max(vals) if wants_most else min(vals)


@st.composite
def positions(draw: st.DrawFn, max_tricks: int = 5, min_tricks: int = 1, misere: bool = False,
              max_prefix: int | None = None, seats: tuple[int, ...] = (3, 3, 2)) -> Position:
    """A random deal of min_tricks..max_tricks cards a hand to 2 or 3 of 3 or 4 seats (the rest of the
    pack partly given to the seats out of play), a random contract (with ``misere``: fewest tricks, no
    trump), then a random legal play prefix (at most ``max_prefix`` cards) that may stop inside a
    trick; ``seats`` are the numbers of seats in play to draw from."""
    n_seats = draw(st.sampled_from((3, 4)))
    m = draw(st.sampled_from(seats))
    order_seats = draw(st.permutations(range(n_seats)))
    order = tuple(order_seats[:m])
    n = draw(st.integers(min_tricks, max_tricks))
    deck = draw(st.permutations(range(32)))
    hands = [0] * n_seats
    for j, seat in enumerate(order):
        for c in deck[j * n:(j + 1) * n]:
            hands[seat] |= 1 << c
    for seat in order_seats[m:]:  # a seat out of play holds a few cards of its own, never looked at
        for c in deck[m * n: m * n + draw(st.integers(0, 3))]:
            hands[seat] |= 1 << c
    trump = -1 if misere else draw(st.integers(-1, 3))
    must_trump = draw(st.sampled_from((True, True, True, False)))
    declarer = draw(st.sampled_from(order))
    goal = Goal.FEWEST if misere else draw(st.sampled_from((Goal.MOST, Goal.FEWEST)))
    dcap = draw(st.sampled_from((99, 99, 1, 2, 3)))
    scap = draw(st.sampled_from((99, 99, 1, 2, 3)))
    seat = draw(st.sampled_from(order))
    trick: list[int] = []
    for _ in range(draw(st.integers(0, m * n - 1 if max_prefix is None else min(max_prefix, m * n - 1)))):
        card = draw(st.sampled_from(_legal(hands[seat], trick, trump, must_trump)))
        hands[seat] &= ~(1 << card)
        trick.append(card)
        if len(trick) == len(order):
            leader = _next(order, seat)
            winner = order[(order.index(leader) + _winner(trick, trump)) % m]
            if winner == declarer:
                dcap = max(0, dcap - 1)
            else:
                scap = max(0, scap - 1)
            seat = winner
            trick = []
        else:
            seat = _next(order, seat)
    return Position(hands=tuple(hands), order=order, declarer=declarer, trump=trump, to_play=seat,
                    trick=tuple(trick), goal=goal, must_trump=must_trump, declarer_cap=dcap, side_cap=scap)
