"""The paper pulka sheet ("расписанная пулька") drawn as SVG, for 3 and 4 players.

Input is the ``sheet --json`` entry of one pulka (see docs/cli.md), so the drawing depends on nothing
but that documented contract. Layout as players draw it: each player owns the side of the sheet
nearest to him (3 players: left, right, bottom; 4 players: left, top, right, bottom), and on that side
nested rectangular zones run from the edge towards the centre: the visty ("висты") he writes, one zone
per opponent, then his pulya ("пуля"), then his gora ("гора") next to the centre, where the pool is
written in a circle. Running totals are written one after another, ``4.6.10``, flowing in rows inside
their zone like pencil entries; the last one (the total) is bold. The settlement sits beneath: exact,
method 1, method 2 and money, each labelled.

Croatian sheets use their own terms: the contract column ("stupac") in place of the pulya, juha in place
of the visty, and the refe and hat ("šešir") marks in place of the gora, which that game has not.

Nothing is measured by a browser here: text widths are estimated from per-character advances a little
wider than common sans-serif fonts', and every zone grows to hold its rows, so no two texts meet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from html import escape
from typing import Any

from ..engine.families import family_named

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CELL = 104            # mean width of a zone column on the left and right sides
MIN_CELL = 72         # the narrowest one, when its label is shorter
CENTRE = 220          # width of the centre between the side panels
PAD = 6               # inner margin of a zone
LABEL = 10            # font size of zone labels
SIZES = (13, 12, 11, 10)  # entry font sizes tried, largest first, until the side columns fit MAX_SIDE
MAX_SIDE = 640        # side column height wished for before the font shrinks
NAME = 15             # font size of player names
PAPER = "#fffdf5"
INK = {"pulya": "#065f18", "gora": "#a00000", "visty": "#1a1a6e", "label": "#666"}



def _advance(ch: str) -> float:
    """An upper bound of a character's advance in em for the usual sans-serif fonts."""
    if ch.isdigit():
        return 0.64
    if ch in ".,:; ":
        return 0.34
    if ch in "-/()":
        return 0.42
    if ch.isupper():
        return 0.78
    if "\u0400" <= ch <= "\u04ff":
        return 0.72
    if ch.isalpha():
        return 0.64
    return 0.9


def text_width(text: str, size: float, bold: bool = False) -> float:
    return sum(_advance(c) for c in text) * size * (1.1 if bold else 1.0)


def _fit(text: str, width: float, size: float, bold: bool = False, smallest: float = 9) -> tuple[str, float]:
    """The text and font size that fit ``width``: shrink down to ``smallest``, then cut with an ellipsis."""
    while size > smallest and text_width(text, size, bold) > width:
        size -= 0.5
    while len(text) > 1 and text_width(text, size, bold) > width:
        text = text[:-2] + "…" if not text.endswith("…") else text[:-2] + "…"
    return text, size


def _widths(contents: list[float], total: float, least: list[float]) -> list[float]:
    """Column widths that sum to ``total``, each at least its ``least`` (room for its label), the rest
    shared in proportion to the columns' contents, so a long gora gets room and an empty zone stays narrow."""
    fixed: set[int] = set()
    while True:
        free = [k for k in range(len(contents)) if k not in fixed]
        room = total - sum(least[k] for k in fixed)
        weight = sum(max(contents[k], 1.0) for k in free)
        widths = [least[k] if k in fixed else room * max(contents[k], 1.0) / weight for k in range(len(contents))]
        small = {k for k in free if widths[k] < least[k]}
        if not small:
            return widths
        fixed |= small


def _num(v: Any) -> str:
    return str(v).replace("-", "\u2212")


