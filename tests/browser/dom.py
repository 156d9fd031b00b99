"""Checks run inside the page: text boxes from the DOM, overlaps, visibility of numbers."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

_VULGAR = {"\u00bd": (1, 2), "\u2153": (1, 3), "\u2154": (2, 3), "\u00bc": (1, 4), "\u00be": (3, 4),
           "\u2155": (1, 5), "\u2156": (2, 5), "\u2157": (3, 5), "\u2158": (4, 5), "\u2159": (1, 6),
           "\u215a": (5, 6), "\u215b": (1, 8), "\u215c": (3, 8), "\u215d": (5, 8), "\u215e": (7, 8)}
_SUP = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
_SUB = "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089"
# A number as the sheet writes it: 12, 92/3, a mixed number 30⅔ or 30²⁄₇, a lone fraction ⅔ or ¹⁄₇.
NUMBER = re.compile(rf"(-?)(\d*)(?:/(\d+))?([{''.join(_VULGAR)}]|[{_SUP}]+\u2044[{_SUB}]+)?")

# Every <text> of the first SVG: its text and its bounding rectangle on the page (CSS pixels).
TEXT_BOXES_JS = """
() => {
  const svg = document.querySelector('svg');
  const s = svg.getBoundingClientRect();
  const boxes = [];
  for (const t of svg.querySelectorAll('text')) {
    const r = t.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const style = getComputedStyle(t);
    boxes.push({text: t.textContent, x: r.left, y: r.top, w: r.width, h: r.height,
                hidden: style.visibility === 'hidden' || style.display === 'none' || style.opacity === '0',
                role: t.getAttribute('data-role') || ''});
  }
  return {svg: {x: s.left, y: s.top, w: s.width, h: s.height}, boxes: boxes};
}
"""

# Tolerance in CSS pixels: glyph boxes of neighbouring lines touch by a fraction of a pixel.
SLACK = 0.5


def overlaps(boxes: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Index pairs of text boxes whose rectangles intersect by more than :data:`SLACK` on both axes."""
    found = []
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if dx > SLACK and dy > SLACK:
                found.append((i, j))
    return found


def inside(box: dict[str, Any], frame: dict[str, Any]) -> bool:
    return (box["x"] >= frame["x"] - SLACK and box["y"] >= frame["y"] - SLACK
            and box["x"] + box["w"] <= frame["x"] + frame["w"] + SLACK
            and box["y"] + box["h"] <= frame["y"] + frame["h"] + SLACK)


def tokens(text: str) -> list[str]:
    """The numbers of one text (running entries are written ``4.6.10`` or one number to a text), each as
    :func:`canonical` writes it, so ``30⅔`` and ``92/3`` are the same token."""
    out = []
    for m in NUMBER.finditer(text.replace("\u2212", "-")):
        sign, whole, over, part = m.groups()
        if not whole and not part:
            continue
        x = Fraction(int(whole or 0), int(over)) if over else Fraction(int(whole or 0))
        if part in _VULGAR:
            x += Fraction(*_VULGAR[part])
        elif part:
            num, den = part.split("\u2044")
            x += Fraction(int(num.translate(str.maketrans(_SUP, "0123456789"))),
                          int(den.translate(str.maketrans(_SUB, "0123456789"))))
        out.append(canonical(-x if sign else x))
    return out


def canonical(v: object) -> str:
    """A number as ``sheet --json`` writes it: ``12``, ``-92/3``."""
    return str(Fraction(str(v)))


def visible_numbers(layout: dict[str, Any]) -> set[str]:
    """Numbers written by text boxes that are drawn, whole, inside the SVG and overlap nothing."""
    boxes = [b for b in layout["boxes"] if not b["hidden"]]
    clashing = {k for pair in overlaps(boxes) for k in pair}
    seen: set[str] = set()
    for k, b in enumerate(boxes):
        if inside(b, layout["svg"]) and k not in clashing:
            seen.update(tokens(b["text"]))
    return seen


def final_numbers(sheet: dict[str, Any]) -> set[str]:
    """The numbers of a ``sheet --json`` pulka's final totals a reader must find on the drawing: every
    non-zero pulya, gora and visty total (paper leaves an untouched zone empty) and every settlement
    figure (exact, and method 1 and 2 on a Russian sheet: a Croatian one settles exactly)."""
    totals = sheet["totals"]
    want: set[str] = set()
    for p in sheet["players"]:
        for area in ("pulya", "gora"):
            if totals[area][p] != 0:
                want.add(canonical(totals[area][p]))
        for v in totals["visty"][p].values():
            if v != 0:
                want.add(canonical(v))
        for method in ("exact", "method1", "method2") if sheet.get("family") != "croatian" else ("exact",):
            want.add(canonical(sheet["settlement"][method][p]))
    return want


