"""The Croatian / Slovenian auction ("торговля", seeds 000 and 002; docs/rules.md §A5).

Calls and their codes (``BidMade.bid``):

* ``PASS`` 0 — final, no re-entry.
* numbers 2–7 (2 ♠, 3 ♦, 4 ♥, 5 ♣, 6 Bettel, 7 Sanac) — a bid *with* the talon. The first number
  is 2 (there is no "1"); each number must be the next one, no jumps (``allow_jump_bids``).
* a number *equal* to the current one is a hold ("здесь" / "moje" / "i ja"): allowed per the
  ``hold_*`` options (Croatian preset: any bidder whose number was overcalled). The opponent whose
  number was held must raise or pass; he may not hold back.
* ``IGRA`` 8 — "igra", a hand game (no talon) with the contract not yet named. Only as a
  player's *first* call; beats every number; after it nobody may bid a number and every player
  who has bid a number is out (he makes no further call — seed 000 example 4 shows "-").
* ``IGRA_BETTEL`` 16 / ``IGRA_SANAC`` 17 — Bettel / Sanac from hand, named at once ("объявляются
  сразу"). They are igra calls whose contract is already named (code = 10 + contract), first
  call only, like igra.

When the first round is over (everyone has made one call) and two or more players called igra,
the contenders name their hand contracts ("naming") in bidding order, one turn each, as further
``BidMade`` events with a contract number 2–7 or ``PASS`` (withdraw without revealing).
Contenders who called 16/17 have named already and get no turn. A name must beat the best name
so far: higher, or equal and made by an earlier hand (seniority). A plain-igra contender may name
only a suit (2–5): Bettel and Sanac from hand had to be named at once. The contest ends after one
turn each, or as soon as a single contender is left.

Contracts the winner may declare (:meth:`CroatianAuction.verify_contract`):

* with the talon: any contract 2–7 not below the final number (he may raise, incl. to Bettel);
* hand game with a named contract (naming, 16, 17): exactly that contract (seed 000 ex. 4:
  "может заказать козырем только трефы"; ex. 6/7);
* hand game won by a plain igra nobody contested: any contract 2–7 (seed 000 ex. 5).

``final_bid`` is the talon number, the named hand contract (2–7), or ``IGRA`` for an uncontested
plain igra; ``hand_game`` says whether the talon is skipped. ``min_level`` is accepted for the
protocol and ignored (Croatian scoring has no anti-raspasy minimum).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ...model.bidcodes import IGRA
from ...model.bidcodes import IGRA_BETTEL
from ...model.bidcodes import IGRA_SANAC
from ...model.bidcodes import PASS
from ...model.bids import HOLD_WORDS
from ...model.bids import BidError
from ...model.bids import call_words
from ...model.bids import format_hr_bid
from ...model.bids import parse_hr_bid
from ...model.outcome import NO_SEAT
from ...rules.config import Rules
from ...rules.settings import croatian_settings
from ..auction import AuctionBase
from ..codes import Code
from ..findings import IllegalAction

HR_NUMBERS = (2, 3, 4, 5, 6, 7)
HR_SUITS = (2, 3, 4, 5)
_IGRA_CALLS: Final = (IGRA, IGRA_BETTEL, IGRA_SANAC)
_CANDIDATES: Final = (PASS, *HR_NUMBERS, *_IGRA_CALLS)

_BIDDING: Final = 0
_NAMING: Final = 1
_DONE: Final = 2

def parse_hr_call(text: str, current: int = 0) -> int:
    """Read a Croatian auction call: :func:`parse_hr_bid` (pass, 2–7, igra, bettel, sanac, hand Bettel /
    Sanac), or a hold word of :data:`~preflog.model.bids.HOLD_WORDS` (``здесь``, ``moje``, ``i ja`` →
    ``current``, the number being held) — the record reader's words, from the same tables."""
    if call_words(text) in HOLD_WORDS:
        if not 2 <= current <= 7:
            raise BidError(f"{text!r} holds the current number, but there is none to hold")
        return current
    return parse_hr_bid(text)


