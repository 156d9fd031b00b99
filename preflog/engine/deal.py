"""One deal ("сдача") from DealStarted to its :class:`DealOutcome`: what both families share.

Phases (:class:`Phase`): auction → discard (the talon is shown; card-level deals know it from
DealStarted) → contract → whist calls → (play mode) → play or claim → outcome. Paper-level deals
(no hands recorded) check everything that needs no cards and end with :class:`PaperResult`.

Every player action has ``verify_x`` (raises :class:`IllegalAction` naming the rule), ``can_x``,
``x`` (verify, then apply; returns the applied event) and ``push_x`` (apply without the checks).
:meth:`Deal.apply` applies an event checked, :meth:`Deal.push` unchecked (for actions taken from
:meth:`Deal.legal_actions`), the way python-chess has ``push_san`` beside ``push``. Both go through
tables keyed by ``Event.CODE`` (:data:`STEPS`, :data:`PUSH`), built from the event registry
(:mod:`preflog.model.registry`: each deal event's action and row shape), which replay uses for rows too. Cards
are played by the trick kernel (:mod:`preflog.engine.tricks`).

The families subclass :class:`Deal`: :class:`~preflog.engine.russian.deal.RussianDeal` and
:class:`~preflog.engine.croatian.deal.CroatianDeal`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from collections.abc import Sequence
from enum import IntEnum
from functools import cache
from functools import lru_cache
from typing import Any
from typing import ClassVar
from typing import Final
from typing import Self

from ..model.cards import FULL_DECK
from ..model.cards import format_card
from ..model.cards import format_cards
from ..model.copying import copy_fields
from ..model.events import BidMade
from ..model.events import CardPlayed
from ..model.events import Claimed
from ..model.events import ContraCalled
from ..model.events import ContractDeclared
from ..model.events import DealStarted
from ..model.events import Discarded
from ..model.events import Event
from ..model.events import PaperResult
from ..model.events import PlayModeChosen
from ..model.events import Row
from ..model.events import TalonRevealed
from ..model.events import TenChecked
from ..model.events import WhistCalled
from ..model.events import from_row
from ..model.layout import bit_count
from ..model.layout import card_count
from ..model.outcome import NO_SEAT
from ..model.outcome import DealOutcome
from ..model.outcome import bidding_order
from ..model.registry import Shape
from ..model.registry import deal_steps
from ..rules.config import Rules
from ..scoring.base import Scorer
from .auction import AuctionBase
from .codes import Code
from .findings import IllegalAction
from .tricks import N_TRICKS
from .tricks import TrickPlay


class Phase(IntEnum):
    """The phase of a deal."""

    AUCTION = 0
    DISCARD = 1
    CONTRACT = 2
    WHIST = 3
    MODE = 4      # open or closed play ("в светлую" / "в тёмную")
    PLAY = 5
    RESULT = 6    # paper level: the result is written next
    DONE = 7

    @property
    def label(self) -> str:
        return "play_mode" if self is Phase.MODE else self.name.lower()


# plain names for the hot paths (Final: the compiled kernel holds them as native ints)
AUCTION: Final[int] = Phase.AUCTION
DISCARD: Final[int] = Phase.DISCARD
CONTRACT: Final[int] = Phase.CONTRACT
WHIST: Final[int] = Phase.WHIST
MODE: Final[int] = Phase.MODE
PLAY: Final[int] = Phase.PLAY
RESULT: Final[int] = Phase.RESULT
DONE: Final[int] = Phase.DONE


# the events the hot actions return, interned: they are immutable values, and building one is
# dearer than finding it
_bid_made: Final = cache(BidMade)
_whist_called: Final = cache(WhistCalled)
_card_played: Final = cache(CardPlayed)
_talon_revealed: Final = cache(TalonRevealed)
_discarded: Final = lru_cache(maxsize=2048)(Discarded)   # (4 seats x 496 pairs; a paper discard: any 2 bits)
_declared: Final = cache(ContractDeclared)
_mode_chosen: Final = cache(PlayModeChosen)


def _cards_text(mask: int) -> str:
    return format_cards(mask) or "-"


def _seating(n: int, dealer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Active seats clockwise from first hand (the 4-player dealer sits out) and each one's next seat."""
    active = bidding_order(n, dealer)
    nxt = [NO_SEAT] * n
    for i, s in enumerate(active):
        nxt[s] = active[(i + 1) % 3]
    return active, tuple(nxt)


# indexed by (table size - 3) * 4 + dealer: a list index per deal, no tuple key built and hashed
_SEATING: Final = [_seating(n, d) if d < n else ((), ()) for n in (3, 4) for d in range(4)]


