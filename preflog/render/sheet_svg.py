"""The paper pulka sheet ("расписанная пулька") drawn as SVG, for 3 and 4 players.

Input is the ``sheet --json`` entry of one pulka (see docs/cli.md), so the drawing depends on nothing
but that documented contract. Layout as players draw it: each player owns the side of the sheet
nearest to him (3 players: left, right, bottom; 4 players: left, top, right, bottom), and on that side
nested rectangular zones run from the edge towards the centre: the visty ("висты") he writes, one zone
per opponent, then his pulya ("пуля"), then his gora ("гора") next to the centre, where the pool is
written in a circle. Running totals are written one after another, ``4.6.10``, flowing in rows inside
their zone like pencil entries; the last one (the total) is bold, and exact values are mixed numbers
(``180⅔``). The centre holds the pool in its circle with the price of a whist beneath. The settlement
sits beneath: exact, method 1, method 2 and money, each labelled.

Each family speaks its own words (:mod:`preflog.render.words`): a Croatian sheet has the contract column
("stupac") in place of the pulya, juha in place of the visty, the refe and hat ("šešir") marks in place of
the gora, which that game has not (Slovenian: "radlc" for the refe), the columns' start in the centre and
no paper methods.

Names of any length: each panel keeps its share of the sheet; a label or a name that does not fit its
zone shrinks a little, wraps after its first words, or shortens as people write it on paper (``Александр
П.``, ``Александр``, ``А.П.``; never to a form two players share). Nothing is measured by a browser here:
text widths are estimated from per-character advances a little wider than common sans-serif fonts', and
every zone grows to hold its rows, so no two texts meet and no text leaves its zone (each ``<text>`` names
its zone's rectangle in ``data-zone``: the browser tests check every one).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from dataclasses import field
from fractions import Fraction
from html import escape
from typing import Any

from .words import Words
from .words import words_for

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


_VULGAR = {(1, 2): "\u00bd", (1, 3): "\u2153", (2, 3): "\u2154", (1, 4): "\u00bc", (3, 4): "\u00be",
           (1, 5): "\u2155", (2, 5): "\u2156", (3, 5): "\u2157", (4, 5): "\u2158", (1, 6): "\u2159",
           (5, 6): "\u215a", (1, 8): "\u215b", (3, 8): "\u215c", (5, 8): "\u215d", (7, 8): "\u215e"}
_SUP = str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
_SUB = str.maketrans("0123456789", "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089")


def mixed(v: Any) -> str:
    """A value as written on paper: whole numbers as they are, fractions as mixed numbers (``"542/3"`` →
    ``180⅔``, ``"-92/3"`` → ``−30⅔``, ``"1/7"`` → ``¹⁄₇``), minus as U+2212. Text that is no number stays."""
    try:
        x = Fraction(str(v))
    except (ValueError, ZeroDivisionError):
        return str(v).replace("-", "\u2212")
    sign = "\u2212" if x < 0 else ""
    whole, part = divmod(abs(x.numerator), x.denominator)
    if part == 0:
        return f"{sign}{whole}"
    tail = (_VULGAR.get((part, x.denominator))
            or f"{str(part).translate(_SUP)}\u2044{str(x.denominator).translate(_SUB)}")
    return f"{sign}{whole if whole else ''}{tail}"


_num = mixed


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


def initials(name: str) -> str:
    """Initials as written on paper: ``Александр Петров`` → ``А.П.``, ``Мария Иванова-Кузнецова`` →
    ``М.И.-К.``, ``Maximilian von Hohenberg-Schwarzenau`` → ``M.v.H.-S.``."""
    words = name.split()
    if len(words) == 1 and len(name) <= 4:
        return name
    return "".join("-".join(part[:1] + "." for part in w.split("-") if part) for w in words) or name


def name_forms(players: list[str]) -> dict[str, list[str]]:
    """Per player the ways to write his name, longest first, as people shorten it on a narrow sheet: the
    full name, the first name with the others' initials (``Александр П.``), the first name, the initials.
    A short form two players would share is left out, so every form still tells them apart."""
    def forms(name: str) -> list[str]:
        words = name.split()
        out = [name]
        if len(words) > 1:
            out += [words[0] + " " + initials(" ".join(words[1:])), words[0]]
        out.append(initials(name))
        return list(dict.fromkeys(out))

    every = {p: forms(p) for p in players}
    taken: dict[str, int] = {}
    for p in players:
        for f in every[p]:
            taken[f] = taken.get(f, 0) + 1
    return {p: [f for k, f in enumerate(every[p]) if k == 0 or taken[f] == 1] for p in players}


def fit_lines(variants: list[list[str]], width: float, size: float, smallest: float,
              bold: bool = False) -> tuple[list[str], float]:
    """The first variant (lines of text, richest first) whose every line fits ``width`` at a size from
    ``size`` down to ``smallest``; variants are tried at the larger sizes first, so a shorter form at a
    readable size beats a longer one squeezed. The last resort is the last variant cut with an ellipsis."""
    floors = sorted({max(smallest, size - 1), smallest}, reverse=True)
    for floor in floors:
        for lines in variants:
            s = size
            while s >= floor - 1e-9:
                if all(text_width(t, s, bold) <= width for t in lines):
                    return lines, s
                s -= 0.5
    return [_fit(t, width, smallest, bold, smallest)[0] for t in variants[-1]], smallest


@dataclass
class Zone:
    """A rectangle of the sheet with a label and running entries flowing in rows."""

    x: float
    y: float
    w: float
    h: float
    labels: list[list[str]]  # the label's variants (lines), richest first
    entries: list[str]
    ink: str
    sep: str = "."  # running totals are written 4.6.10; marks stand apart
    rows: list[list[tuple[float, str, bool]]] = field(default_factory=list)
    label: list[str] = field(default_factory=list)
    label_size: float = LABEL

    def fit_label(self) -> None:
        self.label, self.label_size = fit_lines(self.labels, self.w - 2 * PAD, LABEL, 8)

    def label_height(self) -> float:
        return len(self.label) * self.label_size * 1.4

    def flow(self, size: float) -> float:
        """Lay the entries out in rows of width ``w``; return the height the zone needs."""
        self.fit_label()
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

    def widest(self, size: float) -> float:
        """The widest single entry at ``size`` (it must fit the zone's row alone)."""
        return max((text_width(_num(v) + self.sep, size, True) for v in self.entries), default=0.0)

    def needed(self, size: float) -> float:
        n = len(self.rows) if self.entries else 0
        return PAD + self.label_height() + 4 + n * (size * 1.3) + PAD

    def draw(self, size: float, parts: list[str], zone: str) -> None:
        parts.append(f'<rect x="{self.x:.1f}" y="{self.y:.1f}" width="{self.w:.1f}" height="{self.h:.1f}" '
                     f'fill="none" stroke="#444" stroke-width="1" data-zone="{zone}"/>')
        y = self.y + PAD
        for line in self.label:
            y += self.label_size * 1.4
            parts.append(_text(self.x + PAD, y - self.label_size * 0.3, line, self.label_size, INK["label"],
                               role="label", zone=zone))
        y += 4 + size
        for row in self.rows:
            for dx, text, last in row:
                parts.append(_text(self.x + PAD + dx, y - size * 0.2, text, size, self.ink, bold=last,
                                   role="total" if last else "entry", zone=zone))
            y += size * 1.3


def _text(x: float, y: float, text: str, size: float, fill: str = "#111", bold: bool = False,
          anchor: str = "start", role: str = "", zone: str = "") -> str:
    weight = ' font-weight="bold"' if bold else ""
    anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
    role_attr = f' data-role="{role}"' if role else ""
    zone_attr = f' data-zone="{zone}"' if zone else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" fill="{fill}"{weight}{anchor_attr}{role_attr}'
            f'{zone_attr}>{escape(text)}</text>')


