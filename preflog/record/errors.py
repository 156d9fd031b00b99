"""Locations and errors of the record layer.

Every problem found while reading a record is a :class:`RecordError` that names the
file, the line and column (text form) or the JSON path (JSON form), the offending
text and what was expected there, e.g.::

    game.pref:12:7: 'Xh' is not a card (expected rank then suit, e.g. Qh, 10♥, Дч)
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import PreflogError


# Named tuples rather than frozen dataclasses: the reader makes one per line piece, and a tuple is
# built several times faster (immutable and hashable all the same).
class Loc(NamedTuple):
    """Where a piece of a record sits: 1-based line and column in text, or a JSON path."""

    line: int = 0
    column: int = 0
    path: str = ""

    def shifted(self, offset: int) -> Loc:
        """The location ``offset`` characters further on the same line (JSON paths do not move)."""
        return Loc(self.line, self.column + offset, self.path) if self.line else self


NOWHERE = Loc()


class Tok(NamedTuple):
    """A piece of record text with its location."""

    text: str
    loc: Loc = NOWHERE


EXCERPT = 60    # characters of user text a message quotes at most
SENTENCE = 240  # characters of a problem or an expectation at most (longer only when quoting user input)


def excerpt(text: str, width: int = EXCERPT) -> str:
    """``text`` cut to ``width`` characters (an ellipsis marks the cut): what a message quotes of user
    input, so that a megabyte-long line is never echoed whole."""
    return text if len(text) <= width else text[:width - 1] + "\u2026"


class RecordError(PreflogError, ValueError):
    """A record that cannot be read: syntax, spelling or a reference (player, card holder).

    The offending ``text`` is quoted by an excerpt of at most :data:`EXCERPT` characters, ``problem`` and
    ``expected`` by at most :data:`SENTENCE`."""

    def __init__(self, source: str, loc: Loc, text: str, problem: str, expected: str = "") -> None:
        self.source = source
        self.line = loc.line or None
        self.column = loc.column or None
        self.path = loc.path or None
        self.text = text = excerpt(text)
        # our own sentences, but they may quote user input (an unknown preset's name …): bounded too
        self.problem = problem = excerpt(problem, SENTENCE)
        self.expected = expected = excerpt(expected, SENTENCE)
        where = f"{source}:{loc.line}:{loc.column}" if loc.line else (
            f"{source}: {loc.path}" if loc.path else source)
        msg = f"{where}: {text!r} {problem}" if text else f"{where}: {problem}"
        if expected:
            msg += f" (expected {expected})"
        super().__init__(msg)


class RecordWriteError(PreflogError, ValueError):
    """Events that the record format cannot express (e.g. a card played by someone who does not
    hold it, a bid code outside the ladder); the message names the event."""