class Deal(TrickPlay):
    """State of one deal. Seats are 0-based table seats; see the module doc."""

    AUCTION_TYPE: ClassVar[type[AuctionBase]]
    """The family's auction."""
    LADDER: ClassVar[tuple[int, ...]]
    """The family's contracts in ladder order: what a paper deal may declare without an auction."""
    CONTRACTS_TEXT: ClassVar[str]
    PLAYING = PLAY

    def __init__(self, rules: Rules, n_players: int, dealer: int, deal: int = 1, hands: tuple[int, ...] | None = None,
                 talon: int | None = None, min_level: int = 0, *, names: Sequence[str] | None = None) -> None:
        self.names = names   # the players' names: findings name seats "Anna (seat 0)"
        if n_players not in (3, 4):
            raise IllegalAction(Code.BAD_DEAL, f"a table has 3 or 4 players, not {n_players}")
        self.rules = rules
        self._read_rules(rules)
        self.n = n_players
        self._start(dealer, deal, hands, talon, False)
        self.auction = self._new_auction(rules, self.active, min_level)
        self.auction.names = names

    def reopen(self, dealer: int, deal: int, hands: tuple[int, ...] | None = None, talon: int | None = None,
               min_level: int = 0) -> None:
        """Make this object the next deal at the same table, with the same rules and names: afterwards every
        field is what ``type(self)(self.rules, self.n, dealer, deal, hands, talon, min_level, names=self.names)``
        would hold (tests/engine/test_reopen.py compares them field by field), and it raises what that would.
        A whole-log audit reuses one deal object this way (:attr:`PulkaState.reuse_deals`): opening a deal then
        allocates nothing."""
        self._start(dealer, deal, hands, talon, True)
        self.auction.restart(self.active, min_level)

    def _start(self, dealer: int, deal: int, hands: tuple[int, ...] | None, talon: int | None, again: bool) -> None:
        """Every field of a deal at its start, but the auction (the constructor and :meth:`reopen`). ``again``:
        the object held a deal at this table before, and its lists are refilled in place."""
        n_players = self.n
        if not 0 <= dealer < n_players:
            raise IllegalAction(Code.BAD_DEAL, f"dealer {self.who(dealer)} is not at a {n_players}-player table")
        self.dealer = dealer
        self.deal = deal
        self.paper = hands is None
        # seats that play this deal, clockwise from first hand (the 4-player dealer sits out), and
        # the seat after each of them: one table per (table size, dealer), built once
        self.active, nxt = _SEATING[(n_players - 3) * 4 + dealer]
        self.first_hand = self.active[0]
        if hands is not None:
            self._check_layout(hands, talon)
        if again:
            seat_after, held, calls = self._next, self.hands, self.calls
            for s in range(n_players):
                seat_after[s] = nxt[s]
                held[s] = hands[s] if hands is not None else 0
                calls[s] = -1
            self.whist_order.clear()
        else:
            self._next = list(nxt)
            self.hands = list(hands) if hands is not None else [0] * n_players
            self.calls = [-1] * n_players
            self.whist_order = []
        self._talon = talon
        self._init_tricks(n_players, again)
        self.phase = AUCTION          # a Phase value (held as an int: the compiled kernel keeps it unboxed)
        self.declarer = NO_SEAT
        self.contract = 0
        self.discard_mask = None
        self.open_play = False        # the lone whister chose open play (a Russian choice; closed elsewhere)
        self._defenders = (NO_SEAT, NO_SEAT)
        self.outcome = None
        self._start_family()

    def _start_family(self) -> None:
        """The family's own fields at the start of a deal (its overrides set them; called by :meth:`_start`)."""

    def _read_rules(self, rules: Rules) -> None:
        """Read once per deal object the options the family's deal consults every deal (a reopened deal keeps
        its rules): its override stores them as plain fields."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A copy to play on (bots play a deal out on one); the rules object is shared when ``memo`` says so."""
        new = type(self)(self.rules, self.n, self.dealer, self.deal)
        copy_fields(self, new, memo)
        return new

    phase: int
    declarer: int
    contract: int
    discard_mask: int | None
    open_play: bool
    _defenders: tuple[int, int]
    outcome: DealOutcome | None
    calls: list[int]
    whist_order: list[int]

    @property
    def talon(self) -> int | None:
        """The talon ("прикуп") as a card mask, once known."""
        return self._talon

    def __repr__(self) -> str:
        """Where the deal stands, in words and cards: ``<RussianDeal 1, dealer Vera, play; contract Anna 6s;
        tricks Anna 2, Boris 1, Vera 1; on the table Qs; Boris to move; hands Anna: …>`` (no card masks)."""
        name = self._label
        parts = [f"{self.deal}, dealer {name(self.dealer)}, {self.phase_name}" + (" (paper)" if self.paper else "")]
        history = self.auction.history
        if history and self.contract == 0:
            parts.append("auction " + ", ".join(f"{name(s)} {self.bid_text(b)}" for s, b in history))
        if self.declarer != NO_SEAT and self.contract != 0:
            parts.append(f"contract {name(self.declarer)} {self.bid_text(self.contract)}")
        if self.outcome is not None:
            parts.append(f"{self.outcome.kind}")
        if self.completed or self.trick_cards:
            parts.append("tricks " + ", ".join(f"{name(s)} {self.tricks[s]}" for s in self.active))
        if self.trick_cards:
            parts.append("on the table " + " ".join(format_card(c) for c in self.trick_cards))
        mover = self.to_move
        if mover != NO_SEAT and self.phase != DONE:
            parts.append(f"{name(mover)} to move")
        if not self.paper:
            parts.append("hands " + ", ".join(f"{name(s)}: {_cards_text(self.hands[s])}" for s in self.active))
        return f"<{type(self).__name__} {'; '.join(parts)}>"

    def _label(self, seat: int) -> str:
        """A seat as the repr names it: the player's name, else its letter."""
        names = self.names
        if names is not None and 0 <= seat < len(names):
            return names[seat]
        return "ABCD"[seat] if 0 <= seat < 4 else str(seat)

    # ------------------------------------------------------------------ setup
    def _check_layout(self, hands: tuple[object, ...], talon: int | None) -> None:
        """Ten cards to each seat dealt in (none to the sitting-out dealer), no card twice, and a two-card
        talon making up the pack. (``hands`` is read as objects: a payload may hold anything, and an int is
        taken out of its box only once it is known to be one.)"""
        n = self.n
        if len(hands) != n:
            raise IllegalAction(Code.BAD_DEAL, f"{len(hands)} hands recorded for a {n}-player table")
        seen = 0
        out = self.dealer if n == 4 else NO_SEAT  # the 4-player dealer is dealt nothing
        for s in range(n):
            h = hands[s]
            want = 0 if s == out else 10
            if not isinstance(h, int) or h < 0 or h >> 32:
                raise IllegalAction(Code.BAD_DEAL, f"hand of {self.who(s)} is not a card mask")
            if card_count(h) != want:
                raise IllegalAction(Code.BAD_DEAL, f"{self.who(s)} was dealt {card_count(h)} cards, expected {want}")
            if seen & h:
                raise IllegalAction(Code.BAD_DEAL, f"card(s) {_cards_text(seen & h)} dealt twice ({self.who(s)})")
            seen |= h
        if talon is not None:
            if talon & ~FULL_DECK or card_count(talon) != 2 or talon & seen:
                raise IllegalAction(Code.BAD_DEAL, f"talon {_cards_text(talon)} is not two cards outside the hands")
            if seen | talon != FULL_DECK:
                raise IllegalAction(Code.BAD_DEAL, "hands and talon do not make the 32-card pack")

    @classmethod
    def from_event(cls, rules: Rules, n_players: int, ev: DealStarted, deal: int = 1, min_level: int = 0) -> Deal:
        return cls(rules, n_players, ev.dealer, deal, ev.hands, ev.talon, min_level)

    def _new_auction(self, rules: Rules, active: tuple[int, ...], min_level: int) -> AuctionBase:
        """A fresh auction of the family (:attr:`AUCTION_TYPE`); a family overrides it to build its own
        class directly (a native constructor call in the compiled kernel, once per deal)."""
        return self.AUCTION_TYPE(rules, active, min_level)

    @classmethod
    @abstractmethod
    def for_pulka(cls, rules: Rules, n_players: int, dealer: int, hands: tuple[int, ...] | None, talon: int | None,
                  deal: int, scorer: Scorer | None, names: Sequence[str] | None = None) -> Deal:
        """The next deal of a pulka, consulting the pulka's scorer where the family's rules need it (the
        Russian auction's minimum level after raspasy, the Croatian 2♠ rule). Each family builds its own
        class here by name: the compiled kernel then calls the native constructor straight."""

    @abstractmethod
    def next_deal(self, dealer: int, hands: tuple[int, ...] | None, talon: int | None, deal: int,
                  scorer: Scorer | None) -> None:
        """:meth:`reopen` this object as the next deal of its pulka: what :meth:`for_pulka` would build with the
        same table, rules and names."""

    # ------------------------------------------------------------------ helpers
    @property
    def done(self) -> bool:
        return self.phase == DONE

    @property
    def phase_name(self) -> str:
        return Phase(self.phase).label

    def defence_calls(self) -> list[int]:
        """Each seat's call on the contract (whist, pass, …; −1: none), as the family keeps them (the
        viewer shows them)."""
        return list(self.calls)

    def _phase_error(self, what: str, seat: int | None = None) -> IllegalAction:
        if self.phase == DONE:
            return IllegalAction(Code.DEAL_OVER, f"{what} after deal {self.deal} has ended", seat=seat)
        return IllegalAction(Code.EVENT_OUT_OF_ORDER, f"{what} during the {self.phase_name} phase of deal "
                             f"{self.deal}; expected {self.expected()}", seat=seat)

    def expected(self) -> str:
        """What the next event should be, in words (for findings)."""
        p = self.phase
        if p == AUCTION:
            if self.paper and not self.auction.called:
                return f"a bid by {self.who(self.auction.to_move)}, a contract or a paper result"
            return f"a bid by {self.who(self.auction.to_move)}"
        if p == DISCARD:
            return f"the discard of {self.who(self.declarer)}" + (" or the contract" if self.paper else "")
        if p == CONTRACT:
            return f"the contract of {self.who(self.declarer)}"
        if p == PLAY:
            return f"a card by {self.who(self.to_play)} or a claim"
        if p == RESULT:
            return "the paper result"
        return "the next deal"

    @property
    def to_move(self) -> int:
        """Seat expected to act next (NO_SEAT when the next event is not a player's)."""
        p = self.phase
        if p == AUCTION:
            return self.auction.to_move
        if p in (DISCARD, CONTRACT):
            return self.declarer
        if p == PLAY:
            return self.to_play
        return NO_SEAT

    @staticmethod
    @abstractmethod
    def bid_text(bid: int) -> str:
        """A call code as the family writes it."""

    # ------------------------------------------------------------------ auction
    def verify_bid(self, seat: int, bid: int) -> None:
        if self.phase != AUCTION:
            if self.phase != DONE:  # the deal has moved on from its auction (discard, contract, play, result)
                raise IllegalAction(Code.AUCTION_OVER, f"{self._bid_noun} {self.bid_text(bid)} by {self.who(seat)} "
                                    f"after the auction of deal {self.deal} has ended; expected {self.expected()}",
                                    seat=seat)
            raise self._phase_error(f"{self._bid_noun} {self.bid_text(bid)}", seat)
        self.auction.verify_bid(seat, bid)

    _bid_noun = "bid"

    def can_bid(self, seat: int, bid: int) -> bool:
        return _can(self.verify_bid, seat, bid)

    def bid(self, seat: int, bid: int) -> BidMade:
        self._apply_bid(seat, bid)
        return _bid_made(seat, bid)

    def _apply_bid(self, seat: int, bid: int) -> None:
        """:meth:`bid`, checked, without looking up the event it returns: what replay applies
        (:func:`apply_row`). Each ``_apply_x`` below is its action ``x`` the same way."""
        if self.phase != AUCTION:
            self.verify_bid(seat, bid)  # raises the phase error
        self.push_bid(seat, bid)            # the auction verifies the rest of verify_bid first

    def push_bid(self, seat: int, bid: int) -> None:
        a = self.auction
        a.bid(seat, bid)
        if a.done:
            self._auction_over()

    @abstractmethod
    def _auction_over(self) -> None:
        """Move on from a finished auction (to the discard, the contract, raspasy or the end)."""

    # ------------------------------------------------------------------ talon and discard
    def verify_reveal_talon(self, cards: int) -> None:
        raspasy_start = (self.phase in (PLAY, RESULT) and self.declarer == NO_SEAT and not self.completed
                         and not self.trick_cards)
        if self.phase != DISCARD and not raspasy_start:
            raise self._phase_error("talon revealed")
        if bit_count(cards) != 2 or cards & ~FULL_DECK:
            raise IllegalAction(Code.TALON_MISMATCH, f"the talon is two cards, not {_cards_text(cards)}")
        if self._talon is not None and cards != self._talon:
            raise IllegalAction(Code.TALON_MISMATCH, f"revealed talon {_cards_text(cards)} differs from the dealt "
                                f"talon {_cards_text(self._talon)}")

    def can_reveal_talon(self, cards: int) -> bool:
        return _can(self.verify_reveal_talon, cards)

    def reveal_talon(self, cards: int) -> TalonRevealed:
        self._apply_reveal_talon(cards)
        return _talon_revealed(cards)

    def _apply_reveal_talon(self, cards: int) -> None:
        self.verify_reveal_talon(cards)
        self.push_reveal_talon(cards)

    def push_reveal_talon(self, cards: int) -> None:
        self._talon = cards

    def verify_discard(self, seat: int, cards: int) -> None:
        if self.phase != DISCARD:
            raise self._phase_error("discard", seat)
        if seat != self.declarer:
            raise IllegalAction(Code.NOT_DECLARER, f"{self.who(seat)} discards but {self.who(self.declarer)} won "
                                "the auction",
                                seat=seat)
        if bit_count(cards) != 2 or cards < 0:
            raise IllegalAction(Code.DISCARD_NOT_TWO, f"the discard is exactly two cards, not {_cards_text(cards)}",
                                seat=seat)
        if not self.paper:
            held = self.hands[seat] | (self._talon or 0)
            if cards & ~held:
                raise IllegalAction(Code.DISCARD_NOT_HELD, f"{self.who(seat)} discards {_cards_text(cards & ~held)} "
                                    "which "
                                    "he does not hold (hand plus talon)", seat=seat)

    def can_discard(self, seat: int, cards: int) -> bool:
        return _can(self.verify_discard, seat, cards)

    def discard(self, seat: int, cards: int) -> Discarded:
        self._apply_discard(seat, cards)
        return _discarded(seat, cards)

    def _apply_discard(self, seat: int, cards: int) -> None:
        self.verify_discard(seat, cards)
        self.push_discard(seat, cards)

    def push_discard(self, seat: int, cards: int) -> None:
        if not self.paper:
            self.hands[seat] = (self.hands[seat] | (self._talon or 0)) & ~cards
        self.discard_mask = cards
        self.phase = CONTRACT

    # ------------------------------------------------------------------ contract
    def verify_declare(self, seat: int, contract: int) -> None:
        p = self.phase
        if p == AUCTION and self.paper and not self.auction.called:
            if contract not in self.LADDER:
                raise IllegalAction(Code.BAD_CONTRACT, f"contract code {contract} is not {self.CONTRACTS_TEXT}",
                                    seat=seat)
            if seat not in self.active:
                raise IllegalAction(Code.NOT_DECLARER, f"{self.who(seat)} sits out this deal and cannot "
                                    "declare", seat=seat)
            self.auction.verify_paper_contract(contract)
            return
        if p == AUCTION:
            raise IllegalAction(Code.CONTRACT_WITHOUT_AUCTION, f"contract declared before the auction ended; "
                                f"expected {self.expected()}", seat=seat)
        if p not in (CONTRACT, DISCARD) or (p == DISCARD and not self.paper):
            raise self._phase_error("contract", seat)
        if seat != self.declarer:
            raise IllegalAction(Code.NOT_DECLARER, f"{self.who(seat)} declares but {self.who(self.declarer)} won "
                                "the auction",
                                seat=seat)
        self.auction.verify_contract(contract)

    def can_declare(self, seat: int, contract: int) -> bool:
        return _can(self.verify_declare, seat, contract)

    def declare(self, seat: int, contract: int) -> ContractDeclared:
        self._apply_declare(seat, contract)
        return _declared(seat, contract)

    def _apply_declare(self, seat: int, contract: int) -> None:
        self.verify_declare(seat, contract)
        self.push_declare(seat, contract)

    def push_declare(self, seat: int, contract: int) -> None:
        self.declarer = seat
        self.contract = contract
        a = self.active
        # the declarer's place among the three (a ValueError off the table, as from a.index)
        i = 0 if a[0] == seat else 1 if a[1] == seat else 2 if a[2] == seat else a.index(seat)
        self._defenders = (a[(i + 1) % 3], a[(i + 2) % 3])  # left of the declarer first
        self._contract_declared()

    @abstractmethod
    def _contract_declared(self) -> None:
        """Move on from the contract (to the whist calls, or straight to play)."""

    # ------------------------------------------------------------------ whist, contra, play mode
    @abstractmethod
    def verify_whist(self, seat: int, call: int) -> None: ...

    def can_whist(self, seat: int, call: int) -> bool:
        return _can(self.verify_whist, seat, call)

    def whist(self, seat: int, call: int) -> WhistCalled:
        self._apply_whist(seat, call)
        return _whist_called(seat, call)

    def _apply_whist(self, seat: int, call: int) -> None:
        self.verify_whist(seat, call)
        self.push_whist(seat, call)

    @abstractmethod
    def push_whist(self, seat: int, call: int) -> None: ...

    def verify_contra(self, seat: int) -> None:
        raise IllegalAction(Code.BAD_CALL, f"{self.who(seat)} calls contra, which does not exist in the Russian game",
                            seat=seat)

    def verify_call_contra(self, seat: int) -> None:
        """:meth:`verify_contra` under the name of the action :meth:`call_contra` (``verify_x`` of action
        ``x``, as :data:`VERIFY` and :meth:`verify` look it up)."""
        self.verify_contra(seat)

    def can_contra(self, seat: int) -> bool:
        return _can(self.verify_contra, seat)

    def call_contra(self, seat: int) -> ContraCalled:
        self.verify_contra(seat)
        self.push_call_contra(seat)
        return ContraCalled(seat)

    def push_call_contra(self, seat: int) -> None:
        raise AssertionError("verify_contra refuses every contra here")

    def verify_choose_mode(self, seat: int, mode: int) -> None:
        raise self._phase_error("play mode", seat)

    def can_choose_mode(self, seat: int, mode: int) -> bool:
        return _can(self.verify_choose_mode, seat, mode)

    def choose_mode(self, seat: int, mode: int) -> PlayModeChosen:
        self._apply_choose_mode(seat, mode)
        return _mode_chosen(seat, mode)

    def _apply_choose_mode(self, seat: int, mode: int) -> None:
        self.verify_choose_mode(seat, mode)
        self.push_choose_mode(seat, mode)

    def push_choose_mode(self, seat: int, mode: int) -> None:
        raise AssertionError("verify_choose_mode refuses every mode here")

    def finish_without_play(self) -> bool:
        """End a deal whose outcome needs no further event (the Croatian 2♠ rule); False if it cannot end now."""
        return False

    # ------------------------------------------------------------------ play
    def verify_play(self, seat: int, card: int) -> None:
        if self.phase != PLAY:
            self._verify_play_before_play(seat, card)
            return
        self.verify_card(seat, card)

    def _verify_play_before_play(self, seat: int, card: int) -> None:
        """A card outside the play phase: the family may let it start play (else a phase error)."""
        raise self._phase_error(f"card {card}", seat)

    def _verify_lead(self, seat: int, card: int, leader: int, verb: str) -> None:
        """The first card of play: by ``leader``, a card he holds."""
        if seat != leader:
            raise IllegalAction(Code.CARD_OUT_OF_TURN, f"{self.who(seat)} {verb} out of turn; {self.who(leader)} leads"
                                + (" to the first trick" if verb == "leads" else ""), seat=seat)
        if not 0 <= card < 32:
            raise IllegalAction(Code.BAD_CARD, f"card code {card} is not a card", seat=seat)
        if not self.hands[seat] >> card & 1:
            raise IllegalAction(Code.CARD_NOT_HELD, f"{self.who(seat)} does not hold {format_card(card)}", seat=seat)

    def can_play(self, seat: int, card: int) -> bool:
        return _can(self.verify_play, seat, card)

    def play(self, seat: int, card: int) -> CardPlayed:
        if self.phase != PLAY:
            self._verify_play_before_play(seat, card)
            self._begin_play()
        if not self.play_card(seat, card):
            self.verify_play(seat, card)   # names the rule the card breaks
            raise AssertionError(f"the trick kernel refused card {card} of {self.who(seat)} without a rule")
        return _card_played(seat, card)

    def push_play(self, seat: int, card: int) -> None:
        if self.phase != PLAY:
            self._begin_play()
        self.play_card(seat, card)

    def begin_play(self) -> None:
        """Start play now on a deal whose next event may be its first card (the Russian open/closed choice
        left to its default, the Croatian defence closed), as the first card would; nothing once play has
        begun. For analysis, which asks the play state (trump, leader, hands) before any card."""
        if not self.paper and (self.phase == MODE or (self.phase == WHIST and self.legal_cards(self.to_move))):
            self._begin_play()

    def _begin_play(self) -> None:
        """Start play on a card that arrives before the play phase (verified by the family)."""
        raise AssertionError("no card may start play here")

    # ------------------------------------------------------------------ claims and results
    def _remaining(self) -> int:
        return N_TRICKS - self.completed

    def _check_counts(self, tricks: tuple[int, ...], what: str, code: Code) -> None:
        if len(tricks) != self.n:
            raise IllegalAction(code, f"{what} lists {len(tricks)} seats, the table has {self.n}")
        if any((not isinstance(t, int)) or t < 0 for t in tricks):
            raise IllegalAction(code, f"{what} has a negative or non-integer trick count {list(tricks)}")

    @abstractmethod
    def verify_claim(self, tricks: tuple[int, ...]) -> None: ...

    def can_claim(self, tricks: tuple[int, ...]) -> bool:
        return _can(self.verify_claim, tricks)

    def claim(self, tricks: tuple[int, ...]) -> Claimed:
        self.verify_claim(tricks)
        self.push_claim(tricks)
        return Claimed(tuple(tricks))

    def push_claim(self, tricks: tuple[int, ...]) -> None:
        if self.phase not in (PLAY, RESULT):
            self._begin_play()   # a claim instead of the first card
        self.take_claimed(tricks)
        self._tricks_over()

    def verify_ten_check(self, tricks: tuple[int, ...]) -> None:
        """Only a Russian 10-game under ``ten_mode=checked`` is checked (the Russian deal allows it)."""
        if self.phase in (PLAY, RESULT, MODE):
            raise IllegalAction(Code.TEN_CHECK_NOT_ALLOWED, "only a 10-game under ten_mode=checked is checked")
        raise self._phase_error("ten check")

    def can_ten_check(self, tricks: tuple[int, ...]) -> bool:
        return _can(self.verify_ten_check, tricks)

    def ten_check(self, tricks: tuple[int, ...]) -> TenChecked:
        self.verify_ten_check(tricks)
        self.push_ten_check(tricks)
        return TenChecked(tuple(tricks))

    def push_ten_check(self, tricks: tuple[int, ...]) -> None:
        raise AssertionError("verify_ten_check refuses every ten check here")

    @abstractmethod
    def verify_paper_result(self, tricks: tuple[int, ...]) -> None: ...

    def can_paper_result(self, tricks: tuple[int, ...]) -> bool:
        return _can(self.verify_paper_result, tricks)

    def paper_result(self, tricks: tuple[int, ...]) -> PaperResult:
        self.verify_paper_result(tricks)
        self.push_paper_result(tricks)
        return PaperResult(tuple(tricks))

    def push_paper_result(self, tricks: tuple[int, ...]) -> None:
        if not self.paper:
            self.push_claim(tricks)  # a card-level deal gives the result as a claim of what remains
        else:
            self._paper_totals(tricks)

    @abstractmethod
    def _paper_totals(self, tricks: tuple[int, ...]) -> None: ...

    @abstractmethod
    def _finish(self, kind: str) -> None:
        """Set :attr:`outcome` and end the deal."""

    # ------------------------------------------------------------------ events
    def verify(self, ev: Event) -> None:
        """Check one deal event against the rules without applying it."""
        VERIFY[ev.CODE](self, ev.to_row(), ev)

    def apply(self, ev: Event) -> Event:
        """Check and apply one deal event (DealStarted is the constructor's job); returns it."""
        STEPS[ev.CODE](self, ev.to_row(), ev)
        return ev

    def push(self, ev: Event) -> Event:
        """Apply one deal event *without* the deal's checks (``push_x``; the auction still checks its calls):
        only for events known to be legal, e.g. taken from :meth:`legal_actions`. A wrong event leaves the
        deal in an undefined state."""
        PUSH[ev.CODE](self, ev.to_row(), ev)
        return ev

    def legal_actions(self) -> list[Event]:
        """Every legal next event (for bots and property tests); empty when the deal is done."""
        p = self.phase
        if p == AUCTION:
            s = self.auction.to_move
            return [BidMade(s, b) for b in self.auction.legal_bids(s)]
        if p == CONTRACT or (p == DISCARD and self.paper):
            return [ContractDeclared(self.declarer, c) for c in self.LADDER if self.can_declare(self.declarer, c)]
        if p == DISCARD:
            held = self.hands[self.declarer] | (self._talon or 0)
            cards = [c for c in range(32) if held >> c & 1]
            return [Discarded(self.declarer, (1 << a) | (1 << b)) for i, a in enumerate(cards) for b in cards[i + 1:]]
        if p == PLAY:
            s = self.to_play
            m = self.legal_cards(s)
            return [CardPlayed(s, c) for c in range(32) if m >> c & 1]
        return []