def _frame(x: float, y: float, w: float, h: float, zone: str) -> str:
    """An undrawn rectangle: the frame the texts marked ``data-zone`` with its name must stay inside."""
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="none" stroke="none" '
            f'data-zone="{zone}"/>')


def _visty_labels(words: Words, forms: list[str]) -> list[list[str]]:
    """The variants of a visty zone's label, richest first: ``висты на Александр Петров`` on one line, then
    wrapped after ``висты на``, then shorter forms of the name, then ``на А.П.``."""
    head = words.visty.split("{}")[0].rstrip()
    short = words.visty_short.split("{}")[0].rstrip()
    out: list[list[str]] = []
    for f in forms:
        out += [[words.visty.format(f)], [head, f]]
    out += [[words.visty_short.format(f)] for f in forms[1:]]
    out += [[short, f] for f in forms[1:]]
    return out


def _zones_of(p: str, h: dict[str, Any], words: Words, forms: dict[str, list[str]],
              extra: list[str] | None) -> dict[str, Any]:
    """The zone contents of one player: visty per opponent, pulya, gora (or the Croatian marks)."""
    return {
        "visty": [(_visty_labels(words, forms[q]), vals) for q, vals in h["visty"].items()],
        "pulya": ([[words.pool]], h["pulya"]),
        "gora": ([[words.gora_zone]], extra if extra is not None else h["gora"]),
    }


