"""The Spark job: audit, projections and reports of a Delta event table on any Spark master.

Needs the ``spark`` extra (``pip install "preflog[spark]"``); this module imports pyspark at the top,
so nothing else in preflog imports it but lazily. The pipeline:

1. :func:`preflog.spark.plan.snapshot` — one version of the event table from its Delta log (the latest,
   ``--table-version`` or ``--as-of``): its live files with their row counts and pulka ranges;
2. the audit, one row per pulka holding every table's rows of that pulka (:mod:`preflog.spark.tables`),
   by one of two plans:

   * ``groups`` — the driver cuts the files into groups that each hold whole pulkas
     (:func:`~preflog.spark.plan.file_groups`), one task per partition of ``spark.range``;
     ``mapInArrow(TaskWorker(tasks))`` has each Python worker read its task's files with pyarrow, audit them
     and return the result rows: no JVM Parquet read, no shuffle;
   * ``shuffle`` — for tables whose pulkas are scattered over the files (or ``--read delta``): Spark reads the
     files and ``groupBy("pulka").applyInArrow(audit_group)`` hands each pulka to a worker;

3. :func:`run` — the packed rows persisted once, then each table exploded and written (Parquet, or Delta
   with the jars) to ``<out>/<table>``, and ``<out>/_preflog.json`` records the version read;
4. :func:`reports` — the players / contracts / variants reports as Spark SQL over ``<out>``'s projections,
   the DuckDB report SQL translated by :mod:`preflog.spark.sql`.

Every failure of a run is one line (:class:`SparkJobError`, exit 2 at the command line): :func:`failures`
turns Spark's errors into a line naming the file, jar or URL.
"""

from __future__ import annotations

import math
import os
import re
import socket
import sys
import traceback
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import replace
from pathlib import Path
from typing import Any
from typing import TypeVar

import pyarrow as pa
from pyspark import SparkConf
from pyspark import SparkContext
from pyspark import StorageLevel
from pyspark.sql import DataFrame
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

from ..analysis.table import REPORT_SQL
from ..analysis.table import SCHEMAS as ANALYSIS_SCHEMAS
from ..analysis.table import TABLES as ANALYSIS_TABLES
from ..analysis.table import BuildResult
from ..analysis.table import finish_report_rows
from ..errors import PreflogError
from ..projections.build import SCHEMAS as PROJECTION_SCHEMAS
from . import PANDAS_NOTE
from .plan import EVENTS_PER_PARTITION
from .plan import Kind
from .plan import Pin
from .plan import Snapshot
from .plan import SparkJobError
from .plan import TaskWorker
from .plan import event_table_path
from .plan import file_groups
from .plan import file_problem_in
from .plan import mixed_versions
from .plan import read_manifest
from .plan import row_group_ranges
from .plan import snapshot
from .plan import task_spec
from .plan import write_manifest
from .sql import REPORTS
from .sql import spark_report_sql
from .storage import WRITTEN_SCHEMA
from .storage import clear
from .storage import is_object_uri
from .storage import keep_only
from .storage import part_writer
from .storage import storage_options
from .tables import ANALYSIS_PACKED_SCHEMA
from .tables import ANALYSIS_SORT_KEYS
from .tables import AUDIT_TABLES
from .tables import EVENT_COLUMNS
from .tables import PACKED_SCHEMA
from .tables import PROJECTION_TABLES
from .tables import SCHEMAS
from .tables import SORT_KEYS
from .tables import TABLES
from .tables import analysis_group
from .tables import audit_group
from .tables import audit_only_group
from .tables import packed_schema

__all__ = ["EVENTS_PER_PARTITION", "FORMATS", "PLANS", "READS", "SparkJobError", "event_table_path", "snapshot"]

FORMATS = ("parquet", "delta")
READS = ("files", "delta")
PLANS = ("auto", "groups", "shuffle")
T = TypeVar("T")
# Our defaults, each applied only where neither spark-submit, spark-defaults.conf nor --conf set it.
DEFAULTS = (("spark.ui.enabled", "false"), ("spark.sql.session.timeZone", "UTC"),
            ("spark.sql.execution.arrow.pyspark.enabled", "true"))


