"""The ``preflog`` command line: a thin layer of typer commands over :mod:`preflog.workspace`
and the JSON views of :mod:`preflog.views`.

Every user error (a :class:`~preflog.errors.PreflogError`) is printed as one readable line (file,
line, event, rule) and exits with status 2; ``audit`` exits 1 when it found something. Any other
exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated
from typing import Any
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from ..engine.findings import AuditFailed
from ..errors import PreflogError
from ..projections.facts import facts_of
from ..views.json import audit_json
from ..views.json import sheet_json
from ..workspace import DEFAULT_STORE
from ..workspace import STORE_ENV
from ..workspace import Workspace
from ..workspace import file_errors
from ..workspace import simulate_to
from . import views

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Record, replay, audit and analyse games of preferans.")
stats_app = typer.Typer(no_args_is_help=True, help="Statistical reports over the stored pulkas.")
app.add_typer(stats_app, name="stats")

# Piped output (CI logs, files) gets a wide fixed width instead of rich's 80 columns.
# emoji codes off: a record's text such as ":100:" is printed as written (markup is ours alone: user text
# goes through views.lit or escape)
out = Console(width=None if sys.stdout.isatty() else 160, emoji=False)
err = Console(stderr=True, width=None if sys.stderr.isatty() else 160, emoji=False)

StoreOpt = Annotated[Path | None, typer.Option("--store", envvar=STORE_ENV,
                                               help="Store folder (default ./preflog-store).")]


def _ws(store: Path | None) -> Workspace:
    return Workspace(store)


def _fail(msg: str, code: int = 2) -> NoReturn:
    # one line however long; the message is text, not markup (a record may hold "[bold]")
    err.print(f"[red]error:[/red] {escape(msg)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _guard(fn: Any) -> Any:
    """Turn preflog's errors into one-line messages (never a traceback); anything else is a bug."""
    import functools

    @functools.wraps(fn)
    def wrapper(*a: Any, **kw: Any) -> Any:
        try:
            return fn(*a, **kw)
        except PreflogError as exc:
            _fail(str(exc))
    return wrapper


def _write(path: Path, text: str) -> None:
    """An output file the user named; a failure is one line naming it."""
    with file_errors(path):
        path.write_text(text, encoding="utf-8")


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


@app.command("import")
@_guard
def import_(paths: Annotated[list[str], typer.Argument(help="Record files, folders, or - for stdin.")],
            workers: Annotated[int | None, typer.Option(help="Processes for big imports (default: all cores).")]
            = None,
            store: StoreOpt = None) -> None:
    """Import recorded games; a file with an error imports nothing, the others still do."""
    ws = _ws(store)
    files = sum(1 for p in paths if p != "-" and Path(p).is_dir())
    if files:
        from rich.progress import Progress

        with Progress(console=err, transient=True) as progress:
            task = progress.add_task("importing", total=None)
            items = ws.import_paths(paths, progress=lambda d, t: progress.update(task, completed=d, total=t),
                                    workers=workers)
    else:
        items = ws.import_paths(paths, workers=workers)
    out.print(views.import_table(items))
    if any(i.status == "error" for i in items):
        raise typer.Exit(2)


@app.command("ls")
@_guard
def ls(store: StoreOpt = None) -> None:
    """The stored pulkas."""
    ws = _ws(store)
    out.print(views.pulka_list(ws))


@app.command()
@_guard
def export(pulka: str, fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
           store: StoreOpt = None) -> None:
    """The canonical record of a stored pulka."""
    sys.stdout.write(_ws(store).export(pulka, fmt))


@app.command()
@_guard
def replay(target: Annotated[str, typer.Argument(help="Pulka id or record file.")],
           deal: Annotated[int | None, typer.Option(help="Deal number (default: the last).")] = None,
           trick: Annotated[int | None, typer.Option(help="Tricks completed (default: the end of the deal).")] = None,
           store: StoreOpt = None) -> None:
    """The table at a point of the pulka: hands, auction, trick, score so far."""
    loaded = _ws(store).load(target)[0]
    try:
        view = views.replay_view(loaded, deal, trick)
    except AuditFailed as exc:  # the log breaks a rule before the asked point: say where, by name
        f = exc.finding
        _fail(f"{loaded.id}: deal {f.deal}, event {f.seq}: {f.code}: {f.message}")
    out.print(view)


