"""The event registry: one entry per event type, read by every place that handles events by type.

Each :class:`EventSpec` says, for one event class of :mod:`preflog.model.events`:

- its **code** and **kind** (``Event.CODE``, ``Event.KIND``) and its **fields**;
- its **row shape** (:class:`Shape`): which of the row columns ``(code, player, card, value, payload)``
  carry it — the engine takes a deal step's arguments from the row by it, and the row codec of the class
  (``to_row``/``from_row``) keeps to it (tests/model/test_event_registry.py);
- its **role** in a replay (:class:`Role`: it opens the pulka, opens a deal, is a step of the open deal,
  is a written score line, or ends the pulka) and, for a deal step, the deal's **action** (``step``: the
  :class:`~preflog.engine.deal.Deal` method ``step`` checks and applies it, ``verify_<step>`` checks it,
  ``push_<step>`` applies it unchecked) and the **stage** of the deal it belongs to (:class:`Stage`);
- its **record syntax**: the kind of record line it is written on (``syntax``: a step kind of
  :mod:`preflog.record.syntax`, whose text keyword and JSON key the text and JSON forms spell; ``pulka``,
  ``deal`` and ``end`` are the pulka's tags, the deal header and the ``End:`` line);
- its **human text**: the one line a person reads for it (the deal viewer), spelled through a
  :class:`Speller` that knows the players, the bids and the words of the pulka's family.

The engine (:mod:`preflog.engine.deal`, :mod:`preflog.engine.replay`), the record reader and writer, the
viewer and the analysis dispatch on these entries, never on chains of ``isinstance`` tests; a new event
type is one class, one entry here and its record syntax.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import fields
from enum import IntEnum
from typing import Any
from typing import Protocol

from .calls import CALL_NAMES
from .calls import MODE_NAMES
from .cards import format_cards
from .events import EVENT_TYPES
from .events import BidMade
from .events import CardPlayed
from .events import Claimed
from .events import ContraCalled
from .events import ContractDeclared
from .events import DealCorrected
from .events import DealStarted
from .events import Discarded
from .events import Event
from .events import PaperResult
from .events import PlayModeChosen
from .events import PulkaEnded
from .events import PulkaStarted
from .events import ScoreRecorded
from .events import ScoreValue
from .events import TalonRevealed
from .events import TenChecked
from .events import WhistCalled


class Role(IntEnum):
    """What an event does in a replay (:meth:`preflog.engine.replay.Auditor.step`)."""

    PULKA_START = 0   # opens the pulka: players, rules, the starting sheet
    DEAL_START = 1    # opens a deal: dealer, hands, talon
    DEAL = 2          # a step of the open deal: Deal.<step>(…)
    SCORE_LINE = 3    # a score line as written, checked against the sheet
    PULKA_END = 4     # ends the pulka
    CORRECTION = 5    # takes a deal out of the sheet (engine.corrections resolves it before the replay)


class Shape(IntEnum):
    """Which row columns ``(code, player, card, value, payload)`` carry an event."""

    PAYLOAD = 0       # a JSON payload (and the player column, when the event has a player)
    LAYOUT = 1        # the dealer in player, the hand count in card, the packed layout in value (else a payload)
    VALUE = 2         # the value column alone
    PLAYER_VALUE = 3  # player and value
    PLAYER = 4        # the player alone
    PLAYER_CARD = 5   # player and card
    TRICKS = 6        # the trick count of each seat, in the payload


ROW_SHAPES = frozenset({Shape.VALUE, Shape.PLAYER_VALUE, Shape.PLAYER, Shape.PLAYER_CARD})
"""The shapes whose events a row carries whole, without a payload: the replay applies them from their columns."""


class Stage(IntEnum):
    """The part of a deal an event belongs to (what the analysis takes copies of the deal at)."""

    NONE = 0          # not a deal event
    AUCTION = 1
    TALON = 2
    DISCARD = 3
    CONTRACT = 4
    DEFENCE = 5       # the defenders' calls before play: whist, pass, contra …
    MODE = 6          # the lone whister's open or closed play
    PLAY = 7          # a card
    FINISH = 8        # the tricks that remain, settled without play (claim, ten check)
    PAPER = 9         # a paper-level deal's result


class Speller(Protocol):
    """How the human text of an event names things: the pulka's players, its family's bids and words."""

    def seat(self, seat: int) -> str: ...

    def bid(self, code: int) -> str: ...

    def contract(self, code: int) -> str: ...

    def number(self, value: ScoreValue) -> str: ...

    def pool(self, ev: PulkaStarted) -> str:
        """``pool 50``, or what the family's sheet starts from instead (``columns start at 60``)."""
        ...

    def sheet_words(self) -> tuple[str, str, str]:
        """The family's words for the pulya column, the gora column ("" when it has none) and the visty
        written, as a score line's text uses them."""
        ...


