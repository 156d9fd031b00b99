"""An independent, deliberately plain checker of simulated Russian pulkas, and deal statistics.

It does not share code with the bots: it re-derives every trick from the events with
card objects and lists, checks that 32 cards are conserved per deal and that every
card play follows suit / trumps when void, and summarises each deal (kind, contract,
declarer's tricks, made or not) so that tests and reports can compute rates.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..errors import PreflogError
from ..model.bids import MISER
from ..model.bids import level_of
from ..model.bids import ru_trump
from ..model.calls import CALL_HALF
from ..model.calls import CALL_WHIST
from ..model.cards import cards_of
from ..model.cards import rank_of
from ..model.cards import suit_of
from ..model.events import CardPlayed
from ..model.events import ContractDeclared
from ..model.events import DealStarted
from ..model.events import Discarded
from ..model.events import Event
from ..model.events import PaperResult
from ..model.events import PulkaStarted
from ..model.events import TenChecked
from ..model.events import WhistCalled
from ..rules.choices import RaspasyTalonMode
from ..rules.presets import resolve


class SimCheckError(PreflogError, AssertionError):
    """A simulated pulka broke a rule; the message names the deal and event index."""


@dataclass(frozen=True, slots=True)
class CheckedDeal:
    deal: int
    kind: str              # game, miser, raspasy, not_whisted, half_whist, ten_checked
    declarer: int = -1
    contract: int = 0
    tricks: tuple[int, ...] = ()
    made: bool | None = None


def check_pulka(events: list[Event]) -> list[CheckedDeal]:
    """Check a simulated pulka (card level or paper) and summarise its deals; raises :class:`SimCheckError`."""
    if not events or not isinstance(events[0], PulkaStarted):
        raise SimCheckError("a pulka starts with PulkaStarted")
    start = events[0]
    rules = resolve(start.rules)
    n = len(start.players)
    out: list[CheckedDeal] = []
    deals: list[list[tuple[int, Event]]] = []
    for i, ev in enumerate(events[1:], 1):
        if isinstance(ev, DealStarted):
            deals.append([])
        if deals:
            deals[-1].append((i, ev))
    for no, block in enumerate(deals, 1):
        out.append(_check_deal(no, block, n, rules.must_trump, rules.raspasy_talon_mode == RaspasyTalonMode.OPEN))
    return out


def _check_deal(no: int, block: list[tuple[int, Event]], n: int, must_trump: bool, open_talon: bool) -> CheckedDeal:
    def fail(i: int, msg: str) -> SimCheckError:
        return SimCheckError(f"deal {no}, event {i}: {msg}")

    i0, ds = block[0]
    assert isinstance(ds, DealStarted)
    dealer = ds.dealer
    active = [s for s in range(n) if not (n == 4 and s == dealer)]
    order = sorted(active, key=lambda s: (s - dealer - 1) % n)
    contract, declarer = 0, -1
    calls: dict[int, list[int]] = {}
    paper = ds.hands is None
    hands: list[set[int]] = []
    talon: set[int] = set()
    if not paper:
        assert ds.hands is not None and ds.talon is not None
        hands = [set(cards_of(h)) for h in ds.hands]
        talon = set(cards_of(ds.talon))
        allc = [c for h in hands for c in h] + list(talon)
        if len(allc) != 32 or len(set(allc)) != 32:
            raise fail(i0, f"cards not conserved: {len(allc)} cards dealt, {len(set(allc))} distinct")
        if n == 4 and hands[dealer]:
            raise fail(i0, "the sitting-out dealer holds cards")
        if any(len(hands[s]) != 10 for s in active):
            raise fail(i0, "an active player does not hold 10 cards")
    plays: list[tuple[int, int, int]] = []
    for i, ev in block[1:]:
        if isinstance(ev, Discarded):
            h = hands[ev.player] | talon
            d = set(cards_of(ev.cards))
            if len(d) != 2 or not d <= h:
                raise fail(i, "discard is not two of the declarer's twelve cards")
            hands[ev.player] = h - d
            talon = set()
        elif isinstance(ev, ContractDeclared):
            contract, declarer = ev.contract, ev.player
        elif isinstance(ev, WhistCalled):
            calls.setdefault(ev.player, []).append(ev.call)
        elif isinstance(ev, CardPlayed):
            plays.append((i, ev.player, ev.card))
        elif isinstance(ev, PaperResult):
            return _summary(no, contract, declarer, calls, ev.tricks)
        elif isinstance(ev, TenChecked):
            made = ev.tricks[declarer] >= level_of(contract)
            return CheckedDeal(no, "ten_checked", declarer, contract, ev.tricks, made)
    if paper:
        return _summary(no, contract, declarer, calls, ())
    if not plays:
        return _summary(no, contract, declarer, calls, ())
    trump = ru_trump(contract)  # -1: no trump (NT, miser, raspasy)
    tricks = [0] * n
    talon_leads = sorted(talon) if (contract == 0 and open_talon) else []
    if talon_leads and suit_of(talon_leads[0]) != suit_of(talon_leads[1]) and plays \
            and suit_of(plays[0][2]) == suit_of(talon_leads[1]):
        talon_leads.reverse()  # the first card played shows which talon card was turned first
    if len(plays) != 30:
        raise fail(plays[-1][0], f"{len(plays)} cards played, expected 30")
    expected_leader = order[0]
    for t in range(10):
        trick = plays[3 * t:3 * t + 3]
        if t < len(talon_leads):
            tc = talon_leads[t]
            lead_suit = suit_of(tc)
            seq = order
            best = (tc, dealer) if n == 4 else None
        else:
            lead_suit = suit_of(trick[0][2])
            nxt = order.index(expected_leader)
            seq = [order[(nxt + k) % 3] for k in range(3)]
            best = None
        for k, (i, seat, card) in enumerate(trick):
            if seat != seq[k]:
                raise fail(i, f"seat {seat} played out of turn (expected {seq[k]})")
            h = hands[seat]
            if card not in h:
                raise fail(i, f"seat {seat} played a card he does not hold")
            if not (k == 0 and t >= len(talon_leads)):
                if suit_of(card) != lead_suit and any(suit_of(c) == lead_suit for c in h):
                    raise fail(i, "did not follow suit")
                if (must_trump and trump >= 0 and suit_of(card) != lead_suit and suit_of(card) != trump
                        and any(suit_of(c) == trump for c in h)):
                    raise fail(i, "did not trump when void")
            h.discard(card)
            if best is None:
                if suit_of(card) == lead_suit:
                    best = (card, seat)
            elif _beats(card, best[0], lead_suit, trump):
                best = (card, seat)
        if best is not None:
            tricks[best[1]] += 1
        if t < len(talon_leads):
            expected_leader = order[0]
        elif best is not None:
            expected_leader = best[1]
    return _summary(no, contract, declarer, calls, tuple(tricks))


def _beats(card: int, best: int, lead_suit: int, trump: int) -> bool:
    if suit_of(card) == suit_of(best):
        return rank_of(card) > rank_of(best)
    return suit_of(card) == trump


def _summary(no: int, contract: int, declarer: int, calls: dict[int, list[int]],
             tricks: tuple[int, ...]) -> CheckedDeal:
    if contract == 0:
        return CheckedDeal(no, "raspasy", tricks=tricks)
    if contract == MISER:
        return CheckedDeal(no, "miser", declarer, contract, tricks, tricks[declarer] == 0 if tricks else None)
    whisted = any(c[-1] == CALL_WHIST for c in calls.values())
    if not whisted:
        half = any(CALL_HALF in c for c in calls.values())
        return CheckedDeal(no, "half_whist" if half else "not_whisted", declarer, contract, (), True)
    made = tricks[declarer] >= level_of(contract) if tricks else None
    return CheckedDeal(no, "game", declarer, contract, tricks, made)


def rates(summaries: list[CheckedDeal]) -> dict[str, float]:
    """Shares of deal kinds among all deals, and made rates of played games and misers."""
    total = len(summaries) or 1
    kinds = Counter(s.kind for s in summaries)
    games = [s for s in summaries if s.kind in ("game", "ten_checked")]
    declared = [s for s in summaries if s.kind in ("game", "ten_checked", "not_whisted", "half_whist")]
    misers = [s for s in summaries if s.kind == "miser"]
    r = {f"share_{k}": v / total for k, v in sorted(kinds.items())}
    r["played_games_made"] = sum(1 for s in games if s.made) / (len(games) or 1)
    r["declared_games_made"] = sum(1 for s in declared if s.made) / (len(declared) or 1)
    r["misers_made"] = sum(1 for s in misers if s.made) / (len(misers) or 1)
    r["deals"] = float(len(summaries))
    return r
