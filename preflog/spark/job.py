"""The Spark job: audit, projections and reports of a Delta event table on any Spark master.

Needs the ``spark`` extra (``pip install "preflog[spark]"``); this module imports pyspark at the top,
so nothing else in preflog imports it but lazily. The pipeline:

1. :func:`read_events` — the event table as a DataFrame: the active Parquet files of the table's current
   snapshot as listed by the ``deltalake`` package (plain pyspark, no jars, nothing downloaded), or
   ``format("delta")`` when the user configured the Delta Lake jars (``read="delta"``);
2. :func:`packed_frame` — ``groupBy("pulka").applyInArrow(audit_group)``: each pulka's rows go to a Python
   worker as one Arrow table and come back as one row holding every table's rows of that pulka
   (:mod:`preflog.spark.tables`); nothing is collected to the driver, a task holds one pulka at a time;
3. :func:`run` — the packed rows persisted once, then each table exploded and written (Parquet, or Delta
   with the jars) to ``<out>/<table>``;
4. :func:`reports` — the players / contracts / variants reports as Spark SQL over ``<out>``'s projections,
   the DuckDB report SQL translated by :mod:`preflog.spark.sql`.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pyspark import StorageLevel
from pyspark.sql import DataFrame
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

from ..analysis.table import SCHEMAS as ANALYSIS_SCHEMAS
from ..analysis.table import TABLES as ANALYSIS_TABLES
from ..analysis.table import BuildResult
from ..analysis.table import report_rows_of
from ..errors import PreflogError
from ..projections.build import SCHEMAS as PROJECTION_SCHEMAS
from .sql import REPORTS
from .sql import spark_report_sql
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

# Events per shuffle partition: a task's input is ~10⁵–10⁶ events (a few tens of MB as Arrow).
EVENTS_PER_PARTITION = 250_000
FORMATS = ("parquet", "delta")
READS = ("files", "delta")


class SparkJobError(PreflogError):
    """The Spark job cannot run as asked (no event table, an unknown format, an old table layout)."""


def session(master: str = "local[*]", conf: Iterable[tuple[str, str]] = (), app_name: str = "preflog"
            ) -> SparkSession:
    """A SparkSession on ``master`` with ``conf`` applied. The Python workers run ``$PYSPARK_PYTHON``,
    by default this interpreter (so a virtualenv's preflog is importable in local mode)."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = (SparkSession.builder.master(master).appName(app_name)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true"))
    for key, value in conf:
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def event_table_path(source: str) -> str:
    """The Delta event table of a store folder (``<store>/events``) or a table path/URI as given."""
    if "://" not in source and (Path(source) / "events" / "_delta_log").is_dir():
        return str((Path(source) / "events").resolve())
    if "://" not in source:
        return str(Path(source).resolve())
    return source


def _spark_uri(uri: str) -> str:
    """A file URI from deltalake as Spark's Hadoop file systems name it (``s3://`` → ``s3a://``)."""
    return "s3a://" + uri[len("s3://"):] if uri.startswith("s3://") else uri


@dataclass(frozen=True, slots=True)
class EventSource:
    """The event table's live files (``files`` read) and its size from the Delta log."""

    path: str
    files: tuple[str, ...]
    events: int


def snapshot(source: str) -> EventSource:
    """The current snapshot of the Delta event table, read from its log only (never the data)."""
    from deltalake import DeltaTable

    from ..store.schema import TABLE_SCHEMA_VERSION
    from ..store.schema import VERSION_KEY

    path = event_table_path(source)
    if "://" not in path and not (Path(path) / "_delta_log").is_dir():
        raise SparkJobError(f"{path}: no Delta event table (neither it nor its events/ folder has a _delta_log)")
    try:
        dt = DeltaTable(path)
    except Exception as exc:  # deltalake raises several types for a missing table
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SparkJobError(f"{path}: no Delta event table ({reason})") from None
    version = int(dt.metadata().configuration.get(VERSION_KEY, "0"))
    if version != TABLE_SCHEMA_VERSION:
        raise SparkJobError(f"{path}: event table layout v{version}, the Spark job reads v{TABLE_SCHEMA_VERSION} "
                            "(open it once with preflog on one machine to migrate it)")
    actions = pa.table(dt.get_add_actions(flatten=True))
    events = int(pa.compute.sum(actions.column("num_records")).as_py() or 0) if actions.num_rows else 0
    return EventSource(path, tuple(_spark_uri(u) for u in dt.file_uris()), events)


def read_events(spark: SparkSession, source: str, read: str = "files") -> DataFrame:
    """The event rows (columns :data:`~preflog.spark.tables.EVENT_COLUMNS`) of a store or Delta table."""
    if read not in READS:
        raise SparkJobError(f"unknown read {read!r} ({' or '.join(READS)})")
    if read == "delta":  # the Delta Lake jars must be on the session (see docs/spark.md)
        return spark.read.format("delta").load(event_table_path(source)).select(*EVENT_COLUMNS)
    snap = snapshot(source)
    if not snap.files:
        from ..store.schema import EVENTS_V1

        return spark.createDataFrame([], from_arrow_schema(EVENTS_V1)).select(*EVENT_COLUMNS)
    return spark.read.parquet(*snap.files).select(*EVENT_COLUMNS)


def partitions_for(events: int, spark: SparkSession) -> int:
    """Shuffle partitions for ``events`` rows: ~:data:`EVENTS_PER_PARTITION` each, at least one per core."""
    return max(int(spark.sparkContext.defaultParallelism), math.ceil(events / EVENTS_PER_PARTITION))


def packed_frame(events: DataFrame) -> DataFrame:
    """One row per pulka: its id and every table's rows as ``list<struct>`` columns (the audit's one pass)."""
    return events.groupBy("pulka").applyInArrow(audit_group, schema=from_arrow_schema(PACKED_SCHEMA))


def table_frame(packed: DataFrame, table: str, schema: pa.Schema | None = None,
                keys: Sequence[str] | None = None) -> DataFrame:
    """One table's rows out of the packed rows, in the table's column order, sorted within partitions
    (``schema`` and ``keys``: of a table other than the audit's and the projections')."""
    names = (schema or SCHEMAS[table]).names
    return (packed.select(F.explode(table).alias("r")).select(*(F.col(f"r.{n}").alias(n) for n in names))
            .sortWithinPartitions(*(keys or SORT_KEYS[table])))


def _shuffle(spark: SparkSession, events: DataFrame, source: str, read: str, partitions: int | None) -> None:
    """Shuffle partitions for grouping ``events`` by pulka: ``partitions``, else from the event count."""
    if partitions is None:  # the Delta log's row counts; through the jars, a count (Parquet metadata)
        partitions = partitions_for(snapshot(source).events if read == "files" else events.count(), spark)
    spark.conf.set("spark.sql.shuffle.partitions", str(partitions))
    # our partition count stands: adaptive execution would merge partitions up to 64 MB (~2 M events)
    spark.conf.set("spark.sql.adaptive.coalescePartitions.enabled", "false")


def analysis_tables(spark: SparkSession, source: str, out: str, read: str = "files",
                    partitions: int | None = None) -> dict[str, str]:
    """``preflog spark analyze``: the double-dummy analysis of every pulka of ``source`` (the function
    ``preflog analyze --all`` runs per pulka, on Spark's workers), its ``deals``, ``seats`` and ``cards``
    tables written as Parquet under ``out/analysis/``; returns table → path."""
    events = read_events(spark, source, read)
    _shuffle(spark, events, source, read, partitions)
    packed = (events.groupBy("pulka").applyInArrow(analysis_group, schema=from_arrow_schema(ANALYSIS_PACKED_SCHEMA))
              .persist(StorageLevel.MEMORY_AND_DISK))
    paths: dict[str, str] = {}
    try:
        for table in ANALYSIS_TABLES:
            path = _join(_join(out, "analysis"), table)
            frame = table_frame(packed, table, ANALYSIS_SCHEMAS[table], ANALYSIS_SORT_KEYS[table])
            frame.write.mode("overwrite").parquet(path)
            paths[table] = path
    finally:
        packed.unpersist()
    return paths


def analysis_files(out: str) -> dict[str, list[Path]]:
    """The Parquet files of each analysis table a run wrote under the local folder ``out``."""
    return {t: sorted((Path(out) / "analysis" / t).glob("*.parquet")) for t in ANALYSIS_TABLES}


def run_analysis(source: str, out: str, *, master: str = "local[*]", conf: Sequence[str] = (),
                 read: str = "files") -> tuple[BuildResult, list[dict[str, Any]]]:
    """``preflog spark analyze``: the analysis tables of ``source`` under ``out/analysis/``, then the
    per-player report over them (DuckDB, as ``preflog analyze --all`` reports: the tables are small), with
    what the run analysed (pulkas and deals)."""
    pairs = parse_conf(conf)
    if read == "files":
        snapshot(source)
    if "://" in out:
        raise SparkJobError(f"{out}: spark analyze writes to a local folder (its report reads the tables back)")
    spark = session(master, pairs)
    given = dict(pairs).get("spark.sql.shuffle.partitions")
    if given is not None and not given.isdigit():
        raise SparkJobError(f"--conf spark.sql.shuffle.partitions={given}: expected a whole number")
    analysis_tables(spark, source, out, read, int(given) if given else None)
    files = analysis_files(out)
    deals = pa.concat_tables([pq.read_table(f, columns=["pulka"]) for f in files["deals"]]) if files["deals"] \
        else pa.table({"pulka": pa.array([], pa.string())})
    built = BuildResult(len(pc.unique(deals.column("pulka"))), 0, 0, deals.num_rows)
    return built, report_rows_of(files)


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise SparkJobError(f"unknown output format {fmt!r} ({' or '.join(FORMATS)})")


def run(spark: SparkSession, source: str, out: str, tables: Sequence[str] = TABLES, fmt: str = "parquet",
        read: str = "files", partitions: int | None = None) -> dict[str, str]:
    """Audit (and project) every pulka of ``source`` and write ``tables`` under ``out``; returns table → path.

    The audit runs once: its packed rows are persisted (memory, spilling to disk) while the tables are
    written, then dropped.
    """
    _check_format(fmt)
    unknown = [t for t in tables if t not in TABLES]
    if unknown:
        raise SparkJobError(f"unknown tables {', '.join(unknown)} (known: {', '.join(TABLES)})")
    events = read_events(spark, source, read)
    _shuffle(spark, events, source, read, partitions)
    packed = packed_frame(events).persist(StorageLevel.MEMORY_AND_DISK)
    paths: dict[str, str] = {}
    try:
        for table in tables:
            path = _join(out, table)
            table_frame(packed, table).write.mode("overwrite").format(fmt).save(path)
            paths[table] = path
    finally:
        packed.unpersist()
    return paths


def _join(out: str, name: str) -> str:
    return f"{out.rstrip('/')}/{name}" if "://" in out else str(Path(out) / name)


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


@dataclass(frozen=True, slots=True)
class Summary:
    pulkas: int
    events: int
    findings: int
    errors: int


def summary(spark: SparkSession, out: str, fmt: str = "parquet") -> Summary:
    """Totals of a written ``audits`` table (one aggregate row comes to the driver)."""
    row = (spark.read.format(fmt).load(_join(out, "audits"))
           .agg(F.count("*").alias("p"), F.sum("events").alias("e"), F.sum("findings").alias("f"),
                F.count("error").alias("x")).collect()[0])
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


def run_job(source: str, out: str, *, project: bool, master: str = "local[*]", conf: Sequence[str] = (),
            fmt: str = "parquet", read: str = "files") -> Summary:
    """``preflog spark audit|project``: the audit tables (and the projections with ``project``) of ``source``
    written under ``out``; the table is checked before a session starts."""
    _check_format(fmt)
    pairs = parse_conf(conf)
    if read == "files":
        snapshot(source)
    spark = session(master, pairs)
    given = dict(pairs).get("spark.sql.shuffle.partitions")  # the user's choice wins over ours
    if given is not None and not given.isdigit():
        raise SparkJobError(f"--conf spark.sql.shuffle.partitions={given}: expected a whole number")
    run(spark, source, out, TABLES if project else AUDIT_TABLES, fmt, read, int(given) if given else None)
    return summary(spark, out, fmt)


def run_reports(out: str, *, master: str = "local[*]", conf: Sequence[str] = (), fmt: str = "parquet"
                ) -> dict[str, str]:
    """``preflog spark report``: every report over ``out``'s projections, written to ``out/reports/<name>``;
    returns report → path."""
    _check_format(fmt)
    pairs = parse_conf(conf)
    for table in PROJECTION_TABLES:
        path = _join(out, table)
        if "://" not in path and not Path(path).exists():
            raise SparkJobError(f"{path}: no {table} table (run `preflog spark project` first)")
    spark = session(master, pairs)
    reports(spark, out, REPORTS, fmt)
    return {n: _join(_join(out, "reports"), n) for n in REPORTS}
