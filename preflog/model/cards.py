"""Cards of the 32-card preferans pack and sets of them as bitmasks.

A card is a small int ``suit * 8 + rank``: suits ♠ 0, ♣ 1, ♦ 2, ♥ 3 (the Russian
bidding order, low to high) and ranks 7 → 0 … A → 7. A set of cards (a hand, the
talon / "прикуп", a discard) is an int bitmask with bit ``card`` set. Replay runs
on these ints; text exists only at the edges (parsing, display).

Three spellings are read: Latin (``Qh``, ``10h``, ``Th``), Unicode suits (``Q♥``)
and Russian (``Д♥``, ``Дч``). In Russian ``Т`` is both the ace (туз) and clubs
(трефы); the rank always comes first, so the first ``Т`` of a card is the ace and
a trailing ``т`` the suit: ``Тт`` = A♣, ``10т`` = 10♣.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ..errors import PreflogError

SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3
SUITS = (SPADES, CLUBS, DIAMONDS, HEARTS)
RANK_7, RANK_8, RANK_9, RANK_10, RANK_J, RANK_Q, RANK_K, RANK_A = range(8)

SUIT_LATIN = "scdh"
SUIT_UNICODE = "♠♣♦♥"
SUIT_RUSSIAN = "птбч"
RANK_LATIN = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK_RUSSIAN = ("7", "8", "9", "10", "В", "Д", "К", "Т")

FULL_DECK: Final = (1 << 32) - 1
SUIT_MASKS = tuple(0xFF << (8 * s) for s in SUITS)

_SUIT_ALIASES: dict[str, int] = {}
for _s in SUITS:
    for _alias in (SUIT_LATIN[_s], SUIT_LATIN[_s].upper(), SUIT_UNICODE[_s], SUIT_RUSSIAN[_s],
                   SUIT_RUSSIAN[_s].upper()):
        _SUIT_ALIASES[_alias] = _s
_SUIT_ALIASES.update({"♤": SPADES, "♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS})

_RANK_ALIASES: dict[str, int] = {
    "7": RANK_7, "8": RANK_8, "9": RANK_9, "10": RANK_10, "T": RANK_10, "t": RANK_10,
    "J": RANK_J, "j": RANK_J, "Q": RANK_Q, "q": RANK_Q, "K": RANK_K, "k": RANK_K,
    "A": RANK_A, "a": RANK_A,
    "В": RANK_J, "в": RANK_J, "Д": RANK_Q, "д": RANK_Q, "К": RANK_K, "к": RANK_K,
    "Т": RANK_A, "т": RANK_A,
}


class CardError(PreflogError, ValueError):
    """A card or card list that cannot be read; the message names the text."""


def make_card(suit: int, rank: int) -> int:
    return suit * 8 + rank


def suit_of(card: int) -> int:
    return card >> 3


def rank_of(card: int) -> int:
    return card & 7


def parse_card(text: str) -> int:
    """Read one card in any supported spelling and return its int."""
    t = text.strip()
    if len(t) < 2:
        raise CardError(f"not a card: {text!r} (expected rank then suit, e.g. 'Qh', '10♥', 'Дч')")
    suit = _SUIT_ALIASES.get(t[-1])
    rank = _RANK_ALIASES.get(t[:-1])
    if suit is None or rank is None:
        raise CardError(
            f"not a card: {text!r} (ranks A K Q J 10/T 9 8 7 or Т К Д В; suits s c d h, ♠ ♣ ♦ ♥, п т б ч)"
        )
    return make_card(suit, rank)


def format_card(card: int, style: str = "latin") -> str:
    """Spell a card: ``latin`` (``Qh``, ``10h``), ``unicode`` (``Q♥``) or ``russian`` (``Д♥``)."""
    s, r = suit_of(card), rank_of(card)
    if style == "latin":
        return RANK_LATIN[r] + SUIT_LATIN[s]
    if style == "unicode":
        return RANK_LATIN[r] + SUIT_UNICODE[s]
    if style == "russian":
        return RANK_RUSSIAN[r] + SUIT_UNICODE[s]
    raise ValueError(f"unknown card style {style!r}")


def cards_of(mask: int) -> Iterator[int]:
    """The cards of a bitmask, low to high."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    return mask.bit_count()


def parse_cards(text: str) -> int:
    """Read a card list separated by spaces or commas; ``-`` or empty is no card."""
    mask = 0
    for tok in text.replace(",", " ").split():
        if tok == "-":
            continue
        c = parse_card(tok)
        if mask >> c & 1:
            raise CardError(f"card {tok!r} listed twice")
        mask |= 1 << c
    return mask


def format_cards(mask: int, style: str = "latin") -> str:
    """Cards high to low within suits ♠ ♣ ♦ ♥, space separated (the canonical written form)."""
    out = []
    for s in SUITS:
        for r in range(7, -1, -1):
            c = s * 8 + r
            if mask >> c & 1:
                out.append(format_card(c, style))
    return " ".join(out)
