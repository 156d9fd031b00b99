"""A self-contained HTML report: tables plus inline SVG charts drawn here (no external file), rendered
through :mod:`preflog.templates` (``report.html``: autoescaped, a policy that lets only the page's own small
script run, by its hash: ``report.js`` sorts the pulka table).

Charts: declarer success by contract (bars with Wilson whiskers), player comparison
(total result in visty), variant deltas (each preset's figure minus the mean over presets).
"""

from __future__ import annotations

import contextlib
import datetime
import html
import math
import os
from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from typing import TypedDict
from typing import Unpack

import duckdb
import pandas as pd
from babel.dates import format_date

from ..engine.families import family_named
from ..templates import LANG
from ..templates import Markup
from ..templates import page
from ..templates.i18n import N_
from ..templates.i18n import gettext
from ..templates.i18n import ngettext
from . import queries
from .db import Filters

_CHAR_W = 6.5  # mean width of an 11 px sans-serif character, to size the label margins


def _text_w(text: str, size: float = 11.0) -> float:
    """An upper bound of a text's width at ``size`` px in the usual sans-serif fonts: capitals, Cyrillic
    and other wide letters count more than digits and lower-case Latin (a name in Cyrillic runs a third
    wider than :data:`_CHAR_W` per character)."""
    em = 0.0
    for ch in text:
        if ch.isupper() or "\u0400" <= ch <= "\u04ff" or ord(ch) > 0x2000:
            em += 0.78
        elif ch in " .,:;|!il'":
            em += 0.36
        else:
            em += 0.64
    return em * size


def _fmt(v: float, pct: bool) -> str:
    return f"{v * 100:.0f}%" if pct else (f"{v:.0f}" if abs(v) >= 10 else f"{v:.1f}")


def _pp(v: float) -> str:
    """A difference of two rates, in percentage points."""
    return f"{v * 100:+.1f} pp"


def bar_chart(labels: Sequence[str], values: Sequence[float], *, title: str, lo: Sequence[float] | None = None,
              hi: Sequence[float] | None = None, notes: Sequence[str] | None = None, percent: bool = False,
              width: int = 640, fmt: Callable[[float], str] | None = None) -> str:
    """A horizontal bar chart as an ``<svg>`` string; bars start at zero (negative values go left),
    optional ``lo``/``hi`` whiskers (interval), optional note per bar (e.g. ``n=12``); ``fmt`` formats
    the value labels and axis ends (default: whole numbers, or percent when ``percent``). The label
    margins grow with the longest label and value text, so nothing is clipped."""
    kept = [i for i, v in enumerate(values) if v is not None and not (isinstance(v, float) and math.isnan(v))]
    if len(labels) != len(values):
        raise ValueError("bar_chart: one label per value")
    # a skipped value (no data) takes its note with it: notes stay with their own bar
    rows = [(str(labels[i]), float(values[i]), None if lo is None else lo[i], None if hi is None else hi[i])
            for i in kept]
    show = fmt or (lambda v: _fmt(v, percent))
    value_texts = [show(v) + (f" {notes[i]}" if notes else "") for i, (_, v, _, _) in zip(kept, rows, strict=True)]
    bar_h, gap, top = 16, 6, 28
    left = max(60, int(max((_text_w(r[0]) for r in rows), default=0)) + 14)
    right = max(50, int(max((_text_w(t) for t in value_texts), default=0)) + 12)
    width = max(width, left + right + 200, int(_text_w(title, 13 * 1.1)) + 12)
    height = top + len(rows) * (bar_h + gap) + 24
    ext = [0.0] + [v for _, v, _, _ in rows] + [x for _, _, a, b in rows for x in (a, b)
                                                 if x is not None and not math.isnan(x)]
    vmin, vmax = (0.0, 1.0) if percent else (min(ext), max(ext))
    if vmax == vmin:
        vmax = vmin + 1.0
    plot_w = width - left - right

    def x(v: float) -> float:
        return left + (v - vmin) / (vmax - vmin) * plot_w

    parts = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{html.escape(title)}">',
             f'<text x="4" y="16" style="font-weight:bold;font-size:13px">{html.escape(title)}</text>']
    x0 = x(0.0)
    for i, (lab, v, a, b) in enumerate(rows):
        y = top + i * (bar_h + gap)
        bx, bw = (x0, x(v) - x0) if v >= 0 else (x(v), x0 - x(v))
        color = "#4a7ab5" if v >= 0 else "#c0504d"
        parts.append(f'<text x="{left - 6}" y="{y + bar_h - 4}" text-anchor="end">{html.escape(lab)}</text>')
        parts.append(f'<rect x="{bx:.1f}" y="{y}" width="{max(bw, 0.5):.1f}" height="{bar_h}" fill="{color}"/>')
        if a is not None and b is not None and not (math.isnan(a) or math.isnan(b)):
            cy = y + bar_h / 2
            parts.append(f'<g class="whisker" stroke="#222" stroke-width="1.2">'
                         f'<line x1="{x(a):.1f}" y1="{cy}" x2="{x(b):.1f}" y2="{cy}"/>'
                         f'<line x1="{x(a):.1f}" y1="{cy - 5}" x2="{x(a):.1f}" y2="{cy + 5}"/>'
                         f'<line x1="{x(b):.1f}" y1="{cy - 5}" x2="{x(b):.1f}" y2="{cy + 5}"/></g>')
        parts.append(f'<text x="{width - right + 6}" y="{y + bar_h - 4}">{html.escape(value_texts[i])}</text>')
    parts.append(f'<line x1="{x0:.1f}" y1="{top - 4}" x2="{x0:.1f}" y2="{height - 20}" stroke="#888"/>')
    parts.append(f'<text x="{left}" y="{height - 6}">{html.escape(show(vmin))}</text>')
    parts.append(f'<text x="{left + plot_w}" y="{height - 6}" text-anchor="end">{html.escape(show(vmax))}</text>')
    parts.append("</svg>")
    return "".join(parts)


