"""Writer process for the Delta store tests: ``python _worker.py MODE TABLE PULKA ...``.

race N GO: read the last seq, wait for file GO, append N bids tagged with the pid; prints ok/conflict.
loop K TAG: append K bids (value TAG*1000+i) one at a time, retrying on conflict; prints conflicts.
big N: print "ready" and append N card events in one batch.
"""

from __future__ import annotations

import os
import sys
import time

from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.store import ConcurrencyError
from preflog.store import DeltaStore


def main() -> None:
    mode, table, pulka = sys.argv[1:4]
    store = DeltaStore(table)
    if mode == "race":
        n, go = int(sys.argv[4]), sys.argv[5]
        last = store.last_seq(pulka)
        print("ready", flush=True)
        deadline = time.monotonic() + 60  # the test gave up: do not linger
        while not os.path.exists(go):
            if time.monotonic() > deadline:
                sys.exit("no go signal within 60 s")
            time.sleep(0.001)
        try:
            store.append(pulka, [BidMade(0, os.getpid() % 100_000)] * n, last)
            print("ok", flush=True)
        except ConcurrencyError as exc:
            print("conflict", exc.expected, exc.actual, flush=True)
    elif mode == "loop":
        k, tag = int(sys.argv[4]), int(sys.argv[5])
        conflicts = 0
        for i in range(k):
            while True:
                try:
                    store.append(pulka, [BidMade(tag, tag * 1000 + i)], store.last_seq(pulka))
                    break
                except ConcurrencyError:
                    conflicts += 1
        print(conflicts, flush=True)
    elif mode == "big":
        n = int(sys.argv[4])
        rows = [CardPlayed(i % 3, i % 32).to_row() for i in range(n)]
        print("ready", flush=True)
        store.append(pulka, rows, 0)
        print("done", flush=True)


if __name__ == "__main__":
    main()