@app.command("audit")
@_guard
def audit_(target: Annotated[str | None, typer.Argument(help="Pulka id or record file.")] = None,
           all_: Annotated[bool, typer.Option("--all", help="Every stored pulka.")] = False,
           as_json: Annotated[bool, typer.Option("--json")] = False,
           strict: Annotated[bool, typer.Option("--strict", help="Stop at the first finding.")] = False,
           store: StoreOpt = None) -> None:
    """Findings (code, deal, seq, rule) and the recomputed sheet; exit status 1 if any."""
    if target is None and not all_:
        _fail("name a pulka or a record file, or pass --all")
    ws = _ws(store)
    try:
        audited = ws.audit(None if all_ else target, strict=strict)
    except AuditFailed as exc:
        f = exc.finding
        if as_json:
            _print_json({"pulkas": [{"id": target, "findings": [f.as_dict()], "settlement": None}]})
        else:
            err.print(f"deal {f.deal}, event {f.seq}: [bold]{f.code}[/bold]: {escape(f.message)}", highlight=False)
        raise typer.Exit(1) from None
    found = sum(len(a.result.findings) for a in audited)
    if as_json:
        _print_json({"pulkas": [audit_json(a) for a in audited]})
    else:
        for a in audited:
            out.print(views.audit_view(a))
    raise typer.Exit(1 if found else 0)


@app.command()
@_guard
def sheet(target: Annotated[str, typer.Argument(help="Pulka id or record file.")],
          as_json: Annotated[bool, typer.Option("--json")] = False,
          svg: Annotated[Path | None, typer.Option(help="Write the paper sheet as SVG.")] = None,
          html: Annotated[Path | None, typer.Option(help="Write the paper sheet as an HTML page.")] = None,
          store: StoreOpt = None) -> None:
    """Score sheet (running totals) and settlement: exact, method 1, method 2, money."""
    audited = _ws(store).audit(target)
    sheets = [sheet_json(a) for a in audited]
    from ..render.sheet_svg import render_html
    from ..render.sheet_svg import render_svg

    if svg is not None:
        _write(svg, render_svg(sheets[0]))
    if html is not None:
        _write(html, render_html(sheets))
    if as_json:
        _print_json({"pulkas": sheets})
    else:
        for s in sheets:
            out.print(views.sheet_view(s))


@app.command()
@_guard
def verify(store: StoreOpt = None) -> None:
    """Check every pulka's hash chain and sequence numbers; exit 1 on damage."""
    problems = _ws(store).store().verify()
    for p in problems:
        out.print(str(p), highlight=False, markup=False)
    if problems:
        raise typer.Exit(1)
    out.print("store verifies clean")


@app.command()
@_guard
def compact(store: StoreOpt = None) -> None:
    """Merge small files of the event table (safe while others read)."""
    info = _ws(store).store().compact()
    out.print(f"compacted: {info}", markup=False)


def _filters(player: str | None, preset: str | None, date_from: str | None, date_to: str | None,
             pulka: list[str] | None) -> dict[str, Any]:
    return {"player": player, "preset": preset, "date_from": date_from, "date_to": date_to,
            "pulka": pulka or None}


FORMATS = ("table", "csv", "json", "parquet", "markdown")


