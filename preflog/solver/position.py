"""Positions of the double-dummy solver: what is on the table, whose turn, what each side wants.

A :class:`Position` is the whole state the search needs, with every card visible ("double dummy"):
the hands (card bitmasks indexed by the deal's seat numbers), the seats in play in play order, the
seat whose tricks are counted (the declarer), the trump suit, who is on turn and the cards already
played to the current trick. :class:`Goal` says which way the declarer plays: for as many tricks as
he can (trick contracts) or as few (misère, Bettel, the paranoid bound of a raspasy player). The two
caps stop play early, as the Croatian rules do (Bettel ends at the declarer's first trick; a trick
contract ends when the defenders reach their fifth).

:func:`legal_cards` and :func:`play` apply the rules of play (follow suit; if void, trump when
``must_trump``; the highest trump, else the highest card of the suit led, wins the trick and leads
the next). :func:`check` raises :class:`SolverError` on a position that cannot arise in play.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from dataclasses import replace

from ..errors import PreflogError
from ..model.cards import FULL_DECK
from ..model.cards import SUIT_MASKS
from ..model.cards import format_card

MAX_TRICKS = 15  # the compiled search's table holds trick counts in 4 bits (a preferans hand has 10 cards)


class SolverError(PreflogError):
    """A position the solver cannot search: it cannot arise in play (the message says why)."""


class Goal(enum.IntEnum):
    """Which way the declarer plays: the value is always the declarer's tricks."""

    MOST = 0    # trick contracts: the declarer takes as many tricks as he can, the defenders as few
    FEWEST = 1  # misère, Bettel, a raspasy player's paranoid bound: the declarer wants as few tricks
    #             as he can, the other side gives him as many ("catching the misère")


@dataclass(frozen=True, slots=True)
class Position:
    """One position of the card play, every hand visible.

    ``hands`` holds a card bitmask per seat, indexed by seat (3 or 4 seats; a seat out of play may
    hold anything, it is never looked at). ``order`` lists the seats in play in play order (2 or 3:
    the seat after ``order[i]`` is ``order[i + 1]``, the last is followed by the first). ``trick``
    holds the cards already played to the current trick by the seats before ``to_play``. The caps
    count tricks *from here*: play stops once the declarer has taken ``declarer_cap`` more tricks or
    the other side ``side_cap`` more (:func:`play` lowers them as tricks are taken).
    """

    hands: tuple[int, ...]
    order: tuple[int, ...]
    declarer: int
    trump: int
    to_play: int
    trick: tuple[int, ...] = ()
    goal: Goal = Goal.MOST
    must_trump: bool = True
    declarer_cap: int = 99
    side_cap: int = 99


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best`` (the card winning it so far)."""
    if card >> 3 == best >> 3:
        return card > best
    return card >> 3 == trump


def trick_winner(cards: tuple[int, ...], trump: int) -> int:
    """Index in ``cards`` (in play order) of the card that wins the trick."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def _cards(mask: int) -> str:
    out = []
    while mask:
        low = mask & -mask
        out.append(format_card(low.bit_length() - 1))
        mask ^= low
    return " ".join(out)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_ints(xs: object) -> bool:
    return isinstance(xs, tuple) and all(_is_int(x) for x in xs)


def _check_types(pos: Position) -> None:
    """Every field of the type it is declared with (a bool or a float is not a seat, a goal or a cap)."""
    if not _is_ints(pos.hands) or not _is_ints(pos.order) or not _is_ints(pos.trick):
        raise SolverError("solver: hands, order and trick are tuples of ints")
    for name in ("declarer", "trump", "to_play", "declarer_cap", "side_cap"):
        if not _is_int(getattr(pos, name)):
            raise SolverError(f"solver: {name} must be an int, got {getattr(pos, name)!r}")
    if not isinstance(pos.goal, int) or isinstance(pos.goal, bool) or pos.goal not in (Goal.MOST, Goal.FEWEST):
        raise SolverError(f"solver: goal must be Goal.MOST or Goal.FEWEST, got {pos.goal!r}")
    if not isinstance(pos.must_trump, bool):
        raise SolverError(f"solver: must_trump must be a bool, got {pos.must_trump!r}")


