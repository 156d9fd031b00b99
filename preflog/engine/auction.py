"""The auction ("торговля") steps both families share: whose turn, who may hold, which bids are legal.

:class:`AuctionBase` is the base of :class:`~preflog.engine.russian.auction.RussianAuction` and
:class:`~preflog.engine.croatian.auction.CroatianAuction`; each family adds its own ladder of calls
(``CANDIDATES``), its checks (``verify_bid``) and the contract the winner may declare
(``verify_contract``). ``order`` is the seats in bidding order, first hand first.
"""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any
from typing import ClassVar
from typing import Self

from ..model.copying import copy_fields
from ..model.outcome import NO_SEAT
from ..rules.config import Rules
from ..rules.settings import HOLD_FIRST_HAND
from ..rules.settings import HOLD_SENIOR
from ..rules.settings import TableSettings
from .codes import Code
from .findings import IllegalAction
from .findings import seat_name


class AuctionBase(ABC):
    """Bidding of one deal; subclasses keep their own state and implement the family's checks."""

    CANDIDATES: ClassVar[tuple[int, ...]] = ()
    """Every call code of the family, in the order :meth:`legal_bids` lists them."""

    __slots__ = ("rules", "order", "min_level", "_n", "_turn", "_said", "names", "_hold", "_forbidden")
    _hold: TableSettings
    """The family's settings of the rules (rules/settings.py; set by the family before this __init__)."""
    _forbidden: frozenset[int]
    """The calls ``hold_forbidden_on`` names, as the family's codes."""

    def __init__(self, rules: Rules, order: Sequence[int], min_level: int = 0) -> None:
        self.rules = rules
        self._forbidden = self._hold.forbidden_holds()
        self.names: Sequence[str] | None = None          # the players' names, for findings (set by the deal)
        self._said: list[int] = []   # every call so far as seat, code, seat, code, … (flat: no tuple per call)
        self.restart(order, min_level)

    def restart(self, order: Sequence[int], min_level: int = 0) -> None:
        """Start over, for the next deal at the same table and rules: afterwards every field is what a new
        auction ``type(self)(self.rules, order, min_level)`` would hold (the names kept). Each family extends
        it with its own state."""
        self.order = tuple(order)
        self.min_level = min_level
        self._n = len(self.order)
        self._turn = 0                                  # position (index into order) to move
        self._said.clear()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        new = type(self)(self.rules, self.order, self.min_level)
        copy_fields(self, new, memo)
        return new

    # -- state ---------------------------------------------------------
    @property
    def history(self) -> list[tuple[int, int]]:
        """(seat, code) of every call so far, in order."""
        said = self._said
        return [(said[k], said[k + 1]) for k in range(0, len(said), 2)]

    @property
    def called(self) -> bool:
        """Whether anyone has called yet."""
        return bool(self._said)

    def _record(self, seat: int, code: int) -> None:
        self._said.append(seat)
        self._said.append(code)

    @property
    @abstractmethod
    def done(self) -> bool:
        """Whether the auction has ended."""

    @property
    def to_move(self) -> int:
        """The seat to call next (NO_SEAT once the auction is over)."""
        return NO_SEAT if self.done else self.order[self._turn]

    @property
    @abstractmethod
    def winner(self) -> int:
        """The seat that won the auction (NO_SEAT before the end or after an all-pass)."""

    @property
    @abstractmethod
    def final_bid(self) -> int:
        """The winning call (PASS before the end or after an all-pass)."""

    @property
    def hand_game(self) -> bool:
        """Whether the winner plays without the talon."""
        return False

    # -- checks --------------------------------------------------------
    @abstractmethod
    def verify_bid(self, seat: int, bid: int) -> None:
        """Raise :class:`IllegalAction` naming the rule if ``seat`` may not call ``bid`` now."""

    @abstractmethod
    def verify_contract(self, contract: int) -> None:
        """Raise :class:`IllegalAction` if the winner may not declare ``contract``."""

    def verify_paper_contract(self, contract: int) -> None:
        """Raise :class:`IllegalAction` if a paper deal may not declare ``contract`` without its auction: the
        checks of an opening bid that the written contract still shows (none by default)."""
        return None

    @abstractmethod
    def bid(self, seat: int, bid: int) -> None:
        """Check and apply one call."""

    def who(self, seat: int) -> str:
        """A seat as findings name it."""
        return seat_name(self.names, seat)

    def can_bid(self, seat: int, bid: int) -> bool:
        try:
            self.verify_bid(seat, bid)
        except IllegalAction:
            return False
        return True

    def legal_bids(self, seat: int) -> list[int]:
        return [b for b in self.CANDIDATES if self.can_bid(seat, b)]

    def _position(self, seat: int) -> int:
        """The seat's position in the bidding order (a seat outside it takes no part)."""
        try:
            return self.order.index(seat)
        except ValueError:
            raise IllegalAction(Code.SEAT_NOT_IN_AUCTION, f"{self.who(seat)} takes no part in this auction "
                                f"(bidders {list(self.order)})", seat=seat) from None

    def _out_of_turn(self, seat: int, pos: int, verb: str) -> None:
        if pos != self._turn:
            raise IllegalAction(Code.BID_OUT_OF_TURN, f"{self.who(seat)} {verb} out of turn; seat "
                                f"{self.order[self._turn]} is to {verb.rstrip('s')}", seat=seat)

    def _verify_hold(self, seat: int, pos: int, bid: int) -> None:
        """Raise ``HOLD_NOT_ALLOWED`` unless ``seat`` (at ``pos``) may hold ``bid``: the options first
        (``hold_enabled``, ``hold_forbidden_on`` as the family's codes), then the family's own conditions
        and who may hold (:meth:`_family_hold_refusal`)."""
        text = self._call_text(bid)
        if not self._hold.hold_enabled:
            why = "holds are off (hold_enabled)"
        elif bid in self._forbidden:
            why = f"{text} may never be held (hold_forbidden_on)"
        else:
            why = self._family_hold_refusal(seat, pos, bid, text)
        if why:
            raise IllegalAction(Code.HOLD_NOT_ALLOWED, f"{self.who(seat)} may not hold {text}: {why}")

    @abstractmethod
    def _call_text(self, bid: int) -> str:
        """A call as the family's findings write it."""

    @abstractmethod
    def _family_hold_refusal(self, seat: int, pos: int, bid: int, text: str) -> str:
        """Why the family's rules refuse this hold ("" if they don't); ends with :meth:`_hold_refusal`."""

    def _hold_refusal(self, seat: int, pos: int, high_pos: int, passed: Sequence[bool]) -> str:
        """Why the ``hold_who`` / ``hold_requires_intermediate_pass`` options forbid this hold ("" if they don't)."""
        s = self._hold
        if s.hold_who == HOLD_SENIOR and pos > high_pos:
            return f"{self.who(seat)} is junior to {self.who(self.order[high_pos])} (only the senior bidder may hold)"
        if s.hold_who == HOLD_FIRST_HAND and pos != 0:
            return "only first hand may hold"
        if s.hold_requires_intermediate_pass and not all(
                passed[i] for i in range(self._n) if i != pos and i != high_pos):
            return "the player between the two bidders has not passed"
        return ""

    def _next_position(self, pos: int, out: list[bool]) -> int:
        """The next position clockwise after ``pos`` that is not ``out`` (-1 if none; a list: indexed natively when
        compiled)."""
        for k in range(1, self._n + 1):
            i = (pos + k) % self._n
            if not out[i]:
                return i
        return -1
