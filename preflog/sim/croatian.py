"""One deal of the Croatian / Slovenian family played by bots (seeds 000, 002; docs/croatian.md).

:class:`CroatianBots` deals 5-2-5 and plays the deal through the engine's
:class:`~preflog.engine.croatian.deal.CroatianDeal`: the auction (the bot picks among the auction's
``legal_bids``), the talon and discard unless the winner called «igra», the contract, the defenders'
whist / pass / invite and contras (``can_whist`` / ``can_contra``), and the play
(:func:`preflog.sim.cardplay.play_out`). The deal knows who leads, that the uninvited passer's cards
take no part (two-handed play), when play stops (the defenders' 5th trick, Bettel at the declarer's
first) and that a 2♠ nobody contras is won without play; the outcome is the deal's.

Policies (hand evaluation of :mod:`preflog.sim.evaluate`, bots that see all cards):

* numbers — a bot bids up to the highest number it could still make a contract at after the talon
  (best suit / Sanac with ``TALON_GAIN`` tricks, Bettel for a clean hand), holding («здесь») when it
  may; «igra» at its first call with a hand worth six tricks without the talon;
* whist — a defender whists with about two own tricks; a lone whister invites the passer when the
  side looks good for four; Bettel is always whisted (``bettel_must_be_played``);
* contra — occasional: a strong whister contras, a strong declarer answers; in a 2♠ deal without refe
  the whisters contra when they mean to play (else it is won without play).

The bots get the pulka's scorer (the 2♠ rule depends on refe).
"""

from __future__ import annotations

import random

from ..engine.croatian.auction import CroatianAuction
from ..engine.croatian.deal import CroatianDeal
from ..model import calls as C
from ..model.bids import HR_BETTEL
from ..model.bids import HR_LADDER
from ..model.bids import HR_SANAC
from ..model.bids import HR_TRUMP
from ..model.bids import IGRA
from ..model.bids import IGRA_BETTEL
from ..model.bids import IGRA_SANAC
from ..model.bids import PASS
from ..model.bids import hr_trump
from ..model.events import BidMade
from ..model.events import ContraCalled
from ..model.events import ContractDeclared
from ..model.events import DealStarted
from ..model.events import Discarded
from ..model.events import Event
from ..model.events import WhistCalled
from ..model.outcome import NO_SEAT
from ..model.outcome import DealOutcome
from ..model.outcome import bidding_order
from ..rules.config import Rules
from ..scoring.base import Scorer
from . import cardplay as P
from .evaluate import NT
from .evaluate import best_discard
from .evaluate import defence_tricks
from .evaluate import miser_bad
from .evaluate import miser_discard
from .evaluate import patterns
from .evaluate import tricks_of
from .levels import Seats
from .table import Table

TALON_GAIN = 1.8          # expected tricks gained from the talon (12 cards, keep the best 10)
BID_NOISE = 0.45
IGRA_MIN = 6.4            # tricks without the talon for «igra»
WHIST_MIN = 1.5           # own expected tricks to whist (quota 2)
LONE_MIN = 1.9
INVITE_SIDE = 3.6         # side's expected tricks for a lone whister to invite
CONTRA_MIN = 2.9          # own expected tricks for an occasional contra
CONTRA_P = 0.25
RECONTRA_MIN = 7.6        # declarer's expected tricks for recontra
RECONTRA_P = 0.4
TWO_SPADES_CONTRA_P = 0.6

