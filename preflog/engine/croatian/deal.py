"""One Croatian / Slovenian deal: auction → (talon and discard unless a hand game, «igra») →
contract → defence phase (whist / pass / invite, contra chain; :class:`CroatianDefence`) → play.

* all pass → ``_ALL_PASS`` at once (refe, no play); both defenders pass → ``_NOT_WHISTED`` at once;
* the defence phase stays open until the first card (card level) or the result (paper level);
  a 2♠ deal nobody contra'd (``needs_contra``, from the scorer) ends without play as ``CONCEDED``
  when the next deal, score line or end arrives (:meth:`CroatianDeal.finish_without_play`);
* the passer who was not invited (``out_seat``) never plays: tricks have two cards;
* first lead by :func:`first_leader`; play stops by :func:`stop_caps` (defenders' 5th trick, flat
  Bettel at the declarer's first trick) with ``stopped_early`` when fewer than 10 tricks were played.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence

from ...model.bidcodes import HR_BETTEL
from ...model.bidcodes import HR_LADDER
from ...model.bidcodes import hr_trump
from ...model.bids import format_hr_bid
from ...model.calls import CALL_INVITE
from ...model.calls import CALL_NAMES
from ...model.calls import CALL_PASS
from ...model.calls import CALL_WHIST
from ...model.events import CardPlayed
from ...model.events import ContraCalled
from ...model.events import DealStarted
from ...model.events import Event
from ...model.events import WhistCalled
from ...model.outcome import KIND_ALL_PASS as _ALL_PASS
from ...model.outcome import KIND_GAME as _GAME
from ...model.outcome import KIND_NOT_WHISTED as _NOT_WHISTED
from ...model.outcome import NO_SEAT
from ...model.outcome import DealOutcome
from ...rules.config import Rules
from ...rules.settings import CroatianSettings
from ...rules.settings import croatian_settings
from ...scoring.base import Scorer
from ..auction import AuctionBase
from ..codes import Code
from ..deal import CONTRACT
from ..deal import DISCARD
from ..deal import DONE
from ..deal import PLAY
from ..deal import WHIST
from ..deal import Deal
from ..findings import IllegalAction
from ..tricks import N_TRICKS
from .auction import CroatianAuction
from .defence import CroatianDefence
from .defence import first_leader
from .defence import play_over
from .defence import stop_caps

NeedsContra = Callable[[int, int, bool], bool]
"""The scorer's 2♠ rule: (declarer, contract, hand game) → whether the deal needs a contra to be played."""


