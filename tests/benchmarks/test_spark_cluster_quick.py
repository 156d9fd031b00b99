"""The Spark cluster benchmark on its --quick table (2 000 deals): a standalone cluster of two single-core
workers, the local audit and both Spark runs measured, start-up apart from the work, from Spark's own metrics."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

ROOT = Path(__file__).resolve().parents[2]


def need_cluster() -> None:
    """As tests/spark/test_spark_cluster.py: where .ci/run requires the cluster (Java present), no skip."""
    if importlib.util.find_spec("pyspark") is not None and (shutil.which("java") or os.environ.get("JAVA_HOME")):
        return
    if os.environ.get("PREFLOG_REQUIRE_SPARK_CLUSTER") == "1":
        pytest.fail("PREFLOG_REQUIRE_SPARK_CLUSTER=1 but pyspark or java is missing")
    pytest.skip("the spark extra and Java: a standalone cluster cannot start")


def test_quick_run_measures_the_local_audit_and_both_clusters(tmp_path: Path) -> None:
    need_cluster()
    sys.path.insert(0, str(ROOT))
    from benchmarks import spark_cluster as bench

    res = bench.run(2000, 1, tmp_path / "data", tmp_path / "out.json")
    events = res["table"]["events"]
    assert (tmp_path / "data" / "2000" / "built.json").exists()      # the table is made once and kept
    assert res["local"][0]["wall_s"] > 0 and res["local"][0]["exit"] == 0
    for key, executors in (("spark-1", 1), ("spark-2", 2)):
        run = res[key][0]
        assert run["events"] == events and run["startup_s"] > run["driver_import_s"] > 0
        assert run["ran_on"]["executors"] == executors                # from the status store: both workers ran tasks
        stage = bench.audit_stage(run)
        assert stage["name"].startswith("preflog audit") and stage["run_s"] > 0
        assert run["cpu"]["executor_python"] > 0 and run["cpu_s"] > 0
    s = res["summary"]
    assert s["work_one_core_vs_local"] == round(s["spark1_work_s"] / s["local_wall_s"], 3)
    assert (tmp_path / "out.json").exists()