@dataclass(frozen=True, slots=True)
class EventSpec:
    """The registry entry of one event type (see the module's text)."""

    cls: type[Event]
    role: Role
    shape: Shape
    syntax: str
    text: Callable[[Any, Speller], str]
    """The human line of an event of this type: ``text(event, speller)``."""
    step: str = ""
    stage: Stage = Stage.NONE

    @property
    def code(self) -> int:
        return self.cls.CODE

    @property
    def kind(self) -> str:
        return self.cls.KIND

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self.cls))

    @property
    def by_row(self) -> bool:
        """Whether a row carries the event whole (:data:`ROW_SHAPES`)."""
        return self.shape in ROW_SHAPES


def _cards(mask: int) -> str:
    return format_cards(mask, "unicode")


def _pulka_text(ev: PulkaStarted, sp: Speller) -> str:
    return f"Pulka: {', '.join(ev.players)} · {ev.rules} · {sp.pool(ev)}"


def _score_text(ev: ScoreRecorded, sp: Speller) -> str:
    pool, gora, written = sp.sheet_words()
    visty = " ".join(f"{sp.seat(j)}={sp.number(v)}" for j, v in enumerate(ev.visty) if j != ev.player)
    gora_text = f" {gora} {sp.number(ev.gora)}" if gora else ""
    return f"Score written by {sp.seat(ev.player)}: {pool} {sp.number(ev.pulya)}{gora_text} {written} {visty}"


def _tricks_text(word: str) -> Callable[[Any, Speller], str]:
    def text(ev: Claimed | TenChecked | PaperResult, sp: Speller) -> str:
        return f"{word}: " + ", ".join(f"{sp.seat(s)} {t}" for s, t in enumerate(ev.tricks))
    return text