# --- the session -----------------------------------------------------------------------------------------
def check_master(master: str) -> None:
    """A ``spark://`` master must answer on its port before a session waits a minute for it."""
    if not master.startswith("spark://"):
        return
    reasons = []
    for hostport in master[len("spark://"):].split(","):
        host, _, port = hostport.rpartition(":")
        if not host or not port.isdigit():
            raise SparkJobError(f"{master}: not a Spark master URL (expected spark://HOST:PORT)")
        try:
            socket.create_connection((host, int(port)), timeout=5).close()
            return
        except OSError as exc:
            reasons.append(f"{hostport}: {exc.strerror or exc}")
    raise SparkJobError(f"{master}: no Spark master answers ({'; '.join(reasons)})")


def session(master: str | None = None, conf: Iterable[tuple[str, str]] = (), app_name: str = "preflog",
            debug: bool = False) -> SparkSession:
    """A SparkSession. Its master is ``master`` when given; else the one ``spark-submit``,
    ``spark-defaults.conf`` or ``$MASTER`` (``$SPARK_MASTER``) set, and ``local[*]`` only when none did.
    ``conf`` adds settings; our own defaults (:data:`DEFAULTS`) apply only where nothing set them. The Python
    workers run ``$PYSPARK_PYTHON``, by default this interpreter (a virtualenv's preflog is importable in
    local mode). Spark logs errors only, and nothing once the session runs, unless ``debug`` (or
    ``PREFLOG_DEBUG=1``)."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("PYTHONWARNINGS", f"ignore:{PANDAS_NOTE}:FutureWarning")  # the workers, too
    if not debugging(debug):
        quiet_start()
    if master is None and "MASTER" not in os.environ and os.environ.get("SPARK_MASTER"):
        os.environ["MASTER"] = os.environ["SPARK_MASTER"]  # spark-submit reads $MASTER
    if master is not None:
        check_master(master)
    active = SparkSession.getActiveSession()
    if active is None:
        SparkContext._ensure_initialized()  # the JVM, started by spark-submit with its settings and defaults
        settings = SparkConf()
        if master is not None:
            settings.setMaster(master)
        elif not settings.contains("spark.master"):
            settings.setMaster("local[*]")
        check_master(settings.get("spark.master") or "")
        settings.setIfMissing("spark.app.name", app_name)
        for key, value in DEFAULTS:
            settings.setIfMissing(key, value)
        settings.set("spark.ui.showConsoleProgress", "false")  # pyspark's launcher turns the bar on
        for key, value in conf:
            settings.set(key, value)
        spark = SparkSession.builder.config(conf=settings).getOrCreate()
    else:  # inside spark-submit's own session (the entry script) or a caller's
        spark = active
        for key, value in conf:
            spark.conf.set(key, value)
    # Spark's own log of a failed task would surround the one line a failure gives; --debug keeps it
    spark.sparkContext.setLogLevel("ERROR" if debugging(debug) else "OFF")
    return spark


LOG_CONFIG = Path(__file__).with_name("log4j2.properties")
"""The driver's log configuration while its JVM starts: errors only (see the file)."""


def quiet_start() -> None:
    """Have the driver's JVM, when this process starts it, log errors only (:data:`LOG_CONFIG`), instead of
    Spark's default profile and its start-up notes; not where the user chose a
    configuration (``PYSPARK_SUBMIT_ARGS``, or a ``log4j2.properties`` in ``$SPARK_CONF_DIR`` or
    ``$SPARK_HOME/conf``)."""
    if "PYSPARK_SUBMIT_ARGS" in os.environ or SparkContext._gateway is not None:
        return
    for folder in (os.environ.get("SPARK_CONF_DIR"), os.path.join(os.environ.get("SPARK_HOME", ""), "conf")):
        if folder and os.path.exists(os.path.join(folder, "log4j2.properties")):
            return
    os.environ["PYSPARK_SUBMIT_ARGS"] = (f'--driver-java-options "-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()}" '
                                         "pyspark-shell")


@dataclass(frozen=True, slots=True)
class Executors:
    """The executors that ran tasks in this application, and their cores (Spark's own status store)."""

    master: str
    executors: int
    cores: int


