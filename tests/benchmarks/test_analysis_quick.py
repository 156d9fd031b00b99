"""The analysis benchmark's quick mode: every figure is in the JSON, with the right shape (not timed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEYS = ("pulkas", "deals", "analysed", "losses", "seconds", "deals_per_s", "mean_s_per_deal", "median_s_per_deal",
        "p90_s_per_deal", "max_s_per_deal")


def test_quick_run_writes_every_figure(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from benchmarks import analysis as bench

    out = tmp_path / "results-analysis.json"
    returned = bench.main(["--quick", "--out", str(out)])
    r = json.loads(out.read_text())
    assert r == json.loads(json.dumps(returned))
    assert r["solver"] in ("native", "python") and r["input"]["pulkas"] == 1
    for name in ("play", "all", "discard", "par"):
        assert set(KEYS) <= set(r[name]), name
    assert r["par"]["pulkas"] == 0
    play, cost = r["play"], r["all"]
    assert play["pulkas"] == 1 and 0 < play["analysed"] <= play["deals"]
    assert (play["analysed"], play["losses"]) == (cost["analysed"], cost["losses"])  # the costs change no loss
    assert play["mean_s_per_deal"] > 0 and isinstance(r["target_met"], bool)
