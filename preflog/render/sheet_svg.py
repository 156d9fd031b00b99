"""The paper pulka sheet ("расписанная пулька") drawn as SVG, for 3 and 4 players.

Input is the ``sheet --json`` entry of one pulka (see docs/cli.md), so the drawing depends on nothing
but that documented contract. Layout as players draw it: each player owns the side of the sheet
nearest to him (3 players: left, right, bottom; 4 players: left, top, right, bottom), and on that side
nested rectangular zones run from the edge towards the centre: the visty ("висты") he writes, one zone
per opponent, then his pulya ("пуля"), then his gora ("гора") next to the centre, where the pool is
written in a circle. Running totals are written one after another, ``4.6.10``, flowing in rows inside
their zone like pencil entries; the last one (the total) is bold, and exact values are mixed numbers
(``180⅔``); the entry at which a player's pulya reached the pool is boxed, as players mark the pulya
closed. The centre holds the pool in its circle with the price of a whist beneath. The settlement sits
beneath: exact, method 1, method 2 and money, each labelled. ``portrait``: the same sheet for a phone
held upright, each player's part one under another, no text under 12 px.

One language per sheet (``lang``): English, or Russian for the Russian family (пуля, гора, висты на …,
Расчёт, точно, способ 1/2, в деньгах). Each family speaks its own words and rules its sheet its own way
(:mod:`preflog.render.words`): a Croatian (or Slovenian) sheet is the list (:func:`_render_list`), a
column per player, a row per deal, with the contract column ("stupac"), juha, the refe (Slovenian:
"radlc") as a stroke crossed when used and the hat ("šešir"); it has no gora and no paper methods.

Names of any length: each panel keeps its share of the sheet; a label or a name that does not fit its
zone shrinks a little, wraps after its first words, or shortens as people write it on paper (``Александр
П.``, ``Александр``, ``А.П.``; never to a form two players share). Nothing is measured by a browser here:
text widths are estimated from per-character advances a little wider than common sans-serif fonts', and
every zone grows to hold its rows, so no two texts meet and no text leaves its zone (each ``<text>`` names
its zone's rectangle in ``data-zone``: the browser tests check every one).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from dataclasses import field
from fractions import Fraction
from functools import lru_cache
from html import escape
from typing import Any

from .numbers import mixed
from .numbers import money_shown
from .numbers import negated
from .words import Lang
from .words import SheetLayout
from .words import Words
from .words import words_for

__all__ = ["initials", "mixed", "name_forms", "render_html", "render_svg"]

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
    if ch in ".,:; \u00b7":
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
    return _ems(text) * size * (1.1 if bold else 1.0)


@lru_cache(maxsize=8192)
def _ems(text: str) -> float:
    """The sum of a text's :func:`_advance` (kept: a sheet measures the same texts at several sizes, and
    again on every redraw)."""
    return sum(_advance(c) for c in text)


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


_num = mixed


def _histories(pulka: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per player the running totals after each deal that changed them (as written on paper), and where
    his pulya closed: ``closed`` is ``(index of the pulya entry, deal number)`` of the deal at which it
    reached the pool, or ``None``."""
    players: list[str] = pulka["players"]
    out: dict[str, dict[str, Any]] = {p: {"pulya": [], "gora": [], "visty": {q: [] for q in players if q != p},
                                          "closed": None} for p in players}
    start = pulka.get("start", {}).get("pulya", {})
    last: dict[tuple[str, str, str], Any] = {(p, "pulya", ""): start.get(p, 0) for p in players}
    for p in players:
        if start.get(p, 0) != 0:  # a Croatian column starts below zero: its first entry is the start
            out[p]["pulya"].append(start[p])
    pool = _number(pulka.get("pool"))
    for k, deal in enumerate(pulka.get("deals", [])):
        for p in players:
            for area in ("pulya", "gora"):
                v = deal.get(area, {}).get(p)
                if v is not None and last.get((p, area, ""), 0) != v:
                    out[p][area].append(v)
                    if (area == "pulya" and out[p]["closed"] is None and pool is not None and pool > 0
                            and (_number(v) or 0) >= pool):
                        out[p]["closed"] = (len(out[p]["pulya"]) - 1, deal.get("deal", k + 1))
                if v is not None:
                    last[(p, area, "")] = v
            for q, v in deal.get("visty", {}).get(p, {}).items():
                if q != p and last.get((p, "visty", q), 0) != v:
                    out[p]["visty"][q].append(v)
                last[(p, "visty", q)] = v
    return out


def _number(v: Any) -> float | None:
    return _number_of(str(v))


@lru_cache(maxsize=4096)
def _number_of(text: str) -> float | None:
    try:
        return float(Fraction(text))
    except (ValueError, ZeroDivisionError):
        return None