def executors(spark: SparkSession) -> Executors:
    """From the application's status store (what the REST API's ``/executors`` shows): the executors that
    completed a task, and their cores (in local mode the one executor is the driver)."""
    sc = spark.sparkContext
    listed = sc._jsc.sc().statusStore().executorList(False)
    n = cores = 0
    for i in range(listed.size()):
        e = listed.apply(i)
        if int(e.completedTasks()) > 0:
            n += 1
            cores += int(e.totalCores())
    return Executors(str(sc.master), n, cores)


def stage_metrics(spark: SparkSession) -> list[dict[str, Any]]:
    """Each completed stage of the application: name, tasks, wall (submission → completion), the tasks' run
    and CPU time, and the bytes read, shuffled and written (Spark's status store, as the REST API's ``/stages``)."""
    sc = spark.sparkContext
    store = sc._jsc.sc().statusStore()
    jvm, gateway = sc._jvm, sc._gateway
    assert jvm is not None and gateway is not None
    # every Scala parameter spelled out (py4j sees no defaults): all statuses, no details, no quantiles
    stages = store.stageList(jvm.java.util.ArrayList(), False, False, gateway.new_array(jvm.double, 0),
                             jvm.java.util.ArrayList())
    out = []
    for i in range(stages.size()):
        s = stages.apply(i)
        sub, done = s.submissionTime(), s.completionTime()
        wall = (done.get().getTime() - sub.get().getTime()) / 1000 if sub.isDefined() and done.isDefined() else None
        out.append({"stage": int(s.stageId()), "name": str(s.name()), "tasks": int(s.numTasks()),
                    "wall_s": wall, "run_s": int(s.executorRunTime()) / 1000,
                    "cpu_s": int(s.executorCpuTime()) / 1e9, "input_bytes": int(s.inputBytes()),
                    "shuffle_read_bytes": int(s.shuffleReadBytes()),
                    "shuffle_write_bytes": int(s.shuffleWriteBytes()), "output_bytes": int(s.outputBytes())})
    return sorted(out, key=lambda r: r["stage"])


# --- failures as one line ----------------------------------------------------------------------------------
_JARS = {"delta": "the Delta Lake jars (delta-spark_2.13 and delta-storage, by spark.jars or spark.jars.packages; "
                  "docs/spark.md)"}
_SCHEME = re.compile(r'No FileSystem for scheme "?([A-Za-z0-9+.-]+)"?')
_READ_FILE = re.compile(r"(?:reading file|File does not exist:?|FileNotFoundException:?|Path does not exist:)\s+"
                        r"(\S+?)[.,]?(?:\s|$)")


def explain(exc: BaseException, master: str | None = None, version: int | None = None) -> str:
    """One line for a failure of a Spark run (a Python, Py4J or Spark error), naming the file, jar or URL."""
    text = f"{type(exc).__name__}: {exc}"
    found = file_problem_in(text)
    pinned = f"version {version}" if version is not None else "the snapshot the job read"
    if found is not None:
        kind, uri, reason = found
        if kind == "gone":
            return (f"{uri}: a file of {pinned} of the event table is gone (a vacuum during the job?): pin a "
                    "version with --table-version, or raise the table's retention "
                    "(delta.deletedFileRetentionDuration)")
        if kind == "denied":
            return (f"{uri}: a worker may not read this file of the event table ({reason}): the workers read "
                    "with the driver's AWS settings (docs/spark.md, \"Object storage without Hadoop jars\")")
        return f"{uri}: unreadable Parquet file ({reason})"
    if "DATA_SOURCE_NOT_FOUND" in text or "Failed to find data source" in text:
        m = re.search(r"data source:?\s*`?([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)", text)
        name = m.group(1) if m else "?"
        return f"the session has no {name!r} data source: it needs {_JARS.get(name, 'its jars')}"
    m = _SCHEME.search(text)
    if m or "S3AFileSystem not found" in text:
        scheme = m.group(1) if m else "s3a"
        jar = "the hadoop-aws jars (S3A)" if scheme.startswith("s3") else f"a Hadoop file system for {scheme}://"
        return f"Spark cannot reach {scheme}:// paths: it needs {jar} on the session (docs/spark.md)"
    if "Could not parse Master URL" in text or "Master must either be yarn" in text:
        return f"{master or '?'}: not a Spark master URL (local[*], spark://HOST:PORT, yarn, k8s://…)"
    if "All masters are unresponsive" in text or "Master removed our application" in text:
        return f"{master or '?'}: the Spark master did not take the application"
    if any(k in text for k in ("FAILED_READ_FILE", "FileNotFoundException", "File does not exist", "PATH_NOT_FOUND")):
        m = _READ_FILE.search(text)
        where = m.group(1) if m else "a file of the event table"
        where = where[len("file:"):] if where.startswith("file:/") else where
        if "FILE_NOT_EXIST" in text or "FileNotFound" in text or "does not exist" in text:
            return (f"{where}: a file of {pinned} of the event table is gone (a vacuum during the job?): pin a "
                    "version with --table-version, or raise the table's retention "
                    "(delta.deletedFileRetentionDuration)")
        return f"{where}: unreadable Parquet file"
    lines = [ln.strip(" :") for ln in text.splitlines() if ln.strip(" :") and not ln.startswith("\tat ")]
    cause = lines[1] if len(lines) > 1 and "An error occurred while calling" in lines[0] else lines[0]
    return f"the Spark job failed: {cause} (--debug for the traceback)"


