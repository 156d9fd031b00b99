"""The benchmark's quick mode on a tiny size: every figure is in the JSON (not a timed test)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the benchmark runs in worker processes

ROOT = Path(__file__).resolve().parents[2]
STAGES = ("simulate", "text_write", "text_parse", "text_parse_pure", "import_full", "store_append", "replay_audit_1",
          "replay_audit_pure", "replay_audit_n", "projection_build")
CEILINGS = {"ceiling_parquet_decode": "rows_per_s", "ceiling_duckdb_tuples": "rows_per_s",
            "ceiling_fold": "events_per_s", "store_read": "rows_per_s"}
RATIOS = ("replay_audit_1_vs_fold", "replay_audit_n_vs_fold_x_cores", "replay_audit_n_speedup",
          "replay_audit_n_efficiency", "store_read_vs_duckdb_tuples", "store_read_vs_parquet_decode",
          "text_parse_vs_fold", "text_parse_vs_target", "text_parse_vs_pure", "text_parse_pure_vs_target",
          "store_append_vs_parquet_decode",
          "bytes_per_event_vs_target", "import_1m_projected_vs_target", "replay_audit_1_vs_parquet_decode",
          "replay_audit_pure_vs_fold", "replay_audit_pure_vs_parquet_decode", "replay_audit_1_vs_pure",
          "replay_audit_n_cold_speedup", "replay_audit_n_cold_efficiency", "replay_audit_n_cpu_efficiency")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict:
    sys.path.insert(0, str(ROOT))  # spawned workers import benchmarks.run by this path too
    from benchmarks import run as bench

    out = tmp_path_factory.mktemp("bench") / "results.json"
    bench.main(["--quick", "--sizes", "300", "--out", str(out), "--workers", "2", "--repeat", "1",
                "--dir", str(out.parent / "work")])
    return json.loads(out.read_text())


def test_every_stage_has_counts_and_rates(results: dict) -> None:
    """300 deals requested: the run covers at least 300 deals, and every stage saw all of them."""
    assert list(results["sizes"]) == ["300"]
    r = results["sizes"]["300"]
    assert r["deals"] >= 300 and r["events"] > r["deals"] * 10  # a played deal has ≥ 30 card events
    for stage in STAGES:
        s = r[stage]
        assert s["deals"] == r["deals"] and s["events"] == r["events"], stage
        for key in ("seconds", "deals_per_s", "events_per_s", "us_per_deal"):
            assert s[key] > 0 and math.isfinite(s[key]), (stage, key)


def test_import_and_audit_agree(results: dict) -> None:
    """Simulated pulkas are legal: the full import stores every pulka with no finding, and both
    replays (1 core, sharded) read every event back with no finding."""
    r = results["sizes"]["300"]
    assert r["import_full"]["statuses"] == {"imported": r["pulkas"], "duplicate": 0, "error": 0}
    assert r["import_full"]["findings"] == 0
    assert r["replay_audit_1"]["findings"] == 0 and r["replay_audit_n"]["findings"] == 0
    assert r["replay_audit_pure"]["findings"] == 0 and r["kernel"]["why"]
    n = r["replay_audit_n"]
    assert n["cores"] == 2 and len(n["worker_ready_s"]) == 2 and sum(n["shard_events"]) == r["events"]
    assert len(n["worker_cpu_s"]) == 2 and all(c > 0 for c in n["worker_cpu_s"] + n["worker_first_pulka_s"])
    # the cold figure is the warm one plus the start-up (spawn, imports, store opened), nothing hidden
    assert n["startup_s"] > 0 and n["cold_seconds"] >= n["seconds"] + n["startup_s"] - 0.001
    assert n["cold_events_per_s"] < n["events_per_s"]
    assert r["store_append"]["commits"] == 1


def test_reports_disk_and_ceilings(results: dict) -> None:
    r = results["sizes"]["300"]
    for name in ("players", "contracts", "variants"):
        rep = r[f"report_{name}"]
        assert rep["cold_s"] > 0 and rep["warm_s"] > 0 and rep["rows"] > 0
    assert 0 < r["bytes_per_event"] < 50
    assert r["disk"]["event_table_bytes"] > 0 and r["disk"]["files"] >= 1
    for key, field in CEILINGS.items():
        assert r[key][field] > 0, key
    assert r["ceiling_parquet_decode"]["rows"] == r["events"] == r["ceiling_duckdb_tuples"]["rows"]
    # Legal play: every card is held and suit followed, except where the fold's shortcut shows: it
    # takes the first card played as the led suit, but a raspasy trick led by a talon card (no
    # card event) may be followed in another suit — a handful of raspasy tricks, never 1 % of events.
    assert r["ceiling_fold"]["problems"] < r["ceiling_fold"]["events"] // 100


def test_ratios_targets_and_growth(results: dict) -> None:
    r = results["sizes"]["300"]
    for key in RATIOS:
        assert math.isfinite(r["ratios"][key]) and r["ratios"][key] > 0, key
    assert set(r["targets_met"]) == {"replay_audit_1_ge_30pct_fold", "replay_audit_1_ge_fold",
                                     "replay_audit_n_near_linear", "text_parse_ge_500k", "bytes_per_event_le_2",
                                     "import_1m_under_2min", "ppn_read_ge_half_text"}
    assert all(isinstance(v, bool) for v in r["targets_met"].values())
    # one size: growth is that size over itself
    for stage in ("text_parse", "import_full", "replay_audit_1"):
        assert results["growth"][stage]["growth"] == 1.0
