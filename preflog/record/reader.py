"""Syntax tree → events: spelling, references and card holders, but no game rules.

Reading resolves players (name or seat letter A–D), cards, bids, calls and counts, and finds the player
of each played card as the seat holding it (so play lines list cards only). Canonical lines take the fast
paths of :mod:`preflog.record.fast`; everything else, and every error with its exact place, is read here.
Whether a bid is legal, a trick is won or a score is right is the engine's and the scorer's business.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import Any
from typing import NamedTuple

from preflog.engine.families import family_of
from preflog.errors import ScoringError
from preflog.model import bids as B
from preflog.model import calls as C
from preflog.model.cards import CardError
from preflog.model.cards import parse_card
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import ContraCalled
from preflog.model.events import ContractDeclared
from preflog.model.events import DealCorrected
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import Event
from preflog.model.events import PlayModeChosen
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import ScoreRecorded
from preflog.model.events import ScoreValue
from preflog.model.events import TalonRevealed
from preflog.model.events import WhistCalled
from preflog.model.events import score_value
from preflog.model.outcome import bidding_order
from preflog.model.registry import REGISTRY
from preflog.model.registry import Shape
from preflog.rules import RulesError
from preflog.rules import resolve
from preflog.rules.config import Rules
from preflog.rules.config import stored_value
from preflog.scoring.settlement import whist_price_value
from preflog.scoring.sheet import Sheet
from preflog.scoring.sheet import StartSheetError

from . import fast as fastpath
from . import scanner
from .errors import RecordError
from .errors import Tok
from .fast import BID_CODES
from .fast import BIDS
from .fast import CARD_TOKENS
from .fast import NUMBERS
from .fast import FastReading
from .holdings import DealReading
from .holdings import Holdings
from .holdings import cards_in
from .syntax import STEPS
from .syntax import DealSyn
from .syntax import HandLine
from .syntax import KeyedLine
from .syntax import PulkaSyn
from .syntax import Step
from .syntax import TrickLine
from .syntax import TrickRun
from .syntax import trick_pairs
from .validate import CONTRA_ALIASES
from .validate import CORRECTION
from .validate import HAND_CARDS
from .validate import LETTERS
from .validate import TALON_CARDS
from .validate import canonical_notes
from .validate import end_problem
from .validate import meta_key_problem
from .validate import meta_value_problem
from .validate import move_safe
from .validate import name_problem
from .validate import note_problem
from .writer import line_starts

_INT = re.compile(r"[+-]?[0-9]+")
_CARD_EXPECTED = "rank then suit, e.g. Qh, 10♥, Дч"
# the events of the count lines (claim, check, tricks), by the line: the event registry's trick-count events
_COUNT_KINDS: dict[str, type[Event]] = {s.syntax: s.cls for s in REGISTRY if s.shape == Shape.TRICKS}


class Stated(NamedTuple):
    """A fact a record states beside its events (a PPN deal line's value, refa, each player's tricks and
    columns, the results: :mod:`preflog.record.ppn`), checked against the replay by
    :func:`preflog.record.ppn.stated_findings`.

    ``what`` is ``value``, ``refa``, ``tricks`` (``seat``'s tricks), ``middle`` (``seat``'s middle column,
    as PPN counts it: down is good), ``juha`` (what ``seat`` writes on ``on``) or ``result``; ``deal`` is
    the deal number (0 for a result); ``line`` and ``column`` locate it in the file."""

    deal: int
    what: str
    value: int
    line: int
    column: int
    seat: int = -1
    on: int = -1


@dataclass(frozen=True, slots=True)
class Record:
    """One pulka read from a record: its events, starting with :class:`PulkaStarted`."""

    events: tuple[Event, ...]
    lines: tuple[int, ...] = field(default=(), compare=False)
    """The record line each event was read from (text records; 0 where none), for locating findings."""
    cols: tuple[int, ...] = field(default=(), compare=False)
    """The column of the field each event was read from, where the form knows it (PPN; else empty)."""
    stated: tuple[Stated, ...] = field(default=(), compare=False)
    """What the record states beside its events (PPN), to be checked against the replay."""

    @property
    def pulka(self) -> PulkaStarted:
        ev = self.events[0]
        assert isinstance(ev, PulkaStarted)
        return ev

    @property
    def id(self) -> str | None:
        """The ``[Id]`` tag, if the record has one."""
        return dict(self.pulka.meta).get("id")


class Reader(FastReading):
    def __init__(self, source: str) -> None:
        self.source = source
        self.names: list[str] = []
        self.n = 0
        self._lower: dict[str, int] = {}
        self._seats: dict[str, int] = {}
        self._by_name: frozenset[str] = frozenset()
        self.named = False   # a move named a player (not by seat letter)
        self.bids = B.RUSSIAN_BIDS
        self._bid_codes: dict[str, int] = {}  # the bid cache of this pulka's codec (BID_CODES)

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
        self._bid_codes = BID_CODES.setdefault(id(self.bids), (self.bids, {}))[1]
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
        c = CARD_TOKENS.get(tok.text)
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
                        got = scan.hand(pair.raw[3:], CARD_TOKENS, owner, seat, taken, HAND_CARDS)
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
                    got = scan.hand(pair.value.text, CARD_TOKENS, owner, seat, taken, HAND_CARDS)
                    if got is not None:
                        hands[seat] = got
                        taken |= got
                        continue
                    fast = None
                else:
                    fast = fastpath.fast_mask(pair.value.text)
                if fast is not None and fast[1] == HAND_CARDS and not fast[0] & taken:
                    mask = fast[0]
                    hands[seat] = mask
                    taken |= mask
                    for c in cards_in(mask):
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
            fast = fastpath.fast_mask(syn.talon.text) if scan is None else scan.mask(syn.talon.text, CARD_TOKENS)
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
        st = DealReading(Holdings(None if hands is None else tuple(hands), talon,
                                    owner if hands is not None else None), dealer)
        numbers = NUMBERS
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
    def step(self, step: Step, st: DealReading, out: list[Event]) -> None:
        """The events of one step, by its kind's builder (:data:`_BUILD`, one per step kind of
        :data:`~preflog.record.syntax.STEPS`)."""
        if step.kind != "trick":
            st.last_trick = -1
        build = _BUILD.get(step.kind)
        if build is None:  # pragma: no cover - the parsers only make the kinds of STEPS
            raise RecordError(self.source, step.loc, step.kind, "is not a step kind")
        build(self, step, st, out)

    def _auction(self, step: Step, st: DealReading, out: list[Event]) -> None:
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
            ev = BIDS.get((seat, code))
            if ev is None:
                ev = BIDS[(seat, code)] = BidMade(seat, code)
            out.append(ev)

    def _all_pass(self, step: Step, st: DealReading, out: list[Event]) -> None:
        out.extend(BidMade(s, B.PASS) for s in bidding_order(self.n, st.dealer))

    def _talon_shown(self, step: Step, st: DealReading, out: list[Event]) -> None:
        assert step.value is not None
        mask = 0
        for c, piece in self.cards(step.value):
            holder = st.cards.holder(c)
            if holder >= 0:
                raise self.fail(piece, f"is in {self.names[holder]}'s hand, not in the talon")
            mask |= 1 << c
        st.cards.talon = mask
        out.append(TalonRevealed(mask))

    def _discard(self, step: Step, st: DealReading, out: list[Event]) -> None:
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

    def _contract(self, step: Step, st: DealReading, out: list[Event]) -> None:
        assert step.value is not None
        seat = self.seat(step.player, step.value)
        code = self.bid(step.value)
        if code not in self.bids.contracts:
            raise self.fail(step.value, "is not a contract", self.bids.contracts_text)
        out.append(ContractDeclared(seat, code))

    def _calls(self, step: Step, st: DealReading, out: list[Event]) -> None:
        for pair in step.pairs:
            seat = self.seat(pair.player, pair.value)
            out.append(self.call(seat, pair.value))

    def _counts(self, step: Step, st: DealReading, out: list[Event]) -> None:
        out.append(_COUNT_KINDS[step.kind](self.counts(step)))  # type: ignore[call-arg]

    def _score(self, step: Step, st: DealReading, out: list[Event]) -> None:
        seat = self.seat(step.player, step.value)
        pulya, gora, visty = self.totals(step)
        out.append(ScoreRecorded(seat, pulya, gora, tuple(visty)))

    def _correction(self, step: Step, st: DealReading, out: list[Event]) -> None:
        assert step.value is not None
        m = CORRECTION.fullmatch(step.value.text.strip())
        if m is None:
            raise self.fail(step.value, "is not a correction", "'deal N', optionally 'at' and when "
                            "(e.g. deal 3 at 2024-05-17T20:15:00Z)")
        out.append(DealCorrected(int(m[1]), step.kind == "strikes", m[2] or ""))

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
        if word in CONTRA_ALIASES:
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

    def trick(self, step: Step, st: DealReading, out: list[Event]) -> None:
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


_BUILD: dict[str, Callable[[Reader, Step, DealReading, list[Event]], None]] = {
    "auction": Reader._auction, "all_pass": Reader._all_pass, "talon_shown": Reader._talon_shown,
    "discard": Reader._discard, "contract": Reader._contract, "calls": Reader._calls, "trick": Reader.trick,
    **dict.fromkeys(_COUNT_KINDS, Reader._counts), "score": Reader._score,
    **dict.fromkeys((k for k, s in STEPS.items() if s.syntax == "correction"), Reader._correction),
}
"""The builder of each step kind's events (:meth:`Reader.step`)."""
assert set(_BUILD) == set(STEPS), "one builder per step kind of the syntax table"


def build_records(pulkas: Iterable[PulkaSyn], source: str) -> list[Record]:
    reader = Reader(source)
    return [reader.pulka(p) for p in pulkas]

