"""The paper sheet SVG in headless Chromium: no two text boxes overlap, every final total can be read.

The boxes are the ``<text>`` elements' bounding rectangles as the browser lays them out
(``getBoundingClientRect``), so the check covers the real font metrics, not the renderer's estimate.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from preflog.render.sheet_svg import render_svg

from .conftest import SHOTS
from .dom import TEXT_BOXES_JS
from .dom import describe
from .dom import final_numbers
from .dom import inside
from .dom import overlaps
from .dom import visible_numbers
from .sheets import CASES
from .sheets import sheet_of

ROOT = Path(__file__).resolve().parents[2]
# The drawings docs/cli.md shows, written there with PREFLOG_DOCS_SHOTS=1: case → file in docs/images.
DOCS_SHOTS = {"short": "sheet-short.png", "long-sochi-3p": "sheet-long-sochi-3p.png",
              "four-players": "sheet-four-players.png", "croatian": "sheet-croatian.png"}
# The smallest text a person reads on screen at 100 % without a magnifier (CSS pixels of a box's height).
MIN_TEXT_HEIGHT = 8.0


def show_svg(page: Any, svg: str) -> dict[str, Any]:
    page.set_content(f"<!doctype html><html><head><meta charset='utf-8'></head>"
                     f"<body style='margin:0;background:#fff'>{svg}</body></html>")
    layout: dict[str, Any] = page.evaluate(TEXT_BOXES_JS)
    return layout


@pytest.mark.parametrize("name", list(CASES))
def test_sheet_text_never_overlaps_and_totals_are_visible(page: Any, tmp_path: Path, name: str) -> None:
    sheet = sheet_of(name, tmp_path)
    layout = show_svg(page, render_svg(sheet))
    SHOTS.mkdir(exist_ok=True)
    page.locator("svg").screenshot(path=str(SHOTS / f"sheet-{name}.png"))
    if name in DOCS_SHOTS and os.environ.get("PREFLOG_DOCS_SHOTS"):
        page.locator("svg").screenshot(path=str(ROOT / "docs" / "images" / DOCS_SHOTS[name]))
    boxes = [b for b in layout["boxes"] if not b["hidden"]]
    assert boxes, "the sheet draws no text"
    pairs = overlaps(boxes)
    assert not pairs, f"{len(pairs)} overlapping text boxes: {describe({'boxes': boxes}, pairs)}"
    outside = [b["text"] for b in boxes if not inside(b, layout["svg"])]
    assert not outside, f"text drawn off the sheet: {outside[:8]}"
    small = [b["text"] for b in boxes if b["h"] < MIN_TEXT_HEIGHT]
    assert not small, f"text too small to read: {small[:8]}"
    missing = final_numbers(sheet) - visible_numbers(layout)
    assert not missing, f"final totals not visible on the sheet: {sorted(missing)}"
    assert not [u for u in page.requests if not u.startswith(("about:", "data:"))]