# suit strain of evaluate (♠ 0, ♣ 1, ♦ 2, ♥ 3, NT 4: the suit codes) for each contract number but Bettel
_STRAIN = {**HR_TRUMP, HR_SANAC: NT}


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class CroatianBots:
    """Plays Croatian / Slovenian deals for one pulka (rules, table size and random stream fixed)."""

    def __init__(self, rules: Rules, n_players: int, rng: random.Random, scorer: Scorer) -> None:
        if n_players != 3:
            raise ValueError(f"the Croatian simulator plays at 3 players, not {n_players}")
        self.rules = rules
        self.n = n_players
        self.rng = rng
        self.must_trump = rules.must_trump
        self.scorer = scorer   # the 2♠ rule (``needs_contra``) depends on the declarer's refe
        self.seats: Seats | None = None   # the seats' bot levels (None: today's heuristic bot everywhere)

    # ------------------------------------------------------------------ deal
    def play_deal(self, deal_no: int, dealer: int, min_level: int, paper: bool, out: list[Event]) -> DealOutcome:
        """Play one deal through the engine's :class:`CroatianDeal` and return its outcome (on paper the log
        keeps the bids, the contract and the defence, and ends with a :class:`PaperResult`)."""
        n, rng, rules = self.n, self.rng, self.rules
        deck = list(range(32))
        rng.shuffle(deck)
        order = bidding_order(n, dealer)
        hands = [0] * n
        for i, s in enumerate(order):  # 5 each, 2 to the talon, 5 each (docs/rules.md §A4)
            hands[s] = _mask(deck[5 * i:5 * i + 5] + deck[17 + 5 * i:22 + 5 * i])
        talon = _mask(deck[15:17])
        out.append(DealStarted(dealer) if paper else DealStarted(dealer, tuple(hands), talon))
        deal = CroatianDeal.for_pulka(rules, n, dealer, tuple(hands), talon, deal_no, self.scorer)
        table = Table(deal, CroatianDeal.for_pulka(rules, n, dealer, None, None, deal_no, self.scorer) if paper
                      else None, out)

        auction = self.auction(table, hands)
        declarer = auction.winner
        if declarer == NO_SEAT:  # all passed: the deal is over
            return table.outcome()
        if deal.hand_game:
            contract = auction.named_contract or self._hand_contract(hands[declarer])
        else:
            contract, discard = self.declare(hands[declarer] | talon, auction.final_bid)
            table.card_event(Discarded(declarer, discard))
        table.event(ContractDeclared(declarer, contract))
        self._defend_and_play(table, contract)
        return table.outcome()

    # --------------------------------------------------------------- auction
    def _talon_limit(self, hand: int, bonus: float = 0.0) -> int:
        """Highest number this hand would bid with the talon (0: none); ``bonus``: an overbidding bot's."""
        ps = patterns(hand)
        noise = self.rng.gauss(0.0, BID_NOISE) + bonus
        limit = 0
        for number, strain in _STRAIN.items():
            if tricks_of(ps, strain) + TALON_GAIN + noise >= 6.0:
                limit = max(limit, number)
        if miser_bad(hand) <= 1 and self.rng.random() < 0.6:
            limit = max(limit, HR_BETTEL)
        return limit

    def _igra_call(self, hand: int) -> int:
        """An igra call for a first turn: Bettel / Sanac from hand, plain igra, or PASS (none)."""
        rng = self.rng
        if miser_bad(hand) == 0 and rng.random() < 0.5:
            return IGRA_BETTEL
        ps = patterns(hand)
        noise = rng.gauss(0.0, BID_NOISE)
        if tricks_of(ps, NT) + noise >= IGRA_MIN + 0.3 and rng.random() < 0.5:
            return IGRA_SANAC
        if max(tricks_of(ps, s) for s in range(4)) + noise >= IGRA_MIN:
            return IGRA
        return PASS

    def _hand_suit(self, hand: int) -> int:
        ps = patterns(hand)
        return max(HR_TRUMP, key=lambda c: (tricks_of(ps, _STRAIN[c]), c))

    def _hand_contract(self, hand: int) -> int:
        """The contract of an uncontested plain igra (any 2-7)."""
        ps = patterns(hand)
        if miser_bad(hand) == 0:
            return HR_BETTEL
        best = self._hand_suit(hand)
        return HR_SANAC if tricks_of(ps, NT) >= tricks_of(ps, _STRAIN[best]) + 0.5 else best

    def auction(self, table: Table[CroatianDeal], hands: list[int]) -> CroatianAuction:
        """Bid through the deal's auction, choosing among its legal calls; returns the finished auction."""
        a = table.deal.auction
        assert isinstance(a, CroatianAuction)
        limit = {s: self._talon_limit(hands[s], self.seats.overbid(s) if self.seats else 0.0) for s in a.order}
        igra = {s: self._igra_call(hands[s]) for s in a.order}
        for _ in range(64):
            if a.done:
                return a
            seat = a.to_move
            legal = a.legal_bids(seat)
            call = PASS
            if a.naming:
                name = self._hand_suit(hands[seat])
                call = name if name in legal else PASS
            elif igra[seat] != PASS and igra[seat] in legal:
                call = igra[seat]
            else:
                cur = a.high_bid
                if cur and cur in legal and cur <= limit[seat]:
                    call = cur  # hold («здесь»): cheaper than raising
                else:
                    nxt = max(cur + 1, HR_LADDER[0])  # the next number (the lowest to open)
                    if nxt in legal and nxt <= limit[seat]:
                        call = nxt
            table.event(BidMade(seat, call))
        raise AssertionError("the Croatian auction did not end")  # pragma: no cover

    # -------------------------------------------------------------- contract
    def declare(self, h12: int, final: int) -> tuple[int, int]:
        """Talon contract (≥ the final number) and discard: the best expected margin over six tricks."""
        best = (-99.0, 0, 0)
        for number, strain in _STRAIN.items():
            if number < final:
                continue
            discard, val = best_discard(h12, strain)
            # a higher contract is worth more: prefer it on a comfortable margin
            key = val + (0.05 * number if val >= 6.5 else 0.0)
            if key > best[0]:
                best = (key, number, discard)
        if final <= HR_BETTEL:
            d = miser_discard(h12)
            if miser_bad(h12 & ~d) == 0 and (best[0] < 6.3 or final == HR_BETTEL or best[1] < final):
                return HR_BETTEL, d
        if best[1] == 0:  # only Bettel was allowed by the number and the hand is not clean
            return HR_BETTEL if final == HR_BETTEL else HR_SANAC, miser_discard(h12)
        return best[1], best[2]

    # ------------------------------------------------------------ defence and play
    def _defend_and_play(self, table: Table[CroatianDeal], contract: int) -> None:
        """Whist calls, the invitation, contras, then play (unless nobody whisted or the 2♠ rule ends it)."""
        deal, rng = table.deal, self.rng
        d = deal.defence
        assert d is not None
        d1, d2 = d.defenders  # left of the declarer first
        trump = hr_trump(contract)
        est = {s: defence_tricks(deal.hands[s], trump) + rng.gauss(0.0, 0.35) for s in (d1, d2)}

        def call(seat: int, c: int) -> None:
            table.event(WhistCalled(seat, c))

        def whist_if(seat: int, want: bool) -> int:  # whist when the bot wants to, or may not pass (Bettel)
            return C.CALL_WHIST if want or not deal.can_whist(seat, C.CALL_PASS) else C.CALL_PASS

        c1 = whist_if(d1, est[d1] >= WHIST_MIN)
        call(d1, c1)
        if c1 == C.CALL_WHIST:
            call(d2, whist_if(d2, est[d2] >= WHIST_MIN))
        elif est[d2] >= LONE_MIN:
            invite = est[d1] + est[d2] >= INVITE_SIDE and rng.random() < 0.7
            call(d2, C.CALL_INVITE if invite else C.CALL_WHIST)
        else:
            call(d2, whist_if(d2, False))
        if deal.done:  # nobody whisted
            return
        for w in d.whisters:  # a lone whister may still invite the passer
            if deal.can_whist(w, C.CALL_INVITE):
                other = d1 if w == d2 else d2
                if est[w] + est[other] >= INVITE_SIDE + 0.4 and rng.random() < 0.3:
                    call(w, C.CALL_INVITE)
        self._contras(table, contract, est)
        if table.finish_without_play():  # 2♠ nobody contra'd: won without play (no further event)
            return
        self.play(table, contract)

    def _contras(self, table: Table[CroatianDeal], contract: int, est: dict[int, float]) -> None:
        deal, rng = table.deal, self.rng
        d = deal.defence
        assert d is not None
        whisters, declarer = d.whisters, deal.declarer
        if not any(deal.can_contra(w) for w in whisters):  # contra is off
            return
        strain = _STRAIN.get(contract, NT)
        decl_est = tricks_of(patterns(deal.hands[declarer]), strain) if contract != HR_BETTEL else 0.0
        for w in whisters:
            strong = est[w] >= CONTRA_MIN and rng.random() < CONTRA_P
            if (d.needs_contra and not any(d.contra) and rng.random() < TWO_SPADES_CONTRA_P) or strong:
                table.event(ContraCalled(w))
        for _ in range(3):  # recontra, subcontra, mortcontra … rarely far
            if not deal.can_contra(declarer):
                return
            if not (decl_est >= RECONTRA_MIN and rng.random() < RECONTRA_P):
                return
            table.event(ContraCalled(declarer))
            for w in whisters:  # a whister in the chain may answer
                if d.contra[w] and deal.can_contra(w) and est[w] >= CONTRA_MIN + 0.5 and rng.random() < 0.3:
                    table.event(ContraCalled(w))

    def play(self, table: Table[CroatianDeal], contract: int) -> None:
        """Play until the engine ends play (its stop rule). The passer who was not invited takes no part,
        and the bots never see his cards."""
        deal = table.deal
        d = deal.defence
        assert d is not None
        mode = P.MISER if contract == HR_BETTEL else P.TRICKS
        # the first card closes the defence phase: its leader is the one the deal expects
        P.play_out(deal, mode, hr_trump(contract), self.must_trump, table.cards, first=deal.to_move,
                   out_seat=d.out_seat, seats=self.seats)
        table.played()
