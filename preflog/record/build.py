"""Syntax tree ↔ events: spelling, references and card holders, but no game rules.

Reading resolves players (name or seat letter A–D), cards, bids, calls and counts,
and finds the player of each played card as the seat holding it (so play lines list
cards only). Writing is the exact inverse and refuses events the format cannot
express (:class:`~preflog.record.errors.RecordWriteError`). Whether a bid is legal,
a trick is won or a score is right is the engine's and the scorer's business.
"""

from __future__ import annotations

import bisect
import json
import re
import unicodedata
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from fractions import Fraction
from typing import Any

from preflog.engine.families import family_of
from preflog.errors import ScoringError
from preflog.model import bids as B
from preflog.model import calls as C
from preflog.model.cards import FULL_DECK
from preflog.model.cards import CardError
from preflog.model.cards import format_card
from preflog.model.cards import format_cards
from preflog.model.cards import parse_card
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import Claimed
from preflog.model.events import ContraCalled
from preflog.model.events import ContractDeclared
from preflog.model.events import DealCorrected
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import Event
from preflog.model.events import PaperResult
from preflog.model.events import PlayModeChosen
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import ScoreRecorded
from preflog.model.events import ScoreValue
from preflog.model.events import TalonRevealed
from preflog.model.events import TenChecked
from preflog.model.events import WhistCalled
from preflog.model.events import score_text
from preflog.model.events import score_value
from preflog.model.outcome import bidding_order
from preflog.rules import RulesError
from preflog.rules import resolve
from preflog.rules.config import Rules
from preflog.rules.config import stored_value
from preflog.scoring.settlement import whist_price_value
from preflog.scoring.sheet import Sheet
from preflog.scoring.sheet import StartSheetError

from . import scanner
from .errors import RecordError
from .errors import RecordWriteError
from .errors import Tok
from .syntax import KEYWORDS
from .syntax import DealSyn
from .syntax import HandLine
from .syntax import KeyedLine
from .syntax import Notes
from .syntax import Pair
from .syntax import PulkaSyn
from .syntax import Step
from .syntax import TrickLine
from .syntax import TrickRun
from .syntax import trick_line
from .syntax import trick_pairs

LETTERS = "ABCD"
CONTRA_WORDS = ("contra", "recontra", "subcontra", "mortcontra")
_CONTRA_ALIASES = frozenset(CONTRA_WORDS) | {
    "kontra", "rekontra", "subkontra", "mortkontra", "контра", "реконтра", "субконтра", "мортконтра"}
_META_NAMES = {"event": "Event", "date": "Date", "place": "Place", "id": "Id"}
# Tag names the text reader takes as pulka fields, in every spelling it accepts: never meta keys.
RESERVED_TAGS = frozenset({"players", "rules", "option", "options", "pool", "whistprice", "whist_price",
                           "whist-price"})
_INT = re.compile(r"[+-]?[0-9]+")
HAND_CARDS = 10   # cards dealt to each playing seat (both families)
TALON_CARDS = 2   # cards in the talon, and so in a discard
_META_KEY = re.compile(r"[a-z][a-z0-9_-]*")
_BAD_NAME_CHARS = set(',:;{}[]"=()\n\r\t')
_CARD_EXPECTED = "rank then suit, e.g. Qh, 10♥, Дч"
_CORRECTION = re.compile(r"(?i)deal\s+([0-9]{1,6})(?:\s+at\s+([0-9][0-9T:.+Z-]{0,39}))?")
_COUNT_KINDS = {"claim": Claimed, "check": TenChecked, "tricks": PaperResult}
# Fast path of the reader: the written spellings of every card (exactly what parse_card reads them
# as), and one shared CardPlayed per (seat, card) — events are immutable, so sharing is safe.
_CARD_TOKENS: dict[str, int] = {format_card(c, style): c for c in range(32) for style in ("latin", "unicode")}
assert all(parse_card(t) == c for t, c in _CARD_TOKENS.items())
_PLAYED = [[CardPlayed(seat, c) for c in range(32)] for seat in range(4)]
_BIDS: dict[tuple[int, int], BidMade] = {}  # filled as met: bid codes are a small closed set
_CALLS: dict[tuple[int, str], Event] = {}  # (seat, word as written) -> its whist call event, filled as met
_HOLD = -1  # in a reader's bid cache: the word is a hold word
# id of a bid codec -> (the codec, kept alive so the id stays its own; {bid as written: code or _HOLD})
_BID_CODES: dict[int, tuple[B.BidCodec, dict[str, int]]] = {}
_NUMBERS = tuple(str(i) for i in range(64))  # trick numbers as the canonical text writes them


def _fast_mask(text: str) -> tuple[int, int] | None:
    """``(mask, count)`` of a canonical single-space card list without repeats, or None (then the
    careful path decides)."""
    tokens = _CARD_TOKENS
    seen = 0
    n = 0
    for t in text.split(" "):
        c = tokens.get(t)
        if c is None or seen >> c & 1:
            return None
        seen |= 1 << c
        n += 1
    return seen, n


# the cards of each byte of a card mask: _BYTE_CARDS[k][m] = cards 8k … 8k+7 whose bits are set in m
_BYTE_CARDS = [[tuple(8 * k + c for c in range(8) if m >> c & 1) for m in range(256)] for k in range(4)]


def _cards_in(mask: int) -> tuple[int, ...]:
    b0, b1, b2, b3 = _BYTE_CARDS
    return b0[mask & 255] + b1[mask >> 8 & 255] + b2[mask >> 16 & 255] + b3[mask >> 24]


@dataclass(frozen=True, slots=True)
class Record:
    """One pulka read from a record: its events, starting with :class:`PulkaStarted`."""

    events: tuple[Event, ...]
    lines: tuple[int, ...] = field(default=(), compare=False)
    """The record line each event was read from (text records; 0 where none), for locating findings."""

    @property
    def pulka(self) -> PulkaStarted:
        ev = self.events[0]
        assert isinstance(ev, PulkaStarted)
        return ev

    @property
    def id(self) -> str | None:
        """The ``[Id]`` tag, if the record has one."""
        return dict(self.pulka.meta).get("id")


# ---------------------------------------------------------------------------------- shared helpers
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


