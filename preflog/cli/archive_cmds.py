"""The commands that ask the stored pulkas questions: ``ls``, ``stats``, ``compare``, ``report`` and ``sql``.

Argument parsing and rendering over :mod:`preflog.application` (the list, the filter, the reports); the
helpers every command shares are :mod:`.app`'s. Imported by :mod:`.app`, whose ``app`` they register on.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Annotated
from typing import Any

import typer
from rich.console import Console

from ..errors import FileError
from ..templates.i18n import speaking
from .app import LangOpt
from .app import StoreOpt
from .app import TableFormat
from .app import _fail
from .app import _guard
from .app import _language
from .app import _one_line
from .app import _print_json
from .app import _watching
from .app import _write
from .app import _wrote
from .app import _ws
from .app import app
from .app import err
from .app import facts_of
from .app import file_errors
from .app import out
from .app import stats_app
from .app import views

if TYPE_CHECKING:
    from ..application import Archive
    from ..application import PulkaFilter
    from ..workspace import Workspace


@app.command("ls")
@_guard
def ls(as_json: Annotated[bool, typer.Option("--json", help="As JSON (docs/cli.md).")] = False,
       player: _Player = None, preset: _Preset = None, date_from: _From = None, date_to: _To = None,
       store: StoreOpt = None) -> None:
    """The stored pulkas: rules, date, deals, players, events."""
    from ..application import Archive

    ws = _ws(store)
    ws.store()  # "no preflog store at …" before anything is drawn
    archive = Archive(ws)
    filters = _filters(player, preset, date_from, date_to, None)
    with _watching(ws, as_json):  # the projections may be rebuilt first
        found = archive.find(filters)
    if filters.active and not found:
        _explain_dates(archive)
    if as_json:
        from ..views.json import ls_json

        _print_json(ls_json(str(ws.root), [s.as_json() for s in found]))
    else:
        out.print(views.pulka_list(str(ws.root), found, out.width))


@app.command("ledger")
@_guard
def ledger(as_json: Annotated[bool, typer.Option("--json", help="As JSON (docs/cli.md).")] = False,
           store: StoreOpt = None) -> None:
    """The import ledger: per import, the deals clean, with findings (by code) and the files refused."""
    from ..application import Archive

    ws = _ws(store)
    entries, total = Archive(ws).ledger()
    if as_json:
        from ..views.json import ledger_json

        _print_json(ledger_json(str(ws.root), entries, total))
    else:
        out.print(views.ledger_table(str(ws.root), entries, total))


def _filters(player: str | None, preset: str | None, date_from: str | None, date_to: str | None,
             pulka: list[str] | None) -> PulkaFilter:
    from ..application import PulkaFilter

    return PulkaFilter(player, preset, _date(date_from, "--from"), _date(date_to, "--to"), tuple(pulka or ()))


def _date(text: str | None, flag: str) -> str | None:
    """A filter date as ISO text: ``2024-05-17`` or the record's own ``2024.05.17`` (or ``2024/05/17``)."""
    import datetime as dt

    from ..projections.facts import date_iso

    if text is None:
        return None
    iso = date_iso(text)
    try:
        if iso is None or len(text.strip()) > 10:
            raise ValueError
        dt.date.fromisoformat(iso)
    except ValueError:
        _fail(f"{flag} {text!r} is not a date (YYYY-MM-DD, or YYYY.MM.DD as records write it)")
    return iso


def _connect(store: Path | None, sandbox: bool = False, as_json: bool = False) -> Any:
    """The reports' DuckDB connection; a folder holding neither events nor projections is refused by name
    (a mistyped ``--store`` would otherwise report on nothing). ``sandbox``: the views only, no file access."""
    ws = _ws(store)
    if not ws.projected():
        ws.store()  # raises "no preflog store at …" when there are no events either
    with _watching(ws, as_json):  # the projections may be rebuilt first
        return ws.connect(sandbox=sandbox)


def _explain_dates(archive: Archive) -> None:
    """Filters that matched nothing once their names were found (:meth:`Archive.resolve` refuses a name the
    store does not hold): dates outside the stored ones, a valid question with an empty answer, said on
    stderr."""
    span = archive.dates()
    err.print(views.lit("no pulka in the dates asked (the stored pulkas' dates: "
                        f"{f'{span[0]} to {span[1]}' if span else 'no pulka has a date'})"), soft_wrap=True)


FORMATS = ("table", "csv", "json", "parquet", "markdown")