COLUMN_HEADS = {
    "family": N_("family"), "contract_label": N_("contract"), "hand_game": N_("hand game"), "n": N_("n"),
    "made": N_("made"), "success": N_("success"), "played": N_("played"), "mean_undertricks": N_("mean undertricks"),
    "mean_declarer_value": N_("mean declarer value"), "player": N_("player"), "pulkas": N_("pulkas"),
    "deals_played": N_("deals played"), "declared": N_("declared"), "declarer_success": N_("declarer success"),
    "whist_rate": N_("whist rate"), "whist_success": N_("whist success"), "misers": N_("misères"),
    "miser_success": N_("misère success"), "raspasy_tricks_per_deal": N_("raspasy tricks per deal"),
    "avg_visty": N_("avg visty"), "total_visty": N_("total visty"), "avg_points": N_("avg points"),
    "total_points": N_("total points"), "total_money": N_("total money"), "preset": N_("preset"),
    "deals": N_("deals"), "deals_per_pulka": N_("deals per pulka"), "raspasy_rate": N_("raspasy rate"),
    "refe_rate": N_("refe rate"), "declarer_edge": N_("declarer edge"), "result_stddev": N_("result stddev"),
}
"""The report tables' column headings (the catalog's msgids: report.html translates them)."""


class _TableData(TypedDict):
    """A table as the report template draws it: header texts, and rows of ``(class, text)`` cells."""

    head: list[str]
    rows: list[list[tuple[str, str]]]


def _table(df: pd.DataFrame, columns: Sequence[str]) -> _TableData:
    """A table of the named columns; a rate with ``<rate>_lo``/``<rate>_hi`` columns is shown as one cell
    ``0.83 [0.61–0.94]``; a boolean column that is false throughout, or a count column that is zero
    throughout (e.g. ``hand_game``/``refe`` without Croatian pulkas) is left out; wide tables scroll
    (the template's ``div.tw``). Texts are plain: the template escapes them."""
    cols = [c for c in columns if c in df.columns and not _all_false_or_zero(df[c])]
    head = [COLUMN_HEADS.get(c, c.replace("_", " ")) for c in cols]  # spaces let headers wrap; the page translates
    digits = {c: _digits(df[c]) for c in cols}
    body = []
    for row in df.to_dict("records"):
        cells = []
        for c in cols:
            v = row[c]
            lo, hi = row.get(f"{c}_lo"), row.get(f"{c}_hi")
            if f"{c}_lo" in df.columns and not (_na(v) or _na(lo) or _na(hi)):
                cells.append(("ci", f"{v:.2f} [{lo:.2f}–{hi:.2f}]"))
            else:
                cells.append(("", _cell(v, digits[c])))
        body.append(cells)
    return {"head": head, "rows": body}


