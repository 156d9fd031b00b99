"""Bids ("заявки") and contracts ("контракты") as small ints, for both families.

Russian ladder ("лестница", 26 steps): a trick contract is ``level * 10 + strain``
with strain ♠ 1, ♣ 2, ♦ 3, ♥ 4, NT 5 (``61`` = 6♠ … ``105`` = 10NT). Miser is
``90``, so plain integer order *is* the ladder order (8NT 85 < miser 90 < 9♠ 91).

Croatian family: bids are the numbers 2–7 (2 ♠, 3 ♦, 4 ♥, 5 ♣, 6 Bettel, 7 Sanac)
and ``IGRA`` ("igra", a hand game without the talon) is 8; Bettel and Sanac from hand,
named at once, are ``IGRA_BETTEL`` 16 and ``IGRA_SANAC`` 17. A Croatian contract is
the number 2–7; whether it is played from hand is a separate flag.

``PASS`` is 0 and ``TAKE_TALON`` (the third hand's optional right to take the talon
without naming a bid, docs/rules.md §A5) is 1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import PreflogError
from .bidcodes import HR_BETTEL
from .bidcodes import HR_LADDER
from .bidcodes import HR_SANAC
from .bidcodes import HR_TRUMP
from .bidcodes import IGRA
from .bidcodes import IGRA_BETTEL
from .bidcodes import IGRA_SANAC
from .bidcodes import MISER
from .bidcodes import NO_TRUMP
from .bidcodes import PASS
from .bidcodes import RU_LADDER
from .bidcodes import RU_MAX_LEVEL
from .bidcodes import RU_MIN_LEVEL
from .bidcodes import TAKE_TALON
from .bidcodes import hr_trump
from .bidcodes import is_trick_contract
from .bidcodes import level_of
from .bidcodes import ru_trump
from .bidcodes import strain_of

_STRAIN_LATIN = {1: "s", 2: "c", 3: "d", 4: "h", 5: "NT"}
_STRAIN_UNICODE = {1: "♠", 2: "♣", 3: "♦", 4: "♥", 5: "NT"}  # no trump has no suit symbol: NT in every style
_STRAIN_ALIASES = {
    "s": 1, "♠": 1, "♤": 1, "п": 1, "пики": 1, "spades": 1,
    "c": 2, "♣": 2, "♧": 2, "т": 2, "трефы": 2, "clubs": 2,
    "d": 3, "♦": 3, "♢": 3, "б": 3, "бубны": 3, "diamonds": 3,
    "h": 4, "♥": 4, "♡": 4, "ч": 4, "червы": 4, "черви": 4, "hearts": 4,
    "nt": 5, "n": 5, "бк": 5, "б/к": 5, "бескозырка": 5, "notrump": 5, "sans": 5,
}
_WORDS = {
    "pass": PASS, "пас": PASS, "p": PASS, "-": PASS,
    "miser": MISER, "мизер": MISER, "m": MISER, "mis": MISER,
    "take": TAKE_TALON, "take-talon": TAKE_TALON,
}
_HR_WORDS = {
    "pass": PASS, "пас": PASS, "dalje": PASS, "p": PASS, "-": PASS,
    "igra": IGRA, "игра": IGRA, "hand": IGRA,
    "bettel": HR_BETTEL, "betl": HR_BETTEL, "беттель": HR_BETTEL, "бетл": HR_BETTEL,
    "sanac": HR_SANAC, "sans": HR_SANAC, "санац": HR_SANAC, "бк": HR_SANAC,
    "igra-bettel": IGRA_BETTEL, "hand-bettel": IGRA_BETTEL, "bettel-hand": IGRA_BETTEL,
    "igra bettel": IGRA_BETTEL, "беттель с руки": IGRA_BETTEL, "berac": IGRA_BETTEL,
    "igra-sanac": IGRA_SANAC, "hand-sanac": IGRA_SANAC, "sanac-hand": IGRA_SANAC,
    "igra sanac": IGRA_SANAC, "санац с руки": IGRA_SANAC,
    # the Serbian words (pik 2, karo 3, herc 4, tref 5; betl and sans above; igra betl / sans from hand)
    "pik": 2, "karo": 3, "herc": 4, "tref": 5, "igra betl": IGRA_BETTEL, "igra-betl": IGRA_BETTEL,
    "igra sans": IGRA_SANAC, "igra-sans": IGRA_SANAC,
}
HOLD_WORDS = frozenset({"hold", "здесь", "мои", "moje", "i ja", "и я", "держу", "here", "mine"})
"""Words that hold the standing bid («здесь», «мои», «moje», «i ja»), in both families: the one list the
record reader and the engine consult (lower case, single spaces)."""


def call_words(text: str) -> str:
    """A call as the word tables key it: lower case, runs of white space as one space."""
    return " ".join(text.strip().lower().split())


class BidError(PreflogError, ValueError):
    """A bid that cannot be read."""


def trick_bid(level: int, strain: int) -> int:
    """The Russian trick contract of a level (6–10) and a strain (1–5: ♠ ♣ ♦ ♥ NT): the inverse of
    :func:`level_of` and :func:`strain_of`."""
    if not (RU_MIN_LEVEL <= level <= RU_MAX_LEVEL and 1 <= strain <= NO_TRUMP):
        raise BidError(f"no trick contract at level {level} in strain {strain}")
    return level * 10 + strain


def _decimal(text: str) -> int | None:
    """The number written in decimal digits, or None (``²`` is a digit to ``isdigit`` but not to ``int``;
    ``int`` refuses more than 4,300 digits)."""
    if not text.isdecimal():
        return None
    try:
        return int(text)
    except ValueError:
        return None


def parse_ru_bid(text: str) -> int:
    """Read a Russian bid or contract: ``6s``, ``6♠``, ``6п``, ``7NT``, ``7БК``, ``miser``/``мизер``, ``pass``."""
    t = text.strip().lower().replace(" ", "")
    if t in _WORDS:
        return _WORDS[t]
    digits = t[:2] if t.startswith("10") else t[:1]
    number = _decimal(digits)
    if number is not None and 6 <= number <= 10:
        strain = _STRAIN_ALIASES.get(t[len(digits):])
        if strain is not None:
            return number * 10 + strain
    raise BidError(f"not a bid: {text!r} (expected 6..10 with s c d h NT / ♠ ♣ ♦ ♥ БК / п т б ч, miser, pass)")


def parse_hr_bid(text: str) -> int:
    """Read a Croatian bid: ``2``–``7``, ``igra``, ``bettel``, ``sanac``, hand Bettel / Sanac
    (``igra-bettel``, ``hand-sanac``, ``беттель с руки`` → 16 / 17), ``pass``."""
    t = call_words(text)
    if t in _HR_WORDS:
        return _HR_WORDS[t]
    number = _decimal(t)
    if number is not None and 2 <= number <= 7:
        return number
    raise BidError(f"not a Croatian bid: {text!r} (expected 2..7, igra, bettel, sanac, igra-bettel, igra-sanac, "
                   "pass)")


def format_ru_bid(code: int, style: str = "latin") -> str:
    if code == PASS:
        return "pass" if style == "latin" else "пас"
    if code == MISER:
        return "miser" if style == "latin" else "мизер"
    if code == TAKE_TALON:
        return "take"
    table = _STRAIN_LATIN if style == "latin" else _STRAIN_UNICODE
    return f"{code // 10}{table[code % 10]}"


def format_hr_bid(code: int) -> str:
    return {PASS: "pass", IGRA: "igra", HR_BETTEL: "bettel", HR_SANAC: "sanac", IGRA_BETTEL: "igra-bettel",
            IGRA_SANAC: "igra-sanac"}.get(code, str(code))


def _format_ru_call(code: int, style: str = "latin") -> str:
    # pass / miser / take stay Latin words in every style; only trick bids get suit symbols
    return format_ru_bid(code, style if is_trick_contract(code) else "latin")


def _format_hr_call(code: int, style: str = "latin") -> str:
    return format_hr_bid(code)


@dataclass(frozen=True)
class BidCodec:
    """How one game family writes its calls and contracts (the family's "bid codec").

    >>> RUSSIAN_BIDS.format(RUSSIAN_BIDS.parse("7БК"), "unicode")
    '7NT'
    >>> CROATIAN_BIDS.parse("igra-bettel"), CROATIAN_BIDS.format(16)
    (16, 'igra-bettel')
    """

    parse: Callable[[str], int]
    """Text → call code (raises :class:`BidError`)."""
    format: Callable[..., str]
    """``format(code, style="latin")`` → text (``style`` "unicode" writes suit symbols where the family has them)."""
    calls: frozenset[int]
    """Every call code of the auction."""
    contracts: tuple[int, ...]
    """Contract codes in ladder order."""
    not_holds: frozenset[int]
    """Calls that may repeat the current call without being a hold (Croatian igra)."""
    calls_text: str
    """What a call looks like, for error messages."""
    contracts_text: str
    """What a contract looks like, for error messages."""
    name: str
    """What a call code is, in words (e.g. "a Croatian bid code"), for error messages."""


RUSSIAN_BIDS = BidCodec(parse_ru_bid, _format_ru_call, frozenset((PASS, TAKE_TALON, *RU_LADDER)), RU_LADDER,
                        frozenset(), "6s … 10NT, miser, pass or hold", "6s … 10NT or miser",
                        "a bid code of the Russian ladder")
"""The Russian bid codec (26-step ladder, pass, take-talon)."""
CROATIAN_BIDS = BidCodec(parse_hr_bid, _format_hr_call,
                         frozenset((PASS, *HR_LADDER, IGRA, IGRA_BETTEL, IGRA_SANAC)), HR_LADDER, frozenset((IGRA,)),
                         "2..7, igra, bettel, sanac, pass or hold", "2..7, bettel or sanac",
                         "a Croatian bid code")
"""The Croatian bid codec (numbers 2-7, igra, hand Bettel / Sanac)."""


__all__ = [
    "BidCodec", "BidError", "CROATIAN_BIDS", "HOLD_WORDS", "HR_BETTEL", "HR_LADDER", "HR_SANAC", "HR_TRUMP", "IGRA",
    "IGRA_BETTEL", "IGRA_SANAC", "MISER", "NO_TRUMP", "PASS", "RUSSIAN_BIDS", "RU_LADDER", "RU_MAX_LEVEL",
    "RU_MIN_LEVEL", "TAKE_TALON", "call_words", "format_hr_bid", "format_ru_bid", "hr_trump", "is_trick_contract",
    "level_of", "parse_hr_bid", "parse_ru_bid", "ru_trump", "strain_of", "trick_bid"
]
