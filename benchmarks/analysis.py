"""The analysis benchmark: ``preflog analyze`` on bot-played pulkas (what the solver's numbers become).

The bots (``preflog.sim``) play Sochi, Leningrad and Rostov pulkas at 3 players and Sochi at 4; each
pulka is analysed whole by :func:`preflog.analysis.analyze_events`, as ``preflog analyze`` and
``analyze --all`` do. Stages (the compiled search when it is built, else the pure-Python one):

* ``play``: the opening-lead value, every card's loss, the claim check and the whist calls, without the
  sheet cost of the mistakes (``Options(cost=False, discard=False)``);
* ``all``: the same with the costs (``analyze --all``'s options);
* ``discard``: with the best discard too (``preflog analyze``'s default);
* ``par``: with the par contract (``--par``), on the first pulkas only.

Each gives the seconds per deal (mean, median, p90, max over the analysed deals of a pulka: a pulka's time
over its deals), deals per second, and the target of issue 15 (a 30-deal pulka in seconds: ≤ 0.5 s a deal).

    python benchmarks/analysis.py                  # ≈ 1 minute on one core (compiled search)
    python benchmarks/analysis.py --quick          # tiny (tests/benchmarks/test_analysis_quick.py)
    python benchmarks/analysis.py --out benchmarks/results-analysis.json
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.output import emit  # noqa: E402
from preflog.analysis import Options  # noqa: E402
from preflog.analysis import analyze_events  # noqa: E402
from preflog.analysis import solver_name  # noqa: E402
from preflog.model.events import Event  # noqa: E402
from preflog.sim import simulate_pulka  # noqa: E402

TABLES = (("sochi", 3), ("leningrad", 3), ("rostov", 3), ("sochi", 4))
TARGET_S_PER_DEAL = 0.5
STAGES: dict[str, Options] = {
    "play": Options(discard=False, par=False, cost=False),
    "all": Options(discard=False, par=False, cost=True),
    "discard": Options(discard=True, par=False, cost=True),
    "par": Options(discard=True, par=True, cost=True),
}


def stage(pulkas: list[tuple[str, list[Event]]], opts: Options) -> dict[str, Any]:
    per_deal: list[float] = []
    deals = analysed = losses = 0
    t0 = time.perf_counter()
    for pid, events in pulkas:
        t = time.perf_counter()
        res = analyze_events(pid, events, options=opts)
        dt = time.perf_counter() - t
        done = [d for d in res.deals if not d.skipped]
        deals += len(res.deals)
        analysed += len(done)
        losses += sum(len(d.losses) for d in done)
        if done:
            per_deal.append(dt / len(done))
    seconds = time.perf_counter() - t0
    ordered = sorted(per_deal) or [0.0]
    return {"pulkas": len(pulkas), "deals": deals, "analysed": analysed, "losses": losses, "seconds": seconds,
            "deals_per_s": analysed / seconds if seconds else 0.0,
            "mean_s_per_deal": statistics.fmean(ordered), "median_s_per_deal": statistics.median(ordered),
            "p90_s_per_deal": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
            "max_s_per_deal": ordered[-1]}


def run(pulkas: int, seed: int, par_pulkas: int) -> dict[str, Any]:
    t = time.perf_counter()
    games = [(f"bench-{k}", simulate_pulka(TABLES[k % len(TABLES)][0], TABLES[k % len(TABLES)][1], seed + k))
             for k in range(pulkas)]
    result: dict[str, Any] = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "solver": solver_name(),
        "input": {"pulkas": pulkas, "seed": seed, "tables": [f"{r}/{p}" for r, p in TABLES],
                  "simulate_s": time.perf_counter() - t},
    }
    for name, opts in STAGES.items():
        result[name] = stage(games[:par_pulkas] if name == "par" else games, opts)
    result["target_s_per_deal"] = TARGET_S_PER_DEAL
    result["target_met"] = result["discard"]["mean_s_per_deal"] <= TARGET_S_PER_DEAL
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pulkas", type=int, default=8, help="bot pulkas to analyse")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--par-pulkas", type=int, default=1, help="pulkas for the par stage")
    ap.add_argument("--quick", action="store_true", help="tiny: 1 pulka, no par")
    ap.add_argument("--out", default=None, help="write the JSON here")
    args = ap.parse_args(argv)
    if args.quick:
        args.pulkas, args.par_pulkas = 1, 0
    result = run(args.pulkas, args.seed, args.par_pulkas)
    emit(result, args.out)
    return result


if __name__ == "__main__":
    main()
