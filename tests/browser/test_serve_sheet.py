"""Issue 39, item 1: the sheet of ``preflog serve`` read on a phone without zooming.

At 390×844 the pulka page shows the portrait drawing (``sheet --svg --portrait``) at its own size: every
``<text>`` of it is drawn at 12 CSS px or more (its computed font size times the drawing's scale), nothing
of the page is wider than the phone, no two texts meet and each stays in its zone — for a 3- and a
4-player Russian pulka, a Croatian and a Slovenian one, seated by people with long Cyrillic and Latin
names (tests/browser/names.py ``TABLE``). At 1280×900 the same page shows the paper drawing instead.
Screenshots: tests/browser/screenshots/serve-sheet-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import SHOTS
from .dom import PAGE_JS
from .dom import SVG_TEXT_SIZES_JS
from .names import ALEXANDRA
from .names import MAXIMILIAN
from .names import table_store
from .test_pictures import check_drawings
from .test_serve import _serving

SHOWN_JS = """
() => [...document.querySelectorAll('#sheet svg')].filter(s => s.getBoundingClientRect().width > 0)
  .map(s => { const r = s.getBoundingClientRect();
              return {shape: s.dataset.shape, left: r.left, right: r.right, w: r.width}; })
"""


def test_the_sheet_on_a_phone_and_on_a_desktop(browser: Any, tmp_path: Path) -> None:
    store, ids = table_store(tmp_path)
    SHOTS.mkdir(exist_ok=True)
    with _serving(store) as base:
        for viewport, (w, h) in {"phone": (390, 844), "desktop": (1280, 900)}.items():
            context = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=1,
                                          has_touch=viewport == "phone", is_mobile=viewport == "phone")
            page = context.new_page()
            problems: list[str] = []
            page.on("pageerror", lambda e, seen=problems: seen.append(str(e)))
            try:
                for case, pid in ids.items():
                    page.goto(f"{base}/pulka/{pid}")
                    shown = page.evaluate(SHOWN_JS)
                    assert len(shown) == 1, f"{case}: {len(shown)} drawings shown"
                    texts = page.evaluate(SVG_TEXT_SIZES_JS)
                    names = " ".join(t["text"] for t in texts)
                    page.screenshot(path=str(SHOTS / f"serve-sheet-{case}-{viewport}.png"), full_page=True)
                    if viewport == "phone":
                        assert shown[0]["shape"] in ("portrait", "list-portrait"), case
                        assert shown[0]["left"] >= 0 and shown[0]["right"] <= w, (case, shown[0])
                        small = [(t["text"], round(t["size"], 2)) for t in texts if t["size"] < 12 - 0.01]
                        assert not small, f"{case}: sheet text under 12 px: {small[:6]}"
                        got = page.evaluate(PAGE_JS)
                        assert got["scrollWidth"] <= got["clientWidth"], f"{case}: the page scrolls sideways"
                        # the settlement under the drawing writes each long name whole, at 12 px or more
                        for name in (ALEXANDRA, MAXIMILIAN):
                            assert name in names, (case, name)
                    else:
                        assert shown[0]["shape"] in ("paper", "list"), case
                        assert shown[0]["right"] <= w
                    check_drawings(page, None)
                assert not problems, problems
            finally:
                context.close()