def initials(name: str) -> str:
    """Initials as written on paper: ``Александр Петров`` → ``А.П.``, ``Мария Иванова-Кузнецова`` →
    ``М.И.-К.``, ``Maximilian von Hohenberg-Schwarzenau`` → ``M.v.H.-S.``."""
    words = name.split()
    if len(words) == 1 and len(name) <= 4:
        return name
    return "".join("-".join(part[:1] + "." for part in w.split("-") if part) for w in words) or name


CUTS = (8, 5, 4)
"""The letters a one-word name keeps when it is cut (:func:`name_forms`), longest first."""


def name_forms(players: list[str]) -> dict[str, list[str]]:
    """Per player the ways to write his name, longest first, as people shorten it on a narrow sheet: the
    full name, the first name with the others' initials (``Александр П.``), the first name, the initials.
    A name of one long word is cut as people cut it, after a few of its letters with a full stop
    (``Константинопольский`` → ``Констант.``, ``Конст.``, ``Конс.``), never to one letter: ``К.`` tells
    nobody who it is. A short form two players would share is left out, so every form still tells them
    apart."""
    def forms(name: str) -> list[str]:
        words = name.split()
        out = [name]
        if len(words) > 1:
            out += [words[0] + " " + initials(" ".join(words[1:])), words[0], initials(name)]
        else:
            out += [name[:k] + "." for k in CUTS if len(name) > k + 1]
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
    closing: int = -1  # the entry at which the pulya reached the pool (boxed, as players mark it)
    closing_note: str = ""
    label_top: float = LABEL
    label_min: float = 8
    rows: list[list[tuple[float, str, bool]]] = field(default_factory=list)
    label: list[str] = field(default_factory=list)
    label_size: float = LABEL

    def fit_label(self) -> None:
        self.label, self.label_size = fit_lines(self.labels, self.w - 2 * PAD, self.label_top, self.label_min)

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
        k = 0
        for row in self.rows:
            for dx, text, last in row:
                if k == self.closing:  # the pulya closed here: the entry boxed, as on paper
                    wd = text_width(text.rstrip(self.sep) if not last else text, size, last)
                    parts.append(f'<rect x="{self.x + PAD + dx - 2:.1f}" y="{y - size * 1.05:.1f}" '
                                 f'width="{wd + 4:.1f}" height="{size * 1.2:.1f}" rx="3" fill="none" '
                                 f'stroke="{self.ink}" stroke-width="1.5" data-role="closed">'
                                 f'<title>{escape(self.closing_note)}</title></rect>')
                parts.append(_text(self.x + PAD + dx, y - size * 0.2, text, size, self.ink, bold=last,
                                   role="total" if last else "entry", zone=zone))
                k += 1
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


def _zones_of(h: dict[str, Any], words: Words, forms: dict[str, list[str]]) -> dict[str, Any]:
    """The zone contents of one player: visty per opponent, pulya, gora."""
    return {
        "visty": [(_visty_labels(words, forms[q]), vals) for q, vals in h["visty"].items()],
        "pulya": ([[words.pool]], h["pulya"]),
        "gora": ([[words.gora_zone]], h["gora"]),
    }


def _svg(width: float, height: float, title: str, parts: list[str], shape: str) -> str:
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" role="img" data-shape="{shape}" '
        f'aria-label="{escape(title)}">',
        f'<rect x="1" y="1" width="{width - 2:.0f}" height="{height - 2:.0f}" fill="{PAPER}" stroke="#333" '
        'stroke-width="2" data-zone="sheet"/>',
        *parts,
        "</svg>",
    ])


def _title(pulka: dict[str, Any]) -> str:
    return " · ".join(["preflog sheet", str(pulka.get("id", "")), ", ".join(pulka["players"])])


def render_svg(pulka: dict[str, Any], lang: Lang = Lang.EN, portrait: bool = False) -> str:
    """SVG text of the paper sheet for one pulka entry of ``sheet --json``, its words in ``lang`` (where
    the family has them: :mod:`preflog.render.words`), ruled as the family rules it (the Russian cross,
    the Croatian list); ``portrait``: laid out for a phone held upright (370 px wide, no text under 12 px).

    Every text carries ``data-zone``, the name of the rectangle (drawn, or an undrawn frame) it stays
    inside: the browser tests check that, and that no two texts meet, for names of any length."""
    words = words_for(pulka.get("family"), pulka.get("rules"), lang)
    if words.layout is SheetLayout.LIST:
        return _render_list(pulka, words, portrait)
    if portrait:
        return _render_portrait(pulka, words)
    return _render_cross(pulka, words)


