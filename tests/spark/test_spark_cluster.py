"""A Spark standalone cluster on this machine: a master and two single-core workers started with pyspark's
own launcher (``bin/spark-class``), and ``preflog spark audit|project|report|analyze`` submitted to it
from fresh processes, as a user would (docs/spark.md, "A standalone cluster").

Checked: every table equals the single machine's (findings, audit rows and settlements against
``Workspace.audit(None)``, the projections against the workspace's, the reports against DuckDB's to 1e-9, the
analysis report against ``analyze --all``), and the tasks ran on both workers — from the job's own metrics:
the summary line counts the executors that completed tasks in the application's status store, and each
worker's JSON status (its web UI's ``/json/``) lists a finished executor of one of our applications.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest

from preflog import reports as duck_reports
from preflog.projections.store import read_table
from preflog.shipped import shipped
from preflog.sim import simulate_many
from preflog.spark.tables import SORT_KEYS
from preflog.workspace import Workspace
from tests.spark.cluster import HOST
from tests.spark.cluster import cluster as start_cluster
from tests.spark.cluster import status

from .conftest import need_pyspark

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def need_java() -> None:
    """.ci/run sets PREFLOG_REQUIRE_SPARK_CLUSTER=1 where Java is on the machine: then this test cannot skip."""
    need_pyspark()
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        if os.environ.get("PREFLOG_REQUIRE_SPARK_CLUSTER") == "1":
            pytest.fail("PREFLOG_REQUIRE_SPARK_CLUSTER=1 but there is no java")
        pytest.skip("no Java: the standalone cluster cannot start")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, tuple[int, ...]]]:
    """Two single-core workers and their master, started as the cluster benchmark starts its own."""
    need_java()
    with start_cluster(tmp_path_factory.mktemp("cluster"), workers=2, memory="1g") as started:
        yield started.master, started.worker_uis


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    ws = Workspace(tmp_path_factory.mktemp("cluster-store") / "store")
    ws.import_paths([shipped("data") / "examples"], workers=1)
    batch = [(f"sim-{i:03d}", 0, rows) for i, rows in simulate_many(
        [{"rules_spec": "sochi", "players": 3, "pool": 6}, {"rules_spec": "leningrad", "players": 4, "pool": 6}],
        12, 5, workers=1, rows=True)]
    ws.store().append_many(batch)
    ws.rebuild_projections()
    return ws


def submit(master: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable,
           "SPARK_LOCAL_IP": HOST}
    return subprocess.run([sys.executable, "-m", "preflog", "spark", *args, "--master", master,
                           "--conf", "spark.executor.memory=512m",
                           "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
                           "--conf", "spark.scheduler.maxRegisteredResourcesWaitingTime=120s"],
                          capture_output=True, text=True, env=env, timeout=900)


def test_the_commands_on_two_workers_equal_the_single_machine(cluster: tuple[str, tuple[int, ...]], store: Workspace,
                                                              tmp_path: Path) -> None:
    master, worker_uis = cluster
    out = tmp_path / "out"
    proj = submit(master, "project", str(out), "--store", str(store.root))
    assert proj.returncode == 1, proj.stderr[-3000:]       # the seed examples hold findings
    lines = proj.stdout.strip().splitlines()
    assert lines[-1].endswith(f"plan on {master}: 2 executors, 2 cores"), proj.stdout

    audits = {a.loaded.id: a.result for a in store.audit(None)}
    want = Counter((pid, f.deal, f.seq, f.code, f.seat, f.message) for pid, r in audits.items() for f in r.findings)
    got = Counter(tuple(r.values()) for r in pq.read_table(out / "findings").to_pylist())
    assert got == want and sum(want.values()) > 0
    assert {(r["pulka"], r["events"]) for r in pq.read_table(out / "audits").to_pylist()} == {
        (pid, r.events) for pid, r in audits.items()}
    for table in ("deals", "player_deals", "pulka_results"):
        keys = [(k, "ascending") for k in SORT_KEYS[table]]
        local = read_table(store.root, table)
        assert pq.read_table(out / table).cast(local.schema).sort_by(keys).to_pylist() == \
            local.sort_by(keys).to_pylist(), table

    rep = submit(master, "report", str(out))
    assert rep.returncode == 0, rep.stderr[-3000:]
    con = store.connect()
    for name in ("players", "players_by_level", "contracts", "variants"):
        want_df = getattr(duck_reports, name)(con)
        got_df = pd.read_parquet(out / "reports" / name)
        pd.testing.assert_frame_equal(got_df.reset_index(drop=True), want_df.reset_index(drop=True),
                                      check_dtype=False, rtol=1e-9, atol=1e-9)

    ana = submit(master, "analyze", str(tmp_path / "ana"), "--store", str(store.root), "--json")
    assert ana.returncode == 0, ana.stderr[-3000:]
    store.analyze_all(workers=1)
    assert json.loads(ana.stdout)["rows"] == store.analysis_report()

    # each worker ran an executor of our applications (the worker's own status, beside the status store's count)
    for wui in worker_uis:
        finished = status(wui)["finishedexecutors"]
        assert any(e["appid"].startswith("app-") for e in finished), finished


def test_spark_audit_and_spark_submit_on_two_workers_equal_audit_all_json(
        cluster: tuple[str, tuple[int, ...]], store: Workspace, tmp_path: Path) -> None:
    """The issue's first proof: ``preflog spark audit OUT --master spark://…`` and the shipped entry script
    under ``spark-submit --master spark://…`` both run on the two workers, and each one's findings equal
    ``preflog audit --all --json`` finding for finding."""
    master, _ = cluster
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable,
           "SPARK_LOCAL_IP": HOST}
    local = subprocess.run([sys.executable, "-m", "preflog", "audit", "--all", "--json", "--store", str(store.root)],
                           capture_output=True, text=True, env=env, timeout=600)
    assert local.returncode == 1, local.stderr[-3000:]      # the seed examples hold findings
    want = Counter((p["id"], f["deal"], f["seq"], f["code"], f["message"])
                   for p in json.loads(local.stdout)["pulkas"] for f in p["findings"])
    assert sum(want.values()) > 0

    def findings(out: Path) -> Counter[tuple[Any, ...]]:
        return Counter((r["pulka"], r["deal"], r["seq"], r["code"], r["message"])
                       for r in pq.read_table(out / "findings").to_pylist())

    direct = submit(master, "audit", str(tmp_path / "direct"), "--store", str(store.root))
    assert direct.returncode == 1, direct.stderr[-3000:]
    assert direct.stdout.strip().splitlines()[-1].endswith(f"plan on {master}: 2 executors, 2 cores"), direct.stdout
    assert findings(tmp_path / "direct") == want

    import pyspark

    script = subprocess.run([sys.executable, "-m", "preflog", "spark", "entry-script"], capture_output=True,
                            text=True, check=True, env=env).stdout.strip()
    spark_submit = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    proc = subprocess.run([str(spark_submit), "--master", master, "--conf", "spark.executor.memory=512m",
                           "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
                           "--conf", "spark.scheduler.maxRegisteredResourcesWaitingTime=120s",
                           script, "audit", str(tmp_path / "submitted"), "--store", str(store.root)],
                          capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 1, proc.stderr[-3000:]
    ran = [ln for ln in proc.stdout.splitlines() if " plan on " in ln]
    assert ran and ran[-1].endswith(f"plan on {master}: 2 executors, 2 cores"), proc.stdout
    assert findings(tmp_path / "submitted") == want
