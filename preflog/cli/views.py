"""Rich renderables for the CLI (tables and panels); no logic beyond layout."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine.deal import Deal
from ..engine.families import family_of
from ..engine.replay import ReplayStep
from ..engine.replay import replay
from ..errors import WorkspaceError
from ..model.calls import CALL_NAMES
from ..model.cards import format_card
from ..model.cards import format_cards
from ..views.json import contract_text
from ..views.json import frac
from ..views.json import sheet_json
from ..workspace import Audited
from ..workspace import ImportItem
from ..workspace import Loaded
from ..workspace import Workspace


def lit(value: object, style: str = "") -> Text:
    """User-supplied text (ids, names, paths, messages quoting a record) as literal text: never read as
    Rich markup (``[bold]``, ``[/x]``) or emoji codes (``:100:``)."""
    return Text(str(value), style=style)


def titled(value: str) -> Text:
    """A table title holding user-supplied text, styled as Rich styles a plain title."""
    return lit(value, "table.title")


def import_table(items: Sequence[ImportItem], limit: int | None = None) -> Group:
    t = Table(title="import", show_lines=False)
    for col in ("source", "pulka", "status", "deals", "events", "findings"):
        t.add_column(col, justify="right" if col in ("deals", "events", "findings") else "left")
    shown = items if limit is None else items[:limit]
    for i in shown:
        status = {"imported": "[green]imported[/green]", "duplicate": "[yellow]duplicate[/yellow]",
                  "error": "[red]error[/red]"}[i.status]
        t.add_row(lit(i.source), lit(i.pulka), status, str(i.deals), str(i.events), str(i.findings))
    counts = {s: sum(1 for i in items if i.status == s) for s in ("imported", "duplicate", "error")}
    summary = Text(f"{counts['imported']} imported, {counts['duplicate']} already stored, {counts['error']} "
                   f"files with errors" + (f" ({len(items) - len(shown)} more rows not shown)" if limit and
                                           len(items) > limit else ""))
    errors = [Text(i.error, style="red") for i in items if i.status == "error"]
    return Group(t, summary, *errors)


def pulka_list(ws: Workspace) -> Table:
    t = Table(title=titled(f"pulkas in {ws.root}"))
    for col in ("pulka", "events", "last seq"):
        t.add_column(col)
    for info in ws.store().pulkas():
        t.add_row(lit(info.pulka), str(info.events), str(info.last_seq))
    return t


def audit_view(a: Audited) -> Group:
    res = a.result
    t = Table(title=titled(f"audit of {a.loaded.id} ({a.loaded.source})"))
    for col in ("code", "deal", "seq", "finding"):
        t.add_column(col)
    for f in res.findings:
        t.add_row(f.code, str(f.deal), str(f.seq), lit(f.message))
    head = Text(f"{len(res.findings)} findings in {res.events} events, {len(res.deals)} deals",
                style="red" if res.findings else "green")
    return Group(head, t if res.findings else Text(""), sheet_view(sheet_json(a)))


def sheet_view(s: dict[str, Any]) -> Table:
    players: list[str] = s["players"]
    t = Table(title=titled(f"sheet of {s['id']} — {s.get('rules')} (pool {s.get('pool')})"))
    croatian = s.get("family") == "croatian"
    t.add_column("player")
    t.add_column("column" if croatian else "pulya")
    if not croatian:
        t.add_column("gora")
    for q in players:
        t.add_column(lit(f"{'juha' if croatian else 'visty'} on {q}"), justify="right")
    for col in ("exact", "method 1", "method 2", "money"):
        t.add_column(col, justify="right")

    def chain(area: str, p: str, q: str | None = None) -> str:
        first = s.get("start", {}).get(area, {}).get(p)
        first = first if q is None or first is None else first.get(q)
        vals: list[Any] = [first] if first else []
        for d in s["deals"]:
            v = d[area][p] if q is None else d[area][p].get(q)
            if v is not None and v != 0 and (not vals or vals[-1] != v):
                vals.append(v)
        return ".".join(map(str, vals)) or "0"

    st = s["settlement"]
    for p in players:
        t.add_row(lit(p), chain("pulya", p), *([] if croatian else [chain("gora", p)]),
                  *[("—" if q == p else chain("visty", p, q)) for q in players],
                  str(st["exact"].get(p, "")), str(st["method1"].get(p, "")), str(st["method2"].get(p, "")),
                  str(st["money"].get(p, "")))
    return t


def settle_view(s: dict[str, Any]) -> Table:
    """A sheet given as totals and its settlement (``settle``): one row per player."""
    players: list[str] = s["players"]
    croatian = s.get("family") == "croatian"
    price = s.get("whist_price")
    t = Table(title=titled(f"settlement of {s['id']} — {s.get('rules')} (pool {s.get('pool')}, "
                           f"a vist at {price if price is not None else '—'})"))
    t.add_column("player")
    t.add_column("column" if croatian else "pulya", justify="right")
    if not croatian:
        t.add_column("gora", justify="right")
    for q in players:
        t.add_column(lit(f"{'juha' if croatian else 'visty'} on {q}"), justify="right")
    for col in ("exact", "method 1", "method 2", "money"):
        t.add_column(col, justify="right")
    tot, st = s["totals"], s["settlement"]
    for p in players:
        t.add_row(lit(p), str(tot["pulya"][p]), *([] if croatian else [str(tot["gora"][p])]),
                  *[("—" if q == p else str(tot["visty"][p][q])) for q in players],
                  *[str(st[k].get(p, "")) for k in ("exact", "method1", "method2", "money")])
    return t


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
        raise WorkspaceError(f"{loaded.id}: deal {last_deal.deal} has no point after {trick} tricks "
                             f"(it reached {last_deal.completed})")
    return _render_step(loaded, last_step, last_deal)


def _render_step(loaded: Loaded, step: ReplayStep, d: Deal) -> Panel:
    """The table at ``step``; ``d`` is its deal (``step.deal``, known not to be ``None``)."""
    players = step.pulka.players
    rules = step.pulka.rules
    fmt_bid = family_of(rules).bids.format
    lines: list[RenderableType] = [
        Text(f"{loaded.id} · deal {d.deal} · dealer {players[d.dealer]} · phase {d.phase_name}", style="bold")]
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
    auction = ", ".join(f"{players[s]} {fmt_bid(b)}" for s, b in getattr(d.auction, "history", []))
    lines.append(Text(f"auction: {auction or '—'}"))
    if d.contract:
        lines.append(Text(f"contract: {players[d.declarer]} {contract_text(rules, d.contract)}"
                          + (" · open play" if d.open_play else "")))
    if d.trick_cards:
        lines.append(Text("trick: " + " ".join(f"{players[s]} {format_card(c, 'unicode')}"
                                               for s, c in zip(d.trick_seats, d.trick_cards, strict=False))))
    lines.append(Text(f"tricks completed: {d.completed}"))
    sheet = step.pulka.sheet
    if sheet is not None:
        t = Table(title="score so far")
        t.add_column("player")
        t.add_column("pulya")
        t.add_column("gora")
        t.add_column("visty written")
        for i, name in enumerate(players):
            t.add_row(lit(name), str(frac(sheet.pulya[i])), str(frac(sheet.gora[i])),
                      lit(", ".join(f"{players[j]} {frac(sheet.visty[i][j])}" for j in range(len(players)) if j != i)))
        lines.append(t)
    return Panel(Group(*lines), title="replay")


# Terminal columns per known report (by title): (header, column, kind). ``rate`` cells show the
# column with its Wilson interval (``<col>_lo`` / ``<col>_hi``); csv/json/parquet/markdown keep every
# column — the terminal cannot show ~30 of them readably.
_COUNT, _RATE, _NUM, _TEXT = "count", "rate", "num", "text"
TABLE_COLUMNS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "players": (
        ("player", "player", _TEXT), ("pulkas", "pulkas", _COUNT), ("deals", "deals_played", _COUNT),
        ("declared", "declared", _COUNT), ("declarer success", "declarer_success", _RATE),
        ("whist rate", "whist_rate", _RATE), ("whist success", "whist_success", _RATE),
        ("miser success", "miser_success", _RATE), ("raspasy tricks", "raspasy_tricks_per_deal", _NUM),
        ("avg result", "avg_result", _NUM), ("total visty", "total_visty", _NUM),
    ),
    "contracts": (
        ("contract", "contract_label", _TEXT), ("n", "n", _COUNT), ("made", "made", _COUNT),
        ("success", "success", _RATE), ("played", "played", _COUNT),
        ("undertricks when failed", "mean_undertricks", _NUM), ("declarer value", "mean_declarer_value", _NUM),
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


def frame_table(df: Any, title: str, limit: int | None = None) -> Table:
    """A DataFrame as a rich table: a readable column selection for the known reports
    (:data:`TABLE_COLUMNS`), every column otherwise; ``<x>_lo``/``<x>_hi`` pairs are folded
    into ``x`` as ``0.83 [0.61–0.94]``."""
    spec = TABLE_COLUMNS.get(title)
    if spec is not None:
        spec = tuple(s for s in spec if s[1] in df.columns
                     and not (s[1] in _DROP_IF_ZERO and _DROP_IF_ZERO[s[1]] in df.columns
                              and not df[_DROP_IF_ZERO[s[1]]].fillna(0).any()))
        if title == "contracts":
            spec = _contract_label_spec(df, spec)
    else:
        spec = _generic_spec(df)
    shown = df if limit is None else df.head(limit)
    sums = [c for c in _SUMMED.get(title, ()) if c in df.columns]
    t = Table(title=titled(title if limit is None or len(df) <= limit else f"{title} (first {limit} of {len(df)})"),
              show_footer=bool(sums) and len(df) > 1)
    for i, (header, col, kind) in enumerate(spec):
        footer = ""
        if col in sums:
            footer = str(int(df[col].sum()))
        elif i == 0 and sums:
            footer = "total"
        elif kind == _RATE and col == "success" and {"n", "made"} <= set(df.columns) and df["n"].sum():
            footer = _num(df["made"].sum() / df["n"].sum(), 2)  # pooled success over all rows
        t.add_column(lit(header), footer=footer, justify="left" if kind == _TEXT else "right",
                     no_wrap=kind == _RATE)
    digits = {col: _digits(df[col]) for _, col, kind in spec if kind == _NUM}
    for row in shown.to_dict("records"):
        t.add_row(*[lit(_render(row, col, kind)) if kind == _TEXT else _render(row, col, kind, digits.get(col, 0))
                    for _, col, kind in spec])
    return t


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
        kind = _RATE if c in folded else _TEXT if df[c].dtype == object or str(df[c].dtype) in ("string", "str") \
            else _NUM
        spec.append((c, c, kind))
    return tuple(spec)


def _missing(v: Any) -> bool:
    try:
        return v is None or bool(v != v)  # NaN, NaT and pd.NA are not equal to themselves
    except (TypeError, ValueError):
        return False


def _num(v: Any, digits: int) -> str:
    if _missing(v):
        return ""
    if isinstance(v, bool):
        return str(v)
    f = float(v)
    return str(int(f)) if f.is_integer() and abs(f) < 1e15 else f"{f:.{digits}f}"


def _render(row: dict[str, Any], col: str, kind: str, digits: int = 0) -> str:
    v = row.get(col)
    if col == "contract_label" and row.get("hand_game") is True:
        return f"{v} hand"
    if kind == _RATE:
        if v is None or _missing(v):
            return "–"
        lo, hi = row.get(f"{col}_lo"), row.get(f"{col}_hi")
        if lo is None or hi is None or _missing(lo) or _missing(hi):
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
    return str(v)


def frame_markdown(df: Any) -> str:
    cols = [str(c) for c in df.columns]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in df.itertuples(index=False):
        out.append("| " + " | ".join(_cell(v) for v in r) + " |")
    return "\n".join(out) + "\n"


def import_by_file(items: Sequence[ImportItem]) -> Group:
    """One row per file: how many pulkas were imported, already stored or refused."""
    t = Table(title="import")
    for col in ("file", "pulkas", "imported", "already stored", "deals", "events", "findings"):
        t.add_column(col, justify="left" if col == "file" else "right")
    files: dict[str, list[ImportItem]] = {}
    for i in items:
        files.setdefault(i.source, []).append(i)
    for src, its in files.items():
        if its[0].status == "error":
            t.add_row(lit(src), "[red]error[/red]", "", "", "", "", "")
            continue
        t.add_row(lit(src), str(len(its)), str(sum(i.status == "imported" for i in its)),
                  str(sum(i.status == "duplicate" for i in its)), str(sum(i.deals for i in its)),
                  str(sum(i.events for i in its)), str(sum(i.findings for i in its)))
    errors = [Text(i.error, style="red") for i in items if i.status == "error"]
    return Group(t, *errors)


def audit_overview(audited: Sequence[Audited]) -> Group:
    """Totals per rules preset, then every pulka that has findings with its codes."""
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
    bad = [a for a in audited if a.result.findings]
    if not bad:
        return Group(t, Text("every pulka audits clean", style="green"))
    f = Table(title="pulkas with findings")
    for col in ("pulka", "deal", "seq", "code", "finding"):
        f.add_column(col)
    for a in bad:
        for x in a.result.findings:
            f.add_row(lit(a.loaded.id), str(x.deal), str(x.seq), x.code, lit(x.message))
    return Group(t, f)