def debugging(debug: bool = False) -> bool:
    return debug or os.environ.get("PREFLOG_DEBUG", "") not in ("", "0")


@contextmanager
def failures(master: str | None = None, version: int | None = None, debug: bool = False) -> Iterator[None]:
    """Any failure inside becomes a :class:`SparkJobError` of one line (with ``debug`` or ``PREFLOG_DEBUG=1``
    the traceback is printed first); preflog's own errors pass as they are."""
    try:
        yield
    except PreflogError:
        if debugging(debug):
            traceback.print_exc()
        raise
    except Exception as exc:
        if debugging(debug):
            traceback.print_exc()
        raise SparkJobError(explain(exc, master, version)) from None


# --- reading and planning -----------------------------------------------------------------------------
def read_events(spark: SparkSession, source: str, read: str = "files", snap: Snapshot | None = None,
                version: int | None = None, as_of: str | None = None) -> DataFrame:
    """The event rows (columns :data:`~preflog.spark.tables.EVENT_COLUMNS`) of a store or Delta table, read by
    Spark (the shuffle plan): the snapshot's files as Parquet, or ``format("delta")`` with the jars."""
    if read not in READS:
        raise SparkJobError(f"unknown read {read!r} ({' or '.join(READS)})")
    if read == "delta":  # the Delta Lake jars must be on the session (see docs/spark.md)
        reader = spark.read.format("delta")
        if version is not None:
            reader = reader.option("versionAsOf", version)
        elif as_of is not None:
            reader = reader.option("timestampAsOf", as_of)
        return reader.load(event_table_path(source)).select(*EVENT_COLUMNS)
    snap = snap or snapshot(source, version, as_of)
    if not snap.files:
        from ..store.schema import EVENTS_V1

        return spark.createDataFrame([], from_arrow_schema(EVENTS_V1)).select(*EVENT_COLUMNS)
    return spark.read.parquet(*(_spark_uri(u) for u in snap.uris)).select(*EVENT_COLUMNS)


def _spark_uri(uri: str) -> str:
    """A file URI from deltalake as Spark's Hadoop file systems name it (``s3://`` → ``s3a://``)."""
    return "s3a://" + uri[len("s3://"):] if uri.startswith("s3://") else uri


def partitions_for(events: int, spark: SparkSession) -> int:
    """Shuffle partitions for ``events`` rows: ~:data:`EVENTS_PER_PARTITION` each, at least one per core."""
    return max(int(spark.sparkContext.defaultParallelism), math.ceil(events / EVENTS_PER_PARTITION))


def _task_frame(spark: SparkSession, snap: Snapshot, kind: Kind, schema: pa.Schema) -> DataFrame | None:
    """The grouped plan: ``mapInArrow`` of a :class:`~preflog.spark.plan.TaskWorker` over one id per task (one
    partition each); None when the table's pulkas are scattered over its files
    (:func:`~preflog.spark.plan.file_groups`)."""
    slots = int(spark.sparkContext.defaultParallelism)
    tasks = file_groups(snap, slots, EVENTS_PER_PARTITION, footers=lambda uris: row_group_ranges(uris, snap.storage))
    if tasks is None:
        return None
    worker = TaskWorker(tuple(task_spec(t) for t in tasks), kind, tuple(sorted(snap.storage.items())))
    ids = spark.range(0, len(tasks), 1, max(1, len(tasks)))
    return ids.mapInArrow(worker, from_arrow_schema(schema))