def render_svg(pulka: dict[str, Any]) -> str:
    """SVG text of the paper sheet for one pulka entry of ``sheet --json``.

    Every text carries ``data-zone``, the name of the rectangle (drawn, or an undrawn frame) it stays
    inside: the browser tests check that, and that no two texts meet, for names of any length."""
    players: list[str] = pulka["players"]
    n = len(players)
    words = words_for(pulka.get("family"), pulka.get("rules"))
    hist = _histories(pulka)
    marks = _croatian_marks(pulka) if words.gora is None else None
    gora_sep = "" if marks else "."
    forms = name_forms(players)
    content = {p: _zones_of(p, hist[p], words, forms, marks[p] if marks else None) for p in players}

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
        least = [min(max(MIN_CELL, text_width(lab[0][0], LABEL) + 2 * PAD + 2), 1.6 * CELL) for _, lab, _ in order]
        if sum(least) > side_w:  # the panel keeps its share: long labels shorten instead
            least = [MIN_CELL * side_w / (MIN_CELL * len(least))] * len(least)
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

    # Font size: the largest whose side columns stay under MAX_SIDE (or the smallest) and whose every
    # entry fits its zone's row alone.
    size = SIZES[-1]
    probe = side_zones(seat["left"], 0, 0, True) + side_zones(seat["right"], 0, 0, False)
    for s in SIZES:
        if (max(z.flow(s) for z in probe) <= MAX_SIDE
                and all(z.widest(s) <= z.w - 2 * PAD for z in probe)):
            size = s
            break

    parts: list[str] = []

    def draw_band(p: str, y: float, outer_first: bool, tag: str) -> float:
        """Draw a top or bottom panel's rows of zones from ``y`` down; returns the y under them."""
        for r, row in enumerate(band_zones(p, y, outer_first)):
            h = max(max(z.flow(size) for z in row), PAD * 2 + LABEL + 4)
            for k, z in enumerate(row):
                z.y, z.h = y, h
                z.draw(size, parts, f"{tag}-{r}-{k}")
            y += h
        return y

    def name(p: str, cx: float, y: float, room: float, zone: str) -> None:
        parts.append(_frame(cx - room / 2, y, room, header, zone))
        (text,), sz = fit_lines([[f] for f in forms[p]], room - 8, NAME, 11, bold=True)
        parts.append(_text(cx, y + header / 2 + sz * 0.35, text, sz, bold=True, anchor="middle", role="name",
                           zone=zone))

    y = 8.0
    # Top panel (4 players): name, then visty / pulya / gora down towards the centre.
    if n == 4:
        name(seat["top"], width / 2, y, width - 16, "name-top")
        y = draw_band(seat["top"], y + header, True, "top")
    # The side panels: names over their columns, the centre between them.
    left = side_zones(seat["left"], 0, y + header, True)
    right = side_zones(seat["right"], width - side_w, y + header, False)
    centre_h = 240.0
    side_h = max([z.flow(size) for z in left + right] + [centre_h])
    for k, z in enumerate(left):
        z.h = side_h
        z.draw(size, parts, f"left-{k}")
    for k, z in enumerate(right):
        z.h = side_h
        z.draw(size, parts, f"right-{k}")
    name(seat["left"], side_w / 2, y, side_w - 8, "name-left")
    name(seat["right"], width - side_w / 2, y, side_w - 8, "name-right")
    _centre(pulka, words, side_w, y + header, CENTRE, side_h, parts)
    y += header + side_h
    # The bottom panel: gora next to the centre, then pulya, then visty split per opponent; name last.
    y = draw_band(seat["bottom"], y, False, "bottom")
    name(seat["bottom"], width / 2, y + 2, width - 16, "name-bottom")
    y += header + 4
    y = _settlement(pulka, words, forms, width, y, parts)
    foot = " · ".join(str(v) for v in (pulka.get("rules"), pulka.get("id")) if v)
    parts.append(_frame(4, y, width - 8, 22, "foot"))
    parts.append(_text(8, y + 14, *_fit(foot, width - 16, 11), fill=INK["label"], role="label", zone="foot"))
    height = y + 24
    title = " · ".join(["preflog sheet", str(pulka.get("id", "")), ", ".join(players)])
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" role="img" '
        f'aria-label="{escape(title)}">',
        f'<rect x="1" y="1" width="{width - 2:.0f}" height="{height - 2:.0f}" fill="{PAPER}" stroke="#333" '
        'stroke-width="2" data-zone="sheet"/>',
        *parts,
        "</svg>",
    ])