class CroatianAuction(AuctionBase):
    """The Croatian auction (see the module doc)."""

    CANDIDATES = _CANDIDATES
    __slots__ = ("_spoken", "_out", "_numbered", "_high", "_high_pos", "_high_hold", "_igra", "_named", "_queue",
                 "_phase", "_winner_pos")

    def __init__(self, rules: Rules, order: Sequence[int], min_level: int = 0) -> None:
        self._hold = croatian_settings(rules)   # (the auction's rules for its life)
        self._spoken: list[bool] = []
        self._out: list[bool] = []
        self._numbered: list[bool] = []
        self._igra: list[int] = []
        self._named: dict[int, int] = {}
        self._queue: list[int] = []
        super().__init__(rules, order, min_level)  # (no Croatian minimum exists)

    def restart(self, order: Sequence[int], min_level: int = 0) -> None:
        super().restart(order, min_level)
        n = self._n
        spoken, out, numbered = self._spoken, self._out, self._numbered
        if len(spoken) == n:   # the last auction's lists (same table), refilled in place
            for i in range(n):
                spoken[i] = out[i] = numbered[i] = False
        else:
            self._spoken = [False] * n       # has made his first call
            self._out = [False] * n          # passed, or knocked out by igra over his number
            self._numbered = [False] * n     # has bid (or held) a number
        self._high = PASS                    # current number
        self._high_pos = -1
        self._high_hold = False              # the current number is held, not freshly bid
        self._igra.clear()                   # positions that called igra / 16 / 17, in call order
        self._named.clear()                  # position -> named hand contract (2..7)
        self._queue.clear()                  # naming turns still to come
        self._phase = _BIDDING
        self._winner_pos = -1

    # -- state ---------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._phase == _DONE

    @property
    def winner(self) -> int:
        return self.order[self._winner_pos] if self.done and self._winner_pos >= 0 else NO_SEAT

    @property
    def hand_game(self) -> bool:
        return self.done and self._winner_pos >= 0 and self._winner_pos in self._igra

    @property
    def named_contract(self) -> int:
        """The hand contract fixed in the auction (naming, 16, 17); 0 if none (talon or free igra)."""
        return self._named.get(self._winner_pos, 0) if self.hand_game else 0

    @property
    def final_bid(self) -> int:
        if not self.done or self._winner_pos < 0:
            return PASS
        if self.hand_game:
            return self._named.get(self._winner_pos, IGRA)
        return self._high

    @property
    def high_bid(self) -> int:
        """The current number (PASS before the first number)."""
        return self._high

    @property
    def naming(self) -> bool:
        """Whether the igra contenders are naming their contracts."""
        return self._phase == _NAMING

    def allowed_contracts(self) -> tuple[int, ...]:
        """The contracts the winner may declare (empty before the end or after an all-pass)."""
        return tuple(c for c in HR_NUMBERS if self._contract_error(c) is None)

    # -- checks --------------------------------------------------------
    def verify_bid(self, seat: int, bid: int) -> None:
        if bid not in _CANDIDATES:
            raise IllegalAction(Code.BAD_BID, f"call code {bid} is not a Croatian call (pass 0, numbers 2-7, igra 8, "
                                "Bettel from hand 16, Sanac from hand 17)")
        name = format_hr_bid(bid)
        if self._phase == _DONE:
            raise IllegalAction(Code.AUCTION_OVER, f"{self.who(seat)} calls {name} after the auction has ended")
        pos = self._position(seat)
        if self._out[pos]:
            why = "has passed" if not self._numbered[pos] or not self._igra else "bid a number that igra overcalled"
            raise IllegalAction(Code.BID_AFTER_PASS, f"{self.who(seat)} {why} and may not call again")
        self._out_of_turn(seat, pos, "calls")
        if bid == PASS:
            return
        if self._phase == _NAMING:
            self._verify_name(seat, pos, bid)
            return
        if bid in _IGRA_CALLS:
            if self._spoken[pos]:
                code = Code.IGRA_AFTER_NUMBER if bid == IGRA else Code.HAND_CONTRACT_NOT_FIRST_CALL
                raise IllegalAction(code, f"{self.who(seat)} has already bid; {name} is only allowed as a player's "
                                    "first call")
            return
        if self._igra:
            raise IllegalAction(Code.NUMBER_AFTER_IGRA, f"{name} after igra by {self.who(self.order[self._igra[0]])}: "
                                "only another igra beats igra")
        if bid == self._high:
            self._verify_hold(seat, pos, bid)
            return
        if bid < self._high:
            raise IllegalAction(Code.BID_NOT_ABOVE_LAST, f"{name} is below the current number {self._high}")
        step = max(self._high + 1, 2)
        if bid != step and not self._hold.allow_jump_bids:
            raise IllegalAction(Code.JUMP_BID, f"{name} skips numbers; the next number is {step} (no jumps)")

    def _call_text(self, bid: int) -> str:
        return str(bid)

    def _family_hold_refusal(self, seat: int, pos: int, bid: int, text: str) -> str:
        if not self._numbered[pos]:
            return f"only a player whose number was overcalled may hold; the next number is {self._high + 1}"
        if self._high_hold:
            return f"{text} is already held; {self.who(self.order[self._high_pos])}'s opponent must raise or pass"
        return self._hold_refusal(seat, pos, self._high_pos, self._out)

    def _best_name(self) -> tuple[int, int]:
        """(contract, position) of the best name so far among contenders still in; (0, n) if none."""
        best = (0, self._n)
        for p, c in self._named.items():
            if not self._out[p] and (c > best[0] or (c == best[0] and p < best[1])):
                best = (c, p)
        return best

    def _verify_name(self, seat: int, pos: int, bid: int) -> None:
        if bid in _IGRA_CALLS:
            raise IllegalAction(Code.IGRA_IN_NAMING, f"{self.who(seat)} must name a hand contract (2-7) or pass, not "
                                f"{format_hr_bid(bid)}")
        if bid not in HR_SUITS:
            raise IllegalAction(Code.HAND_BETTEL_NOT_AT_ONCE, f"{self.who(seat)} called a plain igra and may name "
                                "only a "
                                "suit 2-5; Bettel and Sanac from hand are named at once (16/17)")
        c, p = self._best_name()
        if c and not (bid > c or (bid == c and pos < p)):
            raise IllegalAction(Code.NAME_NOT_ABOVE, f"{bid} does not beat {c} named by {self.who(self.order[p])} "
                                "(name higher or pass; equal names go to the earlier hand)")

    # -- the action ----------------------------------------------------
    def bid(self, seat: int, bid: int) -> None:
        self.verify_bid(seat, bid)
        pos = self._turn
        self._record(seat, bid)
        if self._phase == _NAMING:
            self._apply_name(pos, bid)
            return
        self._spoken[pos] = True
        if bid == PASS:
            self._out[pos] = True
        elif bid in _IGRA_CALLS:
            self._igra.append(pos)
            if bid != IGRA:
                self._named[pos] = bid - 10
            for i in range(self._n):  # number bidders are overcalled for good
                if self._numbered[i]:
                    self._out[i] = True
        else:
            self._high_hold = bid == self._high
            self._high, self._high_pos = bid, pos
            self._numbered[pos] = True
        self._advance_bidding(pos)

    def _advance_bidding(self, pos: int) -> None:
        if self._igra:
            nxt = self._next_position(pos, self._spoken)
            if nxt >= 0:
                self._turn = nxt
                return
            contenders = [p for p in self._igra if not self._out[p]]
            self._queue = [p for p in contenders if p not in self._named]
            if len(contenders) == 1 or not self._queue:
                self._finish(contenders)
            else:
                self._phase = _NAMING
                self._turn = self._queue[0]
            return
        active = [i for i in range(self._n) if not self._out[i]]
        if all(self._spoken) and len(active) <= 1:
            self._phase = _DONE
            self._winner_pos = active[0] if active else -1
            return
        self._turn = self._next_position(pos, self._out)

    def _apply_name(self, pos: int, bid: int) -> None:
        if bid == PASS:
            self._out[pos] = True
        else:
            self._named[pos] = bid
        self._queue.pop(0)
        contenders = [p for p in self._igra if not self._out[p]]
        if len(contenders) == 1 or not self._queue:
            self._finish(contenders)
        else:
            self._turn = self._queue[0]

    def _finish(self, contenders: list[int]) -> None:
        self._phase = _DONE
        if len(contenders) == 1:
            self._winner_pos = contenders[0]
        else:
            self._winner_pos = self._best_name()[1]

    # -- the contract --------------------------------------------------
    def _contract_error(self, contract: int) -> IllegalAction | None:
        if self._phase != _DONE:
            return IllegalAction(Code.AUCTION_NOT_FINISHED, "a contract is declared before the auction has ended")
        if self._winner_pos < 0:
            return IllegalAction(Code.NO_DECLARER, "everybody passed: no contract (refe)")
        if contract not in HR_NUMBERS:
            return IllegalAction(Code.BAD_CONTRACT, f"contract code {contract} is not a Croatian contract (2-7)")
        if self.hand_game:
            named = self._named.get(self._winner_pos, 0)
            if named and contract != named:
                return IllegalAction(Code.HAND_CONTRACT_CHANGED, f"the hand game was named as {format_hr_bid(named)} "
                                     f"in the auction; {format_hr_bid(contract)} may not be declared instead")
            return None
        if contract < self._high:
            return IllegalAction(Code.CONTRACT_BELOW_BID, f"{format_hr_bid(contract)} is below the winning number "
                                 f"{self._high}")
        return None

    def verify_contract(self, contract: int) -> None:
        err = self._contract_error(contract)
        if err is not None:
            raise err