def packed_rows(spark: SparkSession, source: str, read: str, plan: str, snap: Snapshot | None,
                partitions: int | None, worker: Callable[..., Any], grouped: Kind,
                schema: pa.Schema, version: int | None = None, as_of: str | None = None
                ) -> tuple[DataFrame, str]:
    """The packed rows of every pulka (``schema``) by the grouped plan where it applies (``plan`` auto or
    groups), else by Spark's read and shuffle; with the plan that ran."""
    if plan not in PLANS:
        raise SparkJobError(f"unknown plan {plan!r} ({', '.join(PLANS)})")
    if read == "files" and plan != "shuffle":
        assert snap is not None
        tasks = _task_frame(spark, snap, grouped, schema)
        if tasks is not None:
            return tasks, "groups"
        if plan == "groups":
            raise SparkJobError(f"{snap.path}: --plan groups, but the table's pulkas are scattered over its files "
                                "(compact it, or use --plan shuffle)")
    events = read_events(spark, source, read, snap, version, as_of)
    if partitions is None:  # the Delta log's row counts; through the jars, a count (Parquet metadata)
        partitions = partitions_for(snap.events if snap is not None else events.count(), spark)
    spark.conf.set("spark.sql.shuffle.partitions", str(partitions))
    # our partition count stands: adaptive execution would merge partitions up to 64 MB (~2 M events)
    spark.conf.set("spark.sql.adaptive.coalescePartitions.enabled", "false")
    return events.groupBy("pulka").applyInArrow(worker, schema=from_arrow_schema(schema)), "shuffle"


def table_frame(packed: DataFrame, table: str, schema: pa.Schema | None = None,
                keys: Sequence[str] | None = None) -> DataFrame:
    """One table's rows out of the packed rows, in the table's column order, sorted within partitions
    (``schema`` and ``keys``: of a table other than the audit's and the projections')."""
    names = (schema or SCHEMAS[table]).names
    return (packed.select(F.explode(table).alias("r")).select(*(F.col(f"r.{n}").alias(n) for n in names))
            .sortWithinPartitions(*(keys or SORT_KEYS[table])))


# --- the runs -------------------------------------------------------------------------------------------
@contextmanager
def step(spark: SparkSession, name: str) -> Iterator[None]:
    """The jobs and stages started inside are named ``name`` (Spark's call site: the status store, the UI)."""
    sc = spark.sparkContext
    sc.setLocalProperty("callSite.short", name)
    sc.setLocalProperty("callSite.long", name)
    try:
        yield
    finally:
        sc.setLocalProperty("callSite.short", None)  # type: ignore[arg-type]
        sc.setLocalProperty("callSite.long", None)  # type: ignore[arg-type]


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise SparkJobError(f"unknown output format {fmt!r} ({' or '.join(FORMATS)})")


def _join(out: str, name: str) -> str:
    return f"{out.rstrip('/')}/{name}" if "://" in out else str(Path(out) / name)


@dataclass(frozen=True, slots=True)
class Output:
    """One table a run writes: its name under OUT (``findings``, ``analysis/deals``, …), schema and sort keys."""

    name: str
    schema: pa.Schema
    keys: tuple[str, ...]
    column: str  # the packed column its rows come from


def write_packed(spark: SparkSession, packed: DataFrame, out: str, outputs: Sequence[Output], fmt: str,
                 storage: dict[str, str], measure: Callable[[dict[str, DataFrame]], T], label: str,
                 small: bool = False) -> tuple[dict[str, str], T]:
    """Write each of ``outputs`` out of the packed rows under ``out``, the rows persisted (memory, spilling to
    disk) so the work runs once — in a stage of its own named ``label`` (Spark's metrics and UI), each write
    in one named ``preflog write TABLE`` — then dropped; ``measure`` runs on the written tables' frames while
    they are still persisted (the summary, the analysis report). ``small``: the tables are small (the audit's:
    a row per finding, player or pulka), written one task per core rather than one per work task (each write
    task has a writer and a commit of its own). Returns table → path, and what ``measure`` gave.

    ``s3://`` locations are written by the Python workers with pyarrow (:mod:`preflog.spark.storage`: no
    Hadoop jars), every other location by Spark's writer (``fmt``)."""
    packed = packed.persist(StorageLevel.MEMORY_AND_DISK)
    paths: dict[str, str] = {}
    try:
        with step(spark, label):
            packed.count()
        rows = packed.coalesce(max(1, int(spark.sparkContext.defaultParallelism))) if small else packed
        frames = {o.name: table_frame(rows, o.column, o.schema, o.keys) for o in outputs}
        for o in outputs:
            path = _join(out, o.name)
            with step(spark, f"preflog write {o.name}"):
                _write_frame(frames[o.name], path, o.schema, fmt, storage)
            paths[o.name] = path
        measured = measure(frames)
    finally:
        packed.unpersist()
    return paths, measured


