"""The one follow-suit rule (:func:`preflog.engine.tricks.playable`), by hand-made hands; the bots'
look-ahead (:func:`preflog.sim.cardplay.legal`) asks it."""

from __future__ import annotations

from preflog.engine.tricks import playable
from preflog.model.cards import SUIT_MASKS
from preflog.sim.cardplay import legal

SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3
# cards are suit * 8 + rank: two spades (ranks 0, 5), one diamond (rank 3), three hearts (ranks 1, 2, 7)
HAND = (1 << 0 | 1 << 5) | 1 << (2 * 8 + 3) | (1 << 25 | 1 << 26 | 1 << 31)


def test_the_suit_led_when_held() -> None:
    assert playable(HAND, SPADES, SUIT_MASKS[HEARTS]) == 1 << 0 | 1 << 5


def test_void_in_the_suit_led_trumps() -> None:
    assert playable(HAND, CLUBS, SUIT_MASKS[HEARTS]) == 1 << 25 | 1 << 26 | 1 << 31


def test_void_without_trumps_or_without_the_duty_plays_any() -> None:
    assert playable(HAND, CLUBS, SUIT_MASKS[CLUBS]) == HAND    # void in trumps too
    assert playable(HAND, CLUBS, 0) == HAND                    # no trump duty (must_trump off, or no trump)


def test_a_lead_is_any_card() -> None:
    assert playable(HAND, -1, SUIT_MASKS[HEARTS]) == HAND


def test_the_bots_ask_the_same_rule() -> None:
    assert legal(HAND, CLUBS, HEARTS) == 1 << 25 | 1 << 26 | 1 << 31
    assert legal(HAND, CLUBS, HEARTS, must_trump=False) == HAND
    assert legal(HAND, CLUBS, -1) == HAND                    # no-trump contract
    assert legal(HAND, DIAMONDS, HEARTS) == 1 << 19
