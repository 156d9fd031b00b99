"""Numbers as a score sheet writes them: the one formatter of the pictures (the drawn sheet, the HTML
sheet) and of any page that shows a sheet's results (the viewer may call it too).

>>> mixed("542/3"), mixed("-92/3"), mixed(12), mixed("1/7")
('180⅔', '−30⅔', '12', '¹⁄₇')
>>> money_shown({"A": "-124/3", "B": "62/3", "C": "62/3"}, whole=True)
{'A': '−41', 'B': '21', 'C': '20'}
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..scoring.settlement import round_zero_sum

_VULGAR = {(1, 2): "\u00bd", (1, 3): "\u2153", (2, 3): "\u2154", (1, 4): "\u00bc", (3, 4): "\u00be",
           (1, 5): "\u2155", (2, 5): "\u2156", (3, 5): "\u2157", (4, 5): "\u2158", (1, 6): "\u2159",
           (5, 6): "\u215a", (1, 8): "\u215b", (3, 8): "\u215c", (5, 8): "\u215d", (7, 8): "\u215e"}
_SUP = str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
_SUB = str.maketrans("0123456789", "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089")


def mixed(v: Any) -> str:
    """A value as written on paper: whole numbers as they are, fractions as mixed numbers (``"542/3"`` →
    ``180⅔``, ``"-92/3"`` → ``−30⅔``, ``"1/7"`` → ``¹⁄₇``), minus as U+2212. Text that is no number stays
    (its hyphens written as minus signs)."""
    return _mixed(str(v))


@lru_cache(maxsize=4096)
def _mixed(text: str) -> str:
    """:func:`mixed` of a value's text (a sheet writes the same few hundred values again on every redraw)."""
    try:
        x = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return text.replace("-", "\u2212")
    sign = "\u2212" if x < 0 else ""
    whole, part = divmod(abs(x.numerator), x.denominator)
    if part == 0:
        return f"{sign}{whole}"
    tail = (_VULGAR.get((part, x.denominator))
            or f"{str(part).translate(_SUP)}\u2044{str(x.denominator).translate(_SUB)}")
    return f"{sign}{whole if whole else ''}{tail}"


def money_shown(money: Mapping[str, Any], whole: bool) -> dict[str, str]:
    """A settlement's money per player as a sheet writes it: as :func:`mixed` numbers, or, ``whole``
    (the family's :attr:`~preflog.engine.families.SheetWords.whole_money`), in whole units as the players
    pay it: each amount rounded down, and the units still missing for the payments to balance handed to
    the largest remainders (ties to the earlier seat), so the money still sums to zero — the rounding the
    paper methods use (:func:`~preflog.scoring.settlement.round_zero_sum`). −41⅓, +20⅔, +20⅔
    → −41, +21, +20. Money that does not balance, or is no number, is written as it is."""
    exact: list[Fraction] = []
    if whole:
        try:
            exact = [Fraction(str(v)) for v in money.values()]
        except (ValueError, ZeroDivisionError):
            exact = []
    if not exact or sum(exact) != 0:
        return {p: mixed(v) for p, v in money.items()}
    return {p: mixed(v) for p, v in zip(money, round_zero_sum(exact), strict=True)}