class _Holdings:
    """Who holds which card during a deal, so that play lines need no player names."""

    def __init__(self, hands: tuple[int, ...] | None, talon: int | None, owner: list[int] | None = None) -> None:
        self.hands = list(hands) if hands is not None else None
        union = 0
        for h in hands or ():
            union |= h
        # Unrecorded talon of a dealt hand = the cards in nobody's hand.
        self.talon = talon if talon is not None else (FULL_DECK & ~union if hands is not None else 0)
        self.played = 0
        self.discarded = 0
        # card -> seat, kept in step with ``hands``; equals holder() whenever hands are disjoint,
        # which the reader guarantees (the writer, given arbitrary events, uses holder() only)
        if owner is not None:  # the reader's, made as it read the hands (disjoint)
            self.owner = owner
            return
        owner = self.owner = [-1] * 32
        for seat, h in enumerate(self.hands or ()):
            while h:
                low = h & -h
                c = low.bit_length() - 1
                if owner[c] < 0:
                    owner[c] = seat
                h ^= low

    def holder(self, card: int) -> int:
        for seat, h in enumerate(self.hands or ()):
            if h >> card & 1:
                return seat
        return -1

    def why_not_held(self, card: int) -> str:
        bit = 1 << card
        if self.played & bit:
            return "was already played"
        if self.discarded & bit:
            return "was discarded"
        if self.talon & bit:
            return "is in the talon, not in a hand"
        return "is in nobody's hand"

    def discard(self, seat: int, mask: int) -> int:
        """Move the talon into ``seat``'s hand and drop ``mask``; returns a card not held, or -1."""
        if self.hands is None:
            return -1
        pool = self.hands[seat] | self.talon
        missing = mask & ~pool
        if missing:
            return (missing & -missing).bit_length() - 1  # the lowest card not held
        self.hands[seat] = pool & ~mask
        owner = self.owner
        for c in _cards_in(self.talon):
            owner[c] = seat
        for c in _cards_in(mask):
            owner[c] = -1
        self.talon = 0
        self.discarded |= mask
        return -1

    def play(self, card: int) -> int:
        seat = self.holder(card)
        if seat >= 0:
            assert self.hands is not None
            self.hands[seat] &= ~(1 << card)
            self.played |= 1 << card
            self.owner[card] = -1
        return seat