def check(pos: Position) -> None:
    """Raise :class:`SolverError` if ``pos`` cannot arise in play or is not what its fields mean (a goal
    outside :class:`Goal`, a seat, trump suit or cap out of range, a value of the wrong type); return
    quietly otherwise. Both searches rely on it: the compiled one keys its table on these values."""
    _check_types(pos)
    hands, order = pos.hands, pos.order
    if len(hands) not in (3, 4):
        raise SolverError(f"solver: a deal has 3 or 4 seats, got {len(hands)} hands")
    if len(order) not in (2, 3) or len(set(order)) != len(order):
        raise SolverError(f"solver: 2 or 3 distinct seats play, got order {order}")
    for seat in order:
        if not 0 <= seat < len(hands):
            raise SolverError(f"solver: seat {seat} in the play order is not a seat of the deal")
    if pos.declarer not in order:
        raise SolverError(f"solver: declarer seat {pos.declarer} is not in the play order {order}")
    if pos.to_play not in order:
        raise SolverError(f"solver: seat {pos.to_play} to play is not in the play order {order}")
    if not -1 <= pos.trump <= 3:
        raise SolverError(f"solver: trump must be a suit 0..3 or -1 (no trump), got {pos.trump}")
    if pos.declarer_cap < 0 or pos.side_cap < 0:
        raise SolverError("solver: the caps count tricks still to take and cannot be negative")
    if len(pos.trick) >= len(order):
        raise SolverError(f"solver: a trick of {len(order)} seats cannot hold {len(pos.trick)} cards")
    seen = 0
    for seat in order:
        h = hands[seat]
        if h < 0 or h & ~FULL_DECK:
            raise SolverError(f"solver: seat {seat}'s hand is not a set of the 32 cards")
        if h & seen:
            raise SolverError(f"solver: {_cards(h & seen)} held twice")
        seen |= h
    for c in pos.trick:
        if not 0 <= c < 32:
            raise SolverError(f"solver: {c} is not a card (0..31)")
        if seen >> c & 1:
            raise SolverError(f"solver: {format_card(c)} is on the table and in a hand")
        seen |= 1 << c
    m = len(order)
    at = order.index(pos.to_play)
    played = [order[(at - len(pos.trick) + j) % m] for j in range(len(pos.trick))]
    size = hands[pos.to_play].bit_count()
    if size > MAX_TRICKS:
        raise SolverError(f"solver: at most {MAX_TRICKS} cards a hand, seat {pos.to_play} holds {size}")
    for seat in order:
        want = size - 1 if seat in played else size
        if hands[seat].bit_count() != want:
            raise SolverError(
                f"solver: seat {seat} holds {hands[seat].bit_count()} cards, expected {want}: every hand must "
                "hold the same number of cards once the current trick is complete")
    if pos.trick:
        led = pos.trick[0] >> 3
        for seat, c in zip(played[1:], pos.trick[1:], strict=True):
            h = hands[seat]
            if c >> 3 != led and h & SUIT_MASKS[led]:
                raise SolverError(f"solver: seat {seat} played {format_card(c)} holding the suit led")
            if (pos.must_trump and pos.trump >= 0 and c >> 3 not in (led, pos.trump)
                    and h & SUIT_MASKS[pos.trump]):
                raise SolverError(f"solver: seat {seat} played {format_card(c)} void in the suit led, holding trumps")


def follow(hand: int, led: int, trump: int, must_trump: bool) -> int:
    """The cards of ``hand`` that may be played to a trick whose suit led is ``led`` (-1: on the lead): the
    suit led if the hand has it, else a trump when ``must_trump`` and it has one, else any card."""
    if led < 0:
        return hand
    m = hand & SUIT_MASKS[led]
    if m:
        return m
    if must_trump and trump >= 0:
        m = hand & SUIT_MASKS[trump]
        if m:
            return m
    return hand


def _legal(pos: Position) -> int:
    return follow(pos.hands[pos.to_play], pos.trick[0] >> 3 if pos.trick else -1, pos.trump, pos.must_trump)


def legal_cards(pos: Position) -> int:
    """Bitmask of the cards ``pos.to_play`` may play: the suit led if he has it, else a trump when
    ``must_trump`` and he has one, else any card; on the lead any card."""
    check(pos)
    return _legal(pos)


def play(pos: Position, card: int) -> Position:
    """The position after ``pos.to_play`` plays ``card``. A completed trick is taken by its winner,
    who leads the next, and lowers the cap of the side that took it (never below 0)."""
    check(pos)
    if not 0 <= card < 32 or not _legal(pos) >> card & 1:
        what = format_card(card) if 0 <= card < 32 else str(card)
        raise SolverError(f"solver: seat {pos.to_play} cannot play {what} here (legal: {_cards(_legal(pos))})")
    hands = list(pos.hands)
    hands[pos.to_play] &= ~(1 << card)
    order = pos.order
    m = len(order)
    trick = (*pos.trick, card)
    at = order.index(pos.to_play)
    if len(trick) < m:
        return replace(pos, hands=tuple(hands), to_play=order[(at + 1) % m], trick=trick)
    leader_at = (at + 1) % m  # the seat after the last to play led this trick
    winner = order[(leader_at + trick_winner(trick, pos.trump)) % m]
    dcap, scap = pos.declarer_cap, pos.side_cap
    if winner == pos.declarer:
        dcap = max(0, dcap - 1)
    else:
        scap = max(0, scap - 1)
    return replace(pos, hands=tuple(hands), to_play=winner, trick=(), declarer_cap=dcap, side_cap=scap)
