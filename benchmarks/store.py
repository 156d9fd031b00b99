"""Measure the Delta store on synthetic event logs: bytes/event, bulk append and read rates, one-pulka
reads, verify, compaction and one-deal append latency.

    python benchmarks/store.py [N_EVENTS]          # default 1,000,000

Not a test: numbers depend on the machine; docs/storage.md records a run. ``benchmarks/run.py``
measures the whole pipeline on bot-played pulkas.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from preflog.store.delta import DeltaStore  # noqa: E402
from tests.synthetic import synthetic_pulkas  # noqa: E402


def _parquet_bytes(path: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs
               if f.endswith(".parquet") and "_delta_log" not in d)


def main(n_events: int = 1_000_000) -> None:
    games = list(synthetic_pulkas(n_events))
    rows = [(p, [e.to_row() for e in ev]) for p, ev in games]
    n = sum(len(r) for _, r in rows)
    print(f"{len(games)} pulkas, {n} events")
    with tempfile.TemporaryDirectory() as tmp:
        store = DeltaStore(os.path.join(tmp, "bulk"))
        t = time.perf_counter()
        for i in range(0, len(rows), 500):  # an import of 500 games per commit
            store.append_many([(p, 0, r) for p, r in rows[i:i + 500]])
        dt = time.perf_counter() - t
        size = _parquet_bytes(store.path.as_posix())
        print(f"bulk append: {dt:.2f} s = {n / dt:,.0f} events/s; {size:,} bytes = {size / n:.3f} bytes/event "
              f"in {len(store.files())} files")
        t = time.perf_counter()
        k = sum(len(b) for b in store.read_rows())
        dt = time.perf_counter() - t
        print(f"read_rows all: {dt:.2f} s = {k / dt:,.0f} events/s")
        t = time.perf_counter()
        for p, _ in games[:50]:
            store.read(p)
        print(f"read one pulka (events): {(time.perf_counter() - t) / 50 * 1000:.1f} ms")
        t = time.perf_counter()
        problems = store.verify()
        print(f"verify: {time.perf_counter() - t:.2f} s, {len(problems)} problems")
        t = time.perf_counter()
        store.compact(vacuum_retention_hours=0)
        size = _parquet_bytes(store.path.as_posix())
        print(f"compact: {time.perf_counter() - t:.2f} s; {size / n:.3f} bytes/event in {len(store.files())} files")

        small = DeltaStore(os.path.join(tmp, "small"))
        p, r = rows[0]
        deal = 41
        t = time.perf_counter()
        m = 0
        for j in range(0, 200 * deal, deal):
            chunk = (r * 20)[j:j + deal]
            small.append("live", chunk, m)
            m += len(chunk)
        dt = time.perf_counter() - t
        print(f"one-deal appends: {dt / 200 * 1000:.1f} ms each (200 appends of {deal} events)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