def _na(v: object) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA


def _digits(col: pd.Series) -> int:
    """Decimals for a column: 0 when all values are whole, 1 when some are ≥ 10, else 2."""
    if col.dtype.kind != "f":
        return 0
    vals = col.dropna()
    if len(vals) == 0 or (vals == vals.round()).all():
        return 0
    return 1 if vals.abs().max() >= 10 else 2


def _cell(v: object, digits: int = 2) -> str:
    if _na(v):
        return "–"
    if isinstance(v, bool) or getattr(getattr(v, "dtype", None), "kind", "") == "b":  # Python or NumPy bool
        return gettext("yes") if v else gettext("no")
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def _all_false_or_zero(col: pd.Series) -> bool:
    """Columns that only matter for some families and say nothing for these rows."""
    if col.name not in ("refe", "refe_rate", "hand_game"):
        return False
    return not col.dropna().astype(float).any()


class _Filters(TypedDict):
    """The filters every query of the report takes (see :mod:`preflog.reports.queries`)."""

    player: str | None
    preset: str | None
    date_from: str | None
    date_to: str | None
    pulka: str | Sequence[str] | None


# Units of a pulka's result by family: Russian sheets settle in visty, Croatian ones in points.
def _unit(family: str) -> str:
    """What a family's totals count: visty, or Croatian points (the family's sheet terms)."""
    return family_named(family).sheet.unit

_TOTALS_SQL = """
SELECT player, coalesce(family, 'russian') AS family, count(*) AS pulkas, sum(result) AS total
FROM sel_pulka_results($player, $preset, $date_from, $date_to, $pulkas)
GROUP BY ALL ORDER BY family DESC, total DESC NULLS LAST, player
"""
_SPAN_SQL = """
SELECT min(date) AS first, max(date) AS last, count(DISTINCT pulka) AS pulkas
FROM sel_pulka_results($player, $preset, $date_from, $date_to, $pulkas)
"""
# One row per pulka for the report's pulka table: every player of a pulka the filters keep, the winner the
# player (or players) with the best result.
_PULKAS_SQL = """
WITH r AS (
    SELECT *, max(result) OVER (PARTITION BY pulka) AS best FROM pulka_results
    WHERE pulka IN (SELECT pulka FROM sel_pulkas($player, $preset, $date_from, $date_to, $pulkas)))
SELECT pulka, any_value(date) AS date, any_value(preset) AS preset, any_value(coalesce(family, 'russian')) AS family,
       any_value(deals) AS deals, string_agg(player, ', ' ORDER BY seat) AS players,
       string_agg(player, ', ' ORDER BY seat) FILTER (WHERE result = best) AS winner, any_value(best) AS best
FROM r GROUP BY pulka ORDER BY date DESC NULLS LAST, pulka
"""
_FAMILY_OF_PRESET_SQL = "SELECT DISTINCT preset, coalesce(family, 'russian') AS family FROM pulka_results"


_SUITS = {"s": "\u2660", "c": "\u2663", "d": "\u2666", "h": "\u2665"}


def _contract(label: object) -> object:
    """A contract as a score sheet writes it: its suit as the suit's sign (``6s`` → ``6♠``, the Croatian
    ``2s`` → ``2♠``); any other (``7NT``, ``miser``, ``bettel``) as the projection labels it."""
    text = str(label)
    return f"{text[:-1]}{_SUITS[text[-1]]}" if text[:-1].isdigit() and text[-1:] in _SUITS else label


def _facts(con: duckdb.DuckDBPyConnection, f: _Filters) -> list[str]:
    """The header's facts after the store: dates (of the report and of the pulkas) and the filters."""
    span = con.execute(_SPAN_SQL, Filters(**f).params()).fetchone()
    facts = [gettext("written %(date)s") % {"date": format_date(datetime.date.today(), locale=LANG.get().value)}]
    if span is not None and span[2]:
        first, last = (str(d) if d is not None else "?" for d in span[:2])
        facts.append(ngettext("%(num)s pulka", "%(num)s pulkas", span[2]) % {"num": span[2]}
                     + (" · " + gettext("dated %(since)s to %(until)s") % {"since": first, "until": last}
                        if span[0] is not None else ""))
    shown = ", ".join(f"{k}={v}" for k, v in f.items() if v)
    facts.append(gettext("Filters: %(filters)s") % {"filters": shown} if shown else gettext("no filters"))
    return facts


