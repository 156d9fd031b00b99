"""A deal's card layout packed in one int64 (the store's form of DealStarted), unpacked: the part of
:mod:`preflog.model.events` the replay kernel calls once per deal, compiled with it.
:func:`pack_layout` writes the layout (``DealStarted.to_row``, once per deal of every import);
:func:`unpack_layout` reads it back."""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64


def _holders(dealer: int, n: int) -> tuple[int, ...]:
    """Seats that get cards, in seat order (the 4-player dealer sits out)."""
    return tuple(s for s in range(n) if n == 3 or s != dealer)


def _squeeze(x: i64) -> i64:
    """The 32 even bits of a 64-bit int, closed up into its low 32 bits (one bit-gather step at a time)."""
    x = (x | x >> 1) & 0x3333333333333333
    x = (x | x >> 2) & 0x0F0F0F0F0F0F0F0F
    x = (x | x >> 4) & 0x00FF00FF00FF00FF
    x = (x | x >> 8) & 0x0000FFFF0000FFFF
    return (x | x >> 16) & 0xFFFFFFFF


def _spread(x: int) -> int:
    """The low 16 bits of ``x`` moved to the even bits of a 32-bit int (what :func:`_squeeze` undoes)."""
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
    """Inverse of :func:`pack_layout`: hands per seat (the sitting-out dealer's is 0) and the talon.

    The value is the store's int64 (two's complement: negative when card 31's code has its high bit);
    the compiled kernel works on it as a machine word (``i64``: plain ``int`` in pure Python)."""
    if value >> 63 not in (0, -1):   # (a shift and two small compares: no boxed bounds to compare with)
        raise ValueError(f"packed layout {value} does not fit the int64 column")
    v: i64 = value
    # the low and the high bit of every card's 2-bit holder code, gathered into 32-bit masks
    lo = _squeeze(v & _EVEN)
    hi = _squeeze((v >> 1) & _EVEN)
    first = 0xFFFFFFFF ^ (lo | hi)    # code 0: the first seat dealt cards, 1 and 2 the next ones, 3 the talon
    second = lo & ~hi
    third = hi & ~lo
    talon = lo & hi
    if n == 3:  # every seat gets cards, whoever deals
        return (first, second, third), talon
    # four players: the dealer sits out with no cards; the others in seat order
    if dealer == 0:
        return (0, first, second, third), talon
    if dealer == 1:
        return (first, 0, second, third), talon
    if dealer == 2:
        return (first, second, 0, third), talon
    if dealer == 3:
        return (first, second, third, 0), talon
    if n == 4:  # a dealer off the table (the caller reports it): all four seats, the talon's code as the last
        return (first, second, third, talon), talon
    raise ValueError(f"a packed layout is for a 3- or 4-player table, not {n}")


def card_count(mask: int) -> int:
    """The number of cards in a card mask of 0 to 32 bits (``mask.bit_count()``, as machine-word
    arithmetic in the compiled kernel); the caller has checked ``0 <= mask < 2**32``."""
    x: i64 = mask
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return (x * 0x01010101 & 0xFFFFFFFF) >> 24


def bit_count(mask: int) -> int:
    """``mask.bit_count()`` for any int: :func:`card_count` for a card mask (no method call in the compiled
    kernel), Python's own count for anything wider or negative."""
    return card_count(mask) if 0 <= mask <= 0xFFFFFFFF else mask.bit_count()


_EVEN: Final = 0x5555555555555555


__all__ = ["bit_count", "card_count", "pack_layout", "unpack_layout"]
