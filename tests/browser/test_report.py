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
    assert "seed003-settlement" in page.locator("table.pulkas").inner_text()
    assert page.title() == "preflog statistics"
    assert not leaked
