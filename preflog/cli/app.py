"""The ``preflog`` command line: a thin layer of typer commands over :mod:`preflog.application`,
:mod:`preflog.workspace` and the JSON views of :mod:`preflog.views`. This module holds the helpers every
command shares and the commands of one pulka or record (import, export, replay, audit, sheet, …);
:mod:`.archive_cmds` the questions asked of the stored pulkas (ls, stats, compare, report, sql) and
:mod:`.spark_cmds` the Spark job's.

Every user error (a :class:`~preflog.errors.PreflogError`) is printed as one readable line (file,
line, event, rule) and exits with status 2; ``audit`` exits 1 when it found something. Any other
exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import os
import sys
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Annotated
from typing import Any
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from ..errors import FileError
from ..errors import NoStoreError
from ..errors import PreflogError
from ..errors import WorkspaceError
from ..templates.i18n import Language
from ..templates.i18n import environment_language
from ..templates.i18n import speaking

# ``preflog --help`` starts fast: the workspace, the engine and the reports (pyarrow, pandas, DuckDB) load
# when a command first needs them (tests/cli/test_conventions.py checks that importing this module
# loads none of them).
if TYPE_CHECKING:
    from ..engine.findings import Finding
    from ..projections.facts import facts_of as facts_of  # (as: the other command modules take these from here)
    from ..views.json import audit_json
    from ..views.json import settle_json
    from ..views.json import sheet_json
    from ..workspace import Loaded
    from ..workspace import Workspace
    from ..workspace import file_errors as file_errors
    from ..workspace import simulate_to
    from . import views as views
    from .progress import Report
else:
    class _LazyModule:
        def __init__(self, name: str) -> None:
            self._name = name

        def __getattr__(self, attr: str) -> Any:
            return getattr(importlib.import_module(self._name), attr)

    def _lazy(module: str, name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(importlib.import_module(module), name)(*args, **kwargs)
        return call

    views = _LazyModule("preflog.cli.views")
    facts_of = _lazy("preflog.projections.facts", "facts_of")
    audit_json = _lazy("preflog.views.json", "audit_json")
    settle_json = _lazy("preflog.views.json", "settle_json")
    sheet_json = _lazy("preflog.views.json", "sheet_json")
    file_errors = _lazy("preflog.workspace", "file_errors")
    simulate_to = _lazy("preflog.workspace", "simulate_to")


class _OneLineErrors(typer.core.TyperGroup):
    """The top-level group: a usage error (unknown option, bad value, missing argument) is one line on
    standard error and exit 2, like every other refusal, instead of a usage box."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        _plain_help(self)
        if kwargs.get("standalone_mode", True) is False:
            return super().main(*args, **kwargs)
        kwargs["standalone_mode"] = False
        click_error: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
        try:
            rv = super().main(*args, **kwargs)
        except click_error as error:
            exc: Any = error  # a click UsageError or BadParameter (click's own classes are not public in typer)
            if type(exc).__name__ == "NoArgsIsHelpError":  # bare ``preflog`` / ``preflog stats``: the help
                exc.show()
                sys.exit(exc.exit_code)
            ctx = getattr(exc, "ctx", None)
            where = f" (see: {ctx.command_path} --help)" if ctx is not None else ""
            err.print(f"[red]error:[/red] {escape(exc.format_message())}{escape(where)}", highlight=False,
                      soft_wrap=True)
            sys.exit(2)
        except typer.Abort:
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


def _metavar(param: Any) -> str:
    """What ``--help`` shows for an option's value, as click names it: TEXT, INTEGER, PATH, ``[a|b]``
    for a choice, nothing for a flag (typer's own would be ``<str>``, ``<list[str]>``, ``<bool>``)."""
    if getattr(param, "is_flag", False):
        return ""
    desc = param.type_descriptor
    if desc.is_choice:
        return "[" + "|".join(str(getattr(c, "value", c)) for c in desc.choices or ()) + "]"
    if desc.is_path:
        return "PATH"
    annotation = desc.annotation
    element = typing.get_args(annotation)[0] if typing.get_origin(annotation) is list else annotation
    return {int: "INTEGER", float: "FLOAT", bool: "BOOLEAN"}.get(element, "TEXT")