class _PulkaRow(TypedDict):
    """A row of the report's pulka table: texts, the sort keys the page's script orders by, the viewer link."""

    pulka: str
    href: str | None
    date: str
    rules: str
    players: str
    deals: int
    winner: str
    best: float | None


def _pulka_rows(con: duckdb.DuckDBPyConnection, f: _Filters, pages: Sequence[tuple[str, str]]) -> list[_PulkaRow]:
    """The pulkas the filters keep, newest first, each linked to its deal viewer when one was written."""
    links = dict(pages)
    rows: list[_PulkaRow] = []
    for pulka, date, preset, family, deals, players, winner, best in con.execute(
            _PULKAS_SQL, Filters(**f).params()).fetchall():
        score = "" if best is None or winner is None else \
            f" ({_cell(float(best), 0 if best == int(best) else 1)} {_unit(family)})"
        rows.append({"pulka": pulka, "href": links.get(pulka), "date": str(date) if date is not None else "",
                     "rules": preset or "", "players": players or "", "deals": int(deals or 0),
                     "winner": (winner or "–") + score, "best": None if best is None else float(best)})
    return rows


def render(con: duckdb.DuckDBPyConnection, *, title: str = "preflog statistics", player: str | None = None,
           preset: str | None = None, date_from: str | None = None, date_to: str | None = None,
           pulka: str | Sequence[str] | None = None, store: str | None = None,
           pages: Sequence[tuple[str, str]] = (), skill: tuple[pd.DataFrame, pd.DataFrame] | None = None) -> str:
    """The whole report as one HTML string; ``store`` (its folder) is named in the header, ``pages`` are
    ``(pulka id, link)`` pairs of deal viewer pages listed in a last section; ``skill``, the skill table and
    rating history (:mod:`preflog.reports.skill`), adds its section before them."""
    f: _Filters = {"player": player, "preset": preset, "date_from": date_from, "date_to": date_to, "pulka": pulka}
    pl = queries.players(con, **f)
    ct = queries.contracts(con, by=("contract", "hand_game"), **f)
    va = queries.variants(con, **f)
    totals = con.execute(_TOTALS_SQL, Filters(**f).params()).df()
    family_of = dict(con.execute(_FAMILY_OF_PRESET_SQL).fetchall())
    sections = [("contracts", N_("Success rate by contract")), ("players", N_("Players")), ("variants", N_("Variants")),
                ("pulkas", N_("Pulkas"))]
    body: list[tuple[str, Any]] = []  # the page's parts in order, as report.html draws them

    body.append(("h2", sections[0]))
    ct["contract_label"] = [_contract(lab) for lab in ct["contract_label"]]
    hand_word = gettext("hand")
    labels = [f"{lab}{' ' + hand_word if hand else ''}" + ("" if ct["family"].nunique() < 2 else f" {fam.capitalize()}")
              for lab, hand, fam in zip(ct["contract_label"], ct["hand_game"], ct["family"], strict=True)]
    body.append(_chart(labels, list(ct["success"]), lo=list(ct["success_lo"]), hi=list(ct["success_hi"]),
                       notes=[f"n={n}" for n in ct["n"]], percent=True,
                       title=gettext("Declarer success by contract (95 % Wilson interval)")))
    body.append(("table", _table(ct, ["family" if ct["family"].nunique() > 1 else "", "contract_label",
                                      "hand_game", "n", "made", "success", "played", "mean_undertricks",
                                      "mean_declarer_value"])))

    body.append(("h2", sections[1]))
    # one chart per family: Russian visty and Croatian points are different units, never one axis
    families = list(dict.fromkeys(totals["family"]))
    for fam in families:
        part = totals[totals["family"] == fam]
        unit = _unit(fam)
        where = f", {fam.capitalize()}" if len(families) > 1 else ""
        body.append(_chart(list(part["player"]), list(part["total"]),
                           title=gettext("Total result%(where)s (%(unit)s)") % {"where": where, "unit": unit},
                           notes=[ngettext("%(num)s pulka", "%(num)s pulkas", p) % {"num": p} for p in part["pulkas"]]))
    body.append(_chart(list(pl["player"]), list(pl["declarer_success"]), lo=list(pl["declarer_success_lo"]),
                       hi=list(pl["declarer_success_hi"]), notes=[f"n={n}" for n in pl["declared"]],
                       percent=True, title=gettext("Declarer success (95 % Wilson interval)")))
    # the report keeps visty and points apart: the columns of the units these pulkas count in
    result_cols = [c for c in ("avg_visty", "total_visty", "avg_points", "total_points")
                   if c in pl.columns and pl[c].notna().any()]
    body.append(("table", _table(pl, ["player", "pulkas", "deals_played", "declared", "declarer_success",
                                      "whist_rate", "whist_success", "misers", "miser_success",
                                      "raspasy_tricks_per_deal", *result_cols, "total_money"])))

    body.append(("h2", sections[2]))
    fams = [family_of.get(p, "russian") for p in va["preset"]]
    mixed = len(set(fams)) > 1
    for col, name in (("raspasy_rate", gettext("raspasy frequency")),
                      ("declarer_success", gettext("declarer success")),
                      ("declarer_edge", gettext("declarer edge (visty or points per declared deal)") if mixed
                       else gettext("declarer edge (visty per declared deal)")),
                      ("result_stddev", gettext("spread of per-pulka results (stddev)"))):
        vals = pd.to_numeric(va[col], errors="coerce")
        rate = col.endswith(("rate", "success"))  # rates differ by percentage points, not by 0.0…
        if rate or not mixed:
            mean = vals.mean()
            chart_title = (gettext("Variant delta: %(name)s − mean (%(mean)s)")
                           % {"name": name, "mean": _fmt(mean, rate)} if not math.isnan(mean)
                           else gettext("Variant delta: %(name)s") % {"name": name})
            deltas = list(vals - mean)
        else:  # visty and points: each preset against the mean of its own family
            means = {fam: vals[[g == fam for g in fams]].mean() for fam in set(fams)}
            deltas = [v - means[g] for v, g in zip(vals, fams, strict=True)]
            chart_title = gettext("Variant delta: %(name)s − mean of its family") % {"name": name}
        body.append(_chart(list(va["preset"]), deltas, title=chart_title, fmt=_pp if rate else lambda v: f"{v:+.1f}"))
    body.append(("table", _table(va, ["preset", "pulkas", "deals", "deals_per_pulka", "raspasy_rate", "refe_rate",
                                      "declarer_success", "declarer_edge", "result_stddev"])))
    body += _skill_section(skill, sections)
    body.append(("h2", sections[3]))
    body.append(("pulkas", _pulka_rows(con, f, pages)))
    return page("report.html", script="report.js", title=title, store=store, facts=_facts(con, f),
                sections=sections, parts=body, viewers=bool(pages))