def _write_frame(frame: DataFrame, path: str, schema: pa.Schema, fmt: str, storage: dict[str, str]) -> None:
    if not is_object_uri(path):
        frame.write.mode("overwrite").format(fmt).save(path)
        return
    if fmt != "parquet":
        raise SparkJobError(f"{path}: --format {fmt} writes through Spark's Hadoop file systems; an s3:// "
                            "OUT is written as Parquet by the workers (or give s3a:// with the jars)")
    clear(path, storage)
    written = frame.mapInArrow(part_writer(path, schema, storage), from_arrow_schema(WRITTEN_SCHEMA)).collect()
    keep_only(path, {str(r["file"]) for r in written}, storage)


def _outputs(tables: Sequence[str]) -> list[Output]:
    return [Output(t, SCHEMAS[t], SORT_KEYS[t], t) for t in tables]


ANALYSIS_OUTPUTS = [Output(f"analysis/{t}", ANALYSIS_SCHEMAS[t], ANALYSIS_SORT_KEYS[t], t) for t in ANALYSIS_TABLES]


def _storage_of(snap: Snapshot | None, out: str) -> dict[str, str]:
    """The object-store settings the workers write ``out`` with: the snapshot's (one source of settings for a
    run), else the driver's environment."""
    if snap is not None and snap.storage:
        return dict(snap.storage)
    return storage_options() if is_object_uri(out) else {}


def run(spark: SparkSession, source: str, out: str, tables: Sequence[str] = TABLES, fmt: str = "parquet",
        read: str = "files", partitions: int | None = None, plan: str = "auto",
        snap: Snapshot | None = None, version: int | None = None, as_of: str | None = None) -> dict[str, str]:
    """Audit (and project) every pulka of ``source`` and write ``tables`` under ``out``; returns table → path.

    The audit runs once (:func:`write_packed`). ``OUT/_preflog.json`` records the table version read for each
    table written.
    """
    return _run(spark, source, out, tables, fmt, read, partitions, plan, snap, version, as_of)[0]


def _run(spark: SparkSession, source: str, out: str, tables: Sequence[str], fmt: str, read: str,
         partitions: int | None, plan: str, snap: Snapshot | None, version: int | None, as_of: str | None
         ) -> tuple[dict[str, str], Summary | None]:
    _check_format(fmt)
    unknown = [t for t in tables if t not in TABLES]
    if unknown:
        raise SparkJobError(f"unknown tables {', '.join(unknown)} (known: {', '.join(TABLES)})")
    if read == "files" and snap is None:
        snap = snapshot(source, version, as_of)
    schema = packed_schema(tables)  # spark audit: no facts or projections in the workers
    whole = schema == PACKED_SCHEMA
    packed, ran = packed_rows(spark, source, read, plan, snap, partitions,
                              audit_group if whole else audit_only_group, Kind.ALL if whole else Kind.AUDIT,
                              schema, version, as_of)
    paths, summed = write_packed(spark, packed, out, _outputs(tables), fmt, _storage_of(snap, out),
                                 lambda frames: totals(frames["audits"]) if "audits" in frames else None,
                                 f"preflog audit ({ran} plan)", small=not whole)
    pin = _record(spark, out, snap, source, version, ran, tables)
    return paths, replace(summed, pin=pin) if summed is not None else None


