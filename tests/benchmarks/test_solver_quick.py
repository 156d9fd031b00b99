"""The solver benchmark's quick mode: every figure is in the JSON, with the right shape (not timed)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOLVE_KEYS = ("deals", "seconds", "solves_per_s", "mean_ms", "median_ms", "p90_ms", "max_ms", "nodes",
              "nodes_per_solve", "declarer_tricks")


def test_quick_run_writes_every_figure(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from benchmarks import solver as bench

    out = tmp_path / "results-solver.json"
    returned = bench.main(["--quick", "--out", str(out)])
    r = json.loads(out.read_text())
    assert r == json.loads(json.dumps(returned))
    assert r["input"]["trick_contracts"] > 0 and r["input"]["pulkas"] == 1
    engines = {"native", "python"} if r["native"] else {"python"}
    for stage in ("full_deal_solve", "misere_solve", "deal_analysis"):
        assert set(r[stage]) == engines, stage
    for engine in engines:
        s = r["full_deal_solve"][engine]
        assert set(SOLVE_KEYS) <= set(s) and s["deals"] > 0 and s["nodes"] > 0
        assert all(math.isfinite(s[k]) and s[k] >= 0 for k in SOLVE_KEYS)
        assert 0 < s["declarer_tricks"] <= 10 * s["deals"]
        a = r["deal_analysis"][engine]
        assert a["deals"] > 0 and a["positions"] == 30 * a["deals"] and a["mean_s_per_deal"] > 0
    # both searches solve the same deals to the same tricks
    if r["native"]:
        n = r["full_deal_solve"]["python"]["deals"]
        assert n == 2 and r["full_deal_solve"]["native"]["deals"] >= n
    size = r["search_size"]
    assert size["deals"] == 2 and size["same_values"] is True
    for name in ("full", "no_table", "no_equivalence", "plain"):
        assert size[name]["nodes"] > 0
    assert size["ratio_plain_to_full"] == size["plain"]["nodes"] / size["full"]["nodes"] > 1
    assert set(r["targets_met"]) == {"full_deal_solve_le_20ms", "full_deal_solve_le_2ms", "deal_analysis_le_0_5s",
                                     "misere_solve_le_2ms_mean", "misere_solve_le_50ms_max"}
    assert r["targets"]["misere_solve_mean_ms"] == 2.0 and r["targets"]["misere_solve_max_ms"] == 50.0
