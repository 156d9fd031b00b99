"""The Russian ladder's arithmetic (``is_ru_bid``, ``ru_next_trick_bid``) against the ladder itself."""

from __future__ import annotations

from preflog.model.bidcodes import MISER
from preflog.model.bidcodes import RU_LADDER
from preflog.model.bidcodes import is_ru_bid
from preflog.model.bidcodes import ru_next_trick_bid


def test_is_ru_bid_is_membership_of_the_ladder() -> None:
    """Every code from -20 to 300: on the ladder exactly when it is one of its 26 steps (25 trick bids and
    miser); pass (0) and taking the talon (1) are calls, not ladder steps."""
    for code in range(-20, 300):
        assert is_ru_bid(code) == (code in RU_LADDER), code
    assert sum(is_ru_bid(c) for c in range(-20, 300)) == 26


def test_next_trick_bid_steps_the_ladder_over_miser() -> None:
    """Each trick bid's successor is the next trick bid of the ladder (6♠ → 6♣, 6NT → 7♠, 8NT → 9♠ over
    miser) and 10NT has none (0)."""
    tricks = [b for b in RU_LADDER if b != MISER]
    for here, there in zip(tricks, tricks[1:] + [0], strict=True):
        assert ru_next_trick_bid(here) == there, here
    assert ru_next_trick_bid(61) == 62 and ru_next_trick_bid(65) == 71 and ru_next_trick_bid(85) == 91
