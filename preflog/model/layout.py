"""A deal's card layout packed in one int64 (the store's form of DealStarted), unpacked: the part of
:mod:`preflog.model.events` the replay kernel calls once per deal, compiled with it.
:func:`pack_layout` writes the layout (``DealStarted.to_row``, once per deal of every import);
:func:`unpack_layout` reads it back."""

from __future__ import annotations

from typing import Final


def _holders(dealer: int, n: int) -> tuple[int, ...]:
    """Seats that get cards, in seat order (the 4-player dealer sits out)."""
    return tuple(s for s in range(n) if n == 3 or s != dealer)


def _squeeze(x: int) -> int:
    """The 16 even bits of a 32-bit int, closed up into its low 16 bits (one bit-gather step at a time)."""
    x = (x | x >> 1) & 0x33333333
    x = (x | x >> 2) & 0x0F0F0F0F
    x = (x | x >> 4) & 0x00FF00FF
    return (x | x >> 8) & 0x0000FFFF


def _spread(x: int) -> int:
    """The low 16 bits of ``x`` moved to the even bits of a 32-bit int (the inverse of :func:`_squeeze`)."""
    x &= 0xFFFF
    x = (x | x << 8) & 0x00FF00FF
    x = (x | x << 4) & 0x0F0F0F0F
    x = (x | x << 2) & 0x33333333
    return (x | x << 1) & 0x55555555


def pack_layout(dealer: int, hands: tuple[object, ...] | None, talon: object) -> int | None:
    """A full layout as one int64: 2 bits per card naming its holder (the seats that get cards in
    seat order, then the talon). 8 bytes a deal instead of a JSON payload — the biggest column on
    disk — and no JSON to decode on replay. ``None`` when the layout is not a complete deal."""
    if hands is None or talon is None or len(hands) not in (3, 4) or not 0 <= dealer < len(hands):
        return None
    n = len(hands)
    holders = _holders(dealer, n)
    for s in range(n):
        if s not in holders and hands[s]:
            return None
    masks: list[int] = []
    for s in holders:
        m = hands[s]
        if not isinstance(m, int) or m < 0:
            return None
        masks.append(m)
    if not isinstance(talon, int) or talon < 0:
        return None
    masks.append(talon)
    union = 0
    for m in masks:
        if union & m:
            return None
        union |= m
    if union != 0xFFFFFFFF:
        return None
    # holder code k of a card: its low bit set for codes 1 and 3, its high bit for codes 2 and 3
    lo = masks[1] | masks[3]
    hi = masks[2] | masks[3]
    packed = (_spread(lo) | _spread(hi) << 1) | (_spread(lo >> 16) | _spread(hi >> 16) << 1) << 32
    return packed - (1 << 64) if packed >= 1 << 63 else packed  # stored in a signed int64 column


def unpack_layout(dealer: int, n: int, value: int) -> tuple[tuple[int, ...], int]:
    """Inverse of :func:`pack_layout`: hands per seat (the sitting-out dealer's is 0) and the talon."""
    # the 2-bit holder codes of cards 0-15 and 16-31, as two 32-bit halves (small ints: no 64-bit
    # arithmetic on Python longs); the low and the high bit of every code, gathered into 32-bit masks
    a = value & 0xFFFFFFFF
    b = (value >> 32) & 0xFFFFFFFF
    lo = _squeeze(a & _EVEN) | _squeeze(b & _EVEN) << 16
    hi = _squeeze(a >> 1 & _EVEN) | _squeeze(b >> 1 & _EVEN) << 16
    masks = (0xFFFFFFFF ^ (lo | hi), lo & ~hi, hi & ~lo, lo & hi)
    hands = [0] * n
    holders = _HOLDERS.get((dealer, n))
    for code, seat in enumerate(holders if holders is not None else _holders(dealer, n)):
        hands[seat] = masks[code]
    return tuple(hands), masks[3]


_EVEN: Final = 0x55555555
_HOLDERS: Final = {(d, n): _holders(d, n) for n in (3, 4) for d in range(n)}


__all__ = ["pack_layout", "unpack_layout"]
