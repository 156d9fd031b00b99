"""The classic paper pulka sheet ("расписанная пулька") drawn as SVG, for 3 and 4 players.

Input is the ``sheet --json`` entry of one pulka (see docs/cli.md), so the drawing
depends on nothing but that documented contract. Layout as on paper: a circle in
the middle with the pool size, one sector per player; in each sector from the
centre outwards the gora ("гора"), the pulya ("пуля") and the visty ("висты") on
each opponent, every strip a running total written ``4.6.10``.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

W = H = 760
CX, CY = W / 2, H / 2
R_CENTER = 46


def _chain(values: list[Any]) -> str:
    return ".".join(str(v) for v in values) if values else "–"


def _histories(pulka: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per player the running totals after each deal that changed them (as written on paper)."""
    players: list[str] = pulka["players"]
    out: dict[str, dict[str, Any]] = {p: {"pulya": [], "gora": [], "visty": {q: [] for q in players if q != p}}
                                      for p in players}
    last: dict[tuple[str, str, str], Any] = {}
    for deal in pulka.get("deals", []):
        for p in players:
            for area in ("pulya", "gora"):
                v = deal.get(area, {}).get(p)
                if v is not None and last.get((p, area, "")) != v and v != 0:
                    out[p][area].append(v)
                if v is not None:
                    last[(p, area, "")] = v
            for q, v in deal.get("visty", {}).get(p, {}).items():
                if q != p and v != 0 and last.get((p, "visty", q)) != v:
                    out[p]["visty"][q].append(v)
                last[(p, "visty", q)] = v
    return out


def _text(x: float, y: float, text: str, attrs: str = "", rotate: int = 0) -> str:
    turn = f' transform="rotate({rotate} {x:.0f} {y:.0f})"' if rotate else ""
    return f'<text x="{x:.0f}" y="{y:.0f}" text-anchor="middle"{turn} {attrs}>{escape(text)}</text>'


def render_svg(pulka: dict[str, Any]) -> str:
    """SVG text of the paper sheet for one pulka entry of ``sheet --json``."""
    players: list[str] = pulka["players"]
    n = len(players)
    hist = _histories(pulka)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H + 120}" '
        f'viewBox="0 0 {W} {H + 120}" font-family="sans-serif" font-size="13">',
        f'<rect x="4" y="4" width="{W - 8}" height="{H - 8}" fill="#fffdf5" stroke="#333" stroke-width="2"/>',
    ]
    # Sector boundaries: rays from the centre to the sheet's corners / edges.
    rays: list[tuple[float, float]]
    if n == 3:
        rays = [(CX, 4), (4, H - 4), (W - 4, H - 4)]
        anchors = [(math.pi, "left"), (0.0, "right"), (math.pi / 2, "bottom")]
        order = [0, 1, 2]
    else:
        rays = [(4, 4), (W - 4, 4), (W - 4, H - 4), (4, H - 4)]
        anchors = [(math.pi, "left"), (-math.pi / 2, "top"), (0.0, "right"), (math.pi / 2, "bottom")]
        order = [0, 1, 2, 3]
    for ray_x, ray_y in rays:
        parts.append(f'<line x1="{CX}" y1="{CY}" x2="{ray_x}" y2="{ray_y}" stroke="#333" stroke-width="1.5"/>')
    for k in (1, 2, 3):  # concentric strips: gora, pulya, visty
        r = R_CENTER + k * 80
        parts.append(f'<circle cx="{CX}" cy="{CY}" r="{r}" fill="none" stroke="#999" stroke-dasharray="4 3"/>')
    parts.append(f'<circle cx="{CX}" cy="{CY}" r="{R_CENTER}" fill="#fff" stroke="#333" stroke-width="2"/>')
    parts.append(f'<text x="{CX}" y="{CY + 5}" text-anchor="middle" font-size="20" font-weight="bold">'
                 f'{escape(str(pulka.get("pool", "")))}</text>')
    for seat, (angle, _where) in zip(order, anchors, strict=False):
        p = players[seat]
        h = hist[p]
        dx, dy = math.cos(angle), math.sin(angle)

        def at(radius: float, dy_extra: float = 0.0, dx: float = dx, dy: float = dy) -> tuple[float, float]:
            return CX + dx * radius, CY + dy * radius + dy_extra

        # In the left and right sectors the strips run vertically, as players write them on paper.
        rot = -90 if dx < -0.7 else 90 if dx > 0.7 else 0
        parts.append(_text(*at(R_CENTER + 48), f"гора {_chain(h['gora'])}", 'fill="#b00"', rot))
        parts.append(_text(*at(R_CENTER + 128), f"пуля {_chain(h['pulya'])}", 'fill="#060"', rot))
        for i, (q, vals) in enumerate(h["visty"].items()):
            x, y = at(R_CENTER + 200 + (16 * i if rot else 0), 0 if rot else 16 * i)
            parts.append(_text(x, y, f"на {q}: {_chain(vals)}", "", rot))
        parts.append(_text(*at(R_CENTER + 280 if n == 3 else R_CENTER + 260), p,
                           'font-weight="bold" font-size="16"'))
    settlement = pulka.get("settlement", {})
    exact = settlement.get("exact", {})
    m1 = settlement.get("method1", {})
    line = "   ".join(f"{escape(p)}: {escape(str(exact.get(p, '')))} (≈{escape(str(m1.get(p, '')))})" for p in players)
    parts.append(f'<text x="10" y="{H + 30}" font-size="15">Settlement in visty — {line}</text>')
    parts.append(f'<text x="10" y="{H + 55}" fill="#555">{escape(str(pulka.get("rules", "")))} · '
                 f'{escape(str(pulka.get("id", "")))}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def render_html(pulkas: list[dict[str, Any]]) -> str:
    """A self-contained HTML page with one drawn sheet and a totals table per pulka."""
    body = []
    for pk in pulkas:
        rows = "".join(
            f"<tr><td>{escape(p)}</td><td>{pk['totals']['pulya'].get(p, '')}</td>"
            f"<td>{pk['totals']['gora'].get(p, '')}</td>"
            f"<td>{escape(', '.join(f'{q}: {v}' for q, v in pk['totals']['visty'].get(p, {}).items()))}</td>"
            f"<td>{escape(str(pk['settlement']['exact'].get(p, '')))}</td>"
            f"<td>{pk['settlement']['method1'].get(p, '')}</td><td>{pk['settlement']['method2'].get(p, '')}</td></tr>"
            for p in pk["players"]
        )
        body.append(
            f"<section><h2>{escape(str(pk['id']))}</h2>{render_svg(pk)}"
            "<table><tr><th>player</th><th>pulya</th><th>gora</th><th>visty written</th><th>exact</th>"
            f"<th>method 1</th><th>method 2</th></tr>{rows}</table></section>"
        )
    return ("<!doctype html><html><head><meta charset='utf-8'><title>preflog sheet</title><style>"
            "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
            "td,th{border:1px solid #aaa;padding:4px 8px;text-align:right}</style></head><body>"
            + "".join(body) + "</body></html>")