def _can(fn: Callable[..., None], *args: int | tuple[int, ...]) -> bool:
    try:
        fn(*args)
    except IllegalAction:
        return False
    return True


def _player_value(row: Row, ev: Event | None) -> tuple[int, int]:
    return row[1], row[3]


def _value(row: Row, ev: Event | None) -> tuple[int]:
    return (row[3],)


def _player(row: Row, ev: Event | None) -> tuple[int]:
    return (row[1],)


def _player_card(row: Row, ev: Event | None) -> tuple[int, int]:
    return row[1], row[2]


def _tricks(row: Row, ev: Event | None) -> tuple[tuple[int, ...]]:
    return ((ev if ev is not None else from_row(*row)).tricks,)  # type: ignore[attr-defined]


_ARGS: dict[Shape, Callable[[Row, Event | None], tuple[object, ...]]] = {
    Shape.PLAYER_VALUE: _player_value, Shape.VALUE: _value, Shape.PLAYER: _player, Shape.PLAYER_CARD: _player_card,
    Shape.TRICKS: _tricks,
}
"""A deal action's arguments from the row, by the event's row shape (:class:`~preflog.model.registry.Shape`)."""

_ACTIONS: dict[int, tuple[str, Callable[[Row, Event | None], tuple[object, ...]]]] = {
    s.code: (s.step, _ARGS[s.shape]) for s in deal_steps()}
