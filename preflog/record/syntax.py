"""The syntax tree shared by the text and JSON forms of a record.

Both forms parse into these plain objects (strings with locations, nothing resolved);
:mod:`preflog.record.reader` turns them into events, checking spelling and references,
and :mod:`preflog.record.writer` turns events back into them. So the two forms cannot drift apart.

Step kinds and what they carry (``pairs`` are ``(player, value)``; ``player`` may be
``None`` where the form allows it); :data:`STEPS` is their one table (each kind's line form, text
keyword, JSON key and event-registry syntax), which the readers and writers of both forms dispatch on:

=============  ===========================================================
``auction``    pairs (player, bid)
``all_pass``   nothing: every seat passes, first hand first
``talon_shown`` ``value`` = cards (:class:`~preflog.model.events.TalonRevealed`)
``discard``    ``player`` (optional), ``value`` = two cards
``contract``   ``player``, ``value`` = contract
``calls``      pairs (player, whist / pass / half / return / invite / open / closed / contra)
``trick``      pairs (None, card); ``mark`` pairs are raspasy talon cards (no event)
``claim``      pairs (player or None, tricks)  — also ``check`` and ``tricks``
``score``      ``player``, ``fields`` pulya / gora, pairs (player, visty)
=============  ===========================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field
from enum import IntEnum
from typing import NamedTuple

from .errors import NOWHERE
from .errors import Loc
from .errors import Tok


@dataclass(slots=True)
class Pair:
    player: Tok | None
    value: Tok
    mark: bool = False


@dataclass(slots=True)
class Step:
    kind: str
    loc: Loc = NOWHERE
    pairs: list[Pair] = field(default_factory=list)
    player: Tok | None = None
    value: Tok | None = None
    number: Tok | None = None          # trick number as written
    fields: dict[str, Tok] = field(default_factory=dict)
    # Text-form trick: the cards as written, split into ``pairs`` only when needed
    # (:func:`trick_pairs`), since most trick lines are read without ever making a token object.
    raw: Tok | None = None
    notes: Notes | None = None   # comments written around this line (writing only)


_ITEM = re.compile(r"[^\s,]+")


def trick_pairs(step: Step) -> list[Pair]:
    """The ``(None, card)`` pairs of a trick step; ``(card)`` items are marked (raspasy talon cards)."""
    if step.raw is None:
        return step.pairs
    cards = step.raw
    pairs = []
    for m in _ITEM.finditer(cards.text):
        t = m.group()
        mark = t.startswith("(") and t.endswith(")") and len(t) > 2
        text = t[1:-1] if mark else t
        pairs.append(Pair(None, Tok(text, cards.loc.shifted(m.start() + (1 if mark else 0))), mark))
    return pairs


def letter_pairs(value: Tok) -> list[Pair]:
    """The ``(seat letter, value)`` pairs of a canonical list ``A 6s, B pass`` (the text reader checked its
    form), each piece at its own column: what the reader's ``letter_pairs`` makes of it."""
    line, col = value.loc.line, value.loc.column
    out = []
    for item in value.text.split(", "):
        out.append(Pair(Tok(item[0], Loc(line, col)), Tok(item[2:], Loc(line, col + 2))))
        col += len(item) + 2
    return out


class HandLine(NamedTuple):
    """A canonical hand line ``A: cards`` of the text form (a seat letter, no padding) as read on the
    scanner path: the line and its text, its two tokens made only when asked for."""

    line: int
    raw: str

    @property
    def player(self) -> Tok:
        return Tok(self.raw[0], Loc(self.line, 1))

    @property
    def value(self) -> Tok:
        return Tok(self.raw[3:], Loc(self.line, 4))


class KeyedLine(NamedTuple):
    """A canonical keyed line of a deal as read on the scanner path (:mod:`preflog.record.scanner`), one
    object instead of a :class:`Step` with its tokens: ``Auction:`` or ``Whist:`` with a list of seat-letter
    items (``A 6s, B pass``), or ``Discard:`` / ``Contract:`` led by a seat letter (``B 7c 8d``); ``text``
    is what follows ``Key: `` and starts at ``column``. :meth:`step` is what the parser makes of it."""

    line: int
    kind: str
    text: str
    column: int

    def step(self) -> Step:
        line, col = self.line, self.column
        if STEPS[self.kind].form == Form.PLAYER_VALUE:
            return Step(self.kind, Loc(line, 1), player=Tok(self.text[0], Loc(line, col)),
                        value=Tok(self.text[2:], Loc(line, col + 2)))
        return Step(self.kind, Loc(line, 1), pairs=letter_pairs(Tok(self.text, Loc(line, col))))


