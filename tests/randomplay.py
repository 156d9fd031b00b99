"""Test support: random legal deals and pulkas from a seed, driven by :meth:`Deal.legal_actions`
(the CLI tests store and import them).

Bids are biased towards passing so that games, misers and raspasy all occur.
"""

from __future__ import annotations

import random

from preflog.engine.deal import Deal
from preflog.engine.families import family_of
from preflog.model.bids import PASS
from preflog.model.cards import FULL_DECK
from preflog.model.events import BidMade
from preflog.model.events import DealStarted
from preflog.model.events import Event
from preflog.model.events import PulkaStarted
from preflog.rules.config import Rules


def random_layout(n_players: int, dealer: int, rng: random.Random) -> tuple[tuple[int, ...], int]:
    """Shuffle and deal: 10 cards to each playing seat (the 4-player dealer gets none), 2 to the talon."""
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [0] * n_players
    k = 0
    for s in range(n_players):
        if n_players == 4 and s == dealer:
            continue
        for c in cards[k:k + 10]:
            hands[s] |= 1 << c
        k += 10
    talon = FULL_DECK
    for h in hands:
        talon &= ~h
    return tuple(hands), talon


def random_deal(rules: Rules, n_players: int, dealer: int, rng: random.Random, deal: int = 1,
                min_level: int = 0, pass_bias: float = 0.55) -> tuple[list[Event], Deal]:
    """A random legal deal: its events (DealStarted first) and the finished state."""
    hands, talon = random_layout(n_players, dealer, rng)
    start = DealStarted(dealer, hands, talon)
    d = family_of(rules).deal.from_event(rules, n_players, start, deal, min_level)
    events: list[Event] = [start]
    while not d.done:
        acts = d.legal_actions()
        if not acts:
            raise RuntimeError(f"no legal action in phase {d.phase_name}")
        pas = [a for a in acts if isinstance(a, BidMade) and a.bid == PASS]
        ev = pas[0] if pas and rng.random() < pass_bias else rng.choice(acts)
        d.apply(ev)
        events.append(ev)
    return events, d


def random_pulka(rules_spec: str, players: tuple[str, ...], n_deals: int, seed: int = 0,
                 overrides: tuple[tuple[str, object], ...] = ()) -> list[Event]:
    """A random legal pulka log of ``n_deals`` deals (without score lines)."""
    from preflog.rules.presets import resolve

    rng = random.Random(seed)
    rules = resolve(rules_spec, dict(overrides))
    n = len(players)
    events: list[Event] = [PulkaStarted(players, rules_spec, overrides)]
    dealer = rng.randrange(n)
    for i in range(n_deals):
        evs, _ = random_deal(rules, n, dealer, rng, i + 1)
        events.extend(evs)
        dealer = (dealer + 1) % n
    return events
