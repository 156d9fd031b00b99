"""A deal's card layout packed in one int64 (the store's form of DealStarted), unpacked: the part of
:mod:`preflog.model.events` the replay kernel calls once per deal, compiled with it.
:func:`~preflog.model.events.pack_layout` writes the layout; :func:`unpack_layout` reads it back."""

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


def unpack_layout(dealer: int, n: int, value: int) -> tuple[tuple[int, ...], int]:
    """Inverse of :func:`pack_layout`: hands per seat (the sitting-out dealer's is 0) and the talon.

    The value is the store's int64 (two's complement: negative when card 31's code has its high bit);
    the compiled kernel works on it as a machine word (``i64``: plain ``int`` in pure Python)."""
    if not -0x8000000000000000 <= value <= 0x7FFFFFFFFFFFFFFF:
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


_EVEN: Final = 0x5555555555555555


__all__ = ["card_count", "unpack_layout"]
