"""Rich renderables for the CLI (tables and panels); no logic beyond layout."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any

from rich.console import Group
from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.deal import Deal
from ..engine.families import Lang
from ..engine.families import family_named
from ..engine.families import family_of
from ..engine.replay import ReplayStep
from ..engine.replay import replay
from ..errors import WorkspaceError
from ..model.calls import CALL_NAMES
from ..model.cards import format_card
from ..model.cards import format_cards
from ..store.ledger import LedgerEntry
from ..views.json import contract_text
from ..views.json import frac
from ..views.json import sheet_json
from ..workspace import Audited
from ..workspace import ImportCounts
from ..workspace import ImportItem
from ..workspace import Loaded

if TYPE_CHECKING:
    from ..analysis.table import BuildResult
    from ..application import PulkaSummary


def lit(value: object, style: str = "") -> Text:
    """User-supplied text (ids, names, paths, messages quoting a record) as literal text: never read as
    Rich markup (``[bold]``, ``[/x]``) or emoji codes (``:100:``)."""
    return Text(str(value), style=style)


def plural(n: int, noun: str) -> str:
    """``1 deal``, ``2 deals``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def titled(value: str) -> Text:
    """A table title holding user-supplied text, styled as Rich styles a plain title."""
    return lit(value, "table.title")


DETAIL_ROWS = 20  # above this many rows, import and audit --all print a summary (--details for every row)


def source_names(sources: Sequence[str]) -> tuple[str, dict[str, str]]:
    """Record paths as short as they can be: relative to the folder all of them share (``""`` when they
    share none worth naming), so a table shows ``demo/sochi-3p.pref`` instead of a cut absolute path."""
    paths = [src for src in sources if src != "-"]
    base = ""
    if paths:
        try:
            base = os.path.commonpath([os.path.dirname(os.path.abspath(src)) for src in paths])
        except ValueError:  # different drives
            base = ""
    stdin = "(standard input)"
    if base in ("", os.sep) or (len(set(paths)) == 1 and os.path.dirname(paths[0]) in ("", ".")):
        return "", {src: stdin if src == "-" else src for src in sources}
    return base, {src: stdin if src == "-" else os.path.relpath(os.path.abspath(src), base) for src in sources}


def _folder_rows(t: Table, name: str, last_folder: list[str], n_cols: int) -> str:
    """Before the first file of each folder a row naming the folder; returns the file's own name."""
    folder, _, base = name.rpartition("/") if "/" in name else name.rpartition(os.sep)
    if folder and (not last_folder or last_folder[0] != folder):
        t.add_row(lit(folder + "/", "dim"), *[""] * (n_cols - 1))
    last_folder[:] = [folder]
    return base if folder else name


class ImportKept:
    """What the import command keeps of a streamed import (:meth:`~preflog.workspace.Workspace.import_each`):
    every item when ``limit`` is None (``--details``, ``--json``), else the items while there are at most
    ``limit`` of them (then the table shows the counts alone) and the first ``limit`` errors."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.items: list[ImportItem] = []
        self.errors: list[ImportItem] = []
        self.seen = 0

    def add(self, item: ImportItem) -> None:
        self.seen += 1
        if self.limit is None or self.seen <= self.limit:
            self.items.append(item)
        elif self.items:
            self.items.clear()  # past the limit: the table shows the counts only
        if item.status == "error" and (self.limit is None or len(self.errors) < self.limit):
            self.errors.append(item)


def _import_counts(items: Sequence[ImportItem], counts: ImportCounts | None = None) -> Text:
    if counts is None:
        counts = ImportCounts(files=len({i.source for i in items}))
        for i in items:
            counts.add(i)
    files = counts.files
    return Text(f"{plural(files, 'file')}: {counts.imported} imported, {counts.duplicate} already stored, "
                f"{plural(counts.errors, 'file')} with errors")


def import_table(items: Sequence[ImportItem], details: bool | None = None,
                 counts: ImportCounts | None = None) -> Group:
    """Per file a row naming it, then one row per pulka (id, status, deals, events, findings), and the
    counts. ``details``: ``None`` shows the rows when there are at most :data:`DETAIL_ROWS`, else only the
    counts. ``counts``: the import's counts when ``items`` are not all of its items (a streamed import
    keeps the rows only while they are few: :class:`ImportKept`). Names are relative to the folder the
    files share and fold rather than being cut. Errors are printed apart (:func:`import_errors`)."""
    summary = _import_counts(items, counts)
    total = len(items) if counts is None else counts.imported + counts.duplicate + counts.errors
    show = details if details is not None else total <= DETAIL_ROWS
    if not show:
        return Group(summary, Text("(one row per pulka: --details)", style="dim"))
    base, names = source_names([i.source for i in items])
    t = Table(title="import" + (f" (files under {base})" if base else ""))
    for col in ("file / pulka", "status", "deals", "events", "findings"):
        numeric = col in ("deals", "events", "findings")
        t.add_column(col, justify="right" if numeric else "left", no_wrap=col != "file / pulka", overflow="fold")
    last: list[str] = []
    last_source: str | None = None
    for i in items:
        if i.source != last_source:
            t.add_row(lit(_folder_rows(t, names[i.source], last, 5), "bold"), *[""] * 4)
            last_source = i.source
        if i.status == "error":
            t.add_row(lit("  (nothing imported)"), "[red]error[/red]", "", "", "")
            continue
        status = {"imported": "[green]imported[/green]", "duplicate": "[yellow]duplicate[/yellow]"}[i.status]
        t.add_row(lit("  " + i.pulka), status, str(i.deals), str(i.events), str(i.findings))
    return Group(t, summary)


def ledger_line(entry: LedgerEntry) -> Text:
    """The import's headline as the ledger keeps it: ``ledger: 1,204 deals clean, 3 with findings: …``."""
    return Text(f"ledger: {entry.headline()}")


