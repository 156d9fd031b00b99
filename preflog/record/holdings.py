"""Who holds which card while a deal is read or written, so that play lines need no player names."""

from __future__ import annotations

from preflog.model.cards import FULL_DECK

# the cards of each byte of a card mask: _BYTE_CARDS[k][m] = cards 8k … 8k+7 whose bits are set in m
_BYTE_CARDS = [[tuple(8 * k + c for c in range(8) if m >> c & 1) for m in range(256)] for k in range(4)]


def cards_in(mask: int) -> tuple[int, ...]:
    b0, b1, b2, b3 = _BYTE_CARDS
    return b0[mask & 255] + b1[mask >> 8 & 255] + b2[mask >> 16 & 255] + b3[mask >> 24]


class Holdings:
    """Who holds which card during a deal, so that play lines need no player names."""

    def __init__(self, hands: tuple[int, ...] | None, talon: int | None, owner: list[int] | None = None) -> None:
        self.hands = list(hands) if hands is not None else None
        union = 0
        for h in hands or ():
            union |= h
        # Unrecorded talon of a dealt hand = the cards in nobody's hand.
        self.talon = talon if talon is not None else (FULL_DECK & ~union if hands is not None else 0)
        self.played = 0
        self.discarded = 0
        # card -> seat, kept in step with ``hands``; equals holder() whenever hands are disjoint,
        # which the reader guarantees (the writer, given arbitrary events, uses holder() only)
        if owner is not None:  # the reader's, made as it read the hands (disjoint)
            self.owner = owner
            return
        owner = self.owner = [-1] * 32
        for seat, h in enumerate(self.hands or ()):
            while h:
                low = h & -h
                c = low.bit_length() - 1
                if owner[c] < 0:
                    owner[c] = seat
                h ^= low

    def holder(self, card: int) -> int:
        for seat, h in enumerate(self.hands or ()):
            if h >> card & 1:
                return seat
        return -1

    def why_not_held(self, card: int) -> str:
        bit = 1 << card
        if self.played & bit:
            return "was already played"
        if self.discarded & bit:
            return "was discarded"
        if self.talon & bit:
            return "is in the talon, not in a hand"
        return "is in nobody's hand"

    def discard(self, seat: int, mask: int) -> int:
        """Move the talon into ``seat``'s hand and drop ``mask``; returns a card not held, or -1."""
        if self.hands is None:
            return -1
        pool = self.hands[seat] | self.talon
        missing = mask & ~pool
        if missing:
            return (missing & -missing).bit_length() - 1  # the lowest card not held
        self.hands[seat] = pool & ~mask
        owner = self.owner
        for c in cards_in(self.talon):
            owner[c] = seat
        for c in cards_in(mask):
            owner[c] = -1
        self.talon = 0
        self.discarded |= mask
        return -1

    def play(self, card: int) -> int:
        seat = self.holder(card)
        if seat >= 0:
            assert self.hands is not None
            self.hands[seat] &= ~(1 << card)
            self.played |= 1 << card
            self.owner[card] = -1
        return seat


class DealReading:
    def __init__(self, cards: Holdings, dealer: int) -> None:
        self.cards = cards
        self.dealer = dealer
        self.current: int | None = None   # highest bid so far, for "hold"
        self.bidder: int | None = None    # who made it (the declarer, for a discard without a name)
        self.trick_no = 0
        self.last_trick = -1  # mask of the seats that played to the last trick line; -1 after another step
        self.marked = 0

