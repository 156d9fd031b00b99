"""Benchmark: the players and contracts reports on synthetic projections of many deals.

    python benchmarks/reports.py --deals 1000000 [--dir /tmp/bench] [--repeat 3]

Generates ``deals`` (N rows) and ``player_deals`` (3·N rows) and ``pulka_results`` with the
projection schemas (:func:`tests.synthetic.synthesize`: typed small ints, sorted by pulka),
writes them as a store's projections (zstd, 128 k-row groups) and times each report (cold = first
run, warm = median of repeats) and the projection refresh after one more pulka is imported, then
after it changes (only its segment is rewritten, see :mod:`preflog.projections.store`).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from preflog.model.outcome import DealKind  # noqa: E402
from preflog.model.outcome import DealOutcome  # noqa: E402
from preflog.projections.facts import PulkaFacts  # noqa: E402
from preflog.projections.store import refresh  # noqa: E402
from preflog.projections.store import write_table  # noqa: E402
from preflog.reports import db  # noqa: E402
from preflog.reports import queries  # noqa: E402
from preflog.scoring.sheet import DealScore  # noqa: E402
from tests.synthetic import synthesize  # noqa: E402


def _one_pulka(pid: str) -> PulkaFacts:
    """A tiny real pulka (two raspasy deals) to refresh into the synthetic store."""
    z = ((0, 0, 0),) * 3
    deals = tuple((DealOutcome(d, d - 1, 3, DealKind.RASPASY, tricks=(2, 3, 5)), DealScore((0, 0, 0), (2, 3, 5), z, ""))
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
    reports: dict[str, Callable[[], object]] = {
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