def _emit(df: Any, fmt: str, output: Path | None, title: str) -> None:
    if fmt not in FORMATS:
        _fail(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    if fmt == "table":
        if output is None:
            out.print(views.frame_table(df, title, width=out.width))
            return
        # the table as the terminal shows it, as text in the file
        page = Console(width=out.width, emoji=False, no_color=True, record=True, file=io.StringIO())
        page.print(views.frame_table(df, title, width=out.width))
        _write(output, page.export_text())
        return
    if fmt == "parquet":
        if output is None:
            _fail("--format parquet needs --output FILE")
        with file_errors(output):
            df.to_parquet(output)
        _wrote(output)
        return
    text: str
    if fmt in ("csv", "json"):
        # the projections hold sums of exact fractions as floats: 9 decimals drop the binary noise
        # (1556.00000000001 → 1556.0) and keep every digit a third or a sixth needs to be read back
        floats = [c for c in df.columns if str(df[c].dtype).startswith("float")]
        df = df.assign(**{c: df[c].round(9) for c in floats})
    if fmt == "csv":
        text = df.to_csv(index=False)
    elif fmt == "json":
        from ..views.json import frame_rows

        text = json.dumps(frame_rows(df), ensure_ascii=False, indent=2)
    else:
        text = views.frame_markdown(df)
    if output is not None:
        _write(output, text)
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _emit_json(kind: str, df: Any, filters: dict[str, Any], output: Path | None) -> None:
    """The versioned ``--json`` envelope of a report (docs/cli.md) to ``output`` or standard output."""
    from ..views.json import frame_rows
    from ..views.json import table_json

    text = json.dumps(table_json(kind, frame_rows(df), filters), ensure_ascii=False, indent=2) + "\n"
    if output is not None:
        _write(output, text)
    else:
        sys.stdout.write(text)


def _stats(kind: str, store: Path | None, fmt: str, output: Path | None, filters: PulkaFilter,
           as_json: bool = False) -> None:
    from ..application import Archive

    as_json = as_json or fmt == TableFormat.json  # --format json is the --json document
    archive = Archive(_ws(store), _connect(store, as_json=as_json))
    report = archive.report(kind, filters)
    if report.frame.empty and report.filter.active:
        _explain_dates(archive)
    if as_json:
        _emit_json(f"stats {kind}", report.frame, report.filters_json(), output)
    else:
        _emit(report.frame, fmt, output, kind)


_Player = Annotated[str | None, typer.Option(help="Only this player.")]
_Preset = Annotated[str | None, typer.Option(help="Only this rules preset.")]
_From = Annotated[str | None, typer.Option("--from", help="From date, inclusive: 2024-05-17 or 2024.05.17.")]
_To = Annotated[str | None, typer.Option("--to", help="To date, inclusive: 2024-05-17 or 2024.05.17.")]
_Pulka = Annotated[list[str] | None, typer.Option("--pulka", help="Only these pulkas (repeatable).")]
_Fmt = Annotated[TableFormat, typer.Option("--format", case_sensitive=False,
                                            help="parquet needs --output; table fits the terminal")]
_Out = Annotated[Path | None, typer.Option("--output", "-o", help="Write to a file.")]
_Json = Annotated[bool, typer.Option("--json", help="Every column as versioned JSON (docs/cli.md); "
                                                    "instead of --format.")]


@stats_app.command("players")
@_guard
def stats_players(player: _Player = None, preset: _Preset = None, date_from: _From = None, date_to: _To = None,
                  pulka: _Pulka = None, fmt: _Fmt = TableFormat.table, output: _Out = None,
                  as_json: _Json = False, store: StoreOpt = None) -> None:
    """Per player: deals, declarer success, whist, miser, raspasy, results (visty and Croatian points apart)."""
    _stats("players", store, fmt, output, _filters(player, preset, date_from, date_to, pulka), as_json)


@stats_app.command("skill")
@_guard
def stats_skill(player: _Player = None, history: Annotated[bool, typer.Option(
                    "--history", help="Each rating after every pulka instead.")] = False,
                fmt: _Fmt = TableFormat.table, output: _Out = None, as_json: _Json = False,
                store: StoreOpt = None) -> None:
    """Luck and play per player: cards and play, the play and raw-result ratings, the decisions with
    their intervals (from the play_analysis tables: run analyze --all first; docs/skill.md)."""
    from ..application import Archive
    from ..application import PulkaFilter

    ws = _ws(store)
    if player is not None:   # named as every filter names a player (any case, the whole name)
        player = Archive(ws).resolve(PulkaFilter(player=player)).player
    df = ws.skill(player, history)
    if df.empty:
        err.print("no skill statistics yet: run preflog analyze --all first", highlight=False)
    filters = {"player": player} if player is not None else {}
    if as_json or fmt == TableFormat.json:
        _emit_json("stats skill", df, filters, output)
    else:
        _emit(df, fmt, output, "skill_history" if history else "skill")


@stats_app.command("contracts")
@_guard
def stats_contracts(player: _Player = None, preset: _Preset = None, date_from: _From = None, date_to: _To = None,
                    pulka: _Pulka = None, fmt: _Fmt = TableFormat.table, output: _Out = None,
                    as_json: _Json = False, store: StoreOpt = None) -> None:
    """Success rate per contract, with sample size and Wilson interval."""
    _stats("contracts", store, fmt, output, _filters(player, preset, date_from, date_to, pulka), as_json)


@stats_app.command("variants")
@_guard
def stats_variants(player: _Player = None, preset: _Preset = None, date_from: _From = None, date_to: _To = None,
                   pulka: _Pulka = None, fmt: _Fmt = TableFormat.table, output: _Out = None,
                   as_json: _Json = False, store: StoreOpt = None) -> None:
    """Per preset: raspasy/refe frequency, deals per pulka, spread of results, declarer edge."""
    _stats("variants", store, fmt, output, _filters(player, preset, date_from, date_to, pulka), as_json)


@app.command()
@_guard
def compare(target: Annotated[str, typer.Argument(help="Pulka id or record file.")],
            rules: Annotated[list[str], typer.Option("--rules", help="Rules spec to re-score under (repeatable).")],
            fmt: _Fmt = TableFormat.table, output: _Out = None, as_json: _Json = False,
            store: StoreOpt = None) -> None:
    """The same recorded deals re-scored under other conventions: settlement per player and difference."""
    import pandas as pd

    from ..reports.counterfactual import compare as cf_compare

    audited = _ws(store).audit(target)
    facts = [facts_of(a.loaded.id, a.loaded.events, a.result) for a in audited]
    # each alternative labelled with its whole spec as given (two specs on one preset stay apart)
    frames = [cf_compare(facts, spec).assign(alt_rules=spec.strip()) for spec in rules]
    df = pd.concat(frames, ignore_index=True)
    if as_json or fmt == TableFormat.json:  # --format json is the --json document
        _emit_json("compare", df, {"target": target, "rules": list(rules)}, output)
    else:
        _emit(df, fmt, output, "counterfactual")


@app.command()
@_guard
def report(html: Annotated[Path, typer.Option("--html", help="Output HTML file.")],
           pages: Annotated[Path | None, typer.Option(help="Also write a deal viewer per pulka into this folder.")]
           = None, player: _Player = None, preset: _Preset = None, date_from: _From = None, date_to: _To = None,
           pulka: _Pulka = None, lang: LangOpt = None, store: StoreOpt = None) -> None:
    """One self-contained HTML page with tables and charts (the filters as for stats)."""
    from .. import reports
    from ..application import Archive
    from ..reports.html import write
    from ..views.viewer import write_viewers

    ws = _ws(store)
    con = _connect(store)
    archive = Archive(ws, con)
    filters = archive.resolve(_filters(player, preset, date_from, date_to, pulka))
    if filters.active and reports.players(con, **filters.options()).empty:
        _explain_dates(archive)
    links: list[tuple[str, str]] = []
    if pages is not None:
        loaded = ws.load(None)
        if filters.active:
            keep = {s.id for s in archive.find(filters)}
            loaded = [ld for ld in loaded if ld.id in keep]
        with file_errors(pages), speaking(_language(lang)):
            links = write_viewers(loaded, pages, html.parent)
        _wrote(pages, f"{views.plural(len(links), 'deal viewer')}, one a pulka")
    try:
        with speaking(_language(lang)):
            write(html, con, store=str(ws.root), pages=links, skill=_skill_frames(ws, filters.player),
                  **filters.options())
    except OSError as exc:  # the page is written to a temporary twin first: name the file asked for, not it
        raise FileError(html, exc.strerror or str(exc)) from exc
    out.print(f"wrote {html}", markup=False)


def _skill_frames(ws: Workspace, player: str | None) -> tuple[Any, Any] | None:
    """The report's skill section: the skill table and rating history (None before ``analyze --all``)."""
    summary = ws.skill()
    if summary.empty:
        return None
    if player is not None:
        summary = summary[summary["player"] == player]
    return summary, ws.skill(history=True)


# paragraphs as single lines: the help wraps them at the terminal's width
_SQL_HELP = (
    "SQL over the views (read-only: no file access unless --allow-files).\n\n"
    "Views: events (the stored rows, in codes); events_readable (the same events with names and words: "
    "event, player, text); deals, player_deals, pulka_results (the projections). SHOW TABLES and "
    "DESCRIBE <view> list them; docs/cli.md describes them.\n\n"
    "Examples:\n\n"
    "preflog sql \"SELECT * FROM events_readable WHERE pulka = 'P' AND deal = 1\"\n\n"
    "preflog sql \"SELECT player, count(*) AS n FROM events_readable WHERE event = 'contract' AND "
    "text = 'miser' GROUP BY ALL ORDER BY n DESC\"\n\n"
    "preflog sql \"SELECT contract_label, count(*) AS n, avg(made::INT) AS success FROM deals "
    "WHERE declarer IS NOT NULL GROUP BY 1\" --format csv"
)


@app.command(help=_SQL_HELP)
@_guard
def sql(query: str, fmt: _Fmt = TableFormat.table, output: _Out = None,
        allow_files: Annotated[bool, typer.Option("--allow-files", help="Let the query read and write files "
                                                  "(read_csv, COPY … TO, ATTACH); off: the views only.")] = False,
        store: StoreOpt = None) -> None:
    """SQL over the views; the help text is :data:`_SQL_HELP`."""
    import duckdb

    from ..reports import sql as run_sql

    try:
        df = run_sql(_connect(store, sandbox=not allow_files), query)
    except duckdb.PermissionException as exc:
        _fail(f"SQL error: {str(exc).splitlines()[0]} (preflog sql reads the views only; --allow-files lets "
              "a query use files)")
    except duckdb.Error as exc:
        _fail(f"SQL error: {_one_line(str(exc))}")
    _emit(df, fmt, output, "sql")