# ------------------------------------------------------------------------------------- reading
class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.names: list[str] = []
        self.n = 0
        self._lower: dict[str, int] = {}
        self._seats: dict[str, int] = {}
        self._by_name: frozenset[str] = frozenset()
        self.named = False   # a move named a player (not by seat letter)
        self.bids = B.RUSSIAN_BIDS
        self._bid_codes: dict[str, int] = {}  # the bid cache of this pulka's codec (_BID_CODES)

    def fail(self, tok: Tok, problem: str, expected: str = "") -> RecordError:
        return RecordError(self.source, tok.loc, tok.text, problem, expected)

    # ---- pulka
    def pulka(self, syn: PulkaSyn) -> Record:
        if syn.players is None:
            raise RecordError(self.source, syn.loc, "", "the pulka has no [Players] tag",
                              '[Players "Anna, Boris, Vera"] among its tags')
        names = [t.text for t in syn.players]
        if not 3 <= len(names) <= 4:
            raise RecordError(self.source, syn.players_loc, ", ".join(names),
                              "does not name 3 or 4 players", "3 or 4 names separated by commas")
        for i, t in enumerate(syn.players):
            problem = name_problem(t.text, i, names)
            if problem:
                raise self.fail(t, problem)
        self.names = names
        self.n = len(names)
        self._lower = {n.lower(): i for i, n in enumerate(names)}
        self._seats = {}
        self._seats = {t: self.seat(Tok(t)) for t in (*LETTERS[: self.n], *names)}  # as written: no lookups
        # spellings that name a player rather than give a seat letter (a player called "A" sits first)
        self._by_name = frozenset(t for t in names if not (len(t) == 1 and t.upper() in LETTERS))
        self.named = False
        spec, inline = self.rules_spec(syn.rules or Tok("sochi"))
        try:
            base = resolve(spec.text)
        except (RulesError, ValueError, TypeError) as exc:
            raise self.fail(spec, "is not a rules spec", f"preset[+override…]: {exc}") from None
        overrides: list[tuple[str, Any]] = []
        for tok in (*inline, *syn.options):
            key, eq, value = tok.text.partition("=")
            key = key.strip().lower().replace("-", "_")
            if not eq or not key:
                raise self.fail(tok, "is not an option", "name=value, e.g. raspasy_cap=4")
            try:
                typed = getattr(base.replace(**{key: value.strip()}), key)
            except (RulesError, ValueError, TypeError, RecursionError) as exc:
                raise self.fail(tok, "is not a valid option", str(exc)) from None
            overrides.append((key, stored_value(typed)))  # a fraction as text: the event is JSON
        try:
            rules = resolve(spec.text, dict(overrides))
        except (RulesError, ValueError, TypeError) as exc:
            raise self.fail(spec, "does not combine with its options", str(exc)) from None
        self.bids = family_of(rules).bids
        self._bid_codes = _BID_CODES.setdefault(id(self.bids), (self.bids, {}))[1]
        pool = self.integer(syn.pool, "is not a pool size", "a whole number of at least 1, e.g. 50", low=1) \
            if syn.pool else 50
        price = syn.whist_price.text.strip() if syn.whist_price else "1"
        if syn.whist_price:
            try:
                whist_price_value(price)
            except ValueError:
                raise self.fail(syn.whist_price, "is not a whist price",
                                "a number such as 1, 0.5, 0,5 or 1/2 (no sign, no currency)") from None
        meta = self.meta(syn.meta)
        start = self.start_sheet(syn, rules, pool)
        events: list[Event] = [PulkaStarted(tuple(names), spec.text.strip(), tuple(overrides), pool, price, meta,
                                            start=start)]
        lines = [syn.loc.line]
        for number, deal in enumerate(syn.deals, 1):
            if deal.number is not None and deal.number.text != str(number):
                raise self.fail(deal.number, "is not the next deal number", str(number))
            events.extend(self.deal(deal, lines))
        if syn.end is not None:
            reason = syn.end.text.strip()
            problem = end_problem(reason)
            if problem is not None:
                raise self.fail(syn.end, f"is not an end reason: it {problem}")
            events.append(PulkaEnded(reason or "closed"))
            lines.append(syn.end.loc.line)
        notes = self.notes(syn, lines)
        if notes:  # placed on the canonical lines, so that writing and reading back keeps them
            notes = canonical_notes(notes, line_starts(events))
        by_name = self.named and all(move_safe(n) for n in names)
        if notes or by_name:
            first = events[0]
            assert isinstance(first, PulkaStarted)
            events[0] = replace(first, notes=notes, by_name=by_name)
        return Record(tuple(events), tuple(lines))

    def notes(self, syn: PulkaSyn, lines: list[int]) -> tuple[tuple[int, str, str], ...]:
        """The annotations of a pulka: the JSON form's as given (checked), or the text form's comments
        placed by their lines: a comment at the end of a line that holds an event goes after that
        event's line; any other comment goes before the next line that holds an event (after the last
        one when none follows)."""
        if syn.notes is not None:
            for i, (seq, place, text) in enumerate(syn.notes):
                where = Tok(str(seq), syn.loc._replace(path=f"{syn.loc.path}.notes[{i}]"))
                if not 0 <= seq < len(lines) or place not in ("before", "after"):
                    raise self.fail(where, "is not a place for a note",
                                    f"[seq, \"before\" or \"after\", text] with seq 0..{len(lines) - 1}")
                problem = note_problem(text)
                if problem is not None:
                    raise self.fail(Tok(text, where.loc), problem)
            return tuple((seq, place, text) for seq, place, text in syn.notes)
        out: list[tuple[int, str, str]] = []
        for c in syn.comments:
            k = bisect.bisect_left(lines, c.line)
            if not c.own_line and k < len(lines) and lines[k] == c.line:
                out.append((k, "after", c.text))
                continue
            k = bisect.bisect_right(lines, c.line)
            out.append((k, "before", c.text) if k < len(lines) else (len(lines) - 1, "after", c.text))
        return tuple(out)

    def start_sheet(self, syn: PulkaSyn, rules: Rules, pool: int) -> tuple[tuple[ScoreValue, ...], ...]:
        """The starting sheet of ``Start:`` lines: one row per seat ``(pulya, gora, visty on each seat)``, a
        player without a line at 0; ``()`` when there is none or it is blank. The family's scorer checks
        that the rules can produce every value; an impossible one is an error at its place on the line."""
        if not syn.start:
            return ()
        n = self.n
        rows: list[list[ScoreValue]] = [[0] * (n + 2) for _ in range(n)]
        lines: dict[int, Step] = {}
        for step in syn.start:
            seat = self.seat(step.player, step.value)
            if seat in lines:
                raise self.fail(step.player or Tok("", step.loc), "has a second starting line",
                                "one 'Start:' line per player")
            lines[seat] = step
            pulya, gora, visty = self.totals(step)
            rows[seat] = [pulya, gora, *visty]
        if not any(v for row in rows for v in row):
            return ()
        sheet = Sheet(n, [r[0] for r in rows], [r[1] for r in rows], [r[2:] for r in rows])
        try:
            family_of(rules).scorer(rules, n, pool).start_from(sheet)
        except StartSheetError as exc:
            at = lines.get(exc.seat) if exc.seat is not None else None
            if at is None:
                first = syn.start[0]
                raise RecordError(self.source, first.loc, "Start", f"is not a possible starting sheet: {exc.message}",
                                  "") from None
            tok: Tok | None = at.player
            if exc.area in ("pulya", "gora"):
                tok = at.fields.get(exc.area, tok)
            elif exc.area == "visty" and exc.on is not None:
                tok = next((q.value for q in at.pairs if self.seat(q.player, q.value) == exc.on), tok)
            raise self.fail(tok or Tok("", at.loc), f"is not possible on a starting sheet: {exc.message}",
                            "") from None
        except (ScoringError, ValueError) as exc:
            raise RecordError(self.source, syn.start[0].loc, "Start", f"cannot start these rules' sheet: {exc}",
                              "") from None
        return tuple(tuple(r) for r in rows)

    def meta(self, tags: Sequence[tuple[str, Tok]]) -> tuple[tuple[str, str], ...]:
        """Meta tags as the writer writes them back: keys lower-cased (as text tag names are), each once;
        a key or value the writer could not write is refused where it stands."""
        out: dict[str, str] = {}
        for key, value in tags:
            low = key.lower()
            if low in out:
                raise self.fail(Tok(key, value.loc), "is a repeated tag", "each tag once per pulka")
            problem = meta_key_problem(low)
            if problem is not None:
                raise self.fail(Tok(key, value.loc), problem)
            problem = meta_value_problem(low, value.text)
            if problem is not None:
                raise self.fail(value, problem)
            out[low] = value.text
        return tuple(out.items())

    def rules_spec(self, tok: Tok) -> tuple[Tok, list[Tok]]:
        """A ``[Rules]`` value split into the spec proper and its ``key=value`` parts, so the spec that
        ``sheet --json`` prints (``sochi+geometric-raspasy+raspasy_cap=4``) reads back: each such part is an
        option, applied in order before the ``[Option]`` tags."""
        if "=" not in tok.text:
            return tok, []
        named: list[Tok] = []
        inline: list[Tok] = []
        at = 0
        for part in tok.text.split("+"):
            lead = len(part) - len(part.lstrip())
            (inline if "=" in part else named).append(Tok(part.strip(), tok.loc.shifted(at + lead)))
            at += len(part) + 1
        if "=" in tok.text.split("+")[0] or not named[0].text:
            raise self.fail(tok, "is not a rules spec", "a preset first, then its overrides, e.g. sochi+raspasy_cap=4")
        return Tok("+".join(t.text for t in named), tok.loc), inline

    # ---- atoms
    def seat(self, tok: Tok | None, where: Tok | None = None) -> int:
        if tok is None:
            assert where is not None
            raise self.fail(where, "names no player", "a player's name or seat letter first")
        fast = self._seats.get(tok.text)
        if fast is not None:
            if not self.named and tok.text in self._by_name:
                self.named = True
            return fast
        t = tok.text.strip()
        seat = self._lower.get(t.lower())
        if seat is not None and not self.named and not (len(t) == 1 and t.upper() in LETTERS):
            self.named = True
        if seat is None and len(t) == 1 and t.upper() in LETTERS[: self.n]:
            seat = LETTERS.index(t.upper())
        if seat is None:
            raise self.fail(tok, "is not a player",
                            f"one of {', '.join(self.names)} or a seat letter {LETTERS[0]}–{LETTERS[self.n - 1]}")
        return seat

    def integer(self, tok: Tok, problem: str, expected: str, low: int | None = None) -> int:
        t = tok.text.strip()
        try:
            value = int(t) if _INT.fullmatch(t) else None
        except ValueError:  # more digits than int() reads (4,300)
            value = None
        if value is None or (low is not None and value < low):
            raise self.fail(tok, problem, expected)
        return value

    def score(self, tok: Tok) -> ScoreValue:
        """A number of a score line: whole, decimal or fraction (``12``, ``12.5``, ``25/2``), exact."""
        try:
            return score_value(tok.text)
        except ValueError:
            raise self.fail(tok, "is not a score", "a whole number, a decimal or a fraction, e.g. 12, 12.5, 25/2") \
                from None

    def cards(self, tok: Tok) -> list[tuple[int, Tok]]:
        out: list[tuple[int, Tok]] = []
        seen = 0
        for m in re.finditer(r"[^\s,]+", tok.text):
            piece = Tok(m.group(), tok.loc.shifted(m.start()))
            if piece.text == "-":
                continue
            c = self.card(piece)
            if seen >> c & 1:
                raise self.fail(piece, "is listed twice")
            seen |= 1 << c
            out.append((c, piece))
        return out

    def card(self, tok: Tok) -> int:
        c = _CARD_TOKENS.get(tok.text)
        if c is not None:
            return c
        try:
            return parse_card(tok.text)
        except CardError:
            raise self.fail(tok, "is not a card", _CARD_EXPECTED) from None

    def bid(self, tok: Tok) -> int:
        try:
            return self.bids.parse(tok.text)
        except B.BidError:
            raise self.fail(tok, "is not a bid", self.bids.calls_text) from None

    # ---- deals
    def deal(self, syn: DealSyn, lines: list[int]) -> list[Event]:
        """The events of one deal; ``lines`` gets the record line of each."""
        if syn.dealer is None:
            raise RecordError(self.source, syn.loc, "", "the deal names no dealer", "'Deal N: dealer A'")
        dealer = self.seat(syn.dealer)
        hands: list[int] | None = None
        scan = scanner.SCAN
        owner = [-1] * 32   # card -> seat holding it
        taken = 0           # mask of the cards in a hand so far
        if syn.hands:
            hands = [0] * self.n
            given: set[int] = set()
            for pair in syn.hands:
                if type(pair) is HandLine and scan is not None:  # the scanner path's hand line
                    seat = self._seats.get(pair.raw[0], -1)
                    if seat >= 0 and seat not in given:
                        got = scan.hand(pair.raw[3:], _CARD_TOKENS, owner, seat, taken, HAND_CARDS)
                        if got is not None:
                            given.add(seat)
                            hands[seat] = got
                            taken |= got
                            continue
                seat = self.seat(pair.player)
                if seat in given:
                    raise self.fail(pair.player or pair.value, "has two hands in this deal")
                given.add(seat)
                if scan is not None:  # the same, compiled: mask and owners in one call
                    got = scan.hand(pair.value.text, _CARD_TOKENS, owner, seat, taken, HAND_CARDS)
                    if got is not None:
                        hands[seat] = got
                        taken |= got
                        continue
                    fast = None
                else:
                    fast = _fast_mask(pair.value.text)
                if fast is not None and fast[1] == HAND_CARDS and not fast[0] & taken:
                    mask = fast[0]
                    hands[seat] = mask
                    taken |= mask
                    for c in _cards_in(mask):
                        owner[c] = seat
                    continue
                cards = self.cards(pair.value)
                for c, piece in cards:
                    if taken >> c & 1:
                        raise self.fail(piece, f"is already in {self.names[owner[c]]}'s hand")
                    owner[c] = seat
                    taken |= 1 << c
                    hands[seat] |= 1 << c
                if cards and len(cards) != HAND_CARDS:  # said here, not where a card of it turns up later
                    raise self.fail(pair.value, f"is a hand of {len(cards)} card{'' if len(cards) == 1 else 's'}",
                                    f"{HAND_CARDS} cards in a hand")
        talon: int | None = None
        if syn.talon is not None:
            fast = _fast_mask(syn.talon.text) if scan is None else scan.mask(syn.talon.text, _CARD_TOKENS)
            if fast is not None and not fast[0] & taken:
                talon = fast[0]
            else:
                talon = 0
                for c, piece in self.cards(syn.talon):
                    if taken >> c & 1:
                        raise self.fail(piece, f"is in {self.names[owner[c]]}'s hand, not in the talon")
                    talon |= 1 << c
        events: list[Event] = [DealStarted(dealer, None if hands is None else tuple(hands), talon)]
        lines.append(syn.loc.line)
        st = _DealReading(_Holdings(None if hands is None else tuple(hands), talon,
                                    owner if hands is not None else None), dealer)
        numbers = _NUMBERS
        fast_trick = self.fast_trick
        for step in syn.steps:
            if type(step) is TrickRun:
                self.trick_run(step, st, events, lines)
                continue
            before = len(events)
            if type(step) is KeyedLine:  # the scanner path's keyed line: its fast path, else its Step
                if self.fast_keyed(step, st, events):
                    lines.extend([step.line] * (len(events) - before))
                    continue
                step = step.step()
            if type(step) is TrickLine:
                # the text form's trick line: straight to the fast path, tokens only if it fails
                n = st.trick_no + 1
                if n < len(numbers) and step.number == numbers[n] and st.cards.hands is not None \
                        and fast_trick(step.cards, st, events):
                    st.trick_no = n
                    line = step.line
                    lines.extend([line] * (len(events) - before))
                    continue
                step = step.step()
            assert isinstance(step, Step)
            self.step(step, st, events)
            lines.extend([step.loc.line] * (len(events) - before))
        return events

    def trick_run(self, run: TrickRun, st: _DealReading, events: list[Event], lines: list[int]) -> None:
        """A run of canonical trick lines (the compiled scanner's): played by it as far as it goes; a
        line it stops at is read here as a :class:`TrickLine` (fast path, else the careful one, which
        raises the exact error), and the scanner goes on after it."""
        scan = scanner.SCAN or scanner.BUILT
        assert scan is not None  # runs are made only when the scanner is built
        j, stop, cards = run.start, run.stop, st.cards
        while j < stop:
            if cards.hands is not None:
                k, st.trick_no, st.last_trick, bits = scan.play(
                    run.lines, j, stop, run.line + j - run.start, st.trick_no, st.last_trick, cards.owner,
                    cards.hands, _PLAYED, _CARD_TOKENS, events, lines)
                cards.played |= bits
                j += k
                if j >= stop:
                    return
            step = trick_line(run.lines[j], run.line + j - run.start)
            before = len(events)
            n = st.trick_no + 1
            if not (n < len(_NUMBERS) and step.number == _NUMBERS[n] and cards.hands is not None
                    and self.fast_trick(step.cards, st, events)):
                self.step(step.step(), st, events)
            else:
                st.trick_no = n
            lines.extend([step.line] * (len(events) - before))
            j += 1

    def step(self, step: Step, st: _DealReading, out: list[Event]) -> None:
        kind = step.kind
        if kind != "trick":
            st.last_trick = -1
        if kind == "auction":
            for pair in step.pairs:
                seat = self.seat(pair.player, pair.value)
                if B.call_words(pair.value.text) in B.HOLD_WORDS:
                    if st.current is None:
                        raise self.fail(pair.value, "holds no bid", "a bid before the first hold")
                    code = st.current
                else:
                    code = self.bid(pair.value)
                if code != B.PASS:
                    st.current, st.bidder = code, seat
                ev = _BIDS.get((seat, code))
                if ev is None:
                    ev = _BIDS[(seat, code)] = BidMade(seat, code)
                out.append(ev)
        elif kind == "all_pass":
            out.extend(BidMade(s, B.PASS) for s in bidding_order(self.n, st.dealer))
        elif kind == "talon_shown":
            assert step.value is not None
            mask = 0
            for c, piece in self.cards(step.value):
                holder = st.cards.holder(c)
                if holder >= 0:
                    raise self.fail(piece, f"is in {self.names[holder]}'s hand, not in the talon")
                mask |= 1 << c
            st.cards.talon = mask
            out.append(TalonRevealed(mask))
        elif kind == "discard":
            assert step.value is not None
            if step.player is not None:
                seat = self.seat(step.player)
            elif st.bidder is not None:
                seat = st.bidder
            else:
                raise self.fail(step.value, "is a discard without a declarer", "'Discard: A 7s 8s'")
            pairs = self.cards(step.value)
            if st.cards.hands is not None and len(pairs) != TALON_CARDS:
                # with the hands known, the cards left in hand depend on it: say so here, not at a later trick
                raise self.fail(step.value, f"is a discard of {len(pairs)} card{'' if len(pairs) == 1 else 's'}",
                                f"exactly {TALON_CARDS} cards: the declarer puts back as many as the talon gave")
            mask = sum(1 << c for c, _ in pairs)
            bad = st.cards.discard(seat, mask)
            if bad >= 0:
                piece = next(p for c, p in pairs if c == bad)
                raise self.fail(piece, f"is neither in {self.names[seat]}'s hand nor in the talon")
            out.append(Discarded(seat, mask))
        elif kind == "contract":
            assert step.value is not None
            seat = self.seat(step.player, step.value)
            code = self.bid(step.value)
            if code not in self.bids.contracts:
                raise self.fail(step.value, "is not a contract", self.bids.contracts_text)
            out.append(ContractDeclared(seat, code))
        elif kind == "calls":
            for pair in step.pairs:
                seat = self.seat(pair.player, pair.value)
                out.append(self.call(seat, pair.value))
        elif kind == "trick":
            self.trick(step, st, out)
        elif kind in _COUNT_KINDS:
            out.append(_COUNT_KINDS[kind](self.counts(step)))
        elif kind == "score":
            seat = self.seat(step.player, step.value)
            pulya, gora, visty = self.totals(step)
            out.append(ScoreRecorded(seat, pulya, gora, tuple(visty)))
        elif kind in ("corrects", "strikes"):
            assert step.value is not None
            m = _CORRECTION.fullmatch(step.value.text.strip())
            if m is None:
                raise self.fail(step.value, "is not a correction", "'deal N', optionally 'at' and when "
                                "(e.g. deal 3 at 2024-05-17T20:15:00Z)")
            out.append(DealCorrected(int(m[1]), kind == "strikes", m[2] or ""))
        else:  # pragma: no cover - the parsers only make the kinds above
            raise RecordError(self.source, step.loc, kind, "is not a step kind")

    def fast_keyed(self, line: KeyedLine, st: _DealReading, out: list[Event]) -> bool:
        """A canonical keyed line (seat letters) applied with cached codes and events; False, with nothing
        changed but the end of the trick sequence (as any step other than a trick), when anything is not
        plainly right: the careful :meth:`step` then reads its :class:`Step`."""
        st.last_trick = -1
        kind, text = line.kind, line.text
        if kind == "auction":
            return self.fast_bids(text, st, out)
        if kind == "calls":
            return self.fast_calls(text, st, out)
        seat = self._seats.get(text[0])
        scan = scanner.SCAN
        if seat is None or scan is None:
            return False
        if kind == "contract":
            code = self._bid_codes.get(text[2:])
            if code is None:
                code = self._bid_code(text[2:])
            if code is None or code == _HOLD or code not in self.bids.contracts:
                return False
            out.append(ContractDeclared(seat, code))
            return True
        fast = scan.mask(text[2:], _CARD_TOKENS)
        if fast is None or not (fast[1] == TALON_CARDS or st.cards.hands is None) \
                or st.cards.discard(seat, fast[0]) >= 0:  # (nothing moves when it fails)
            return False
        out.append(Discarded(seat, fast[0]))
        return True

    def fast_bids(self, text: str, st: _DealReading, out: list[Event]) -> bool:
        """A canonical auction list ``A pass, B 6s`` (seat letters) applied with cached bid codes; False,
        with nothing changed, when any item is not plainly right (the careful loop then reads it)."""
        seats, codes = self._seats, self._bid_codes
        made = []
        current, bidder = st.current, st.bidder
        for item in text.split(", "):
            seat = seats.get(item[0])
            word = item[2:]
            code = codes.get(word)
            if code is None:
                code = self._bid_code(word)
                if code is None:
                    return False
            if seat is None:
                return False
            if code == _HOLD:
                if current is None:
                    return False
                code = current
            if code != B.PASS:
                current, bidder = code, seat
            ev = _BIDS.get((seat, code))
            if ev is None:
                ev = _BIDS[(seat, code)] = BidMade(seat, code)
            made.append(ev)
        st.current, st.bidder = current, bidder
        out.extend(made)
        return True

    def _bid_code(self, word: str) -> int | None:
        """The code of a bid as written (:data:`_HOLD` for a hold word), cached; None if it is not one."""
        if B.call_words(word) in B.HOLD_WORDS:
            code = _HOLD
        else:
            try:
                code = self.bids.parse(word)
            except B.BidError:
                return None
        self._bid_codes[word] = code
        return code

    def fast_calls(self, text: str, st: _DealReading, out: list[Event]) -> bool:
        """A canonical whist list ``C pass, A whist`` applied with cached events (a call's event depends on
        its seat and word only); False, with nothing changed, when any item is not plainly right."""
        seats, cache = self._seats, _CALLS
        made = []
        for item in text.split(", "):
            seat = seats.get(item[0])
            if seat is None:
                return False
            key = (seat, item[2:])
            ev = cache.get(key)
            if ev is None:
                try:
                    ev = cache[key] = self.call(seat, Tok(item[2:]))
                except RecordError:
                    return False
            made.append(ev)
        out.extend(made)
        return True

    def totals(self, step: Step) -> tuple[ScoreValue, ScoreValue, list[ScoreValue]]:
        """(pulya, gora, visty per seat) of a ``Score:`` or ``Start:`` line; what it omits is 0."""
        pulya = self.score(step.fields["pulya"]) if "pulya" in step.fields else 0
        gora = self.score(step.fields["gora"]) if "gora" in step.fields else 0
        visty: list[ScoreValue] = [0] * self.n
        seen: set[int] = set()
        for pair in step.pairs:
            on = self.seat(pair.player, pair.value)
            if on in seen:
                raise self.fail(pair.player or pair.value, "is listed twice in the visty")
            seen.add(on)
            visty[on] = self.score(pair.value)
        return pulya, gora, visty

    def call(self, seat: int, tok: Tok) -> Event:
        word = tok.text.strip().lower()
        if word in _CONTRA_ALIASES:
            return ContraCalled(seat)
        try:
            return WhistCalled(seat, C.parse_call(word))
        except C.CallError:
            pass
        try:
            return PlayModeChosen(seat, C.parse_mode(word))
        except C.CallError:
            raise self.fail(tok, "is not a whist call",
                            "whist, pass, half, return, invite, open, closed or contra") from None

    def trick(self, step: Step, st: _DealReading, out: list[Event]) -> None:
        st.trick_no += 1
        if step.number is not None and step.number.text != str(st.trick_no):
            raise self.fail(step.number, "is not the next trick number", str(st.trick_no))
        if st.cards.hands is None:
            raise RecordError(self.source, step.loc, "", "card play needs the hands, and this deal records none",
                              "a line 'A: cards' per player after the deal header")
        if step.raw is not None and self.fast_trick(step.raw.text, st, out):
            return
        seats: list[int] = []
        for pair in trick_pairs(step):
            c = self.card(pair.value)
            if pair.mark:
                if not st.cards.talon >> c & 1 or st.marked >> c & 1:
                    raise self.fail(pair.value, "is not a card of the talon", "a talon card in ( )")
                st.marked |= 1 << c
                continue
            holder = st.cards.holder(c)
            if holder < 0:
                raise self.fail(pair.value, st.cards.why_not_held(c), "a card in a player's hand")
            name = self.names[holder]
            if holder in seats:
                raise self.fail(pair.value, f"is {name}'s, but {name} already played to trick {st.trick_no}")
            if not seats and st.last_trick >= 0 and not st.last_trick >> holder & 1:
                raise self.fail(pair.value, f"is {name}'s, who has not played to trick {st.trick_no - 1} yet",
                                f"it on the line of trick {st.trick_no - 1}")
            seats.append(holder)
            st.cards.play(c)
            out.append(CardPlayed(holder, c))
        st.last_trick = sum(1 << s for s in seats)

    def fast_trick(self, text: str, st: _DealReading, out: list[Event]) -> bool:
        """A canonical trick line (held cards, single spaces, no talon marks) applied without token
        objects; False, with nothing changed, whenever anything is off: the careful loop then
        reads the line again and raises the exact error."""
        tokens, owner = _CARD_TOKENS, st.cards.owner
        cards: list[int] = []
        seats = 0   # mask of the seats that played
        first = -1
        for t in text.split(" "):
            c = tokens.get(t)
            if c is None:
                return False
            holder = owner[c]
            if holder < 0 or seats >> holder & 1:
                return False
            if first < 0:
                first = holder
            cards.append(c)
            seats |= 1 << holder
        if st.last_trick >= 0 and not st.last_trick >> first & 1:
            return False
        hands = st.cards.hands
        assert hands is not None
        played = _PLAYED
        bits = 0
        for c in cards:
            seat = owner[c]
            hands[seat] &= ~(1 << c)
            owner[c] = -1
            out.append(played[seat][c])
            bits |= 1 << c
        st.cards.played |= bits
        st.last_trick = seats
        return True

    def counts(self, step: Step) -> tuple[int, ...]:
        counts = [0] * self.n
        positional = [p for p in step.pairs if p.player is None]
        if positional and len(positional) != len(step.pairs):
            raise self.fail(positional[0].value, "mixes counts with and without players",
                            "'A 6, B 3, C 1' or '6 3 1'")
        if positional and len(positional) != self.n:
            raise RecordError(self.source, step.loc, "", f"lists {len(positional)} trick counts for {self.n} players",
                              "one count per player in seat order, or 'A 6, B 3, C 1'")
        seen: set[int] = set()
        for i, pair in enumerate(step.pairs):
            seat = i if pair.player is None else self.seat(pair.player)
            if seat in seen:
                raise self.fail(pair.player or pair.value, "is listed twice")
            seen.add(seat)
            counts[seat] = self.integer(pair.value, "is not a trick count", "a whole number 0..10", low=0)
        return tuple(counts)