def _record(spark: SparkSession, out: str, snap: Snapshot | None, source: str, version: int | None, ran: str,
            tables: Sequence[str]) -> Pin:
    if snap is None:  # --read delta: the jars read the table; the version asked (-1: the latest)
        snap = Snapshot(event_table_path(source), -1 if version is None else version, (), 0)
    ex = executors(spark)
    pin = replace(Pin.of(snap), master=ex.master, executors=ex.executors, cores=ex.cores, plan=ran)
    write_manifest(out, pin, tables)
    return pin


@dataclass(frozen=True, slots=True)
class Summary:
    pulkas: int
    events: int
    findings: int
    errors: int
    pin: Pin | None = None


def totals(audits: DataFrame) -> Summary:
    """Totals of the ``audits`` table (one aggregate row comes to the driver)."""
    row = audits.agg(F.count("*").alias("p"), F.sum("events").alias("e"), F.sum("findings").alias("f"),
                     F.count("error").alias("x")).collect()[0]
    return Summary(int(row["p"]), int(row["e"] or 0), int(row["f"] or 0), int(row["x"]))


def parse_conf(items: Sequence[str]) -> list[tuple[str, str]]:
    """``key=value`` texts (``--conf``) as pairs."""
    pairs = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise SparkJobError(f"--conf {item!r}: expected KEY=VALUE (e.g. spark.executor.memory=4g)")
        pairs.append((key.strip(), value.strip()))
    return pairs


def _partitions(pairs: Sequence[tuple[str, str]]) -> int | None:
    given = dict(pairs).get("spark.sql.shuffle.partitions")  # the user's choice wins over ours
    if given is not None and not given.isdigit():
        raise SparkJobError(f"--conf spark.sql.shuffle.partitions={given}: expected a whole number")
    return int(given) if given else None


def run_job(source: str, out: str, *, project: bool, master: str | None = None, conf: Sequence[str] = (),
            fmt: str = "parquet", read: str = "files", plan: str = "auto", version: int | None = None,
            as_of: str | None = None, debug: bool = False) -> Summary:
    """``preflog spark audit|project``: the audit tables (and the projections with ``project``) of ``source``
    written under ``out``; the table is checked before a session starts."""
    with failures(master, version, debug):
        _check_format(fmt)
        pairs = parse_conf(conf)
        partitions = _partitions(pairs)
        snap = snapshot(source, version, as_of) if read == "files" else None
        spark = session(master, pairs, debug=debug)
        tables = TABLES if project else AUDIT_TABLES
        summed = _run(spark, source, out, tables, fmt, read, partitions, plan, snap, version, as_of)[1]
        assert summed is not None  # the audits table is among the tables
        return summed


# --- the reports ----------------------------------------------------------------------------------------
def load_projections(spark: SparkSession, out: str, fmt: str = "parquet") -> None:
    """Register ``<out>``'s projection tables as the temp views ``deals``, ``player_deals``, ``pulka_results``."""
    _check_format(fmt)
    for table in PROJECTION_TABLES:
        path = _join(out, table)
        if "://" not in path and not Path(path).exists():
            raise SparkJobError(f"{path}: no {table} table (run `preflog spark project` first)")
        df = spark.read.format(fmt).load(path)
        want = PROJECTION_SCHEMAS[table].names
        df.select(*want).createOrReplaceTempView(table)


def report(spark: SparkSession, name: str) -> DataFrame:
    """One report (``players``, ``players_by_level``, ``contracts``, ``variants``) over the registered views."""
    return spark.sql(spark_report_sql(name))


def reports(spark: SparkSession, out: str, names: Sequence[str] = REPORTS, fmt: str = "parquet",
            write: bool = True) -> dict[str, DataFrame]:
    """The reports over ``<out>``'s projections; written to ``<out>/reports/<name>`` (one small file each)."""
    load_projections(spark, out, fmt)
    frames = {n: report(spark, n) for n in names}
    if write:
        for n, df in frames.items():
            df.coalesce(1).write.mode("overwrite").format(fmt).save(_join(_join(out, "reports"), n))
    return frames


