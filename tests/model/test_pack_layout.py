"""``pack_layout`` (compiled with the kernel since the import work of issue 16) against its definition:
2 bits per card naming its holder — the seats that get cards in seat order, then the talon — card by
card, and ``None`` for anything that is not a complete deal."""

from __future__ import annotations

import random

import pytest

from preflog.model.layout import _holders
from preflog.model.layout import pack_layout
from preflog.model.layout import unpack_layout


def _by_definition(dealer: int, hands: tuple[int, ...], talon: int) -> int:
    holders = _holders(dealer, len(hands))
    masks = [hands[s] for s in holders] + [talon]
    packed = 0
    for card in range(32):
        (code,) = [k for k, m in enumerate(masks) if m >> card & 1]
        packed |= code << (2 * card)
    return packed - (1 << 64) if packed >= 1 << 63 else packed


def _deal(rng: random.Random, n: int, dealer: int) -> tuple[list[int], int]:
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [0] * n
    for k, seat in enumerate(_holders(dealer, n)):
        hands[seat] = sum(1 << c for c in cards[10 * k:10 * k + 10])
    return hands, (1 << cards[30]) | (1 << cards[31])


@pytest.mark.parametrize("n", [3, 4])
def test_pack_layout_is_its_definition(n: int) -> None:
    """Every complete layout packs card by card as defined, and unpacks to itself."""
    rng = random.Random(n)
    for _ in range(500):
        dealer = rng.randrange(n)
        hands, talon = _deal(rng, n, dealer)
        packed = pack_layout(dealer, tuple(hands), talon)
        assert packed == _by_definition(dealer, tuple(hands), talon)
        assert unpack_layout(dealer, n, packed) == (tuple(hands), talon)


def test_pack_layout_refuses_incomplete_layouts() -> None:
    """A card held twice or by nobody, a negative or non-int mask, cards given to the sitting-out
    dealer, a talon missing, a dealer off the table or a table of 2 or 5: not a complete deal."""
    hands, talon = _deal(random.Random(1), 4, 2)
    good = tuple(hands)
    assert pack_layout(2, good, talon) is not None
    bad: list[tuple[int, tuple[object, ...], object]] = [
        (2, good, None), (2, good, talon | 1 << 40), (2, good, -talon), (2, (*good[:3], 1 << 40), talon),
        (2, (good[0] | talon, *good[1:]), talon), (2, (good[0] & (good[0] - 1), *good[1:]), talon),
        (2, (good[0], 2.0, *good[2:]), talon), (2, (good[0], good[1], 1, good[3]), talon),
        (4, good, talon), (-1, good, talon), (0, good[:2], talon), (0, (*good, 0), talon),
    ]
    for dealer, h, t in bad:
        assert pack_layout(dealer, h, t) is None, (dealer, h, t)
