"""The long fuzz run of the record readers (the suite keeps a short one: tests/record/test_fuzz.py).

    python benchmarks/fuzz.py [--text 100000] [--json 25000] [--seed 1] [--workers 2] [--out FILE]

Each case is a record of ``docs/record-format.md`` and the data folder's seed examples, mutated by 1-6
random edits (insert noise, delete a span, swap or repeat a line, copy a span; for JSON also
structural edits that put a value of the wrong type anywhere in the document). A case is read, and
what reads is audited and written back. It must end in one of two ways: accepted (and the written
record reads back to the same events), or refused with a located ``RecordError``. Anything else is
counted: a **traceback** (any other exception), a **hang** (over ``--limit`` seconds), a **round-trip
difference**. The run prints the counts (and writes them as JSON with ``--out``); it exits 1 if any
of the three is not zero, printing the first input of each kind.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout: the package and the tests' mutations
    sys.path.insert(0, str(ROOT))

from tests.mutations import mutate  # noqa: E402
from tests.mutations import mutate_json  # noqa: E402
from tests.mutations import picker  # noqa: E402
from tests.mutations import seeds  # noqa: E402


class _Hang(Exception):
    pass


def _alarm(_sig: int, _frame: Any) -> None:
    raise _Hang


def run_chunk(args: tuple[str, int, int, float]) -> dict[str, Any]:
    """``count`` cases of ``kind`` (text / json) from ``seed``: the counts and the first bad inputs."""
    kind, count, seed, limit = args
    from preflog.engine.replay import audit
    from preflog.record import RecordError
    from preflog.record import read_json_records
    from preflog.record import read_records
    from preflog.record import write_json
    from preflog.record import write_text

    rng = random.Random(seed)
    pick = picker(rng)
    base = seeds()
    base_json = [json.loads(write_json(read_records(t, "seed.pref")[0].events)) for t in base]
    signal.signal(signal.SIGALRM, _alarm)
    counts = {"cases": 0, "accepted": 0, "refused": 0, "traceback": 0, "hang": 0, "round_trip": 0}
    first: dict[str, str] = {}
    for _ in range(count):
        counts["cases"] += 1
        n = rng.randint(1, 6)
        if kind == "text":
            case: Any = mutate(pick, rng.choice(base), n)
        elif rng.random() < 0.5:
            case = mutate(pick, json.dumps(rng.choice(base_json), ensure_ascii=False), n)
        else:
            case = mutate_json(rng, json.loads(json.dumps(rng.choice(base_json))), n)
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            recs = read_records(case, "fuzz.pref") if kind == "text" else read_json_records(case, "fuzz.json")
            for r in recs:
                audit(r.events)
            again = read_records(write_text(recs), "again.pref")
            if [r.events for r in again] != [r.events for r in recs]:
                counts["round_trip"] += 1
                first.setdefault("round_trip", repr(case))
            counts["accepted"] += 1
        except RecordError:
            counts["refused"] += 1
        except _Hang:
            counts["hang"] += 1
            first.setdefault("hang", repr(case))
        except Exception as exc:  # noqa: BLE001 - what the run counts
            counts["traceback"] += 1
            first.setdefault("traceback", f"{type(exc).__name__}: {exc}\n{case!r}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return {"counts": counts, "first": first}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--text", type=int, default=100_000)
    ap.add_argument("--json", type=int, default=25_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=float, default=5.0, help="seconds before a case counts as a hang")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    chunk = 2_000
    jobs = [(kind, min(chunk, total - k), a.seed * 1_000_003 + i, a.limit)
            for i, (kind, total) in enumerate((("text", a.text), ("json", a.json)))
            for k in range(0, total, chunk)]
    jobs = [(kind, c, seed + 7919 * j, limit) for j, (kind, c, seed, limit) in enumerate(jobs)]
    t0 = time.perf_counter()
    totals: dict[str, dict[str, int]] = {}
    first: dict[str, str] = {}
    with ProcessPoolExecutor(a.workers, mp_context=get_context("spawn")) as pool:  # no fork of a caller's threads
        for (kind, *_), res in zip(jobs, pool.map(run_chunk, jobs), strict=True):
            t = totals.setdefault(kind, {})
            for k, v in res["counts"].items():
                t[k] = t.get(k, 0) + v
            for k, v in res["first"].items():
                first.setdefault(f"{kind} {k}", v)
    seconds = round(time.perf_counter() - t0, 1)
    for kind, t in totals.items():
        print(f"{kind:5} " + ", ".join(f"{k} {v:,}" for k, v in t.items()))
    print(f"{seconds} s")
    for k, v in first.items():
        print(f"first {k}: {v[:2000]}")
    if a.out:
        Path(a.out).write_text(json.dumps({"totals": totals, "seconds": seconds, "first": first}, indent=1) + "\n",
                               encoding="utf-8")
    bad = sum(t[k] for t in totals.values() for k in ("traceback", "hang", "round_trip"))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
