"""The Russian auction ("торговля") on the 26-step ladder.

Russian ladder (26 steps, :data:`preflog.model.bids.RU_LADDER`): bids go up one step
at a time (no jumps unless ``allow_jump_bids``), a pass is final, miser
("мизер кабальный") only as a player's first call and beaten only from
``miser_beaten_by_level``. A bid *equal* to the current one is a hold ("здесь" /
"мои"): allowed per the ``hold_*`` options (default: the senior bidder — earlier in
bidding order from first hand — once the third player has passed, never on miser).
All pass → raspasy. Spec: seed 001 (торговля, мизер кабальный).

Each action has ``verify_bid`` (raises :class:`IllegalAction`), ``can_bid`` and
``bid`` (verifies, then applies), so replay and live play share the same checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ...model.bidcodes import MISER
from ...model.bidcodes import PASS
from ...model.bidcodes import RU_LADDER
from ...model.bidcodes import TAKE_TALON
from ...model.bidcodes import is_ru_bid
from ...model.bidcodes import is_trick_contract
from ...model.bidcodes import ru_next_trick_bid
from ...model.bids import format_ru_bid
from ...model.outcome import NO_SEAT
from ...rules.config import Rules
from ...rules.settings import RussianSettings
from ...rules.settings import russian_settings
from ..auction import AuctionBase
from ..codes import Code
from ..findings import IllegalAction

_CANDIDATES: Final = (PASS, TAKE_TALON) + RU_LADDER


class RussianAuction(AuctionBase):
    """The Russian auction on the 26-step ladder (see the module doc)."""

    CANDIDATES = _CANDIDATES
    __slots__ = ("_passed", "_calls", "_high", "_high_pos", "_high_hold", "_done", "_miser_pos",
                 "_miser_overcalled", "_take", "_left", "_s")
    _s: RussianSettings

    def __init__(self, rules: Rules, order: Sequence[int], min_level: int = 0) -> None:
        self._s = self._hold = russian_settings(rules)   # (the auction's rules for its life)
        self._passed: list[bool] = []
        self._calls: list[int] = []
        super().__init__(rules, order, min_level)

    def restart(self, order: Sequence[int], min_level: int = 0) -> None:
        super().restart(order, max(6, min_level) if min_level else 6)
        n = self._n
        passed, calls = self._passed, self._calls
        if len(calls) == n:   # the last auction's lists (same table), refilled in place
            for i in range(n):
                passed[i] = False
                calls[i] = 0
        else:
            self._passed = [False] * n
            self._calls = [0] * n            # number of non-pass calls per position
        self._left = n                       # bidders who have not passed
        self._high = PASS
        self._high_pos = -1
        self._high_hold = False              # current high bid was reached by a hold
        self._done = False
        self._miser_pos = -1
        self._miser_overcalled = False
        self._take = False

    # -- state ---------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._done

    @property
    def winner(self) -> int:
        return self.order[self._high_pos] if self._done and self._high_pos >= 0 else NO_SEAT

    @property
    def final_bid(self) -> int:
        return self._high if self._done else PASS

    @property
    def high_bid(self) -> int:
        """The current highest bid (PASS before the first bid)."""
        return self._high

    @property
    def took_talon(self) -> bool:
        """The third hand took the talon without a bid (``third_hand_mode=take_talon_no_miser``)."""
        return self._take

    def _min_open(self) -> int:
        return self.min_level * 10 + 1

    def _next_trick_step(self) -> int:
        """The next trick bid above the current high bid (the only legal raise without jumps)."""
        if self._high == PASS:
            return self._min_open()
        if self._high == MISER:
            return self._s.miser_beaten_by_level * 10 + 1
        return ru_next_trick_bid(self._high)

    def _third_hand_free(self, pos: int) -> bool:
        return (self._s.third_hand_takes_talon and self._high == PASS
                and pos == self._n - 1 and all(self._passed[:pos]))

    # -- the action ----------------------------------------------------
    def verify_bid(self, seat: int, bid: int) -> None:
        if not self._done and seat == self.order[self._turn]:
            # the seat to move (never one who passed): only the bid itself needs checking
            if bid == PASS:
                return
            if bid != TAKE_TALON and not is_ru_bid(bid):
                raise IllegalAction(Code.BAD_BID, f"bid code {bid} is not on the Russian ladder (6s..10NT, miser, "
                                    "pass)")
            pos = self._turn
        else:
            pos = self._verify_seat(seat, bid)
            if bid == PASS:
                return
        s = self._s
        if bid == TAKE_TALON:
            if not self._third_hand_free(pos):
                raise IllegalAction(Code.TAKE_TALON_NOT_ALLOWED, "only the third hand after two passes may take the "
                                    "talon without a bid (third_hand_mode=take_talon_no_miser)")
            return
        if pos == self._miser_pos and self._miser_overcalled and not s.miser_bidder_may_continue:
            raise IllegalAction(Code.MISER_BIDDER_MUST_PASS, f"{self.who(seat)} bid miser and was overcalled; he "
                                "may only "
                                "pass (miser_bidder_may_continue is off)")
        if bid == MISER:
            if self._third_hand_free(pos):
                raise IllegalAction(Code.MISER_BY_THIRD_HAND, "the third hand after two passes may take the talon but "
                                    "not bid miser (third_hand_mode=take_talon_no_miser)")
            if s.miser_first_call_only and self._calls[pos]:
                raise IllegalAction(Code.MISER_NOT_FIRST_CALL, f"{self.who(seat)} has already bid; miser is only "
                                    "allowed "
                                    "as a player's first call (мизер кабальный)")
            if self._high == MISER:
                self._verify_hold(seat, pos, bid)
                return
            if self._high > MISER:
                raise IllegalAction(Code.BID_NOT_ABOVE_LAST, f"miser is below the current bid "
                                    f"{format_ru_bid(self._high)}")
            return
        if bid < self._min_open():
            raise IllegalAction(Code.BELOW_MIN_LEVEL, f"{format_ru_bid(bid)} is below the opening minimum of "
                                f"{self.min_level} (anti-raspasy rule after a raspasy series)")
        if bid == self._high:
            self._verify_hold(seat, pos, bid)
            return
        if bid < self._high:
            raise IllegalAction(Code.BID_NOT_ABOVE_LAST, f"{format_ru_bid(bid)} is below the current bid "
                                f"{format_ru_bid(self._high)}")
        if self._high == MISER and bid // 10 < s.miser_beaten_by_level:
            raise IllegalAction(Code.MISER_NOT_BEATEN, f"{format_ru_bid(bid)} does not beat miser; it takes a "
                                f"{s.miser_beaten_by_level}-level bid (miser_beaten_by_level)")
        if not s.allow_jump_bids:
            step = self._next_trick_step()
            if bid != step:
                raise IllegalAction(Code.JUMP_BID, f"{format_ru_bid(bid)} skips ladder steps; the next step is "
                                    f"{format_ru_bid(step)} (no jumps)")

    def _verify_seat(self, seat: int, bid: int) -> int:
        """The checks on who bids, in the order they are reported; the seat's position in ``order``."""
        if bid != PASS and bid != TAKE_TALON and not is_ru_bid(bid):
            raise IllegalAction(Code.BAD_BID, f"bid code {bid} is not on the Russian ladder (6s..10NT, miser, pass)")
        if self._done:
            raise IllegalAction(Code.AUCTION_OVER, f"{self.who(seat)} bids {format_ru_bid(bid)} after the auction "
        "has ended")
        pos = self._position(seat)
        if self._passed[pos]:
            raise IllegalAction(Code.BID_AFTER_PASS, f"{self.who(seat)} has passed and may not bid again (a pass is "
        "final)")
        self._out_of_turn(seat, pos, "bids")
        return pos

    def _call_text(self, bid: int) -> str:
        return format_ru_bid(bid)

    def _family_hold_refusal(self, seat: int, pos: int, bid: int, text: str) -> str:
        if self._high_hold:
            return f"{text} is already held; it must be raised or passed"
        if not self._calls[pos]:
            return "only a player who has bid may hold"
        return self._hold_refusal(seat, pos, self._high_pos, self._passed)

    def bid(self, seat: int, bid: int) -> None:
        if bid != PASS or self._done or seat != self.order[self._turn]:
            self.verify_bid(seat, bid)  # (a pass by the seat to move is always legal: verify_bid's first case)
        pos = self._turn
        self._record(seat, bid)
        if bid == PASS:
            self._passed[pos] = True
            self._left -= 1
        else:
            if bid == TAKE_TALON:
                self._take = True
                self._high, self._high_hold = PASS, False
            else:
                self._high_hold = bid == self._high
                if self._high == MISER and bid != MISER:
                    self._miser_overcalled = True
                if bid == MISER and not self._high_hold:
                    self._miser_pos = pos
                self._high = bid
            self._high_pos = pos
            self._calls[pos] = self._calls[pos] + 1   # (not ``+=``: a generic add when compiled)
        active = self._left
        if active == 0 or (active == 1 and self._high_pos >= 0 and not self._passed[self._high_pos]) or self._take:
            self._done = True
            if active == 0:
                self._high_pos = -1
            return
        self._turn = self._next_position(pos, self._passed)

    def verify_paper_contract(self, contract: int) -> None:
        """A paper contract without its auction was still won with a bid at or above the anti-raspasy minimum
        (miser is above every minimum, as in the auction)."""
        if contract != MISER and contract < self._min_open():
            raise IllegalAction(Code.BELOW_MIN_LEVEL, f"contract {format_ru_bid(contract)} is below the opening "
                                f"minimum of {self.min_level} (anti-raspasy rule after a raspasy series)")

    def verify_contract(self, contract: int) -> None:
        if not is_ru_bid(contract):
            raise IllegalAction(Code.BAD_CONTRACT, f"contract code {contract} is not on the Russian ladder")
        final = self._high
        if self._take:
            if not is_trick_contract(contract) or contract < self._min_open():
                raise IllegalAction(Code.CONTRACT_BELOW_BID, "after taking the talon without a bid the third hand "
                                    f"must order a trick game from {format_ru_bid(self._min_open())} (no miser)")
            return
        if final == MISER:
            if contract != MISER:
                raise IllegalAction(Code.CONTRACT_MUST_BE_MISER, f"the auction was won with miser; "
                                    f"{format_ru_bid(contract)} may not be declared instead")
            return
        if contract == MISER:
            raise IllegalAction(Code.MISER_NOT_BID, "miser may only be declared by a player who bid it as his first "
                                f"call (the winning bid was {format_ru_bid(final)})")
        if contract < final:
            raise IllegalAction(Code.CONTRACT_BELOW_BID, f"{format_ru_bid(contract)} is below the winning bid "
                                f"{format_ru_bid(final)}")
