"""A record whose id, comments, ``End:`` text and player names try to run script, in every page preflog
writes, opened in headless Chromium (issue 31, D1 and D8): the text is shown as written, no dialog is
raised, nothing is asked of the network, the console stays free of errors, and the page carries its
Content-Security-Policy. The records are tests/pages/hostile.py's.

Before the pages were rendered through autoescaped templates, ``replay FILE --html`` of the card record
raised ``alert(1)`` twice (the id's ``<img onerror>`` in the title and the sheet), and its
``End: <!--<script>`` left the viewer blank.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.views.viewer import _short_names

from ..pages.hostile import COMMENTS
from ..pages.hostile import END
from ..pages.hostile import ID
from ..pages.hostile import NAMES
from ..pages.hostile import card_record
from ..pages.hostile import paper_record
from .conftest import SHOTS

# Every element and attribute of the page: no <img>, no on* handler may come from record text.
MADE_JS = """() => {
  const all = [...document.querySelectorAll('*')];
  return {imgs: document.querySelectorAll('img, iframe, object, embed').length,
          handlers: all.flatMap(e => [...e.attributes].filter(a => a.name.startsWith('on'))
                                                    .map(a => e.tagName + ' ' + a.name)),
          csp: [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')]
               .map(m => m.getAttribute('content'))};
}"""


@dataclass
class Watch:
    """What a page did while it was open: dialogs, console errors, script errors, requests."""

    dialogs: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)

    def assert_quiet(self) -> None:
        assert self.dialogs == [], f"the page raised dialogs: {self.dialogs}"
        assert self.errors == [], f"script errors: {self.errors}"
        assert self.console == [], f"console errors: {self.console}"
        assert self.leaked == [], f"the page asked the network for {self.leaked}"


def open_watched(page: Any, path: Path) -> Watch:
    """Open a page from disk, recording what it does; every request but the page's own is refused."""
    w = Watch()
    url = path.resolve().as_uri()

    def route(r: Any) -> None:
        if r.request.url == url:
            r.continue_()
        else:
            w.leaked.append(r.request.url)
            r.abort()

    def dialog(d: Any) -> None:
        w.dialogs.append(d.message)
        d.dismiss()

    page.context.route("**/*", route)
    page.on("dialog", dialog)
    page.on("console", lambda m: w.console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: w.errors.append(str(e)))
    page.goto(url)
    page.wait_for_load_state("load")
    return w


def assert_built_by_the_page(page: Any, scripts: bool) -> None:
    made = page.evaluate(MADE_JS)
    assert made["imgs"] == 0 and made["handlers"] == []
    (csp,) = made["csp"]
    directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
    assert directives["default-src"] == ["'none'"]
    if scripts:  # the viewer's own script, by its hash; never 'unsafe-inline'
        assert [s[:8] for s in directives["script-src"]] == ["'sha256-"]
    else:
        assert "script-src" not in directives  # default-src 'none': no script at all


def run(args: list[str]) -> None:
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output


def record(tmp_path: Path, which: str, pulka_id: str = ID) -> Path:
    path = tmp_path / f"{which}.pref"
    path.write_text(card_record() if which == "card" else paper_record(pulka_id), encoding="utf-8")
    return path


def assert_viewer_shows_the_text(page: Any, events: int) -> None:
    """The viewer at its first event: title, heading, comments, names; then at its last: the End text."""
    assert page.title() == f"preflog · {ID}"
    page.keyboard.press("Home")  # the viewer opens at deal 1: back to the first event, the pulka's own
    assert page.locator("header h1").inner_text() == f"preflog · {ID}"
    # all events in the log (a viewer left blank by the page's parse had none)
    assert page.locator("#log div").count() == events
    current = page.locator("#current")
    notes = current.locator(".note").all_inner_texts()
    assert notes[: len(COMMENTS)] == [f"; {c}" for c in COMMENTS]
    assert current.inner_text().startswith("Pulka: " + ", ".join(NAMES) + " · ")
    page.keyboard.press("ArrowRight")  # the first deal: the seats by name
    assert page.locator(".seat .name").all_inner_texts() == list(NAMES)
    heads = page.locator("#sheet th").all_inner_texts()  # "", pulya, gora, "on" each player; a row each
    # the narrow table says each name as the sheet shortens it (a long one-word name cut after its eighth
    # letter: "</script."), in its columns and its rows
    short = _short_names(NAMES)
    assert short != list(NAMES) and all(s.rstrip(".") in n for s, n in zip(short, NAMES, strict=True))
    assert heads[3:] == [f"on {n}" for n in short] + short
    page.keyboard.press("End")
    assert page.locator("#current").inner_text().startswith(f"Pulka ended ({END})")
    svg_texts = page.locator("#svg svg text").all_text_contents()
    assert any(ID in t for t in svg_texts) and set(NAMES) <= set(svg_texts)


@pytest.mark.parametrize("which", ["card", "paper"])
def test_the_viewer_shows_record_text_as_text(page: Any, tmp_path: Path, which: str) -> None:
    """``preflog replay FILE --html``: card level (names in the tags only) and paper level (names in
    every line)."""
    out = tmp_path / "viewer.html"
    run(["replay", str(record(tmp_path, which)), "--html", str(out), "--store", str(tmp_path / "st")])
    w = open_watched(page, out)
    assert_built_by_the_page(page, scripts=True)
    events = page.evaluate("() => JSON.parse(document.getElementById('data').textContent).steps.length")
    assert events > 10
    assert_viewer_shows_the_text(page, events)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"viewer-hostile-{which}.png"), full_page=True)
    w.assert_quiet()