class TrickLine(NamedTuple):
    """A canonical trick line of the text form, ``N: c1 c2 c3`` (no padding), as read: plain strings
    and numbers, no token objects (most of a record is such lines). :meth:`step` gives the general
    :class:`Step`, for the careful path that locates an error."""

    line: int
    number: str
    cards: str
    column: int   # where the cards start
    kind: str = "trick"

    def step(self) -> Step:
        loc = Loc(self.line, 1)
        return Step("trick", loc, number=Tok(self.number, loc), raw=Tok(self.cards, Loc(self.line, self.column)))


FAST_TRICK = re.compile(r"(\d+): ([^\s,].*)")
"""A canonical trick line (the careful trick pattern of the text reader reads it alike)."""


def trick_line(raw: str, line: int) -> TrickLine:
    """The :class:`TrickLine` of a canonical trick line ``raw`` (it must match :data:`FAST_TRICK`)."""
    m = FAST_TRICK.fullmatch(raw)
    assert m is not None
    return TrickLine(line, m[1], m[2], m.start(2) + 1)


class TrickRun(NamedTuple):
    """Consecutive canonical trick lines ``lines[start:stop]`` of a text block, the first on record line
    ``line``, as the compiled scanner (:mod:`preflog.record.scanner`) found them: no object per line.
    The reader plays them in one call, and reads any line the scanner stops at as a :class:`TrickLine`."""

    line: int
    lines: list[str]
    start: int
    stop: int
    kind: str = "trick"

    def trick_lines(self) -> list[TrickLine]:
        return [trick_line(self.lines[j], self.line + j - self.start) for j in range(self.start, self.stop)]


def as_step(s: Step | TrickLine | KeyedLine) -> Step:
    return s.step() if isinstance(s, (TrickLine, KeyedLine)) else s


def plain_steps(steps: list[Step | TrickLine | TrickRun | KeyedLine]) -> list[Step]:
    """The steps of a deal as general :class:`Step` objects (runs and trick lines made into steps)."""
    return [as_step(t) for s in steps for t in (s.trick_lines() if isinstance(s, TrickRun) else (s,))]


@dataclass(slots=True)
class DealSyn:
    loc: Loc = NOWHERE
    number: Tok | None = None
    dealer: Tok | None = None
    hands: list[Pair | HandLine] = field(default_factory=list)
    talon: Tok | None = None
    steps: list[Step | TrickLine | TrickRun | KeyedLine] = field(default_factory=list)
    notes: Notes | None = None   # comments around the deal header (writing only)


@dataclass(slots=True)
class PulkaSyn:
    loc: Loc = NOWHERE
    players: list[Tok] | None = None
    players_loc: Loc = NOWHERE
    rules: Tok | None = None
    options: list[Tok] = field(default_factory=list)      # "key=value"
    pool: Tok | None = None
    whist_price: Tok | None = None
    meta: list[tuple[str, Tok]] = field(default_factory=list)
    start: list[Step] = field(default_factory=list)         # the starting sheet: "score" steps, one per player
    deals: list[DealSyn] = field(default_factory=list)
    end: Tok | None = None
    comments: list[Comment] = field(default_factory=list)   # read from the text form
    notes: list[tuple[int, str, str]] | None = None         # the JSON form's, or the writer's: (seq, place, text)
    tag_notes: Notes | None = None   # comments around the first tag line (writing only)
    end_notes: Notes | None = None   # comments around the End line (writing only)


class Comment(NamedTuple):
    """A comment of the text form: the line it starts on, whether it stands on its own line (nothing
    but other comments before it there), and its text without delimiters and outer blanks."""

    line: int
    own_line: bool
    text: str


@dataclass(slots=True)
class Notes:
    """Comments the writer puts on their own lines before a record line, and at its end."""

    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    trailing: bool = True   # False: ``after`` goes on lines of its own after the line (the pulka's last line)