def _closing(hist: dict[str, Any], words: Words) -> tuple[int, str]:
    """The pulya entry to box (its index, ``-1`` for none) and its note."""
    closed = hist["closed"]
    if closed is None:
        return -1, ""
    return closed[0], f"{words.pool}: {words.closed.format(closed[1])}"


def _render_cross(pulka: dict[str, Any], words: Words) -> str:
    """The Russian sheet as players rule it on a sheet held sideways (see the module's text)."""
    players: list[str] = pulka["players"]
    n = len(players)
    hist = _histories(pulka)
    forms = name_forms(players)
    content = {p: _zones_of(hist[p], words, forms) for p in players}

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
            zones.append(Zone(x, y0, wd, 0, lab, list(vals), INK[kind]))
            if kind == "pulya":
                zones[-1].closing, zones[-1].closing_note = _closing(hist[p], words)
            x += wd
        return zones

    def band_zones(p: str, y0: float, outer_top: bool) -> list[list[Zone]]:
        """Rows of a top/bottom panel from its outer edge inwards: visty split per opponent, pulya, gora."""
        c = content[p]
        split = width / len(c["visty"])
        visty = [Zone(k * split, y0, split, 0, lab, list(vals), INK["visty"]) for k, (lab, vals) in
                 enumerate(c["visty"])]
        pulya = Zone(0, y0, width, 0, c["pulya"][0], list(c["pulya"][1]), INK["pulya"])
        pulya.closing, pulya.closing_note = _closing(hist[p], words)
        rows = [visty, [pulya], [Zone(0, y0, width, 0, c["gora"][0], list(c["gora"][1]), INK["gora"])]]
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
    return _svg(width, height, _title(pulka), parts, "paper")


def _centre(pulka: dict[str, Any], words: Words, x: float, y: float, w: float, h: float, parts: list[str]) -> None:
    """The centre between the side panels: the pool in its circle, the price of a whist and the number of
    deals beneath it."""
    zone = "centre"
    parts.append(_frame(x, y, w, h, zone))
    cx, cy = x + w / 2, y + h / 2 - 14
    r = min(58.0, w / 2 - 24, h / 2 - 40)
    parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="#fff" stroke="#333" stroke-width="2" '
                 f'data-zone="{zone}-circle"/>')
    caption, figure = _centre_figure(pulka, words)
    parts.append(_text(cx, cy - r * 0.35, caption, 11, fill=INK["label"], anchor="middle", role="centre",
                       zone=zone))
    parts.append(_text(cx, cy + 12, *_fit(figure, r * 1.6, 26, True, 14), bold=True, anchor="middle",
                       role="pool", zone=zone))
    for k, line in enumerate(_centre_lines(pulka, words)):
        parts.append(_text(cx, cy + r + 18 + 15 * k, *_fit(line, w - 12, 12), fill=INK["label"], anchor="middle",
                           role="centre", zone=zone))


def _centre_figure(pulka: dict[str, Any], words: Words) -> tuple[str, str]:
    """The caption and figure of the centre: the pool, or (a Croatian sheet) the columns' start."""
    if words.centre_is_start:
        start = pulka.get("start", {}).get("pulya", {})
        first = next(iter(start.values()), 0) if start else 0
        return words.centre, negated(first) if words.column_as_bula else mixed(first)
    return words.centre, mixed(pulka.get("pool", "") or "")


def _centre_lines(pulka: dict[str, Any], words: Words) -> list[str]:
    return [words.whist.format(mixed(pulka.get("whist_price") or 1)),
            words.deals.format(len(pulka.get("deals", [])))]


def _settle_rows(pulka: dict[str, Any], words: Words, long: bool) -> list[tuple[str, dict[str, Any], bool]]:
    """The settlement's rows (label, value per player, bold): exact, the paper methods where the family
    rounds on paper (a Croatian sheet settles exactly), money (``long``: explained; short where the price
    of a whist stands above), in whole units where the family pays so (:func:`money_shown`)."""
    st = pulka.get("settlement", {})
    price = mixed(pulka.get("whist_price") or "1")
    rows = [(f"{words.exact} ({words.points})" if long else words.exact, st.get("exact", {}), True)]
    if words.paper_methods:
        rows += [(words.method1_long if long else words.method1, st.get("method1", {}), False),
                 (words.method2_long if long else words.method2, st.get("method2", {}), False)]
    rows.append((f"{words.money} (× {price})" if long else words.money,
                 money_shown(st.get("money", {}), words.whole_money), False))
    return rows