def _centre(pulka: dict[str, Any], words: Words, x: float, y: float, w: float, h: float, parts: list[str]) -> None:
    """The centre between the side panels: the pool in its circle (a Croatian sheet: the columns' start),
    the price of a whist and the number of deals beneath it."""
    zone = "centre"
    parts.append(_frame(x, y, w, h, zone))
    cx, cy = x + w / 2, y + h / 2 - 14
    r = min(58.0, w / 2 - 24, h / 2 - 40)
    start = pulka.get("start", {}).get("pulya", {})
    if words.centre_is_start:
        first = next(iter(start.values()), 0) if start else 0
        caption, figure = "start", _num(first)
    else:
        caption, figure = "pool", _num(pulka.get("pool", "") or "")
    parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="#fff" stroke="#333" stroke-width="2" '
                 f'data-zone="{zone}-circle"/>')
    parts.append(_text(cx, cy - r * 0.35, caption, 11, fill=INK["label"], anchor="middle", role="centre",
                       zone=zone))
    parts.append(_text(cx, cy + 12, *_fit(figure, r * 1.6, 26, True, 14), bold=True, anchor="middle",
                       role="pool", zone=zone))
    price = pulka.get("whist_price") or 1
    lines = [f"whist {_num(price)}", f"{len(pulka.get('deals', []))} deals"]
    for k, line in enumerate(lines):
        parts.append(_text(cx, cy + r + 18 + 15 * k, *_fit(line, w - 12, 12), fill=INK["label"], anchor="middle",
                           role="centre", zone=zone))


