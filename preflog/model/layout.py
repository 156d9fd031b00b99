"""A deal's card layout packed in one int64 (the store's form of DealStarted), unpacked: the part of
:mod:`preflog.model.events` the replay kernel calls once per deal, compiled with it.
:func:`~preflog.model.events.pack_layout` writes the layout; :func:`unpack_layout` reads it back."""

from __future__ import annotations

from typing import Final


def _holders(dealer: int, n: int) -> tuple[int, ...]:
    """Seats that get cards, in seat order (the 4-player dealer sits out)."""
    return tuple(s for s in range(n) if n == 3 or s != dealer)


def unpack_layout(dealer: int, n: int, value: int) -> tuple[tuple[int, ...], int]:
    """Inverse of :func:`pack_layout`: hands per seat (the sitting-out dealer's is 0) and the talon."""
    v = value & ((1 << 64) - 1)
    # the low bits of the 32 codes (even bits) and, 64 bits up, their high bits; one bit-gather
    # step at a time the even bits of both halves close up into 32-bit masks (no loop over cards)
    x = (v & _EVEN) | ((v >> 1) & _EVEN) << 64
    x = (x | x >> 1) & 0x3333333333333333_3333333333333333
    x = (x | x >> 2) & 0x0F0F0F0F0F0F0F0F_0F0F0F0F0F0F0F0F
    x = (x | x >> 4) & 0x00FF00FF00FF00FF_00FF00FF00FF00FF
    x = (x | x >> 8) & 0x0000FFFF0000FFFF_0000FFFF0000FFFF
    x = (x | x >> 16) & 0x00000000FFFFFFFF_00000000FFFFFFFF
    lo = x & 0xFFFFFFFF
    hi = x >> 64
    masks = (0xFFFFFFFF ^ (lo | hi), lo & ~hi, hi & ~lo, lo & hi)
    hands = [0] * n
    for code, seat in enumerate(_HOLDERS.get((dealer, n)) or _holders(dealer, n)):
        hands[seat] = masks[code]
    return tuple(hands), masks[3]


_EVEN: Final = 0x5555555555555555
_HOLDERS: Final = {(d, n): _holders(d, n) for n in (3, 4) for d in range(n)}


__all__ = ["unpack_layout"]