REGISTRY: tuple[EventSpec, ...] = (
    EventSpec(PulkaStarted, Role.PULKA_START, Shape.PAYLOAD, "pulka", _pulka_text),
    EventSpec(DealStarted, Role.DEAL_START, Shape.LAYOUT, "deal",
              lambda ev, sp: f"Deal: dealer {sp.seat(ev.dealer)}" + (" (paper level)" if ev.hands is None else "")),
    EventSpec(BidMade, Role.DEAL, Shape.PLAYER_VALUE, "auction",
              lambda ev, sp: f"{sp.seat(ev.player)} bids {sp.bid(ev.bid)}", "bid", Stage.AUCTION),
    EventSpec(TalonRevealed, Role.DEAL, Shape.VALUE, "talon_shown",
              lambda ev, sp: f"Talon: {_cards(ev.cards)}", "reveal_talon", Stage.TALON),
    EventSpec(Discarded, Role.DEAL, Shape.PLAYER_VALUE, "discard",
              lambda ev, sp: f"{sp.seat(ev.player)} discards {_cards(ev.cards)}", "discard", Stage.DISCARD),
    EventSpec(ContractDeclared, Role.DEAL, Shape.PLAYER_VALUE, "contract",
              lambda ev, sp: f"{sp.seat(ev.player)} declares {sp.contract(ev.contract)}", "declare", Stage.CONTRACT),
    EventSpec(WhistCalled, Role.DEAL, Shape.PLAYER_VALUE, "calls",
              lambda ev, sp: f"{sp.seat(ev.player)}: {CALL_NAMES.get(ev.call, str(ev.call))}", "whist", Stage.DEFENCE),
    EventSpec(PlayModeChosen, Role.DEAL, Shape.PLAYER_VALUE, "calls",
              lambda ev, sp: f"{sp.seat(ev.player)} plays {MODE_NAMES.get(ev.mode, str(ev.mode))}", "choose_mode",
              Stage.MODE),
    EventSpec(ContraCalled, Role.DEAL, Shape.PLAYER, "calls",
              lambda ev, sp: f"{sp.seat(ev.player)}: contra", "call_contra", Stage.DEFENCE),
    EventSpec(CardPlayed, Role.DEAL, Shape.PLAYER_CARD, "trick",
              lambda ev, sp: f"{sp.seat(ev.player)} plays {_cards(1 << ev.card)}", "play", Stage.PLAY),
    EventSpec(Claimed, Role.DEAL, Shape.TRICKS, "claim", _tricks_text("Claim"), "claim", Stage.FINISH),
    EventSpec(TenChecked, Role.DEAL, Shape.TRICKS, "check", _tricks_text("Ten checked"), "ten_check", Stage.FINISH),
    EventSpec(PaperResult, Role.DEAL, Shape.TRICKS, "tricks", _tricks_text("Tricks"), "paper_result", Stage.PAPER),
    EventSpec(ScoreRecorded, Role.SCORE_LINE, Shape.PAYLOAD, "score", _score_text),
    EventSpec(PulkaEnded, Role.PULKA_END, Shape.PAYLOAD, "end", lambda ev, sp: f"Pulka ended ({ev.reason})"),
    EventSpec(DealCorrected, Role.CORRECTION, Shape.PAYLOAD, "correction",
              lambda ev, sp: (f"Strikes out deal {ev.deal}" if ev.struck else f"Corrects deal {ev.deal}")
              + (f" (at {ev.at})" if ev.at else "")),
)
"""Every event type's entry, in code order."""

assert tuple(s.cls for s in REGISTRY) == EVENT_TYPES, "one entry per event type of preflog.model.events"
assert all((s.role == Role.DEAL) == bool(s.step) == (s.stage != Stage.NONE) for s in REGISTRY)

MAX_CODE = max(s.code for s in REGISTRY)
SPECS: tuple[EventSpec | None, ...] = tuple(next((s for s in REGISTRY if s.code == c), None)
                                            for c in range(MAX_CODE + 1))
"""The entries indexed by event code (None where no event has the code)."""
ROLES: tuple[int, ...] = tuple(-1 if s is None else int(s.role) for s in SPECS)
"""The :class:`Role` of each code as an int (-1: no event): the replay kernel's dispatch, by index."""
STAGES: tuple[int, ...] = tuple(int(Stage.NONE) if s is None else int(s.stage) for s in SPECS)
"""The :class:`Stage` of each code as an int."""
BY_SYNTAX: dict[str, tuple[EventSpec, ...]] = {}
for _s in REGISTRY:
    BY_SYNTAX[_s.syntax] = (*BY_SYNTAX.get(_s.syntax, ()), _s)
del _s


def spec_of(ev: Event) -> EventSpec:
    """The entry of an event's type (a :class:`KeyError` for an event outside the registry)."""
    code = ev.CODE
    s = SPECS[code] if 0 <= code <= MAX_CODE else None
    if s is None or type(ev) is not s.cls:
        raise KeyError(f"{type(ev).__name__} is not a registered event type")
    return s


def spec_by_code(code: int) -> EventSpec | None:
    """The entry of event code ``code``, or None when no event type has it."""
    return SPECS[code] if 0 <= code <= MAX_CODE else None


def deal_steps() -> tuple[EventSpec, ...]:
    """The entries of the events a deal applies (role :attr:`Role.DEAL`), in code order."""
    return tuple(s for s in REGISTRY if s.role == Role.DEAL)


__all__ = ["BY_SYNTAX", "REGISTRY", "ROLES", "ROW_SHAPES", "SPECS", "STAGES", "EventSpec", "Role", "Shape",
           "Speller", "Stage", "deal_steps", "spec_by_code", "spec_of"]