class _DealReading:
    def __init__(self, cards: _Holdings, dealer: int) -> None:
        self.cards = cards
        self.dealer = dealer
        self.current: int | None = None   # highest bid so far, for "hold"
        self.bidder: int | None = None    # who made it (the declarer, for a discard without a name)
        self.trick_no = 0
        self.last_trick = -1  # mask of the seats that played to the last trick line; -1 after another step
        self.marked = 0


def build_records(pulkas: Iterable[PulkaSyn], source: str) -> list[Record]:
    reader = _Reader(source)
    return [reader.pulka(p) for p in pulkas]


# ------------------------------------------------------------------------------------- writing
class _Writer:
    def __init__(self, style: str) -> None:
        self.style = style
        self.n = 3
        self.bids = B.RUSSIAN_BIDS
        self.index = 0
        self.event: Event = PulkaEnded()
        self.labels = list(LETTERS)
        self.line_of: list[Notes] = []

    def who(self, seat: int) -> Tok:
        if not 0 <= seat < self.n:
            raise self.bad(f"seat {seat} is not a seat of this {self.n}-player table")
        return Tok(self.labels[seat])

    def bad(self, problem: str) -> RecordWriteError:
        return RecordWriteError(f"event #{self.index} ({self.event.KIND}): {problem}")

    def bid_text(self, code: int) -> str:
        if code not in self.bids.calls:
            raise self.bad(f"{code} is not {self.bids.name}")
        return self.bids.format(code, self.style)

    def cards_text(self, mask: int) -> str:
        if not 0 <= mask <= FULL_DECK:
            raise self.bad(f"{mask} is not a card mask")
        return format_cards(mask, self.style) or "-"

    def write(self, events: Sequence[Event]) -> list[PulkaSyn]:
        out: list[PulkaSyn] = []
        pulka: PulkaSyn | None = None
        deal: DealSyn | None = None
        prev: Event | None = None
        labels: list[list[str]] = []
        lines: list[Notes] = []   # the notes of the record line of each event of the current pulka
        start: PulkaStarted | None = None
        for self.index, self.event in enumerate(events):
            ev = self.event
            if isinstance(ev, PulkaStarted):
                self.attach(start, lines, last=False)
                pulka, deal, start = self.start(ev), None, ev
                out.append(pulka)
                labels.append(self.labels)
                pulka.tag_notes = Notes()
                lines = [pulka.tag_notes]
                continue
            elif pulka is None or pulka.end is not None:
                raise self.bad("comes before a pulka_started event" if pulka is None else "comes after pulka_ended")
            elif isinstance(ev, PulkaEnded):
                if end_problem(ev.reason) is not None:
                    raise self.bad(f"the reason {end_problem(ev.reason)}")
                pulka.end = Tok(ev.reason)
                pulka.end_notes = Notes()
                lines.append(pulka.end_notes)
            elif isinstance(ev, DealStarted):
                deal = self.deal(ev)
                deal.notes = Notes()
                pulka.deals.append(deal)
                lines.append(deal.notes)
            elif deal is None:
                raise self.bad("comes outside a deal")
            else:
                self.step(ev, prev, deal)
                last = deal.steps[-1]
                assert isinstance(last, Step)
                if last.notes is None:
                    last.notes = Notes()
                lines.append(last.notes)
            prev = ev
        self.attach(start, lines, last=True)
        self.line_of = lines  # the last pulka's: see line_starts
        for p, names in zip(out, labels, strict=True):  # a whole auction of passes in bidding order: "all pass"
            n = len(p.players or ())
            for d in p.deals:
                dealer = names.index(d.dealer.text) if d.dealer else 0
                passes = [names[s] for s in bidding_order(n, dealer)]
                for step in d.steps:
                    if isinstance(step, Step) and step.kind == "auction" and [
                            (q.player.text if q.player else "", q.value.text) for q in step.pairs] == [
                            (x, "pass") for x in passes]:
                        step.kind, step.pairs = "all_pass", []
        return out

    def attach(self, start: PulkaStarted | None, lines: list[Notes], *, last: bool) -> None:
        """Put a pulka's notes on the record lines of their events (``last``: the file's last pulka)."""
        if start is None:
            return
        # A comment on lines of its own after the file's last line reads back as one after its event; after
        # another pulka's last line it would read as the next pulka's, so there it stays at the line's end.
        lines[-1].trailing = not last
        for seq, place, text in start.notes:
            if not (isinstance(seq, int) and 0 <= seq < len(lines)) or place not in ("before", "after") \
                    or not isinstance(text, str) or note_problem(text) is not None:
                raise RecordWriteError(f"note {[seq, place, text]!r} of the pulka is not [seq of one of its "
                                       f"{len(lines)} events, \"before\" or \"after\", text of one line or "
                                       "several without '}']")
            (lines[seq].before if place == "before" else lines[seq].after).append(text)

    def start(self, ev: PulkaStarted) -> PulkaSyn:
        names = list(ev.players)
        if not 3 <= len(names) <= 4:
            raise self.bad("a record needs 3 or 4 players")
        for i, name in enumerate(names):
            if not isinstance(name, str):
                raise self.bad(f"player {name!r} is not a name")
            problem = name_problem(name, i, names)
            if problem:
                raise self.bad(f"{name!r} {problem}")
        self.n = len(names)
        self.labels = names if ev.by_name and all(move_safe(n) for n in names) else list(LETTERS[: self.n])
        try:
            rules = resolve(ev.rules, dict(ev.overrides))
        except (RulesError, ValueError, TypeError) as exc:
            raise self.bad(f"rules do not resolve: {exc}") from None
        self.bids = family_of(rules).bids
        meta: list[tuple[str, Tok]] = []
        for key, value in ev.meta:
            problem = meta_key_problem(key) or meta_value_problem(key, str(value))
            if problem is not None:
                raise self.bad(problem)
            meta.append((key, Tok(str(value))))
        if "\n" in ev.rules or "\n" in ev.whist_price:
            raise self.bad("rules and whist price must be one line")
        return PulkaSyn(notes=[tuple(x) for x in ev.notes] or None,  # type: ignore[misc]  # (seq, place, text)
                        players=[Tok(n) for n in names], rules=Tok(ev.rules),
                        options=[Tok(f"{k}={option_text(v)}") for k, v in ev.overrides],
                        pool=Tok(str(ev.pool)), whist_price=Tok(ev.whist_price), meta=meta,
                        start=self.start_lines(ev.start))

    def start_lines(self, start: tuple[tuple[ScoreValue, ...], ...]) -> list[Step]:
        """The ``Start:`` lines of a starting sheet: one per player, in seat order (a sheet of zeros is
        no sheet, and is refused: it would read back as none)."""
        if not start:
            return []
        if len(start) != self.n or any(len(r) != self.n + 2 for r in start):
            raise self.bad(f"a starting sheet needs {self.n} rows of {self.n + 2} numbers")
        if not any(v for r in start for v in r):
            raise self.bad("a starting sheet of zeros is written as no starting sheet (start=())")
        steps = []
        for seat, row in enumerate(start):
            pairs = [Pair(self.who(j), Tok(self.score_text(v))) for j, v in enumerate(row[2:]) if j != seat or v]
            steps.append(Step("score", player=self.who(seat), pairs=pairs,
                              fields={"pulya": Tok(self.score_text(row[0])), "gora": Tok(self.score_text(row[1]))}))
        return steps

    def deal(self, ev: DealStarted) -> DealSyn:
        deal = DealSyn(dealer=self.who(ev.dealer))
        if ev.hands is not None:
            if len(ev.hands) != self.n:
                raise self.bad(f"{len(ev.hands)} hands for {self.n} players")
            empty = not any(ev.hands)
            deal.hands = [Pair(self.who(s), Tok(self.cards_text(h))) for s, h in enumerate(ev.hands) if h or empty]
        if ev.talon is not None:
            deal.talon = Tok(self.cards_text(ev.talon))
        self.holdings = _Holdings(ev.hands, ev.talon)
        self.dealer, self.current, self.passers, self.contras = ev.dealer, 0, set[int](), 0
        self.trick: set[int] = set()
        return deal

    def step(self, ev: Event, prev: Event | None, deal: DealSyn) -> None:
        steps: list[Step] = deal.steps  # type: ignore[assignment]  # the writer makes Steps only
        if isinstance(ev, BidMade):
            hold = ev.bid != B.PASS and ev.bid == self.current and ev.bid not in self.bids.not_holds
            pair = Pair(self.who(ev.player), Tok("hold" if hold else self.bid_text(ev.bid)))
            if ev.bid != B.PASS:
                self.current = ev.bid
            if isinstance(prev, BidMade):
                steps[-1].pairs.append(pair)
            else:
                steps.append(Step("auction", pairs=[pair]))
        elif isinstance(ev, TalonRevealed):
            self.holdings.talon = ev.cards
            steps.append(Step("talon_shown", value=Tok(self.cards_text(ev.cards))))
        elif isinstance(ev, Discarded):
            who, text = self.who(ev.player), Tok(self.cards_text(ev.cards))
            if self.holdings.discard(ev.player, ev.cards) >= 0:
                raise self.bad("discards a card neither in the declarer's hand nor in the talon")
            steps.append(Step("discard", player=who, value=text))
        elif isinstance(ev, ContractDeclared):
            if ev.contract not in self.bids.contracts:
                raise self.bad(f"{ev.contract} is not a contract code")
            steps.append(Step("contract", player=self.who(ev.player), value=Tok(self.bid_text(ev.contract))))
        elif isinstance(ev, (WhistCalled, PlayModeChosen, ContraCalled)):
            pair = Pair(self.who(ev.player), Tok(self.call_text(ev)))
            if isinstance(prev, (WhistCalled, PlayModeChosen, ContraCalled)):
                steps[-1].pairs.append(pair)
            else:
                steps.append(Step("calls", pairs=[pair]))
        elif isinstance(ev, CardPlayed):
            self.who(ev.player)
            if self.holdings.hands is None:
                raise self.bad("card play needs the hands in the deal_started event")
            if not 0 <= ev.card < 32:
                raise self.bad(f"{ev.card} is not a card")
            if self.holdings.play(ev.card) != ev.player:
                raise self.bad(f"{format_card(ev.card)} is not in the hand of seat {ev.player}")
            if isinstance(prev, CardPlayed) and ev.player not in self.trick:
                steps[-1].pairs.append(Pair(None, Tok(format_card(ev.card, self.style))))
            else:
                self.trick = set()
                steps.append(Step("trick", pairs=[Pair(None, Tok(format_card(ev.card, self.style)))]))
            self.trick.add(ev.player)
        elif isinstance(ev, (Claimed, TenChecked, PaperResult)):
            kind = {Claimed: "claim", TenChecked: "check", PaperResult: "tricks"}[type(ev)]
            steps.append(Step(kind, pairs=self.counts(ev.tricks)))
        elif isinstance(ev, DealCorrected):
            when = f" at {ev.at}" if ev.at else ""
            if not 0 <= ev.deal < 10 ** 6 or (ev.at and not _CORRECTION.fullmatch(f"deal 1{when}")):
                raise self.bad(f"a correction of deal {ev.deal}{when} cannot be written")
            steps.append(Step("strikes" if ev.struck else "corrects", value=Tok(f"deal {ev.deal}{when}")))
        elif isinstance(ev, ScoreRecorded):
            if len(ev.visty) != self.n:
                raise self.bad(f"{len(ev.visty)} visty entries for {self.n} players")
            pairs = [Pair(self.who(s), Tok(self.score_text(v))) for s, v in enumerate(ev.visty) if s != ev.player or v]
            steps.append(Step("score", player=self.who(ev.player), pairs=pairs,
                              fields={"pulya": Tok(self.score_text(ev.pulya)), "gora": Tok(self.score_text(ev.gora))}))
        else:
            raise self.bad("is not an event a record can hold")

    def score_text(self, v: object) -> str:
        if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
            raise self.bad(f"{v!r} is not a score (a whole number or a Fraction)")
        return score_text(v)

    def counts(self, tricks: tuple[int, ...]) -> list[Pair]:
        if len(tricks) != self.n or any(not isinstance(t, int) or t < 0 for t in tricks):
            raise self.bad(f"{tricks} is not one trick count per player")
        return [Pair(self.who(s), Tok(str(t))) for s, t in enumerate(tricks)]

    def call_text(self, ev: Event) -> str:
        if isinstance(ev, ContraCalled):
            self.contras += 1
            return CONTRA_WORDS[self.contras - 1] if self.contras <= len(CONTRA_WORDS) else "contra"
        if isinstance(ev, PlayModeChosen):
            if ev.mode not in C.MODE_NAMES:
                raise self.bad(f"{ev.mode} is not a play mode")
            return C.MODE_NAMES[ev.mode]
        assert isinstance(ev, WhistCalled)
        if ev.call not in C.CALL_NAMES:
            raise self.bad(f"{ev.call} is not a whist call")
        if ev.call == C.CALL_PASS:
            self.passers.add(ev.player)
        elif ev.call == C.CALL_WHIST and ev.player in self.passers:
            return "return"  # a passer's whist is a return ("вернуть вист")
        return C.CALL_NAMES[ev.call]


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


def line_starts(events: Sequence[Event]) -> list[int]:
    """For each event of one pulka, the first event on its canonical record line (the writer puts a
    run of bids, of whist calls, or one trick's cards on one line). An event the writer refuses
    stays its own line."""
    w = _Writer("latin")
    try:
        w.write(events)
    except RecordWriteError:
        return list(range(len(events)))
    first: dict[int, int] = {}
    return [first.setdefault(id(n), i) for i, n in enumerate(w.line_of)]


def unbuild(events: Sequence[Event], style: str = "latin") -> list[PulkaSyn]:
    """The syntax tree that reads back into exactly ``events`` (raises :class:`RecordWriteError`)."""
    if style not in ("latin", "unicode"):
        raise ValueError(f"unknown record style {style!r} (latin or unicode)")
    return _Writer(style).write(events)

