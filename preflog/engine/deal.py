"""One deal ("сдача") from DealStarted to its :class:`DealOutcome` — the Russian rules engine.

Phases: auction → discard (the talon is shown; card-level deals know it from
DealStarted) → contract → whist calls → (play mode) → play or claim → outcome.
Paper-level deals (no hands recorded) check everything that needs no cards and
end with :class:`PaperResult`.

Every player action has ``verify_x`` (raises :class:`IllegalAction` naming the rule),
``can_x`` and ``x`` (verify, then apply). The play path works on ints only: hands
are bitmasks, a card is valid if ``hand >> card & 1``, follow-suit uses suit masks.

Choices where the spec is silent (see docs/findings.md):
- open raspasy talon ("прикуп" turned card by card): the talon is stored as a mask, so
  the card turned first is the one whose suit the first card of trick 1 matches,
  else the lower card;
- a 10-game under ``ten_mode="checked"`` has no whist calls; it is checked
  (TenChecked) or played out, and both defenders count as whisters;
- a missing PlayModeChosen means closed play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..model.bids import HR_BETTEL, HR_LADDER, MISER, RU_LADDER, format_ru_bid, hr_trump, level_of, ru_trump
from ..model.calls import CALL_HALF, CALL_INVITE, CALL_NAMES, CALL_PASS, CALL_WHIST, PLAY_CLOSED, PLAY_OPEN
from ..model.cards import FULL_DECK, SUIT_MASKS, format_card, format_cards
from ..model.events import (
    BidMade,
    CardPlayed,
    Claimed,
    ContraCalled,
    ContractDeclared,
    DealStarted,
    Discarded,
    Event,
    PaperResult,
    PlayModeChosen,
    Row,
    TalonRevealed,
    TenChecked,
    WhistCalled,
)
from ..model.outcome import ALL_PASS, GAME, HALF_WHIST, NO_SEAT, NOT_WHISTED, RASPASY, DealOutcome
from ..model.outcome import MISER as KIND_MISER
from ..rules.config import Rules
from .auction import Auction, make_auction
from .auction_hr import CroatianDefence, first_leader, format_hr_call, play_over
from .findings import IllegalAction

# --- finding codes (deal) ---
BAD_DEAL = "bad_deal"
"""DealStarted with an impossible layout (hands, talon, dealer)."""
EVENT_OUT_OF_ORDER = "event_out_of_order"
"""An event that does not belong to the current phase of the deal."""
DEAL_OVER = "deal_over"
"""A deal event after the deal has ended."""
TALON_MISMATCH = "talon_mismatch"
"""The revealed talon differs from the talon recorded at the deal (or is not two free cards)."""
NOT_DECLARER = "not_declarer"
"""A discard or contract by a player who did not win the auction."""
DISCARD_NOT_TWO = "discard_not_two"
"""The discard ("снос") is not exactly two cards."""
DISCARD_NOT_HELD = "discard_not_held"
"""The declarer discards a card he does not hold (hand plus talon)."""
CONTRACT_WITHOUT_AUCTION = "contract_without_auction"
"""A card-level deal declares a contract before its auction has ended."""
WHIST_OUT_OF_TURN = "whist_out_of_turn"
"""A whist call by a seat whose turn it is not (left of declarer speaks first)."""
BAD_CALL = "bad_call"
"""A whist call code that does not exist in the Russian game here (e.g. invite)."""
HALF_WHIST_NOT_ALLOWED = "half_whist_not_allowed"
"""Half-whist ("полвиста") not by the second defender after a pass, or at a level not in half_whist_levels."""
HALF_WHISTER_MUST_PASS = "half_whister_must_pass"
"""After the whist was returned the half-whister may only pass."""
TEN_CHECKED_NO_WHIST = "ten_checked_no_whist"
"""A whist call on a 10-game that is checked (ten_mode=checked)."""
MODE_BY_WRONG_SEAT = "mode_by_wrong_seat"
"""Open/closed chosen by someone other than the lone whister."""
BAD_MODE = "bad_mode"
"""A play mode code other than open / closed."""
CARD_OUT_OF_TURN = "card_out_of_turn"
"""A card played by a seat whose turn it is not."""
BAD_CARD = "bad_card"
"""A card code outside 0..31."""
CARD_NOT_HELD = "card_not_held"
"""A card the player does not hold (never dealt to him, discarded or already played)."""
MUST_FOLLOW_SUIT = "must_follow_suit"
"""A player who holds the suit led (or the raspasy talon suit) did not follow it."""
MUST_TRUMP = "must_trump"
"""A player void in the suit led did not trump although he could (must_trump)."""
BAD_CLAIM = "bad_claim"
"""Claimed tricks that do not add up to the tricks remaining."""
BAD_TRICKS = "bad_tricks"
"""A paper result / ten check whose tricks per seat are impossible (count, sum, sitting-out dealer)."""
TEN_CHECK_NOT_ALLOWED = "ten_check_not_allowed"
"""TenChecked outside a 10-game under ten_mode=checked, or after play began."""
# Croatian / Slovenian deals (CroatianDealState)
PLAY_WITHOUT_CONTRA = "play_without_contra"
"""Play (a card, claim or result) in a 2♠ deal with the talon and no refe that no defender contra'd:
the declarer wins without play (RULES.md C3)."""
PASSER_OUT_OF_PLAY = "passer_out_of_play"
"""A card or trick for the defender who passed and was not invited: his cards lie face down (two-handed play)."""
TRICKS_PAST_STOP = "tricks_past_stop"
"""Claimed or paper tricks that play could never reach: it stops at the defenders' 5th trick
(defender_trick_cap), flat-mode Bettel at the declarer's first trick."""

_N_TRICKS = 10

# phases
AUCTION, DISCARD, CONTRACT, WHIST, MODE, PLAY, RESULT, DONE = range(8)
PHASE_NAMES = ("auction", "discard", "contract", "whist", "play_mode", "play", "result", "done")
# whist sub-steps
_W_D1, _W_D2, _W_RETURN, _W_DEALER = range(4)


def _cards_text(mask: int) -> str:
    return format_cards(mask) or "-"


