"""The Croatian / Slovenian auction ("торговля", seeds 000 and 002; RULES.md A5).

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

from collections.abc import Callable

from ..model.bids import HR_BETTEL, HR_SANAC, IGRA, IGRA_BETTEL, IGRA_SANAC, PASS, BidError, format_hr_bid, parse_hr_bid
from ..model.calls import CALL_INVITE, CALL_PASS, CALL_WHIST
from ..model.outcome import CONCEDED, GAME, NO_SEAT, NOT_WHISTED
from ..rules.config import Rules
from .findings import IllegalAction

HR_NUMBERS = (2, 3, 4, 5, 6, 7)
HR_SUITS = (2, 3, 4, 5)
_IGRA_CALLS = (IGRA, IGRA_BETTEL, IGRA_SANAC)
_CANDIDATES = (PASS, *HR_NUMBERS, *_IGRA_CALLS)

# --- finding codes (Croatian auction); shared spellings with preflog.engine.auction ---
BAD_BID = "bad_bid"
"""The call code is not a Croatian call (pass, 2-7, igra 8, hand Bettel 16, hand Sanac 17)."""
AUCTION_OVER = "auction_over"
"""A call after the auction has ended."""
SEAT_NOT_IN_AUCTION = "seat_not_in_auction"
"""A call by a seat that takes no part in the auction."""
BID_OUT_OF_TURN = "bid_out_of_turn"
"""A call by a player whose turn it is not."""
BID_AFTER_PASS = "bid_after_pass"
"""A call by a player who has passed, or who is out because igra overcalled his number."""
BID_NOT_ABOVE_LAST = "bid_not_above_last"
"""A number below the current one."""
JUMP_BID = "jump_bid"
"""A number that skips the next one (the minimum next number must be bid)."""
HOLD_NOT_ALLOWED = "hold_not_allowed"
"""A number equal to the current one ("здесь") that the hold_* options do not allow."""
IGRA_AFTER_NUMBER = "igra_after_number"
"""Igra by a player who has already bid a number (igra only as a player's first call)."""
HAND_CONTRACT_NOT_FIRST_CALL = "hand_contract_not_first_call"
"""Bettel or Sanac from hand (16/17) by a player who has already bid."""
NUMBER_AFTER_IGRA = "number_after_igra"
"""A number after someone called igra (only another igra beats igra)."""
IGRA_IN_NAMING = "igra_in_naming"
"""An igra call while the igra contenders name their contracts (a name 2-7 or pass is expected)."""
NAME_NOT_ABOVE = "name_not_above"
"""A named hand contract that does not beat the best name so far (equal names go to the earlier hand)."""
HAND_BETTEL_NOT_AT_ONCE = "hand_bettel_not_at_once"
"""A plain-igra contender names Bettel or Sanac; those had to be called at once (16/17)."""
AUCTION_NOT_FINISHED = "auction_not_finished"
"""A contract declared before the auction has ended."""
NO_DECLARER = "no_declarer"
"""A contract declared after everybody passed (refe, no play)."""
BAD_CONTRACT = "bad_contract"
"""A contract code outside 2-7."""
CONTRACT_BELOW_BID = "contract_below_bid"
"""A talon contract below the winning number."""
HAND_CONTRACT_CHANGED = "hand_contract_changed"
"""A hand game declared as another contract than the one named in the auction."""

FINDING_CODES: tuple[str, ...] = (
    BAD_BID, AUCTION_OVER, SEAT_NOT_IN_AUCTION, BID_OUT_OF_TURN, BID_AFTER_PASS, BID_NOT_ABOVE_LAST,
    JUMP_BID, HOLD_NOT_ALLOWED, IGRA_AFTER_NUMBER, HAND_CONTRACT_NOT_FIRST_CALL, NUMBER_AFTER_IGRA,
    IGRA_IN_NAMING, NAME_NOT_ABOVE, HAND_BETTEL_NOT_AT_ONCE, AUCTION_NOT_FINISHED, NO_DECLARER,
    BAD_CONTRACT, CONTRACT_BELOW_BID, HAND_CONTRACT_CHANGED,
)

_BIDDING, _NAMING, _DONE = 0, 1, 2

_HAND_WORDS = {
    "igra-bettel": IGRA_BETTEL, "hand-bettel": IGRA_BETTEL, "bettel-hand": IGRA_BETTEL,
    "igra bettel": IGRA_BETTEL, "беттель с руки": IGRA_BETTEL, "berac": IGRA_BETTEL,
    "igra-sanac": IGRA_SANAC, "hand-sanac": IGRA_SANAC, "sanac-hand": IGRA_SANAC,
    "igra sanac": IGRA_SANAC, "санац с руки": IGRA_SANAC,
    "hold": -1, "здесь": -1, "moje": -1, "мои": -1, "i ja": -1, "и я": -1, "держу": -1,
}


def parse_hr_call(text: str, current: int = 0) -> int:
    """Read a Croatian auction call. Besides :func:`parse_hr_bid` (pass, 2–7, igra, bettel, sanac)
    it knows hand Bettel / Sanac (``igra-bettel``, ``hand-sanac`` → 16 / 17) and a hold word
    (``здесь``, ``moje``, ``i ja`` → ``current``, the number being held)."""
    t = " ".join(text.strip().lower().split())
    code = _HAND_WORDS.get(t)
    if code == -1:
        if not 2 <= current <= 7:
            raise BidError(f"{text!r} holds the current number, but there is none to hold")
        return current
    if code is not None:
        return code
    return parse_hr_bid(t)


def format_hr_call(code: int) -> str:
    """Text of a Croatian call code (inverse of :func:`parse_hr_call` except holds)."""
    if code == IGRA_BETTEL:
        return "igra-bettel"
    if code == IGRA_SANAC:
        return "igra-sanac"
    return format_hr_bid(code)


def _forbidden_holds(rules: Rules) -> frozenset[int]:
    """``hold_forbidden_on`` names mapped to Croatian numbers ('miser'/'bettel' → 6, '6s' → 2)."""
    names = {"miser": HR_BETTEL, "мизер": HR_BETTEL, "bettel": HR_BETTEL, "sanac": HR_SANAC, "6s": 2}
    out: set[int] = set()
    for name in rules.hold_forbidden_on:
        key = str(name).strip().lower()
        if key in names:
            out.add(names[key])
        elif key.isdigit() and 2 <= int(key) <= 7:
            out.add(int(key))
    return frozenset(out)


class CroatianAuction:
    """The Croatian auction (see the module doc); implements the ``Auction`` protocol."""

    __slots__ = ("rules", "order", "min_level", "_n", "_spoken", "_out", "_numbered", "_high", "_high_pos",
                 "_high_hold", "_igra", "_named", "_queue", "_phase", "_turn", "_winner_pos", "_forbidden",
                 "history")

    def __init__(self, rules: Rules, order: tuple[int, ...], min_level: int = 0) -> None:
        self.rules = rules
        self.order = tuple(order)
        self.min_level = min_level  # accepted for the protocol; no Croatian minimum exists
        self._n = len(self.order)
        self._spoken = [False] * self._n     # has made his first call
        self._out = [False] * self._n        # passed, or knocked out by igra over his number
        self._numbered = [False] * self._n   # has bid (or held) a number
        self._high = PASS                    # current number
        self._high_pos = -1
        self._high_hold = False              # the current number is held, not freshly bid
        self._igra: list[int] = []           # positions that called igra / 16 / 17, in call order
        self._named: dict[int, int] = {}     # position -> named hand contract (2..7)
        self._queue: list[int] = []          # naming turns still to come
        self._phase = _BIDDING
        self._turn = 0
        self._winner_pos = -1
        self._forbidden = _forbidden_holds(rules)
        self.history: list[tuple[int, int]] = []  # (seat, code) in order

    # -- state ---------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._phase == _DONE

    @property
    def to_move(self) -> int:
        return NO_SEAT if self._phase == _DONE else self.order[self._turn]

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
            raise IllegalAction(BAD_BID, f"call code {bid} is not a Croatian call (pass 0, numbers 2-7, igra 8, "
                                "Bettel from hand 16, Sanac from hand 17)")
        name = format_hr_call(bid)
        if self._phase == _DONE:
            raise IllegalAction(AUCTION_OVER, f"seat {seat} calls {name} after the auction has ended")
        try:
            pos = self.order.index(seat)
        except ValueError:
            raise IllegalAction(SEAT_NOT_IN_AUCTION, f"seat {seat} takes no part in this auction "
                                f"(bidders {list(self.order)})") from None
        if self._out[pos]:
            why = "has passed" if not self._numbered[pos] or not self._igra else "bid a number that igra overcalled"
            raise IllegalAction(BID_AFTER_PASS, f"seat {seat} {why} and may not call again")
        if pos != self._turn:
            raise IllegalAction(BID_OUT_OF_TURN, f"seat {seat} calls out of turn; seat {self.order[self._turn]} "
                                "is to call")
        if bid == PASS:
            return
        if self._phase == _NAMING:
            self._verify_name(seat, pos, bid)
            return
        if bid in _IGRA_CALLS:
            if self._spoken[pos]:
                code = IGRA_AFTER_NUMBER if bid == IGRA else HAND_CONTRACT_NOT_FIRST_CALL
                raise IllegalAction(code, f"seat {seat} has already bid; {name} is only allowed as a player's "
                                    "first call")
            return
        if self._igra:
            raise IllegalAction(NUMBER_AFTER_IGRA, f"{name} after igra by seat {self.order[self._igra[0]]}: "
                                "only another igra beats igra")
        if bid == self._high:
            self._verify_hold(seat, pos, bid)
            return
        if bid < self._high:
            raise IllegalAction(BID_NOT_ABOVE_LAST, f"{name} is below the current number {self._high}")
        step = max(self._high + 1, 2)
        if bid != step and not self.rules.allow_jump_bids:
            raise IllegalAction(JUMP_BID, f"{name} skips numbers; the next number is {step} (no jumps)")

    def _verify_hold(self, seat: int, pos: int, bid: int) -> None:
        rules = self.rules
        why = ""
        if not rules.hold_enabled:
            why = "holds are off (hold_enabled)"
        elif bid in self._forbidden:
            why = f"{bid} may never be held (hold_forbidden_on)"
        elif not self._numbered[pos]:
            why = f"only a player whose number was overcalled may hold; the next number is {self._high + 1}"
        elif self._high_hold:
            why = f"{bid} is already held; seat {self.order[self._high_pos]}'s opponent must raise or pass"
        elif rules.hold_who == "senior" and pos > self._high_pos:
            why = f"seat {seat} is junior to seat {self.order[self._high_pos]} (only the senior bidder may hold)"
        elif rules.hold_who == "first_hand" and pos != 0:
            why = "only first hand may hold"
        elif rules.hold_requires_intermediate_pass and not all(
                self._out[i] for i in range(self._n) if i != pos and i != self._high_pos):
            why = "the player between the two bidders has not passed"
        if why:
            raise IllegalAction(HOLD_NOT_ALLOWED, f"seat {seat} may not hold {bid}: {why}")

    def _best_name(self) -> tuple[int, int]:
        """(contract, position) of the best name so far among contenders still in; (0, n) if none."""
        best = (0, self._n)
        for p, c in self._named.items():
            if not self._out[p] and (c > best[0] or (c == best[0] and p < best[1])):
                best = (c, p)
        return best

    def _verify_name(self, seat: int, pos: int, bid: int) -> None:
        if bid in _IGRA_CALLS:
            raise IllegalAction(IGRA_IN_NAMING, f"seat {seat} must name a hand contract (2-7) or pass, not "
                                f"{format_hr_call(bid)}")
        if bid not in HR_SUITS:
            raise IllegalAction(HAND_BETTEL_NOT_AT_ONCE, f"seat {seat} called a plain igra and may name only a "
                                "suit 2-5; Bettel and Sanac from hand are named at once (16/17)")
        c, p = self._best_name()
        if c and not (bid > c or (bid == c and pos < p)):
            raise IllegalAction(NAME_NOT_ABOVE, f"{bid} does not beat {c} named by seat {self.order[p]} "
                                "(name higher or pass; equal names go to the earlier hand)")

    def can_bid(self, seat: int, bid: int) -> bool:
        try:
            self.verify_bid(seat, bid)
        except IllegalAction:
            return False
        return True

    def legal_bids(self, seat: int) -> list[int]:
        return [b for b in _CANDIDATES if self.can_bid(seat, b)]

    # -- the action ----------------------------------------------------
    def bid(self, seat: int, bid: int) -> None:
        self.verify_bid(seat, bid)
        pos = self._turn
        self.history.append((seat, bid))
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
            nxt = self._next(pos, lambda i: not self._spoken[i])
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
        self._turn = self._next(pos, lambda i: not self._out[i])

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

    def _next(self, pos: int, ok: Callable[[int], bool]) -> int:
        for k in range(1, self._n + 1):
            i = (pos + k) % self._n
            if ok(i):
                return i
        return -1

    # -- the contract --------------------------------------------------
    def _contract_error(self, contract: int) -> IllegalAction | None:
        if self._phase != _DONE:
            return IllegalAction(AUCTION_NOT_FINISHED, "a contract is declared before the auction has ended")
        if self._winner_pos < 0:
            return IllegalAction(NO_DECLARER, "everybody passed: no contract (refe)")
        if contract not in HR_NUMBERS:
            return IllegalAction(BAD_CONTRACT, f"contract code {contract} is not a Croatian contract (2-7)")
        if self.hand_game:
            named = self._named.get(self._winner_pos, 0)
            if named and contract != named:
                return IllegalAction(HAND_CONTRACT_CHANGED, f"the hand game was named as {format_hr_bid(named)} "
                                     f"in the auction; {format_hr_bid(contract)} may not be declared instead")
            return None
        if contract < self._high:
            return IllegalAction(CONTRACT_BELOW_BID, f"{format_hr_bid(contract)} is below the winning number "
                                 f"{self._high}")
        return None

    def verify_contract(self, contract: int) -> None:
        err = self._contract_error(contract)
        if err is not None:
            raise err


try:  # the protocol module registers families; it lazily imports this one for "croatian"
    from .auction import AUCTIONS
except ImportError:  # pragma: no cover - the Russian auction module is absent
    AUCTIONS = {}
AUCTIONS["croatian"] = CroatianAuction


# ---------------------------------------------------------------------------
# After the contract: whist, invitation, contra (RULES.md A8, C3) and play helpers (A10)
# ---------------------------------------------------------------------------

WHIST_OUT_OF_TURN = "whist_out_of_turn"
"""A whist call by a player whose turn it is not (left of the declarer speaks first)."""
BAD_WHIST_CALL = "bad_whist_call"
"""A whist call that is not whist, pass or invite (half-whist does not exist in the Croatian game)."""
BETTEL_MUST_BE_PLAYED = "bettel_must_be_played"
"""A defender passes against Bettel (defenders may not pass Bettel, seed 000)."""
INVITE_NOT_ALLOWED = "invite_not_allowed"
"""An invitation by anyone but a lone whister whose partner passed, or a second one."""
CONTRA_DISABLED = "contra_disabled"
"""A contra call while ``contra_enabled`` is off."""
CONTRA_NOT_ALLOWED = "contra_not_allowed"
"""A contra before the whist calls are over, by a passing or invited defender, or out of the chain's turn."""
DEFENCE_OVER = "defence_over"
"""A whist or contra call after play has started (or after a deal with no play)."""

DEFENCE_CODES: tuple[str, ...] = (
    WHIST_OUT_OF_TURN, BAD_WHIST_CALL, BETTEL_MUST_BE_PLAYED, INVITE_NOT_ALLOWED, CONTRA_DISABLED,
    CONTRA_NOT_ALLOWED, DEFENCE_OVER,
)


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

    The phase is open until the first card; :meth:`close` ends it. Then ``kind`` is ``NOT_WHISTED``
    (nobody whisted), ``CONCEDED`` (2♠ rule: ``needs_contra`` and no contra; Slovenian scoring turns it
    into "nobody scores") or ``GAME``; ``calls``, ``contra`` and ``invited`` go into the DealOutcome and
    ``out_seat`` is the uninvited passer whose cards take no part in play.
    """

    __slots__ = ("rules", "declarer", "defenders", "contract", "needs_contra", "n", "_calls", "_contra",
                 "_invited", "_closed", "_spoke")

    def __init__(self, rules: Rules, declarer: int, defenders: tuple[int, int], contract: int,
                 needs_contra: bool = False, n_players: int = 3) -> None:
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
            return NOT_WHISTED
        if self.needs_contra and not any(self._contra):
            return CONCEDED
        return GAME

    def close(self) -> str:
        """End the phase (first card, or no play); returns :attr:`kind`."""
        if not self.calls_done:
            raise IllegalAction(DEFENCE_OVER, "play starts before both defenders have called whist or pass")
        self._closed = True
        return self.kind

    def verify_whist(self, seat: int, call: int) -> None:
        if self._closed:
            raise IllegalAction(DEFENCE_OVER, f"seat {seat} calls after the defence phase has ended")
        if call not in (CALL_WHIST, CALL_PASS, CALL_INVITE):
            raise IllegalAction(BAD_WHIST_CALL, f"call {call} is not whist, pass or invite")
        if not self.calls_done:
            if seat != self.defenders[self._spoke]:
                raise IllegalAction(WHIST_OUT_OF_TURN, f"seat {seat} calls out of turn; seat "
                                    f"{self.defenders[self._spoke]} (left of the declarer first) is to call")
            if call == CALL_PASS and self.contract == HR_BETTEL:
                raise IllegalAction(BETTEL_MUST_BE_PLAYED, "defenders may not pass Bettel")
            if call == CALL_INVITE and (self._spoke == 0 or self._calls[self.defenders[0]] != CALL_PASS):
                raise IllegalAction(INVITE_NOT_ALLOWED, "only a lone whister may invite the passing defender")
            return
        if call != CALL_INVITE or self.whisters != (seat,) or self._invited != NO_SEAT:
            raise IllegalAction(INVITE_NOT_ALLOWED, f"seat {seat} may not call again: after the whist round only "
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
            raise IllegalAction(DEFENCE_OVER, f"seat {seat} contras after the defence phase has ended")
        if not self.rules.contra_enabled:
            raise IllegalAction(CONTRA_DISABLED, "contra is off in these rules (contra_enabled)")
        if not self.calls_done or not self.whisters:
            raise IllegalAction(CONTRA_NOT_ALLOWED, "contra comes after both whist calls, and only when someone "
                                "whisted")
        if seat == self.declarer:
            if not any(c % 2 for c in self._contra):
                raise IllegalAction(CONTRA_NOT_ALLOWED, "the declarer may only answer a contra (recontra, …)")
            return
        if seat not in self.whisters:
            raise IllegalAction(CONTRA_NOT_ALLOWED, f"seat {seat} did not whist (or was invited) and may not contra")
        if self._contra[seat] % 2:
            raise IllegalAction(CONTRA_NOT_ALLOWED, f"seat {seat} has doubled last; the declarer is to answer")

    def call_contra(self, seat: int) -> None:
        self.verify_contra(seat)
        if seat == self.declarer:
            for d in self.defenders:
                if self._contra[d] % 2:
                    self._contra[d] += 1
            return
        self._contra[seat] += 1
        if self._invited == NO_SEAT and len(self.whisters) == 1:
            self._invited = next(d for d in self.defenders if d != seat)  # contra = automatic invitation


def first_leader(rules: Rules, dealer: int, declarer: int, contract: int, out_seat: int = NO_SEAT,
                 n_players: int = 3) -> int:
    """Who leads to the first trick (RULES.md A10, D22), per ``first_lead`` / ``bettel_lead`` / ``sanac_lead``.

    Seats go clockwise to ``seat + 1``; the player on someone's right is ``seat − 1``. A seat that is out
    (the uninvited passer) never leads: the lead passes clockwise.
    """
    n = n_players

    def skip_out(seat: int) -> int:
        while seat == out_seat:
            seat = (seat + 1) % n
        return seat

    right = (declarer - 1) % n
    if contract == HR_BETTEL and rules.bettel_lead == "right_of_declarer":
        return skip_out(right)
    if contract == HR_SANAC and rules.sanac_lead == "right_of_declarer":
        return skip_out(right)
    if rules.first_lead == "left_whister":
        leader = skip_out((declarer + 1) % n)
    else:
        leader = (dealer + 1) % n
        if rules.first_lead == "eldest_skip_out":
            leader = skip_out(leader)
    if contract == HR_SANAC and rules.sanac_lead == "not_declarer" and leader == declarer:
        leader = skip_out((leader + 1) % n)
    return leader


def play_over(rules: Rules, contract: int, declarer_tricks: int, defender_tricks: int) -> bool:
    """Whether play stops now: trick contracts and Sanac at the defenders' ``defender_trick_cap``-th
    (5th) trick; Bettel with ``bettel_fail_mode=flat`` at the declarer's first trick (the result is fixed);
    otherwise after 10 tricks."""
    if declarer_tricks + defender_tricks >= 10:
        return True
    if contract == HR_BETTEL:
        return rules.bettel_fail_mode == "flat" and declarer_tricks > 0
    return defender_tricks >= rules.defender_trick_cap
