"""One deal of the Russian family ("русский преферанс") played by bots.

:class:`RussianBots` deals the cards, runs the auction ("торговля"), the talon and
discard, the contract, the whist calls and the play, appends the events to a list
and returns the :class:`DealOutcome` that scoring needs. Policies are methods
(``auction``, ``declare``), so a family with other bidding or whist rules is
another class with the same ``play_deal`` entry point.

The auction is the engine's own (a :class:`~preflog.engine.russian.deal.RussianDeal`): each
bot picks among the deal's ``legal_actions()``, so the ladder, miser, hold, take-talon and
anti-raspasy rules live only in the engine.
"""

from __future__ import annotations

import random

from ..engine.russian.deal import RussianDeal
from ..model import calls as C
from ..model.bids import (
    MISER,
    PASS,
    RU_LADDER,
    RU_MAX_LEVEL,
    RU_MIN_LEVEL,
    TAKE_TALON,
    is_trick_contract,
    level_of,
    ru_trump,
    strain_of,
    trick_bid,
)
from ..model.cards import SUIT_MASKS as _S
from ..model.events import (
    BidMade,
    CardPlayed,
    ContractDeclared,
    DealStarted,
    Discarded,
    Event,
    PaperResult,
    PlayModeChosen,
    TenChecked,
    WhistCalled,
)
from ..model.outcome import NO_SEAT, DealKind, DealOutcome
from ..rules.config import Rules
from ..scoring.base import Scorer
from . import cardplay as P
from .evaluate import best_discard, best_tricks, defence_tricks, miser_bad, miser_discard

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

    def __init__(self, rules: Rules, n_players: int, rng: random.Random, scorer: Scorer | None = None) -> None:
        self.rules = rules
        self.n = n_players
        self.rng = rng
        self.must_trump = rules.must_trump
        self.half_levels = frozenset(rules.half_whist_levels)
        self.open_talon = rules.raspasy_talon_mode == "open"
        self.checked_ten = rules.ten_mode == "checked"

    # ------------------------------------------------------------------ deal
    def play_deal(self, deal_no: int, dealer: int, min_level: int, paper: bool, out: list[Event]) -> DealOutcome:
        n, rng = self.n, self.rng
        deck = list(range(32))
        rng.shuffle(deck)
        if n == 3:
            order = ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
        else:
            order = ((dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4)
        hands = [0] * n
        for i, s in enumerate(order):
            hands[s] = _mask(deck[10 * i:10 * i + 10])
        talon = _mask(deck[30:32])
        out.append(DealStarted(dealer) if paper else DealStarted(dealer, tuple(hands), talon))

        deal = RussianDeal(self.rules, n, dealer, deal_no, None if paper else tuple(hands),
                           None if paper else talon, min_level)
        bids, winner, final = self.auction(deal, hands, order)
        if not paper:
            out.extend(bids)
        if winner < 0:
            return self._raspasy(deal_no, dealer, hands, talon, order, paper, out)
        h12 = hands[winner] | talon
        if final == MISER:
            discard = miser_discard(h12)
            hands[winner] = h12 & ~discard
            if not paper:
                out.append(Discarded(winner, discard))
            out.append(ContractDeclared(winner, MISER))
            tricks = self.play(hands, order, dealer, P.MISER, -1, winner, 0, None if paper else out)
            if paper:
                out.append(PaperResult(tuple(tricks)))
            return DealOutcome(deal_no, dealer, n, DealKind.MISER, declarer=winner, contract=MISER,
                               tricks=tuple(tricks), calls=(-1,) * n, paper=paper)
        contract, discard = self.declare(h12, final)
        hands[winner] = h12 & ~discard
        if not paper:
            out.append(Discarded(winner, discard))
        out.append(ContractDeclared(winner, contract))
        return self._trick_game(deal_no, dealer, hands, order, winner, contract, paper, out)

    # --------------------------------------------------------------- auction
    def auction(self, deal: RussianDeal, hands: list[int], order: tuple[int, ...]) -> tuple[list[BidMade], int, int]:
        """Bots bid through ``deal``'s auction up to their evaluated limit: the next legal raise, miser
        at a first call, take-talon where legal; returns (bids, winner, final bid).

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
            x = est + TALON_GAIN + rng.gauss(0.0, BID_NOISE)
            level = int(x)
            limit[s] = trick_bid(min(level, RU_MAX_LEVEL), strain + 1) if level >= RU_MIN_LEVEL else PASS
            # after two passes a marginal six beats playing raspasy
            last[s] = trick_bid(RU_MIN_LEVEL, strain + 1) if level < RU_MIN_LEVEL \
                and x + LAST_HAND_BONUS >= RU_MIN_LEVEL else limit[s]
            bad = miser_bad(hands[s])
            miser_ok[s] = bad == 0 or (bad == 1 and rng.random() < 0.95) or (bad == 2 and rng.random() < 0.35) \
                or (bad == 3 and rng.random() < 0.04)
        bids: list[BidMade] = []
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
                    ev = BidMade(seat, TAKE_TALON)
                    deal.apply(ev)
                    bids.append(ev)
                    return bids, seat, lowest
                bid = PASS
            elif seat not in called and high < MISER and miser_ok[seat] \
                    and level_of(limit[seat]) <= MISER_MAX_LEVEL and deal.can_bid(seat, MISER):
                bid = MISER
            else:
                # the next legal raise if it is within the bot's limit (the lowest legal one above the bid)
                cap = last[seat] if passes == 2 and high_seat == NO_SEAT else limit[seat]
                bid = next((b for b in TRICK_BIDS if high < b <= cap and deal.can_bid(seat, b)), PASS)
            called.add(seat)
            ev = BidMade(seat, bid)
            deal.apply(ev)
            bids.append(ev)
            if bid == PASS:
                passes += 1
            else:
                high, high_seat = bid, seat
        return bids, high_seat, high  # all passed: no winner, raspasy

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
    def _trick_game(self, deal_no: int, dealer: int, hands: list[int], order: tuple[int, ...], declarer: int,
                    contract: int, paper: bool, out: list[Event]) -> DealOutcome:
        n, rng = self.n, self.rng
        level, trump = level_of(contract), ru_trump(contract)
        pos = order.index(declarer)
        d1, d2 = order[(pos + 1) % 3], order[(pos + 2) % 3]
        if level == RU_MAX_LEVEL and self.checked_ten:
            tricks = self.play(hands, order, dealer, P.TRICKS, trump, declarer, 0, None)
            out.append(TenChecked(tuple(tricks)))
            calls = [-1] * n
            calls[d1] = calls[d2] = C.CALL_WHIST  # both defenders count as whisters
            return DealOutcome(deal_no, dealer, n, DealKind.GAME, declarer=declarer, contract=contract,
                               tricks=tuple(tricks), calls=tuple(calls), whist_order=(d1, d2), checked=True,
                               paper=paper)
        e1 = defence_tricks(hands[d1], trump) + rng.gauss(0.0, 0.35)
        e2 = defence_tricks(hands[d2], trump) + rng.gauss(0.0, 0.35)
        calls = [-1] * n
        whist_order: list[int] = []
        half, returner = NO_SEAT, NO_SEAT
        c1 = C.CALL_WHIST if e1 >= FIRST_WHIST[level] else C.CALL_PASS
        out.append(WhistCalled(d1, c1))
        if c1 == C.CALL_WHIST:
            whist_order.append(d1)
            c2 = C.CALL_WHIST if e2 >= SECOND_WHIST[level] else C.CALL_PASS
        elif e2 >= LONE_WHIST[level]:
            c2 = C.CALL_WHIST
        elif level in self.half_levels and e2 >= HALF_MIN and rng.random() < 0.5:
            c2 = C.CALL_HALF
        else:
            c2 = C.CALL_PASS
        out.append(WhistCalled(d2, c2))
        if c2 == C.CALL_WHIST:
            whist_order.append(d2)
        if c2 == C.CALL_HALF:
            # the first passer answers: return the whist or let the half-whist stand; at four
            # players the sitting-out dealer answers too (he never returns here)
            half = d2
            if e1 >= RETURN_WHIST.get(level, 99.0):
                c1, c2, returner = C.CALL_WHIST, C.CALL_PASS, d1
                whist_order.append(d1)
                out.append(WhistCalled(d1, C.CALL_WHIST))
            else:
                out.append(WhistCalled(d1, C.CALL_PASS))
                if n == 4:
                    out.append(WhistCalled(dealer, C.CALL_PASS))
        calls[d1], calls[d2] = c1, c2
        if not whist_order:
            kind = DealKind.HALF_WHIST if half != NO_SEAT else DealKind.NOT_WHISTED
            return DealOutcome(deal_no, dealer, n, kind, declarer=declarer, contract=contract,
                               calls=tuple(calls), half_whister=half, paper=paper)
        open_play = False
        if len(whist_order) == 1 and self.rules.open_play_choice == "lone_whister":
            open_play = rng.random() < OPEN_PLAY_P
            out.append(PlayModeChosen(whist_order[0], C.PLAY_OPEN if open_play else C.PLAY_CLOSED))
        tricks = self.play(hands, order, dealer, P.TRICKS, trump, declarer, 0, None if paper else out)
        if paper:
            out.append(PaperResult(tuple(tricks)))
        return DealOutcome(deal_no, dealer, n, DealKind.GAME, declarer=declarer, contract=contract,
                           tricks=tuple(tricks),
                           calls=tuple(calls), whist_order=tuple(whist_order), half_whister=half,
                           returner=returner, open_play=open_play, paper=paper)

    def _raspasy(self, deal_no: int, dealer: int, hands: list[int], talon: int, order: tuple[int, ...],
                 paper: bool, out: list[Event]) -> DealOutcome:
        tricks = self.play(hands, order, dealer, P.RASPASY, -1, NO_SEAT, talon if self.open_talon else 0,
                           None if paper else out)
        if paper:
            out.append(PaperResult(tuple(tricks)))
        return DealOutcome(deal_no, dealer, self.n, DealKind.RASPASY, tricks=tuple(tricks), calls=(-1,) * self.n,
                           paper=paper)

    # ------------------------------------------------------------------ play
    def play(self, hands: list[int], order: tuple[int, ...], dealer: int, mode: int, trump: int, declarer: int,
             talon: int, out: list[Event] | None) -> list[int]:
        """Play out the hands (mutated) and return tricks per seat; cards go to ``out`` unless None.

        With an open raspasy talon the two talon cards each fix the suit of one of the first
        two tricks (the low card first unless first hand can follow only the high one's suit);
        the players follow from first hand on; at 3 players the trick goes to the highest
        card of that suit played by a player (nobody if none), at 4 the talon card is the
        dealer's and may win it (RULES.md A12).
        """
        n, must_trump = self.n, self.must_trump
        nxt = {order[0]: order[1], order[1]: order[2], order[2]: order[0]}
        tricks = [0] * n
        leader = order[0]
        talon_cards = [c for c in range(32) if talon >> c & 1]
        fh = hands[order[0]]
        if talon_cards and talon_cards[0] >> 3 != talon_cards[1] >> 3 and not fh & _S[talon_cards[0] >> 3] \
                and fh & _S[talon_cards[1] >> 3]:
            # first hand may follow either talon suit; the card he plays tells which was turned first
            talon_cards.reverse()
        last_winner = NO_SEAT
        for _ in range(10):
            talon_trick = bool(talon_cards)
            if talon_trick:
                tc = talon_cards.pop(0)
                seq = order
                lead_suit = tc >> 3
                wc, ws = (tc, dealer) if n == 4 else (-1, NO_SEAT)
            else:
                seq = (leader, nxt[leader], nxt[nxt[leader]])
                lead_suit = P.NO_SUIT
                wc, ws = -1, NO_SEAT
            trick: list[int] = []
            for k in range(3):
                seat = seq[k]
                after = seq[k + 1:]
                if mode == P.TRICKS:
                    c = P.choose_tricks(seat, hands, trick, after, lead_suit, trump, declarer, must_trump, wc, ws)
                elif mode == P.RASPASY or seat == declarer:
                    others = (seq[(k + 1) % 3], seq[(k + 2) % 3])
                    c = P.choose_avoid(seat, hands, trick, after, lead_suit, wc, others)
                else:
                    partner = seq[(k + 1) % 3] if seq[(k + 1) % 3] != declarer else seq[(k + 2) % 3]
                    c = P.choose_miser_defence(seat, hands, trick, after, lead_suit, declarer, wc, ws, partner)
                if not (P.legal(hands[seat], lead_suit, trump, must_trump) >> c & 1):
                    raise AssertionError(f"bot chose an illegal card {c} for seat {seat}")
                hands[seat] &= ~(1 << c)
                if out is not None:
                    out.append(CardPlayed(seat, c))
                if lead_suit == P.NO_SUIT:
                    lead_suit, wc, ws = c >> 3, c, seat
                elif wc < 0:
                    if c >> 3 == lead_suit:
                        wc, ws = c, seat
                elif P.beats(c, wc, trump):
                    wc, ws = c, seat
                trick.append(c)
            if ws != NO_SEAT:
                tricks[ws] += 1
                last_winner = ws
            if talon_trick:
                # after the talon tricks the third lead is first hand's (or the last winner's)
                leader = order[0]
                if not talon_cards and self.rules.raspasy_third_lead == "last_winner" and n == 3 \
                        and last_winner != NO_SEAT:
                    leader = last_winner
            elif ws != NO_SEAT:
                leader = ws
        return tricks
