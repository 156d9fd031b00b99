"""The Spark job on a standalone cluster against the single-machine audit, in one run (issue 32).

    python benchmarks/spark_cluster.py --deals 200000 [--repeat 2] [--data DIR] [--out FILE]
    python benchmarks/spark_cluster.py --quick            # 2 000 deals, one repeat: what a test or CI runs

On one table of bot-played pulkas (simulated once into ``DIR/<deals>``, default ``/tmp/sparkbench-data``,
and kept there for the next run) it measures, one after the other:

* ``local`` — ``preflog audit --all`` on that store (one process, one core), wall and CPU seconds;
* ``spark-1`` — ``spark audit`` on a standalone cluster (a master and two single-core workers started with
  pyspark's own ``spark-class``, as ``tests/spark/test_spark_cluster.py`` does) with ``spark.cores.max=1``:
  one executor of one core;
* ``spark-2`` — the same with ``spark.cores.max=2``: two executors, one on each worker.

Each Spark run is a fresh driver process (as a user's command is). It reports **start-up** apart — from the
process start to a session whose executors are registered and have run the same job on a table of four
pulkas (the JVMs, the executors, the Python workers with preflog imported) — and then the **work**: the
``spark audit`` job on the big table (the snapshot from the Delta log, the audit, the three tables written,
the summary). For the work it keeps Spark's own metrics: each stage's wall, task run time and JVM CPU time
(the application's status store, what the REST API's ``/stages`` shows), the Python workers' time of the
audit stage (the SQL metrics of ``mapInArrow``: boot, init, total and processing time, data sent/received),
and each executor's tasks and task time. ``uptime``'s load is recorded with every run: the machine is
shared, so wall-clock scaling is noisy, and the task times separate the work from the waiting.

The goals (issue 32): the work on one core ≤ 1.3 × the local audit; the audit stage ≥ 1.8 × faster on two
workers than on one.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from tests.spark.cluster import HOST  # noqa: E402
from tests.spark.cluster import cluster  # noqa: E402

DATA = Path(os.environ.get("PREFLOG_SPARKBENCH_DATA", "/tmp/sparkbench-data"))
TINY_PULKAS = 4  # the start-up table: four pulkas in four commits (one task per core of two workers)
GOAL_ONE_CORE = 1.3
GOAL_SCALING = 1.8


def load() -> list[float]:
    """``uptime``'s load averages (1, 5, 15 minutes)."""
    return [round(x, 2) for x in os.getloadavg()]


# ------------------------------------------------------------------------------------------- the table
def build_store(deals: int, folder: Path) -> dict[str, Any]:
    """The benchmark's store of at least ``deals`` bot-played deals under ``folder/store`` (and the start-up
    table ``folder/tiny``), made once: a later run with the same size finds ``folder/built.json``."""
    marker = folder / "built.json"
    if marker.exists():
        built: dict[str, Any] = json.loads(marker.read_text())
        if built.get("deals_asked") == deals:
            return built
    from benchmarks.run import simulate
    from preflog.importer import IMPORT_CHUNK
    from preflog.workspace import Workspace

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    t = time.perf_counter()
    pulkas, n_deals = simulate(deals, os.cpu_count() or 1)
    simulated = time.perf_counter() - t
    t = time.perf_counter()
    store = Workspace(folder / "store").store(create=True)
    for i in range(0, len(pulkas), IMPORT_CHUNK):  # one commit (one file) per IMPORT_CHUNK pulkas, as import does
        store.append_many([(p, 0, rows) for p, rows in pulkas[i:i + IMPORT_CHUNK]])
    tiny = Workspace(folder / "tiny").store(create=True)
    for p, rows in pulkas[:TINY_PULKAS]:
        tiny.append_many([(p, 0, rows)])
    events = sum(len(rows) for _, rows in pulkas)
    built = {"deals_asked": deals, "deals": n_deals, "pulkas": len(pulkas), "events": events,
             "files": len(store.files()), "simulate_s": round(simulated, 1),
             "store_s": round(time.perf_counter() - t, 1)}
    marker.write_text(json.dumps(built, indent=1) + "\n")
    return built


