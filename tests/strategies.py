"""Hypothesis strategies for legal logs, drawn action by action from the engine's own legal actions.

A failing property then shrinks to a short log (a small deal, few deals, early claims), not to a
seed. The module uses only the engine's public surface: :func:`replay` to open a deal the way the
audit opens it (the pulka's minimum bid level and the Croatian 2♠ rule come from its scorer),
``legal_actions()``, ``apply``, ``done``, the ``can_x`` checks for claims, ten checks and paper
results (they are not in ``legal_actions()``), and ``finish_without_play`` for the Croatian deal
that ends without an event.

Use it inside a test that takes ``st.data()``::

    @given(st.data(), st.sampled_from(TABLES))
    def test_something(data: st.DataObject, table: tuple[str, int]) -> None:
        log = draw_pulka(data, *table)
"""

from __future__ import annotations

from collections import deque
from functools import cache
from typing import Protocol

from hypothesis import strategies as st

from preflog.engine.replay import audit
from preflog.engine.replay import replay
from preflog.model.cards import FULL_DECK
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import Claimed
from preflog.model.events import ContraCalled
from preflog.model.events import ContractDeclared
from preflog.model.events import DealStarted
from preflog.model.events import Event
from preflog.model.events import PaperResult
from preflog.model.events import PlayModeChosen
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import TenChecked
from preflog.model.outcome import DealOutcome
from preflog.rules import resolve

RUSSIAN_PRESETS = ("sochi", "leningrad", "rostov")
CROATIAN_PRESETS = ("croatian", "slovenian")
PRESETS = RUSSIAN_PRESETS + CROATIAN_PRESETS
# presets with named overrides that change what is legal or how a pulka runs
VARIANTS = ("sochi+jumps+third-hand-takes-talon", "leningrad+min-bid-after-raspasy+miser-by-10",
            "rostov+ten-whisted+no-must-trump", "croatian+start-50")
SPECS = PRESETS + VARIANTS