def ledger_table(root: str, entries: Sequence[LedgerEntry], total: LedgerEntry) -> Group:
    """The store's imports, oldest first: when (UTC), files, pulkas stored and already stored, and the
    headline of each (folded, never cut); then the sum of them all."""
    if not entries:
        return Group(Text("no import in the ledger (pulkas imported before the ledger was kept, or entered "
                          "live, are not in it)"))
    t = Table(title=titled(f"imports into {root}"))
    t.add_column("when (UTC)", no_wrap=True)
    t.add_column("files", justify="right", no_wrap=True)
    t.add_column("pulkas", justify="right", no_wrap=True)
    t.add_column("deals", overflow="fold")
    for e in entries:
        t.add_row(e.at.strftime("%Y-%m-%d %H:%M"), str(e.files),
                  f"{e.pulkas_imported:,}" + (f" +{e.pulkas_duplicate:,} dup" if e.pulkas_duplicate else ""),
                  lit(e.headline()))
    return Group(t, Text(f"{plural(len(entries), 'import')}: {total.headline()}"))


def import_errors(items: Sequence[ImportItem], limit: int | None = None, total: int | None = None) -> list[str]:
    """The one-line errors of the refused files (the first ``limit`` of them, then how many more).
    ``total``: how many files were refused when ``items`` holds only the first of them."""
    errors = [i.error for i in items if i.status == "error"]
    n = len(errors) if total is None else total
    if limit is not None and n > limit:
        return errors[:limit] + [f"… and {n - limit} more files with errors (--details lists them all)"]
    return errors