def _emit(df: Any, fmt: str, output: Path | None, title: str) -> None:
    if fmt not in FORMATS:
        _fail(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    if fmt == "table":
        out.print(views.frame_table(df, title))
        return
    if fmt == "parquet":
        if output is None:
            _fail("--format parquet needs --output FILE")
        with file_errors(output):
            df.to_parquet(output)
        return
    text: str
    if fmt == "csv":
        text = df.to_csv(index=False)
    elif fmt == "json":
        text = df.to_json(orient="records", indent=2)
    else:
        text = views.frame_markdown(df)
    if output is not None:
        _write(output, text)
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _stats(kind: str, store: Path | None, fmt: str, output: Path | None, filters: dict[str, Any]) -> None:
    from .. import reports

    con = _ws(store).connect()
    df = getattr(reports, kind)(con, **filters)
    _emit(df, fmt, output, kind)


_Player = Annotated[str | None, typer.Option(help="Only this player.")]
_Preset = Annotated[str | None, typer.Option(help="Only this rules preset.")]
_From = Annotated[str | None, typer.Option("--from", help="From date (ISO, inclusive).")]
_To = Annotated[str | None, typer.Option("--to", help="To date (ISO, inclusive).")]
_Pulka = Annotated[list[str] | None, typer.Option("--pulka", help="Only these pulkas (repeatable).")]
_Fmt = Annotated[str, typer.Option("--format", help="table, csv, json, parquet or markdown")]
_Out = Annotated[Path | None, typer.Option("--output", "-o", help="Write to a file.")]


@stats_app.command("players")
@_guard
def stats_players(player: _Player = None, preset: _Preset = None, date_from: _From = None, date_to: _To = None,
                  pulka: _Pulka = None, fmt: _Fmt = "table", output: _Out = None, store: StoreOpt = None) -> None:
    """Per player: deals, declarer success by level, whist, miser, raspasy, results."""
    _stats("players", store, fmt, output, _filters(player, preset, date_from, date_to, pulka))


@stats_app.command("contracts")
@_guard
def stats_contracts(player: _Player = None, preset: _Preset = None, date_from: _From = None, date_to: _To = None,
                    pulka: _Pulka = None, fmt: _Fmt = "table", output: _Out = None,
                    store: StoreOpt = None) -> None:
    """Success rate per contract, with sample size and Wilson interval."""
    _stats("contracts", store, fmt, output, _filters(player, preset, date_from, date_to, pulka))


@stats_app.command("variants")
@_guard
def stats_variants(player: _Player = None, preset: _Preset = None, date_from: _From = None, date_to: _To = None,
                   pulka: _Pulka = None, fmt: _Fmt = "table", output: _Out = None,
                   store: StoreOpt = None) -> None:
    """Per preset: raspasy/refe frequency, deals per pulka, spread of results, declarer edge."""
    _stats("variants", store, fmt, output, _filters(player, preset, date_from, date_to, pulka))


@app.command()
@_guard
def compare(target: Annotated[str, typer.Argument(help="Pulka id or record file.")],
            rules: Annotated[list[str], typer.Option("--rules", help="Rules spec to re-score under (repeatable).")],
            fmt: _Fmt = "table", output: _Out = None, store: StoreOpt = None) -> None:
    """The same recorded deals re-scored under other conventions: settlement per player and difference."""
    import pandas as pd

    from ..reports.counterfactual import compare as cf_compare

    audited = _ws(store).audit(target)
    facts = [facts_of(a.loaded.id, a.loaded.events, a.result) for a in audited]
    frames = [cf_compare(facts, spec) for spec in rules]
    _emit(pd.concat(frames, ignore_index=True), fmt, output, "counterfactual")


@app.command()
@_guard
def report(html: Annotated[Path, typer.Option("--html", help="Output HTML file.")],
           store: StoreOpt = None) -> None:
    """One self-contained HTML page with tables and charts."""
    from ..reports.html import write

    con = _ws(store).connect()
    with file_errors(html):
        write(html, con)
    out.print(f"wrote {html}", markup=False)


@app.command()
@_guard
def sql(query: str, fmt: _Fmt = "table", output: _Out = None, store: StoreOpt = None) -> None:
    """SQL over the views events, deals, player_deals, pulka_results."""
    import duckdb

    from ..reports import sql as run_sql

    try:
        df = run_sql(_ws(store).connect(), query)
    except duckdb.Error as exc:
        _fail(f"SQL error: {exc}")
    _emit(df, fmt, output, "sql")


@app.command()
@_guard
def simulate(rules: Annotated[str, typer.Option(help="Rules spec.")] = "sochi",
             pulkas: Annotated[int, typer.Option(help="How many pulkas.")] = 1,
             players: Annotated[int, typer.Option(help="3 or 4.")] = 3,
             pool: Annotated[int, typer.Option(help="Pulya size.")] = 20,
             seed: Annotated[int, typer.Option()] = 1,
             paper: Annotated[bool, typer.Option(help="Drop the cards: paper-level records.")] = False,
             fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
             output: Annotated[Path | None, typer.Option("--output", "-o", help="Folder for record files.")] = None,
             to_store: Annotated[bool, typer.Option("--to-store", help="Append straight into the store.")] = False,
             workers: Annotated[int, typer.Option(help="Processes (0 = all cores).")] = 0,
             store: StoreOpt = None) -> None:
    """Bots play complete pulkas; write records or append them into the store."""
    n = simulate_to(rules=rules, pulkas=pulkas, players=players, pool=pool, seed=seed, paper=paper, fmt=fmt,
                    output=output, workspace=_ws(store) if to_store else None, workers=workers,
                    stdout=sys.stdout)
    err.print(f"simulated {n} pulkas")


@app.command()
@_guard
def demo(data: Annotated[Path | None, typer.Option(
             help="Folder of records to import (default: the data that ships with preflog).")] = None,
         store: StoreOpt = None) -> None:
    """The main job on the shipped data: import, audit, sheets, a short report."""
    from ..shipped import shipped

    if data is None:
        data = shipped("data")
        if data.is_relative_to(Path.cwd()):  # in a checkout: data/demo/…, not the absolute path
            data = data.relative_to(Path.cwd())
    ws = _ws(store)
    out.rule("import")
    items = ws.import_paths([data])
    out.print(views.import_by_file(items))
    out.rule("audit")
    audited = ws.audit(None)
    out.print(views.audit_overview(audited))
    out.rule("sheets of the seed examples")
    for a in audited:
        if a.loaded.id.startswith("seed"):
            out.print(views.sheet_view(sheet_json(a)))
    out.rule("players")
    from .. import reports

    con = ws.connect()
    out.print(views.frame_table(reports.players(con), "players", limit=12))
    out.rule("contracts")
    out.print(views.frame_table(reports.contracts(con), "contracts", limit=20))


# --- preflog spark: the Spark job (the `spark` extra; pyspark is imported only when a command runs) -----
spark_app = typer.Typer(no_args_is_help=True, help="Audit, projections and reports as a Spark job (docs/spark.md).")
app.add_typer(spark_app, name="spark")
_Master = Annotated[str, typer.Option(help="Spark master URL: local[*], spark://host:7077, yarn, k8s://…")]
_Conf = Annotated[list[str] | None, typer.Option("--conf", help="Spark setting KEY=VALUE (repeatable).")]
_SparkOut = Annotated[str, typer.Argument(help="Output folder or URI of the tables.")]
_SparkFmt = Annotated[str, typer.Option("--format", help="parquet, or delta (needs the Delta Lake jars)")]
_Read = Annotated[str, typer.Option(help="files: the Delta snapshot's files via deltalake; delta: format(delta)")]
_Source = Annotated[str | None, typer.Option("--store", envvar=STORE_ENV,
                                             help="Store folder, or the Delta event table's path/URI.")]


def _spark_job() -> Any:
    try:
        from ..spark import job
    except ImportError as exc:
        _fail(f"the spark commands need pyspark ({exc.name} is missing): pip install 'preflog[spark]'")
    return job


def _spark_run(project: bool, out_dir: str, store: str | None, master: str, conf: list[str] | None,
               fmt: str, read: str) -> None:
    s = _spark_job().run_job(store or DEFAULT_STORE, out_dir, project=project, master=master, conf=conf or [],
                             fmt=fmt, read=read)
    out.print(f"{s.pulkas} pulkas, {s.events} events, {s.findings} findings, {s.errors} not projected → {out_dir}",
              markup=False)
    raise typer.Exit(1 if s.findings else 0)


@spark_app.command("audit")
@_guard
def spark_audit(out_dir: _SparkOut, store: _Source = None, master: _Master = "local[*]", conf: _Conf = None,
                fmt: _SparkFmt = "parquet", read: _Read = "files") -> None:
    """Findings, settlements and per-pulka audit rows of every stored pulka; exit 1 if any finding."""
    _spark_run(False, out_dir, store, master, conf, fmt, read)


@spark_app.command("project")
@_guard
def spark_project(out_dir: _SparkOut, store: _Source = None, master: _Master = "local[*]", conf: _Conf = None,
                  fmt: _SparkFmt = "parquet", read: _Read = "files") -> None:
    """The audit tables and the projections (deals, player_deals, pulka_results); exit 1 if any finding."""
    _spark_run(True, out_dir, store, master, conf, fmt, read)


@spark_app.command("report")
@_guard
def spark_report(out_dir: _SparkOut, master: _Master = "local[*]", conf: _Conf = None,
                 fmt: _SparkFmt = "parquet") -> None:
    """The players, players_by_level, contracts and variants reports over the projections in OUT_DIR."""
    for name, path in _spark_job().run_reports(out_dir, master=master, conf=conf or [], fmt=fmt).items():
        out.print(f"{name} → {path}", markup=False)


def main() -> None:
    app()
