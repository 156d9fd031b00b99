"""Events → syntax tree: the exact inverse of the reader.

Writing is canonical (runs of bids, of whist calls, one trick's cards on one line; seat letters unless
the pulka was recorded by name) and refuses events the format cannot express
(:class:`~preflog.record.errors.RecordWriteError`). No game rules: a record of illegal play is written
as it stands.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from preflog.engine.families import family_of
from preflog.model import bids as B
from preflog.model import calls as C
from preflog.model.cards import FULL_DECK
from preflog.model.cards import format_card
from preflog.model.cards import format_cards
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
from preflog.model.outcome import bidding_order
from preflog.model.registry import Role
from preflog.model.registry import spec_by_code
from preflog.rules import RulesError
from preflog.rules import resolve

from .errors import RecordWriteError
from .errors import Tok
from .holdings import Holdings
from .syntax import DealSyn
from .syntax import Notes
from .syntax import Pair
from .syntax import PulkaSyn
from .syntax import Step
from .validate import CONTRA_WORDS
from .validate import CORRECTION
from .validate import LETTERS
from .validate import end_problem
from .validate import meta_key_problem
from .validate import meta_value_problem
from .validate import move_safe
from .validate import name_problem
from .validate import note_problem
from .validate import option_text


class Writer:
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
            spec = spec_by_code(getattr(ev, "CODE", -1))
            role = spec.role if spec is not None else None
            if role == Role.PULKA_START:
                assert isinstance(ev, PulkaStarted)
                self.attach(start, lines, last=False)
                pulka, deal, start = self.start(ev), None, ev
                out.append(pulka)
                labels.append(self.labels)
                pulka.tag_notes = Notes()
                lines = [pulka.tag_notes]
                continue
            elif pulka is None or pulka.end is not None:
                raise self.bad("comes before a pulka_started event" if pulka is None else "comes after pulka_ended")
            elif role == Role.PULKA_END:
                assert isinstance(ev, PulkaEnded)
                if end_problem(ev.reason) is not None:
                    raise self.bad(f"the reason {end_problem(ev.reason)}")
                pulka.end = Tok(ev.reason)
                pulka.end_notes = Notes()
                lines.append(pulka.end_notes)
            elif role == Role.DEAL_START:
                assert isinstance(ev, DealStarted)
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
        self.holdings = Holdings(ev.hands, ev.talon)
        self.dealer, self.current, self.passers, self.contras = ev.dealer, 0, set[int](), 0
        self.trick_seats: set[int] = set()
        return deal

    def step(self, ev: Event, prev: Event | None, deal: DealSyn) -> None:
        """Write a deal event on the record line of its syntax (the event registry's ``syntax``): a bid, a
        whist call or a card goes on the line of the one before it when that is of the same kind."""
        steps: list[Step] = deal.steps  # type: ignore[assignment]  # the writer makes Steps only
        spec = spec_by_code(getattr(ev, "CODE", -1))
        write = _LINES.get(spec.syntax) if spec is not None else None
        if write is None:
            raise self.bad("is not an event a record can hold")
        assert spec is not None
        prev_spec = spec_by_code(getattr(prev, "CODE", -1))
        write(self, ev, prev_spec is not None and prev_spec.syntax == spec.syntax, steps)

    def auction(self, ev: BidMade, joined: bool, steps: list[Step]) -> None:
        hold = ev.bid != B.PASS and ev.bid == self.current and ev.bid not in self.bids.not_holds
        pair = Pair(self.who(ev.player), Tok("hold" if hold else self.bid_text(ev.bid)))
        if ev.bid != B.PASS:
            self.current = ev.bid
        if joined:
            steps[-1].pairs.append(pair)
        else:
            steps.append(Step("auction", pairs=[pair]))

    def talon_shown(self, ev: TalonRevealed, joined: bool, steps: list[Step]) -> None:
        self.holdings.talon = ev.cards
        steps.append(Step("talon_shown", value=Tok(self.cards_text(ev.cards))))

    def discard(self, ev: Discarded, joined: bool, steps: list[Step]) -> None:
        who, text = self.who(ev.player), Tok(self.cards_text(ev.cards))
        if self.holdings.discard(ev.player, ev.cards) >= 0:
            raise self.bad("discards a card neither in the declarer's hand nor in the talon")
        steps.append(Step("discard", player=who, value=text))

    def contract(self, ev: ContractDeclared, joined: bool, steps: list[Step]) -> None:
        if ev.contract not in self.bids.contracts:
            raise self.bad(f"{ev.contract} is not a contract code")
        steps.append(Step("contract", player=self.who(ev.player), value=Tok(self.bid_text(ev.contract))))

    def calls(self, ev: WhistCalled | PlayModeChosen | ContraCalled, joined: bool, steps: list[Step]) -> None:
        pair = Pair(self.who(ev.player), Tok(_CALL_WORDS[ev.KIND](self, ev)))
        if joined:
            steps[-1].pairs.append(pair)
        else:
            steps.append(Step("calls", pairs=[pair]))

    def trick(self, ev: CardPlayed, joined: bool, steps: list[Step]) -> None:
        self.who(ev.player)
        if self.holdings.hands is None:
            raise self.bad("card play needs the hands in the deal_started event")
        if not 0 <= ev.card < 32:
            raise self.bad(f"{ev.card} is not a card")
        if self.holdings.play(ev.card) != ev.player:
            raise self.bad(f"{format_card(ev.card)} is not in the hand of seat {ev.player}")
        if joined and ev.player not in self.trick_seats:
            steps[-1].pairs.append(Pair(None, Tok(format_card(ev.card, self.style))))
        else:
            self.trick_seats = set()
            steps.append(Step("trick", pairs=[Pair(None, Tok(format_card(ev.card, self.style)))]))
        self.trick_seats.add(ev.player)

    def counts_line(self, ev: Claimed | TenChecked | PaperResult, joined: bool, steps: list[Step]) -> None:
        spec = spec_by_code(ev.CODE)
        assert spec is not None
        steps.append(Step(spec.syntax, pairs=self.counts(ev.tricks)))

    def score(self, ev: ScoreRecorded, joined: bool, steps: list[Step]) -> None:
        if len(ev.visty) != self.n:
            raise self.bad(f"{len(ev.visty)} visty entries for {self.n} players")
        pairs = [Pair(self.who(s), Tok(self.score_text(v))) for s, v in enumerate(ev.visty) if s != ev.player or v]
        steps.append(Step("score", player=self.who(ev.player), pairs=pairs,
                          fields={"pulya": Tok(self.score_text(ev.pulya)), "gora": Tok(self.score_text(ev.gora))}))

    def correction(self, ev: DealCorrected, joined: bool, steps: list[Step]) -> None:
        when = f" at {ev.at}" if ev.at else ""
        if not 0 <= ev.deal < 10 ** 6 or (ev.at and not CORRECTION.fullmatch(f"deal 1{when}")):
            raise self.bad(f"a correction of deal {ev.deal}{when} cannot be written")
        steps.append(Step("strikes" if ev.struck else "corrects", value=Tok(f"deal {ev.deal}{when}")))

    def score_text(self, v: object) -> str:
        if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
            raise self.bad(f"{v!r} is not a score (a whole number or a Fraction)")
        return score_text(v)

    def counts(self, tricks: tuple[int, ...]) -> list[Pair]:
        if len(tricks) != self.n or any(not isinstance(t, int) or t < 0 for t in tricks):
            raise self.bad(f"{tricks} is not one trick count per player")
        return [Pair(self.who(s), Tok(str(t))) for s, t in enumerate(tricks)]

    def contra_word(self, ev: ContraCalled) -> str:
        self.contras += 1
        return CONTRA_WORDS[self.contras - 1] if self.contras <= len(CONTRA_WORDS) else "contra"

    def mode_word(self, ev: PlayModeChosen) -> str:
        if ev.mode not in C.MODE_NAMES:
            raise self.bad(f"{ev.mode} is not a play mode")
        return C.MODE_NAMES[ev.mode]

    def whist_word(self, ev: WhistCalled) -> str:
        if ev.call not in C.CALL_NAMES:
            raise self.bad(f"{ev.call} is not a whist call")
        if ev.call == C.CALL_PASS:
            self.passers.add(ev.player)
        elif ev.call == C.CALL_WHIST and ev.player in self.passers:
            return "return"  # a passer's whist is a return ("вернуть вист")
        return C.CALL_NAMES[ev.call]


_LINES: dict[str, Callable[[Writer, Any, bool, list[Step]], None]] = {
    "auction": Writer.auction, "talon_shown": Writer.talon_shown, "discard": Writer.discard,
    "contract": Writer.contract, "calls": Writer.calls, "trick": Writer.trick, "claim": Writer.counts_line,
    "check": Writer.counts_line, "tricks": Writer.counts_line, "score": Writer.score,
    "correction": Writer.correction,
}
"""How a deal event is written, by the record line of its syntax (:attr:`EventSpec.syntax`)."""
_CALL_WORDS: dict[str, Callable[[Writer, Any], str]] = {
    WhistCalled.KIND: Writer.whist_word, PlayModeChosen.KIND: Writer.mode_word, ContraCalled.KIND: Writer.contra_word,
}
"""The word of each event written on a ``calls`` line, by its kind."""


def line_starts(events: Sequence[Event]) -> list[int]:
    """For each event of one pulka, the first event on its canonical record line (the writer puts a
    run of bids, of whist calls, or one trick's cards on one line). An event the writer refuses
    stays its own line."""
    w = Writer("latin")
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
    return Writer(style).write(events)