def _settlement(pulka: dict[str, Any], words: Words, forms: dict[str, list[str]], width: float, y: float,
                parts: list[str]) -> float:
    """The settlement table beneath the sheet; returns the y under it. The two paper methods round the
    Russian gora to whole visty; a Croatian sheet has no gora and settles exactly, so it shows no methods."""
    players: list[str] = pulka["players"]
    rows = _settle_rows(pulka, words, True)
    label_w = min(230.0, width * 0.3)
    col = (width - label_w) / len(players)
    line = 22.0
    top = y
    parts.append(_frame(4, y, label_w - 12, line, "settle-head"))
    parts.append(_text(8, y + 15, *_fit(words.settlement, label_w - 16, 14, True, 10), bold=True, role="label",
                       zone="settle-head"))
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
            parts.append(_text(label_w + col * (k + 0.5), y + 15, *_fit(mixed(values.get(p, "")), col - 10, 13),
                               bold=bold, anchor="middle", role="settlement", zone=cell))
        y += line
    parts.append(f'<line x1="{label_w - 6:.1f}" y1="{top:.1f}" x2="{label_w - 6:.1f}" y2="{y:.1f}" stroke="#bbb"/>')
    return y + 4


# The portrait sheet and the list: drawn for a phone held upright, no text under SMALL.
PORTRAIT = 370   # width of a portrait sheet: a 390 px phone's page less its margins, so it is drawn 1:1
SMALL = 12       # the smallest text of a portrait sheet (and of the list)
NARROW_SIZES = (14, 13, 12)


def _portrait_settlement(pulka: dict[str, Any], words: Words, forms: dict[str, list[str]], width: float,
                         y: float, parts: list[str]) -> float:
    """The settlement of a portrait sheet: a column per figure (exact, the methods, money), a row per
    player (his name on a line of its own above his figures); returns the y under it."""
    players: list[str] = pulka["players"]
    rows = _settle_rows(pulka, words, False)
    col = (width - 8) / len(rows)
    line = SMALL * 1.6
    parts.append(_frame(4, y, width - 8, line + 4, "settle-head"))
    parts.append(_text(8, y + line - 2, *_fit(words.settlement, width - 16, 15, True, SMALL), bold=True,
                       role="label", zone="settle-head"))
    y += line + 4
    heads = [[[label]] + ([label.split(" ", 1)] if " " in label else []) for label, _, _ in rows]
    fitted = [fit_lines(h, col - 8, SMALL, SMALL) for h in heads]
    head_h = max(len(lines) for lines, _ in fitted) * SMALL * 1.3 + 6
    for c, (lines, sz) in enumerate(fitted):
        zone = f"settle-{c}"
        parts.append(_frame(4 + col * c + 2, y, col - 4, head_h, zone))
        for k, t in enumerate(lines):
            parts.append(_text(4 + col * (c + 0.5), y + 3 + SMALL * (1.3 * k + 1), t, sz, fill=INK["label"],
                               anchor="middle", role="label", zone=zone))
    y += head_h
    for k, p in enumerate(players):
        parts.append(f'<line x1="4" y1="{y:.1f}" x2="{width - 4:.1f}" y2="{y:.1f}" stroke="#bbb"/>')
        zone = f"settle-name-{k}"
        parts.append(_frame(4, y, width - 8, line, zone))
        (text,), sz = fit_lines([[f] for f in forms[p]], width - 16, 13, SMALL, bold=True)
        parts.append(_text(8, y + line - 5, text, sz, bold=True, role="name", zone=zone))
        y += line
        for c, (_, values, bold) in enumerate(rows):
            cell = f"settle-{k}-{c}"
            parts.append(_frame(4 + col * c + 2, y, col - 4, line, cell))
            parts.append(_text(4 + col * (c + 0.5), y + line - 5, *_fit(mixed(values.get(p, "")), col - 8, 14, bold,
                                                                         SMALL),
                               bold=bold, anchor="middle", role="settlement", zone=cell))
        y += line
    return y + 4


def _foot(pulka: dict[str, Any], width: float, y: float, size: float, parts: list[str]) -> float:
    foot = " · ".join(str(v) for v in (pulka.get("rules"), pulka.get("id")) if v)
    parts.append(_frame(4, y, width - 8, size * 2, "foot"))
    parts.append(_text(8, y + size * 1.3, *_fit(foot, width - 16, size, smallest=size), fill=INK["label"],
                       role="label", zone="foot"))
    return y + size * 2 + 2