# Line keywords of the text form (lower case, single spaces) → step kind. Player names may not be
# one of these, so "Name: cards" hand lines stay unambiguous.
KEYWORDS: dict[str, str] = {
    "dealer": "dealer", "сдатчик": "dealer", "сдаёт": "dealer", "сдает": "dealer",
    "talon": "talon", "прикуп": "talon", "widow": "talon",
    "auction": "auction", "bidding": "auction", "bids": "auction", "торговля": "auction",
    "talon shown": "talon_shown", "shown talon": "talon_shown", "revealed": "talon_shown",
    "прикуп открыт": "talon_shown",
    "discard": "discard", "снос": "discard",
    "contract": "contract", "заказ": "contract", "game": "contract",
    "whist": "calls", "whists": "calls", "calls": "calls", "вист": "calls", "висты": "calls",
    "claim": "claim", "claims": "claim",
    "check": "check", "ten check": "check", "проверка": "check",
    "tricks": "tricks", "result": "tricks", "взятки": "tricks",
    "score": "score", "запись": "score",
    "start": "start", "начало": "start",
    "end": "end", "конец": "end",
    "corrects": "corrects", "исправляет": "corrects", "strikes": "strikes", "зачёркивает": "strikes",
    "deal": "deal", "сдача": "deal", "раздача": "deal", "trick": "trick", "взятка": "trick",
}


class Form(IntEnum):
    """How a step line carries what it says, alike in the text and the JSON form (text / JSON)."""

    PAIRS = 0          # (player, value) pairs: ``A 6s, B pass`` / ``[["A", "6s"], ["B", "pass"]]``
    ALL_PASS = 1       # nothing: ``all pass`` / ``"all pass"``
    VALUE = 2          # one value: ``deal 3`` / ``"deal 3"``
    CARDS = 3          # cards: ``7s 8d`` / ``"7s 8d"``
    PLAYER_VALUE = 4   # a player, then a value: ``B 7c 8d`` / ``["B", "7c 8d"]``
    TRICK = 5          # cards, ``(c)`` a raspasy talon card: ``1: 7s 8s (9s)`` / ``["7s", "8s", "(9s)"]``
    COUNTS = 6         # (player or none, number) pairs: ``A 6, B 4`` / ``{"A": 6, "B": 4}`` or ``[6, 4]``
    SCORE = 7          # a score line: player, pulya, gora, visty


@dataclass(frozen=True, slots=True)
class StepSyntax:
    """The record syntax of one step kind: its line's :class:`Form`, the keyword the text form writes
    (``""``: a trick line, written by its number), the JSON form's key, and the event registry's
    ``syntax`` it spells (:data:`preflog.model.registry.BY_SYNTAX`: the events a step of this kind
    yields)."""

    kind: str
    form: Form
    keyword: str
    json_key: str
    syntax: str
    player_optional: bool = False   # PLAYER_VALUE: the player may be left out (the declarer's discard)


STEPS: dict[str, StepSyntax] = {s.kind: s for s in (
    StepSyntax("auction", Form.PAIRS, "Auction", "auction", "auction"),
    StepSyntax("all_pass", Form.ALL_PASS, "Auction", "auction", "auction"),
    StepSyntax("talon_shown", Form.CARDS, "Talon shown", "talon_shown", "talon_shown"),
    StepSyntax("discard", Form.PLAYER_VALUE, "Discard", "discard", "discard", player_optional=True),
    StepSyntax("contract", Form.PLAYER_VALUE, "Contract", "contract", "contract"),
    StepSyntax("calls", Form.PAIRS, "Whist", "whist", "calls"),
    StepSyntax("trick", Form.TRICK, "", "trick", "trick"),
    StepSyntax("claim", Form.COUNTS, "Claim", "claim", "claim"),
    StepSyntax("check", Form.COUNTS, "Check", "check", "check"),
    StepSyntax("tricks", Form.COUNTS, "Tricks", "tricks", "tricks"),
    StepSyntax("score", Form.SCORE, "Score", "score", "score"),
    StepSyntax("corrects", Form.VALUE, "Corrects", "corrects", "correction"),
    StepSyntax("strikes", Form.VALUE, "Strikes", "strikes", "correction"),
)}
"""The one syntax table of the steps of a deal, by step kind: the text and JSON readers and writers
dispatch on a kind's :class:`Form` here, and :mod:`preflog.record.reader` builds its events. A new event
kind whose line has one of these forms is one entry here (and one in the event registry)."""
BY_JSON_KEY: dict[str, StepSyntax] = {s.json_key: s for s in STEPS.values() if s.form != Form.ALL_PASS}
"""The step kinds by the JSON form's key (``"auction": "all pass"`` is the auction's key with a string)."""
ALL_PASS_KEY = STEPS["all_pass"].json_key
"""The JSON key whose string value may say ``all pass``."""
CANONICAL: dict[str, str] = {k: s.keyword for k, s in STEPS.items() if s.keyword}
"""The canonical keyword written for each step kind."""
ALL_PASS_WORDS = frozenset({"all pass", "all-pass", "allpass", "все пас", "распасы", "raspasy"})