# ------------------------------------------------------------------------------------- the local audit
def local_audit(store: Path) -> dict[str, Any]:
    """``preflog audit --all`` on ``store`` in a child process: wall and the child's CPU seconds."""
    before = load()
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "preflog", "audit", "--all", "--store", str(store)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "80"})
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        said = proc.stderr.read().decode()[-2000:] if proc.stderr else ""
        raise SystemExit(f"preflog audit --all failed ({code}): {said}")
    return {"wall_s": round(wall, 3), "cpu_s": round(usage.ru_utime + usage.ru_stime, 3), "exit": code,
            "load": before}


_DURATION = re.compile(r"([\d.,]+)\s*(ms|s|m|h|min)\b")
_SIZE = re.compile(r"([\d.,]+)\s*(B|KiB|MiB|GiB|TiB)\b")
_UNITS = {"ms": 1e-3, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0,
          "B": 1, "KiB": 2 ** 10, "MiB": 2 ** 20, "GiB": 2 ** 30, "TiB": 2 ** 40}


def _total(text: str, pattern: re.Pattern[str]) -> float | None:
    """The total of a formatted SQL metric (``"total (min, med, max …)\\n5.2 s (…)"`` or ``"5.2 s"``)."""
    last = text.strip().splitlines()[-1] if text.strip() else ""
    m = pattern.search(last)
    return float(m.group(1).replace(",", "")) * _UNITS[m.group(2)] if m else None


def python_metrics(spark: Any, after: int) -> list[dict[str, Any]]:
    """The Python workers' SQL metrics (``mapInArrow``/``applyInArrow`` nodes) of each SQL execution with an
    id above ``after``: from the session's SQL status store (the REST API's ``/sql``)."""
    store = spark._jsparkSession.sharedState().statusStore()
    execs = store.executionsList()
    out = []
    for i in range(execs.size()):
        e = execs.apply(i)
        eid = int(e.executionId())
        if eid <= after:
            continue
        values: dict[int, str] = {}
        it = store.executionMetrics(eid).iterator()
        while it.hasNext():
            kv = it.next()
            values[int(kv._1())] = str(kv._2())
        metrics = e.metrics()
        row: dict[str, Any] = {"execution": eid, "description": str(e.description())[:60]}
        for j in range(metrics.size()):
            m = metrics.apply(j)
            name, acc = str(m.name()), int(m.accumulatorId())
            if acc not in values:
                continue
            if name.startswith("time ") and "Python" in name:
                row[name] = _total(values[acc], _DURATION)
            elif name.startswith("data ") and "Python" in name:
                row[name] = _total(values[acc], _SIZE)
        if len(row) > 2:
            out.append(row)
    return out


def executor_times(spark: Any) -> list[dict[str, Any]]:
    """Each executor of the application: its tasks and their total time (the status store's ``/executors``)."""
    listed = spark.sparkContext._jsc.sc().statusStore().executorList(False)
    out = []
    for i in range(listed.size()):
        e = listed.apply(i)
        if str(e.id()) == "driver" and int(e.completedTasks()) == 0:
            continue
        out.append({"id": str(e.id()), "cores": int(e.totalCores()), "tasks": int(e.completedTasks()),
                    "task_s": int(e.totalDuration()) / 1000, "gc_s": int(e.totalGCTime()) / 1000})
    return out