def _tables(specs: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    return tuple((spec, n) for spec in specs for n in (3, 4) if n in resolve(spec).players)


TABLES = _tables(SPECS)
"""(rules spec, table size): every preset and variant at every table size its rules allow."""
RUSSIAN_TABLES = tuple(t for t in TABLES if resolve(t[0]).family != "croatian")
CROATIAN_TABLES = tuple(t for t in TABLES if resolve(t[0]).family == "croatian")
PLAYERS = ("A", "B", "C", "D")


class Deal(Protocol):
    """What these strategies use of a live deal (either family)."""

    @property
    def done(self) -> bool: ...
    @property
    def outcome(self) -> DealOutcome | None: ...
    def legal_actions(self) -> list[Event]: ...
    def apply(self, ev: Event) -> None: ...
    def can_bid(self, seat: int, bid: int) -> bool: ...
    def can_play(self, seat: int, card: int) -> bool: ...
    def can_claim(self, tricks: tuple[int, ...]) -> bool: ...
    def can_ten_check(self, tricks: tuple[int, ...]) -> bool: ...
    def can_paper_result(self, tricks: tuple[int, ...]) -> bool: ...
    def finish_without_play(self) -> bool: ...


MAX_ACTIONS = 200  # far above any legal deal: a longer one means the engine never ends it
MAX_CONTRAS = 4  # the contra chain has no end in the rules; drawn deals stop doubling after four steps


def layout(data: st.DataObject, n: int, dealer: int) -> tuple[tuple[int, ...], int]:
    """A shuffled pack dealt 10 cards to each playing seat (the 4-player dealer sits out) and 2 to the talon."""
    deck = data.draw(st.permutations(range(32)), label="deck")
    hands = [0] * n
    k = 0
    for s in range(n):
        if n == 4 and s == dealer:
            continue
        hands[s] = sum(1 << c for c in deck[k:k + 10])
        k += 10
    talon = FULL_DECK
    for h in hands:
        talon &= ~h
    return tuple(hands), talon


def deal_started(data: st.DataObject, n: int, dealer: int, paper: bool) -> DealStarted:
    """A paper deal (no cards recorded) or a card-level one with a drawn layout."""
    if paper:
        return DealStarted(dealer)
    hands, talon = layout(data, n, dealer)
    return DealStarted(dealer, hands, talon)


def opened_deal(log: list[Event]) -> Deal:
    """The live deal that the log's last event (a DealStarted) opens, as the audit opens it."""
    last = deque(replay(log), maxlen=1)
    assert last, "empty log"
    step = last[0]
    assert isinstance(step.event, DealStarted) and step.deal is not None
    return step.deal


@cache
def _splits(n: int) -> tuple[tuple[int, ...], ...]:
    """Every way to give 0..10 tricks to ``n`` seats."""
    out: list[tuple[int, ...]] = [()]
    for _ in range(n):
        out = [(*t, k) for t in out for k in range(11 - sum(t))]
    return tuple(sorted(out, key=lambda t: (-sum(t), t)))


def ten_checks(deal: Deal, n: int) -> list[Event]:
    """The ten checks the engine accepts now (a checked 10-game before play), every trick split."""
    return [TenChecked(t) for t in _splits(n) if sum(t) == 10 and deal.can_ten_check(t)]


def endings(deal: Deal, n: int, paper: bool) -> list[Event]:
    """Events that end the deal now and are not in ``legal_actions()``: ten checks, then claims (card
    level) or paper results (paper level), each with every trick split the engine accepts."""
    splits = _splits(n)
    out = ten_checks(deal, n)
    if paper:
        out += [PaperResult(t) for t in splits if deal.can_paper_result(t)]
    else:
        out += [Claimed(t) for t in splits if deal.can_claim(t)]
    return out


def play_deal(data: st.DataObject, deal: Deal, n: int, paper: bool, claims: bool = True) -> list[Event]:
    """Play an open deal to its end, one drawn legal action at a time; the events applied, in order.

    Calls lean towards passing and the lowest bid (else auctions climb to the top at once), contracts
    towards the lowest allowed. A card-level deal may be ended by a claim or a ten check after a drawn
    number of cards (``claims``); a paper deal by a drawn result once the auction allows one. A
    Croatian 2♠ nobody contras may end without an event.
    """
    events: list[Event] = []
    claim_at = data.draw(st.integers(0, 89), label="claim after cards") if claims and not paper else -1
    cards = contras = 0
    for step in range(MAX_ACTIONS):
        if deal.done:
            return events
        acts = deal.legal_actions()
        if not acts:
            try_end = True
        elif paper:
            try_end = (step == 0 or not isinstance(acts[0], BidMade)) and (
                contras >= MAX_CONTRAS or data.draw(st.booleans(), label="end"))
        elif any(isinstance(a, CardPlayed) for a in acts):
            try_end = cards == claim_at
            if not try_end and not cards and claims:  # a checked 10-game: the check instead of play
                checks = ten_checks(deal, n)
                if checks and data.draw(st.booleans(), label="ten check"):
                    ev = data.draw(st.sampled_from(checks), label="ending")
                    deal.apply(ev)
                    events.append(ev)
                    continue
        else:
            try_end = any(isinstance(a, (ContraCalled, PlayModeChosen)) for a in acts) and (
                contras >= MAX_CONTRAS or data.draw(st.booleans(), label="end"))
        if try_end:
            ends = endings(deal, n, paper)
            if ends:
                ev = data.draw(st.sampled_from(ends), label="ending")
                deal.apply(ev)
                events.append(ev)
                continue
            if deal.finish_without_play():
                return events
            assert acts, "deal stuck: no legal action and no way to end it"
        if isinstance(acts[0], BidMade):
            # half the calls pass, a quarter make the lowest other call, a quarter any legal call
            how = data.draw(st.integers(0, 3), label="call")
            bids = [a for a in acts if isinstance(a, BidMade)]
            passes = [a for a in bids if a.bid == 0]
            others = [a for a in bids if a.bid != 0]
            if how < 2 and passes or not others:
                ev = passes[0]
            elif how == 2:
                ev = others[0]
            else:
                ev = data.draw(st.sampled_from(acts), label="action")
        elif isinstance(acts[0], ContractDeclared) and not data.draw(st.booleans(), label="any contract"):
            ev = acts[0]  # half the declarers name the lowest contract they may
        else:
            ev = data.draw(st.sampled_from(acts), label="action")
        deal.apply(ev)
        events.append(ev)
        cards += isinstance(ev, CardPlayed)
        contras += isinstance(ev, ContraCalled)
    raise AssertionError(f"deal not over after {MAX_ACTIONS} legal actions")


def draw_deal(data: st.DataObject, spec: str, n: int, paper: bool = False,
              claims: bool = True) -> tuple[list[Event], Deal]:
    """One deal under a fresh pulka: the log ``[PulkaStarted, DealStarted, …]`` and the finished deal."""
    dealer = data.draw(st.integers(0, n - 1), label="dealer")
    log: list[Event] = [PulkaStarted(PLAYERS[:n], spec), deal_started(data, n, dealer, paper)]
    deal = opened_deal(log)
    log += play_deal(data, deal, n, paper, claims)
    return log, deal


def is_closed(log: list[Event]) -> bool:
    """Whether every pulya is closed (the pulka may be ended as ``closed``)."""
    return audit([*log, PulkaEnded("closed")]).ok


def draw_pulka(data: st.DataObject, spec: str, n: int, paper: bool | None = False, max_deals: int = 6,
               claims: bool = True, pool: int = 50) -> list[Event]:
    """A legal pulka of 1..``max_deals`` deals and its end (``closed`` if every pulya closed on the way).

    ``paper``: every deal card level (False), paper level (True), or each drawn (None); ``pool``: the
    pulya to reach (a small one closes the pulka within a few deals).
    """
    log: list[Event] = [PulkaStarted(PLAYERS[:n], spec, pool=pool)]
    dealer = data.draw(st.integers(0, n - 1), label="first dealer")
    closed = False
    for _ in range(data.draw(st.integers(1, max_deals), label="deals")):
        on_paper = data.draw(st.booleans(), label="paper") if paper is None else paper
        log.append(deal_started(data, n, dealer, on_paper))
        log += play_deal(data, opened_deal(log), n, on_paper, claims)
        closed = is_closed(log)
        if closed:
            break
        dealer = (dealer + 1) % n
    log.append(PulkaEnded("closed" if closed else "stopped"))
    return log
