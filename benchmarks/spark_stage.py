"""The Spark stage of ``benchmarks/run.py --spark``: the Spark job on the store the other stages use.

For ``local[1]`` and ``local[2]`` (one and two executor threads, each with its Python worker) it times:

* ``job`` — the whole job as ``preflog spark project`` runs it: read the Delta snapshot's files, shuffle by
  pulka, audit + facts + projections per pulka in the Python workers, write the six tables (Parquet);
* ``shuffle`` — the same read and every row shuffled by pulka into a no-op sink, without the Python
  workers (what Spark costs without Python);
* ``python_io`` — the same ``groupBy("pulka").applyInArrow`` with a worker that returns at once: the
  serialisation of every group to Arrow, the worker round trips and the per-group calls, without the audit.

The session is started and its Python workers warmed (a tiny grouped job) before any clock runs, as on a
cluster where executors are up before a job is submitted; then each measurement runs twice and the second
(warm: the JVM's code compiled, preflog imported in the workers, as through most of a long job) is reported,
the first kept as ``cold_seconds``. ``job − python_io`` is then the audit's own work,
``python_io − shuffle`` the Python hand-off, and ``shuffle`` the JVM side.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import pyarrow as pa


def _empty(events: pa.Table) -> pa.Table:
    return pa.table({"pulka": pa.array([], pa.string())})


def _timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _one(store_root: str, events: int, master: str, out_dir: Path) -> dict[str, Any]:
    from pyspark.sql import SparkSession

    from preflog.spark import job

    active = SparkSession.getActiveSession()
    if active is not None:
        active.stop()
    spark = job.session(master)
    cores = spark.sparkContext.defaultParallelism
    spark.conf.set("spark.sql.shuffle.partitions", str(cores))
    warm = spark.createDataFrame([(str(i % 8), i) for i in range(64)], "pulka string, seq int")
    warm.groupBy("pulka").applyInArrow(_empty, "pulka string").write.format("noop").mode("overwrite").save()
    ev = job.read_events(spark, store_root)
    cold = 0.0
    for _ in range(2):  # the first round is the warm-up (JIT, worker imports); the second is reported
        t_shuffle = _timed(lambda: ev.repartition(cores, "pulka").write.format("noop").mode("overwrite").save())
        t_io = _timed(lambda: ev.groupBy("pulka").applyInArrow(_empty, "pulka string")
                      .write.format("noop").mode("overwrite").save())
        t_job = _timed(lambda: job.run(spark, store_root, str(out_dir), partitions=cores))
        cold = cold or t_job
    spark.stop()
    print(f"  spark {master}: {events / t_job:,.0f} events/s (job {t_job:.1f} s; shuffle only {t_shuffle:.1f} s, "
          f"+ Python hand-off {t_io:.1f} s)", flush=True)
    return {
        "cores": cores, "seconds": round(t_job, 3), "events_per_s": round(events / t_job, 1),
        "cold_seconds": round(cold, 3), "cold_events_per_s": round(events / cold, 1),
        "shuffle_s": round(t_shuffle, 3), "python_io_s": round(t_io, 3),
        "share_shuffle": round(t_shuffle / t_job, 3), "share_python_io": round((t_io - t_shuffle) / t_job, 3),
        "share_audit": round((t_job - t_io) / t_job, 3),
    }


def measure(store_root: str, events: int, masters: tuple[str, ...] = ("local[1]", "local[2]")) -> dict[str, Any]:
    """Events/s of the Spark job and its parts for each master (one session after the other)."""
    work = Path(tempfile.mkdtemp(prefix="preflog-spark-bench-"))
    try:
        return {m: _one(store_root, events, m, work / f"out-{i}") for i, m in enumerate(masters)}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _plan_run(store_root: str, events: int, master: str, out_dir: Path, plans: tuple[str, ...]) -> dict[str, Any]:
    """One session on ``master``: start-up apart, then the audit (``preflog spark audit``'s tables) by each plan
    (twice; the second, warm, reported) with Spark's own stage metrics of that run."""
    from pyspark.sql import SparkSession

    from preflog.spark import job
    from preflog.spark.plan import snapshot
    from preflog.spark.tables import AUDIT_TABLES

    active = SparkSession.getActiveSession()
    if active is not None:
        active.stop()
    t0 = time.perf_counter()
    spark = job.session(master)
    warm = spark.createDataFrame([(str(i % 8), i) for i in range(64)], "pulka string, seq int")
    warm.groupBy("pulka").applyInArrow(_empty, "pulka string").write.format("noop").mode("overwrite").save()
    startup = time.perf_counter() - t0
    snap = snapshot(store_root)
    out: dict[str, Any] = {"startup_s": round(startup, 3)}
    for plan in plans:
        for _ in range(2):
            before = {s["stage"] for s in job.stage_metrics(spark)}
            t = _timed(lambda plan=plan: job.run(spark, store_root, str(out_dir / plan), AUDIT_TABLES,
                                                  plan=plan, snap=snap))
        stages = [s for s in job.stage_metrics(spark) if s["stage"] not in before]
        ex = job.executors(spark)
        out[plan] = {"seconds": round(t, 3), "events_per_s": round(events / t, 1), "stages": stages,
                     "executors": ex.executors, "cores": ex.cores}
        print(f"  spark {master} {plan}: {t:.1f} s after start-up ({events / t:,.0f} events/s)", flush=True)
        for s in stages:
            print(f"    stage {s['stage']} {s['name'][:40]:40} {s['tasks']:3} tasks  wall {s['wall_s'] or 0:6.1f} s"
                  f"  task run {s['run_s']:6.1f} s  cpu {s['cpu_s']:6.1f} s", flush=True)
    spark.stop()
    print(f"  spark {master}: start-up {startup:.1f} s", flush=True)
    return out


def measure_plans(store_root: str, events: int, masters: tuple[str, ...] = ("local[1]", "local[2]"),
                  plans: tuple[str, ...] = ("groups", "shuffle")) -> dict[str, Any]:
    """Start-up, then the audit by each plan, for each master (a ``spark://`` URL runs on that cluster)."""
    work = Path(tempfile.mkdtemp(prefix="preflog-spark-plans-"))
    try:
        return {m: _plan_run(store_root, events, m, work / f"out-{i}", plans) for i, m in enumerate(masters)}
    finally:
        shutil.rmtree(work, ignore_errors=True)
