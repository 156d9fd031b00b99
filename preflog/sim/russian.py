"""One deal of the Russian family ("русский преферанс") played by bots.

:class:`RussianBots` deals the cards and plays the deal through the engine's
:class:`~preflog.engine.russian.deal.RussianDeal`: the auction ("торговля"), the talon and
discard, the contract, the whist calls, the play mode and the play (or the ten check). Each event
goes to the deal and to the log, and the :class:`DealOutcome` that scoring needs is the deal's.
Policies are methods (``auction``, ``declare``, the whist calls), so a family with other bidding or
whist rules is another class with the same ``play_deal`` entry point.

The bots choose among what the deal allows (``to_move``, ``can_bid``, ``can_whist``, the cards of
``legal_cards``), so the ladder, miser, hold, take-talon and anti-raspasy rules, the whist order,
the trick winner, the open-raspasy talon tricks and the ten check live only in the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from copy import deepcopy

from ..engine.deal import MODE
from ..engine.deal import WHIST
from ..engine.russian.deal import RussianDeal
from ..model import calls as C
from ..model.bids import MISER
from ..model.bids import PASS
from ..model.bids import RU_LADDER
from ..model.bids import RU_MAX_LEVEL
from ..model.bids import RU_MIN_LEVEL
from ..model.bids import TAKE_TALON
from ..model.bids import is_trick_contract
from ..model.bids import level_of
from ..model.bids import ru_trump
from ..model.bids import strain_of
from ..model.bids import trick_bid
from ..model.events import BidMade
from ..model.events import ContractDeclared
from ..model.events import DealStarted
from ..model.events import Discarded
from ..model.events import Event
from ..model.events import PlayModeChosen
from ..model.events import TenChecked
from ..model.events import WhistCalled
from ..model.outcome import NO_SEAT
from ..model.outcome import DealOutcome
from ..model.outcome import bidding_order
from ..rules.choices import OpenPlayChoice
from ..rules.config import Rules
from ..scoring.base import Scorer
from . import cardplay as P
from .evaluate import best_discard
from .evaluate import best_tricks
from .evaluate import defence_tricks
from .evaluate import miser_bad
from .evaluate import miser_discard
from .levels import Seats
from .table import Table

# Expected gain from the two talon cards when bidding (12 cards, keep the best 10).
TALON_GAIN = 2.15
BID_NOISE = 0.45
LAST_HAND_BONUS = 0.5
# Whist thresholds in expected own defensive tricks, per level (6..10).
FIRST_WHIST = {6: 1.3, 7: 0.9, 8: 0.9, 9: 1.0, 10: 1.0}
SECOND_WHIST = {6: 1.5, 7: 1.0, 8: 1.2, 9: 1.2, 10: 1.2}   # after a whist: mind own quota
LONE_WHIST = {6: 1.8, 7: 1.1, 8: 0.9, 9: 1.0, 10: 1.0}     # after a pass: whole side's quota
HALF_MIN = 0.6
RETURN_WHIST = {6: 2.2, 7: 1.4}
OPEN_PLAY_P = 0.7
MISER_MAX_LEVEL = 7  # a bot bids miser only when its hand is worth no trick game above this level
TRICK_BIDS = tuple(b for b in RU_LADDER if is_trick_contract(b))  # the ladder without miser, low to high


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class RussianBots:
    """Plays Russian-family deals for one pulka (rules, table size and random stream fixed)."""

    seats: Seats | None = None   # the seats' bot levels (None: every seat plays today's heuristic bot)

    def __init__(self, rules: Rules, n_players: int, rng: random.Random, scorer: Scorer | None = None) -> None:
        self.rules = rules
        self.n = n_players
        self.rng = rng
        self.must_trump = rules.must_trump

    # ------------------------------------------------------------------ deal
    def play_deal(self, deal_no: int, dealer: int, min_level: int, paper: bool, out: list[Event]) -> DealOutcome:
        """Play one deal through the engine's :class:`RussianDeal` and return its outcome.

        The bots always play with the cards; on paper (``paper=True``) the events written to ``out``
        are the paper ones (no hands, bids, discard or cards; a :class:`PaperResult`), and a paper
        deal checks them and gives the outcome.
        """
        n, rng = self.n, self.rng
        deck = list(range(32))
        rng.shuffle(deck)
        order = bidding_order(n, dealer)   # dealt from first hand round (a 4-player dealer gets no cards)
        hands = [0] * n
        for i, s in enumerate(order):
            hands[s] = _mask(deck[10 * i:10 * i + 10])
        talon = _mask(deck[30:32])
        out.append(DealStarted(dealer) if paper else DealStarted(dealer, tuple(hands), talon))
        deal = RussianDeal(self.rules, n, dealer, deal_no, tuple(hands), talon, min_level)
        table = Table(deal, RussianDeal(self.rules, n, dealer, deal_no, None, None, min_level) if paper else None,
                       out)

        winner, final = self.auction(deal, hands, order, table.card_event)
        if winner < 0:
            self.play(table, P.RASPASY, -1)
            return table.outcome()
        h12 = hands[winner] | talon
        if final == MISER:
            table.card_event(Discarded(winner, miser_discard(h12)))
            table.event(ContractDeclared(winner, MISER))
            self.play(table, P.MISER, -1)
            return table.outcome()
        contract, discard = self.declare(h12, final)
        table.card_event(Discarded(winner, discard))
        table.event(ContractDeclared(winner, contract))
        self._trick_game(table, contract)
        return table.outcome()

    # --------------------------------------------------------------- auction
    def auction(self, deal: RussianDeal, hands: list[int], order: tuple[int, ...],
                bid: Callable[[BidMade], object]) -> tuple[int, int]:
        """Bots bid through ``deal``'s auction up to their evaluated limit: the next legal raise, miser
        at a first call, take-talon where legal; each bid goes to ``bid`` (which applies it to the deal);
        returns (winner, final bid).

        ``deal`` is the engine's deal at its auction: ``to_move`` names the bidder and ``can_bid`` says
        which bids are legal (a pass always is, until the auction ends). After a take-talon the final
        bid returned is the lowest trick bid the auction allowed: the contract the third hand must
        order at least.
        """
        rng = self.rng
        limit = {}
        last = {}
        miser_ok = {}
        for s in order:
            est, strain = best_tricks(hands[s])
            x = est + TALON_GAIN + rng.gauss(0.0, BID_NOISE) + (self.seats.overbid(s) if self.seats else 0.0)
            level = int(x)
            limit[s] = trick_bid(min(level, RU_MAX_LEVEL), strain + 1) if level >= RU_MIN_LEVEL else PASS
            # after two passes a marginal six beats playing raspasy
            last[s] = trick_bid(RU_MIN_LEVEL, strain + 1) if level < RU_MIN_LEVEL \
                and x + LAST_HAND_BONUS >= RU_MIN_LEVEL else limit[s]
            bad = miser_bad(hands[s])
            miser_ok[s] = bad == 0 or (bad == 1 and rng.random() < 0.95) or (bad == 2 and rng.random() < 0.35) \
                or (bad == 3 and rng.random() < 0.04)
        called: set[int] = set()
        passes = 0
        high, high_seat = PASS, NO_SEAT
        while True:
            seat = deal.to_move
            if not deal.can_bid(seat, PASS):  # the auction is over
                break
            if deal.can_bid(seat, TAKE_TALON):
                # the third hand after two passes may take the talon without a bid
                if limit[seat] != PASS:
                    lowest = next(b for b in TRICK_BIDS if deal.can_bid(seat, b))
                    bid(BidMade(seat, TAKE_TALON))
                    return seat, lowest
                call = PASS
            elif seat not in called and high < MISER and miser_ok[seat] \
                    and level_of(limit[seat]) <= MISER_MAX_LEVEL and deal.can_bid(seat, MISER):
                call = MISER
            else:
                # the next legal raise if it is within the bot's limit (the lowest legal one above the bid)
                cap = last[seat] if passes == 2 and high_seat == NO_SEAT else limit[seat]
                call = next((b for b in TRICK_BIDS if high < b <= cap and deal.can_bid(seat, b)), PASS)
            called.add(seat)
            bid(BidMade(seat, call))
            if call == PASS:
                passes += 1
            else:
                high, high_seat = call, seat
        return high_seat, high  # all passed: no winner, raspasy

    # -------------------------------------------------------------- contract
    def declare(self, h12: int, final: int) -> tuple[int, int]:
        """Contract (≥ the final bid) and discard: the strain with the best margin over its level."""
        base, fstrain = level_of(final), strain_of(final)
        best = (-99.0, 0, 0, 0)
        for s in range(5):
            lvl = base if s + 1 >= fstrain else base + 1  # the lowest contract in strain s not below the bid
            if lvl > RU_MAX_LEVEL:
                continue
            discard, val = best_discard(h12, s)
            margin = val - lvl
            if margin > best[0]:
                best = (margin, lvl, s, discard)
        margin, lvl, s, discard = best
        while margin >= 1.4 and lvl < RU_MAX_LEVEL:  # a clearly stronger hand orders more
            lvl += 1
            margin -= 1.0
        return trick_bid(lvl, s + 1), discard


    # ------------------------------------------------------------ trick game
    def _trick_game(self, table: Table[RussianDeal], contract: int) -> None:
        """The whist calls, the play mode and the play (or the ten check) of a trick contract."""
        deal, rng = table.deal, self.rng
        level, trump = level_of(contract), ru_trump(contract)
        if deal.checked:  # a 10-game laid open: the check gives the tricks the play would
            table.event(TenChecked(_played_out(deal, trump, self.must_trump)))
            return
        d1 = deal.to_move
        d2 = next(s for s in deal.active if s not in (deal.declarer, d1))
        est = {d: defence_tricks(deal.hands[d], trump) + rng.gauss(0.0, 0.35) for d in (d1, d2)}
        while deal.phase == WHIST:
            seat = deal.to_move
            table.event(WhistCalled(seat, self._whist_call(deal, seat, d1, level, est)))
        if deal.done:  # nobody whisted, or a half-whist stood
            return
        if deal.phase == MODE and self.rules.open_play_choice == OpenPlayChoice.LONE_WHISTER:
            open_play = rng.random() < OPEN_PLAY_P
            table.event(PlayModeChosen(deal.to_move, C.PLAY_OPEN if open_play else C.PLAY_CLOSED))
        self.play(table, P.TRICKS, trump)

    def _whist_call(self, deal: RussianDeal, seat: int, d1: int, level: int, est: dict[int, float]) -> int:
        """The call of ``seat``: ``d1`` (left of the declarer) speaks first and answers a half-whist."""
        if seat not in est:  # the sitting-out dealer after a half-whist: the bots never return it
            return C.CALL_PASS
        e = est[seat]
        if seat == d1:
            if deal.half_whister == NO_SEAT:
                return C.CALL_WHIST if e >= FIRST_WHIST[level] else C.CALL_PASS
            return C.CALL_WHIST if e >= RETURN_WHIST.get(level, 99.0) else C.CALL_PASS  # return the whist?
        if deal.calls[d1] == C.CALL_WHIST:
            return C.CALL_WHIST if e >= SECOND_WHIST[level] else C.CALL_PASS
        if e >= LONE_WHIST[level]:
            return C.CALL_WHIST
        if deal.can_whist(seat, C.CALL_HALF) and e >= HALF_MIN and self.rng.random() < 0.5:
            return C.CALL_HALF
        return C.CALL_PASS

    # ------------------------------------------------------------------ play
    def play(self, table: Table[RussianDeal], mode: int, trump: int) -> None:
        """Play the deal's cards until the engine ends play (the deal is then done)."""
        deal = table.deal
        # a card while the lone whister's open/closed choice is pending is first hand's lead (closed play)
        P.play_out(deal, mode, trump, self.must_trump, table.cards, first=deal.first_hand, seats=self.seats)
        table.played()


def _played_out(deal: RussianDeal, trump: int, must_trump: bool) -> tuple[int, ...]:
    """The tricks per seat if the bots played ``deal`` out (on a copy: the deal itself is left as it is)."""
    copy = deepcopy(deal, {id(deal.rules): deal.rules})
    P.play_out(copy, P.TRICKS, trump, must_trump, None)
    return tuple(copy.tricks)