def run_reports(out: str, *, master: str | None = None, conf: Sequence[str] = (), fmt: str = "parquet",
                debug: bool = False) -> dict[str, str]:
    """``preflog spark report``: every report over ``out``'s projections, written to ``out/reports/<name>``;
    returns report → path. Refuses projections written from two versions of the event table."""
    with failures(master, None, debug):
        _check_format(fmt)
        pairs = parse_conf(conf)
        for table in PROJECTION_TABLES:
            path = _join(out, table)
            if "://" not in path and not Path(path).exists():
                raise SparkJobError(f"{path}: no {table} table (run `preflog spark project` first)")
        records = read_manifest(out)
        mixed = mixed_versions(records, PROJECTION_TABLES)
        if mixed:
            raise SparkJobError(f"{out}: the projections mix two versions of the event table ({mixed}): run "
                                "`preflog spark project` on it again")
        spark = session(master, pairs, debug=debug)
        reports(spark, out, REPORTS, fmt)
        pin = records.get(PROJECTION_TABLES[0])
        if pin is not None:
            ex = executors(spark)
            write_manifest(out, replace(Pin(**pin), master=ex.master, executors=ex.executors, cores=ex.cores),
                           [f"reports/{n}" for n in REPORTS])
        return {n: _join(_join(out, "reports"), n) for n in REPORTS}


# --- the play analysis ------------------------------------------------------------------------------------
def analysis_tables(spark: SparkSession, source: str, out: str, read: str = "files",
                    partitions: int | None = None, plan: str = "auto", snap: Snapshot | None = None,
                    version: int | None = None, as_of: str | None = None
                    ) -> tuple[dict[str, str], tuple[BuildResult, list[dict[str, Any]]]]:
    """``preflog spark analyze``: the double-dummy analysis of every pulka of ``source`` (the function
    ``preflog analyze --all`` runs per pulka, on Spark's workers), its tables written as Parquet under
    ``out/analysis/`` (any location the job writes: :func:`write_packed`), and the per-player report over
    them; returns table → path, and what was analysed (pulkas, deals) with the report rows."""
    if read == "files" and snap is None:
        snap = snapshot(source, version, as_of)
    packed, ran = packed_rows(spark, source, read, plan, snap, partitions, analysis_group, Kind.ANALYSIS,
                              ANALYSIS_PACKED_SCHEMA, version, as_of)
    paths, measured = write_packed(spark, packed, out, ANALYSIS_OUTPUTS, "parquet", _storage_of(snap, out),
                                   lambda frames: analysis_report(spark, frames), f"preflog analyze ({ran} plan)")
    _record(spark, out, snap, source, version, ran, [o.name for o in ANALYSIS_OUTPUTS])
    return {name.split("/", 1)[1]: path for name, path in paths.items()}, measured


def analysis_report(spark: SparkSession, frames: dict[str, DataFrame]) -> tuple[BuildResult, list[dict[str, Any]]]:
    """The report of ``preflog analyze --all`` over the analysis tables a run wrote (their Spark frames, not a
    read-back of OUT): its SQL (:data:`preflog.analysis.table.REPORT_SQL`) run by Spark over the tables as
    views, its rows finished as the single machine finishes them; with the pulkas and deals analysed."""
    for t in ANALYSIS_TABLES:
        frames[f"analysis/{t}"].createOrReplaceTempView(t)
    try:
        rows = [r.asDict() for r in spark.sql(REPORT_SQL).collect()]
    finally:  # the names are the projections' too (deals): leave no analysis view behind
        for t in ANALYSIS_TABLES:
            spark.catalog.dropTempView(t)
    count = frames["analysis/deals"].agg(F.countDistinct("pulka").alias("p"), F.count("*").alias("d")).collect()[0]
    return BuildResult(int(count["p"]), 0, 0, int(count["d"])), finish_report_rows(rows)


def run_analysis(source: str, out: str, *, master: str | None = None, conf: Sequence[str] = (),
                 read: str = "files", plan: str = "auto", version: int | None = None, as_of: str | None = None,
                 debug: bool = False) -> tuple[BuildResult, list[dict[str, Any]]]:
    """``preflog spark analyze``: the analysis tables of ``source`` under ``out/analysis/`` (a folder or
    URI), then the per-player report over them (:func:`analysis_report`), with what the run analysed."""
    with failures(master, version, debug):
        pairs = parse_conf(conf)
        partitions = _partitions(pairs)
        snap = snapshot(source, version, as_of) if read == "files" else None
        spark = session(master, pairs, debug=debug)
        return analysis_tables(spark, source, out, read, partitions, plan, snap, version, as_of)[1]