def pulka_list(root: str, summaries: Sequence[PulkaSummary], width: int | None = None) -> Group:
    """The stored pulkas: id, rules, date, deals, events and players. At a given ``width`` the text columns
    share what the numbers leave and fold onto further lines, never cut."""
    rows = [(s.id, s.rules or "", s.date or "", "" if s.deals is None else str(s.deals), str(s.events),
             ", ".join(s.players)) for s in summaries]
    cols = ("pulka", "rules", "date", "deals", "events", "players")
    natural = [max([len(c), *(len(r[k]) for r in rows)]) for k, c in enumerate(cols)]
    widths: list[int | None] = [None] * len(cols)
    keep = list(range(len(cols)))
    if width is not None and _table_width(natural) > width:
        keep.remove(4)  # the event count goes first (ls --json has it)
        room = width - _table_width([0, 0, *natural[2:4], 0])  # what the date and the deal count leave
        # the ids stay whole (one is typed back as it is shown) while rules and players fold, down to 5
        # columns each; only a terminal narrower than that folds the ids too
        pulka = natural[0] if room - natural[0] >= 10 else min(natural[0], max(12, room * 45 // 100))
        rest = room - pulka
        rules = min(natural[1], max(5, rest * 45 // 100))
        widths = [pulka, rules, None, None, None, max(5, rest - rules)]
    t = Table(title=titled(f"pulkas in {root}"))
    for k in keep:
        numeric = cols[k] in ("deals", "events")
        t.add_column(cols[k], justify="right" if numeric else "left", no_wrap=numeric or cols[k] == "date",
                     overflow="fold", width=widths[k])
    for r in rows:
        t.add_row(*[lit(r[k]) for k in keep])
    return Group(t, Text(plural(len(summaries), "pulka")))


def finding_line(f: Any, pulka: str | None = None, where: str | None = None) -> Text:
    """One finding on one line (folded, never cut): ``[file:line: ][pulka: ]deal D, event S: code:
    message`` (``where``: the record line the event was read from, for a pulka read from a file)."""
    return lit(f"{where + ': ' if where else ''}{pulka + ': ' if pulka else ''}deal {f.deal}, event {f.seq}: "
               f"{f.code}: {f.message}")


def audit_view(a: Audited, width: int | None = None) -> Group:
    """A pulka's findings, one line each, then its recomputed sheet."""
    res = a.result
    head = Text(f"audit of {a.loaded.id} ({a.loaded.source}): {plural(len(res.findings), 'finding')} in "
                f"{plural(res.events, 'event')}, {plural(len(res.deals), 'deal')}",
                style="red" if res.findings else "green")
    head.stylize("bold", 0, len("audit of"))
    return Group(head, *[finding_line(f, where=a.loaded.where(f.seq, f)) for f in res.findings],
                 sheet_view(sheet_json(a), width), Text(""))


def sheet_view(s: dict[str, Any], width: int | None = None, lang: Lang = Lang.EN) -> Group:
    """A score sheet: :func:`totals_tables`, then each player's running chain as on paper
    (``2.4.10``), folded onto as many lines as it needs; its words in ``lang`` where the family has them."""
    players: list[str] = s["players"]
    terms = family_named(s.get("family")).sheet
    words = terms.words(s.get("rules"), lang)
    areas = [(h, "pulya") for h in _heads(s, lang)[:1]] + [(h, "gora") for h in _heads(s, lang)[1:]]
    mark = words.written_short
    title = (f"sheet of {s['id']} — {s.get('rules')} (pool {s.get('pool')})" if words.lang is Lang.EN else
             f"{s['id']} — {s.get('rules')} ({words.centre} {s.get('pool')})")
    parts = totals_tables(s, title, width, lang)

    def chain(key: str, p: str, q: str | None = None) -> str:
        first = s.get("start", {}).get(key, {}).get(p)
        first = first if q is None or first is None else first.get(q)
        vals: list[Any] = [first] if first else []
        for d in s["deals"]:
            v = d[key][p] if q is None else d[key][p].get(q)
            if v is not None and v != 0 and (not vals or vals[-1] != v):
                vals.append(v)
        return ".".join(map(str, vals)) or "0"

    lines = [Text(words.running, style="dim")]
    for p in players:
        pieces = [f"{header} {chain(key, p)}" for header, key in areas]
        pieces += [f"{words.written_on.format(mark, q)} {chain('visty', p, q)}" for q in players if q != p]
        # a piece ("visty on Anna 4.10") folds onto the next line whole: its spaces do not break
        lines.append(hanging(f"  {p}: " + "; ".join(x.replace(" ", NBSP) for x in pieces), width, 4))
    return Group(*parts, *lines)


def _heads(s: dict[str, Any], lang: Lang) -> list[str]:
    """The text tables' pulya and gora heads (Croatian: the contract column alone), in ``lang`` where the
    family has its words."""
    terms = family_named(s.get("family")).sheet
    words = terms.words(s.get("rules"), lang)
    if words.lang is Lang.EN:
        return [terms.pulya, *([terms.gora] if terms.gora else [])]
    return [words.pool_table, *([words.gora_table] if words.gora_table else [])]


def hanging(text: str, width: int | None, indent: int, style: str = "") -> Text:
    """``text`` folded at spaces into lines of at most ``width`` columns, the lines after the first indented
    by ``indent`` spaces (a word longer than a line breaks); as it is when the width is not known."""
    if width is None or len(text) <= width:
        return lit(text.replace(NBSP, " "), style)
    import textwrap

    lead = len(text) - len(text.lstrip(" "))
    folded = textwrap.fill(text.strip(), width, initial_indent=" " * lead, subsequent_indent=" " * indent,
                           break_on_hyphens=False)
    return lit(folded.replace(NBSP, " "), style)


NBSP = "\u00a0"  # a space where :func:`hanging` does not fold (textwrap breaks at ASCII white space only)


def totals_tables(s: dict[str, Any], title: str, width: int | None = None,
                  lang: Lang = Lang.EN) -> list[RenderableType]:
    """One row per player with the **final** totals (pulya, gora, visty written on each other player;
    Croatian: contract column and juha) and the settlement (exact, method 1, method 2, and money when
    the whist price is not 1). ``width``: the terminal's columns; the settlement moves to a table of
    its own when one table would not fit (names and numbers are never cut). ``lang``: the words, where
    the family has them in that language (``sheet --lang ru``)."""
    players: list[str] = s["players"]
    terms = family_named(s.get("family")).sheet
    words = terms.words(s.get("rules"), lang)
    totals = s["totals"]
    st = s["settlement"]
    heads = _heads(s, lang)
    areas = [(heads[0], "pulya")] + [(h, "gora") for h in heads[1:]]
    mark = words.written_short
    sheet_cols: list[tuple[str, list[str]]] = [(words.player, list(players))]
    for header, key in areas:
        sheet_cols.append((header, [str(totals[key].get(p, "")) for p in players]))
    for q in players:
        sheet_cols.append((words.written_on.format(mark, q),
                           ["—" if q == p else str(totals["visty"].get(p, {}).get(q, "")) for p in players]))
    # money is the shown result × the whist price: a column of its own only when the price is not 1
    money_differs = str(s.get("whist_price") or 1) not in ("1", "1/1") and \
        any(st["money"].get(p) != st["exact"].get(p) for p in players)
    # the paper methods only where the family rounds on paper (a Croatian sheet settles exactly, as drawn)
    methods = ((words.method1, "method1"), (words.method2, "method2")) if terms.paper_methods else ()
    settle_cols: list[tuple[str, list[str]]] = [
        (header, [str(st[key].get(p, "")) for p in players])
        for header, key in ((words.exact, "exact"), *methods, *(((words.money, "money"),) if money_differs else ()))]

    def col_width(header: str, cells: list[str]) -> int:
        return max([_header_width(header), *map(len, cells)])

    def table(title_text: str, cols: list[tuple[str, list[str]]]) -> RenderableType:
        widths = [col_width(h, c) for h, c in cols]
        # a title wider than its table goes above it, folded at the terminal's width with its further lines
        # indented (rich would fold it inside the table's width and centre every piece)
        above = len(title_text) > _table_width(widths)
        t = Table(title=None if above else titled(title_text))
        for i, (header, cells) in enumerate(cols):
            w = col_width(header, cells)
            t.add_column(lit(_wrap_header(header, w)), justify="left" if i == 0 else "right", no_wrap=True,
                         min_width=w)
        for r in range(len(players)):
            t.add_row(*[lit(cells[r]) for _, cells in cols])
        return Group(hanging(title_text, width, 2, "table.title"), t) if above else t

    together = sheet_cols + settle_cols
    if width is None or _table_width([col_width(h, c) for h, c in together]) <= width:
        return [table(title, together)]
    return [table(title, sheet_cols), table(words.settlement.lower(), [sheet_cols[0], *settle_cols])]


def settle_view(s: dict[str, Any], width: int | None = None) -> Group:
    """A sheet given as totals and its settlement (``settle``): :func:`totals_tables`."""
    price = s.get("whist_price")
    return Group(*totals_tables(s, f"settlement of {s['id']} — {s.get('rules')} (pool {s.get('pool')}, a vist at "
                                   f"{price if price is not None else '—'})", width))


def replay_view(loaded: Loaded, deal: int | None, trick: int | None) -> Panel:
    """The table after deal ``deal`` ended (default: the last deal), or after ``trick`` tricks of it.

    Replay states are live objects, so the view is rendered at the moment the point is reached.
    """
    last: tuple[ReplayStep, Deal] | None = None
    for step in replay(loaded.events):
        d = step.deal
        if d is None or (deal is not None and d.deal != deal):
            continue
        last = step, d
        if trick is not None and d.completed == trick and not d.trick_cards and (d.phase_name == "play" or d.done):
            return _render_step(loaded, step, d)
        if trick is None and d.done and deal is not None:
            return _render_step(loaded, step, d)
    if last is None:
        raise WorkspaceError(f"{loaded.id}: no deal {deal}" if deal is not None else f"{loaded.id}: no deals")
    last_step, last_deal = last
    if trick is not None:
        raise WorkspaceError(f"{loaded.id}: deal {last_deal.deal} has no point after {plural(trick, 'trick')} "
                             f"(it reached {last_deal.completed})")
    return _render_step(loaded, last_step, last_deal)


# Deals that end without a card played: what the replay says instead of a trick count.
_NO_PLAY = {"not_whisted": "both defenders passed", "half_whist": "the half-whist stood",
            "all_pass": "all passed", "conceded": "conceded"}


def _render_step(loaded: Loaded, step: ReplayStep, d: Deal) -> Panel:
    """The table at ``step``; ``d`` is its deal (``step.deal``, known not to be ``None``). The words of the
    score are the family's (:attr:`~preflog.engine.families.Family.sheet`: Croatian "column", "juha")."""
    players = step.pulka.players
    rules = step.pulka.rules
    family = family_of(rules)
    fmt_bid = family.bids.format
    terms = family.sheet
    lines: list[RenderableType] = [
        lit(f"{loaded.id} · deal {d.deal} · dealer {players[d.dealer]} · phase {d.phase_name}", "bold")]
    hands = Table(show_header=True)
    hands.add_column("player")
    hands.add_column("hand")
    hands.add_column("tricks", justify="right")
    hands.add_column("call")
    for s, name in enumerate(players):
        call = d.calls[s]
        hands.add_row(lit(name + (" (declarer)" if s == d.declarer else "") + (" (dealer)" if s == d.dealer else "")),
                      format_cards(d.hands[s], "unicode") if not d.paper else "(paper record)",
                      str(d.tricks[s]), CALL_NAMES.get(call, "") if call >= 0 else "")
    lines.append(hands)
    talon = d.talon
    if talon and not d.paper:
        lines.append(Text(f"talon: {format_cards(talon, 'unicode')}"))
    auction = ", ".join(f"{players[s]} {fmt_bid(b)}" for s, b in getattr(d.auction, "history", []))
    lines.append(lit(f"auction: {auction or '—'}"))
    if d.discard_mask and not d.paper and 0 <= d.declarer < len(players):
        lines.append(lit(f"discard: {players[d.declarer]} {format_cards(d.discard_mask, 'unicode')}"))
    if d.contract:
        lines.append(lit(f"contract: {players[d.declarer]} {contract_text(rules, d.contract)}"
                         + (" · open play" if d.open_play else "")))
    if d.trick_cards:
        lines.append(lit("trick: " + " ".join(f"{players[s]} {format_card(c, 'unicode')}"
                                              for s, c in zip(d.trick_seats, d.trick_cards, strict=False))))
    outcome = d.outcome
    if outcome is not None and str(outcome.kind) in _NO_PLAY and not any(d.tricks):
        lines.append(Text(f"no play: {_NO_PLAY[str(outcome.kind)]}"))
    else:
        # a paper record's deal (and a claim) credits its tricks at once: they are completed too
        lines.append(Text(f"tricks completed: {max(d.completed, sum(d.tricks))}"))
    sheet = step.pulka.sheet
    if sheet is not None:
        t = Table(title="score so far")
        t.add_column("player")
        t.add_column(terms.pulya)
        if terms.gora:
            t.add_column(terms.gora)
        t.add_column(f"{terms.visty} written")
        for i, name in enumerate(players):
            written = lit(", ".join(f"{players[j]} {frac(sheet.visty[i][j])}" for j in range(len(players)) if j != i))
            t.add_row(lit(name), str(frac(sheet.pulya[i])), *([str(frac(sheet.gora[i]))] if terms.gora else []),
                      written)
        lines.append(t)
    return Panel(Group(*lines), title="replay")


# Terminal columns per known report (by title): (header, column, kind). ``rate`` cells show the
# column with its Wilson interval (``<col>_lo`` / ``<col>_hi``); csv/json/parquet/markdown keep every
# column — the terminal cannot show ~30 of them readably.
_COUNT, _RATE, _NUM, _TEXT, _EXACT = "count", "rate", "num", "text", "exact"  # exact: "n/d" text, right-aligned
TABLE_COLUMNS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "players": (
        ("player", "player", _TEXT), ("pulkas", "pulkas", _COUNT), ("deals", "deals_played", _COUNT),
        ("declared", "declared", _COUNT), ("declarer success", "declarer_success", _RATE),
        ("whist rate", "whist_rate", _RATE), ("whist success", "whist_success", _RATE),
        ("miser success", "miser_success", _RATE), ("raspasy tricks", "raspasy_tricks_per_deal", _NUM),
        ("avg visty", "avg_visty", _NUM), ("total visty", "total_visty", _NUM),
        ("avg points", "avg_points", _NUM), ("total points", "total_points", _NUM),
    ),
    "contracts": (
        ("contract", "contract_label", _TEXT), ("n", "n", _COUNT), ("made", "made", _COUNT),
        ("success", "success", _RATE), ("played", "played", _COUNT),
        ("undertricks when failed", "mean_undertricks", _NUM), ("declarer value", "mean_declarer_value", _NUM),
    ),
    "counterfactual": (  # compare: the exact settlements (n/d), not their float approximations
        ("player", "player", _TEXT), ("rules", "alt_rules", _TEXT), ("pulkas", "pulkas", _COUNT),
        ("recorded rules", "base_text", _EXACT), ("these rules", "alternative_text", _EXACT),
        ("difference", "diff_text", _EXACT),
    ),
    "skill": (
        ("player", "player", _TEXT), ("pulkas", "pulkas", _COUNT), ("cards", "cards", _NUM),
        ("play", "play", _NUM), ("result", "result", _NUM), ("play rating", "rating_ordinal", _NUM),
        ("raw rating", "raw_ordinal", _NUM), ("margin rating", "margin_rating", _NUM),
        ("not makeable", "not_makeable_share", _RATE), ("passed makeable", "passed_makeable_share", _RATE),
        ("whist right", "whist_right_share", _RATE), ("decl. lost /100", "declarer_lost_per_100", _NUM),
        ("def. lost /100", "defender_lost_per_100", _NUM), ("misers caught", "misers_caught_share", _RATE),
    ),
    "variants": (
        ("preset", "preset", _TEXT), ("pulkas", "pulkas", _COUNT), ("deals", "deals", _COUNT),
        ("deals/pulka", "deals_per_pulka", _NUM), ("raspasy rate", "raspasy_rate", _RATE),
        ("refe rate", "refe_rate", _RATE), ("declared", "declared", _COUNT),
        ("declarer success", "declarer_success", _RATE), ("declarer edge", "declarer_edge", _NUM),
        ("result stddev", "result_stddev", _NUM),
    ),
}
_SUMMED = {"contracts": ("n", "made", "played")}  # footer totals of count columns
# Columns left out when they say nothing for these rows (no refe outside the Croatian family).
_DROP_IF_ZERO = {"refe_rate": "refe"}
# Columns left out when every row is NULL (visty without Russian pulkas, points without Croatian ones).
_DROP_IF_NULL = frozenset({"avg_visty", "total_visty", "avg_points", "total_points"})


FOLD_MIN = 12  # a query's (``sql``) text column folds onto further lines when this many columns are left for it

# Columns every terminal width keeps (a row says nothing without them); the others go, last first,
# when the table would not fit: nothing is ever cut with "…".
_KEY_COLUMNS = {
    "players": ("player", "deals_played", "declarer_success", "avg_visty", "total_visty", "avg_points", "total_points"),
    "contracts": ("contract_label", "family", "n", "made", "success"),
    "variants": ("preset", "pulkas", "deals", "declarer_success"),
    "skill": ("player", "cards", "play", "rating_ordinal", "raw_ordinal"),
    "counterfactual": ("player", "alt_rules", "base_text", "alternative_text", "diff_text"),
}


def _table_width(widths: Sequence[int]) -> int:
    """Columns a rich table with the default box and padding takes for these cell widths."""
    return sum(widths) + 3 * len(widths) + 1


def _header_width(header: str) -> int:
    return max((len(w) for w in header.split()), default=0)


def _wrap_header(header: str, width: int) -> str:
    """A header folded at spaces into lines of at most ``width`` (its longest word never breaks)."""
    lines: list[str] = []
    for word in header.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines)


def frame_table(df: Any, title: str, limit: int | None = None, width: int | None = None) -> Group:
    """A DataFrame as a rich table: a readable column selection for the known reports
    (:data:`TABLE_COLUMNS`), every column otherwise; ``<x>_lo``/``<x>_hi`` pairs are folded
    into ``x`` as ``0.83 [0.61–0.94]``.

    ``width``: the terminal's columns. The table then fits without cutting a cell: first the Wilson
    intervals go (rates alone), then the optional columns, last first; the key columns
    (:data:`_KEY_COLUMNS`: names and the headline numbers) always stay, and a note names what was left out.
    In a query's table (``sql``) a text column that would go folds onto further lines instead when at
    least :data:`FOLD_MIN` columns are left for it.
    """
    spec = TABLE_COLUMNS.get(title)
    if spec is not None:
        spec = tuple(s for s in spec if s[1] in df.columns
                     and not (s[1] in _DROP_IF_ZERO and _DROP_IF_ZERO[s[1]] in df.columns
                              and not df[_DROP_IF_ZERO[s[1]]].fillna(0).any())
                     and not (s[1] in _DROP_IF_NULL and len(df) and df[s[1]].isna().all()))
        if title == "contracts":
            spec = _contract_label_spec(df, spec)
    else:
        spec = _generic_spec(df)
    shown = df if limit is None else df.head(limit)
    sums = [c for c in _SUMMED.get(title, ()) if c in df.columns]
    digits = {col: _digits(df[col]) for _, col, kind in spec if kind == _NUM}
    records = shown.to_dict("records")

    def cells(col: str, kind: str, short: bool) -> list[str]:
        return [_render(row, col, kind, digits.get(col, 0), short) for row in records]

    def footer_of(i: int, col: str, kind: str) -> str:
        if col in sums:
            return str(int(df[col].sum()))
        if i == 0 and sums:
            return "total"
        if kind == _RATE and col == "success" and {"n", "made"} <= set(df.columns) and df["n"].sum():
            return _num(df["made"].sum() / df["n"].sum(), 2)  # pooled success over all rows
        return ""

    columns = [(header, col, kind, footer_of(i, col, kind)) for i, (header, col, kind) in enumerate(spec)]
    short: set[str] = set()  # rate columns shown without their interval
    folded: dict[str, int] = {}  # text columns folded onto further lines: their width
    hidden: list[str] = []
    if width is not None:
        keys = set(_KEY_COLUMNS.get(title, ())) | {spec[0][1]} if spec else set()
        rates = [c for _, c, k, _ in columns if k == _RATE]

        def need(cols: Sequence[tuple[str, str, str, str]]) -> int:
            return _table_width([folded.get(c) or max([_header_width(h), len(f), *map(len, cells(c, k, c in short))])
                                 for h, c, k, f in cols])

        for stage in (rates[1:], rates):  # the first (headline) rate keeps its interval longest
            if need(columns) > width and set(stage) - short:
                short |= set(stage)
        if short:
            hidden.append("the 95 % intervals" if short == set(rates) else "the other 95 % intervals")
        while need(columns) > width:
            drop = next((x for x in reversed(columns) if x[1] not in keys and x[1] != columns[0][1]), None)
            if drop is None:
                break
            if title not in TABLE_COLUMNS and drop[2] == _TEXT:  # a query's text column folds when it can
                room = width - need([x for x in columns if x is not drop]) - 3
                if room >= FOLD_MIN:
                    folded[drop[1]] = room
                    break
            columns.remove(drop)
            hidden.append(drop[0])
    t = Table(title=titled(title if limit is None or len(df) <= limit else f"{title} (first {limit} of {len(df)})"),
              show_footer=bool(sums) and len(df) > 1)
    body = []
    for header, col, kind, footer in columns:
        col_cells = cells(col, kind, col in short)
        if col in folded:
            t.add_column(lit(header), footer=footer, overflow="fold", width=folded[col])
            body.append(col_cells)
            continue
        w = max([_header_width(header), len(footer), *map(len, col_cells)])
        t.add_column(lit(_wrap_header(header, w)), footer=footer, justify="left" if kind == _TEXT else "right",
                     no_wrap=True, min_width=w)
        body.append(col_cells)
    for r in range(len(records)):
        t.add_row(*[lit(body[c][r]) for c in range(len(columns))])
    if not hidden:
        return Group(t)
    note = "left out at this width: " + ", ".join(hidden) + " (a wider terminal, or --format csv/json/markdown, " \
        "shows every column)"
    return Group(t, Text(note, style="dim"))


def _digits(col: Any) -> int:
    """Decimals for a numeric column: none when all whole, else 1 (2 when every value is small)."""
    vals = [float(v) for v in col if not _missing(v) and not isinstance(v, bool)]
    if all(v.is_integer() for v in vals):
        return 0
    return 2 if max(abs(v) for v in vals) < 10 else 1


def _contract_label_spec(df: Any, spec: tuple[tuple[str, str, str], ...]) -> tuple[tuple[str, str, str], ...]:
    """Contracts grouped by other dimensions keep those as leading text columns."""
    lead = [(c, c, _TEXT) for c in df.columns
            if c not in {s[1] for s in spec} and c not in ("contract", "family", "hand_game")
            and not c.endswith(("_lo", "_hi")) and c not in ("success", "mean_undertricks", "mean_declarer_value")]
    if "family" in df.columns and df["family"].nunique() > 1:
        lead.insert(0, ("family", "family", _TEXT))
    return tuple(lead) + spec


def _generic_spec(df: Any) -> tuple[tuple[str, str, str], ...]:
    cols = [str(c) for c in df.columns]
    folded = {c for c in cols if f"{c}_lo" in cols and f"{c}_hi" in cols}
    spec = []
    for c in cols:
        if c.endswith(("_lo", "_hi")) and c[:-3] in folded:
            continue
        numeric = df[c].dtype.kind in "iuf"  # ints and floats; bools, dates, text and lists print as text
        kind = _RATE if c in folded else _NUM if numeric else _TEXT
        spec.append((c, c, kind))
    return tuple(spec)


def _missing(v: Any) -> bool:
    """A NULL of any column type: None, NaN, NaT, or pandas' ``NA`` (what DuckDB gives for a NULL in an
    integer or boolean column)."""
    if v is None:
        return True
    try:
        return bool(v != v)  # NaN and NaT are not equal to themselves
    except (TypeError, ValueError):  # pd.NA != pd.NA is NA, whose truth is an error; a list's is ambiguous
        import pandas as pd

        return v is pd.NA


def _num(v: Any, digits: int) -> str:
    if _missing(v):
        return ""
    if isinstance(v, bool):
        return str(v)
    f = float(v)
    return str(int(f)) if f.is_integer() and abs(f) < 1e15 else f"{f:.{digits}f}"


def _render(row: dict[str, Any], col: str, kind: str, digits: int = 0, short: bool = False) -> str:
    v = row.get(col)
    if col == "contract_label" and row.get("hand_game") is True:
        return f"{v} hand"
    if kind == _RATE:
        if v is None or _missing(v):
            return "–"
        lo, hi = row.get(f"{col}_lo"), row.get(f"{col}_hi")
        if short or lo is None or hi is None or _missing(lo) or _missing(hi):
            return f"{float(v):.2f}"
        return f"{float(v):.2f} [{float(lo):.2f}–{float(hi):.2f}]"
    if kind == _COUNT:
        return _num(v, 0)
    if kind == _NUM:
        return "" if v is None or _missing(v) else str(v) if isinstance(v, bool) else f"{float(v):.{digits}f}"
    return "" if _missing(v) else str(v)


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.3f}" if v == v else ""
    return "" if _missing(v) else str(v)


def frame_markdown(df: Any) -> str:
    cols = [str(c) for c in df.columns]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in df.itertuples(index=False):
        out.append("| " + " | ".join(_cell(v) for v in r) + " |")
    return "\n".join(out) + "\n"


def import_by_file(items: Sequence[ImportItem]) -> Group:
    """One row per file: how many pulkas were imported, already stored or refused, and their deals (names
    relative to the folder the files share, folded rather than cut; the audit that follows in the demo
    counts the findings)."""
    base, names = source_names([i.source for i in items])
    t = Table(title="import" + (f" (files under {base})" if base else ""))
    for col in ("file", "pulkas", "new", "already stored", "deals"):
        t.add_column(_wrap_header(col, 7), justify="left" if col == "file" else "right", no_wrap=col != "file",
                     overflow="fold")
    files: dict[str, list[ImportItem]] = {}
    for i in items:
        files.setdefault(i.source, []).append(i)
    last: list[str] = []
    for src, its in files.items():
        name = _folder_rows(t, names[src], last, 5)
        if its[0].status == "error":
            t.add_row(lit(name), "[red]error[/red]", "", "", "")
            continue
        t.add_row(lit(name), str(len(its)), str(sum(i.status == "imported" for i in its)),
                  str(sum(i.status == "duplicate" for i in its)), str(sum(i.deals for i in its)))
    errors = [Text(i.error, style="red") for i in items if i.status == "error"]
    return Group(t, *errors)


def audit_overview(audited: Sequence[Audited], limit: int | None = DETAIL_ROWS) -> Group:
    """Totals per rules preset, then the findings, one line each naming the pulka (the first ``limit``)."""
    t = Table(title="audit by rules")
    for col in ("rules", "pulkas", "deals", "events", "clean pulkas", "findings"):
        t.add_column(col, justify="left" if col == "rules" else "right")
    groups: dict[str, list[Audited]] = {}
    for a in audited:
        groups.setdefault(a.result.rules.name if a.result.rules else "?", []).append(a)
    for name, grp in sorted(groups.items()):
        t.add_row(lit(name), str(len(grp)), str(sum(len(a.result.deals) for a in grp)),
                  str(sum(a.result.events for a in grp)), str(sum(a.result.ok for a in grp)),
                  str(sum(len(a.result.findings) for a in grp)))
    lines = [finding_line(x, a.loaded.id, a.loaded.where(x.seq, x)) for a in audited for x in a.result.findings]
    if not lines:
        return Group(t, Text("every pulka audits clean", style="green"))
    bad = sum(1 for a in audited if a.result.findings)
    head = Text(f"{plural(len(lines), 'finding')} in {plural(bad, 'pulka')}:", style="red")
    if limit is not None and len(lines) > limit:
        more = Text(f"… and {len(lines) - limit} more (--details prints every pulka)", style="dim")
        return Group(t, head, *lines[:limit], more)
    return Group(t, head, *lines)


def analysis_report(built: BuildResult, rows: Sequence[dict[str, Any]]) -> RenderableType:
    """``analyze --all``: what the run did, then per player the play-analysis report (docs/analysis.md)."""
    from ..analysis import solver_name

    head = Text(f"play_analysis: {plural(built.analysed, 'pulka')} analysed ({plural(built.deals, 'deal')}), "
                f"{built.current} already current, {built.dropped} dropped · solver {solver_name()}")
    from rich import box

    t = Table(title="Play by double dummy, per player", title_justify="left", box=box.SIMPLE_HEAD,
              pad_edge=False, collapse_padding=True)
    for name in ("player", "unit", "lost/100\ndecl.", "lost/100\ndef.", "made/\nmakeable", "misère\ncaught/\ncatchable",
                 "whists\nright/\nwrong", "cost"):
        t.add_column(name, justify="left" if name in ("player", "unit") else "right", overflow="fold",
                     min_width=max(len(w) for w in name.split("\n")))

    def per100(x: Any) -> str:
        return "-" if x is None else f"{x:.1f}"
    for r in rows:
        t.add_row(lit(r["player"]), r["unit"], per100(r["declarer_lost_per_100"]), per100(r["defender_lost_per_100"]),
                  f"{r['contracts_made_of_makeable']}/{r['contracts_makeable']}",
                  f"{r['misers_caught']}/{r['misers_catchable']}", f"{r['whists_right']}/{r['whists_wrong']}",
                  f"{r['cost']:.1f}")
    if rows:
        return Group(head, t)
    # a store of paper-level deals (the tricks taken, no hands): nothing a double-dummy solver can judge
    return Group(head, Text("no deal here has its cards recorded: the double-dummy analysis needs each hand "
                            "(a record's hand lines, or card-level entry in preflog serve)"))