"""Each deal event's action (``x``: checked, ``verify_x``, ``push_x``: unchecked) and its arguments from a row,
as the event registry (:mod:`preflog.model.registry`) gives them."""

_Step = Callable[[Deal, Row, "Event | None"], object]


def _table(prefix: str) -> dict[int, _Step]:
    def step(name: str, args: Callable[[Row, Event | None], tuple[object, ...]]) -> _Step:
        return lambda d, r, e: getattr(d, name)(*args(r, e))
    return {code: step(prefix + verb, args) for code, (verb, args) in _ACTIONS.items()}


_CHECKED = _table("")
"""The checked action of every deal event, by code, looked up by name: what :data:`STEPS` calls for an
event without a written-out path here."""

# The deal events a row carries whole, by their registry codes: apply_row's written-out chain (the replay's
# hot path, native calls in the compiled kernel); any other one goes through _CHECKED.
_BID: Final = BidMade.CODE
_TALON: Final = TalonRevealed.CODE
_DISCARD: Final = Discarded.CODE
_DECLARE: Final = ContractDeclared.CODE
_WHIST: Final = WhistCalled.CODE
_MODE: Final = PlayModeChosen.CODE
_CONTRA: Final = ContraCalled.CODE
_CARD: Final = CardPlayed.CODE


