"""The one trick-play kernel ("розыгрыш"), shared by both families and by bulk replay.

:class:`TrickPlay` holds the hands as card bitmasks and the trick in progress, and plays cards
through one loop, :meth:`TrickPlay.play_cards`: follow suit, trump when void (``must_trump``),
the trick's winner, three-handed or two-handed tricks (the Croatian passer who was not invited
sits out), the talon-led tricks of open raspasy (the talon card leads, at four players for the
sitting-out dealer) and the stop rule (the Croatian stop at the defenders' fifth trick, a flat
Bettel at the declarer's first). Replay hands it whole runs of card rows; a single card is a run
of one. The loop stops before a card that is not plainly legal, and :meth:`TrickPlay.verify_card`
then names the rule it breaks, so every finding is the one live play would give. With the compiled
kernel the loop itself runs in C (``_tricks.c``: the same steps on 64-bit ints, handed the state and
writing it back); the ``.py`` loop is its reference and runs otherwise (``PREFLOG_PURE=1``).

Cards are ints 0..31 (``suit * 8 + rank``); a suit's cards are ``SUIT_MASKS[suit]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from typing import ClassVar
from typing import Final

from mypy_extensions import i64

from .. import _native
from ..model.cards import SUIT_MASKS
from ..model.cards import format_card
from ..model.cards import format_cards
from ..model.columns import RowColumns
from ..model.events import CardPlayed
from ..model.outcome import NO_SEAT
from .codes import Code
from .findings import IllegalAction
from .findings import seat_name

N_TRICKS: Final = 10
"""Tricks in a deal."""

_CARD: Final = CardPlayed.CODE
_NEVER: Final = N_TRICKS + 1   # a trick cap that never stops play

try:
    from . import _tricks  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # not built (no compiler at install time): the loop below
    _tricks = None

BUILT: Any = _tricks
"""The compiled card loop (``_tricks.c``, plain CPython C API) when it is built, else None."""
CARD_LOOP: Any = BUILT if _native.NATIVE else None
"""The card loop :meth:`TrickPlay.play_cards` runs: the compiled one with the compiled kernel (all or nothing,
as :mod:`preflog._native` decides; ``PREFLOG_PURE=1`` runs neither), else None: the ``.py`` loop, the reference."""


def playable(hand: int, led: int, trump_mask: int) -> int:
    """The cards of ``hand`` that may go to a trick whose suit led is ``led`` (-1: none yet, any card): the
    suit led, else, void in it, the trump suit (``trump_mask``: its cards when the rules say ``must_trump``,
    else 0), else any card. The one follow-suit rule: :meth:`TrickPlay.legal_cards` and the bots' look-ahead
    (:func:`preflog.sim.cardplay.legal`) ask it; the card loops apply it card by card."""
    if led < 0:
        return hand
    m = hand & SUIT_MASKS[led]
    if m:
        return m
    m = hand & trump_mask
    return m if m else hand


def _cards_text(mask: int) -> str:
    return format_cards(mask) or "-"


def _take_off(hands: list[int], played: int) -> None:
    """Take the cards ``played`` off every hand that holds some of them."""
    if played:
        for s in range(len(hands)):
            h = hands[s]
            if h & played:
                hands[s] = h & ~played


class TrickPlay:
    """Trick-play state and the kernel loop; deal machines inherit it and call :meth:`start_tricks`.

    The subclass provides ``phase`` (play runs while it equals :attr:`PLAYING`) and
    :meth:`_tricks_over`, called once when play ends (10 tricks, or a stop).
    """

    PLAYING: ClassVar[int] = -1   # overridden by the deal: the phase value during play
    hands: list[int]
    tricks: list[int]
    phase: int

    # play state: set to its starting values by _init_tricks (a new deal, or one reopened), then by
    # start_tricks and play
    trump: int
    completed: int                      # tricks finished
    to_play: int
    first_hand: int
    _led: int                           # suit led in the trick in progress (-1: none yet)
    _best: int                          # best card of the trick so far (-1: none)
    _best_seat: int
    _next: list[int]                    # seat after each seat in play order
    _trick_len: int
    _tmask: int                         # the trump suit's mask under must_trump, else 0
    _talon: int | None
    _talon_tricks: int                  # open raspasy: the first tricks are led by the talon's cards
    _talon_order: tuple[int, int] | None
    _talon_owner: int                   # who takes a talon card nobody beats (the 4-player dealer)
    _third_lead_winner: bool            # after the talon tricks the last winner leads (raspasy_third_lead)
    _stops: bool                        # play may stop before 10 tricks
    _stop_seat: int                     # the declarer, whose tricks the caps count
    names: Sequence[str] | None = None  # the players' names, for findings
    _declarer_cap: int                  # stop when the declarer has this many tricks
    _side_cap: int                      # stop when the defenders have this many tricks

    def who(self, seat: int) -> str:
        """A seat as findings name it (:func:`~preflog.engine.findings.seat_name`)."""
        return seat_name(self.names, seat)

    def _init_tricks(self, n_players: int, again: bool = False) -> None:
        """The play state before the first card: every field :meth:`start_tricks` and play change (``again``:
        the lists of the object's last deal at this table are emptied in place)."""
        if again:
            tricks = self.tricks
            for s in range(n_players):
                tricks[s] = 0
            if self.trick_cards:   # (empty at the end of a played deal: no call then)
                self.trick_cards.clear()
            if self.trick_seats:
                self.trick_seats.clear()
            self.trick_winners.clear()
        else:
            self.tricks = [0] * n_players
            self.trick_cards: list[int] = []    # cards of the current trick, in play order
            self.trick_seats: list[int] = []
            self.trick_winners: list[int] = []  # NO_SEAT for a raspasy talon trick nobody took
        self.trump = -1
        self.completed = 0
        self.to_play = NO_SEAT
        self._led = -1
        self._best = -1
        self._best_seat = NO_SEAT
        self._trick_len = 3
        self._tmask = 0
        self._talon_tricks = 0
        self._talon_order = None
        self._talon_owner = NO_SEAT
        self._third_lead_winner = False
        self._stops = False
        self._stop_seat = NO_SEAT
        self._declarer_cap = _NEVER
        self._side_cap = _NEVER

    def start_tricks(self, leader: int, trump: int, must_trump: bool, *, talon_tricks: int = 0,
                     talon_owner: int = NO_SEAT, third_lead_winner: bool = False, stop_seat: int = NO_SEAT,
                     declarer_cap: int = _NEVER, side_cap: int = _NEVER) -> None:
        """Begin play: ``leader`` leads to the first trick (to talon tricks: plays first)."""
        self.trump = trump
        self._tmask = SUIT_MASKS[trump] if trump >= 0 and must_trump else 0
        self.to_play = leader
        self._talon_tricks = talon_tricks
        self._talon_owner = talon_owner
        self._third_lead_winner = third_lead_winner
        if declarer_cap < _NEVER or side_cap < _NEVER:
            self._stops = True
            self._stop_seat, self._declarer_cap, self._side_cap = stop_seat, declarer_cap, side_cap
        if talon_tricks and self._talon_order is not None:
            self._lead_talon_card()

    def two_handed(self, a: int, b: int) -> None:
        """Tricks of two cards between seats ``a`` and ``b`` (the third player's cards lie face down)."""
        self._next[a], self._next[b] = b, a
        self._trick_len = 2

    # ------------------------------------------------------------------ the trick in progress (read-only)
    @property
    def suit_led(self) -> int:
        """Suit of the trick in progress: the first card's, or the leading talon card's; -1 before the lead."""
        return self._led

    @property
    def winning(self) -> tuple[int, int]:
        """(card, seat) winning the trick in progress so far; (-1, NO_SEAT) while nobody does (before the
        lead, or a raspasy talon card that nobody has followed at three players)."""
        return self._best, self._best_seat

    @property
    def talon_tricks(self) -> int:
        """How many of the first tricks a talon card leads (open raspasy: 2; else 0)."""
        return self._talon_tricks

    @property
    def talon_owner(self) -> int:
        """Who takes a leading talon card that nobody beats (the 4-player dealer; NO_SEAT: nobody)."""
        return self._talon_owner

    @property
    def stop_caps(self) -> tuple[int, int]:
        """(the declarer's tricks, the other side's tricks) at which play stops before 10 tricks;
        ``N_TRICKS + 1`` = never (for analysis, which plays positions on with a solver)."""
        return (self._declarer_cap, self._side_cap) if self._stops else (_NEVER, _NEVER)

    def next_seat(self, seat: int) -> int:
        """The seat that plays after ``seat`` in this deal's tricks (NO_SEAT for a seat out of play)."""
        return self._next[seat]

    # ------------------------------------------------------------------ the talon of open raspasy
    def _talon_suits(self) -> int:
        talon = self._talon or 0
        return SUIT_MASKS[((talon & -talon).bit_length() - 1) >> 3] | SUIT_MASKS[(talon.bit_length() - 1) >> 3]

    def _fix_talon_order(self, first_card: int) -> None:
        """The talon card turned first is the one whose suit the first card follows, else the lower card."""
        talon = self._talon or 0
        lo = (talon & -talon).bit_length() - 1
        hi = talon.bit_length() - 1
        first = hi if (first_card >> 3 == hi >> 3 and lo >> 3 != hi >> 3) else lo
        self._talon_order = (first, hi if first == lo else lo)

    def _lead_talon_card(self) -> None:
        assert self._talon_order is not None
        tc = self._talon_order[self.completed]
        self._led = tc >> 3
        owner = self._talon_owner
        self._best, self._best_seat = (tc, owner) if owner != NO_SEAT else (-1, NO_SEAT)

    # ------------------------------------------------------------------ checks
    def legal_cards(self, seat: int) -> int:
        """Mask of the cards ``seat`` may play now (0 if it is not his turn)."""
        if self.phase != self.PLAYING or seat != self.to_play:
            return 0
        hand = self.hands[seat]
        led = self._led
        if self.trick_cards or self._talon_tricks > self.completed:
            if led < 0:  # open-talon trick 1 before the talon order is known: either talon suit follows
                return hand & self._talon_suits() or hand
            return playable(hand, led, self._tmask)
        return hand

    def verify_card(self, seat: int, card: int) -> None:
        """Raise :class:`IllegalAction` naming the rule if ``seat`` may not play ``card`` now (play phase)."""
        if seat != self.to_play:
            raise IllegalAction(Code.CARD_OUT_OF_TURN, f"{self.who(seat)} plays out of turn; "
                                f"{self.who(self.to_play)} is to "
                                "play", seat=seat)
        if not 0 <= card < 32:
            raise IllegalAction(Code.BAD_CARD, f"card code {card} is not a card", seat=seat)
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise IllegalAction(Code.CARD_NOT_HELD, f"{self.who(seat)} does not hold {format_card(card)}", seat=seat)
        led = self._led
        if (self.trick_cards or self._talon_tricks > self.completed) and led >= 0:
            s = card >> 3
            if s != led:
                if hand & SUIT_MASKS[led]:
                    raise IllegalAction(Code.MUST_FOLLOW_SUIT, f"{self.who(seat)} plays {format_card(card)} but holds "
                                        f"{format_cards(hand & SUIT_MASKS[led])} of the suit led", seat=seat)
                t = self.trump
                if s != t and hand & self._tmask:
                    raise IllegalAction(Code.MUST_TRUMP, f"{self.who(seat)} is void in the suit led and must trump "
                                        "with "
                                        f"{format_cards(hand & SUIT_MASKS[t])}, not play {format_card(card)}",
                                        seat=seat)
        elif led < 0 and self._talon_tricks > self.completed:
            suits = self._talon_suits()
            if not (1 << card) & suits and hand & suits:
                raise IllegalAction(Code.MUST_FOLLOW_SUIT, f"{self.who(seat)} plays {format_card(card)} but holds a "
                                    f"card of the suit of the talon ({_cards_text(self._talon or 0)})", seat=seat)

    # ------------------------------------------------------------------ the loop
    def play_cards(self, rows: RowColumns, i: int, end: int) -> int:
        """Play the card rows ``i:end`` of the columns ``rows`` in a row; return the index of the first row
        not played.

        Stops at the first row that is not a card, once play is over, and before any card that is
        not legal (wrong seat, not held, not following suit, not trumping): :meth:`verify_card`
        names that one's rule.
        """
        if self.phase != self.PLAYING:
            return i
        loop = CARD_LOOP
        if loop is not None:
            return self._play_compiled(loop, rows, i, end)
        hands = self.hands
        tricks = self.tricks
        winners = self.trick_winners
        nxt = self._next
        trump: i64 = self.trump
        tmask: i64 = self._tmask
        tlen = self._trick_len
        talon_n = self._talon_tricks
        seat = self.to_play
        led: i64 = self._led
        best: i64 = self._best
        bseat = self._best_seat
        completed = self.completed
        suit_masks = SUIT_MASKS     # (a local: one lookup per run, not per card)
        k = len(self.trick_cards)   # cards in the trick so far
        start = i                   # first row of the current trick inside this run
        codes, players, cards = rows.code, rows.player, rows.card
        j = i
        played: i64 = 0             # cards played in this run, taken off ``hands`` at its end (or before a
                                    # call that reads them): one stored hand per seat, not one per card
        while j < end:
            if codes[j] != _CARD or players[j] != seat:
                break
            c = cards[j]
            if c < 0 or c > 31:      # not a card: the step names the rule
                break
            card: i64 = c            # (machine words from here: the compiled loop does no tagged-int checks)
            hand: i64 = hands[seat]
            hand &= ~played
            if not hand >> card & 1:
                break
            s: i64 = card >> 3
            if led < 0 and completed < talon_n:      # open raspasy, trick 1: this card fixes the talon order
                if not (1 << card) & self._talon_suits() and hand & self._talon_suits():
                    break                            # must follow a suit of the talon
                self.completed = completed
                _take_off(hands, played)
                played = 0
                self._fix_talon_order(card)
                self._lead_talon_card()
                led, best, bseat = self._led, self._best, self._best_seat
            if led < 0:
                led, best, bseat = s, card, seat     # the lead
            elif s == led:
                if best < 0 or (card > best and best >> 3 == s):
                    best, bseat = card, seat
            elif hand & suit_masks[led]:
                break                                # must follow suit
            elif s == trump:
                if best >> 3 != s or card > best:
                    best, bseat = card, seat
            elif hand & tmask:
                break                                # must trump (tmask is 0 when there is nothing to check)
            played |= 1 << card
            j += 1
            k += 1
            if k < tlen:
                seat = nxt[seat]
                continue
            # the trick is complete
            winners.append(bseat)
            if bseat != NO_SEAT:
                tricks[bseat] = tricks[bseat] + 1   # (not ``+=``: mypyc compiles that to a generic add)
            completed += 1
            k, start = 0, j
            if completed == N_TRICKS or (self._stops and (
                    tricks[self._stop_seat] >= self._declarer_cap
                    or completed - tricks[self._stop_seat] >= self._side_cap)):
                self.trick_cards = []
                self.trick_seats = []
                self.completed = completed
                self._led, self._best, self._best_seat = -1, -1, NO_SEAT
                _take_off(hands, played)
                self._tricks_over()
                return j
            if completed < talon_n:                  # the next talon card leads
                seat = self.first_hand
                self.completed = completed
                _take_off(hands, played)
                played = 0
                self._lead_talon_card()
                led, best, bseat = self._led, self._best, self._best_seat
                continue
            if completed == talon_n:                 # after the talon tricks: first hand (or the last winner)
                seat = bseat if self._third_lead_winner and bseat != NO_SEAT else self.first_hand
            else:
                seat = bseat
            led, best, bseat = -1, -1, NO_SEAT
        if j > i:
            _take_off(hands, played)
            self._open_trick(cards, players, i, start, j)
            self.to_play, self._led, self._best, self._best_seat = seat, led, best, bseat
            self.completed = completed
        return j

    def _open_trick(self, cards: list[int], players: list[int], i: int, start: int, j: int) -> None:
        """After a run of rows ``i:j``: the trick still open holds rows ``start:j`` (and, when no trick was
        completed in the run, the cards it held before)."""
        if start > i:   # a trick was completed in this run: the open one began at ``start``
            self.trick_cards = cards[start:j]
            self.trick_seats = players[start:j]
        else:
            self.trick_cards = self.trick_cards + cards[start:j]
            self.trick_seats = self.trick_seats + players[start:j]

    def _play_compiled(self, loop: Any, rows: RowColumns, i: int, end: int) -> int:
        """:meth:`play_cards` by the compiled card loop (``_tricks.c``): the same loop in C on this state (the
        hands, trick counts and winners lists updated in place), its scalars written back here. The scalars
        travel packed into two machine words and come back in one, by the one table of their layout
        (``LAYOUT`` in :mod:`preflog.engine.cardloop_layout`, from which ``_tricks_layout.h`` is generated;
        tests/engine/test_card_loop_layout.py holds these shifts to it): every seat is -1..3, every card
        -1..31, the talon's order -2..31, counts and caps 0..11, the talon 32 bits."""
        order = self._talon_order
        first: i64 = order[0] + 2 if order is not None else 0
        second: i64 = order[1] + 2 if order is not None else 0
        talon: i64 = self._talon or 0
        setup: i64 = ((self.trump + 1) | (8 if self._tmask else 0) | self._trick_len << 4 | self._talon_tricks << 6
                      | (self._talon_owner + 1) << 8 | (2048 if self._third_lead_winner else 0)
                      | (4096 if self._stops else 0) | (self._stop_seat + 1) << 13 | self._declarer_cap << 16
                      | self._side_cap << 20 | (self.first_hand + 1) << 24 | talon << 27)
        state: i64 = ((self.to_play + 1) | (self._led + 1) << 3 | (self._best + 1) << 6 | (self._best_seat + 1) << 12
                      | self.completed << 15 | len(self.trick_cards) << 19 | first << 21 | second << 27)
        r: tuple[int, int, int] = loop.run(rows.code, rows.player, rows.card, i, end, self.hands, self.tricks,
                                           self.trick_winners, self._next, _CARD, setup, state)
        j, start, back = r
        out: i64 = back
        completed = int(out >> 15 & 15)
        first = (out >> 21 & 63) - 2
        if first != -2:
            self._talon_order = (int(first), int((out >> 27 & 63) - 2))
        if out >> 19 & 1:   # play is over
            self.trick_cards = []
            self.trick_seats = []
            self.completed = completed
            self._led, self._best, self._best_seat = -1, -1, NO_SEAT
            self._tricks_over()
            return j
        if j > i:
            self._open_trick(rows.card, rows.player, i, start, j)
            self.to_play = int((out & 7) - 1)
            self.completed = completed
        # (with no card taken these are unchanged, or the leading talon card's: the .py loop sets them then too)
        self._led, self._best, self._best_seat = int((out >> 3 & 7) - 1), int((out >> 6 & 63) - 1), \
            int((out >> 12 & 7) - 1)
        return j

    def take_claimed(self, tricks: Sequence[int]) -> None:
        """The remaining tricks, agreed per seat without play: added to the counts; play is over."""
        for s, t in enumerate(tricks):
            self.tricks[s] = self.tricks[s] + t
        self.completed += sum(tricks)
        self.trick_cards = []
        self.trick_seats = []

    def play_card(self, seat: int, card: int) -> bool:
        """Play one card in the play phase if it is legal; False (and nothing changes) if it is not."""
        return self.play_cards(RowColumns([_CARD], [seat], [card], [0], [None]), 0, 1) == 1

    def _tricks_over(self) -> None:
        raise NotImplementedError