def _histories(pulka: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per player the running totals after each deal that changed them (as written on paper)."""
    players: list[str] = pulka["players"]
    out: dict[str, dict[str, Any]] = {p: {"pulya": [], "gora": [], "visty": {q: [] for q in players if q != p}}
                                      for p in players}
    start = pulka.get("start", {}).get("pulya", {})
    last: dict[tuple[str, str, str], Any] = {(p, "pulya", ""): start.get(p, 0) for p in players}
    for p in players:
        if start.get(p, 0) != 0:  # a Croatian column starts below zero: its first entry is the start
            out[p]["pulya"].append(start[p])
    for deal in pulka.get("deals", []):
        for p in players:
            for area in ("pulya", "gora"):
                v = deal.get(area, {}).get(p)
                if v is not None and last.get((p, area, ""), 0) != v:
                    out[p][area].append(v)
                if v is not None:
                    last[(p, area, "")] = v
            for q, v in deal.get("visty", {}).get(p, {}).items():
                if q != p and last.get((p, "visty", q), 0) != v:
                    out[p]["visty"][q].append(v)
                last[(p, "visty", q)] = v
    return out


def _croatian_marks(pulka: dict[str, Any]) -> dict[str, list[str]]:
    """Refe and hat marks per player, from the deals' notes and the columns: ``R`` a refe granted,
    ``R✓`` a refe used, ``∩`` a column that reached zero (the hat), ``∪`` one that dropped below it."""
    players: list[str] = pulka["players"]
    marks: dict[str, list[str]] = {p: [] for p in players}
    start = pulka.get("start", {}).get("pulya", {})
    under = {p: start.get(p, 0) >= 0 for p in players}
    for deal in pulka.get("deals", []):
        note = str(deal.get("note", ""))
        if "refe for everybody" in note:
            for p in players:
                marks[p].append("R")
        declarer = deal.get("declarer")
        if "refe used" in note and declarer in marks:
            marks[declarer].append("R\u2713")
        for p in players:
            v = deal.get("pulya", {}).get(p)
            if v is None:
                continue
            try:
                hat = float(str(v).split("/")[0]) >= 0
            except ValueError:
                continue
            if hat != under[p]:
                marks[p].append("\u2229" if hat else "\u222a")
                under[p] = hat
    return marks


@dataclass
class Zone:
    """A rectangle of the sheet with a label and running entries flowing in rows."""

    x: float
    y: float
    w: float
    h: float
    label: str
    entries: list[str]
    ink: str
    sep: str = "."  # running totals are written 4.6.10; marks stand apart
    rows: list[list[tuple[float, str, bool]]] = field(default_factory=list)

    def flow(self, size: float) -> float:
        """Lay the entries out in rows of width ``w``; return the height the zone needs."""
        self.rows = [[]]
        x = 0.0
        room = self.w - 2 * PAD
        gap = 0.3 * size
        for k, v in enumerate(self.entries):
            last = k == len(self.entries) - 1
            text = _num(v) + ("" if last else self.sep)
            wd = text_width(text, size, last)
            if x > 0 and x + wd > room:
                self.rows.append([])
                x = 0.0
            self.rows[-1].append((x, text, last))
            x += wd + gap
        return self.needed(size)

    def needed(self, size: float) -> float:
        n = len(self.rows) if self.entries else 0
        return PAD + LABEL + 4 + n * (size * 1.3) + PAD

    def draw(self, size: float, parts: list[str]) -> None:
        parts.append(f'<rect x="{self.x:.1f}" y="{self.y:.1f}" width="{self.w:.1f}" height="{self.h:.1f}" '
                     'fill="none" stroke="#444" stroke-width="1"/>')
        label, lsize = _fit(self.label, self.w - 2 * PAD, LABEL, smallest=8)
        parts.append(_text(self.x + PAD, self.y + PAD + LABEL * 0.85, label, lsize, INK["label"], role="label"))
        y = self.y + PAD + LABEL + 4 + size
        for row in self.rows:
            for dx, text, last in row:
                parts.append(_text(self.x + PAD + dx, y - size * 0.2, text, size, self.ink, bold=last,
                                   role="total" if last else "entry"))
            y += size * 1.3


def _text(x: float, y: float, text: str, size: float, fill: str = "#111", bold: bool = False,
          anchor: str = "start", role: str = "") -> str:
    weight = ' font-weight="bold"' if bold else ""
    anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
    role_attr = f' data-role="{role}"' if role else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" fill="{fill}"{weight}{anchor_attr}{role_attr}>'
            f"{escape(text)}</text>")


def _zones_of(p: str, h: dict[str, Any], terms: Mapping[str, str], extra: list[str] | None) -> dict[str, Any]:
    """The zone contents of one player: visty per opponent, pulya, gora (or the Croatian marks)."""
    return {
        "visty": [(terms["visty"].format(q), vals) for q, vals in h["visty"].items()],
        "pulya": (terms["pulya"], h["pulya"]),
        "gora": (terms["gora"], extra if extra is not None else h["gora"]),
    }


def render_svg(pulka: dict[str, Any]) -> str:
    """SVG text of the paper sheet for one pulka entry of ``sheet --json``."""
    players: list[str] = pulka["players"]
    n = len(players)
    sheet = family_named(pulka.get("family")).sheet
    terms = sheet.paper
    hist = _histories(pulka)
    marks = _croatian_marks(pulka) if sheet.marks else None
    gora_sep = "" if marks else "."
    content = {p: _zones_of(p, hist[p], terms, marks[p] if marks else None) for p in players}

    # Seats: 3 players left, right, bottom; 4 players left, top, right, bottom (clockwise).
    sides = ["left", "right", "bottom"] if n == 3 else ["left", "top", "right", "bottom"]
    seat = dict(zip(sides, players, strict=False))
    cols = n + 1  # visty on each opponent, pulya, gora
    side_w = cols * CELL
    width = 2 * side_w + CENTRE
    header = NAME + 14

    def side_zones(p: str, x0: float, y0: float, outer_left: bool) -> list[Zone]:
        c = content[p]
        order = [*(("visty", lab, vals) for lab, vals in c["visty"]), ("pulya", *c["pulya"]), ("gora", *c["gora"])]
        if not outer_left:
            order.reverse()
        least = [min(max(MIN_CELL, text_width(lab, LABEL) + 2 * PAD + 2), 1.6 * CELL) for _, lab, _ in order]
        widths = _widths([sum(text_width(_num(v) + ". ", SIZES[0]) for v in vals) for _, _, vals in order],
                         side_w, least)
        zones, x = [], x0
        for (kind, lab, vals), wd in zip(order, widths, strict=True):
            zones.append(Zone(x, y0, wd, 0, lab, list(vals), INK[kind], gora_sep if kind == "gora" else "."))
            x += wd
        return zones

    def band_zones(p: str, y0: float, outer_top: bool) -> list[list[Zone]]:
        """Rows of a top/bottom panel from its outer edge inwards: visty split per opponent, pulya, gora."""
        c = content[p]
        split = width / len(c["visty"])
        visty = [Zone(k * split, y0, split, 0, lab, list(vals), INK["visty"]) for k, (lab, vals) in
                 enumerate(c["visty"])]
        rows = [visty, [Zone(0, y0, width, 0, c["pulya"][0], list(c["pulya"][1]), INK["pulya"])],
                [Zone(0, y0, width, 0, c["gora"][0], list(c["gora"][1]), INK["gora"], gora_sep)]]
        return rows if outer_top else rows[::-1]

    # Font size: the largest whose side columns stay under MAX_SIDE (or the smallest).
    size = SIZES[-1]
    for s in SIZES:
        probe = side_zones(seat["left"], 0, 0, True) + side_zones(seat["right"], 0, 0, False)
        if max(z.flow(s) for z in probe) <= MAX_SIDE:
            size = s
            break

    parts: list[str] = []

    def draw_band(p: str, y: float, outer_first: bool) -> float:
        """Draw a top or bottom panel's rows of zones from ``y`` down; returns the y under them."""
        for row in band_zones(p, y, outer_first):
            h = max(max(z.flow(size) for z in row), PAD * 2 + LABEL + 4)
            for z in row:
                z.y, z.h = y, h
                z.draw(size, parts)
            y += h
        return y

    y = 8.0
    # Top panel (4 players): name, then visty / pulya / gora down towards the centre.
    if n == 4:
        parts.append(_text(width / 2, y + NAME, *_fit(seat["top"], width - 20, NAME, True), bold=True,
                           anchor="middle", role="name"))
        y = draw_band(seat["top"], y + header, True)
    # The side panels: names over their columns, the centre between them.
    left = side_zones(seat["left"], 0, y + header, True)
    right = side_zones(seat["right"], width - side_w, y + header, False)
    centre_h = 240.0
    side_h = max([z.flow(size) for z in left + right] + [centre_h])
    for z in left + right:
        z.h = side_h
        z.draw(size, parts)
    for name, cx in ((seat["left"], side_w / 2), (seat["right"], width - side_w / 2)):
        parts.append(_text(cx, y + NAME + 4, *_fit(name, side_w - 20, NAME, True), bold=True, anchor="middle",
                           role="name"))
    cy = y + header + side_h / 2
    r = min(60.0, CENTRE / 2 - 30, side_h / 2 - 30)
    parts.append(f'<circle cx="{width / 2:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="#fff" stroke="#333" '
                 'stroke-width="2"/>')
    parts.append(_text(width / 2, cy + 8, str(pulka.get("pool", "")), 22, bold=True, anchor="middle", role="pool"))
    parts.append(_text(width / 2, cy + r + 18, *_fit(f"{len(pulka.get('deals', []))} deals", CENTRE - 20, 11),
                       fill=INK["label"], anchor="middle", role="label"))
    y += header + side_h
    # The bottom panel: gora next to the centre, then pulya, then visty split per opponent; name last.
    y = draw_band(seat["bottom"], y, False)
    parts.append(_text(width / 2, y + NAME + 6, *_fit(seat["bottom"], width - 20, NAME, True), bold=True,
                       anchor="middle", role="name"))
    y += header + 4
    y = _settlement(pulka, terms, width, y, parts, methods=sheet.paper_methods)
    foot = " · ".join(str(v) for v in (pulka.get("rules"), pulka.get("id")) if v)
    parts.append(_text(8, y + 14, *_fit(foot, width - 16, 11), fill=INK["label"], role="label"))
    height = y + 24
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}">',
        f'<rect x="1" y="1" width="{width - 2:.0f}" height="{height - 2:.0f}" fill="{PAPER}" stroke="#333" '
        'stroke-width="2"/>',
        *parts,
        "</svg>",
    ])