def _skill_section(skill: tuple[pd.DataFrame, pd.DataFrame] | None, sections: list[tuple[str, str]]
                   ) -> list[tuple[str, Any]]:
    """The skill section's parts (none without its frames), listed in the contents before the pulkas."""
    from .skill import ANCHOR
    from .skill import TITLE
    from .skill import skill_parts

    parts = skill_parts(*skill) if skill is not None else []
    if parts:
        sections.insert(3, (ANCHOR, TITLE))
    return parts


def _chart(*args: Any, **kwargs: Any) -> tuple[str, Markup]:
    """A :func:`bar_chart` as a part of the page: its texts were escaped as it was drawn."""
    return ("chart", Markup(bar_chart(*args, **kwargs)))


class ReportOptions(TypedDict, total=False):
    """The keyword options of :func:`render`, as :func:`write` takes them."""

    title: str
    store: str | None
    pages: Sequence[tuple[str, str]]
    skill: tuple[pd.DataFrame, pd.DataFrame] | None
    player: str | None
    preset: str | None
    date_from: str | None
    date_to: str | None
    pulka: str | Sequence[str] | None


def write(path: str | os.PathLike[str], con: duckdb.DuckDBPyConnection, **options: Unpack[ReportOptions]) -> Path:
    """Write :func:`render`'s page to ``path`` (atomically: a temporary file beside it, left nowhere when
    the page cannot be put in place) and return the path."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp")
    try:
        tmp.write_text(render(con, **options), encoding="utf-8")
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return p