def _render_portrait(pulka: dict[str, Any], words: Words) -> str:
    """The Russian sheet for a phone held upright: the pool and the price of a whist on top, then each
    player's part one under another (his name, his pulya and gora across the sheet, the visty he wrote on
    each other player side by side), the settlement beneath; no text under :data:`SMALL` px."""
    players: list[str] = pulka["players"]
    hist = _histories(pulka)
    forms = name_forms(players)
    content = {p: _zones_of(hist[p], words, forms) for p in players}
    width = float(PORTRAIT)
    parts: list[str] = []

    def rows_of(p: str) -> list[list[Zone]]:
        c = content[p]
        pulya = Zone(0, 0, width, 0, c["pulya"][0], list(c["pulya"][1]), INK["pulya"], label_top=SMALL,
                     label_min=SMALL)
        pulya.closing, pulya.closing_note = _closing(hist[p], words)
        gora = Zone(0, 0, width, 0, c["gora"][0], list(c["gora"][1]), INK["gora"], label_top=SMALL, label_min=SMALL)
        split = width / len(c["visty"])
        visty = [Zone(k * split, 0, split, 0, lab, list(vals), INK["visty"], label_top=SMALL, label_min=SMALL)
                 for k, (lab, vals) in enumerate(c["visty"])]
        return [[pulya], [gora], visty]

    every = [z for p in players for row in rows_of(p) for z in row]
    size = next((s for s in NARROW_SIZES if all(z.widest(s) <= z.w - 2 * PAD for z in every)), NARROW_SIZES[-1])
    # the centre: the pool in its circle, the price of a whist and the deals beside it
    y = 6.0
    centre_h = 92.0
    parts.append(_frame(4, y, width - 8, centre_h, "centre"))
    r = 40.0
    cx, cy = 8 + r + 4, y + centre_h / 2
    parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="#fff" stroke="#333" stroke-width="2" '
                 f'data-zone="centre-circle"/>')
    caption, figure = _centre_figure(pulka, words)
    parts.append(_text(cx, cy - 12, *_fit(caption, 1.6 * r, SMALL, smallest=SMALL), fill=INK["label"],
                       anchor="middle", role="centre", zone="centre"))
    parts.append(_text(cx, cy + 14, *_fit(figure, 1.5 * r, 22, True, SMALL), bold=True, anchor="middle",
                       role="pool", zone="centre"))
    tx = cx + r + 14
    for k, line in enumerate(_centre_lines(pulka, words)):
        parts.append(_text(tx, cy - 6 + 20 * k, *_fit(line, width - tx - 8, 15, smallest=SMALL), fill=INK["label"],
                           role="centre", zone="centre"))
    y += centre_h + 6
    for k, p in enumerate(players):
        zone = f"name-{k}"
        lines, sz = _name_lines("", forms[p], width - 16, 15)
        header = len(lines) * 15 * 1.3 + 6
        parts.append(_frame(4, y, width - 8, header, zone))
        for j, t in enumerate(lines):
            parts.append(_text(8, y + 15 * (1.3 * j + 1) + 1, t, sz, bold=True, role="name", zone=zone))
        y += header
        for r_, row in enumerate(rows_of(p)):
            h = max(max(z.flow(size) for z in row), PAD * 2 + SMALL * 1.4 + 4)
            for j, z in enumerate(row):
                z.y, z.h = y, h
                z.draw(size, parts, f"p{k}-{r_}-{j}")
            y += h
        y += 8
    y = _portrait_settlement(pulka, words, forms, width, y, parts)
    y = _foot(pulka, width, y, SMALL, parts)
    return _svg(width, y + 2, _title(pulka), parts, "portrait")


@dataclass
class _Column:
    """A column of the Croatian list: a player's contract column or the juha he writes on another."""

    player: int
    on: int | None  # the other player of a juha column; None: the contract column
    labels: list[list[str]]
    cells: list[str]
    x: float = 0.0
    w: float = 0.0


def _list_rows(pulka: dict[str, Any], words: Words
               ) -> tuple[list[dict[str, Any]], dict[str, list[tuple[int, int | None]]]]:
    """The rows of the Croatian list, the start then one per deal: per row the new entries (``("c", p)``:
    player p's column, with ``∩``/``∪`` where it crossed zero, as a bula where the words say so; ``("j", p,
    q)``: the juha p wrote on q), ``refe`` when everybody got one; and per player his refe as ``(row granted,
    row used or None)``."""
    column = negated if words.column_as_bula else mixed
    players: list[str] = pulka["players"]
    start = pulka.get("start", {}).get("pulya", {})
    last_c = {p: start.get(p, 0) for p in players}
    last_j = {(p, q): 0 for p in players for q in players if q != p}
    above = {p: (_number(start.get(p, 0)) or 0) >= 0 for p in players}
    rows: list[dict[str, Any]] = [{"deal": "", "cells": {("c", p): column(start.get(p, 0)) for p in players},
                                   "refe": False}]
    refe: dict[str, list[tuple[int, int | None]]] = {p: [] for p in players}
    for k, deal in enumerate(pulka.get("deals", []), start=1):
        note = str(deal.get("note", ""))
        row: dict[str, Any] = {"deal": str(deal.get("deal", k)), "cells": {}, "refe": "refe for everybody" in note}
        declarer = deal.get("declarer")
        if "refe used" in note and declarer in refe:
            open_ = [i for i, (_, used) in enumerate(refe[declarer]) if used is None]
            if open_:
                refe[declarer][open_[0]] = (refe[declarer][open_[0]][0], k)
        if row["refe"]:
            for p in players:
                refe[p].append((k, None))
        for p in players:
            v = deal.get("pulya", {}).get(p)
            if v is not None and v != last_c[p]:
                hat = (_number(v) or 0) >= 0
                mark = ("\u2229" if hat else "\u222a") if hat != above[p] else ""
                above[p] = hat
                row["cells"][("c", p)] = mark + column(v)
                last_c[p] = v
            for q, w in deal.get("visty", {}).get(p, {}).items():
                if q != p and w != last_j.get((p, q), 0):
                    row["cells"][("j", p, q)] = mixed(w)
                    last_j[(p, q)] = w
        rows.append(row)
    return rows, refe


