"""The Croatian defence phase between the contract and the first lead, and who leads and when play stops.

Whist calls, the invitation and the contra chain (seed 000; the digest's A8 and C3), the first lead
(A10, D22) and the stop at the defenders' fifth trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from typing import Self

from ...model.bidcodes import HR_BETTEL
from ...model.bidcodes import HR_SANAC
from ...model.calls import CALL_INVITE
from ...model.calls import CALL_PASS
from ...model.calls import CALL_WHIST
from ...model.copying import copy_fields
from ...model.outcome import KIND_CONCEDED as _CONCEDED
from ...model.outcome import KIND_GAME as _GAME
from ...model.outcome import KIND_NOT_WHISTED as _NOT_WHISTED
from ...model.outcome import NO_SEAT
from ...rules.config import Rules
from ...rules.settings import FIRST_LEAD_LEFT_WHISTER
from ...rules.settings import SANAC_NOT_DECLARER
from ...rules.settings import SANAC_RIGHT_OF_DECLARER
from ...rules.settings import CroatianSettings
from ...rules.settings import croatian_settings
from ..codes import Code
from ..findings import IllegalAction
from ..findings import seat_name


class CroatianDefence:
    """The defenders' phase between the contract and the first lead, for the deal engine.

    Events (``WhistCalled`` / ``ContraCalled`` of :mod:`preflog.model.events`):

    1. whist calls, left of the declarer first: ``CALL_WHIST`` or ``CALL_PASS`` each (Bettel: whist
       only). The second defender may answer a pass with ``CALL_INVITE`` (= whist and invite).
    2. a lone whister whose partner passed may then call ``CALL_INVITE`` once (optional).
    3. contra chain (optional, any time before the first card): a whister with an even step count
       (0: contra, 2: subcontra, …) may call; the declarer may call while some defender's count is
       odd (recontra, mortcontra, …) and that raises every odd chain by one. A lone whister's contra
       invites the passer automatically.

    The phase is open until the first card; :meth:`close` ends it. Then ``kind`` is ``_NOT_WHISTED``
    (nobody whisted), ``_CONCEDED`` (2♠ rule: ``needs_contra`` and no contra; Slovenian scoring turns it
    into "nobody scores") or ``_GAME``; ``calls``, ``contra`` and ``invited`` go into the DealOutcome and
    ``out_seat`` is the uninvited passer whose cards take no part in play.
    """

    __slots__ = ("rules", "declarer", "defenders", "contract", "needs_contra", "n", "_calls", "_contra",
                 "_invited", "_closed", "_spoke", "names")

    def __init__(self, rules: Rules, declarer: int, defenders: tuple[int, int], contract: int,
                 needs_contra: bool = False, n_players: int = 3, names: Sequence[str] | None = None) -> None:
        self.names = names                  # the players' names, for findings
        self.rules = rules
        self.declarer = declarer
        self.defenders = defenders          # left of the declarer first
        self.contract = contract
        self.needs_contra = needs_contra    # from CroatianScorer.needs_contra (2♠ rule)
        self.n = n_players
        self._calls = [-1] * n_players
        self._contra = [0] * n_players
        self._invited = NO_SEAT
        self._closed = False
        self._spoke = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A copy to play on, like the deal's (the play analysis replays a deal on copies)."""
        new = type(self)(self.rules, self.declarer, self.defenders, self.contract, self.needs_contra, self.n,
                         self.names)
        copy_fields(self, new, memo)
        return new

    def who(self, seat: int) -> str:
        """A seat as findings name it."""
        return seat_name(self.names, seat)

    @property
    def calls(self) -> tuple[int, ...]:
        return tuple(self._calls)

    @property
    def contra(self) -> tuple[int, ...]:
        return tuple(self._contra)

    @property
    def invited(self) -> int:
        return self._invited

    @property
    def whisters(self) -> tuple[int, ...]:
        return tuple(d for d in self.defenders if self._calls[d] in (CALL_WHIST, CALL_INVITE))

    @property
    def calls_done(self) -> bool:
        return self._spoke >= 2

    @property
    def out_seat(self) -> int:
        """The passer who was not invited (cards face down, skipped in play); NO_SEAT if none."""
        if not self.calls_done or len(self.whisters) != 1 or self._invited != NO_SEAT:
            return NO_SEAT
        return next(d for d in self.defenders if d not in self.whisters)

    @property
    def kind(self) -> str:
        if not self.whisters:
            return _NOT_WHISTED
        if self.needs_contra and not any(self._contra):
            return _CONCEDED
        return _GAME

    def close(self) -> str:
        """End the phase (first card, or no play); returns :attr:`kind`."""
        if not self.calls_done:
            raise IllegalAction(Code.DEFENCE_OVER, "play starts before both defenders have called whist or pass")
        self._closed = True
        return self.kind

    def verify_whist(self, seat: int, call: int) -> None:
        if self._closed:
            raise IllegalAction(Code.DEFENCE_OVER, f"{self.who(seat)} calls after the defence phase has ended")
        if call not in (CALL_WHIST, CALL_PASS, CALL_INVITE):
            raise IllegalAction(Code.BAD_WHIST_CALL, f"call {call} is not whist, pass or invite")
        if not self.calls_done:
            if seat != self.defenders[self._spoke]:
                raise IllegalAction(Code.WHIST_OUT_OF_TURN, f"{self.who(seat)} calls out of turn; seat "
                                    f"{self.defenders[self._spoke]} (left of the declarer first) is to call")
            if call == CALL_PASS and self.contract == HR_BETTEL:
                raise IllegalAction(Code.BETTEL_MUST_BE_PLAYED, "defenders may not pass Bettel")
            if call == CALL_INVITE and (self._spoke == 0 or self._calls[self.defenders[0]] != CALL_PASS):
                raise IllegalAction(Code.INVITE_NOT_ALLOWED, "only a lone whister may invite the passing defender")
            return
        if call != CALL_INVITE or self.whisters != (seat,) or self._invited != NO_SEAT:
            raise IllegalAction(Code.INVITE_NOT_ALLOWED, f"{self.who(seat)} may not call again: after the whist "
                                "round only "
                                "a lone whister may invite the passer, once")

    def whist(self, seat: int, call: int) -> None:
        self.verify_whist(seat, call)
        if not self.calls_done:
            self._calls[seat] = call
            self._spoke += 1
            if call == CALL_INVITE:
                self._invited = self.defenders[0]
            return
        self._calls[seat] = CALL_INVITE
        self._invited = next(d for d in self.defenders if d != seat)

    def verify_contra(self, seat: int) -> None:
        if self._closed:
            raise IllegalAction(Code.DEFENCE_OVER, f"{self.who(seat)} contras after the defence phase has ended")
        if not croatian_settings(self.rules).contra_enabled:
            raise IllegalAction(Code.CONTRA_DISABLED, "contra is off in these rules (contra_enabled)")
        if not self.calls_done or not self.whisters:
            raise IllegalAction(Code.CONTRA_NOT_ALLOWED, "contra comes after both whist calls, and only when someone "
                                "whisted")
        limit = croatian_settings(self.rules).contra_max
        if seat == self.declarer:
            if not any(c % 2 for c in self._contra):
                raise IllegalAction(Code.CONTRA_NOT_ALLOWED, "the declarer may only answer a contra (recontra, …)")
            if limit and any(c % 2 and c + 1 > limit for c in self._contra):
                raise IllegalAction(Code.CONTRA_NOT_ALLOWED, f"the contra chain ends at {limit} steps (contra_max)")
            return
        if seat not in self.whisters:
            raise IllegalAction(Code.CONTRA_NOT_ALLOWED, f"{self.who(seat)} did not whist (or was invited) and may not "
                                "contra")
        if self._contra[seat] % 2:
            raise IllegalAction(Code.CONTRA_NOT_ALLOWED, f"{self.who(seat)} has doubled last; the declarer is to "
                                "answer")
        if limit and self._contra[seat] + 1 > limit:
            raise IllegalAction(Code.CONTRA_NOT_ALLOWED, f"the contra chain ends at {limit} steps (contra_max)")

    def call_contra(self, seat: int) -> None:
        self.verify_contra(seat)
        if seat == self.declarer:
            for d in self.defenders:
                if self._contra[d] % 2:
                    self._contra[d] = self._contra[d] + 1
            return
        self._contra[seat] = self._contra[seat] + 1   # (not ``+=``: a generic add when compiled)
        if self._invited == NO_SEAT and len(self.whisters) == 1:
            self._invited = next(d for d in self.defenders if d != seat)  # contra = automatic invitation


