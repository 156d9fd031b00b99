"""Spelling checks shared by the record reader and writer: names, tags, notes, end reasons.

A record holds only what reads back as itself: the reader refuses a name, a tag, a note or an end reason
the writer could not write, and the writer refuses one the reader could not read, each with the same
reason (these functions). No game rules here.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from preflog.model.cards import CardError
from preflog.model.cards import parse_card

from .syntax import KEYWORDS

LETTERS = "ABCD"
CONTRA_WORDS = ("contra", "recontra", "subcontra", "mortcontra")
CONTRA_ALIASES = frozenset(CONTRA_WORDS) | {
    "kontra", "rekontra", "subkontra", "mortkontra", "контра", "реконтра", "субконтра", "мортконтра"}
# Tag names the text reader takes as pulka fields, in every spelling it accepts: never meta keys.
RESERVED_TAGS = frozenset({"players", "rules", "option", "options", "pool", "whistprice", "whist_price",
                           "whist-price"})
HAND_CARDS = 10   # cards dealt to each playing seat (both families)
TALON_CARDS = 2   # cards in the talon, and so in a discard
_META_KEY = re.compile(r"[a-z][a-z0-9_-]*")
_BAD_NAME_CHARS = set(',:;{}[]"=()\n\r\t')
CORRECTION = re.compile(r"(?i)deal\s+([0-9]{1,6})(?:\s+at\s+([0-9][0-9T:.+Z-]{0,39}))?")
"""A ``Corrects:`` / ``Strikes:`` line's value: ``deal N``, optionally ``at`` and when it was made."""


def invisible_char(text: str) -> str | None:
    """The first control character (a line break, a tab, ESC …) or byte-order mark U+FEFF of ``text``
    as ``U+XXXX``, or None. Neither survives a text record (the reader reads U+FEFF as a space and a
    file's CR as a line break; a control character may break the line or drive a terminal), so names
    and tag values hold none: the reader refuses what the writer could not write back."""
    if text.isprintable():
        return None
    for ch in text:
        if ch == "\ufeff" or unicodedata.category(ch) == "Cc":
            return f"U+{ord(ch):04X}"
    return None


def meta_key_problem(key: str) -> str | None:
    """Why ``key`` cannot be a meta tag name of a record (reader and writer alike), or None."""
    if not _META_KEY.fullmatch(key) or key in RESERVED_TAGS:
        return (f"meta key {key!r} is not a lower-case tag name (a letter, then letters, digits, '_' or '-'; "
                "not players, rules, option, pool or whist price)")
    return None


def meta_value_problem(key: str, value: str) -> str | None:
    """Why ``value`` cannot be written as the value of meta tag ``key``, or None."""
    bad = invisible_char(value)
    return None if bad is None else f"meta {key!r} holds {bad} (no control character or U+FEFF in a tag value)"


def end_problem(reason: str) -> str | None:
    """Why ``reason`` cannot be written as an ``End:`` line, or None."""
    bad = invisible_char(reason)
    if bad is not None or set(reason) & set(";{}"):
        return "may not hold a control character (a line break, a tab …), U+FEFF, ';', '{' or '}'"
    return None


_NOT_IN_MOVES = re.compile(r"(?i)(?:deal|сдача|раздача)(?!\w)|(?:(?:trick|взятка)\s*)?\d+\s*[:.)]"
                           r"|.*(?<!\w)(?:pulya|пуля|pool|gora|гора|mountain|visty|висты|whists)(?!\w)")


def move_safe(name: str) -> bool:
    """Whether ``name`` reads back as its player wherever a record line names one (``Anna: cards``,
    ``Auction: Anna 6s``, ``Score: Anna pulya 4 … visty Boris=2``): not a deal header's or a trick
    line's start, no score word. Only a pulka whose names all are is written with names in its moves."""
    return _NOT_IN_MOVES.match(name) is None


def note_problem(text: str) -> str | None:
    """Why ``text`` cannot be a comment of a record (written back as it was read), or None."""
    if not text.strip() or text != text.strip():
        return "is not a usable note (blank or padded)"
    if "\r" in text or "\ufeff" in text:
        return "is not a usable note (it holds a carriage return or U+FEFF)"
    if "\n" in text and "}" in text:
        return "is not a usable note (a note of several lines may not hold '}')"
    return None


def name_problem(name: str, seat: int, names: Sequence[str]) -> str | None:
    """Why ``name`` cannot be a player's name in a record, or None."""
    low = name.lower()
    if not name.strip() or name != name.strip():
        return "is not a usable player name (blank or padded)"
    bad = invisible_char(name)
    if bad is not None:
        return f"is not a usable player name (it holds {bad}: no control character or U+FEFF in a name)"
    if _BAD_NAME_CHARS & set(name):
        return "is not a usable player name (no , : ; { } [ ] \" = ( ) inside a name)"
    if name.isdigit() or low in KEYWORDS:
        return "is not a usable player name (a number or a record keyword)"
    if len(name) == 1 and name.upper() in LETTERS and LETTERS.index(name.upper()) != seat:
        return f"is not a usable player name (it is the seat letter of seat {LETTERS.index(name.upper()) + 1})"
    try:
        parse_card(name)
    except CardError:
        pass
    else:
        return "is not a usable player name (it reads as a card)"
    if [n.lower() for n in names].count(low) > 1:
        return "is not a usable player name (two players have it)"
    return None


def option_text(value: Any) -> str:
    """An option value as written after ``key=`` in an ``[Option]`` tag."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return str(value)
    return json.dumps(_plain(value), separators=(",", ":"), ensure_ascii=False)


def _plain(v: Any) -> Any:
    return [_plain(x) for x in v] if isinstance(v, (tuple, list)) else v


def trailing_ok(texts: Sequence[str]) -> bool:
    """Whether these notes can all be written at the end of one line: ``{ … }`` each, the last
    perhaps ``; …`` (a note holding ``}``, of one line, and only when no note before it runs onto a
    next line: a ``;`` comment there would start on that line and read back as a note before the next
    event)."""
    if any("}" in t for t in texts[:-1]):
        return False
    if texts and "}" in texts[-1]:
        return all("\n" not in t for t in texts)
    return True


def canonical_notes(notes: Sequence[tuple[int, str, str]], starts: Sequence[int]) -> tuple[tuple[int, str, str], ...]:
    """Notes as the writer writes them back: each on the first event of its canonical line
    (``starts``), before-notes ahead of after-notes of a line, and a line's after-notes made
    before-notes when they cannot all stand at its end (the last line's stand on lines of their own)."""
    moved = sorted(((starts[seq], place, text) for seq, place, text in notes), key=lambda x: (x[0], x[1] == "after"))
    last = starts[-1]
    out: list[tuple[int, str, str]] = []
    by_line: dict[int, list[str]] = {}
    for seq, place, text in moved:
        if place == "after":
            by_line.setdefault(seq, []).append(text)
    for seq, place, text in moved:
        if place == "after" and seq != last and not trailing_ok(by_line[seq]):
            place = "before"
        out.append((seq, place, text))
    return tuple(out)