def _name_lines(lead: str, forms: list[str], width: float, top: float = 14,
                most: int = 4) -> tuple[list[str], float]:
    """A player's name where it heads a part of a narrow sheet: ``lead`` (``A · ``) and the whole name on
    one line, or on up to ``most`` lines (broken after the first name, then at spaces and after hyphens,
    as many words to a line as fit) at ``top`` down to 12 px; else a shorter form of it
    (:func:`name_forms`)."""
    full = forms[0]
    first, _, rest = full.partition(" ")
    pieces = [x for x in re.split(r"(?<=-)|\s+", rest) if x]
    joins = [x for x in re.findall(r"-|\s+", rest)]  # what stood between the pieces: a hyphen stays

    def pack(size: float) -> list[str] | None:
        lines = [lead + first]
        line = ""
        for k, piece in enumerate(pieces):
            glue = "" if k == 0 or joins[k - 1] == "-" else " "
            if line and text_width(line + glue + piece, size, True) > width:
                lines.append(line)
                line = piece
            else:
                line = line + glue + piece if line else piece
        if line:
            lines.append(line)
        fits = all(text_width(t, size, True) <= width for t in lines) and len(lines) <= most
        return lines if fits else None

    size = top
    while size >= SMALL:
        if text_width(lead + full, size, True) <= width:
            return [lead + full], size
        size -= 0.5
    best: tuple[list[str], float] | None = None  # the fewest lines, then the largest size
    size = top
    while size >= SMALL and rest:
        got = pack(size)
        if got and (best is None or len(got) < len(best[0])):
            best = got, size
        size -= 0.5
    if best is not None:
        return best
    return fit_lines([[lead + f] for f in forms], width, top, SMALL, bold=True)


