"""``preflog report --html`` in headless Chromium: no request leaves the page, the contents link to its
sections, no two texts of a chart overlap, and Croatian points and Russian visty get a chart each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from preflog.cli.app import app

from .conftest import SHOTS
from .dom import overlaps
from .sheets import ROOT
from .test_viewer import open_offline

CHART_BOXES_JS = """
() => [...document.querySelectorAll('svg.chart')].map(svg => ({
  title: svg.getAttribute('aria-label'),
  boxes: [...svg.querySelectorAll('text')].map(t => { const r = t.getBoundingClientRect();
    return {text: t.textContent, x: r.left, y: r.top, w: r.width, h: r.height}; })}))
"""


def test_report_page_in_the_browser(page: Any, tmp_path: Path) -> None:
    store = tmp_path / "st"
    runner = CliRunner()
    for record in ("data/examples/seed003-settlement.pref", "data/demo/croatian-3p.pref"):
        res = runner.invoke(app, ["import", str(ROOT / record), "--store", str(store)])
        assert res.exit_code == 0, res.output
    out = tmp_path / "report.html"
    res = runner.invoke(app, ["report", "--html", str(out), "--pages", str(tmp_path / "pulkas"), "--store", str(store)])
    assert res.exit_code == 0, res.output
    leaked = open_offline(page, out)
    header = page.locator("header").inner_text()
    assert str(store) in header and "41 pulkas" in header
    anchors = page.evaluate("() => [...document.querySelectorAll('header nav a')].map(a => a.hash.slice(1))")
    assert anchors and all(page.evaluate(f"() => document.getElementById({a!r}) !== null") for a in anchors)
    charts = page.evaluate(CHART_BOXES_JS)
    titles = [c["title"] for c in charts]
    assert "Total result, Russian (visty)" in titles and "Total result, Croatian (points)" in titles
    for chart in charts:
        pairs = overlaps(chart["boxes"])
        assert not pairs, f"{chart['title']}: overlapping texts " + ", ".join(
            f"{chart['boxes'][i]['text']!r} × {chart['boxes'][j]['text']!r}" for i, j in pairs[:5])
    assert "True" not in page.locator("table").all_inner_texts()[0].split()
    players_table = page.locator("table").nth(1).inner_text()
    header = players_table.splitlines()[0].split("\t")  # visty and points apart, as stats players has them
    assert header[-5:] == ["avg visty", "total visty", "avg points", "total points", "total money"]
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "report.png"), full_page=True)
    # a deal viewer per pulka, linked from the pulka table of the last section
    links = page.locator("table.pulkas td.id a")
    assert links.count() == 41
    href = links.nth(0).get_attribute("href")
    assert href is not None and (out.parent / href).is_file()
    assert "seed003-settlement" in (page.locator("table.pulkas").text_content() or "")   # (past the first 20)
    assert page.title() == "preflog statistics"
    assert not leaked


PHONE_SCREENS = 10
"""The report on a phone (390 × 844) is at most this many screens tall. Its charts and its three tables
take about 6,600 px at 390 px wide (measured over the five demo files, 280 pulkas): a fixed part. The list
of pulkas is what grew with the store (280 rows were 19,400 px of a 24,500 px page; a club's archive made
it 34,000): it shows its first 20 rows and a button for the rest, so the page stays under ten screens
however many pulkas the store holds."""


def test_report_on_a_phone_neither_scrolls_sideways_nor_runs_on_for_ever(browser: Any, tmp_path: Path) -> None:
    """Issue 39 item 7: the five demo files (280 pulkas) and a pulka of long names (a one-word one among
    them) on a 390 × 844 phone: no sideways scroll of the page (wide tables scroll in their own box),
    at most :data:`PHONE_SCREENS` screens tall, the pulka list paged at 20 until its button shows all."""
    from .names import ALEXANDRA
    from .names import MAXIMILIAN

    store = tmp_path / "st"
    runner = CliRunner()
    text = (ROOT / "data/demo/sochi-3p.pref").read_text(encoding="utf-8").split("\n[Players ")[0]
    text = text.replace('[Players "Egor, Gleb, Boris"]', f'[Players "{ALEXANDRA}, {MAXIMILIAN}, Константинопольский"]')
    text = text.replace('[Id "demo-sochi-3p-001"]', '[Id "long-names-001"]')
    assert "long-names-001" in text and "Константинопольский" in text
    (tmp_path / "long.pref").write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    records = [ROOT / "data/demo" / f for f in ("sochi-3p.pref", "sochi-4p.pref", "croatian-3p.pref",
                                                "rostov-3p.pref", "leningrad-3p.pref")]
    for record in [*records, tmp_path / "long.pref"]:
        res = runner.invoke(app, ["import", str(record), "--store", str(store)])
        assert res.exit_code == 0, res.output
    out = tmp_path / "report.html"
    res = runner.invoke(app, ["report", "--html", str(out), "--store", str(store)])
    assert res.exit_code == 0, res.output
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True,
                                  is_mobile=True)
    try:
        page = context.new_page()
        leaked = open_offline(page, out)
        size = "() => [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight]"
        width, height = page.evaluate(size)
        assert width <= 390, f"the page scrolls sideways: {width} px"
        assert height <= PHONE_SCREENS * 844, f"{height} px tall"
        rows = page.locator("table.pulkas tbody tr")
        assert rows.count() == 281
        assert page.evaluate("() => [...document.querySelectorAll('table.pulkas tbody tr')]"
                             ".filter(r => r.offsetParent !== null).length") == 20
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "report-phone.png"), full_page=True)
        page.get_by_role("button", name="Show all 281 pulkas").tap()
        assert page.evaluate("() => [...document.querySelectorAll('table.pulkas tbody tr')]"
                             ".filter(r => r.offsetParent !== null).length") == 281
        assert page.evaluate(size)[0] <= 390
        page.get_by_role("button", name="Show the first 20").tap()
        # sorted by deals, the first 20 of the new order show
        page.locator("table.pulkas th").filter(has_text="deals").get_by_role("button").tap()
        visible = page.evaluate("() => [...document.querySelectorAll('table.pulkas tbody tr')]"
                                ".filter(r => r.offsetParent !== null).map(r => +r.cells[4].dataset.sort)")
        every = page.evaluate("() => [...document.querySelectorAll('table.pulkas tbody tr')]"
                              ".map(r => +r.cells[4].dataset.sort)")
        assert len(visible) == 20 and visible == sorted(every)[:20]
        assert not leaked
    finally:
        context.close()