def _seating(n: int, dealer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Active seats clockwise from first hand (the 4-player dealer sits out) and each one's next seat."""
    seats = [(dealer + 1 + i) % n for i in range(n)]
    active = tuple(s for s in seats if n == 3 or s != dealer)
    nxt = [NO_SEAT] * n
    for i, s in enumerate(active):
        nxt[s] = active[(i + 1) % 3]
    return active, tuple(nxt)


_SEATING = {(n, d): _seating(n, d) for n in (3, 4) for d in range(n)}


class DealState:
    """State of one Russian deal. Seats are 0-based table seats; see the module doc."""

    CONTRACTS: frozenset[int] = frozenset(RU_LADDER)  # what a paper deal may declare without an auction
    CONTRACTS_TEXT = "on the Russian ladder"

    def __init__(self, rules: Rules, n_players: int, dealer: int, deal: int = 1, hands: tuple[int, ...] | None = None,
                 talon: int | None = None, min_level: int = 0) -> None:
        if n_players not in (3, 4):
            raise IllegalAction(BAD_DEAL, f"a table has 3 or 4 players, not {n_players}")
        if not 0 <= dealer < n_players:
            raise IllegalAction(BAD_DEAL, f"dealer seat {dealer} is not at a {n_players}-player table")
        self.rules = rules
        self.n = n_players
        self.dealer = dealer
        self.deal = deal
        self.paper = hands is None
        # seats that play this deal, clockwise from first hand (the 4-player dealer sits out), and
        # the seat after each of them: one table per (table size, dealer), built once
        self.active, nxt = _SEATING[n_players, dealer]
        self.first_hand = self.active[0]
        self._next = list(nxt)
        if hands is not None:
            self._check_layout(hands, talon)
        self.hands: list[int] = list(hands) if hands is not None else [0] * n_players
        self.talon: int | None = talon
        self.auction: Auction = make_auction(rules, self.active, min_level)
        self.calls = [-1] * n_players
        self.whist_order: list[int] = []
        self.tricks = [0] * n_players
        self.trick_cards: list[int] = []   # cards of the current trick, in play order
        self.trick_seats: list[int] = []
        self.trick_winners: list[int] = []  # NO_SEAT for a raspasy talon trick nobody took
        # every other field starts at its class-level default below (set on the instance when it changes)

    # starting values of the scalar fields: a deal is opened per DealStarted, and these need no
    # per-instance store until they change
    phase = AUCTION
    declarer = NO_SEAT
    contract = 0
    discard_mask: int | None = None
    half_whister = NO_SEAT
    returner = NO_SEAT
    open_play = False
    checked = False
    _defenders: tuple[int, int] = (NO_SEAT, NO_SEAT)
    _wstep = _W_D1
    _lone = NO_SEAT
    # play state
    trump = -1
    completed = 0                      # tricks finished
    to_play = NO_SEAT
    _led = -1
    _best = -1
    _best_seat = NO_SEAT
    _talon_tricks = 0                  # open raspasy talon: the first two tricks follow talon cards
    _talon_order: tuple[int, int] | None = None
    outcome: DealOutcome | None = None

    # ------------------------------------------------------------------ setup
    def _check_layout(self, hands: tuple[int, ...], talon: int | None) -> None:
        if len(hands) != self.n:
            raise IllegalAction(BAD_DEAL, f"{len(hands)} hands recorded for a {self.n}-player table")
        seen = 0
        out = self.dealer if self.n == 4 else NO_SEAT  # the 4-player dealer is dealt nothing
        for s, h in enumerate(hands):
            want = 0 if s == out else 10
            if not isinstance(h, int) or h < 0 or h >> 32:
                raise IllegalAction(BAD_DEAL, f"hand of seat {s} is not a card mask")
            if h.bit_count() != want:
                raise IllegalAction(BAD_DEAL, f"seat {s} was dealt {h.bit_count()} cards, expected {want}")
            if seen & h:
                raise IllegalAction(BAD_DEAL, f"card(s) {_cards_text(seen & h)} dealt twice (seat {s})")
            seen |= h
        if talon is not None:
            if talon.bit_count() != 2 or talon & seen or talon & ~FULL_DECK:
                raise IllegalAction(BAD_DEAL, f"talon {_cards_text(talon)} is not two cards outside the hands")
            if seen | talon != FULL_DECK:
                raise IllegalAction(BAD_DEAL, "hands and talon do not make the 32-card pack")

    @classmethod
    def from_event(cls, rules: Rules, n_players: int, ev: DealStarted, deal: int = 1,
                   min_level: int = 0) -> DealState:
        return cls(rules, n_players, ev.dealer, deal, ev.hands, ev.talon, min_level)

    # ------------------------------------------------------------------ helpers
    @property
    def done(self) -> bool:
        return self.phase == DONE

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def _phase_error(self, what: str) -> IllegalAction:
        if self.phase == DONE:
            return IllegalAction(DEAL_OVER, f"{what} after deal {self.deal} has ended")
        return IllegalAction(EVENT_OUT_OF_ORDER, f"{what} during the {PHASE_NAMES[self.phase]} phase of deal "
                             f"{self.deal}; expected {self._expected()}")

    def _expected(self) -> str:
        p = self.phase
        if p == AUCTION:
            if self.paper and not self.auction.history:
                return f"a bid by seat {self.auction.to_move}, a contract or a paper result"
            return f"a bid by seat {self.auction.to_move}"
        if p == DISCARD:
            return f"the discard of seat {self.declarer}" + (" or the contract" if self.paper else "")
        if p == CONTRACT:
            return f"the contract of seat {self.declarer}"
        if p == WHIST:
            return f"a whist call by seat {self._whist_turn()}"
        if p == MODE:
            return f"open/closed by seat {self._lone}" + (" or the result" if self.paper else " or the first card")
        if p == PLAY:
            return f"a card by seat {self.to_play} or a claim"
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
        if p == WHIST:
            return self._whist_turn()
        if p == MODE:
            return self._lone
        if p == PLAY:
            return self.to_play
        return NO_SEAT

    # ------------------------------------------------------------------ auction
    def verify_bid(self, seat: int, bid: int) -> None:
        if self.phase != AUCTION:
            raise self._phase_error(f"bid {format_ru_bid(bid) if bid in RU_LADDER or bid in (0, 1) else bid}")
        self.auction.verify_bid(seat, bid)

    def can_bid(self, seat: int, bid: int) -> bool:
        return _can(self.verify_bid, seat, bid)

    def bid(self, seat: int, bid: int) -> None:
        if self.phase != AUCTION:
            self.verify_bid(seat, bid)  # raises the phase error
        a = self.auction
        a.bid(seat, bid)  # verifies the rest of verify_bid (the auction's own verify_bid) first
        if a.done:
            if a.winner == NO_SEAT:
                self._start_raspasy()
            else:
                self.declarer = a.winner
                self.phase = DISCARD

    def _start_raspasy(self) -> None:
        self.contract = 0
        if self.paper:
            self.phase = RESULT
            return
        if self.rules.raspasy_talon_mode == "open":
            self._talon_tricks = 2
        self._start_play()

    # ------------------------------------------------------------------ talon and discard
    def verify_reveal_talon(self, cards: int) -> None:
        raspasy_start = (self.phase in (PLAY, RESULT) and self.declarer == NO_SEAT and not self.completed
                         and not self.trick_cards)
        if self.phase != DISCARD and not raspasy_start:
            raise self._phase_error("talon revealed")
        if cards.bit_count() != 2 or cards & ~FULL_DECK:
            raise IllegalAction(TALON_MISMATCH, f"the talon is two cards, not {_cards_text(cards)}")
        if self.talon is not None and cards != self.talon:
            raise IllegalAction(TALON_MISMATCH, f"revealed talon {_cards_text(cards)} differs from the dealt talon "
                                f"{_cards_text(self.talon)}")

    def can_reveal_talon(self, cards: int) -> bool:
        return _can(self.verify_reveal_talon, cards)

    def reveal_talon(self, cards: int) -> None:
        self.verify_reveal_talon(cards)
        self.talon = cards

    def verify_discard(self, seat: int, cards: int) -> None:
        if self.phase != DISCARD:
            raise self._phase_error("discard")
        if seat != self.declarer:
            raise IllegalAction(NOT_DECLARER, f"seat {seat} discards but seat {self.declarer} won the auction")
        if cards.bit_count() != 2 or cards < 0:
            raise IllegalAction(DISCARD_NOT_TWO, f"the discard is exactly two cards, not {_cards_text(cards)}")
        if not self.paper:
            held = self.hands[seat] | (self.talon or 0)
            if cards & ~held:
                raise IllegalAction(DISCARD_NOT_HELD, f"seat {seat} discards {_cards_text(cards & ~held)} which he "
                                    "does not hold (hand plus talon)")

    def can_discard(self, seat: int, cards: int) -> bool:
        return _can(self.verify_discard, seat, cards)

    def discard(self, seat: int, cards: int) -> None:
        self.verify_discard(seat, cards)
        if not self.paper:
            self.hands[seat] = (self.hands[seat] | (self.talon or 0)) & ~cards
        self.discard_mask = cards
        self.phase = CONTRACT

    # ------------------------------------------------------------------ contract
    def verify_declare(self, seat: int, contract: int) -> None:
        p = self.phase
        if p == AUCTION and self.paper and not self.auction.history:
            if contract not in self.CONTRACTS:
                raise IllegalAction("bad_contract", f"contract code {contract} is not {self.CONTRACTS_TEXT}")
            if seat not in self.active:
                raise IllegalAction(NOT_DECLARER, f"seat {seat} sits out this deal and cannot declare")
            return
        if p == AUCTION:
            raise IllegalAction(CONTRACT_WITHOUT_AUCTION, f"contract declared before the auction ended; "
                                f"expected {self._expected()}")
        if p not in (CONTRACT, DISCARD) or (p == DISCARD and not self.paper):
            raise self._phase_error("contract")
        if seat != self.declarer:
            raise IllegalAction(NOT_DECLARER, f"seat {seat} declares but seat {self.declarer} won the auction")
        self.auction.verify_contract(contract)

    def can_declare(self, seat: int, contract: int) -> bool:
        return _can(self.verify_declare, seat, contract)

    def declare(self, seat: int, contract: int) -> None:
        self.verify_declare(seat, contract)
        self.declarer = seat
        self.contract = contract
        i = self.active.index(seat)
        self._defenders = (self.active[(i + 1) % 3], self.active[(i + 2) % 3])
        if contract == MISER:
            self._after_whist_resolved(play=True)
            return
        if level_of(contract) == 10 and self.rules.ten_mode == "checked":
            self.checked = True
            d1, d2 = self._defenders
            self.calls[d1] = self.calls[d2] = CALL_WHIST
            self.whist_order = [d1, d2]
            self._after_whist_resolved(play=True)
            return
        self.phase = WHIST
        self._wstep = _W_D1

    # ------------------------------------------------------------------ whist
    def _whist_turn(self) -> int:
        d1, d2 = self._defenders
        return (d1, d2, d1, self.dealer)[self._wstep]

    def verify_whist(self, seat: int, call: int) -> None:
        if self.phase != WHIST:
            if self.checked and self.phase in (PLAY, RESULT) and not self.completed and not self.trick_cards:
                raise IllegalAction(TEN_CHECKED_NO_WHIST, "a 10-game is checked, not whisted (ten_mode=checked)")
            if (self.phase in (MODE, PLAY, RESULT) and seat == self.half_whister and self.returner != NO_SEAT
                    and not self.completed and not self.trick_cards and self.calls[seat] == CALL_HALF):
                if call != CALL_PASS:
                    raise IllegalAction(HALF_WHISTER_MUST_PASS, f"the whist was returned; half-whister seat {seat} "
                                        "may only pass")
                return  # the half-whister's closing pass after a return is optional
            raise self._phase_error(f"whist call {CALL_NAMES.get(call, call)}")
        if call not in (CALL_PASS, CALL_WHIST, CALL_HALF):
            raise IllegalAction(BAD_CALL, f"whist call code {call} is not whist, pass or half-whist")
        turn = self._whist_turn()
        if seat != turn:
            raise IllegalAction(WHIST_OUT_OF_TURN, f"seat {seat} calls out of turn; seat {turn} is to call "
                                "(the defender on the declarer's left speaks first)")
        if call == CALL_HALF:
            lvl = level_of(self.contract)
            if self._wstep != _W_D2 or self.calls[self._defenders[0]] != CALL_PASS:
                raise IllegalAction(HALF_WHIST_NOT_ALLOWED, "half-whist is only for the second defender after the "
                                    "first has passed")
            if lvl not in self.rules.half_whist_levels:
                raise IllegalAction(HALF_WHIST_NOT_ALLOWED, f"half-whist is not allowed on a {lvl}-level game "
                                    f"(half_whist_levels {list(self.rules.half_whist_levels)})")

    def can_whist(self, seat: int, call: int) -> bool:
        return _can(self.verify_whist, seat, call)

    def whist(self, seat: int, call: int) -> None:
        self.verify_whist(seat, call)
        if self.phase != WHIST:
            self.calls[seat] = CALL_PASS  # the half-whister's closing pass after a return
            return
        d1, d2 = self._defenders
        step = self._wstep
        if step == _W_D1:
            self.calls[d1] = call
            if call == CALL_WHIST:
                self.whist_order.append(d1)
            self._wstep = _W_D2
            return
        if step == _W_D2:
            self.calls[d2] = call
            if call == CALL_HALF:
                self.half_whister = d2
                self._wstep = _W_RETURN
                return
            if call == CALL_WHIST:
                self.whist_order.append(d2)
            self._resolve_whist()
            return
        if step == _W_RETURN:
            if call == CALL_WHIST:
                self._return(d1)
            elif self.n == 4:
                self._wstep = _W_DEALER
            else:
                self._half_stood()
            return
        # _W_DEALER: the sitting-out dealer may return the whist at a 4-player table
        if call == CALL_WHIST:
            self._return(self.dealer)
        else:
            self._half_stood()

    def _return(self, seat: int) -> None:
        self.returner = seat
        self.calls[seat] = CALL_WHIST
        self.whist_order = [seat]
        self._lone = seat
        self._after_whist_resolved(play=True)
        # the half-whister's call stays HALF until his (optional) closing pass; the outcome says PASS

    def _half_stood(self) -> None:
        self._finish(HALF_WHIST)

    def _resolve_whist(self) -> None:
        n_w = len(self.whist_order)
        if n_w == 0:
            self._finish(NOT_WHISTED)
            return
        if n_w == 1:
            self._lone = self.whist_order[0]
        self._after_whist_resolved(play=True)

    def _after_whist_resolved(self, play: bool) -> None:
        if self._lone != NO_SEAT and self.rules.open_play_choice != "never":
            self.phase = MODE
            return
        if self.paper:
            self.phase = RESULT
        else:
            self._start_play()

    # ------------------------------------------------------------------ play mode
    def verify_choose_mode(self, seat: int, mode: int) -> None:
        if self.phase != MODE:
            raise self._phase_error("play mode")
        if mode not in (PLAY_OPEN, PLAY_CLOSED):
            raise IllegalAction(BAD_MODE, f"play mode code {mode} is neither open nor closed")
        if seat != self._lone:
            raise IllegalAction(MODE_BY_WRONG_SEAT, f"seat {seat} chooses open/closed but the lone whister is seat "
                                f"{self._lone}")

    def can_choose_mode(self, seat: int, mode: int) -> bool:
        return _can(self.verify_choose_mode, seat, mode)

    def choose_mode(self, seat: int, mode: int) -> None:
        self.verify_choose_mode(seat, mode)
        self.open_play = mode == PLAY_OPEN
        if self.paper:
            self.phase = RESULT
        else:
            self._start_play()

    def _skip_mode(self) -> None:
        """A missing PlayModeChosen means closed play."""
        if self.paper:
            self.phase = RESULT
        else:
            self._start_play()

    # ------------------------------------------------------------------ play
    def _start_play(self) -> None:
        self.phase = PLAY
        self.trump = ru_trump(self.contract) if self.contract and self.contract != MISER else -1
        self.to_play = self.first_hand
        if self._talon_tricks:
            self._begin_talon_trick()

    def _begin_talon_trick(self) -> None:
        self.to_play = self.first_hand
        if self._talon_order is None:
            self._led = -1  # decided by the first card of trick 1
            return
        tc = self._talon_order[self.completed]
        self._led = tc >> 3
        if self.n == 4:
            self._best, self._best_seat = tc, self.dealer
        else:
            self._best, self._best_seat = -1, NO_SEAT

    def _fix_talon_order(self, first_card: int) -> None:
        talon = self.talon or 0
        lo = (talon & -talon).bit_length() - 1
        hi = talon.bit_length() - 1
        first = hi if (first_card >> 3 == hi >> 3 and lo >> 3 != hi >> 3) else lo
        self._talon_order = (first, hi if first == lo else lo)
        self._begin_talon_trick()

    def _talon_suits(self) -> int:
        talon = self.talon or 0
        return SUIT_MASKS[((talon & -talon).bit_length() - 1) >> 3] | SUIT_MASKS[(talon.bit_length() - 1) >> 3]

    def legal_cards(self, seat: int) -> int:
        """Mask of the cards ``seat`` may play now (0 if it is not his turn)."""
        if self.phase != PLAY or seat != self.to_play:
            return 0
        hand = self.hands[seat]
        led = self._led
        if self.trick_cards or self._talon_tricks > self.completed:
            if led < 0:  # open-talon trick 1 before the talon order is known: either talon suit follows
                m = hand & self._talon_suits()
                return m or hand
            m = hand & SUIT_MASKS[led]
            if m:
                return m
            if self.trump >= 0 and self.rules.must_trump:
                m = hand & SUIT_MASKS[self.trump]
                if m:
                    return m
        return hand

    def verify_play(self, seat: int, card: int) -> None:
        if self.phase != PLAY:
            if self.phase == MODE:
                return self._verify_play_after_skip(seat, card)
            raise self._phase_error(f"card {card}")
        if seat != self.to_play:
            raise IllegalAction(CARD_OUT_OF_TURN, f"seat {seat} plays out of turn; seat {self.to_play} is to play")
        if not 0 <= card < 32:
            raise IllegalAction(BAD_CARD, f"card code {card} is not a card")
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise IllegalAction(CARD_NOT_HELD, f"seat {seat} does not hold {format_card(card)}")
        led = self._led
        if (self.trick_cards or self._talon_tricks > self.completed) and led >= 0:
            s = card >> 3
            if s != led:
                if hand & SUIT_MASKS[led]:
                    raise IllegalAction(MUST_FOLLOW_SUIT, f"seat {seat} plays {format_card(card)} but holds "
                                        f"{format_cards(hand & SUIT_MASKS[led])} of the suit led")
                t = self.trump
                if t >= 0 and s != t and self.rules.must_trump and hand & SUIT_MASKS[t]:
                    raise IllegalAction(MUST_TRUMP, f"seat {seat} is void in the suit led and must trump with "
                                        f"{format_cards(hand & SUIT_MASKS[t])}, not play {format_card(card)}")
        elif led < 0 and self._talon_tricks > self.completed:
            suits = self._talon_suits()
            if not (1 << card) & suits and hand & suits:
                raise IllegalAction(MUST_FOLLOW_SUIT, f"seat {seat} plays {format_card(card)} but holds a card of "
                                    f"the suit of the talon ({_cards_text(self.talon or 0)})")
        return None

    def _verify_play_after_skip(self, seat: int, card: int) -> None:
        # a card while open/closed is pending: closed play is implied; check it as the first card
        if self.paper:
            raise self._phase_error(f"card {card}")
        if seat != self.first_hand:
            raise IllegalAction(CARD_OUT_OF_TURN, f"seat {seat} plays out of turn; seat {self.first_hand} leads")
        if not 0 <= card < 32:
            raise IllegalAction(BAD_CARD, f"card code {card} is not a card")
        if not self.hands[seat] >> card & 1:
            raise IllegalAction(CARD_NOT_HELD, f"seat {seat} does not hold {format_card(card)}")

    def can_play(self, seat: int, card: int) -> bool:
        return _can(self.verify_play, seat, card)

    def play(self, seat: int, card: int) -> None:
        self.verify_play(seat, card)
        if self.phase == MODE:
            self._skip_mode()
        self.hands[seat] ^= 1 << card
        tc = self.trick_cards
        s = card >> 3
        if not tc:
            if self._talon_tricks > self.completed:
                if self._led < 0:
                    self._fix_talon_order(card)
                # talon trick: the talon card led; players compete in its suit
                best = self._best
                if s == self._led and (best < 0 or card > best):
                    self._best, self._best_seat = card, seat
            else:
                self._led = s
                self._best, self._best_seat = card, seat
        else:
            best = self._best
            if best < 0:
                if s == self._led:
                    self._best, self._best_seat = card, seat
            elif s == best >> 3:
                if card > best:
                    self._best, self._best_seat = card, seat
            elif s == self.trump:
                self._best, self._best_seat = card, seat
        tc.append(card)
        self.trick_seats.append(seat)
        if len(tc) < 3:
            self.to_play = self._next[seat]
            return
        # trick complete
        winner = self._best_seat
        if winner != NO_SEAT:
            self.tricks[winner] += 1
        self.trick_winners.append(winner)
        self.completed += 1
        self.trick_cards = []
        self.trick_seats = []
        self._best, self._best_seat = -1, NO_SEAT
        if self.completed == _N_TRICKS:
            self._finish_played()
            return
        if self._talon_tricks > self.completed:
            self._begin_talon_trick()
            return
        if self._talon_tricks and self.completed == self._talon_tricks:
            lead = self.first_hand
            if (self.n == 3 and self.rules.raspasy_third_lead == "last_winner" and winner != NO_SEAT):
                lead = winner
            self.to_play = lead
        else:
            self.to_play = winner
        self._led = -1

    def play_cards(self, rows: Sequence[Row], i: int, end: int) -> int:
        """Play the card rows ``rows[i:end]`` in a row; return the index of the first row not played.

        The replay's fast path for the bulk of a log: :meth:`play` for every card, with the state
        in local variables. It stops at the first row that is not a card, once the deal is done,
        and before any card that is not plainly legal (wrong seat, not held, not following suit or
        not trumping) or that needs the open raspasy talon; the caller applies that one through
        :meth:`play`, so every finding and its message are those of live play.
        """
        if self.phase != PLAY or self._talon_tricks > self.completed:
            return i
        hands = self.hands
        nxt = self._next
        trump = self.trump
        tmask = SUIT_MASKS[trump] if trump >= 0 and self.rules.must_trump else 0
        seat = self.to_play
        led, best, bseat = self._led, self._best, self._best_seat
        k = len(self.trick_cards)   # cards in the trick so far
        start = i                   # first row of the current trick inside this run
        for j in range(i, end):     # noqa: B007 (j is the stop index after the loop)
            code, player, card, _value, _payload = rows[j]
            if code != 10 or player != seat:
                break
            hand = hands[seat]
            if card < 0 or not hand >> card & 1:   # (a card past 31 is never in a hand)
                break
            s = card >> 3
            if not k:
                led, best, bseat = s, card, seat
            elif s == led:
                if card > best and best >> 3 == s:
                    best, bseat = card, seat
            elif hand & SUIT_MASKS[led]:
                break                       # must follow suit
            elif s == trump:
                if card > best or best >> 3 != s:
                    best, bseat = card, seat
            elif hand & tmask:
                break                       # must trump (tmask is 0 when there is nothing to check)
            hands[seat] = hand ^ (1 << card)
            if k < 2:
                k += 1
                seat = nxt[seat]
                continue
            # trick complete
            self.tricks[bseat] += 1
            self.trick_winners.append(bseat)
            self.completed += 1
            seat, k, start = bseat, 0, j + 1
            best, bseat = -1, NO_SEAT
            if self.completed == _N_TRICKS:
                self.trick_cards = []
                self.trick_seats = []
                self._led, self._best, self._best_seat = led, best, bseat
                self._finish_played()
                return j + 1
            led = -1
        else:
            j = end
        if j > i:
            if start > i:   # a trick was completed in this run: the open one began at ``start``
                self.trick_cards = [rows[x][2] for x in range(start, j)]
                self.trick_seats = [rows[x][1] for x in range(start, j)]
            else:
                self.trick_cards = self.trick_cards + [rows[x][2] for x in range(start, j)]
                self.trick_seats = self.trick_seats + [rows[x][1] for x in range(start, j)]
            self.to_play, self._led, self._best, self._best_seat = seat, led, best, bseat
        return j

    # ------------------------------------------------------------------ contra (Croatian only)
    def verify_contra(self, seat: int) -> None:
        raise IllegalAction(BAD_CALL, f"seat {seat} calls contra, which does not exist in the Russian game")

    def can_contra(self, seat: int) -> bool:
        return _can(self.verify_contra, seat)

    def call_contra(self, seat: int) -> None:
        self.verify_contra(seat)

    def finish_without_play(self) -> bool:
        """End a deal whose outcome needs no further event (the Croatian 2♠ rule); False if it cannot end now."""
        return False

    # ------------------------------------------------------------------ claims and results
    def _remaining(self) -> int:
        return _N_TRICKS - self.completed

    def _check_tricks(self, tricks: tuple[int, ...], what: str, code: str, lo: int, hi: int) -> None:
        if len(tricks) != self.n:
            raise IllegalAction(code, f"{what} lists {len(tricks)} seats, the table has {self.n}")
        if any((not isinstance(t, int)) or t < 0 for t in tricks):
            raise IllegalAction(code, f"{what} has a negative or non-integer trick count {list(tricks)}")
        total = sum(tricks)
        if not lo <= total <= hi:
            want = str(hi) if lo == hi else f"{lo}..{hi}"
            raise IllegalAction(code, f"{what} {list(tricks)} sums to {total}, expected {want}")
        if self.n == 4 and tricks[self.dealer] and self.declarer != NO_SEAT:
            raise IllegalAction(code, f"{what} gives tricks to the sitting-out dealer (seat {self.dealer})")

    def verify_claim(self, tricks: tuple[int, ...]) -> None:
        if self.phase == MODE and not self.paper:
            pass
        elif self.phase not in (PLAY, RESULT):
            raise self._phase_error("claim")
        rem = self._remaining()
        # (at 3 players a raspasy talon trick always has a taker: the suit's other cards are all in hands)
        self._check_tricks(tuple(tricks), "the claim", BAD_CLAIM, rem, rem)
        if self.n == 4 and self.declarer == NO_SEAT and tricks[self.dealer] > max(0, self._talon_tricks
                                                                                   - self.completed):
            raise IllegalAction(BAD_CLAIM, "the sitting-out dealer can only take raspasy talon tricks")

    def can_claim(self, tricks: tuple[int, ...]) -> bool:
        return _can(self.verify_claim, tricks)

    def claim(self, tricks: tuple[int, ...]) -> None:
        self.verify_claim(tricks)
        if self.phase == MODE:
            self._skip_mode()
        for s, t in enumerate(tricks):
            self.tricks[s] += t
        self.trick_cards = []
        self.trick_seats = []
        self._finish_played()

    def verify_ten_check(self, tricks: tuple[int, ...]) -> None:
        if not self.checked:
            if self.phase in (PLAY, RESULT, MODE):
                raise IllegalAction(TEN_CHECK_NOT_ALLOWED, "only a 10-game under ten_mode=checked is checked")
            raise self._phase_error("ten check")
        if self.phase not in (PLAY, RESULT) or self.completed or self.trick_cards:
            raise IllegalAction(TEN_CHECK_NOT_ALLOWED, "the ten check replaces play; play has already begun")
        self._check_tricks(tuple(tricks), "the ten check", BAD_TRICKS, _N_TRICKS, _N_TRICKS)

    def can_ten_check(self, tricks: tuple[int, ...]) -> bool:
        return _can(self.verify_ten_check, tricks)

    def ten_check(self, tricks: tuple[int, ...]) -> None:
        self.verify_ten_check(tricks)
        self.tricks = list(tricks)
        self._finish_played()

    def verify_paper_result(self, tricks: tuple[int, ...]) -> None:
        if not self.paper:
            # a card-level deal may only give the result as a claim of what remains
            self.verify_claim(tricks)
            return
        if self.phase == AUCTION and not self.auction.history:
            pass  # a paper raspasy written without its passes
        elif self.phase not in (RESULT, MODE):
            raise self._phase_error("paper result")
        raspasy = self.phase == AUCTION or self.declarer == NO_SEAT
        self._check_tricks(tuple(tricks), "the paper result", BAD_TRICKS, _N_TRICKS, _N_TRICKS)
        if raspasy and self.n == 4 and tricks[self.dealer] > 2:
            raise IllegalAction(BAD_TRICKS, "the sitting-out dealer can take at most the two raspasy talon tricks")

    def can_paper_result(self, tricks: tuple[int, ...]) -> bool:
        return _can(self.verify_paper_result, tricks)

    def paper_result(self, tricks: tuple[int, ...]) -> None:
        self.verify_paper_result(tricks)
        if not self.paper:
            self.claim(tricks)
            return
        self.tricks = list(tricks)
        self._finish_played()

    # ------------------------------------------------------------------ outcome
    def _finish_played(self) -> None:
        if self.declarer == NO_SEAT:
            kind = RASPASY
        elif self.contract == MISER:
            kind = KIND_MISER
        else:
            kind = GAME
        self._finish(kind)

    def _finish(self, kind: str) -> None:
        calls = list(self.calls)
        if self.declarer != NO_SEAT:
            calls[self.declarer] = -1
        if self.returner != NO_SEAT and self.half_whister != NO_SEAT:
            calls[self.half_whister] = CALL_PASS
        tricks = tuple(self.tricks) if kind in (GAME, KIND_MISER, RASPASY) else ()  # no play, no tricks
        self.outcome = DealOutcome(
            deal=self.deal, dealer=self.dealer, n_players=self.n, kind=kind, declarer=self.declarer,
            contract=self.contract if kind != RASPASY else 0, tricks=tricks, calls=tuple(calls),
            whist_order=tuple(self.whist_order), half_whister=self.half_whister, returner=self.returner,
            open_play=self.open_play, checked=self.checked, paper=self.paper,
        )
        self.phase = DONE
        self.to_play = NO_SEAT

    # ------------------------------------------------------------------ events
    def verify(self, ev: Event) -> None:
        """Check one deal event against the rules without applying it."""
        _DISPATCH[type(ev)][0](self, ev)

    def apply(self, ev: Event) -> None:
        """Check and apply one deal event (DealStarted is the constructor's job)."""
        _DISPATCH[type(ev)][1](self, ev)

    def legal_actions(self) -> list[Event]:
        """Every legal next event (for bots and property tests); empty when the deal is done."""
        p = self.phase
        out: list[Event] = []
        if p == AUCTION:
            s = self.auction.to_move
            out = [BidMade(s, b) for b in self.auction.legal_bids(s)]
        elif p == DISCARD:
            if self.paper:
                return [ContractDeclared(self.declarer, c) for c in RU_LADDER if self.can_declare(self.declarer, c)]
            held = self.hands[self.declarer] | (self.talon or 0)
            cards = [c for c in range(32) if held >> c & 1]
            out = [Discarded(self.declarer, (1 << a) | (1 << b)) for i, a in enumerate(cards) for b in cards[i + 1:]]
        elif p == CONTRACT:
            out = [ContractDeclared(self.declarer, c) for c in RU_LADDER if self.can_declare(self.declarer, c)]
        elif p == WHIST:
            s = self._whist_turn()
            out = [WhistCalled(s, c) for c in (CALL_PASS, CALL_WHIST, CALL_HALF) if self.can_whist(s, c)]
        elif p == MODE:
            out = [PlayModeChosen(self._lone, m) for m in (PLAY_CLOSED, PLAY_OPEN)]
        elif p == PLAY:
            s = self.to_play
            m = self.legal_cards(s)
            out = [CardPlayed(s, c) for c in range(32) if m >> c & 1]
        return out


def _can(fn: object, *args: object) -> bool:
    try:
        fn(*args)  # type: ignore[operator]
    except IllegalAction:
        return False
    return True


_DISPATCH: dict[type, tuple] = {
    BidMade: (lambda d, e: d.verify_bid(e.player, e.bid), lambda d, e: d.bid(e.player, e.bid)),
    TalonRevealed: (lambda d, e: d.verify_reveal_talon(e.cards), lambda d, e: d.reveal_talon(e.cards)),
    Discarded: (lambda d, e: d.verify_discard(e.player, e.cards), lambda d, e: d.discard(e.player, e.cards)),
    ContractDeclared: (lambda d, e: d.verify_declare(e.player, e.contract),
                       lambda d, e: d.declare(e.player, e.contract)),
    WhistCalled: (lambda d, e: d.verify_whist(e.player, e.call), lambda d, e: d.whist(e.player, e.call)),
    ContraCalled: (lambda d, e: d.verify_contra(e.player), lambda d, e: d.call_contra(e.player)),
    PlayModeChosen: (lambda d, e: d.verify_choose_mode(e.player, e.mode),
                     lambda d, e: d.choose_mode(e.player, e.mode)),
    CardPlayed: (lambda d, e: d.verify_play(e.player, e.card), lambda d, e: d.play(e.player, e.card)),
    Claimed: (lambda d, e: d.verify_claim(e.tricks), lambda d, e: d.claim(e.tricks)),
    TenChecked: (lambda d, e: d.verify_ten_check(e.tricks), lambda d, e: d.ten_check(e.tricks)),
    PaperResult: (lambda d, e: d.verify_paper_result(e.tricks), lambda d, e: d.paper_result(e.tricks)),
}
DEAL_EVENTS: frozenset[type] = frozenset(_DISPATCH)
"""Event types a :class:`DealState` applies."""


# ---------------------------------------------------------------------------------------------
# Croatian / Slovenian deals (docs/croatian.md §2)
# ---------------------------------------------------------------------------------------------


class CroatianDealState(DealState):
    CONTRACTS = frozenset(HR_LADDER)
    CONTRACTS_TEXT = "a Croatian contract (2-7)"

    """One Croatian / Slovenian deal: auction → (talon and discard unless a hand game, «igra») →
    contract → defence phase (whist / pass / invite, contra chain; :class:`CroatianDefence`) → play.

    * all pass → ``ALL_PASS`` at once (refe, no play); both defenders pass → ``NOT_WHISTED`` at once;
    * the defence phase stays open until the first card (card level) or the result (paper level);
      a 2♠ deal nobody contra'd (``needs_contra``, from the scorer) ends without play as ``CONCEDED``
      when the next deal, score line or end arrives (:meth:`finish_without_play`);
    * the passer who was not invited (``out_seat``) never plays: tricks have two cards;
    * first lead by :func:`first_leader`; play stops by :func:`play_over` (defenders' 5th trick, flat
      Bettel at the declarer's first trick) with ``stopped_early`` when fewer than 10 tricks were played.
    """

    def __init__(self, rules: Rules, n_players: int, dealer: int, deal: int = 1, hands: tuple[int, ...] | None = None,
                 talon: int | None = None, min_level: int = 0,
                 needs_contra: Callable[[int, int, bool], bool] | None = None) -> None:
        super().__init__(rules, n_players, dealer, deal, hands, talon, min_level)
        self.hand_game = False
        self.defence: CroatianDefence | None = None
        self.out_seat = NO_SEAT
        self.stopped_early = False
        self._needs_contra = needs_contra
        self._trick_len = 3
        self._decl_tricks = 0
        self._def_tricks = 0

    @classmethod
    def from_event(cls, rules: Rules, n_players: int, ev: DealStarted, deal: int = 1, min_level: int = 0,
                   needs_contra: Callable[[int, int, bool], bool] | None = None) -> CroatianDealState:
        return cls(rules, n_players, ev.dealer, deal, ev.hands, ev.talon, min_level, needs_contra)

    # ------------------------------------------------------------------ helpers
    def _expected(self) -> str:
        if self.phase == WHIST and self.defence is not None:
            d = self.defence
            if not d.calls_done:
                return f"a whist call by seat {self._whist_turn()}"
            if d.kind != GAME:
                return "a contra, or the next deal (a 2♠ that nobody contras is won without play)"
            if self.paper:
                return "a contra, an invitation or the paper result"
            return f"a contra, an invitation or the first card by seat {self._whist_turn()}"
        return super()._expected()

    def _whist_turn(self) -> int:
        d = self.defence
        if d is None:
            return NO_SEAT
        if not d.calls_done:
            return d.defenders[1 if d.calls[d.defenders[0]] >= 0 else 0]
        return self._leader() if d.kind == GAME and not self.paper else NO_SEAT

    def _leader(self) -> int:
        d = self.defence
        assert d is not None
        return first_leader(self.rules, self.dealer, self.declarer, self.contract, d.out_seat, self.n)

    # ------------------------------------------------------------------ auction
    def verify_bid(self, seat: int, bid: int) -> None:
        if self.phase != AUCTION:
            raise self._phase_error(f"call {format_hr_call(bid)}")
        self.auction.verify_bid(seat, bid)

    def bid(self, seat: int, bid: int) -> None:
        if self.phase != AUCTION:
            self.verify_bid(seat, bid)  # raises the phase error
        a = self.auction
        a.bid(seat, bid)  # verifies the rest of verify_bid (the auction's own verify_bid) first
        if a.done:
            if a.winner == NO_SEAT:
                self._finish(ALL_PASS)  # cards thrown in: refe for everybody (scoring decides)
                return
            self.declarer = a.winner
            self.hand_game = a.hand_game
            self.phase = CONTRACT if self.hand_game else DISCARD  # «igra»: no talon

    # ------------------------------------------------------------------ contract
    def declare(self, seat: int, contract: int) -> None:
        self.verify_declare(seat, contract)
        self.declarer = seat
        self.contract = contract
        i = self.active.index(seat)
        k = len(self.active)
        defenders = (self.active[(i + 1) % k], self.active[(i + 2) % k])  # left of the declarer first
        self._defenders = defenders
        nc = self._needs_contra(seat, contract, self.hand_game) if self._needs_contra is not None else False
        self.defence = CroatianDefence(self.rules, seat, defenders, contract, nc, self.n)
        self.phase = WHIST

    # ------------------------------------------------------------------ defence
    def verify_whist(self, seat: int, call: int) -> None:
        if self.phase != WHIST or self.defence is None:
            raise self._phase_error(f"whist call {CALL_NAMES.get(call, call)}")
        self.defence.verify_whist(seat, call)

    def whist(self, seat: int, call: int) -> None:
        self.verify_whist(seat, call)
        d = self.defence
        assert d is not None
        d.whist(seat, call)
        if d.calls_done and not d.whisters:
            self._close_defence()
            self._finish(NOT_WHISTED)

    def verify_contra(self, seat: int) -> None:
        if self.phase != WHIST or self.defence is None:
            raise self._phase_error("contra")
        self.defence.verify_contra(seat)

    def call_contra(self, seat: int) -> None:
        self.verify_contra(seat)
        assert self.defence is not None
        self.defence.call_contra(seat)

    def finish_without_play(self) -> bool:
        d = self.defence
        if self.phase != WHIST or d is None or not d.calls_done or d.kind == GAME:
            return False
        self._finish(self._close_defence())
        return True

    def _close_defence(self) -> str:
        d = self.defence
        assert d is not None
        kind = d.close()
        self.out_seat = d.out_seat
        return kind

    def _verify_playable(self, what: str) -> None:
        """The defence phase may end in play: both calls made and the deal is not won without play."""
        d = self.defence
        if d is None or not d.calls_done:
            raise self._phase_error(what)
        if d.kind != GAME:
            raise IllegalAction(PLAY_WITHOUT_CONTRA, f"{what}: a 2♠ with the talon and no refe that no defender "
                                "contra'd is won without play (RULES.md C3)")

    # ------------------------------------------------------------------ play
    def _start_hr_play(self) -> None:
        self._close_defence()
        self.phase = PLAY
        self.trump = hr_trump(self.contract)  # -1 for Bettel and Sanac
        out = self.out_seat
        if out != NO_SEAT:  # two-handed play: the uninvited passer's cards lie face down
            a, b = (s for s in self._defenders + (self.declarer,) if s != out)
            self._next[a], self._next[b] = b, a
            self._trick_len = 2
        self.to_play = self._leader()

    def _verify_first_card(self, seat: int, card: int) -> None:
        if self.paper:
            raise self._phase_error(f"card {card}")
        self._verify_playable(f"card {card}")
        d = self.defence
        assert d is not None
        if seat == d.out_seat:
            raise IllegalAction(PASSER_OUT_OF_PLAY, f"seat {seat} passed and was not invited: his cards take no "
                                "part in play")
        leader = self._leader()
        if seat != leader:
            raise IllegalAction(CARD_OUT_OF_TURN, f"seat {seat} leads out of turn; seat {leader} leads to the "
                                "first trick")
        if not 0 <= card < 32:
            raise IllegalAction(BAD_CARD, f"card code {card} is not a card")
        if not self.hands[seat] >> card & 1:
            raise IllegalAction(CARD_NOT_HELD, f"seat {seat} does not hold {format_card(card)}")

    def verify_play(self, seat: int, card: int) -> None:
        if self.phase == WHIST:
            self._verify_first_card(seat, card)
            return
        if self.phase == PLAY and seat == self.out_seat:
            raise IllegalAction(PASSER_OUT_OF_PLAY, f"seat {seat} passed and was not invited: his cards take no "
                                "part in play")
        DealState.verify_play(self, seat, card)

    def legal_cards(self, seat: int) -> int:
        if self.phase == WHIST:
            d = self.defence
            if self.paper or d is None or not d.calls_done or d.kind != GAME or seat != self._leader():
                return 0
            return self.hands[seat]
        return DealState.legal_cards(self, seat)

    def play_cards(self, rows: Sequence[Row], i: int, end: int) -> int:
        """Croatian play (two-card tricks, the early stop) goes card by card through :meth:`play`."""
        return i

    def play(self, seat: int, card: int) -> None:
        if self.phase == WHIST:
            self._verify_first_card(seat, card)
            self._start_hr_play()
        elif seat == self.to_play:
            DealState.verify_play(self, seat, card)  # the hot path: skip the out-seat check
        else:
            self.verify_play(seat, card)
        self.hands[seat] ^= 1 << card
        tc = self.trick_cards
        s = card >> 3
        if not tc:
            self._led = s
            self._best, self._best_seat = card, seat
        else:
            best = self._best
            if s == best >> 3:
                if card > best:
                    self._best, self._best_seat = card, seat
            elif s == self.trump:
                self._best, self._best_seat = card, seat
        tc.append(card)
        self.trick_seats.append(seat)
        if len(tc) < self._trick_len:
            self.to_play = self._next[seat]
            return
        winner = self._best_seat
        self.tricks[winner] += 1
        self.trick_winners.append(winner)
        self.completed += 1
        self.trick_cards = []
        self.trick_seats = []
        self._best, self._best_seat = -1, NO_SEAT
        if winner == self.declarer:
            self._decl_tricks += 1
        else:
            self._def_tricks += 1
        if play_over(self.rules, self.contract, self._decl_tricks, self._def_tricks):
            self.stopped_early = self.completed < _N_TRICKS
            self._finish(GAME)
            return
        self.to_play = winner
        self._led = -1

    # ------------------------------------------------------------------ claims and results
    def _check_final(self, tricks: tuple[int, ...], what: str, code: str) -> None:
        """Totals after a claim / paper result: no tricks for the out passer, none past the stop."""
        out = self.out_seat if self.phase != WHIST else (self.defence.out_seat if self.defence else NO_SEAT)
        if out != NO_SEAT and tricks[out]:
            raise IllegalAction(PASSER_OUT_OF_PLAY, f"{what} gives tricks to seat {out}, who passed and was not "
                                "invited (his cards take no part)")
        if self.n == 4 and tricks[self.dealer]:
            raise IllegalAction(code, f"{what} gives tricks to the sitting-out dealer (seat {self.dealer})")
        total = sum(tricks)
        decl = tricks[self.declarer]
        side = total - decl
        rules = self.rules
        if self.contract == HR_BETTEL:
            if rules.bettel_fail_mode == "flat" and decl > 1:
                raise IllegalAction(TRICKS_PAST_STOP, f"{what} gives the Bettel declarer {decl} tricks; play stops "
                                    "at his first (bettel_fail_mode=flat)")
        elif side > rules.defender_trick_cap:
            raise IllegalAction(TRICKS_PAST_STOP, f"{what} gives the defenders {side} tricks; play stops at their "
                                f"{rules.defender_trick_cap}th (defender_trick_cap)")
        if total > _N_TRICKS or (total < _N_TRICKS and not play_over(rules, self.contract, decl, side)):
            raise IllegalAction(code, f"{what} {list(tricks)} sums to {total}: expected 10 tricks, or fewer only "
                                "when play stops early (the defenders' 5th trick, a Bettel declarer's first)")

    def _counts(self, tricks: tuple[int, ...], what: str, code: str, most: int) -> None:
        if len(tricks) != self.n:
            raise IllegalAction(code, f"{what} lists {len(tricks)} seats, the table has {self.n}")
        if any((not isinstance(t, int)) or t < 0 for t in tricks):
            raise IllegalAction(code, f"{what} has a negative or non-integer trick count {list(tricks)}")
        if sum(tricks) > most:
            raise IllegalAction(code, f"{what} {list(tricks)} sums to {sum(tricks)}, more than the {most} tricks "
                                "left")

    def verify_claim(self, tricks: tuple[int, ...]) -> None:
        tricks = tuple(tricks)
        if self.phase == WHIST:
            if self.paper:
                raise self._phase_error("claim")
            self._verify_playable("claim")
        elif self.phase != PLAY:
            raise self._phase_error("claim")
        self._counts(tricks, "the claim", BAD_CLAIM, self._remaining())
        self._check_final(tuple(a + b for a, b in zip(self.tricks, tricks, strict=True)), "the claim", BAD_CLAIM)

    def claim(self, tricks: tuple[int, ...]) -> None:
        self.verify_claim(tricks)
        if self.phase == WHIST:
            self._start_hr_play()
        for s, t in enumerate(tricks):
            self.tricks[s] += t
        self.trick_cards = []
        self.trick_seats = []
        self.stopped_early = sum(self.tricks) < _N_TRICKS
        self._finish(GAME)

    def verify_paper_result(self, tricks: tuple[int, ...]) -> None:
        if not self.paper:
            self.verify_claim(tricks)
            return
        if self.phase != WHIST:
            raise self._phase_error("paper result")
        self._verify_playable("paper result")
        tricks = tuple(tricks)
        self._counts(tricks, "the paper result", BAD_TRICKS, _N_TRICKS)
        self._check_final(tricks, "the paper result", BAD_TRICKS)

    def paper_result(self, tricks: tuple[int, ...]) -> None:
        self.verify_paper_result(tricks)
        if not self.paper:
            self.claim(tricks)
            return
        self._close_defence()
        self.tricks = list(tricks)
        self.stopped_early = sum(self.tricks) < _N_TRICKS
        self._finish(GAME)

    # ------------------------------------------------------------------ outcome
    def _finish_played(self) -> None:
        self._finish(GAME)

    def _finish(self, kind: str) -> None:
        d = self.defence
        n = self.n
        self.outcome = DealOutcome(
            deal=self.deal, dealer=self.dealer, n_players=n, kind=kind, declarer=self.declarer,
            contract=self.contract if kind != ALL_PASS else 0,
            tricks=tuple(self.tricks) if kind == GAME else (),
            calls=d.calls if d is not None else (-1,) * n,
            whist_order=d.whisters if d is not None else (),
            paper=self.paper, hand_game=self.hand_game,
            contra=d.contra if d is not None else (),
            invited=d.invited if d is not None else NO_SEAT,
            stopped_early=self.stopped_early,
        )
        self.phase = DONE
        self.to_play = NO_SEAT

    def legal_actions(self) -> list[Event]:
        """Every legal next event; a deal that may end without play (2♠ rule) also ends by
        :meth:`finish_without_play`, which is not an event."""
        p = self.phase
        if p == CONTRACT or (p == DISCARD and self.paper):
            return [ContractDeclared(self.declarer, c) for c in HR_LADDER if self.can_declare(self.declarer, c)]
        if p != WHIST:
            return super().legal_actions()
        d = self.defence
        assert d is not None
        if not d.calls_done:
            s = self._whist_turn()
            return [WhistCalled(s, c) for c in (CALL_PASS, CALL_WHIST, CALL_INVITE) if self.can_whist(s, c)]
        out: list[Event] = [WhistCalled(s, CALL_INVITE) for s in d.whisters if self.can_whist(s, CALL_INVITE)]
        out += [ContraCalled(s) for s in (*self._defenders, self.declarer) if self.can_contra(s)]
        if not self.paper and d.kind == GAME:
            s = self._leader()
            m = self.hands[s]
            out += [CardPlayed(s, c) for c in range(32) if m >> c & 1]
        return out


def deal_class(rules: Rules) -> type[DealState]:
    """The deal state machine of ``rules.family``."""
    return CroatianDealState if rules.family == "croatian" else DealState


def make_deal(rules: Rules, n_players: int, ev: DealStarted, deal: int = 1, min_level: int = 0,
              needs_contra: Callable[[int, int, bool], bool] | None = None) -> DealState:
    """Open the deal of ``ev`` for ``rules.family``; ``needs_contra`` (the Croatian scorer's 2♠ rule) is
    ignored by the Russian family."""
    return open_deal(rules, n_players, ev.dealer, ev.hands, ev.talon, deal, min_level, needs_contra)


def open_deal(rules: Rules, n_players: int, dealer: int, hands: tuple[int, ...] | None, talon: int | None,
              deal: int = 1, min_level: int = 0,
              needs_contra: Callable[[int, int, bool], bool] | None = None) -> DealState:
    """:func:`make_deal` from the fields of a DealStarted (the replay decodes rows without the event)."""
    if rules.family == "croatian":
        return CroatianDealState(rules, n_players, dealer, deal, hands, talon, min_level, needs_contra)
    return DealState(rules, n_players, dealer, deal, hands, talon, min_level)
