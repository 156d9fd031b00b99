"""Synthetic pulkas for store tests and measurements (not legal play: shape and entropy only).

Each deal has the shape of a full-card record: a deal start with the three hands and
the talon, an auction, a discard, a contract, two whist calls and 30 card plays; about
40 events per deal, like the one-deal append of the storage measurements.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from preflog.model.events import (
    BidMade,
    CardPlayed,
    ContractDeclared,
    DealStarted,
    Discarded,
    Event,
    PulkaEnded,
    PulkaStarted,
    WhistCalled,
)

_BIDS = (0, 61, 62, 63, 64, 65, 71, 72, 73, 74, 75, 81, 90)


def synthetic_deal(rng: random.Random, dealer: int) -> list[Event]:
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[i * 10:(i + 1) * 10]) for i in range(3)]
    talon = (1 << cards[30]) | (1 << cards[31])
    out: list[Event] = [DealStarted(dealer=dealer, hands=tuple(hands), talon=talon)]
    bidder = (dealer + 1) % 3
    high = 0
    for _ in range(rng.randint(3, 6)):
        bid = rng.choice([b for b in _BIDS if b == 0 or b > high])
        high = max(high, bid)
        out.append(BidMade(bidder, bid))
        bidder = (bidder + 1) % 3
    declarer = rng.randrange(3)
    out.append(Discarded(declarer, (1 << cards[declarer * 10]) | (1 << cards[declarer * 10 + 1])))
    out.append(ContractDeclared(declarer, high or 61))
    out.append(WhistCalled((declarer + 1) % 3, rng.choice((0, 1))))
    out.append(WhistCalled((declarer + 2) % 3, 1))
    per_seat = [[c for c in cards[i * 10:(i + 1) * 10]] for i in range(3)]
    leader = (dealer + 1) % 3
    for _ in range(10):
        for k in range(3):
            seat = (leader + k) % 3
            out.append(CardPlayed(seat, per_seat[seat].pop()))
        leader = rng.randrange(3)
    return out


def synthetic_pulka(seed: int, deals: int = 30) -> list[Event]:
    rng = random.Random(seed)
    events: list[Event] = [PulkaStarted(players=("Anna", "Boris", "Vera"), rules="sochi", pool=20)]
    for d in range(deals):
        events.extend(synthetic_deal(rng, d % 3))
    events.append(PulkaEnded())
    return events


def synthetic_pulkas(n_events: int, deals: int = 30, seed: int = 1) -> Iterator[tuple[str, list[Event]]]:
    """Pulkas ``p000000``, ``p000001`` … until about ``n_events`` events in total."""
    total = 0
    i = 0
    while total < n_events:
        ev = synthetic_pulka(seed * 1_000_003 + i, deals)
        total += len(ev)
        yield f"p{i:06d}", ev
        i += 1