def _plain_help(command: Any) -> None:
    """Help as click writes it: metavars by :func:`_metavar` (also of ``--help``), and each help text's
    paragraphs joined into lines that the terminal wraps (a docstring's line breaks are the source's, not
    the reader's)."""
    if getattr(command, "_plain_help", False):
        return
    command._plain_help = True
    if command.help:
        command.help = "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(command.help).split("\n\n"))
    for param in command.params:
        if param.param_type_name == "argument":  # its name is the metavar; its value's type as for options
            param.metavar = param.metavar or param.name.upper()
            param.display_type_rich = functools.partial(lambda kind, ctx: kind, _metavar(param))
        elif param.metavar is None:
            param.metavar = _metavar(param)
    help_option = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = help_option(ctx)
        if option is not None:
            option.metavar = ""
        return option
    command.get_help_option = get_help_option
    for sub in getattr(command, "commands", {}).values():
        _plain_help(sub)


class RecordFormat(StrEnum):
    """``--format`` of records: the canonical text, the JSON form or Portable Preferans Notation."""

    text = "text"
    json = "json"
    ppn = "ppn"


class SimulateFormat(StrEnum):
    """``--format`` of simulated records: the canonical text or the JSON form (PPN holds only some of the
    Croatian family's games: export those one by one)."""

    text = "text"
    json = "json"


class ExportFormat(StrEnum):
    """``--format`` of ``export``: a record (text, JSON, PPN) or the whole store as Parquet."""

    text = "text"
    json = "json"
    ppn = "ppn"
    parquet = "parquet"


class TableFormat(StrEnum):
    """``--format`` of reports."""

    table = "table"
    csv = "csv"
    json = "json"
    parquet = "parquet"
    markdown = "markdown"


_HELP = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False, cls=_OneLineErrors,
                  context_settings=_HELP, help="Record, replay, audit and analyse games of preferans.")
stats_app = typer.Typer(no_args_is_help=True, context_settings=_HELP,
                        help="Statistical reports over the stored pulkas.")
app.add_typer(stats_app, name="stats")


def _width(stream: Any) -> int | None:
    """Columns for a console: the terminal's (or ``$COLUMNS``); piped output (CI logs, files) gets a wide
    fixed width instead of rich's 80 columns unless ``COLUMNS`` says otherwise."""
    if stream.isatty() or os.environ.get("COLUMNS", "").isdigit():
        return None
    return 160


# emoji codes off: a record's text such as ":100:" is printed as written (markup is ours alone: user text
# goes through views.lit or escape)
out = Console(width=_width(sys.stdout), emoji=False)
err = Console(stderr=True, width=_width(sys.stderr), emoji=False)

StoreOpt = Annotated[Path | None, typer.Option(
    "--store", help="Store folder (default: $PREFLOG_STORE, else ./preflog-store); also accepted before the "
                    "command.", show_default=False)]
class PageLang(StrEnum):
    """``--lang`` of the commands that write pages (sheet, replay, analyze, report): the language of the
    page (its message catalog, :mod:`preflog.templates.i18n`), and of the Russian game's sheet terms
    (Russian in a Russian page; English books' pulya, gora, visty otherwise)."""

    en = "en"
    ru = "ru"
    hr = "hr"
    sl = "sl"


LangOpt = Annotated[PageLang | None, typer.Option(
    "--lang", help="The language of the page (en, ru, hr, sl; default: the environment's locale, LANG, "
                   "else English).", show_default=False)]


def _language(lang: PageLang | None) -> Language:
    """The language ``--lang`` asks for, else the environment's (:func:`environment_language`)."""
    return Language(lang.value) if lang is not None else environment_language()


# ``preflog --store DIR COMMAND``: the folder given before the command, for commands not given their own
_store_before: Path | None = None


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version

        try:
            number = version("preflog")
        except PackageNotFoundError:  # run from a checkout that was never installed
            number = "(not installed)"
        sys.stdout.write(f"preflog {number}\n")
        raise typer.Exit()


@app.callback()
def _main_options(
        version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                              help="Print the version and exit.")] = False,
        store: StoreOpt = None) -> None:
    """Record, replay, audit and analyse games of preferans."""
    global _store_before
    _store_before = store


def _ws(store: Path | None) -> Workspace:
    from ..workspace import Workspace

    return Workspace(store if store is not None else _store_before)