class CroatianDeal(Deal):
    """State of one Croatian / Slovenian deal (see the module doc)."""

    AUCTION_TYPE = CroatianAuction
    LADDER = HR_LADDER
    CONTRACTS_TEXT = "a Croatian contract (2-7)"
    _bid_noun = "call"

    def __init__(self, rules: Rules, n_players: int, dealer: int, deal: int = 1, hands: tuple[int, ...] | None = None,
                 talon: int | None = None, min_level: int = 0, needs_contra: NeedsContra | None = None, *,
                 names: Sequence[str] | None = None) -> None:
        super().__init__(rules, n_players, dealer, deal, hands, talon, min_level, names=names)
        self._needs_contra = needs_contra

    hand_game: bool
    defence: CroatianDefence | None
    out_seat: int
    stopped_early: bool
    settings: CroatianSettings

    def _read_rules(self, rules: Rules) -> None:
        self.settings = croatian_settings(rules)

    def defence_calls(self) -> list[int]:
        """The defenders' calls as the defence phase keeps them (igram, pass, zovem; −1: none)."""
        d = self.defence
        return list(d.calls) if d is not None else [-1] * self.n

    def _start_family(self) -> None:
        self.hand_game = False
        self.defence = None
        self.out_seat = NO_SEAT
        self.stopped_early = False

    @classmethod
    def from_event(cls, rules: Rules, n_players: int, ev: DealStarted, deal: int = 1, min_level: int = 0,
                   needs_contra: NeedsContra | None = None) -> CroatianDeal:
        return cls(rules, n_players, ev.dealer, deal, ev.hands, ev.talon, min_level, needs_contra)

    @classmethod
    def for_pulka(cls, rules: Rules, n_players: int, dealer: int, hands: tuple[int, ...] | None, talon: int | None,
                  deal: int, scorer: Scorer | None, names: Sequence[str] | None = None) -> CroatianDeal:
        """The next deal of a pulka: the scorer decides the 2♠ rule (it depends on the declarer's refe)."""
        return CroatianDeal(rules, n_players, dealer, deal, hands, talon, 0,
                            scorer.needs_contra if scorer else None, names=names)

    def next_deal(self, dealer: int, hands: tuple[int, ...] | None, talon: int | None, deal: int,
                  scorer: Scorer | None) -> None:
        self.reopen(dealer, deal, hands, talon, 0)
        self._needs_contra = scorer.needs_contra if scorer else None

    def _new_auction(self, rules: Rules, active: tuple[int, ...], min_level: int) -> AuctionBase:
        return CroatianAuction(rules, active, min_level)

    @staticmethod
    def bid_text(bid: int) -> str:
        return format_hr_bid(bid)

    # ------------------------------------------------------------------ helpers
    def expected(self) -> str:
        if self.phase == WHIST and self.defence is not None:
            d = self.defence
            if not d.calls_done:
                return f"a whist call by {self.who(self._whist_turn())}"
            if d.kind != _GAME:
                return "a contra, or the next deal (a 2♠ that nobody contras is won without play)"
            if self.paper:
                return "a contra, an invitation or the paper result"
            return f"a contra, an invitation or the first card by {self.who(self._whist_turn())}"
        return super().expected()

    @property
    def to_move(self) -> int:
        if self.phase == WHIST:
            return self._whist_turn()
        return super().to_move

    def _whist_turn(self) -> int:
        d = self.defence
        if d is None:
            return NO_SEAT
        if not d.calls_done:
            return d.defenders[1 if d.calls[d.defenders[0]] >= 0 else 0]
        return self._leader() if d.kind == _GAME and not self.paper else NO_SEAT

    def _leader(self) -> int:
        d = self.defence
        assert d is not None
        return first_leader(self.settings, self.dealer, self.declarer, self.contract, d.out_seat, self.n)

    # ------------------------------------------------------------------ auction and contract
    def _auction_over(self) -> None:
        a = self.auction
        if a.winner == NO_SEAT:
            self._finish(_ALL_PASS)  # cards thrown in: refe for everybody (scoring decides)
            return
        self.declarer = a.winner
        self.hand_game = a.hand_game
        self.phase = CONTRACT if self.hand_game else DISCARD  # «igra»: no talon

    def _contract_declared(self) -> None:
        seat, contract = self.declarer, self.contract
        nc = self._needs_contra(seat, contract, self.hand_game) if self._needs_contra is not None else False
        self.defence = CroatianDefence(self.rules, seat, self._defenders, contract, nc, self.n, self.names)
        self.phase = WHIST

    # ------------------------------------------------------------------ defence
    def verify_whist(self, seat: int, call: int) -> None:
        if self.phase != WHIST or self.defence is None:
            raise self._phase_error(f"whist call {CALL_NAMES.get(call, call)}", seat)
        self.defence.verify_whist(seat, call)

    def push_whist(self, seat: int, call: int) -> None:
        d = self.defence
        assert d is not None
        d.whist(seat, call)
        if d.calls_done and not d.whisters:
            self._close_defence()
            self._finish(_NOT_WHISTED)

    def verify_contra(self, seat: int) -> None:
        if self.phase != WHIST or self.defence is None:
            raise self._phase_error("contra", seat)
        self.defence.verify_contra(seat)

    def push_call_contra(self, seat: int) -> None:
        assert self.defence is not None
        self.defence.call_contra(seat)

    def finish_without_play(self) -> bool:
        d = self.defence
        if self.phase != WHIST or d is None or not d.calls_done or d.kind == _GAME:
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
        if d.kind != _GAME:
            raise IllegalAction(Code.PLAY_WITHOUT_CONTRA, f"{what}: a 2♠ with the talon and no refe that no defender "
                                "contra'd is won without play (the 2♠ rule)")

    # ------------------------------------------------------------------ play
    def _begin_play(self) -> None:
        self._close_defence()
        self.phase = PLAY
        out = self.out_seat
        if out != NO_SEAT:  # two-handed play: the uninvited passer's cards lie face down
            a, b = (s for s in self._defenders + (self.declarer,) if s != out)
            self.two_handed(a, b)
        decl_cap, side_cap = stop_caps(self.settings, self.contract)
        self.start_tricks(self._leader(), hr_trump(self.contract), self.settings.must_trump,  # -1 for Bettel, Sanac
                          stop_seat=self.declarer, declarer_cap=decl_cap, side_cap=side_cap)

    def _verify_play_before_play(self, seat: int, card: int) -> None:
        if self.phase != WHIST or self.paper:
            raise self._phase_error(f"card {card}", seat)
        self._verify_playable(f"card {card}")
        d = self.defence
        assert d is not None
        if seat == d.out_seat:
            raise IllegalAction(Code.PASSER_OUT_OF_PLAY, f"{self.who(seat)} passed and was not invited: his cards take "
                                "no part in play", seat=seat)
        self._verify_lead(seat, card, self._leader(), "leads")

    def verify_play(self, seat: int, card: int) -> None:
        if self.phase == PLAY and seat == self.out_seat:
            raise IllegalAction(Code.PASSER_OUT_OF_PLAY, f"{self.who(seat)} passed and was not invited: his cards take "
                                "no part in play", seat=seat)
        super().verify_play(seat, card)

    def legal_cards(self, seat: int) -> int:
        if self.phase == WHIST:
            d = self.defence
            if self.paper or d is None or not d.calls_done or d.kind != _GAME or seat != self._leader():
                return 0
            return self.hands[seat]
        return super().legal_cards(seat)

    def _tricks_over(self) -> None:
        self.stopped_early = self.completed < N_TRICKS
        self._finish(_GAME)

    # ------------------------------------------------------------------ claims and results
    def _check_final(self, tricks: tuple[int, ...], what: str, code: Code) -> None:
        """Totals after a claim / paper result: no tricks for the out passer, none past the stop."""
        out = self.out_seat if self.phase != WHIST else (self.defence.out_seat if self.defence else NO_SEAT)
        if out != NO_SEAT and tricks[out]:
            raise IllegalAction(Code.PASSER_OUT_OF_PLAY, f"{what} gives tricks to {self.who(out)}, who passed and "
                                "was not "
                                "invited (his cards take no part)")
        if self.n == 4 and tricks[self.dealer]:
            raise IllegalAction(code, f"{what} gives tricks to the sitting-out dealer ({self.who(self.dealer)})")
        total = sum(tricks)
        decl = tricks[self.declarer]
        side = total - decl
        settings = self.settings
        if self.contract == HR_BETTEL:
            if not settings.bettel_per_trick and decl > 1:
                raise IllegalAction(Code.TRICKS_PAST_STOP, f"{what} gives the Bettel declarer {decl} tricks; play "
                                    "stops at his first (bettel_fail_mode=flat)")
        elif side > settings.defender_trick_cap:
            raise IllegalAction(Code.TRICKS_PAST_STOP, f"{what} gives the defenders {side} tricks; play stops at their "
                                f"{settings.defender_trick_cap}th (defender_trick_cap)")
        if total > N_TRICKS or (total < N_TRICKS and not play_over(settings, self.contract, decl, side)):
            raise IllegalAction(code, f"{what} {list(tricks)} sums to {total}: expected 10 tricks, or fewer only "
                                "when play stops early (the defenders' 5th trick, a Bettel declarer's first)")

    def _counts(self, tricks: tuple[int, ...], what: str, code: Code, most: int) -> None:
        self._check_counts(tricks, what, code)
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
        self._counts(tricks, "the claim", Code.BAD_CLAIM, self._remaining())
        self._check_final(tuple(a + b for a, b in zip(self.tricks, tricks, strict=True)), "the claim",
                          Code.BAD_CLAIM)

    def verify_paper_result(self, tricks: tuple[int, ...]) -> None:
        if not self.paper:
            self.verify_claim(tricks)
            return
        if self.phase != WHIST:
            raise self._phase_error("paper result")
        self._verify_playable("paper result")
        tricks = tuple(tricks)
        self._counts(tricks, "the paper result", Code.BAD_TRICKS, N_TRICKS)
        self._check_final(tricks, "the paper result", Code.BAD_TRICKS)

    def _paper_totals(self, tricks: tuple[int, ...]) -> None:
        self._close_defence()
        self.tricks = list(tricks)
        self.stopped_early = sum(self.tricks) < N_TRICKS
        self._finish(_GAME)

    # ------------------------------------------------------------------ outcome
    def _finish(self, kind: str) -> None:
        d = self.defence
        n = self.n
        self.outcome = DealOutcome(
            deal=self.deal, dealer=self.dealer, n_players=n, kind=kind, declarer=self.declarer,
            contract=self.contract if kind != _ALL_PASS else 0,
            tricks=tuple(self.tricks) if kind == _GAME else (),
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
        if self.phase != WHIST:
            return super().legal_actions()
        d = self.defence
        assert d is not None
        if not d.calls_done:
            s = self._whist_turn()
            return [WhistCalled(s, c) for c in (CALL_PASS, CALL_WHIST, CALL_INVITE) if self.can_whist(s, c)]
        out: list[Event] = [WhistCalled(s, CALL_INVITE) for s in d.whisters if self.can_whist(s, CALL_INVITE)]
        out += [ContraCalled(s) for s in (*self._defenders, self.declarer) if self.can_contra(s)]
        if not self.paper and d.kind == _GAME:
            s = self._leader()
            m = self.hands[s]
            out += [CardPlayed(s, c) for c in range(32) if m >> c & 1]
        return out
