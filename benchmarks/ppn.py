"""Reading Portable Preferans Notation against reading our own text record, on the same deals.

Croatian pulkas are simulated, each written both as our canonical text and as PPN; both are read back
in rounds (text, PPN; again), the best of ``rounds`` each, so the ratio compares the two sides over the
same minutes. The PPN side reads the events and what the lines state (the reader's whole work; the
audit is the same for both and is not timed here). The ceiling: PPN at least
:data:`PPN_VS_TEXT_TARGET` of the text rate (issue 40).
"""

from __future__ import annotations

import time
from typing import Any

from preflog.record import read_records
from preflog.record import write_text
from preflog.record.errors import RecordWriteError
from preflog.record.ppn import read_ppn
from preflog.record.ppn import write_ppn
from preflog.sim.pulka import simulate_pulka

PPN_VS_TEXT_TARGET = 0.5


def ppn_read(pulkas: int = 60, rounds: int = 3, seed: int = 40) -> dict[str, Any]:
    """The PPN read rate and the text read rate on the same Croatian deals, and their ratio."""
    texts: list[str] = []
    ppns: list[str] = []
    events = deals = refused = 0
    s = seed
    while len(texts) < pulkas:
        evs = simulate_pulka("croatian", 3, s, pool=30)
        s += 1
        try:
            ppn = write_ppn(evs)
        except RecordWriteError:   # a deal PPN cannot state (docs/ppn.md): not on either side
            refused += 1
            continue
        ppns.append(ppn)
        texts.append(write_text(evs))
        events += len(evs)
        deals += sum(type(e).__name__ == "DealStarted" for e in evs)

    def read_text_all() -> int:
        return sum(len(r.events) for t in texts for r in read_records(t, "bench.pref"))

    def read_ppn_all() -> int:
        return sum(len(r.events) for t in ppns for r in read_ppn(t, "bench.ppn"))

    best = {"text": float("inf"), "ppn": float("inf")}
    for _ in range(rounds):
        for name, fn in (("text", read_text_all), ("ppn", read_ppn_all)):
            t0 = time.perf_counter()
            n = fn()
            best[name] = min(best[name], time.perf_counter() - t0)
            if n != events:
                raise SystemExit(f"{name} read {n} events of {events}")
    text_rate, ppn_rate = events / best["text"], events / best["ppn"]
    ratio = round(ppn_rate / text_rate, 3)
    return {"pulkas": pulkas, "deals": deals, "events": events, "refused_by_writer": refused,
            "text_events_per_s": round(text_rate, 1), "ppn_events_per_s": round(ppn_rate, 1),
            "ppn_vs_text": ratio, "target": PPN_VS_TEXT_TARGET, "target_met": ratio >= PPN_VS_TEXT_TARGET}