def _settlement(pulka: dict[str, Any], words: Words, forms: dict[str, list[str]], width: float, y: float,
                parts: list[str]) -> float:
    """The settlement table beneath the sheet; returns the y under it. The two paper methods round the
    Russian gora to whole visty; a Croatian sheet has no gora and settles exactly, so it shows no methods."""
    players: list[str] = pulka["players"]
    st = pulka.get("settlement", {})
    price = _num(pulka.get("whist_price") or "1")
    rows = [(f"exact ({words.points})", st.get("exact", {}), True)]
    if words.paper_methods:
        rows += [("method 1 (gora written as visty)", st.get("method1", {}), False),
                 ("method 2 (gora against the mean)", st.get("method2", {}), False)]
    rows.append((f"money (× {price})", st.get("money", {}), False))
    label_w = min(230.0, width * 0.3)
    col = (width - label_w) / len(players)
    line = 22.0
    top = y
    parts.append(_frame(4, y, label_w - 12, line, "settle-head"))
    parts.append(_text(8, y + 15, "Settlement", 14, bold=True, role="label", zone="settle-head"))
    for k, p in enumerate(players):
        zone = f"settle-name-{k}"
        parts.append(_frame(label_w + col * k + 2, y, col - 4, line, zone))
        (text,), sz = fit_lines([[f] for f in forms[p]], col - 10, 13, 10, bold=True)
        parts.append(_text(label_w + col * (k + 0.5), y + 15, text, sz, bold=True, anchor="middle", role="name",
                           zone=zone))
    y += line
    for r, (label, values, bold) in enumerate(rows):
        parts.append(f'<line x1="4" y1="{y:.1f}" x2="{width - 4:.1f}" y2="{y:.1f}" stroke="#bbb"/>')
        zone = f"settle-{r}"
        parts.append(_frame(4, y, label_w - 12, line, zone))
        parts.append(_text(8, y + 15, *_fit(label, label_w - 16, 12, smallest=9), fill=INK["label"], role="label",
                           zone=zone))
        for k, p in enumerate(players):
            cell = f"settle-{r}-{k}"
            parts.append(_frame(label_w + col * k + 2, y, col - 4, line, cell))
            parts.append(_text(label_w + col * (k + 0.5), y + 15, *_fit(_num(values.get(p, "")), col - 10, 13),
                               bold=bold, anchor="middle", role="settlement", zone=cell))
        y += line
    parts.append(f'<line x1="{label_w - 6:.1f}" y1="{top:.1f}" x2="{label_w - 6:.1f}" y2="{y:.1f}" stroke="#bbb"/>')
    return y + 4


def render_html(pulkas: list[dict[str, Any]]) -> str:
    """A self-contained HTML page with one drawn sheet and a totals table per pulka (``sheet.html`` of
    :mod:`preflog.templates`: texts autoescaped, each SVG one value marked safe, its text escaped as drawn).
    Each family's table says its own words (:mod:`preflog.render.words`) and writes exact results as mixed
    numbers."""
    from ..templates import Markup  # (Jinja2 only for the page: ``sheet --svg`` does without)
    from ..templates import page

    shown = []
    for pk in pulkas:
        words = words_for(pk.get("family"), pk.get("rules"))
        head = ["player", words.pool_table, *([words.gora_table] if words.gora_table else []),
                words.written, f"exact ({words.points})"]
        if words.paper_methods:
            head += ["method 1", "method 2"]
        rows: list[list[str | list[str]]] = []
        for p in pk["players"]:
            row: list[str | list[str]] = [p, _num(pk["totals"]["pulya"].get(p, ""))]
            if words.gora:
                row.append(_num(pk["totals"]["gora"].get(p, "")))
            row.append([f"{q}: {_num(v)}" for q, v in pk["totals"]["visty"].get(p, {}).items()])
            row.append(_num(pk["settlement"]["exact"].get(p, "")))
            if words.paper_methods:
                row += [_num(pk["settlement"]["method1"].get(p, "")), _num(pk["settlement"]["method2"].get(p, ""))]
            rows.append(row)
        anchor = "full-" + hashlib.sha256(str(pk["id"]).encode("utf-8")).hexdigest()[:12]
        shown.append({"id": str(pk["id"]), "anchor": anchor, "svg": Markup(render_svg(pk)), "head": head,
                      "wide": head.index(words.written), "rows": rows})
    return page("sheet.html", title="preflog sheet" + (f" · {pulkas[0]['id']}" if len(pulkas) == 1 else ""),
                pulkas=shown)