def _settlement(pulka: dict[str, Any], terms: Mapping[str, str], width: float, y: float, parts: list[str],
                methods: bool = True) -> float:
    """The settlement table beneath the sheet; returns the y under it. The two paper methods round the
    Russian gora to whole visty; a Croatian sheet has no gora and settles exactly, so it shows no methods."""
    players: list[str] = pulka["players"]
    st = pulka.get("settlement", {})
    price = str(pulka.get("whist_price") or "1")
    rows = [
        (f"exact ({terms['unit']})", st.get("exact", {})),
        ("method 1 (gora written as visty)", st.get("method1", {})),
        ("method 2 (gora against the mean)", st.get("method2", {})),
        (f"money (× {price})", st.get("money", {})),
    ]
    if not methods:
        rows = [rows[0], rows[3]]
    label_w = 230.0
    col = (width - label_w) / len(players)
    line = 22.0
    top = y
    parts.append(_text(8, y + 15, "Settlement", 14, bold=True, role="label"))
    for k, p in enumerate(players):
        parts.append(_text(label_w + col * (k + 0.5), y + 15, *_fit(p, col - 10, 13, True), bold=True,
                           anchor="middle", role="name"))
    y += line
    for label, values in rows:
        parts.append(f'<line x1="4" y1="{y:.1f}" x2="{width - 4:.1f}" y2="{y:.1f}" stroke="#bbb"/>')
        parts.append(_text(8, y + 15, *_fit(label, label_w - 16, 12), fill=INK["label"], role="label"))
        for k, p in enumerate(players):
            v = values.get(p, "")
            parts.append(_text(label_w + col * (k + 0.5), y + 15, *_fit(_num(v), col - 10, 13),
                               bold=label.startswith("exact"), anchor="middle", role="settlement"))
        y += line
    parts.append(f'<line x1="{label_w - 6:.1f}" y1="{top:.1f}" x2="{label_w - 6:.1f}" y2="{y:.1f}" stroke="#bbb"/>')
    return y + 4


def render_html(pulkas: list[dict[str, Any]]) -> str:
    """A self-contained HTML page with one drawn sheet and a totals table per pulka (``sheet.html`` of
    :mod:`preflog.templates`: texts autoescaped, each SVG one value marked safe, its text escaped as drawn)."""
    from ..templates import Markup  # (Jinja2 only for the page: ``sheet --svg`` does without)
    from ..templates import page

    shown = []
    for pk in pulkas:
        rows = [[p, pk["totals"]["pulya"].get(p, ""), pk["totals"]["gora"].get(p, ""),
                 ", ".join(f"{q}: {v}" for q, v in pk["totals"]["visty"].get(p, {}).items()),
                 pk["settlement"]["exact"].get(p, ""), pk["settlement"]["method1"].get(p, ""),
                 pk["settlement"]["method2"].get(p, "")] for p in pk["players"]]
        shown.append({"id": str(pk["id"]), "svg": Markup(render_svg(pk)), "rows": rows})
    return page("sheet.html", title="preflog sheet", pulkas=shown)