def first_leader(settings: CroatianSettings, dealer: int, declarer: int, contract: int, out_seat: int = NO_SEAT,
                 n_players: int = 3) -> int:
    """Who leads to the first trick (docs/rules.md §A10, §D), per ``first_lead`` / ``bettel_lead`` / ``sanac_lead``.

    Seats go clockwise to ``seat + 1``; the player on someone's right is ``seat − 1``. A seat that is out
    (the uninvited passer) never leads: the lead passes clockwise.
    """
    n = n_players

    def skip_out(seat: int) -> int:
        while seat == out_seat:
            seat = (seat + 1) % n
        return seat

    right = (declarer - 1) % n
    if contract == HR_BETTEL and settings.bettel_lead_right:
        return skip_out(right)
    if contract == HR_SANAC and settings.sanac_lead == SANAC_RIGHT_OF_DECLARER:
        return skip_out(right)
    if settings.first_lead == FIRST_LEAD_LEFT_WHISTER:
        leader = skip_out((declarer + 1) % n)
    else:  # eldest, eldest_skip_out: first hand, or the next clockwise when he is out (Fundak)
        leader = skip_out((dealer + 1) % n)
    if contract == HR_SANAC and settings.sanac_lead == SANAC_NOT_DECLARER and leader == declarer:
        leader = skip_out((leader + 1) % n)
    return leader


def stop_caps(settings: CroatianSettings, contract: int) -> tuple[int, int]:
    """(declarer's tricks, defenders' tricks) at which play stops before 10 tricks; 11 = never.

    Trick contracts and Sanac stop at the defenders' ``defender_trick_cap``-th (5th) trick; Bettel under
    ``bettel_fail_mode=flat`` at the declarer's first trick (the result is fixed then)."""
    if contract == HR_BETTEL:
        return (11 if settings.bettel_per_trick else 1), 11
    return 11, settings.defender_trick_cap


def play_over(settings: CroatianSettings, contract: int, declarer_tricks: int, defender_tricks: int) -> bool:
    """Whether play stops now (:func:`stop_caps`, or after 10 tricks)."""
    decl_cap, side_cap = stop_caps(settings, contract)
    return declarer_tricks + defender_tricks >= 10 or declarer_tricks >= decl_cap or defender_tricks >= side_cap