def _fail(msg: str, code: int = 2) -> NoReturn:
    # one line however long; the message is text, not markup (a record may hold "[bold]")
    err.print(f"[red]error:[/red] {escape(msg)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _one_line(text: str) -> str:
    """A several-line message (DuckDB's, with a caret line under the query) as one line."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip() and set(line.strip()) != {"^"})


def _guard(fn: Any) -> Any:
    """Turn preflog's errors into one-line messages (never a traceback); anything else is a bug."""
    @functools.wraps(fn)
    def wrapper(*a: Any, **kw: Any) -> Any:
        try:
            return fn(*a, **kw)
        except NoStoreError as exc:  # the workspace names no flag; the command line's way to another store is one
            _fail(f"no preflog store at {exc.root} (import something first, or pass --store)")
        except PreflogError as exc:
            _fail(str(exc))
    return wrapper


def _write(path: Path, text: str, what: str = "", document_on_stdout: bool = False) -> None:
    """An output file the user named, then ``wrote FILE`` (and ``what`` it holds); a failure is one line
    naming it."""
    with file_errors(path):
        path.write_text(text, encoding="utf-8")
    _wrote(path, what, document_on_stdout)


def _wrote(path: Path, what: str = "", document_on_stdout: bool = False) -> None:
    """``wrote FILE (what)``: on standard output, or on standard error when standard output carries a
    document (``--json``) that the line would spoil."""
    (err if document_on_stdout else out).print(f"wrote {path}" + (f" ({what})" if what else ""), markup=False,
                                               highlight=False, soft_wrap=True)


@contextmanager
def _bars(as_json: bool = False) -> Iterator[Report | None]:
    from .progress import bars

    with bars(as_json) as report:
        yield report


@contextmanager
def _watching(ws: Workspace, as_json: bool = False) -> Iterator[Report | None]:
    """Progress bars on standard error for the workspace's long steps while the block runs (when someone
    watches: :mod:`preflog.cli.progress`); the report is also yielded for the command's own steps."""
    with _bars(as_json) as report:
        ws.progress = report
        try:
            yield report
        finally:
            ws.progress = None


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


@app.command("import")
@_guard
def import_(paths: Annotated[list[str], typer.Argument(help="Record files, folders, or - for stdin.")],
            workers: Annotated[int | None, typer.Option(min=1, help="Processes for big imports (default: all cores).")]
            = None,
            details: Annotated[bool, typer.Option("--details", help="One row per pulka and every error, however "
                                                  "many (default: rows up to 20, else the counts).")] = False,
            as_json: Annotated[bool, typer.Option("--json", help="The counts and every pulka as JSON "
                                                  "(docs/cli.md).")] = False,
            store: StoreOpt = None) -> None:
    """Import recorded games; a file with an error imports nothing, the others still do."""
    ws = _ws(store)
    # streamed: every item is kept only for --details and --json (they print them all); else the rows
    # while there are at most DETAIL_ROWS, and the first DETAIL_ROWS errors, so memory stays flat
    kept = views.ImportKept(None if details or as_json else views.DETAIL_ROWS)
    with _watching(ws, as_json) as report:  # bars only where someone watches (docs/cli.md, "Progress")
        files_done = None if report is None else lambda d, t: report("importing files", d, t)
        counts = ws.import_each(paths, kept.add, progress=files_done, workers=workers)
    if as_json:
        from ..views.json import import_json

        _print_json(import_json(kept.items, counts.ledger))
    elif counts.imported or counts.duplicate:  # when every file was refused, the errors say it all
        out.print(views.import_table(kept.items, True if details else None, counts))
    if counts.ledger is not None and not as_json:  # the import's headline, as the store's ledger keeps it
        out.print(views.ledger_line(counts.ledger))
    from ..workspace import skipped_names

    for folder, passed in counts.skipped.items():  # what the folders held besides records, said not hidden
        err.print(f"{folder}: skipped {skipped_names(folder, passed)}", markup=False, highlight=False, soft_wrap=True)
    errors = views.import_errors(kept.errors, None if details or as_json else views.DETAIL_ROWS, counts.errors)
    for line in errors:  # one line each, on standard error, as every other refusal
        err.print(f"[red]error:[/red] {escape(line)}", highlight=False, soft_wrap=True)
    if errors:
        raise typer.Exit(2)


@app.command()
@_guard
def export(pulka: Annotated[str | None, typer.Argument(help="Stored pulka id (not with --format parquet).")]
           = None,
           fmt: Annotated[ExportFormat, typer.Option("--format", case_sensitive=False)] = ExportFormat.text,
           output: Annotated[str | None, typer.Option("-o", "--output", help="New folder of a Parquet export.")]
           = None,
           licence: Annotated[str | None, typer.Option(help="The data's licence, e.g. CC-BY-4.0 (parquet).")]
           = None,
           max_rows: Annotated[int | None, typer.Option(min=1, help="Rows a Parquet file at most.")] = None,
           store: StoreOpt = None) -> None:
    """The canonical record of a stored pulka, or the whole store as a Parquet export."""
    if fmt is not ExportFormat.parquet:
        if pulka is None or output or licence or max_rows:
            raise WorkspaceError("a text, JSON or PPN export names one stored pulka and writes it to standard "
                                 "output (-o, --licence and --max-rows are for --format parquet)")
        sys.stdout.write(_ws(store).export(pulka, fmt))
        return
    if pulka is not None or output is None:
        raise WorkspaceError("a Parquet export writes the whole store to a new folder: "
                             "preflog export --format parquet -o DIR --licence ID (no pulka id)")
    marker = _ws(store).export_parquet(output, licence or "", max_rows)
    out.print(f"exported {marker['pulkas']} pulkas ({marker['deals']} deals) to {output} "
              f"under {marker['licence']}", markup=False, highlight=False, soft_wrap=True)


@app.command()
@_guard
def replay(target: Annotated[str, typer.Argument(help="Pulka id or record file.")],
           deal: Annotated[int | None, typer.Option(min=1, help="Deal number (default: the last).")] = None,
           trick: Annotated[int | None, typer.Option(min=0, help="Tricks completed (default: the end of the deal).")]
           = None,
           html: Annotated[Path | None, typer.Option(help="Write the deal viewer, one self-contained page.")] = None,
           lang: LangOpt = None, store: StoreOpt = None) -> None:
    """The table at a point of the pulka: hands, auction, trick, score so far."""
    from ..engine.findings import AuditFailed

    loaded = _ws(store).load(target)[0]
    if html is not None:
        from ..views.viewer import viewer_html

        with speaking(_language(lang)):
            text = viewer_html(loaded)
        _write(html, text, f"the deal viewer of {loaded.id}")
        return
    try:
        view = views.replay_view(loaded, deal, trick)
    except AuditFailed as exc:  # the log breaks a rule before the asked point: say where, by name
        f = exc.finding
        _fail(f"{loaded.id}: deal {f.deal}, event {f.seq}: {f.code}: {f.message}")
    out.print(view)


@app.command()
@_guard
def analyze(target: Annotated[str | None, typer.Argument(help="Pulka id or record file (its first pulka).")] = None,
            all_: Annotated[bool, typer.Option("--all", help="Every stored pulka into the play_analysis tables "
                                                             "(new and changed pulkas only), then the report.")]
            = False,
            workers: Annotated[int | None, typer.Option(min=1, help="Processes for --all (default: all cores).")]
            = None,
            deal: Annotated[int | None, typer.Option(min=1, help="Deal number (default: every deal).")] = None,
            as_json: Annotated[bool, typer.Option("--json", help="As JSON (docs/cli.md).")] = False,
            html: Annotated[Path | None, typer.Option(help="Write the deal viewer with the cards that lost "
                                                           "tricks marked.")] = None,
            par: Annotated[bool, typer.Option("--par", help="Also the par contract (every contract, every "
                                                            "discard: slow).")] = False,
            passes: Annotated[bool, typer.Option("--passes", help="With --all: also judge every first pass "
                                                                  "in an auction (docs/skill.md: slow).")] = False,
            lang: LangOpt = None, store: StoreOpt = None) -> None:
    """Double-dummy analysis: makeable or not, the cards that lost tricks and what each cost on the
    sheet, the whist decisions, the best discard (docs/analysis.md)."""
    from ..analysis import Options
    from ..analysis import analyze_events
    from ..views.analysis import analysis_json
    from ..views.analysis import analysis_text
    from ..views.analysis import mistake_marks

    if all_:
        if target is not None:
            _fail("analyze --all takes no pulka or file (it analyses the whole store)")
        ws = _ws(store)
        built = ws.analyze_all(workers, passes=passes)
        rows = ws.analysis_report()
        if as_json:
            from ..views.analysis import analysis_report_json

            _print_json(analysis_report_json(built, rows))
        else:
            out.print(views.analysis_report(built, rows))
        return
    if target is None:
        _fail("name a pulka or a record file, or pass --all")
    loaded = _ws(store).load(target)[0]
    result = analyze_events(loaded.id, loaded.events, deal, Options(discard=True, par=par))
    if html is not None:
        from ..views.analysis import analysis_view
        from ..views.viewer import viewer_html

        with speaking(_language(lang)):
            text = viewer_html(loaded, mistake_marks(result), analysis_view(result))
        _write(html, text, f"the deal viewer of {loaded.id}", document_on_stdout=as_json)
    if as_json:
        _print_json(analysis_json([result]))
    elif html is None:
        out.print(views.lit(analysis_text(result, min(out.width, 80))), soft_wrap=True)


@app.command("audit")
@_guard
def audit_(target: Annotated[str | None, typer.Argument(help="Pulka id or record file.")] = None,
           all_: Annotated[bool, typer.Option("--all", help="Every stored pulka.")] = False,
           as_json: Annotated[bool, typer.Option("--json")] = False,
           strict: Annotated[bool, typer.Option("--strict", help="Stop at the first finding.")] = False,
           details: Annotated[bool, typer.Option("--details", help="Every pulka's findings and sheet, however "
                                                 "many (default: up to 20 pulkas, else totals and findings).")]
           = False,
           store: StoreOpt = None) -> None:
    """Findings (code, deal, seq, rule) and the recomputed sheet; exit status 1 if any."""
    if target is None and not all_:
        _fail("name a pulka or a record file, or pass --all")
    if target is not None and all_:
        _fail(f"audit --all takes no pulka or file (it audits every stored pulka): drop {target} or --all")
    from ..engine.findings import AuditFailed
    from ..workspace import audit_loaded

    ws = _ws(store)
    audited = []
    stopped: tuple[Loaded, Finding] | None = None
    with _watching(ws, as_json) as report:
        if report is not None:
            report("reading pulkas", 0, None)
        loaded = ws.load(None if all_ else target)
        if report is not None:
            report("reading pulkas", len(loaded), len(loaded))
        for ld in loaded:  # pulka by pulka: a --strict stop names its pulka
            try:
                audited.append(audit_loaded(ld, strict))
            except AuditFailed as exc:
                stopped = ld, exc.finding
                break
            if report is not None:
                report("auditing", len(audited), len(loaded))
    if stopped is not None:
        ld, f = stopped
        if as_json:
            from ..views.json import audit_doc
            from ..views.json import finding_json

            _print_json(audit_doc([{"id": ld.id, "findings": [finding_json(f, ld)], "settlement": None}]))
        else:
            err.print(f"{escape(ld.id)}: deal {f.deal}, event {f.seq}: [bold]{f.code}[/bold]: {escape(f.message)}",
                      highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    found = sum(len(a.result.findings) for a in audited)
    if as_json:
        from ..views.json import audit_doc

        _print_json(audit_doc([audit_json(a) for a in audited]))
    elif len(audited) > views.DETAIL_ROWS and not details:
        out.print(views.audit_overview(audited))
    else:
        for a in audited:
            out.print(views.audit_view(a, out.width))
    raise typer.Exit(1 if found else 0)


@app.command()
@_guard
def sheet(target: Annotated[str, typer.Argument(help="Pulka id or record file.")],
          as_json: Annotated[bool, typer.Option("--json", help="As JSON (docs/cli.md).")] = False,
          svg: Annotated[Path | None, typer.Option(help="Write the paper sheet of one pulka as SVG (a file of "
                                                        "several pulkas: name it with --pulka).")] = None,
          html: Annotated[Path | None, typer.Option(help="Write the paper sheets as an HTML page.")] = None,
          pulka: Annotated[str | None, typer.Option("--pulka", help="Only this pulka of a record file that holds "
                                                    "several.")] = None,
          lang: LangOpt = None,
          portrait: Annotated[bool, typer.Option("--portrait", help="Draw the --svg sheet for a phone held "
                                                 "upright.")] = False,
          store: StoreOpt = None) -> None:
    """Score sheet (running totals) and settlement: exact, method 1, method 2, money."""
    from ..render.words import sheet_lang

    language = _language(lang)
    words = sheet_lang(language)   # the Russian game's Russian terms on a Russian sheet (a Croatian one: its own)
    if portrait and svg is None:
        _fail("--portrait lays out the --svg sheet: give --svg FILE (the --html page holds both layouts)")
    audited = _ws(store).audit(target)
    if pulka is not None:
        held = [a.loaded.id for a in audited]
        audited = [a for a in audited if a.loaded.id == pulka]
        if not audited:
            _fail(f"{target}: no pulka {pulka!r} (it holds {', '.join(held)})")
    sheets = [sheet_json(a) for a in audited]
    from ..render.sheet_svg import render_html
    from ..render.sheet_svg import render_svg

    if svg is not None:
        if len(sheets) > 1:
            ids = [s["id"] for s in sheets]
            shown = ", ".join(ids[:5]) + (f" … ({len(ids)} in all)" if len(ids) > 5 else "")
            _fail(f"{target} holds {len(sheets)} pulkas and --svg draws one: name it with --pulka ({shown})")
        _write(svg, render_svg(sheets[0], words, portrait), f"the sheet of {sheets[0]['id']}",
               document_on_stdout=as_json)
    if html is not None:
        what = f"the sheet of {sheets[0]['id']}" if len(sheets) == 1 else f"{len(sheets)} sheets"
        with speaking(language):
            text = render_html(sheets, words)
        _write(html, text, what, document_on_stdout=as_json)
    if as_json:
        from ..views.json import sheet_doc

        _print_json(sheet_doc(sheets))
    elif svg is None and html is None:
        for s in sheets:
            out.print(views.sheet_view(s, out.width, words))


@app.command()
@_guard
def settle(target: Annotated[str, typer.Argument(help="Record of totals (Start: lines), text or JSON; - for stdin.")],
           as_json: Annotated[bool, typer.Option("--json", help="As JSON (docs/cli.md).")] = False,
           store: StoreOpt = None) -> None:
    """Settle a sheet given as totals (or a whole pulka): exact, method 1, method 2, money."""
    audited = _ws(store).audit(target)
    if not audited:
        _fail(f"{target}: no pulka to settle (expected a [Players] tag and Start: lines)")
    for a in audited:
        if a.result.findings:
            f = a.result.findings[0]
            _fail(f"{a.loaded.id}: deal {f.deal}, event {f.seq}: {f.code}: {f.message} (preflog audit lists every "
                  f"finding)")
    if as_json:
        from ..views.json import settle_doc

        _print_json(settle_doc([settle_json(a) for a in audited]))
    else:
        for a in audited:
            out.print(views.settle_view(settle_json(a), out.width))


@app.command()
def verify(as_json: Annotated[bool, typer.Option("--json", help="As JSON (docs/cli.md).")] = False,
           deep: Annotated[bool, typer.Option("--deep", help="Also replay every pulka and compare the projections "
                                              "with what its events give (slow: an audit of the whole store).")]
           = False,
           strict: Annotated[bool, typer.Option("--strict", help="Exit 1 also when a check could not run: a "
                                                "keyed store verified without its key.")] = False,
           store: StoreOpt = None) -> None:
    """Check every pulka's hash chain and sequence numbers, the table against its commit log, and the projections
    against the events; exit 1 on damage."""
    ws: Workspace | None = None
    try:
        ws = _ws(store)
        with _watching(ws, as_json):
            problems = ws.verify(deep=deep)
        pulkas = _verified_pulkas(ws, problems)
        unchecked = ws.unchecked_signatures()
        moves = ws.seal_moves() if not any(p.kind == "unreadable" for p in problems) else []
    except PreflogError as exc:
        if not as_json:
            _fail(str(exc))
        from ..views.json import verify_json  # a caller who asked for JSON gets JSON on every exit path

        _print_json(verify_json(str(ws.root if ws is not None else store or ""), 0, [], error=str(exc)))
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    if as_json:
        from ..views.json import verify_json

        _print_json(verify_json(str(ws.root), pulkas, problems, unchecked=unchecked, seal_moves=moves))
        raise typer.Exit(1 if problems or (strict and unchecked) else 0)
    for p in problems:
        out.print(str(p), highlight=False, markup=False)
    for move in moves:
        out.print(f"note: {views.seal_move_line(move)}", highlight=False, markup=False)
    if unchecked:
        out.print(f"note: {unchecked}", highlight=False, markup=False)
    if problems or (strict and unchecked):
        raise typer.Exit(1)
    out.print("store verifies clean" + (", but for its signatures" if unchecked else ""))


def _verified_pulkas(ws: Workspace, problems: list[Any]) -> int:
    """How many pulkas verify checked (none countable when data files are damaged: their rows are unread)."""
    if any(p.kind in ("file", "unreadable") for p in problems):
        return 0
    return len(ws.store().pulkas())


@app.command()
@_guard
def compact(store: StoreOpt = None) -> None:
    """Merge small files of the event table (safe while others read)."""
    info = _ws(store).store().compact()
    if "numFilesRemoved" in info:  # Delta's optimize metrics
        removed, added = info["numFilesRemoved"], info["numFilesAdded"]
        considered = info.get("totalConsideredFiles", removed)
        out.print((f"merged {removed} small files into {added}" if removed else "nothing to merge")
                  + f" ({considered} file{'' if considered == 1 else 's'} considered)", markup=False)
    else:
        out.print("compacted: " + (", ".join(f"{k} {v}" for k, v in info.items()) or "nothing to merge"),
                  markup=False)


@app.command()
@_guard
def backup(dest: Annotated[Path, typer.Argument(help="A new folder: the backup, itself a store folder.")],
           store: StoreOpt = None) -> None:
    """Copy the store as of its last commit, safe while serve or an import writes (docs/deploy.md)."""
    from ..store.backup import backup_table
    from ..workspace import Workspace

    ws = _ws(store)
    if not ws.exists():
        raise NoStoreError(ws.root)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise FileError(dest, "exists already: a backup goes into a new folder")
    copy = Workspace(dest)
    got = backup_table(ws.events_dir, copy.events_dir)
    from ..store.ledger import LEDGER_DIR

    if (ws.root / LEDGER_DIR / "_delta_log").is_dir():  # the import ledger too: not derived, kept as it is
        backup_table(ws.root / LEDGER_DIR, dest / LEDGER_DIR)
    copy.heal_projections(reading=False)  # the copy's own projections, built from it: a whole store
    out.print(f"backed up {ws.root} at version {got.version} to {dest} ({got.files} files, "
              f"{got.size / 1024:.0f} KiB)", markup=False, highlight=False, soft_wrap=True)


@app.command()
@_guard
def simulate(rules: Annotated[str, typer.Option(help="Rules spec.")] = "sochi",
             pulkas: Annotated[int, typer.Option(min=1, help="How many pulkas.")] = 1,
             players: Annotated[int, typer.Option(min=3, max=4, help="3 or 4.")] = 3,
             pool: Annotated[int, typer.Option(min=1, help="Pulya size.")] = 20,
             seed: Annotated[int, typer.Option(help="Seed of the deals' shuffles and the bots' choices: the same "
                                                    "seed and settings play the same pulkas.")] = 1,
             paper: Annotated[bool, typer.Option(help="Drop the cards: paper-level records.")] = False,
             fmt: Annotated[SimulateFormat, typer.Option("--format", case_sensitive=False)] = SimulateFormat.text,
             output: Annotated[Path | None, typer.Option("--output", "-o", help="Folder for record files.")] = None,
             to_store: Annotated[bool, typer.Option("--to-store", help="Append straight into the store (also with "
                                                    "-o: both).")] = False,
             workers: Annotated[int, typer.Option(min=0, help="Processes (0 = all cores).")] = 0,
             level: Annotated[list[str] | None, typer.Option(
                 "--level", help="A bot level per seat, in seat order (repeat it: one a seat): dd, heuristic, "
                                 "careless:P, overbid:T (docs/skill.md).")] = None,
             store: StoreOpt = None) -> None:
    """Bots play complete pulkas; write records or append them into the store."""
    ws = _ws(store) if to_store else None
    # records written to a terminal would scroll through the bar: none then
    on_screen = output is None and ws is None and sys.stdout.isatty()
    with (_watching(ws, on_screen) if ws is not None else _bars(on_screen)) as report:
        done = simulate_to(rules=rules, pulkas=pulkas, players=players, pool=pool, seed=seed, paper=paper, fmt=fmt,
                           output=output, workspace=ws, workers=workers, stdout=sys.stdout, progress=report,
                           levels=level or ())
    n, already = done.pulkas, len(done.already)
    said = f"simulated {views.plural(n, 'pulka')}"
    if already and ws is not None:  # the same run again: its pulkas are stored once, as import stores a file once
        new = "" if already == n else f"{n - already} new, "
        said += (f": {new}{'all' if already == n else already} already stored in {ws.root} (the same rules, seed "
                 "and settings; another --seed plays new ones)")
    err.print(said, markup=False, highlight=False, soft_wrap=True)
    if output is not None:
        _wrote(output, f"{views.plural(n, 'record file')}, one a pulka", document_on_stdout=True)


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
    with _watching(ws):
        items = ws.import_paths([data])
    if not any(i.status != "error" for i in items):  # nothing to show: refused before printing anything
        errors = [i.error for i in items]
        _fail(f"{data}: no record file to import" if not errors else errors[0] + (
            f" (and {len(errors) - 1} more files with errors)" if len(errors) > 1 else ""))
    out.rule("import")
    out.print(views.import_by_file(items))
    out.rule("audit")
    with _watching(ws):
        audited = ws.audit(None)
    out.print(views.audit_overview(audited))
    out.rule("sheets of the seed examples")
    for a in audited:
        if a.loaded.id.startswith("seed"):
            out.print(views.sheet_view(sheet_json(a), out.width))
    out.rule("players")
    from .. import reports

    with _watching(ws):
        con = ws.connect()
    out.print(views.frame_table(reports.players(con), "players", limit=12, width=out.width))
    out.rule("contracts")
    out.print(views.frame_table(reports.contracts(con), "contracts", limit=20, width=out.width))
    out.rule()
    given = store if store is not None else _store_before
    at = "" if given is None else f" --store {given}"
    out.print(views.lit(f"what next: preflog report{at} --html report.html (charts), preflog --help"))


@app.command()
@_guard
def serve(host: Annotated[str, typer.Option(help="Address to listen on; another than 127.0.0.1 serves other "
                                             "devices and needs the printed join link's token to write.")
                          ] = "127.0.0.1",
          port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765,
          no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open the browser.")] = False,
          public_read: Annotated[bool, typer.Option("--public-read", help="With --host or --proxied: reading needs "
                                                    "no token (writing still does).")] = False,
          pin: Annotated[str | None, typer.Option(help="With --host or --proxied: the table's PIN (4 to 12 digits) "
                                                  "instead of a random token.")] = None,
          proxied: Annotated[bool, typer.Option("--proxied", help="Behind a reverse proxy on this machine (TLS): "
                                                "its forwarded headers count, and the table needs its token or "
                                                "PIN (docs/deploy.md).")] = False,
          root_path: Annotated[str, typer.Option(help="The path the proxy serves it under, e.g. /preflog.")] = "",
          store: StoreOpt = None) -> None:
    """A local web app: the archive (sheets, audit, deal viewer) and live scorekeeping (docs/serve.md)."""
    from ..serve import run

    ws = _ws(store)
    ws.check_key()   # entries are signed with the key given: a wrong or missing one is refused before serving
    run(ws.root, host=host, port=port, open_browser=not no_browser, public_read=public_read, pin=pin,
        proxied=proxied, root_path=root_path,
        say=lambda line: out.print(line, markup=False, highlight=False, soft_wrap=True))


# the commands of the other modules register themselves on ``app`` when imported (they import this
# module's helpers: it is complete by now)
from . import archive_cmds as archive_cmds  # noqa: E402
from . import repair as repair  # noqa: E402
from . import spark_cmds as spark_cmds  # noqa: E402

HELP_ORDER = ("import", "ledger", "ls", "export", "replay", "analyze", "audit", "sheet", "settle", "verify", "repair",
              "rekey", "compact", "backup", "compare", "report", "sql", "simulate", "demo", "serve")
"""The order ``preflog --help`` lists the commands in (the way through the tool, not the modules' order)."""
app.registered_commands.sort(key=lambda c: HELP_ORDER.index(c.name or getattr(c.callback, "__name__", "")))


def main() -> None:
    try:
        app()
    finally:
        _flush_or_quit()


def _flush_or_quit() -> None:
    """Flush standard output before the interpreter does: a reader that has gone away (``| head``) ends
    the command quietly with status 1, as a broken pipe during the command does (typer), instead of
    Python's "Exception ignored … BrokenPipeError" at exit (status 120)."""
    import os

    try:
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # what is still buffered goes nowhere, quietly
        os.close(devnull)
        raise SystemExit(1) from None