def test_the_analysis_page_shows_record_text_as_text(page: Any, tmp_path: Path) -> None:
    """``preflog analyze FILE --html``: the mark on the card that lost a trick names its player as written."""
    out = tmp_path / "analysis.html"
    run(["analyze", str(record(tmp_path, "card")), "--html", str(out), "--store", str(tmp_path / "st")])
    w = open_watched(page, out)
    assert_built_by_the_page(page, scripts=True)
    marked = page.locator("#log div.mistake")
    assert marked.count() == 1
    assert (marked.nth(0).get_attribute("title") or "").startswith(f"{NAMES[0]}'s A♣ at trick 1 lost 1 trick")
    events = page.locator("#log div").count()
    assert_viewer_shows_the_text(page, events)
    w.assert_quiet()


def test_the_sheet_page_shows_record_text_as_text(page: Any, tmp_path: Path) -> None:
    """``preflog sheet FILE --html``."""
    out = tmp_path / "sheet.html"
    run(["sheet", str(record(tmp_path, "paper")), "--html", str(out), "--store", str(tmp_path / "st")])
    w = open_watched(page, out)
    assert_built_by_the_page(page, scripts=False)
    assert page.locator("h1").inner_text() == ID   # one pulka: its id is the page's heading, once
    assert page.locator("table tr td:first-child").all_inner_texts() == list(NAMES)
    svg_texts = page.locator("svg text").all_text_contents()
    assert set(NAMES) <= set(svg_texts) and any(ID in t for t in svg_texts)
    w.assert_quiet()


def test_the_report_and_its_pages_show_record_text_as_text(page: Any, tmp_path: Path) -> None:
    """``preflog report --html --pages``: the report names both pulkas and their players as written, and
    each link opens its own viewer page, as quiet as the report."""
    store = tmp_path / "st"
    run(["import", str(record(tmp_path, "card")), "--store", str(store)])
    run(["import", str(record(tmp_path, "paper", ID + "2")), "--store", str(store)])
    out = tmp_path / "report.html"
    run(["report", "--html", str(out), "--pages", str(tmp_path / "pulkas"), "--store", str(store)])
    w = open_watched(page, out)
    assert_built_by_the_page(page, scripts=True)  # the pulka table's sorting script, by its hash
    links = page.locator("table.pulkas td.id a")
    assert sorted(links.all_inner_texts()) == sorted([ID, ID + "2"])
    assert page.locator("table.pulkas td.names").first.inner_text().startswith(", ".join(NAMES))
    players = page.locator("#players ~ div.tw table").first.locator("td:first-child").all_inner_texts()
    assert sorted(players) == sorted(NAMES)
    chart_texts = page.locator("svg.chart text").all_text_contents()
    assert set(NAMES) <= set(chart_texts)
    w.assert_quiet()
    shown = {links.nth(k).inner_text(): links.nth(k).get_attribute("href") for k in range(links.count())}
    assert len(set(shown.values())) == 2
    for pulka_id, href in shown.items():
        assert href is not None
        viewer = open_watched(page, out.parent / href)
        assert_built_by_the_page(page, scripts=True)
        assert page.title() == f"preflog · {pulka_id}"
        assert page.locator("#log div").count() > 10
        viewer.assert_quiet()
