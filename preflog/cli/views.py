"""Rich renderables for the CLI (tables and panels); no logic beyond layout."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..api import Audited, ImportItem, Loaded, Workspace, contract_text, frac, sheet_json
from ..engine.replay import replay
from ..model.bids import format_hr_bid, format_ru_bid
from ..model.calls import CALL_NAMES
from ..model.cards import format_card, format_cards


def import_table(items: Sequence[ImportItem], limit: int | None = None) -> Any:
    t = Table(title="import", show_lines=False)
    for col in ("source", "pulka", "status", "deals", "events", "findings"):
        t.add_column(col, justify="right" if col in ("deals", "events", "findings") else "left")
    shown = items if limit is None else items[:limit]
    for i in shown:
        status = {"imported": "[green]imported[/green]", "duplicate": "[yellow]duplicate[/yellow]",
                  "error": "[red]error[/red]"}[i.status]
        t.add_row(i.source, i.pulka, status, str(i.deals), str(i.events), str(i.findings))
    counts = {s: sum(1 for i in items if i.status == s) for s in ("imported", "duplicate", "error")}
    summary = Text(f"{counts['imported']} imported, {counts['duplicate']} already stored, {counts['error']} "
                   f"files with errors" + (f" ({len(items) - len(shown)} more rows not shown)" if limit and
                                           len(items) > limit else ""))
    errors = [Text(i.error, style="red") for i in items if i.status == "error"]
    return Group(t, summary, *errors)


def pulka_list(ws: Workspace) -> Table:
    t = Table(title=f"pulkas in {ws.root}")
    for col in ("pulka", "events", "last seq"):
        t.add_column(col)
    for info in ws.store().pulkas():
        t.add_row(info.pulka, str(info.events), str(info.last_seq))
    return t


def audit_view(a: Audited) -> Any:
    res = a.result
    t = Table(title=f"audit of {a.loaded.id} ({a.loaded.source})")
    for col in ("code", "deal", "seq", "finding"):
        t.add_column(col)
    for f in res.findings:
        t.add_row(f.code, str(f.deal), str(f.seq), f.message)
    head = Text(f"{len(res.findings)} findings in {res.events} events, {len(res.deals)} deals",
                style="red" if res.findings else "green")
    return Group(head, t if res.findings else Text(""), sheet_view(sheet_json(a)))


def audit_summary(audited: Sequence[Audited]) -> Table:
    t = Table(title="audit")
    for col in ("pulka", "rules", "deals", "findings", "codes"):
        t.add_column(col)
    for a in audited:
        codes = sorted({f.code for f in a.result.findings})
        t.add_row(a.loaded.id, a.result.rules.name if a.result.rules else "?", str(len(a.result.deals)),
                  str(len(a.result.findings)), ", ".join(codes))
    return t


def sheet_view(s: dict[str, Any]) -> Table:
    players: list[str] = s["players"]
    t = Table(title=f"sheet of {s['id']} — {s.get('rules')} (pool {s.get('pool')})")
    t.add_column("player")
    t.add_column("pulya")
    t.add_column("gora")
    for q in players:
        t.add_column(f"visty on {q}", justify="right")
    for col in ("exact", "method 1", "method 2", "money"):
        t.add_column(col, justify="right")

    def chain(area: str, p: str, q: str | None = None) -> str:
        vals: list[Any] = []
        for d in s["deals"]:
            v = d[area][p] if q is None else d[area][p].get(q)
            if v is not None and v != 0 and (not vals or vals[-1] != v):
                vals.append(v)
        return ".".join(map(str, vals)) or "0"

    st = s["settlement"]
    for p in players:
        t.add_row(p, chain("pulya", p), chain("gora", p),
                  *[("—" if q == p else chain("visty", p, q)) for q in players],
                  str(st["exact"].get(p, "")), str(st["method1"].get(p, "")), str(st["method2"].get(p, "")),
                  str(st["money"].get(p, "")))
    return t


def replay_view(loaded: Loaded, deal: int | None, trick: int | None) -> Any:
    """The table after deal ``deal`` ended (default: the last deal), or after ``trick`` tricks of it.

    Replay states are live objects, so the view is rendered at the moment the point is reached.
    """
    last = None
    for step in replay(loaded.events):
        d = step.deal
        if d is None or (deal is not None and d.deal != deal):
            continue
        last = step
        if trick is not None and d.completed == trick and not d.trick_cards and (d.phase_name == "play" or d.done):
            return _render_step(loaded, step)
        if trick is None and d.done and deal is not None:
            return _render_step(loaded, step)
    if last is None:
        raise ValueError(f"{loaded.id}: no deal {deal}" if deal is not None else f"{loaded.id}: no deals")
    if trick is not None:
        raise ValueError(f"{loaded.id}: deal {last.deal.deal} has no point after {trick} tricks "
                         f"(it reached {last.deal.completed})")
    return _render_step(loaded, last)


def _render_step(loaded: Loaded, step: Any) -> Any:
    players = step.pulka.players
    d = step.deal
    rules = step.pulka.rules
    fmt_bid = format_hr_bid if rules.family == "croatian" else format_ru_bid
    lines = [Text(f"{loaded.id} · deal {d.deal} · dealer {players[d.dealer]} · phase {d.phase_name}", style="bold")]
    hands = Table(show_header=True)
    hands.add_column("player")
    hands.add_column("hand")
    hands.add_column("tricks", justify="right")
    hands.add_column("call")
    for s, name in enumerate(players):
        call = d.calls[s]
        hands.add_row(name + (" (declarer)" if s == d.declarer else "") + (" (dealer)" if s == d.dealer else ""),
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
            t.add_row(name, str(frac(sheet.pulya[i])), str(frac(sheet.gora[i])),
                      ", ".join(f"{players[j]} {frac(sheet.visty[i][j])}" for j in range(len(players)) if j != i))
        lines.append(t)
    return Panel(Group(*lines), title="replay")


def frame_table(df: Any, title: str, limit: int | None = None) -> Table:
    t = Table(title=title)
    for c in df.columns:
        t.add_column(str(c))
    rows = df.itertuples(index=False) if limit is None else df.head(limit).itertuples(index=False)
    for r in rows:
        t.add_row(*[_cell(v) for v in r])
    return t


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