def _processes() -> dict[int, tuple[int, str, float, str]]:
    """Every process: pid → (parent, name, CPU seconds with its reaped children, command line)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for d in Path("/proc").glob("[0-9]*"):
        try:
            stat = (d / "stat").read_text()
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # ended meanwhile
        fields = stat.rpartition(")")[2].split()  # state, ppid, … utime (12th) stime cutime cstime (15th)
        out[int(d.name)] = (int(fields[1]), stat[stat.index("(") + 1:stat.rindex(")")],
                            sum(int(f) for f in fields[11:15]) / tick, cmd)
    return out


def cpu_by_side(app_id: str) -> dict[str, float]:
    """CPU seconds so far of this application's processes on this machine, by side and kind: the driver (this
    process and its JVM) and the executors (their JVMs and the Python daemon and workers they started)."""
    procs = _processes()
    children: dict[int, list[int]] = {}
    for pid, (ppid, *_rest) in procs.items():
        children.setdefault(ppid, []).append(pid)

    def tree(roots: list[int]) -> list[int]:
        seen, todo = [], list(roots)
        while todo:
            pid = todo.pop()
            seen.append(pid)
            todo.extend(children.get(pid, []))
        return seen

    executors = [pid for pid, (_, _, _, cmd) in procs.items()
                 if "CoarseGrainedExecutorBackend" in cmd and app_id in cmd]
    out: dict[str, float] = {}
    for side, roots in (("driver", [os.getpid()]), ("executor", executors)):
        for pid in tree(roots):
            kind = "jvm" if procs[pid][1] == "java" else "python"
            out[f"{side}_{kind}"] = out.get(f"{side}_{kind}", 0.0) + procs[pid][2]
    return out


class Sampler:
    """CPU seconds of each executor's processes (its JVM, Python daemon and workers) and of the driver, sampled
    every ``every`` seconds in a thread, to tell a stage's CPU work per executor from its wall."""

    def __init__(self, app_id: str, every: float = 0.25) -> None:
        import threading

        self.app_id, self.every = app_id, every
        self.samples: list[tuple[float, dict[str, float]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append((time.time(), cpu_by_executor(self.app_id)))
            self._stop.wait(self.every)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.samples.append((time.time(), cpu_by_executor(self.app_id)))

    def at(self, when: float) -> dict[str, float]:
        """The CPU seconds of each process group at the last sample before ``when``."""
        before = [c for t, c in self.samples if t <= when]
        return before[-1] if before else self.samples[0][1]

    def between(self, start: float, end: float) -> dict[str, float]:
        a, b = self.at(start), self.at(end + self.every)
        return {k: round(b.get(k, 0.0) - a.get(k, 0.0), 2) for k in sorted(set(a) | set(b))}


def cpu_by_executor(app_id: str) -> dict[str, float]:
    """CPU seconds so far of each executor's process tree (``executor N``: its JVM and Python processes)."""
    procs = _processes()
    children: dict[int, list[int]] = {}
    for pid, (ppid, *_rest) in procs.items():
        children.setdefault(ppid, []).append(pid)
    out: dict[str, float] = {}
    for pid, (_, _, _, cmd) in procs.items():
        if "CoarseGrainedExecutorBackend" in cmd and app_id in cmd:
            m = re.search(r"--executor-id (\S+)", cmd)
            todo, total = [pid], 0.0
            while todo:
                p = todo.pop()
                total += procs[p][2] if p in procs else 0.0
                todo.extend(children.get(p, []))
            out[f"executor {m.group(1) if m else pid}"] = total
    return out


def stage_times(spark: Any, stage: int) -> tuple[float, float]:
    """A stage's submission and completion times (epoch seconds), from the status store's stage list."""
    sc = spark.sparkContext
    jvm, gateway = sc._jvm, sc._gateway
    stages = sc._jsc.sc().statusStore().stageList(jvm.java.util.ArrayList(), False, False,
                                                  gateway.new_array(jvm.double, 0), jvm.java.util.ArrayList())
    for i in range(stages.size()):
        s = stages.apply(i)
        if int(s.stageId()) == stage:
            return s.submissionTime().get().getTime() / 1000, s.completionTime().get().getTime() / 1000
    raise KeyError(stage)


def child(master: str, cores: int, store: str, tiny: str, work: str, t0: float) -> dict[str, Any]:
    """One Spark application: start-up (session, executors, the job on the tiny table), then the work."""
    from preflog.spark import job
    from preflog.spark.plan import snapshot
    from preflog.spark.tables import AUDIT_TABLES

    imported = time.time() - t0
    spark = job.session(master, [("spark.cores.max", str(cores)), ("spark.executor.cores", "1"),
                                 ("spark.executor.memory", "1g"),
                                 ("spark.scheduler.minRegisteredResourcesRatio", "1.0"),
                                 ("spark.scheduler.maxRegisteredResourcesWaitingTime", "120s")])
    started = time.time() - t0
    tiny_paths = job.run(spark, tiny, str(Path(work) / "tiny"), AUDIT_TABLES)
    job.totals(spark.read.parquet(tiny_paths["audits"]))
    startup = time.time() - t0
    stages_before = max((s["stage"] for s in job.stage_metrics(spark)), default=-1)
    sql_before = max((int(spark._jsparkSession.sharedState().statusStore().executionsList().apply(i).executionId())
                      for i in range(spark._jsparkSession.sharedState().statusStore().executionsList().size())),
                     default=-1)
    before = load()
    app_id = spark.sparkContext.applicationId
    cpu0 = cpu_by_side(app_id)
    t = time.perf_counter()
    snap = snapshot(store)
    planned = time.perf_counter() - t
    with Sampler(app_id) as sampler:
        paths = job.run(spark, store, str(Path(work) / "out"), AUDIT_TABLES, snap=snap)
        summary = job.totals(spark.read.parquet(paths["audits"]))  # the audits table read back, as a user would
    work_s = time.perf_counter() - t
    cpu1 = cpu_by_side(app_id)
    cpu = {k: round(cpu1.get(k, 0.0) - cpu0.get(k, 0.0), 2) for k in sorted(set(cpu0) | set(cpu1))}
    stages = [s for s in job.stage_metrics(spark) if s["stage"] > stages_before]
    result = {
        "cores_max": cores, "startup_s": round(startup, 3), "driver_import_s": round(imported, 3),
        "session_s": round(started - imported, 3), "tiny_job_s": round(startup - started, 3),
        "work_s": round(work_s, 3), "plan_s": round(planned, 3), "events": summary.events,
        "pulkas": summary.pulkas, "findings": summary.findings, "files": len(snap.files),
        "events_per_s": round(summary.events / work_s, 1), "load": before, "load_after": load(), "cpu": cpu,
        "cpu_s": round(sum(cpu.values()), 2),
        "stages": stages, "python": python_metrics(spark, sql_before), "executors": executor_times(spark),
    }
    ex = job.executors(spark)
    result["ran_on"] = {"master": ex.master, "executors": ex.executors, "cores": ex.cores}
    result["audit_stage_executors"] = stage_executors(spark, audit_stage(result)["stage"])
    result["audit_stage_cpu"] = sampler.between(*stage_times(spark, audit_stage(result)["stage"]))
    spark.stop()
    return result


def spark_run(master: str, cores: int, store: Path, tiny: Path, work: Path) -> dict[str, Any]:
    """:func:`child` in a fresh process (its own driver JVM), as a user's command runs."""
    out = work / f"result-{cores}-{time.time_ns()}.json"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable,
           "SPARK_LOCAL_IP": HOST}
    t0 = time.time()
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", master, "--cores", str(cores),
                           "--store", str(store), "--tiny", str(tiny), "--work", str(work), "--t0", repr(t0),
                           "--result", str(out)], env=env, capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(f"the Spark run on {cores} core(s) failed:\n{proc.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(out.read_text())
    result["process_s"] = round(time.time() - t0, 3)
    return result


# --------------------------------------------------------------------------------------------- the report
def audit_stage(run: dict[str, Any]) -> dict[str, Any]:
    """The stage that ran the audit (named ``preflog audit …`` by the job; else the one with the most task time)."""
    named = [s for s in run["stages"] if s["name"].startswith("preflog audit")]
    return named[0] if named else max(run["stages"], key=lambda s: s["run_s"])


def stage_executors(spark: Any, stage: int) -> dict[str, dict[str, float]]:
    """Per executor, the tasks and task time it gave one stage (the status store's stage executor summary)."""
    store = spark.sparkContext._jsc.sc().statusStore()
    out = {}
    it = store.executorSummary(stage, 0).iterator()
    while it.hasNext():
        kv = it.next()
        e = kv._2()
        out[str(kv._1())] = {"tasks": int(e.succeededTasks()), "task_s": int(e.taskTime()) / 1000}
    return out


def _best(runs: list[dict[str, Any]], key: str) -> dict[str, Any]:
    return min(runs, key=lambda r: r[key])


def summarise(res: dict[str, Any]) -> dict[str, Any]:
    local = _best(res["local"], "wall_s")
    one, two = _best(res["spark-1"], "work_s"), _best(res["spark-2"], "work_s")
    s1, s2 = audit_stage(one), audit_stage(two)
    one_core = one["work_s"] / local["wall_s"]
    scaling = s1["wall_s"] / s2["wall_s"] if s2["wall_s"] else 0.0
    return {
        "local_wall_s": local["wall_s"], "spark1_work_s": one["work_s"], "spark2_work_s": two["work_s"],
        "work_one_core_vs_local": round(one_core, 3), "goal_one_core": GOAL_ONE_CORE,
        "goal_one_core_met": one_core <= GOAL_ONE_CORE,
        "audit_stage_wall_1_s": s1["wall_s"], "audit_stage_wall_2_s": s2["wall_s"],
        "audit_stage_scaling": round(scaling, 3), "goal_scaling": GOAL_SCALING,
        "goal_scaling_met": scaling >= GOAL_SCALING,
        "job_scaling": round(one["work_s"] / two["work_s"], 3),
        "local_cpu_s": local["cpu_s"], "spark1_work_cpu_s": one["cpu_s"],
        "work_cpu_one_core_vs_local": round(one["cpu_s"] / local["cpu_s"], 3),
        "audit_stage_task_s_1": s1["run_s"], "audit_stage_task_s_2": s2["run_s"],
        # the stage's CPU work: one executor's, against the busier of the two (what the wall would be with a free
        # core for each executor, the balance of the tasks included)
        "audit_stage_cpu_1_s": round(sum(one["audit_stage_cpu"].values()), 2),
        "audit_stage_cpu_2_max_s": max(two["audit_stage_cpu"].values(), default=0.0),
        "audit_stage_cpu_scaling": round(sum(one["audit_stage_cpu"].values())
                                         / max(max(two["audit_stage_cpu"].values(), default=0.0), 1e-9), 3),
    }


def print_run(name: str, r: dict[str, Any]) -> None:
    print(f"{name}: start-up {r['startup_s']:.1f} s (driver import {r['driver_import_s']:.1f}, session + "
          f"executors {r['session_s']:.1f}, first job {r['tiny_job_s']:.1f}); load {r['load'][0]}", flush=True)
    print(f"{name}: work {r['work_s']:.1f} s, {r['events_per_s']:,.0f} events/s after start-up "
          f"(plan {r['plan_s']:.2f} s; {r['ran_on']['executors']} executors, {r['ran_on']['cores']} cores)",
          flush=True)
    per = ", ".join(f"executor {k}: {v['tasks']} tasks {v['task_s']:.1f} s"
                    for k, v in r["audit_stage_executors"].items())
    print(f"  audit stage by executor: {per}", flush=True)
    print("  audit stage CPU by executor (JVM + Python): "
          + ", ".join(f"{k} {v:.1f} s" for k, v in r["audit_stage_cpu"].items()), flush=True)
    print(f"  CPU during the work: {r['cpu_s']:.1f} s (" + ", ".join(f"{k} {v:.1f}" for k, v in r["cpu"].items())
          + ")", flush=True)
    for s in r["stages"]:
        print(f"  stage {s['stage']:3} {s['name'][:28]:28} {s['tasks']:3} tasks  wall {s['wall_s'] or 0:6.2f} s  "
              f"task {s['run_s']:6.2f} s  jvm cpu {s['cpu_s']:6.2f} s", flush=True)
    for p in r["python"]:  # boot and init times stay in the JSON: a reused worker's init includes its idle wait
        run, code = p.get("time to run Python workers"), p.get("time to execute Python code")
        if run:
            print(f"  python workers (sql {p['execution']}): run {run:.1f} s, executing Python code {code or 0:.1f} s, "
                  f"data sent {p.get('data sent to Python workers') or 0:,.0f} B, received "
                  f"{p.get('data returned from Python workers') or 0:,.0f} B", flush=True)


def _each(runs: list[dict[str, Any]], key: str) -> str:
    return ", ".join(f"{r[key]:.1f}" for r in runs)


def _loads(runs: list[dict[str, Any]]) -> str:
    return ", ".join(str(r["load"][0]) for r in runs)


def print_table(res: dict[str, Any]) -> None:
    s = res["summary"]
    ev = res["table"]["events"]
    print("\n| run | start-up | work (each repeat) | events/s | audit stage wall / task | load |")
    print("|---|---|---|---|---|---|")
    print(f"| local `audit --all` | — | {_each(res['local'], 'wall_s')} s | {ev / s['local_wall_s']:,.0f} | — "
          f"| {_loads(res['local'])} |")
    for key, label in (("spark-1", "spark, 1 worker"), ("spark-2", "spark, 2 workers")):
        runs = res[key]
        best = _best(runs, "work_s")
        st = audit_stage(best)
        print(f"| {label} | {_each(runs, 'startup_s')} s | {_each(runs, 'work_s')} s | {best['events_per_s']:,.0f} "
              f"| {st['wall_s']:.1f} / {st['run_s']:.1f} s | {_loads(runs)} |")
    print(f"\nwork on one core / local audit: {s['work_one_core_vs_local']:.2f} (goal ≤ {GOAL_ONE_CORE}: "
          f"{'met' if s['goal_one_core_met'] else 'not met'})")
    print(f"CPU seconds of the work on one core / of the local audit: {s['work_cpu_one_core_vs_local']:.2f}")
    print(f"audit stage CPU, 1 worker / the busier of 2: {s['audit_stage_cpu_scaling']:.2f} (the wall with a free core "
          "for each)")
    print(f"audit stage, 1 worker / 2 workers: {s['audit_stage_scaling']:.2f} (goal ≥ {GOAL_SCALING}: "
          f"{'met' if s['goal_scaling_met'] else 'not met'}); whole work {s['job_scaling']:.2f}")


def run(deals: int, repeat: int, data: Path, out: Path | None) -> dict[str, Any]:
    print(f"table: {deals:,} deals in {data / str(deals)} (load {load()[0]})", flush=True)
    table = build_store(deals, data / str(deals))
    store, tiny = data / str(deals) / "store", data / str(deals) / "tiny"
    print(f"  {table['pulkas']:,} pulkas, {table['deals']:,} deals, {table['events']:,} events in {table['files']} "
          "files", flush=True)
    res: dict[str, Any] = {"table": table, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                           "cpus": os.cpu_count(), "local": [], "spark-1": [], "spark-2": []}
    work = Path(tempfile.mkdtemp(prefix="preflog-spark-cluster-"))
    try:
        with cluster(work) as started:
            master = started.master
            res["master"] = master
            for i in range(repeat):  # interleaved: a burst of the neighbours' load hits every kind alike
                r = local_audit(store)
                res["local"].append(r)
                print(f"local audit --all: {r['wall_s']:.1f} s wall, {r['cpu_s']:.1f} s CPU (load {r['load'][0]})",
                      flush=True)
                for cores in (1, 2):
                    r = spark_run(master, cores, store, tiny, work)
                    res[f"spark-{cores}"].append(r)
                    print_run(f"spark {cores} worker{'s' if cores > 1 else ''} (#{i + 1})", r)
                if out is not None:  # what is measured so far, should a later run fail
                    out.write_text(_portable(res))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    res["summary"] = summarise(res)
    print_table(res)
    if out is not None:
        out.write_text(_portable(res))
        print(f"→ {out}")
    return res


def _portable(res: dict[str, Any]) -> str:
    """The results as JSON, paths inside the checkout written from its root (Spark names a stage by its call
    site, ``collect at /…/preflog/spark/job.py:440``: no machine path goes into a committed file)."""
    return json.dumps(res, indent=1).replace(str(ROOT) + "/", "") + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="2 000 deals, one repeat")
    ap.add_argument("--data", type=Path, default=DATA, help="where the table is made once and kept")
    ap.add_argument("--out", type=Path, default=None, help="results JSON (default: "
                    "benchmarks/results-spark-cluster-<k>.json; none with --quick)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--cores", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--store", help=argparse.SUPPRESS)
    ap.add_argument("--tiny", help=argparse.SUPPRESS)
    ap.add_argument("--work", help=argparse.SUPPRESS)
    ap.add_argument("--t0", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--result", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        Path(a.result).write_text(json.dumps(child(a.child, a.cores, a.store, a.tiny, a.work, a.t0)))
        return
    deals, repeat = (2000, 1) if a.quick else (a.deals, a.repeat)
    out = a.out if a.out is not None or a.quick else \
        ROOT / "benchmarks" / f"results-spark-cluster-{deals // 1000}k.json"
    run(deals, repeat, a.data, out)


if __name__ == "__main__":
    main()
