"""How many pulkas the ratings need to order a simulated club of known strength (docs/skill.md).

A club of four bots of known, different strength (``--levels``, strongest first) plays Sochi pulkas at
four (the dealer sits out), each pulka with the players in a random seating. After each pulka the
ratings of :mod:`preflog.analysis.skill_stats` — from the play components and from the raw results, each
by ranking (OpenSkill) and with margins — are updated; at each checkpoint a seed counts as *correct* for
a rating when its mu − 3 sigma orders the four players exactly as their levels do. The curve is the share
of correct seeds at each checkpoint.

    python benchmarks/skill_curve.py --seeds 20 --pulkas 200 [--workers 2] [--json out.json]
        [--cache DIR]   # keep each club's rows; a later run with more pulkas extends them
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from preflog.analysis.skill import split_events
from preflog.analysis.skill_stats import final_ratings
from preflog.analysis.skill_stats import margin_history
from preflog.analysis.skill_stats import rating_history
from preflog.sim import simulate_pulka
from preflog.sim.levels import parse_levels
from preflog.workers import run_ordered

LEVELS = ("dd", "heuristic", "careless:0.3", "careless:0.7")
NAMES = ("P1", "P2", "P3", "P4")
CHECKPOINTS = (5, 10, 25, 50, 100, 150, 200)


def club_pulka(args: tuple[int, int, Sequence[str], str, int]) -> tuple[int, list[dict[str, Any]]]:
    """One pulka of club ``seed``: rows (pulka, player, result, play) of its four players."""
    seed, index, levels, spec, pool = args
    rng = random.Random(seed * 100_003 + index)
    order = list(range(4))
    rng.shuffle(order)
    names = tuple(NAMES[i] for i in order)
    lv = parse_levels([levels[i] for i in order])
    events = simulate_pulka(spec, 4, seed=rng.randrange(1 << 40), pool=pool, levels=lv, names=names)
    split = split_events(f"{index:05d}", events)
    return index, [{"pulka": f"{index:05d}", "player": n, "unit": split.unit, "result": float(res),
                    "cards": float(cards), "play": float(play)} for n, res, cards, play in split.totals()]


def club(seed: int, pulkas: int, levels: Sequence[str] = LEVELS, spec: str = "sochi", pool: int = 10,
         workers: int = 1, cache: str | None = None) -> pd.DataFrame:
    """The per-pulka rows of one simulated club's first ``pulkas`` pulkas (``cache``: a folder that keeps
    them, one CSV a club; pulka ``i`` depends on the seed and ``i`` alone, so a club kept with fewer
    pulkas is extended, not played again)."""
    path = Path(cache) / f"club-{'-'.join(levels)}-{spec}-{pool}-{seed}.csv" if cache else None
    have = pd.read_csv(path, dtype={"pulka": str}) if path is not None and path.exists() else None
    done = int(have["pulka"].astype(int).max()) + 1 if have is not None and not have.empty else 0
    if done >= pulkas and have is not None:
        return have[have["pulka"] < f"{pulkas:05d}"].reset_index(drop=True)
    jobs = ((seed, i, tuple(levels), spec, pool) for i in range(done, pulkas))
    rows = [r for _i, rs in run_ordered(club_pulka, jobs, workers, 2, preload=[__name__]) for r in rs]
    df = pd.DataFrame(rows)
    if have is not None:
        df = pd.concat([have, df], ignore_index=True)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        df.to_csv(tmp, index=False)
        tmp.replace(path)
    return df


RATINGS = {"play": (rating_history, "play"), "raw": (rating_history, "result"),
           "play_margin": (margin_history, "play"), "raw_margin": (margin_history, "result")}


def ordered_right(pp: pd.DataFrame, rating: str) -> bool:
    """Whether ``rating`` (a key of :data:`RATINGS`) orders the players as ``NAMES`` (strongest first, by
    the ordinal mu − 3 sigma)."""
    model, score = RATINGS[rating]
    r = final_ratings(model(pp, score))
    ranked = sorted(r, key=lambda n: -r[n][2])
    return ranked == list(NAMES)


def curve(seeds: int, pulkas: int, levels: Sequence[str] = LEVELS, pool: int = 10, workers: int = 1,
          checkpoints: Sequence[int] = CHECKPOINTS, partial: str | None = None,
          cache: str | None = None, first: int = 0) -> dict[str, Any]:
    """The share of seeds each rating orders correctly at each checkpoint (``partial``: a file the
    result so far is written to after each seed)."""
    points = [c for c in checkpoints if c <= pulkas]
    right = {k: dict.fromkeys(points, 0) for k in RATINGS}
    play_sum: dict[str, float] = dict.fromkeys(NAMES, 0.0)
    t0 = time.perf_counter()
    res: dict[str, Any] = {}
    for s in range(seeds):
        pp = club(first + s, pulkas, levels, pool=pool, workers=workers, cache=cache)
        for name in NAMES:
            play_sum[name] += float(pp[pp["player"] == name]["play"].sum())
        for c in points:
            upto = pp[pp["pulka"] < f"{c:05d}"]
            for k in RATINGS:
                right[k][c] += ordered_right(upto, k)
        done = s + 1
        res = {"levels": list(levels), "seeds": done, "pulkas": pulkas, "pool": pool,
               "seconds": round(time.perf_counter() - t0, 1),
               "play_per_pulka": {n: round(v / (done * pulkas), 2) for n, v in play_sum.items()},
               "share_correct": {k: {str(c): v[c] / done for c in points} for k, v in right.items()}}
        if partial:
            with open(partial, "w", encoding="utf-8") as f:
                f.write(json.dumps(res, indent=1) + "\n")
    return res


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=0, help="the clubs are seeds FIRST … FIRST+SEEDS-1")
    ap.add_argument("--pulkas", type=int, default=200)
    ap.add_argument("--pool", type=int, default=10)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--levels", default=",".join(LEVELS), help="four bot levels, strongest first")
    ap.add_argument("--json", default=None, help="write the result here too")
    ap.add_argument("--cache", default=None, help="keep each club's per-pulka rows in this folder")
    a = ap.parse_args(argv)
    res = curve(a.seeds, a.pulkas, a.levels.split(","), a.pool, a.workers, partial=a.json, cache=a.cache,
                first=a.first_seed)
    text = json.dumps(res, indent=1)
    print(text)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
