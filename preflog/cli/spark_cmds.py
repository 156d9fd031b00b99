"""``preflog spark …``: the Spark job's commands (the ``spark`` extra; pyspark is imported only when a
command runs). Imported by :mod:`.app`, whose ``app`` they register on."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated
from typing import Any

import typer

from .app import _fail
from .app import _guard
from .app import _print_json
from .app import _ws
from .app import app
from .app import out
from .app import views

# --- preflog spark: the Spark job (the `spark` extra; pyspark is imported only when a command runs) -----
spark_app = typer.Typer(no_args_is_help=True, help="Audit, projections and reports as a Spark job (docs/spark.md).")
app.add_typer(spark_app, name="spark")
_Master = Annotated[str | None, typer.Option(help="Spark master URL: local[*], spark://host:7077, yarn, k8s://… "
                                             "(default: spark-submit's, spark-defaults.conf's or $MASTER; "
                                             "else local[*])")]
_Conf = Annotated[list[str] | None, typer.Option("--conf", help="Spark setting KEY=VALUE (repeatable; adds to "
                                                 "the cluster's).")]
_SparkOut = Annotated[str, typer.Argument(help="Output folder or URI of the tables.")]
_Debug = Annotated[bool, typer.Option("--debug", help="On a failure, the traceback before the one line "
                                      "(also PREFLOG_DEBUG=1).")]
_TableVersion = Annotated[int | None, typer.Option("--table-version", help="Read this version of the event "
                                                   "table (Delta time travel).")]
_AsOf = Annotated[str | None, typer.Option("--as-of", help="Read the event table as it was at this ISO time "
                                           "(UTC unless it names a zone).")]
class SparkFormat(StrEnum):
    """``spark --format``: how the job writes its tables."""

    parquet = "parquet"
    delta = "delta"


class SparkRead(StrEnum):
    """``spark --read``: how the job reads the Delta event table."""

    files = "files"
    delta = "delta"


class SparkPlan(StrEnum):
    """``spark --plan``: how the job brings each pulka's events to one worker."""

    auto = "auto"
    groups = "groups"
    shuffle = "shuffle"


_SparkFmt = Annotated[SparkFormat, typer.Option("--format", case_sensitive=False,
                                                help="parquet, or delta (needs the Delta Lake jars)")]
_Read = Annotated[SparkRead, typer.Option(case_sensitive=False, help="files: the Delta snapshot's files via "
                                                                     "deltalake; delta: format(delta)")]
_Plan = Annotated[SparkPlan, typer.Option(case_sensitive=False, help="groups: workers read whole-pulka groups "
                                          "of files; shuffle: Spark reads and groups by pulka; auto: groups "
                                          "where the Delta log proves them")]
_Source = Annotated[str | None, typer.Option("--store", help="Store folder, or the Delta event table's path/URI "
                                             "(default: as for every command, $PREFLOG_STORE or ./preflog-store).")]


def _spark_job() -> Any:
    try:
        from ..spark import job
    except ImportError as exc:
        _fail(f"the spark commands need pyspark ({exc.name} is missing): pip install 'preflog[spark]'")
    return job


def _spark_source(store: str | None) -> str:
    return store if store is not None else str(_ws(None).root)


def _spark_run(project: bool, out_dir: str, store: str | None, master: str | None, conf: list[str] | None,
               fmt: str, read: str, plan: str, version: int | None, as_of: str | None, debug: bool) -> None:
    s = _spark_job().run_job(_spark_source(store), out_dir, project=project, master=master, conf=conf or [],
                             fmt=fmt, read=read, plan=plan, version=version, as_of=as_of, debug=debug)
    p = views.plural
    out.print(f"{p(s.pulkas, 'pulka')}, {p(s.events, 'event')}, {p(s.findings, 'finding')}, {s.errors} not projected "
              f"→ {out_dir}",
              markup=False)
    if s.pin is not None:
        out.print(_spark_pin_line(s.pin), markup=False, highlight=False)
    raise typer.Exit(1 if s.findings else 0)


