"""The report's "Skill" section: each player's result split into cards and play, both ratings' history
drawn as lines, and the skill table (docs/skill.md). The frames come from the ``play_analysis`` tables
(:meth:`preflog.workspace.Workspace.skill`); this module only draws them."""

from __future__ import annotations

import html
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

import pandas as pd
from markupsafe import Markup

from ..templates import counted
from ..templates.i18n import N_

ANCHOR, TITLE = "skill", N_("Skill: luck, play and ratings")
PALETTE = ("#4a7ab5", "#c0504d", "#9bbb59", "#8064a2", "#f79646", "#4bacc6", "#7f7f7f", "#2c4d75")


def line_chart(series: Mapping[str, Sequence[tuple[float, float]]], *, title: str, width: int = 640,
               height: int = 260) -> str:
    """Lines of (x, y) points, one per name, with a legend, as an ``<svg>`` string (texts escaped)."""
    points = [p for pts in series.values() for p in pts]
    if not points:
        return ""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    y0, y1 = min(ys), max(ys) if max(ys) > min(ys) else min(ys) + 1
    left, right, top, bottom = 44, 120, 26, 24
    pw, ph = width - left - right, height - top - bottom

    def sx(v: float) -> float:
        return left + (v - x0) / (x1 - x0) * pw

    def sy(v: float) -> float:
        return top + (y1 - v) / (y1 - y0) * ph

    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{html.escape(title)}">',
           f'<text x="4" y="16" style="font-weight:bold;font-size:13px">{html.escape(title)}</text>',
           f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#ccc"/>',
           f'<text x="{left - 4}" y="{top + 10}" text-anchor="end">{y1:.0f}</text>',
           f'<text x="{left - 4}" y="{top + ph}" text-anchor="end">{y0:.0f}</text>',
           f'<text x="{left}" y="{height - 6}">{x0:.0f}</text>',
           f'<text x="{left + pw}" y="{height - 6}" text-anchor="end">{counted(round(x1), "pulka", "pulkas")}</text>']
    for i, (name, pts) in enumerate(series.items()):
        color = PALETTE[i % len(PALETTE)]
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.6" points="{path}"/>')
        ly = top + 14 * i + 8
        out.append(f'<line x1="{left + pw + 8}" y1="{ly}" x2="{left + pw + 22}" y2="{ly}" stroke="{color}" '
                   f'stroke-width="3"/><text x="{left + pw + 26}" y="{ly + 4}">{html.escape(name)}</text>')
    out.append("</svg>")
    return "".join(out)


def skill_parts(summary: pd.DataFrame, history: pd.DataFrame) -> list[tuple[str, Any]]:
    """The section's parts as report.html draws them (heading, charts, table); none without data."""
    from .html import _chart
    from .html import _table

    if summary.empty:
        return []
    parts: list[tuple[str, Any]] = [("h2", (ANCHOR, TITLE))]
    for unit in dict.fromkeys(summary["unit"]):
        part = summary[summary["unit"] == unit]
        names = list(part["player"])
        parts.append(_chart(names, list(part["cards"]), title=f"Cards: the deals played double dummy ({unit})"))
        parts.append(_chart(names, list(part["play"]), title=f"Play: result less cards ({unit})"))
    for rating, label in (("play", "Play rating"), ("raw", "Raw-result rating"),
                          ("play_margin", "Play rating with margins")):
        h = history[history["rating"] == rating]
        series = {str(p): [(float(i), float(o)) for i, o in zip(g["index"], g["ordinal"], strict=True)]
                  for p, g in h.groupby("player", sort=True)}
        model = "mean, sd per pulka" if rating.endswith("margin") else "OpenSkill ordinal, mu − 3 sigma"
        svg = line_chart(series, title=f"{label} after each pulka ({model})")
        if svg:
            parts.append(("chart", Markup(svg)))
    parts.append(("table", _table(summary, [
        "player", "unit", "pulkas", "result", "cards", "play", "rating_ordinal", "raw_ordinal", "margin_rating",
        "not_makeable_share", "passed_makeable_share", "whist_right_share", "whist_cost", "declarer_lost_per_100",
        "defender_lost_per_100", "misers_caught_share"])))
    return parts


__all__ = ["ANCHOR", "TITLE", "line_chart", "skill_parts"]
