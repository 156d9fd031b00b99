"""Live entry at card level, optional per deal: the hands, the talon, the auction, the discard, the
contract, the whist calls and the play trick by trick, tapped on a phone and turned into the events the
record reader writes for the same deal written card by card (docs/record-format.md, "Deal blocks").

A page sends its *draft* of the deal: the cards of each hand and of the talon as tapped so far, and the
steps taken since (each one an option this module offered). :func:`draft_view` completes the layout (the
last hand or the talon, whichever is left, from the cards nobody holds), writes the draft as events
(``DealStarted`` with hands and talon, ``BidMade`` …, ``Discarded``, ``ContractDeclared``, ``WhistCalled``,
``PlayModeChosen``, ``CardPlayed`` …, ``Claimed``), replays the pulka with them through the engine's
auditor, and says what may come next: the deal state machine's own legal actions (:meth:`Deal.legal_actions`,
:meth:`TrickPlay.legal_cards`), never a second copy of the rules. A step the engine refuses is refused with
the audit's sentence (:class:`DraftRefused`). :func:`card_events` is the finished deal's events, which the app
appends like a paper-level deal (audited first, then the store's optimistic concurrency).

A deal may be card level in part: the hands and the auction known, the play cut short by a claim of the
tricks that remain (at any trick, the first included), as a record's ``Claim:`` line says. The engine
takes no contract without its auction once hands are known (``contract_without_auction``), so the auction
is entered too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from enum import StrEnum
from typing import Any

from ..engine.deal import Deal
from ..engine.deal import Phase
from ..engine.findings import Finding
from ..engine.replay import Auditor
from ..engine.replay import corrected_walk
from ..errors import PreflogError
from ..model.bidcodes import PASS
from ..model.calls import CALL_NAMES
from ..model.calls import MODE_NAMES
from ..model.cards import FULL_DECK
from ..model.cards import RANK_LATIN
from ..model.cards import SUIT_UNICODE
from ..model.cards import cards_of
from ..model.cards import format_card
from ..model.cards import suit_of
from ..model.events import BidMade
from ..model.events import CardPlayed
from ..model.events import Claimed
from ..model.events import ContractDeclared
from ..model.events import DealStarted
from ..model.events import Discarded
from ..model.events import Event
from ..model.events import PlayModeChosen
from ..model.events import PulkaStarted
from ..model.events import WhistCalled
from ..model.outcome import NO_SEAT
from ..model.outcome import bidding_order
from .entry import EntryError
from .entry import deal_blocks

MOST_STEPS = 120
"""Steps a draft may hold: an auction of a few dozen calls, the discard, the contract, the calls and 30 cards."""
HAND = 10
TALON = 2


class StepKind(StrEnum):
    """A step of a card-level draft, as a page sends it: ``[kind, seat, value]`` (a claim: ``[kind, tricks]``)."""

    BID = "bid"
    DISCARD = "discard"    # value: the two cards' codes
    CONTRACT = "contract"
    WHIST = "whist"
    MODE = "mode"
    CARD = "card"
    CLAIM = "claim"        # the tricks that remain, per seat


class DraftRefused(PreflogError):
    """A step of the draft the engine refuses: ``finding`` is the audit's, ``step`` the index of the step
    (-1: the layout of the hands)."""

    def __init__(self, finding: Finding, step: int) -> None:
        super().__init__(finding.message)
        self.finding, self.step = finding, step


# the events of the steps, by kind; what the page sends back is what :func:`_option` offered
_EVENT_KINDS: dict[type[Event], StepKind] = {
    BidMade: StepKind.BID, Discarded: StepKind.DISCARD, ContractDeclared: StepKind.CONTRACT,
    WhistCalled: StepKind.WHIST, PlayModeChosen: StepKind.MODE, CardPlayed: StepKind.CARD, Claimed: StepKind.CLAIM}
_CALL_WORDS = {"pass": "pass · пас", "whist": "whist · вист", "half": "half · полвиста"}
_MODE_WORDS = {"open": "open · в светлую", "closed": "closed · втёмную"}


def deck() -> list[dict[str, Any]]:
    """The 32 cards as a page draws its grid: code, rank, suit symbol and suit, in the order of the codes."""
    return [{"code": c, "rank": RANK_LATIN[c & 7], "suit": SUIT_UNICODE[c >> 3], "s": c >> 3,
             "text": format_card(c, "unicode")} for c in range(32)]


@dataclass(frozen=True, slots=True)
class Draft:
    """A card-level deal as tapped so far (its shape checked: seats of the table, cards of the pack)."""

    dealer: int
    hands: tuple[int, ...]
    """Each seat's cards as a mask (the 4-player dealer's: none)."""
    talon: int
    steps: tuple[Event, ...]

    @classmethod
    def from_json(cls, data: Any, n: int, dealer: int | None) -> Draft:
        """The draft a page sent (``n`` players; ``dealer``: the table's next dealer, when the draft names none)."""
        if not isinstance(data, Mapping):
            raise EntryError("a card-level deal is a JSON object")
        given = data.get("dealer", dealer)
        if type(given) is not int or not 0 <= given < n:
            raise EntryError(f"dealer is a seat of this table (0 to {n - 1})")
        hands_in = data.get("hands")
        if not isinstance(hands_in, list) or len(hands_in) != n:
            raise EntryError(f"hands are {n} lists of cards, one per seat")
        hands = tuple(_mask(h, f"the hand of seat {s}", HAND) for s, h in enumerate(hands_in))
        out = [s for s in range(n) if hands[s] and s not in bidding_order(n, given)]
        if out:
            raise EntryError(f"seat {out[0]} deals and sits out this deal: it is dealt no cards")
        talon = _mask(data.get("talon") or [], "the talon", TALON)
        steps_in = data.get("steps") or []
        if not isinstance(steps_in, list) or len(steps_in) > MOST_STEPS:
            raise EntryError(f"steps are a list of at most {MOST_STEPS}")
        steps = tuple(_step(s, n) for s in steps_in)
        return cls(given, hands, talon, steps)

    def layout(self, n: int) -> tuple[tuple[int, ...], int] | None:
        """The hands and the talon once every card has its place: the one hand or the talon still short is
        filled with the cards nobody holds; None while more than that is missing (or a card is given twice:
        the engine names it)."""
        dealt = bidding_order(n, self.dealer)
        hands = list(self.hands)
        known = 0
        for h in [*hands, self.talon]:
            if known & h:
                return tuple(hands), self.talon   # a card twice: the engine's layout check says so
            known |= h
        short = [s for s in dealt if hands[s].bit_count() < HAND]
        talon_short = self.talon.bit_count() < TALON
        left = FULL_DECK & ~known
        if not short and not talon_short:
            return tuple(hands), self.talon
        if len(short) + talon_short != 1:
            return None
        if talon_short:
            return tuple(hands), self.talon | left
        hands[short[0]] |= left
        return tuple(hands), self.talon

    def events(self, n: int) -> list[Event]:
        """The draft's events (the layout completed); ``[]`` while the layout is not."""
        laid = self.layout(n)
        if laid is None:
            return []
        hands, talon = laid
        return [DealStarted(dealer=self.dealer, hands=hands, talon=talon), *self.steps]


def _mask(cards: Any, what: str, most: int) -> int:
    if not isinstance(cards, list) or len(cards) > most or not all(type(c) is int and 0 <= c < 32 for c in cards):
        raise EntryError(f"{what} is a list of at most {most} card codes (0 to 31)")
    mask = 0
    for c in cards:
        if mask >> c & 1:
            raise EntryError(f"{what} holds {format_card(c)} twice")
        mask |= 1 << c
    return mask


def _step(data: Any, n: int) -> Event:
    if not isinstance(data, list) or not data:
        raise EntryError("a step is a list: [kind, seat, value]")
    try:
        kind = StepKind(data[0])
    except (ValueError, TypeError):
        raise EntryError(f"a step's kind is one of {', '.join(k.value for k in StepKind)}") from None
    if kind is StepKind.CLAIM:
        if len(data) != 2 or not isinstance(data[1], list) or len(data[1]) != n \
                or not all(type(t) is int and 0 <= t <= HAND for t in data[1]):
            raise EntryError(f"a claim is [\"claim\", tricks]: {n} whole numbers from 0 to {HAND}")
        return Claimed(tuple(data[1]))
    if len(data) != 3 or type(data[1]) is not int or not 0 <= data[1] < n:
        raise EntryError(f"a step is [kind, seat, value], the seat 0 to {n - 1}")
    seat, value = data[1], data[2]
    if kind is StepKind.DISCARD:
        return Discarded(seat, _mask(value, "a discard", TALON))
    if type(value) is not int or not 0 <= value < 1000:
        raise EntryError("a step's value is a whole number (a code the entry offered)")
    if kind is StepKind.BID:
        return BidMade(seat, value)
    if kind is StepKind.CONTRACT:
        return ContractDeclared(seat, value)
    if kind is StepKind.WHIST:
        return WhistCalled(seat, value)
    if kind is StepKind.MODE:
        return PlayModeChosen(seat, value)
    if value >= 32:
        raise EntryError("a card is a code 0 to 31")
    return CardPlayed(seat, value)


def _as_step(ev: Event) -> list[Any]:
    """The page's form of a step event (what :func:`_step` reads back to ``ev``)."""
    kind = _EVENT_KINDS[type(ev)]
    e: Any = ev   # the step kind says which event it is (no chain of event classes: preflog.model.registry)
    if kind is StepKind.CLAIM:
        return [kind.value, list(e.tricks)]
    if kind is StepKind.DISCARD:
        return [kind.value, e.player, list(cards_of(e.cards))]
    if kind is StepKind.CARD:
        return [kind.value, e.player, e.card]
    row = ev.to_row()
    return [kind.value, row[1], row[3]]


def replayed(events: Sequence[Event], new: Sequence[Event]) -> Auditor:
    """The engine's auditor after the pulka's ``events`` and then ``new``, stepped one by one (the deal
    ``new`` opens is left open: no end of the log closes it); :class:`DraftRefused` at the first of ``new``
    that brings a finding."""
    a = Auditor()
    a.reuse_deals = True   # one deal object for the pulka, as a whole-log audit: only the last one is looked at
    positions = corrected_walk(a, list(events))
    for i, k in enumerate(positions):
        ev = events[k]
        a.step(i, ev.to_row(), ev)
    base = len(positions)
    for j, ev in enumerate(new):
        had = len(a.findings)
        a.step(base + j, ev.to_row(), ev)
        if len(a.findings) > had:
            raise DraftRefused(a.findings[had], j - 1)
    return a


def _label(d: Deal, ev: Event) -> str:
    kind = _EVENT_KINDS.get(type(ev))
    e: Any = ev   # the step kind says which event it is
    if kind is StepKind.BID:
        said = [b for _, b in d.auction.history if b != PASS]
        return f"{d.bid_text(e.bid)} · hold" if e.bid != PASS and said and said[-1] == e.bid else d.bid_text(e.bid)
    if kind is StepKind.CONTRACT:
        return d.bid_text(e.contract)
    if kind is StepKind.WHIST:
        word = CALL_NAMES.get(e.call, str(e.call))
        return _CALL_WORDS.get(word, word)
    if kind is StepKind.MODE:
        word = MODE_NAMES.get(e.mode, str(e.mode))
        return _MODE_WORDS.get(word, word)
    return repr(ev)


def draft_view(events: Sequence[Event], data: Any, n: int, dealer: int | None) -> dict[str, Any]:
    """What the page shows of a card-level draft of the next deal of the pulka whose log is ``events``
    (``n`` players, ``dealer`` the table's next dealer): the layout (completed where it can be), and once it
    is, the deal's phase, who moves, the options the engine allows, the cards that may be played or
    discarded, the hands left, the trick on the table (and in open raspasy the talon leading it), the tricks
    taken, whether the deal is done, and its block as the record writes it. :class:`DraftRefused` when the
    engine refuses a step."""
    draft = Draft.from_json(data, n, dealer)
    new = draft.events(n)
    laid = draft.layout(n)
    view: dict[str, Any] = {"dealer": draft.dealer, "dealt": list(bidding_order(n, draft.dealer)),
                            "complete": bool(new), "steps": [_as_step(ev) for ev in draft.steps]}
    hands, talon = laid if laid is not None else (draft.hands, draft.talon)
    view["hands"] = [list(cards_of(h)) for h in hands]
    view["talon"] = list(cards_of(talon))
    if not new:
        if draft.steps:
            raise EntryError("the steps come once every hand and the talon are laid out")
        return view
    a = replayed(events, new)
    p = a.pulka
    assert p is not None and p.deal is not None
    d = p.deal
    done = d.phase == Phase.DONE
    options: list[dict[str, Any]] = []
    cards: list[int] = []
    mover = d.to_move
    if d.phase == Phase.PLAY:
        cards = list(cards_of(d.legal_cards(d.to_play)))
    elif d.phase == Phase.DISCARD:
        cards = list(cards_of(d.hands[d.declarer] | (d.talon or 0)))
    elif not done:
        options = [{"label": _label(d, ev), "step": _as_step(ev)} for ev in d.legal_actions()]
    claim = not done and d.phase in (Phase.PLAY, Phase.MODE) and not d.trick_cards   # between tricks, as written
    # open raspasy: a talon card leads this trick (nobody's play): the suit led once the engine knows it, else
    # (the first trick before its first card, which shows which talon card was turned) the talon's suits
    talon_leads = None
    if d.phase == Phase.PLAY and d.talon_tricks > d.completed:
        turned = list(cards_of(d.talon or 0))
        suits = [d.suit_led] if d.suit_led >= 0 else sorted({suit_of(c) for c in turned})
        talon_leads = {"talon": turned, "suits": [SUIT_UNICODE[x] for x in suits]}
    view.update({
        "phase": d.phase_name,
        "expected": "" if done else d.expected(),
        "to_move": mover if mover != NO_SEAT and not done else None,
        "declarer": d.declarer if d.declarer != NO_SEAT else None,
        "options": options, "cards": cards,
        "left": [list(cards_of(h)) for h in d.hands] if d.phase >= Phase.PLAY else view["hands"],
        "trick": [[s, c] for s, c in zip(d.trick_seats, d.trick_cards, strict=False)],
        "taken": list(d.tricks), "completed": d.completed,
        "claim": claim, "remaining": 10 - d.completed, "done": done, "talon_leads": talon_leads,
        "text": _block(events, new),
    })
    return view


def _block(events: Sequence[Event], new: Sequence[Event]) -> str:
    """The block of the deal ``new`` as the record writes it after ``events``: written after the pulka's
    start alone (the earlier deals are no part of it, and a long card-level pulka costs a while to write),
    numbered as the whole record numbers it."""
    started = next((ev for ev in events if isinstance(ev, PulkaStarted)), None)
    if started is None:
        return ""
    blocks = deal_blocks([replace(started, notes=(), start=()), *new])
    if not blocks:
        return ""
    number = 1 + sum(isinstance(ev, DealStarted) for ev in events)
    return _HEADER.sub(f"Deal {number}: ", blocks[-1], count=1)


_HEADER = re.compile(r"^Deal [0-9]+: ")


def card_events(events: Sequence[Event], data: Any, n: int, dealer: int | None) -> list[Event]:
    """The events of a finished card-level deal (the draft a page sent), checked by the engine step by step
    (:class:`DraftRefused`); :class:`EntryError` when the layout is not complete or the deal not finished."""
    draft = Draft.from_json(data, n, dealer)
    new = draft.events(n)
    if not new:
        raise EntryError("every hand and the talon are needed for a card-level deal")
    a = replayed(events, new)
    d = a.pulka.deal if a.pulka is not None else None
    if d is None or d.phase != Phase.DONE:
        raise EntryError(f"the deal is not finished: expected {d.expected() if d is not None else 'a deal'}")
    return new