def _render_list(pulka: dict[str, Any], words: Words, portrait: bool) -> str:
    """The Croatian list as players rule it: a group of columns per player (the juha he writes on one
    other player, his contract column, the juha on the rest), a row per deal, the first row the columns'
    start. An all-pass that grants refe is a stroke across every contract column in its row, crossed by a
    second stroke in the deal its player used it; a column that crossed zero carries the hat ``∩`` (``∪``
    when it drops back under). Each player has a letter (A, B, C) that the juha columns' heads use, as
    on paper, with his name above his group (a name the group can hold only shortened, ``B · А.К.``, is
    also written whole in the head, after its letter)."""
    players: list[str] = pulka["players"]
    n = len(players)
    letters = [chr(ord("A") + k) for k in range(n)]
    forms = name_forms(players)
    size = SMALL if portrait else 14
    pad = 2.5 if portrait else PAD
    rows, refe = _list_rows(pulka, words)
    cols: list[_Column] = []
    for i, p in enumerate(players):
        others = [j for j in range(n) if j != i]
        for j in [*others[:1], None, *others[1:]]:
            key: tuple[Any, ...] = ("c", p) if j is None else ("j", p, players[j])
            label = [[words.pool]] if j is None else [[words.visty_short.format(letters[j])]]
            cols.append(_Column(i, j, label, [r["cells"].get(key, "") for r in rows]))
    least = SMALL * 2.2
    for c in cols:
        c.w = max([least, text_width(c.labels[0][0], SMALL) + 2 * pad]
                  + [text_width(t, size, bold=True) + 2 * pad for t in c.cells])
    deal_w = text_width(str(len(rows)), SMALL) + 2 * pad + 2
    target = PORTRAIT if portrait else 640.0
    natural = sum(c.w for c in cols)
    if portrait and natural + deal_w > target:
        deal_w = 0.0  # no room for the deal numbers on a phone: the rows still go one per deal
    width = max(target, natural + deal_w + 8)
    stretch = (width - 8 - deal_w) / natural
    x = 4 + deal_w
    for c in cols:
        c.w *= stretch
        c.x = x
        x += c.w
    parts: list[str] = []
    y = 6.0
    # the head: the columns' start, the price of a whist, the deals, and the marks' legend
    caption, figure = _centre_figure(pulka, words)
    heads = [f"{caption} {figure}", *_centre_lines(pulka, words)]
    legend = " · ".join(x for x in (f"\u2014 {words.refe}" if words.refe else "",
                                    f"\u2229 {words.hat}" if words.hat else "") if x)
    line = SMALL * 1.5
    head_lines, head_size = fit_lines([[" · ".join(heads)], [" · ".join(heads[:1]), " · ".join(heads[1:])]],
                                      width - 16, 14, SMALL)
    # the names over their groups: the letter, then the name on one or more lines, or a shorter form of it
    group_w = {i: sum(c.w for c in cols if c.player == i) for i in range(n)}
    group_x = {i: min(c.x for c in cols if c.player == i) for i in range(n)}
    fitted = {i: _name_lines(f"{letters[i]} \u00b7 ", forms[p], group_w[i] - 2 * pad) for i, p in enumerate(players)}
    # a name its group could only hold shortened is written whole in the head, after its letter
    whole = [f"{letters[i]} \u00b7 {p}" for i, p in enumerate(players)
             if "".join(fitted[i][0]).replace(" ", "") != f"{letters[i]}\u00b7{p}".replace(" ", "")]
    head_lines = [*head_lines, *([legend] if legend else []), *whole]
    parts.append(_frame(4, y, width - 8, line * len(head_lines) + 4, "centre"))
    for k, t in enumerate(head_lines):
        parts.append(_text(8, y + line * (k + 1) - 4, *_fit(t, width - 16, head_size, smallest=SMALL),
                           fill=INK["label"], role="centre", zone="centre"))
    y += line * len(head_lines) + 8
    name_h = max(len(lines) for lines, _ in fitted.values()) * 14 * 1.3 + 6
    for i in range(n):
        zone = f"name-{i}"
        parts.append(_frame(group_x[i], y, group_w[i], name_h, zone))
        lines, sz = fitted[i]
        for k, t in enumerate(lines):
            parts.append(_text(group_x[i] + group_w[i] / 2, y + 3 + 14 * (1.3 * k + 1), t, sz, bold=True,
                               anchor="middle", role="name", zone=zone))
    y += name_h
    sub_h = SMALL * 1.6
    row_h = size * 1.5
    top = y
    bottom = y + sub_h + row_h * len(rows)
    if deal_w:
        parts.append(_frame(4, top, deal_w, bottom - top, "deals"))
        parts.append(f'<line x1="{4 + deal_w:.1f}" y1="{top:.1f}" x2="{4 + deal_w:.1f}" y2="{bottom:.1f}" '
                     'stroke="#444"/>')
    for k, c in enumerate(cols):
        zone = f"col-{k}"
        contract = c.on is None
        parts.append(f'<rect x="{c.x:.1f}" y="{top:.1f}" width="{c.w:.1f}" height="{bottom - top:.1f}" '
                     f'fill="{"#f3f7f0" if contract else "none"}" stroke="#444" '
                     f'stroke-width="{1.6 if contract else 0.6}" data-zone="{zone}"/>')
        head = c.labels[0][0]
        parts.append(_text(c.x + c.w / 2, top + sub_h - 5, *_fit(head, c.w - 2 * pad, SMALL, smallest=SMALL),
                           fill=INK["label"], anchor="middle", role="label", zone=zone))
        for r, t in enumerate(c.cells):
            if t:
                last = all(not u for u in c.cells[r + 1:])
                parts.append(_text(c.x + c.w - pad, top + sub_h + row_h * (r + 1) - size * 0.4, t, size,
                                   INK["pulya"] if contract else INK["visty"], bold=last, anchor="end",
                                   role="total" if last else "entry", zone=zone))
    parts.append(f'<line x1="4" y1="{top + sub_h:.1f}" x2="{width - 4:.1f}" y2="{top + sub_h:.1f}" stroke="#444"/>')
    for r, row in enumerate(rows):
        ry = top + sub_h + row_h * r
        if r:
            parts.append(f'<line x1="4" y1="{ry:.1f}" x2="{width - 4:.1f}" y2="{ry:.1f}" stroke="#ddd"/>')
        if deal_w and row["deal"]:
            parts.append(_text(4 + deal_w - pad, ry + row_h - size * 0.4, row["deal"], SMALL, INK["label"],
                               anchor="end", role="deal", zone="deals"))
    # the refe: a stroke across the contract column, crossed when its player used it
    for i, p in enumerate(players):
        c = next(c for c in cols if c.player == i and c.on is None)
        for granted, used in refe[p]:
            mid = top + sub_h + row_h * granted + row_h / 2
            note = f"{words.refe} ({rows[granted]['deal']})" if words.refe else ""
            parts.append(f'<line x1="{c.x + 6:.1f}" y1="{mid:.1f}" x2="{c.x + c.w - 6:.1f}" y2="{mid:.1f}" '
                         f'stroke="{INK["gora"]}" stroke-width="2" data-role="refe"><title>{escape(note)}</title>'
                         '</line>')
            if used is not None:
                cx, dy, dx = c.x + c.w / 2, row_h * 0.4, row_h * 0.35
                used_note = f"{note} \u2192 {rows[used]['deal']}"
                parts.append(f'<line x1="{cx - dx:.1f}" y1="{mid + dy:.1f}" x2="{cx + dx:.1f}" y2="{mid - dy:.1f}" '
                             f'stroke="{INK["gora"]}" stroke-width="2" data-role="refe-used">'
                             f'<title>{escape(used_note)}</title></line>')
    y = bottom + 8
    y = _portrait_settlement(pulka, words, forms, width, y, parts)
    y = _foot(pulka, width, y, SMALL, parts)
    return _svg(width, y + 2, _title(pulka), parts, "list" if not portrait else "list-portrait")


