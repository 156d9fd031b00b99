"""The auction ("торговля") protocol, the family registry and the Russian auction.

Russian ladder (26 steps, :data:`preflog.model.bids.RU_LADDER`): bids go up one step
at a time (no jumps unless ``allow_jump_bids``), a pass is final, miser
("мизер кабальный") only as a player's first call and beaten only from
``miser_beaten_by_level``. A bid *equal* to the current one is a hold ("здесь" /
"мои"): allowed per the ``hold_*`` options (default: the senior bidder — earlier in
bidding order from first hand — once the third player has passed, never on miser).
All pass → raspasy. Spec: seed 001 (торговля, мизер кабальный) and RULES.md A5.

Each action has ``verify_bid`` (raises :class:`IllegalAction`), ``can_bid`` and
``bid`` (verifies, then applies), so replay and live play share the same checks.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from ..model.bids import MISER, PASS, RU_LADDER, TAKE_TALON, format_ru_bid, is_trick_contract, parse_ru_bid
from ..model.outcome import NO_SEAT
from ..rules.config import Rules
from .findings import IllegalAction

# --- finding codes (auction) ---
BAD_BID = "bad_bid"
"""The bid code is not on the ladder (nor pass / take-talon)."""
AUCTION_OVER = "auction_over"
"""A bid after the auction has ended."""
SEAT_NOT_IN_AUCTION = "seat_not_in_auction"
"""A bid by a seat that does not take part (e.g. the sitting-out dealer at four)."""
BID_OUT_OF_TURN = "bid_out_of_turn"
"""A bid by a player whose turn it is not."""
BID_AFTER_PASS = "bid_after_pass"
"""A bid by a player who has already passed (a pass is final)."""
BID_NOT_ABOVE_LAST = "bid_not_above_last"
"""A bid below the current one (an insufficient bid)."""
JUMP_BID = "jump_bid"
"""A bid that skips a ladder step while jumps are not allowed."""
BELOW_MIN_LEVEL = "below_min_level"
"""An opening below the anti-raspasy minimum level passed in by the pulka."""
MISER_NOT_FIRST_CALL = "miser_not_first_call"
"""Miser by a player who has already bid ("мизер кабальный")."""
MISER_NOT_BEATEN = "miser_not_beaten"
"""A bid over miser below ``miser_beaten_by_level``."""
MISER_BIDDER_MUST_PASS = "miser_bidder_must_pass"
"""The overcalled miser bidder bids again (``miser_bidder_may_continue`` is off)."""
HOLD_NOT_ALLOWED = "hold_not_allowed"
"""A hold ("здесь") that the hold_* options do not allow."""
TAKE_TALON_NOT_ALLOWED = "take_talon_not_allowed"
"""Take-talon outside ``third_hand_mode=take_talon_no_miser`` or not by the third hand after two passes."""
MISER_BY_THIRD_HAND = "miser_by_third_hand"
"""Miser by a third hand who may take the talon without a bid (then only trick games)."""
CONTRACT_BELOW_BID = "contract_below_bid"
"""The declared contract is below the winning bid."""
CONTRACT_MUST_BE_MISER = "contract_must_be_miser"
"""The auction was won with miser but another contract was declared."""
MISER_NOT_BID = "miser_not_bid"
"""Miser declared by a player who did not win the auction with miser."""
BAD_CONTRACT = "bad_contract"
"""A contract code that is not on the ladder."""


class Auction(Protocol):
    """Bidding of one deal ("торговля"). ``order`` = seats in bidding order, first hand first."""

    def __init__(self, rules: Rules, order: tuple[int, ...], min_level: int = 0) -> None: ...
    def verify_bid(self, seat: int, bid: int) -> None: ...
    def can_bid(self, seat: int, bid: int) -> bool: ...
    def bid(self, seat: int, bid: int) -> None: ...
    def legal_bids(self, seat: int) -> list[int]: ...
    @property
    def done(self) -> bool: ...
    @property
    def to_move(self) -> int: ...
    @property
    def winner(self) -> int: ...
    @property
    def final_bid(self) -> int: ...
    @property
    def hand_game(self) -> bool: ...
    def verify_contract(self, contract: int) -> None: ...


AUCTIONS: dict[str, type] = {}
_MODULES = {"russian": "auction", "croatian": "auction_hr"}


def make_auction(rules: Rules, order: tuple[int, ...], min_level: int = 0) -> Auction:
    """The auction for ``rules.family`` (the family module registers itself on import)."""
    if rules.family not in AUCTIONS:
        mod = _MODULES.get(rules.family, f"auction_{rules.family}")
        try:
            importlib.import_module(f"{__package__}.{mod}")
        except ImportError:
            pass
    cls = AUCTIONS.get(rules.family)
    if cls is None:
        raise ValueError(f"no auction for rules family {rules.family!r}")
    return cls(rules, order, min_level)  # type: ignore[no-any-return]


_LADDER_INDEX = {b: i for i, b in enumerate(RU_LADDER)}
_TRICK_BIDS = tuple(b for b in RU_LADDER if b != MISER)
_CANDIDATES = (PASS, TAKE_TALON) + RU_LADDER


def _forbidden_holds(rules: Rules) -> frozenset[int]:
    names = rules.hold_forbidden_on
    try:
        out = _FORBIDDEN.get(names)
    except TypeError:  # an unhashable option value: parse it every time
        out, names = None, None
    if out is None:   # parsed once per distinct option value, not once per deal
        out = frozenset(MISER if str(name).lower() in ("miser", "мизер") else parse_ru_bid(str(name))
                        for name in rules.hold_forbidden_on)
        if names is not None:
            _FORBIDDEN[names] = out
    return out


_FORBIDDEN: dict[tuple[str, ...], frozenset[int]] = {}


class RussianAuction:
    """The Russian auction on the 26-step ladder (see the module doc)."""

    __slots__ = ("rules", "order", "min_level", "_n", "_passed", "_calls", "_high", "_high_pos", "_high_hold",
                 "_turn", "_done", "_miser_pos", "_miser_overcalled", "_forbidden", "_take", "history", "_left")

    def __init__(self, rules: Rules, order: tuple[int, ...], min_level: int = 0) -> None:
        self.rules = rules
        self.order = tuple(order)
        self.min_level = max(6, min_level) if min_level else 6
        self._n = len(self.order)
        self._passed = [False] * self._n
        self._left = self._n                 # bidders who have not passed
        self._calls = [0] * self._n          # number of non-pass calls per position
        self._high = PASS
        self._high_pos = -1
        self._high_hold = False              # current high bid was reached by a hold
        self._turn = 0                       # position (index into order) to move
        self._done = False
        self._miser_pos = -1
        self._miser_overcalled = False
        self._forbidden = _forbidden_holds(rules)
        self._take = False
        self.history: list[tuple[int, int]] = []

    # -- state ---------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._done

    @property
    def to_move(self) -> int:
        return NO_SEAT if self._done else self.order[self._turn]

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
    def hand_game(self) -> bool:
        return False

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
            return self.rules.miser_beaten_by_level * 10 + 1
        i = _LADDER_INDEX[self._high] + 1
        while i < len(RU_LADDER) and RU_LADDER[i] == MISER:
            i += 1
        return RU_LADDER[i] if i < len(RU_LADDER) else 0

    def _third_hand_free(self, pos: int) -> bool:
        return (self.rules.third_hand_mode == "take_talon_no_miser" and self._high == PASS
                and pos == self._n - 1 and all(self._passed[:pos]))

    # -- the action ----------------------------------------------------
    def verify_bid(self, seat: int, bid: int) -> None:
        if not self._done and seat == self.order[self._turn]:
            # the seat to move (never one who passed): only the bid itself needs checking
            if bid == PASS:
                return
            if bid != TAKE_TALON and bid not in _LADDER_INDEX:
                raise IllegalAction(BAD_BID, f"bid code {bid} is not on the Russian ladder (6s..10NT, miser, pass)")
            pos = self._turn
        else:
            pos = self._verify_seat(seat, bid)
            if bid == PASS:
                return
        rules = self.rules
        if bid == TAKE_TALON:
            if not self._third_hand_free(pos):
                raise IllegalAction(TAKE_TALON_NOT_ALLOWED, "only the third hand after two passes may take the "
                                    "talon without a bid (third_hand_mode=take_talon_no_miser)")
            return
        if pos == self._miser_pos and self._miser_overcalled and not rules.miser_bidder_may_continue:
            raise IllegalAction(MISER_BIDDER_MUST_PASS, f"seat {seat} bid miser and was overcalled; he may only "
                                "pass (miser_bidder_may_continue is off)")
        if bid == MISER:
            if self._third_hand_free(pos):
                raise IllegalAction(MISER_BY_THIRD_HAND, "the third hand after two passes may take the talon but "
                                    "not bid miser (third_hand_mode=take_talon_no_miser)")
            if rules.miser_first_call_only and self._calls[pos]:
                raise IllegalAction(MISER_NOT_FIRST_CALL, f"seat {seat} has already bid; miser is only allowed "
                                    "as a player's first call (мизер кабальный)")
            if self._high == MISER:
                self._verify_hold(seat, pos, bid)
                return
            if self._high > MISER:
                raise IllegalAction(BID_NOT_ABOVE_LAST, f"miser is below the current bid "
                                    f"{format_ru_bid(self._high)}")
            return
        if bid < self._min_open():
            raise IllegalAction(BELOW_MIN_LEVEL, f"{format_ru_bid(bid)} is below the opening minimum of "
                                f"{self.min_level} (anti-raspasy rule after a raspasy series)")
        if bid == self._high:
            self._verify_hold(seat, pos, bid)
            return
        if bid < self._high:
            raise IllegalAction(BID_NOT_ABOVE_LAST, f"{format_ru_bid(bid)} is below the current bid "
                                f"{format_ru_bid(self._high)}")
        if self._high == MISER and bid // 10 < rules.miser_beaten_by_level:
            raise IllegalAction(MISER_NOT_BEATEN, f"{format_ru_bid(bid)} does not beat miser; it takes a "
                                f"{rules.miser_beaten_by_level}-level bid (miser_beaten_by_level)")
        if not rules.allow_jump_bids:
            step = self._next_trick_step()
            if bid != step:
                raise IllegalAction(JUMP_BID, f"{format_ru_bid(bid)} skips ladder steps; the next step is "
                                    f"{format_ru_bid(step)} (no jumps)")

    def _verify_seat(self, seat: int, bid: int) -> int:
        """The checks on who bids, in the order they are reported; the seat's position in ``order``."""
        if bid != PASS and bid != TAKE_TALON and bid not in _LADDER_INDEX:
            raise IllegalAction(BAD_BID, f"bid code {bid} is not on the Russian ladder (6s..10NT, miser, pass)")
        if self._done:
            raise IllegalAction(AUCTION_OVER, f"seat {seat} bids {format_ru_bid(bid)} after the auction has ended")
        try:
            pos = self.order.index(seat)
        except ValueError:
            raise IllegalAction(SEAT_NOT_IN_AUCTION, f"seat {seat} takes no part in this auction "
                                f"(bidders {list(self.order)})") from None
        if self._passed[pos]:
            raise IllegalAction(BID_AFTER_PASS, f"seat {seat} has passed and may not bid again (a pass is final)")
        if pos != self._turn:
            raise IllegalAction(BID_OUT_OF_TURN, f"seat {seat} bids out of turn; seat {self.order[self._turn]} "
                                "is to bid")
        return pos

    def _verify_hold(self, seat: int, pos: int, bid: int) -> None:
        rules = self.rules
        name = format_ru_bid(bid)
        why = ""
        if not rules.hold_enabled:
            why = "holds are off (hold_enabled)"
        elif bid in self._forbidden:
            why = f"{name} may never be held (hold_forbidden_on)"
        elif self._high_hold:
            why = f"{name} is already held; it must be raised or passed"
        elif not self._calls[pos]:
            why = "only a player who has bid may hold"
        elif rules.hold_who == "senior" and pos > self._high_pos:
            why = f"seat {seat} is junior to seat {self.order[self._high_pos]} (only the senior bidder may hold)"
        elif rules.hold_who == "first_hand" and pos != 0:
            why = "only first hand may hold"
        elif rules.hold_requires_intermediate_pass and not all(
                self._passed[i] for i in range(self._n) if i != pos and i != self._high_pos):
            why = "the player between the two bidders has not passed"
        if why:
            raise IllegalAction(HOLD_NOT_ALLOWED, f"seat {seat} may not hold {name}: {why}")

    def can_bid(self, seat: int, bid: int) -> bool:
        try:
            self.verify_bid(seat, bid)
        except IllegalAction:
            return False
        return True

    def bid(self, seat: int, bid: int) -> None:
        if bid != PASS or self._done or seat != self.order[self._turn]:
            self.verify_bid(seat, bid)  # (a pass by the seat to move is always legal: verify_bid's first case)
        pos = self._turn
        self.history.append((seat, bid))
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
            self._calls[pos] += 1
        active = self._left
        if active == 0 or (active == 1 and self._high_pos >= 0 and not self._passed[self._high_pos]) or self._take:
            self._done = True
            if active == 0:
                self._high_pos = -1
            return
        nxt = (pos + 1) % self._n
        while self._passed[nxt]:
            nxt = (nxt + 1) % self._n
        self._turn = nxt

    def legal_bids(self, seat: int) -> list[int]:
        return [b for b in _CANDIDATES if self.can_bid(seat, b)]

    def verify_contract(self, contract: int) -> None:
        if contract not in _LADDER_INDEX:
            raise IllegalAction(BAD_CONTRACT, f"contract code {contract} is not on the Russian ladder")
        final = self._high
        if self._take:
            if not is_trick_contract(contract) or contract < self._min_open():
                raise IllegalAction(CONTRACT_BELOW_BID, f"after taking the talon without a bid the third hand must "
                                    f"order a trick game from {format_ru_bid(self._min_open())} (no miser)")
            return
        if final == MISER:
            if contract != MISER:
                raise IllegalAction(CONTRACT_MUST_BE_MISER, f"the auction was won with miser; "
                                    f"{format_ru_bid(contract)} may not be declared instead")
            return
        if contract == MISER:
            raise IllegalAction(MISER_NOT_BID, "miser may only be declared by a player who bid it as his first "
                                f"call (the winning bid was {format_ru_bid(final)})")
        if contract < final:
            raise IllegalAction(CONTRACT_BELOW_BID, f"{format_ru_bid(contract)} is below the winning bid "
                                f"{format_ru_bid(final)}")


AUCTIONS["russian"] = RussianAuction