def apply_row(d: Deal, code: int, player: int, card: int, value: int) -> None:
    """Apply a deal event given by its row's fields, checked (:class:`IllegalAction` names the rule): the
    one dispatch of the events a row carries whole (:data:`ROW_CODES`). :data:`STEPS` calls it for those
    codes; the replay kernel calls it with column values, building no row and no event. The events of the
    chain below are applied by direct calls; any other row event of the registry by its action's name."""
    if code == _BID:
        d._apply_bid(player, value)
    elif code == _CARD:
        d.play(player, card)
    elif code == _WHIST:
        d._apply_whist(player, value)
    elif code == _DISCARD:
        d._apply_discard(player, value)
    elif code == _DECLARE:
        d._apply_declare(player, value)
    elif code == _TALON:
        d._apply_reveal_talon(value)
    elif code == _MODE:
        d._apply_choose_mode(player, value)
    elif code == _CONTRA:
        d.call_contra(player)
    elif code in ROW_CODES:
        _CHECKED[code](d, (code, player, card, value, None), None)
    else:
        raise KeyError(f"event code {code} is not a deal event carried by its row")


def _row_step(d: Deal, r: Row, e: Event | None) -> None:
    apply_row(d, r[0], r[1], r[2], r[3])


ROW_CODES: Final[frozenset[int]] = frozenset(s.code for s in deal_steps() if s.by_row)
"""The deal events applied from their row alone (no payload to decode): the registry's row shapes."""
STEPS: Final[dict[int, _Step]] = {code: _row_step if code in ROW_CODES else _CHECKED[code] for code in _ACTIONS}
"""Checked application of a deal event, by ``Event.CODE``: ``STEPS[code](deal, row, event)`` with the row
``(code, player, card, value, payload)`` and the event when the caller has it (else it is decoded). What a
step returns is no part of it (the hottest ones return None: no event object is looked up for replay)."""
VERIFY = _table("verify_")
"""The checks alone (``verify_x``), by ``Event.CODE``."""
PUSH = _table("push_")
"""Unchecked application (``push_x``), by ``Event.CODE`` (see :meth:`Deal.push`)."""

DEAL_CODES: Final[frozenset[int]] = frozenset(STEPS)
"""``Event.CODE`` of every event a :class:`Deal` applies."""
ROW_CODE_BITS: Final[int] = sum(1 << code for code in ROW_CODES)
""":data:`ROW_CODES` as a bit mask (bit ``code`` set): the replay kernel tests a code with a shift, not a
set lookup (every code is below 63)."""
assert max(ROW_CODES) < 63

__all__ = ["DEAL_CODES", "PUSH", "ROW_CODES", "ROW_CODE_BITS", "STEPS", "VERIFY", "Deal", "Phase", "apply_row"]
