"""The bid and contract codes as ints and their arithmetic (the part of :mod:`preflog.model.bids` the
replay kernel calls per deal; compiled with it). :mod:`preflog.model.bids` re-exports every name here
and adds the parsing and formatting; see its docstring for the codes."""

from __future__ import annotations

from typing import Final

from .cards import CLUBS
from .cards import DIAMONDS
from .cards import HEARTS
from .cards import SPADES

PASS: Final = 0
TAKE_TALON: Final = 1
IGRA: Final = 8
MISER: Final = 90
NO_TRUMP: Final = 5  # strain code of "без козыря"

# Croatian number -> trump suit (docs/rules.md §C1: ♠ 2 < ♦ 3 < ♥ 4 < ♣ 5).
HR_TRUMP = {2: SPADES, 3: DIAMONDS, 4: HEARTS, 5: CLUBS}
HR_BETTEL: Final = 6
HR_SANAC: Final = 7
IGRA_BETTEL: Final = 16  # Bettel from hand, named at once as a first call (seed 000)
IGRA_SANAC: Final = 17   # Sanac from hand, named at once as a first call

RU_MIN_LEVEL: Final = 6   # the lowest trick level (6♠ opens the ladder)
RU_MAX_LEVEL: Final = 10  # the highest (10NT closes it)

RU_LADDER: Final[tuple[int, ...]] = tuple(
    [lvl * 10 + s for lvl in (6, 7, 8) for s in range(1, 6)]
    + [MISER]
    + [lvl * 10 + s for lvl in (9, 10) for s in range(1, 6)]
)
HR_LADDER: Final[tuple[int, ...]] = (2, 3, 4, 5, 6, 7)


def is_ru_bid(code: int) -> bool:
    """Whether ``code`` is on the Russian ladder (:data:`RU_LADDER`): levels 6 to 10 in the five suits, and
    miser. (Arithmetic rather than a lookup: the auction asks it of every bid.)"""
    return code == MISER or (61 <= code <= 105 and 1 <= code % 10 <= 5)


def ru_next_trick_bid(code: int) -> int:
    """The trick bid one step above the trick bid ``code`` on the Russian ladder (miser is not a trick bid and
    is stepped over); 0 above 10NT."""
    step = code + 1 if code % 10 < 5 else code - code % 10 + 11
    return step if step <= 105 else 0


def is_trick_contract(code: int) -> bool:
    return code >= 61 and code != MISER


def level_of(code: int) -> int:
    """Trick level of a Russian trick contract (6–10); 0 for miser and pass."""
    return code // 10 if is_trick_contract(code) else 0


def strain_of(code: int) -> int:
    """Russian strain 1..5 (♠ ♣ ♦ ♥ NT); 0 for miser."""
    return code % 10 if is_trick_contract(code) else 0


def ru_trump(code: int) -> int:
    """Trump suit of a Russian contract, or -1 for NT, miser and raspasy."""
    s = strain_of(code)
    return s - 1 if 1 <= s <= 4 else -1


def hr_trump(number: int) -> int:
    """Trump suit of a Croatian contract number, -1 for Bettel and Sanac."""
    return HR_TRUMP.get(number, -1)
