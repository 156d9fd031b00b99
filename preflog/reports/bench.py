"""Benchmark: the players and contracts reports on synthetic projections of many deals.

    python -m preflog.reports.bench --deals 1000000 [--dir /tmp/bench] [--repeat 3]

Generates ``deals`` (N rows) and ``player_deals`` (3·N rows) and ``pulka_results`` with the
projection schemas (typed small ints, sorted by pulka, zstd, 128 k-row groups), writes them as
a store's projections and times each report (cold = first run, warm = median of repeats) and
the projection refresh after one more pulka is imported, then after it changes (only its
segment is rewritten, see :mod:`preflog.projections.store`).
The numbers are random but shaped like real play (kinds, contracts, roles in proportion).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

from ..model.bids import format_ru_bid
from ..model.outcome import RASPASY, DealOutcome
from ..projections.build import DEALS_SCHEMA, PLAYER_DEALS_SCHEMA, PULKA_RESULTS_SCHEMA
from ..projections.facts import PulkaFacts
from ..projections.store import refresh, write_table
from ..scoring.sheet import DealScore
from . import db, queries

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


def _one_pulka(pid: str) -> PulkaFacts:
    """A tiny real pulka (two raspasy deals) to refresh into the synthetic store."""
    z = ((0, 0, 0),) * 3
    deals = tuple((DealOutcome(d, d - 1, 3, RASPASY, tricks=(2, 3, 5)), DealScore((0, 0, 0), (2, 3, 5), z, ""))
                  for d in (1, 2))
    return PulkaFacts(pid, "sochi", "sochi", ("A", "B", "C"), "2024-01-01", 3, deals, None, pool=10)


def run(n_deals: int = 1_000_000, store_dir: str | None = None, repeat: int = 3) -> dict[str, float]:
    """Write synthetic projections and time the reports; returns seconds per measurement."""
    target = Path(store_dir or tempfile.mkdtemp(prefix="preflog-bench-"))
    t0 = time.perf_counter()
    tables = synthesize(n_deals)
    timings = {"generate": time.perf_counter() - t0}
    t0 = time.perf_counter()
    for name, table in tables.items():
        write_table(target, name, table)
    timings["write"] = time.perf_counter() - t0
    one = _one_pulka("bench-new")
    t0 = time.perf_counter()
    refresh(target, {one.pulka: one})
    timings["refresh_new_pulka"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    refresh(target, {one.pulka: dataclasses.replace(one, deals=one.deals[:1])})
    timings["refresh_changed_pulka"] = time.perf_counter() - t0
    con = db.connect(target)
    reports = {
        "players": lambda: queries.players(con),
        "players_by_level": lambda: queries.players_by_level(con),
        "contracts": lambda: queries.contracts(con),
        "contracts_by_preset_seat": lambda: queries.contracts(con, by=("preset", "contract", "rel_seat")),
        "players_filtered": lambda: queries.players(con, preset="sochi", date_from="2018-01-01"),
        "variants": lambda: queries.variants(con),
    }
    for name, fn in reports.items():
        t0 = time.perf_counter()
        fn()
        timings[f"{name}_cold"] = time.perf_counter() - t0
        warm = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            warm.append(time.perf_counter() - t0)
        timings[f"{name}_warm"] = statistics.median(warm)
    con.close()
    return timings


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    for k, v in run(a.deals, a.dir, a.repeat).items():
        print(f"{k:32s} {v:8.3f} s")


if __name__ == "__main__":
    main()