def _spark_pin_line(pin: Any) -> str:
    """What a run read and where it ran: ``TABLE at version V (F files), PLAN plan on MASTER: E executors, C cores``."""
    p = views.plural
    version = f"version {pin.version}" if pin.version >= 0 else "its latest version"
    return (f"{pin.table} at {version} ({p(pin.files, 'file')}), {pin.plan} plan on {pin.master}: "
            f"{p(pin.executors, 'executor')}, {p(pin.cores, 'core')}")


@spark_app.command("audit")
@_guard
def spark_audit(out_dir: _SparkOut, store: _Source = None, master: _Master = None, conf: _Conf = None,
                fmt: _SparkFmt = SparkFormat.parquet, read: _Read = SparkRead.files, plan: _Plan = SparkPlan.auto,
                table_version: _TableVersion = None, as_of: _AsOf = None, debug: _Debug = False) -> None:
    """Findings, settlements and per-pulka audit rows of every stored pulka; exit 1 if any finding, 2 if the
    job could not run."""
    _spark_run(False, out_dir, store, master, conf, fmt, read, plan, table_version, as_of, debug)


@spark_app.command("project")
@_guard
def spark_project(out_dir: _SparkOut, store: _Source = None, master: _Master = None, conf: _Conf = None,
                  fmt: _SparkFmt = SparkFormat.parquet, read: _Read = SparkRead.files,
                  plan: _Plan = SparkPlan.auto, table_version: _TableVersion = None, as_of: _AsOf = None,
                  debug: _Debug = False) -> None:
    """The audit tables and the projections (deals, player_deals, pulka_results); exit 1 if any finding, 2
    if the job could not run."""
    _spark_run(True, out_dir, store, master, conf, fmt, read, plan, table_version, as_of, debug)


@spark_app.command("analyze")
@_guard
def spark_analyze(out_dir: _SparkOut, store: _Source = None, master: _Master = None, conf: _Conf = None,
                  read: _Read = SparkRead.files, plan: _Plan = SparkPlan.auto,
                  table_version: _TableVersion = None, as_of: _AsOf = None, debug: _Debug = False,
                  as_json: Annotated[bool, typer.Option("--json", help="The report as JSON (docs/cli.md).")] = False
                  ) -> None:
    """Double-dummy analysis of every stored pulka on Spark (what analyze --all computes): the deals,
    seats, cards and skill tables under OUT_DIR/analysis/ (a folder or a URI such as s3://), then the report
    per player from those tables."""
    built, rows = _spark_job().run_analysis(_spark_source(store), out_dir, master=master, conf=conf or [],
                                            read=read, plan=plan, version=table_version, as_of=as_of,
                                            debug=debug)
    if as_json:
        from ..views.analysis import analysis_report_json

        _print_json(analysis_report_json(built, rows))
    else:
        out.print(views.analysis_report(built, rows))


@spark_app.command("report")
@_guard
def spark_report(out_dir: _SparkOut, master: _Master = None, conf: _Conf = None,
                 fmt: _SparkFmt = SparkFormat.parquet, debug: _Debug = False) -> None:
    """The players, players_by_level, contracts and variants reports over the projections in OUT_DIR."""
    for name, path in _spark_job().run_reports(out_dir, master=master, conf=conf or [], fmt=fmt,
                                               debug=debug).items():
        out.print(f"{name} → {path}", markup=False)


@spark_app.command("entry-script")
def spark_entry_script() -> None:
    """The path of the script for spark-submit: it takes the arguments of `preflog spark …`
    (spark-submit --master spark://HOST:7077 SCRIPT audit OUT --store DIR)."""
    from . import spark_submit as entry

    out.print(str(Path(entry.__file__).resolve()), markup=False, highlight=False, soft_wrap=True)


