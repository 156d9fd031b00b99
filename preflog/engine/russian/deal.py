"""One Russian deal (Sochi, Leningrad, Rostov): talon, discard, whist calls, play mode, raspasy.

Phases as in :mod:`preflog.engine.deal`. After the contract the defenders call whist, pass or
half-whist ("вист", "пас", "полвиста"; left of the declarer first; at four players the
sitting-out dealer may return a half-whist); a lone whister chooses open or closed play. Miser
is played without whist calls; a 10-game under ``ten_mode=checked`` is checked (:class:`TenChecked`)
or played out. All pass → raspasy ("распасы"), with the talon led to the first tricks under
``raspasy_talon_mode=open``.

Choices where the spec is silent (see docs/findings.md):
- open raspasy talon ("прикуп" turned card by card): the talon is stored as a mask, so
  the card turned first is the one whose suit the first card of trick 1 matches,
  else the lower card;
- a 10-game under ``ten_mode="checked"`` has no whist calls; it is checked
  (TenChecked) or played out, and both defenders count as whisters;
- a missing PlayModeChosen means closed play;
- a paper half-whist may stop at the half-whist (the sheet form): the deal then ends as a half-whist
  when the next deal, a score line or the end of the pulka arrives (:meth:`RussianDeal.finish_without_play`);
- the house concession down three («без трёх», ``allow_concede_down3``) is the declarer's call
  ``concede`` (a :class:`WhistCalled` by the declarer) any time after a trick contract and before the
  first card or the paper result; the deal ends ``CONCEDED`` without tricks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ...model.bidcodes import MISER
from ...model.bidcodes import RU_LADDER
from ...model.bidcodes import level_of
from ...model.bidcodes import ru_trump
from ...model.bids import format_ru_bid
from ...model.calls import CALL_CONCEDE
from ...model.calls import CALL_HALF
from ...model.calls import CALL_NAMES
from ...model.calls import CALL_PASS
from ...model.calls import CALL_WHIST
from ...model.calls import PLAY_CLOSED
from ...model.calls import PLAY_OPEN
from ...model.events import Event
from ...model.events import PlayModeChosen
from ...model.events import WhistCalled
from ...model.outcome import KIND_CONCEDED as _CONCEDED
from ...model.outcome import KIND_GAME as _GAME
from ...model.outcome import KIND_HALF_WHIST as _HALF_WHIST
from ...model.outcome import KIND_MISER as _MISER
from ...model.outcome import KIND_NOT_WHISTED as _NOT_WHISTED
from ...model.outcome import KIND_RASPASY as _RASPASY
from ...model.outcome import NO_SEAT
from ...model.outcome import DealOutcome
from ...rules.config import Rules
from ...rules.settings import OPEN_NEVER
from ...rules.settings import RussianSettings
from ...rules.settings import russian_settings
from ...scoring.base import Scorer
from ..auction import AuctionBase
from ..codes import Code
from ..deal import AUCTION
from ..deal import DISCARD
from ..deal import DONE
from ..deal import MODE
from ..deal import PLAY
from ..deal import RESULT
from ..deal import WHIST
from ..deal import Deal
from ..findings import IllegalAction
from ..tricks import N_TRICKS
from .auction import RussianAuction

# whist sub-steps
_W_D1: Final = 0
_W_D2: Final = 1
_W_RETURN: Final = 2
_W_DEALER: Final = 3


class RussianDeal(Deal):
    """State of one Russian deal. Seats are 0-based table seats; see the module doc."""

    AUCTION_TYPE = RussianAuction
    LADDER = RU_LADDER
    CONTRACTS_TEXT = "on the Russian ladder"

    half_whister: int
    returner: int
    checked: bool
    _wstep: int
    _lone: int
    settings: RussianSettings

    def _read_rules(self, rules: Rules) -> None:
        self.settings = russian_settings(rules)

    def _start_family(self) -> None:
        self.half_whister = NO_SEAT
        self.returner = NO_SEAT
        self.checked = False
        self._wstep = _W_D1
        self._lone = NO_SEAT

    @classmethod
    def for_pulka(cls, rules: Rules, n_players: int, dealer: int, hands: tuple[int, ...] | None, talon: int | None,
                  deal: int, scorer: Scorer | None, names: Sequence[str] | None = None) -> Deal:
        """The next deal of a pulka: the scorer gives the auction's minimum level (anti-raspasy rule)."""
        return RussianDeal(rules, n_players, dealer, deal, hands, talon,
                           scorer.min_bid_level() if scorer else 0, names=names)

    def next_deal(self, dealer: int, hands: tuple[int, ...] | None, talon: int | None, deal: int,
                  scorer: Scorer | None) -> None:
        self.reopen(dealer, deal, hands, talon, scorer.min_bid_level() if scorer else 0)

    def _new_auction(self, rules: Rules, active: tuple[int, ...], min_level: int) -> AuctionBase:
        return RussianAuction(rules, active, min_level)

    @staticmethod
    def bid_text(bid: int) -> str:
        return format_ru_bid(bid) if bid in RU_LADDER or bid in (0, 1) else str(bid)

    def expected(self) -> str:
        p = self.phase
        if p == WHIST:
            return f"a whist call by {self.who(self._whist_turn())}"
        if p == MODE:
            return f"open/closed by {self.who(self._lone)}" + (" or the result" if self.paper else " or the first card")
        return super().expected()

    @property
    def to_move(self) -> int:
        p = self.phase
        if p == WHIST:
            return self._whist_turn()
        if p == MODE:
            return self._lone
        return super().to_move

    # ------------------------------------------------------------------ auction and contract
    def _auction_over(self) -> None:
        a = self.auction
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
        self._start_play(talon_tricks=2 if self.settings.raspasy_open_talon else 0)

    def _contract_declared(self) -> None:
        contract = self.contract
        if contract == MISER:
            self._after_whist_resolved()
            return
        if level_of(contract) == 10 and self.settings.ten_checked:
            self.checked = True
            d1, d2 = self._defenders
            self.calls[d1] = self.calls[d2] = CALL_WHIST
            self.whist_order = [d1, d2]
            self._after_whist_resolved()
            return
        self.phase = WHIST
        self._wstep = _W_D1

    # ------------------------------------------------------------------ whist
    def _whist_turn(self) -> int:
        d1, d2 = self._defenders
        step = self._wstep
        if step == _W_RETURN:  # the defender who did not say half-whist may return the whist
            return d2 if self.half_whister == d1 else d1
        return d1 if step == _W_D1 else d2 if step == _W_D2 else self.dealer   # (_W_DEALER)

    def verify_whist(self, seat: int, call: int) -> None:
        if call == CALL_CONCEDE:
            self._verify_concede(seat)
            return
        if self.phase != WHIST:
            if self.checked and self.phase in (PLAY, RESULT) and not self.completed and not self.trick_cards:
                raise IllegalAction(Code.TEN_CHECKED_NO_WHIST, "a 10-game is checked, not whisted "
                                    "(ten_mode=checked)", seat=seat)
            if self._closing_pass(seat):
                if call != CALL_PASS:
                    raise IllegalAction(Code.HALF_WHISTER_MUST_PASS, f"the whist was returned; half-whister seat "
                                        f"{seat} may only pass", seat=seat)
                return  # the half-whister's closing pass after a return is optional
            raise self._phase_error(f"whist call {CALL_NAMES.get(call, call)}", seat)
        if call not in (CALL_PASS, CALL_WHIST, CALL_HALF):
            raise IllegalAction(Code.BAD_CALL, f"whist call code {call} is not whist, pass or half-whist", seat=seat)
        turn = self._whist_turn()
        if seat != turn:
            raise IllegalAction(Code.WHIST_OUT_OF_TURN, f"{self.who(seat)} calls out of turn; {self.who(turn)} is "
                                "to call "
                                "(the defender on the declarer's left speaks first)", seat=seat)
        if call == CALL_HALF:
            lvl = level_of(self.contract)
            second = self._wstep == _W_D2 and self.calls[self._defenders[0]] == CALL_PASS
            first = self._wstep == _W_D1 and self.settings.half_whist_by_either
            if not (second or first):
                raise IllegalAction(Code.HALF_WHIST_NOT_ALLOWED, "half-whist is only for the second defender after "
                                    "the first has passed" + (" or for the first defender"
                                                              if self.settings.half_whist_by_either
                                                              else " (half_whist_by=second)"), seat=seat)
            if lvl not in self.settings.half_whist_levels:
                raise IllegalAction(Code.HALF_WHIST_NOT_ALLOWED, f"half-whist is not allowed on a {lvl}-level game "
                                    f"(half_whist_levels {list(self.settings.half_whist_levels)})", seat=seat)

    def _verify_concede(self, seat: int) -> None:
        """House rule «без трёх» (``allow_concede_down3``): after declaring a trick contract and before the
        first card (or the paper result) the declarer may concede down three instead of playing; whist
        calls already made stand but nobody writes visty."""
        if self.phase not in (WHIST, MODE, PLAY, RESULT):
            raise self._phase_error("concession down three", seat)
        if self.declarer == NO_SEAT or self.contract == MISER:
            raise IllegalAction(Code.CONCEDE_NOT_ALLOWED, "only a trick contract can be conceded down three "
                                "(not raspasy or a miser)", seat=seat)
        if seat != self.declarer:
            raise IllegalAction(Code.CONCEDE_NOT_ALLOWED, f"{self.who(seat)} concedes, but only the declarer "
                                f"({self.who(self.declarer)}) may concede down three", seat=seat)
        if self.completed or self.trick_cards:
            raise IllegalAction(Code.CONCEDE_NOT_ALLOWED, "the concession down three comes before play; play "
                                "has begun", seat=seat)
        if not self.settings.allow_concede_down3:
            raise IllegalAction(Code.CONCEDE_NOT_ALLOWED, "conceding down three («без трёх») is not allowed in "
                                "these rules (allow_concede_down3 false)", seat=seat)

    def _closing_pass(self, seat: int) -> bool:
        """Whether ``seat`` is the half-whister whose closing pass after a return may still come."""
        return (self.phase in (MODE, PLAY, RESULT) and seat == self.half_whister and self.returner != NO_SEAT
                and not self.completed and not self.trick_cards and self.calls[seat] == CALL_HALF)

    def push_whist(self, seat: int, call: int) -> None:
        if call == CALL_CONCEDE:
            self._finish(_CONCEDED)  # «без трёх»: no play, the scorer writes the declarer down three
            return
        if self.phase != WHIST:
            self.calls[seat] = CALL_PASS  # the half-whister's closing pass after a return
            return
        d1, d2 = self._defenders
        step = self._wstep
        if step == _W_D1:
            self.calls[d1] = call
            if call == CALL_HALF:  # half_whist_by=either: the second defender may return the whist
                self.half_whister = d1
                self._wstep = _W_RETURN
                return
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
            elif self.n == 4 and self.settings.dealer_whists_after_passes and self.calls[d1] == CALL_PASS:
                self._wstep = _W_DEALER  # both passed: the sitting-out dealer may whist for the side
                return
            self._resolve_whist()
            return
        if step == _W_RETURN:
            if call == CALL_WHIST:
                self._return(seat)
                return
            self.calls[seat] = CALL_PASS
            if self.n == 4:
                self._wstep = _W_DEALER
            else:
                self._finish(_HALF_WHIST)
            return
        # _W_DEALER: the sitting-out dealer may return a half-whist, or whist after two passes
        if call == CALL_WHIST:
            self._return(self.dealer)
        else:
            self._finish(_HALF_WHIST if self.half_whister != NO_SEAT else _NOT_WHISTED)

    def finish_without_play(self) -> bool:
        """A paper half-whist as the sheet shows it (``Whist: B pass, C half``): nobody returned the whist, so
        the next deal, a score line or the end of the pulka closes it as a half-whist (the contract counts as
        made, the half-whister writes his half); at four players the dealer's pass is not needed either."""
        if not self.paper or self.phase != WHIST or self._wstep not in (_W_RETURN, _W_DEALER):
            return False
        self._finish(_HALF_WHIST if self.half_whister != NO_SEAT else _NOT_WHISTED)
        return True

    def _return(self, seat: int) -> None:
        self.returner = seat
        self.calls[seat] = CALL_WHIST
        self.whist_order = [seat]
        self._lone = seat
        self._after_whist_resolved()
        # the half-whister's call stays HALF until his (optional) closing pass; the outcome says PASS

    def _resolve_whist(self) -> None:
        n_w = len(self.whist_order)
        if n_w == 0:
            self._finish(_NOT_WHISTED)
            return
        if n_w == 1:
            self._lone = self.whist_order[0]
        self._after_whist_resolved()

    def _after_whist_resolved(self) -> None:
        if self._lone != NO_SEAT and self.settings.open_play_choice != OPEN_NEVER:
            self.phase = MODE
        elif self.paper:
            self.phase = RESULT
        else:
            self._start_play()

    # ------------------------------------------------------------------ play mode
    def verify_choose_mode(self, seat: int, mode: int) -> None:
        if self.phase != MODE:
            raise self._phase_error("play mode", seat)
        if mode not in (PLAY_OPEN, PLAY_CLOSED):
            raise IllegalAction(Code.BAD_MODE, f"play mode code {mode} is neither open nor closed", seat=seat)
        if seat != self._lone:
            raise IllegalAction(Code.MODE_BY_WRONG_SEAT, f"{self.who(seat)} chooses open/closed but the lone "
                                "whister is "
                                f"{self.who(self._lone)}", seat=seat)

    def push_choose_mode(self, seat: int, mode: int) -> None:
        self.open_play = mode == PLAY_OPEN
        self._begin_play()

    # ------------------------------------------------------------------ play
    def _begin_play(self) -> None:
        """Leave the play-mode phase (a missing PlayModeChosen means closed play)."""
        if self.paper:
            self.phase = RESULT
        else:
            self._start_play()

    def _start_play(self, talon_tricks: int = 0) -> None:
        self.phase = PLAY
        contract = self.contract
        n = self.n
        self.start_tricks(
            self.first_hand, ru_trump(contract) if contract and contract != MISER else -1, self.settings.must_trump,
            talon_tricks=talon_tricks, talon_owner=self.dealer if n == 4 else NO_SEAT,
            third_lead_winner=n == 3 and self.settings.raspasy_last_winner_leads)

    def _verify_play_before_play(self, seat: int, card: int) -> None:
        # a card while open/closed is pending: closed play is implied; check it as the first card
        if self.phase != MODE or self.paper:
            raise self._phase_error(f"card {card}", seat)
        self._verify_lead(seat, card, self.first_hand, "plays")

    def _tricks_over(self) -> None:
        self._finish_played()

    # ------------------------------------------------------------------ claims and results
    def _check_tricks(self, tricks: tuple[int, ...], what: str, code: Code, lo: int, hi: int) -> None:
        self._check_counts(tricks, what, code)
        total = sum(tricks)
        if not lo <= total <= hi:
            want = str(hi) if lo == hi else f"{lo}..{hi}"
            raise IllegalAction(code, f"{what} {list(tricks)} sums to {total}, expected {want}")
        if self.n == 4 and tricks[self.dealer] and self.declarer != NO_SEAT:
            raise IllegalAction(code, f"{what} gives tricks to the sitting-out dealer ({self.who(self.dealer)})")

    def verify_claim(self, tricks: tuple[int, ...]) -> None:
        if self.phase == MODE and not self.paper:
            pass
        elif self.phase not in (PLAY, RESULT):
            raise self._phase_error("claim")
        rem = self._remaining()
        # (at 3 players a raspasy talon trick always has a taker: the suit's other cards are all in hands)
        self._check_tricks(tuple(tricks), "the claim", Code.BAD_CLAIM, rem, rem)
        if self.n == 4 and self.declarer == NO_SEAT and tricks[self.dealer] > max(0, self._talon_tricks
                                                                                   - self.completed):
            raise IllegalAction(Code.BAD_CLAIM, "the sitting-out dealer can only take raspasy talon tricks")

    def verify_ten_check(self, tricks: tuple[int, ...]) -> None:
        if not self.checked:
            super().verify_ten_check(tricks)
        if self.phase not in (PLAY, RESULT) or self.completed or self.trick_cards:
            raise IllegalAction(Code.TEN_CHECK_NOT_ALLOWED, "the ten check replaces play; play has already begun")
        self._check_tricks(tuple(tricks), "the ten check", Code.BAD_TRICKS, N_TRICKS, N_TRICKS)

    def push_ten_check(self, tricks: tuple[int, ...]) -> None:
        self.tricks = list(tricks)
        self._finish_played()

    def verify_paper_result(self, tricks: tuple[int, ...]) -> None:
        if not self.paper:
            self.verify_claim(tricks)  # a card-level deal may only give the result as a claim of what remains
            return
        if self.phase == AUCTION and not self.auction.called:
            pass  # a paper raspasy written without its passes
        elif self.phase not in (RESULT, MODE):
            raise self._phase_error("paper result")
        raspasy = self.phase == AUCTION or self.declarer == NO_SEAT
        self._check_tricks(tuple(tricks), "the paper result", Code.BAD_TRICKS, N_TRICKS, N_TRICKS)
        if raspasy and self.n == 4 and tricks[self.dealer] > 2:
            raise IllegalAction(Code.BAD_TRICKS, "the sitting-out dealer can take at most the two raspasy talon "
                                "tricks")

    def _paper_totals(self, tricks: tuple[int, ...]) -> None:
        self.tricks = list(tricks)
        self._finish_played()

    # ------------------------------------------------------------------ outcome
    def _finish_played(self) -> None:
        if self.declarer == NO_SEAT:
            kind = _RASPASY
        elif self.contract == MISER:
            kind = _MISER
        else:
            kind = _GAME
        self._finish(kind)

    def _finish(self, kind: str) -> None:
        calls = list(self.calls)
        if self.declarer != NO_SEAT:
            calls[self.declarer] = -1
        if self.returner != NO_SEAT and self.half_whister != NO_SEAT:
            calls[self.half_whister] = CALL_PASS
        played = kind in (_GAME, _MISER, _RASPASY)
        tricks = tuple(self.tricks) if played else ()  # no play, no tricks
        self.outcome = DealOutcome(
            deal=self.deal, dealer=self.dealer, n_players=self.n, kind=kind, declarer=self.declarer,
            contract=self.contract if kind != _RASPASY else 0, tricks=tricks, calls=tuple(calls),
            whist_order=tuple(self.whist_order), half_whister=self.half_whister, returner=self.returner,
            open_play=self.open_play, checked=self.checked, paper=self.paper,
        )
        self.phase = DONE
        self.to_play = NO_SEAT

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Event]:
        p = self.phase
        if p == WHIST:
            s = self._whist_turn()
            return [WhistCalled(s, c) for c in (CALL_PASS, CALL_WHIST, CALL_HALF) if self.can_whist(s, c)]
        if p == MODE:
            return [PlayModeChosen(self._lone, m) for m in (PLAY_CLOSED, PLAY_OPEN)]
        return super().legal_actions()