def render_html(pulkas: list[dict[str, Any]], lang: Lang = Lang.EN) -> str:
    """A self-contained HTML page with the drawn sheet and a totals table per pulka (``sheet.html`` of
    :mod:`preflog.templates`: texts autoescaped, each SVG one value marked safe, its text escaped as drawn),
    in ``lang`` where the family has its words. Each sheet is drawn twice: as on paper, shown on a wide
    screen, and in portrait, shown under 900 px (a phone), where *Paper layout* shows the paper one at its
    own size. Each family's table says its own words (:mod:`preflog.render.words`) and writes exact
    results as mixed numbers. Each pulka's id is written once (the page's heading when it is the only
    one), with its players, date, rules, deals and money (as the family pays it) beneath."""
    from ..templates import Markup  # (Jinja2 only for the page: ``sheet --svg`` does without)
    from ..templates import page
    from ..templates.i18n import gettext
    from ..templates.i18n import ngettext

    shown = []
    for pk in pulkas:
        words = words_for(pk.get("family"), pk.get("rules"), lang)
        head = [words.player, words.pool_table, *([words.gora_table] if words.gora_table else []),
                words.written, f"{words.exact} ({words.points})"]
        if words.paper_methods:
            head += [words.method1, words.method2]
        hist = _histories(pk) if words.layout is SheetLayout.CROSS else {}
        rows: list[list[str | list[str]]] = []
        for p in pk["players"]:
            pulya = (negated if words.column_as_bula else mixed)(pk["totals"]["pulya"].get(p, ""))
            closed = hist.get(p, {}).get("closed")
            row: list[str | list[str]] = [p, [pulya, words.closed.format(closed[1])] if closed else pulya]
            if words.gora:
                row.append(mixed(pk["totals"]["gora"].get(p, "")))
            row.append([f"{q}: {mixed(v)}" for q, v in pk["totals"]["visty"].get(p, {}).items()])
            row.append(mixed(pk["settlement"]["exact"].get(p, "")))
            if words.paper_methods:
                row += [mixed(pk["settlement"]["method1"].get(p, "")), mixed(pk["settlement"]["method2"].get(p, ""))]
            rows.append(row)
        anchor = "full-" + hashlib.sha256(str(pk["id"]).encode("utf-8")).hexdigest()[:12]
        money = money_shown(pk["settlement"].get("money", {}), words.whole_money)
        n = len(pk.get("deals", []))
        dealt = ngettext("%(num)s deal", "%(num)s deals", n) % {"num": n}
        facts = [", ".join(pk["players"]), *([str(pk["date"])] if pk.get("date") else []),
                 *([str(pk["rules"])] if pk.get("rules") else []), dealt]
        paid = (f"{words.money} (× {mixed(pk.get('whist_price') or '1')}): "
                + ", ".join(f"{p} {v}" for p, v in money.items())) if money else ""
        shown.append({"id": str(pk["id"]), "anchor": anchor, "facts": facts, "money": paid,
                      "svg": Markup(render_svg(pk, lang)),
                      "portrait": Markup(render_svg(pk, lang, portrait=True)), "head": head,
                      "wide": head.index(words.written), "rows": rows})
    # one pulka: its id is the page's heading (once), its players, date, rules and money under it
    title = "preflog · " + gettext("Sheet")
    return page("sheet.html", title=title + (f" · {pulkas[0]['id']}" if len(pulkas) == 1 else ""),
                heading=str(pulkas[0]["id"]) if len(pulkas) == 1 else title, single=len(pulkas) == 1,
                pulkas=shown)
