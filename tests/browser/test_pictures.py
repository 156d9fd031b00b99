"""Issue 27: the pictures survive real names, on a phone and on a desktop.

For a 3- and a 4-player Russian pulka, a Croatian and a Slovenian one, each seated by people with long
names (Cyrillic and Latin, up to 40 characters; tests/browser/names.py), at 390×844 (a phone) and
1280×900 (a desktop), every page — the drawn sheet (``sheet --svg``), the HTML sheet, the deal viewer and
the report — shows: no two text boxes of a drawing overlap, every text of the sheet stays inside its zone
(its ``data-zone`` frame) and none lies under the pool circle, no sideways scroll at 1280 px (nor on a
phone, but for a bare SVG file), body text of at least 12 CSS px and controls of at least 44 px at phone
width, no console error, no network request. On a phone the sheet is the portrait one (``sheet --svg
--portrait``, and the HTML sheet under 900 px): drawn 1:1, no text of it under 12 CSS px, nothing cut.

``PREFLOG_DOCS_SHOTS=1`` also writes the screenshots shown in the README and docs/ into docs/images/.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.render.sheet_svg import render_html
from preflog.render.sheet_svg import render_svg
from preflog.render.words import Lang
from preflog.views.json import sheet_json
from preflog.views.viewer import viewer_html

from .conftest import SHOTS
from .dom import FRAMED_TEXT_JS
from .dom import PAGE_JS
from .dom import SVG_TEXT_SIZES_JS
from .dom import final_numbers
from .dom import outside_frames
from .dom import overlaps
from .dom import tokens
from .dom import under_circle
from .names import LONG
from .names import LONGEST
from .names import long_audited
from .names import long_record
from .names import long_report

ROOT = Path(__file__).resolve().parents[2]
DOCS_IMAGES = ROOT / "docs" / "images"
VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 900)}
# The screenshots the README and docs/ show: (page kind, case, viewport) → file name.
DOCS_SHOTS = {("html-sheet", "russian-3p", "desktop"): "sheet-desktop.png",
              ("html-sheet", "croatian", "phone"): "sheet-phone-croatian.png",
              ("portrait-ru", "russian-4p", "phone"): "sheet-portrait.png",
              ("viewer", "russian-4p", "desktop"): "viewer-desktop.png",
              ("viewer", "russian-3p", "phone"): "viewer-phone.png",
              # tests/browser/test_viewer_features.py: the analysis page at the card that lost a trick
              ("analysis", "long", "desktop"): "analysis-viewer.png",
              ("analysis", "long", "phone"): "analysis-phone.png"}


class Opened:
    """A page opened from disk in a context of the given viewport, recording its errors and requests."""

    def __init__(self, browser: Any, path: Path, viewport: str) -> None:
        w, h = VIEWPORTS[viewport]
        self.context = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=1)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.leaked: list[str] = []
        url = path.resolve().as_uri()

        def route(r: Any) -> None:
            if r.request.url == url:
                r.continue_()
            else:
                self.leaked.append(r.request.url)
                r.abort()

        self.context.route("**/*", route)
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.page.wait_for_load_state("load")

    def close(self) -> None:
        self.context.close()


def shot(page: Any, kind: str, case: str, viewport: str, bare_svg: bool = False) -> None:
    """A screenshot of the page (a bare SVG file: of the whole drawing, which a page screenshot of an SVG
    document cannot take at full length)."""
    SHOTS.mkdir(exist_ok=True)
    paths = [SHOTS / f"{kind}-{case}-{viewport}.png"]
    name = DOCS_SHOTS.get((kind, case, viewport))
    if name and os.environ.get("PREFLOG_DOCS_SHOTS"):
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        paths.append(DOCS_IMAGES / name)
    for path in paths:
        if bare_svg:
            page.locator("svg").first.screenshot(path=str(path), timeout=60000)
        else:
            page.screenshot(path=str(path), full_page=True, timeout=60000)


def check_drawings(page: Any, sheet: dict[str, Any] | None) -> dict[str, Any]:
    """No overlapping texts in any drawing; the sheet's texts inside their zones and clear of the circle;
    with ``sheet``, every final total readable on the first drawing."""
    layout: dict[str, Any] = page.evaluate(FRAMED_TEXT_JS)
    assert layout["svgs"], "the page draws nothing"
    for k in range(len(layout["svgs"])):
        boxes = [b for b in layout["boxes"] if b["svg"] == k]
        pairs = overlaps(boxes)
        assert not pairs, "overlapping texts: " + "; ".join(
            f"{boxes[i]['text']!r} × {boxes[j]['text']!r}" for i, j in pairs[:6])
    outside = outside_frames(layout)
    assert not outside, f"texts outside their frame: {outside[:8]}"
    covered = under_circle(layout)
    assert not covered, f"the pool circle covers {covered[:8]}"
    if sheet is not None:
        seen = {t for b in layout["boxes"] if b["svg"] == 0 for t in tokens(b["text"])}
        missing = final_numbers(sheet) - seen
        assert not missing, f"final totals not on the sheet: {sorted(missing)}"
    return layout


def check_page(page: Any, viewport: str, bare_svg: bool = False) -> None:
    """No sideways scroll (at 1280 px; on a phone too, but for a bare SVG file); on a phone a viewport,
    text of at least 12 px and controls of at least 44 px."""
    got = page.evaluate(PAGE_JS)
    if not bare_svg or viewport == "desktop":
        assert got["scrollWidth"] <= got["clientWidth"], \
            f"the page scrolls sideways: {got['scrollWidth']} > {got['clientWidth']} px"
    if viewport == "phone" and not bare_svg:
        assert got["viewport"], "no viewport meta: a phone renders the page at desktop width"
        small = [t for t in got["texts"] if t["size"] < 12]
        assert not small, f"text under 12 px on a phone: {small[:6]}"
        tiny = [c for c in got["controls"] if c["h"] < 44 or c["w"] < 44]
        assert not tiny, f"controls under 44 px on a phone: {tiny[:6]}"


CASES = list(LONG)
SHEET_CASES = CASES + list(LONGEST)  # the sheet's tests add the 39- and 40-character names of every seat


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("case", SHEET_CASES)
def test_the_sheet_svg(browser: Any, tmp_path: Path, case: str, viewport: str) -> None:
    """``sheet --svg``: the bare drawing opened as a file."""
    sheet = sheet_json(long_audited(case, tmp_path))
    path = tmp_path / f"{case}.svg"
    path.write_text(render_svg(sheet), encoding="utf-8")
    opened = Opened(browser, path, viewport)
    try:
        check_drawings(opened.page, sheet)
        check_page(opened.page, viewport, bare_svg=True)
        shot(opened.page, "svg", case, viewport, bare_svg=True)
        assert not opened.errors and not opened.leaked
    finally:
        opened.close()


def check_svg_text(page: Any, least: float = 12) -> None:
    """Every text of the drawings shown is drawn at ``least`` CSS px or more (the drawing's scale counted)."""
    sizes = page.evaluate(SVG_TEXT_SIZES_JS)
    assert sizes, "no drawing shown"
    small = [(t["text"], round(t["size"], 1)) for t in sizes if t["size"] < least - 0.01]
    assert not small, f"sheet text under {least} px: {small[:6]}"


@pytest.mark.parametrize("lang", list(Lang))
@pytest.mark.parametrize("case", SHEET_CASES)
def test_the_portrait_sheet(browser: Any, tmp_path: Path, case: str, lang: Lang) -> None:
    """``sheet --svg --portrait`` on a phone (390×844): drawn at its own size, nothing cut or sideways, no
    text under 12 px, no overlap, every text in its zone, every final total readable — in English and in
    Russian (a Croatian or Slovenian sheet keeps its own words in either)."""
    sheet = sheet_json(long_audited(case, tmp_path))
    path = tmp_path / f"{case}-{lang}.svg"
    res = CliRunner().invoke(app, ["sheet", str(long_record(case, tmp_path)), "--svg", str(path), "--portrait",
                                   "--lang", lang.value, "--store", str(tmp_path / "st")])
    assert res.exit_code == 0, res.output
    opened = Opened(browser, path, "phone")
    try:
        layout = check_drawings(opened.page, sheet)
        assert layout["svgs"][0]["w"] <= 390
        got = opened.page.evaluate(PAGE_JS)
        assert got["scrollWidth"] <= got["clientWidth"], "the portrait sheet scrolls sideways"
        check_svg_text(opened.page)
        shot(opened.page, f"portrait-{lang}", case, "phone", bare_svg=True)
        assert not opened.errors and not opened.leaked
    finally:
        opened.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("case", SHEET_CASES)
def test_the_html_sheet(browser: Any, tmp_path: Path, case: str, viewport: str) -> None:
    """``sheet --html --lang ru``: the paper sheet scaled to the screen on a desktop, the portrait one on a
    phone (text of 12 px or more), where *Как на бумаге* shows the paper sheet at its own size, and the
    totals table."""
    sheet = sheet_json(long_audited(case, tmp_path))
    path = tmp_path / f"{case}.html"
    path.write_text(render_html([sheet], Lang.RU), encoding="utf-8")
    opened = Opened(browser, path, viewport)
    try:
        layout = check_drawings(opened.page, sheet)
        check_page(opened.page, viewport)
        shot(opened.page, "html-sheet", case, viewport)
        if viewport == "phone":
            assert layout["svgs"][0]["shape"] in ("portrait", "list-portrait")
            check_svg_text(opened.page)
            svg = opened.page.locator(".portrait svg")
            fitted = svg.bounding_box()["width"]
            opened.page.locator(".zoom a").first.click()  # the paper sheet at its own size, in its box
            paper = opened.page.locator(".paper svg")
            assert paper.bounding_box()["width"] >= float(paper.get_attribute("width")) - 1 > 390
            layout = check_drawings(opened.page, sheet)
            assert layout["svgs"][0]["shape"] in ("paper", "list")
            check_page(opened.page, viewport)
            opened.page.locator(".zoom a").nth(1).click()
            assert abs(svg.bounding_box()["width"] - fitted) < 1
        else:
            assert layout["svgs"][0]["shape"] in ("paper", "list") and len(layout["svgs"]) == 1
        assert not opened.errors and not opened.leaked
    finally:
        opened.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("case", CASES)
def test_the_viewer(browser: Any, tmp_path: Path, case: str, viewport: str) -> None:
    """The deal viewer, at a trick in the middle of the pulka and at its end (the sheet opened)."""
    audited = long_audited(case, tmp_path)
    path = tmp_path / f"{case}-viewer.html"
    path.write_text(viewer_html(audited.loaded), encoding="utf-8")
    opened = Opened(browser, path, viewport)
    try:
        page = opened.page
        tops = set()
        for key in ["]"] * 3 + ["ArrowRight"] * 14:  # stepping keeps the page where it is
            page.keyboard.press(key)
            tops.add(page.evaluate("() => [window.scrollY, document.querySelector('main').offsetTop]").__repr__())
        assert len(tops) == 1, f"the page moves while stepping: {sorted(tops)}"
        cur = page.evaluate("""() => { const l = document.getElementById('log'), c = l.querySelector('.cur');
            return c.offsetTop >= l.scrollTop && c.offsetTop + c.offsetHeight <= l.scrollTop + l.clientHeight; }""")
        assert cur, "the current event is not in view in the event list"
        check_page(page, viewport)
        shot(page, "viewer", case, viewport)
        page.keyboard.press("End")
        page.locator("#svg summary").click()
        check_drawings(page, sheet_json(audited))
        check_page(page, viewport)
        assert not opened.errors and not opened.leaked
    finally:
        opened.close()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return long_report(tmp_path_factory.mktemp("report"))


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_report(browser: Any, report: Path, viewport: str) -> None:
    opened = Opened(browser, report, viewport)
    try:
        check_drawings(opened.page, None)
        check_page(opened.page, viewport)
        shot(opened.page, "report", "all", viewport)
        assert not opened.errors and not opened.leaked
    finally:
        opened.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_analysis_page(browser: Any, tmp_path: Path, viewport: str) -> None:
    """``analyze --html``: the viewer with the card that lost a trick marked (tests/analysis's Sochi 6♠
    that goes down one), at the marked card."""
    from ..analysis.records import DOWN_ONE

    record = tmp_path / "down-one.pref"
    record.write_text(DOWN_ONE, encoding="utf-8")
    out = tmp_path / "down-one.html"
    res = CliRunner().invoke(app, ["analyze", str(record), "--html", str(out), "--store", str(tmp_path / "st")])
    assert res.exit_code == 0, res.output
    opened = Opened(browser, out, viewport)
    try:
        page = opened.page
        page.locator("#log div.mistake").nth(0).click()
        assert page.locator("#trick .card.mistake").count() == 1
        check_page(page, viewport)
        shot(page, "analysis", "down-one", viewport)
        page.locator("#svg summary").click()
        check_drawings(page, None)
        assert not opened.errors and not opened.leaked
    finally:
        opened.close()