def describe(layout: dict[str, Any], pairs: list[tuple[int, int]], limit: int = 8) -> str:
    boxes = layout["boxes"]
    return "; ".join(f"{boxes[i]['text']!r} × {boxes[j]['text']!r}" for i, j in pairs[:limit])


# Every <text> of every SVG the page shows with the frame it must stay inside: the rectangle whose data-zone
# names the text's data-zone (the sheet marks every text so); and each pool circle's box. An SVG not shown
# (display: none, or in a closed <details>) is left out, so ``svg`` 0 is the first drawing a reader sees.
FRAMED_TEXT_JS = """
() => {
  const out = {svgs: [], boxes: [], circles: []};
  document.querySelectorAll('svg').forEach(svg => {
    const s = svg.getBoundingClientRect();
    if (s.width === 0 && s.height === 0) return;  // not shown (the other layout of the sheet, a closed box)
    const k = out.svgs.length;
    out.svgs.push({x: s.left, y: s.top, w: s.width, h: s.height, shape: svg.getAttribute('data-shape') || ''});
    const frames = {};  // a drawing without zones (a chart): its texts stay inside the drawing
    const zoned = svg.querySelector('[data-zone]') !== null;
    for (const r of svg.querySelectorAll('rect[data-zone], circle[data-zone]')) {
      const b = r.getBoundingClientRect();
      frames[r.getAttribute('data-zone')] = {x: b.left, y: b.top, w: b.width, h: b.height};
      if (r.tagName === 'circle') out.circles.push({svg: k, x: b.left, y: b.top, w: b.width, h: b.height});
    }
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBoundingClientRect();
      if (b.width === 0 && b.height === 0) continue;
      const zone = t.getAttribute('data-zone');
      out.boxes.push({svg: k, text: t.textContent, x: b.left, y: b.top, w: b.width, h: b.height, zone: zone,
                      role: t.getAttribute('data-role') || '',
                      frame: zoned ? (zone ? frames[zone] || null : null)
                                   : {x: s.left, y: s.top, w: s.width, h: s.height}});
    }
  });
  return out;
}
"""

# The page as a reader meets it: sideways scroll, the smallest text outside drawings, the controls' sizes.
PAGE_JS = """
() => {
  const small = [];
  for (const e of (document.body || document.documentElement).querySelectorAll('*')) {
    if (e.closest('svg') || ['SCRIPT', 'STYLE', 'TITLE'].includes(e.tagName)) continue;
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const size = parseFloat(getComputedStyle(e).fontSize);
    small.push({tag: e.tagName, text: e.textContent.trim().slice(0, 40), size: size});
  }
  const controls = [...document.querySelectorAll('button, summary, select, input')]
    .filter(e => e.getBoundingClientRect().width > 0)
    .map(e => { const r = e.getBoundingClientRect();
                return {text: (e.textContent || e.id).trim().slice(0, 30), w: r.width, h: r.height}; });
  return {scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth,
          texts: small, controls: controls,
          viewport: !!document.querySelector('meta[name=viewport]')};
}
"""


def outside_frames(layout: dict[str, Any]) -> list[str]:
    """Texts of :data:`FRAMED_TEXT_JS` that name no frame or cross the one they name."""
    return [f"{b['text']!r} ({b['zone']})" for b in layout["boxes"]
            if b["frame"] is None or not inside(b, b["frame"])]


def under_circle(layout: dict[str, Any]) -> list[str]:
    """Texts other than the centre's own that a pool circle covers."""
    found = []
    for c in layout["circles"]:
        for b in layout["boxes"]:
            if b["svg"] == c["svg"] and b["zone"] != "centre" and overlaps([b, c]):
                found.append(b["text"])
    return found


# The size every text of the shown SVGs is drawn at on the screen, in CSS pixels: its font size times the
# drawing's scale (a sheet scaled to a phone's width writes its 12 px text smaller).
SVG_TEXT_SIZES_JS = """
() => {
  const out = [];
  for (const svg of document.querySelectorAll('svg')) {
    const s = svg.getBoundingClientRect();
    if (s.width === 0 && s.height === 0) continue;
    const scale = svg.getScreenCTM().a;
    for (const t of svg.querySelectorAll('text'))
      out.push({text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize) * scale});
  }
  return out;
}
"""
