"""Synthetic data for the store tests and the benchmarks: one generator per kind of data.

* **Event logs** (:func:`synthetic_pulka`, :func:`synthetic_pulkas`): shape and entropy only, not
  legal play. Each deal has the shape of a full-card record: a deal start with the three hands and
  the talon, an auction, a discard, a contract, two whist calls and 30 card plays; about 40 events
  per deal, like the one-deal append of the storage measurements (``benchmarks/store.py``).
  Legal pulkas come from the bots (:mod:`preflog.sim`, used by ``benchmarks/run.py``).
* **Projection tables** (:func:`synthesize`): ``deals``, ``player_deals`` and ``pulka_results`` with
  the projection schemas; random numbers shaped like real play (kinds, contracts, roles in
  proportion), for the report benchmark (``benchmarks/reports.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pyarrow as pa

from preflog.model.bids import format_ru_bid
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import ContractDeclared
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import Event
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import WhistCalled
from preflog.projections.build import DEALS_SCHEMA
from preflog.projections.build import PLAYER_DEALS_SCHEMA
from preflog.projections.build import PULKA_RESULTS_SCHEMA

# ------------------------------------------------------------------------------ event logs
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


# ------------------------------------------------------------------------ projection tables
DEALS_PER_PULKA = 25
_PRESETS = np.array(["sochi", "leningrad", "rostov", "sochi", "sochi"])
_KINDS = np.array(["game", "raspasy", "miser", "not_whisted", "half_whist"])
_KIND_P = [0.70, 0.15, 0.05, 0.08, 0.02]
_CONTRACTS = np.array([61, 62, 63, 64, 65, 71, 72, 73, 74, 75, 81, 82, 83, 84, 85, 91, 92, 93, 94, 95, 101])


def synthesize(n_deals: int, seed: int = 1, n_names: int = 300) -> dict[str, pa.Table]:
    """Random projection tables for ``n_deals`` deals (3 players, 25 deals a pulka)."""
    rng = np.random.default_rng(seed)
    n_p = max(1, n_deals // DEALS_PER_PULKA)
    n_deals = n_p * DEALS_PER_PULKA
    pulka_ids = np.char.add("pk", np.char.zfill(np.arange(n_p).astype(str), 7))
    names = np.char.add("player", np.arange(n_names).astype(str))
    seats = np.stack([rng.choice(n_names, 3, replace=False) for _ in range(n_p)])   # pulka × seat → name idx
    preset = rng.integers(0, len(_PRESETS), n_p)
    day = rng.integers(0, 3650, n_p).astype("int32")                                 # days since 2015-01-01
    base_day = np.datetime64("2015-01-01", "D").astype("int32")

    pk = np.repeat(np.arange(n_p), DEALS_PER_PULKA)
    deal_no = np.tile(np.arange(1, DEALS_PER_PULKA + 1), n_p).astype("int16")
    dealer = ((deal_no - 1) % 3).astype("int8")
    kind = rng.choice(len(_KINDS), n_deals, p=_KIND_P)
    has_decl = kind != 1
    declarer = np.where(has_decl, rng.integers(0, 3, n_deals), -1).astype("int8")
    contract = np.where(kind == 2, 90, _CONTRACTS[rng.integers(0, len(_CONTRACTS) - 1, n_deals)]).astype("int16")
    level = np.where(contract == 90, 0, contract // 10).astype("int8")
    made = np.where(has_decl, rng.random(n_deals) < 0.8, False)
    under = np.where(made | ~has_decl, 0, rng.integers(1, 3, n_deals)).astype("int8")
    dval = np.where(has_decl, rng.normal(0, 30, n_deals), np.nan)
    rel = ((declarer - dealer - 1) % 3 + 1).astype("int8")
    labels = np.array([format_ru_bid(c) if c in _CONTRACTS or c == 90 else "" for c in range(0, 106)], dtype=object)

    def col(values: np.ndarray, typ: pa.DataType, mask: np.ndarray | None = None) -> pa.Array:
        return pa.array(values, type=typ, mask=mask)

    dec_mask = ~has_decl
    deals = pa.table({
        "pulka": pa.array(pulka_ids[pk]), "deal": col(deal_no, pa.int16()), "preset": pa.array(_PRESETS[preset[pk]]),
        "rules_spec": pa.array(_PRESETS[preset[pk]]), "family": pa.array(np.full(n_deals, "russian")),
        "date": pa.array((day[pk] + base_day).astype("int32"), type=pa.int32()).cast(pa.date32()),
        "n_players": col(np.full(n_deals, 3, "int8"), pa.int8()), "dealer": col(dealer, pa.int8()),
        "dealer_name": pa.array(names[seats[pk, dealer]]), "kind": pa.array(_KINDS[kind]),
        "declarer": col(declarer, pa.int8(), dec_mask),
        "declarer_name": pa.array(names[seats[pk, np.maximum(declarer, 0)]], mask=dec_mask),
        "rel_seat": col(rel, pa.int8(), dec_mask), "contract": col(contract, pa.int16(), dec_mask),
        "contract_label": pa.array(labels[contract], type=pa.string(), mask=dec_mask),
        "level": col(level, pa.int8(), dec_mask), "strain": pa.array(np.full(n_deals, "s"), mask=dec_mask),
        "is_miser": col(contract == 90, pa.bool_(), dec_mask), "hand_game": col(np.zeros(n_deals, bool), pa.bool_()),
        "whist_pattern": pa.array(np.where(has_decl, "WP", "")), "half_whist_returned": col(np.zeros(n_deals, bool),
                                                                                            pa.bool_()),
        "open_play": col(rng.random(n_deals) < 0.5, pa.bool_()), "checked": col(np.zeros(n_deals, bool), pa.bool_()),
        "paper": col(np.zeros(n_deals, bool), pa.bool_()), "stopped_early": col(np.zeros(n_deals, bool), pa.bool_()),
        "contra": col(np.zeros(n_deals, "int8"), pa.int8()),
        "tricks": pa.FixedSizeListArray.from_arrays(pa.array(rng.integers(0, 5, 3 * n_deals).astype("int8")), 3)
                    .cast(pa.list_(pa.int8())),
        "declarer_tricks": col(np.where(made, level, level - under).astype("int8"), pa.int8(), dec_mask),
        "defender_tricks": col((10 - np.where(made, level, level - under)).astype("int8"), pa.int8(), dec_mask),
        "made": col(made, pa.bool_(), dec_mask), "undertricks": col(under, pa.int8(), dec_mask),
        "price": col(np.where(contract == 90, 10, (level - 5) * 2).astype("int16"), pa.int16(), dec_mask),
        "declarer_value": col(dval, pa.float64(), dec_mask), "note": pa.array(np.full(n_deals, "")),
    }, schema=DEALS_SCHEMA)

    # player_deals: 3 rows per deal, seat-major inside a deal
    r = np.repeat(np.arange(n_deals), 3)
    seat = np.tile(np.arange(3), n_deals).astype("int8")
    rk = kind[r]
    is_decl = declarer[r] == seat
    call_whist = rng.random(3 * n_deals) < 0.6
    role = np.select([rk == 1, is_decl, rk == 2, rk == 3, call_whist], ["raspasy", "declarer", "defender", "passer",
                                                                         "whister"], "passer")
    oblig = np.where(role == "whister", 2, -1).astype("int8")
    met = rng.random(3 * n_deals) < 0.85
    omask = oblig < 0
    rdmask = ~has_decl[r]
    value = rng.normal(0, 20, 3 * n_deals)
    pds = pa.table({
        "pulka": pa.array(pulka_ids[pk[r]]), "deal": col(deal_no[r], pa.int16()),
        "preset": pa.array(_PRESETS[preset[pk[r]]]), "family": pa.array(np.full(3 * n_deals, "russian")),
        "date": deals["date"].take(pa.array(r)), "n_players": col(np.full(3 * n_deals, 3, "int8"), pa.int8()),
        "player": pa.array(names[seats[pk[r], seat]]), "seat": col(seat, pa.int8()),
        "rel_seat": col(((seat - dealer[r] - 1) % 3 + 1).astype("int8"), pa.int8()), "role": pa.array(role),
        "kind": pa.array(_KINDS[rk]), "contract": col(contract[r], pa.int16(), rdmask),
        "contract_label": pa.array(labels[contract[r]], type=pa.string(), mask=rdmask),
        "level": col(level[r], pa.int8(), rdmask), "is_miser": col(contract[r] == 90, pa.bool_(), rdmask),
        "hand_game": col(np.zeros(3 * n_deals, bool), pa.bool_()), "made": col(made[r], pa.bool_(), rdmask),
        "tricks": col(rng.integers(0, 6, 3 * n_deals).astype("int8"), pa.int8()),
        "obligation": col(oblig, pa.int8(), omask), "shortfall": col((~met).astype("int8"), pa.int8(), omask),
        "obligation_met": col(met, pa.bool_(), omask),
        "pulya": col(np.zeros(3 * n_deals), pa.float64()), "gora": col(np.zeros(3 * n_deals), pa.float64()),
        "visty_written": col(np.abs(value), pa.float64()), "visty_received": col(np.zeros(3 * n_deals), pa.float64()),
        "visty": col(value, pa.float64()), "value": col(value, pa.float64()),
    }, schema=PLAYER_DEALS_SCHEMA)

    q = np.repeat(np.arange(n_p), 3)
    res_v = rng.normal(0, 80, 3 * n_p)
    results = pa.table({
        "pulka": pa.array(pulka_ids[q]), "preset": pa.array(_PRESETS[preset[q]]),
        "rules_spec": pa.array(_PRESETS[preset[q]]), "family": pa.array(np.full(3 * n_p, "russian")),
        "date": pa.array((day[q] + base_day).astype("int32"), type=pa.int32()).cast(pa.date32()),
        "n_players": col(np.full(3 * n_p, 3, "int8"), pa.int8()),
        "deals": col(np.full(3 * n_p, DEALS_PER_PULKA, "int16"), pa.int16()),
        "player": pa.array(names[seats[q, np.tile(np.arange(3), n_p)]]),
        "seat": col(np.tile(np.arange(3), n_p).astype("int8"), pa.int8()),
        **{c: col(np.zeros(3 * n_p), pa.float64()) for c in ("pulya", "gora", "visty_written", "visty_received")},
        "visty": col(res_v, pa.float64()), "value_total": col(res_v, pa.float64()),
        "settled": col(np.ones(3 * n_p, bool), pa.bool_()), "exact": col(res_v, pa.float64()),
        "exact_text": pa.array(np.round(res_v).astype(int).astype(str)),
        "method1": col(np.round(res_v).astype("int32"), pa.int32()),
        "method2": col(np.round(res_v).astype("int32"), pa.int32()),
        "money": col(res_v / 2, pa.float64()), "money_text": pa.array(np.round(res_v / 2).astype(int).astype(str)),
        "result": col(res_v, pa.float64()),
    }, schema=PULKA_RESULTS_SCHEMA)
    return {"deals": deals, "player_deals": pds, "pulka_results": results}
