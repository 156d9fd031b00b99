"""Checks run inside the page: text boxes from the DOM, overlaps, visibility of numbers."""

from __future__ import annotations

import re
from typing import Any

NUMBER = re.compile(r"-?\d+(?:/\d+)?")

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
    """The numbers of one text: running entries are written ``4.6.10`` or one number to a text."""
    return NUMBER.findall(text.replace("\u2212", "-"))


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
                want.add(str(totals[area][p]))
        for v in totals["visty"][p].values():
            if v != 0:
                want.add(str(v))
        for method in ("exact", "method1", "method2") if sheet.get("family") != "croatian" else ("exact",):
            want.add(str(sheet["settlement"][method][p]))
    return want


def describe(layout: dict[str, Any], pairs: list[tuple[int, int]], limit: int = 8) -> str:
    boxes = layout["boxes"]
    return "; ".join(f"{boxes[i]['text']!r} × {boxes[j]['text']!r}" for i, j in pairs[:limit])
