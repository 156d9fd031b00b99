"""The deal viewer (``preflog replay PULKA --html FILE``) in headless Chromium: it loads nothing from the
network, the keyboard steps to the last trick of the last deal and the sheet there shows the pulka's
final totals, and every audit finding links to the event where it happened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.engine.families import family_named
from preflog.render.numbers import mixed
from preflog.views.json import sheet_json
from preflog.views.viewer import viewer_html
from preflog.workspace import Workspace

from .conftest import SHOTS
from .sheets import ROOT

# The first pulka of this file (the one ``replay FILE`` shows) is card-level, 35 deals.
LONG = ROOT / "data/demo/sochi-3p.pref"
ILLEGAL = ROOT / "data/examples/seed001-bidding-illegal.pref"


def write_viewer(tmp_path: Path, record: Path) -> Path:
    out = tmp_path / f"{record.stem}.html"
    res = CliRunner().invoke(app, ["replay", str(record), "--html", str(out), "--store", str(tmp_path / "st")])
    assert res.exit_code == 0, res.output
    return out


def open_offline(page: Any, path: Path) -> list[str]:
    """Open the page from disk; every request other than the page itself is recorded and refused."""
    url = path.resolve().as_uri()
    leaked: list[str] = []

    def route(r: Any) -> None:
        if r.request.url == url:
            r.continue_()
        else:
            leaked.append(r.request.url)
            r.abort()

    page.context.route("**/*", route)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    assert not errors, errors
    return leaked


def position(page: Any) -> dict[str, int]:
    data: dict[str, str] = page.evaluate("() => ({...document.getElementById('pos').dataset})")
    return {k: int(v) for k, v in data.items()}


def assert_sheet_shows_totals(page: Any, sheet: dict[str, Any]) -> None:
    """The viewer's "sheet so far" table holds the final totals of ``sheet --json``."""
    shown = shown_sheet(page)
    has_gora = family_named(sheet["family"]).sheet.gora is not None  # a Croatian sheet has no gora column
    for p in sheet["players"]:
        assert shown[(p, "pulya")] == mixed(sheet["totals"]["pulya"][p])   # written as on paper: 30⅔, −1⅓
        if has_gora:
            assert shown[(p, "gora")] == mixed(sheet["totals"]["gora"][p])
        else:
            assert (p, "gora") not in shown
        for q, v in sheet["totals"]["visty"][p].items():
            assert shown[(p, "on " + q)] == mixed(v)


def shown_sheet(page: Any) -> dict[tuple[str, str], str]:
    cells = page.evaluate("""() => [...document.querySelectorAll('#sheet td[data-area]')]
        .map(td => [td.dataset.player, td.dataset.area, td.textContent])""")
    return {(p, a): v for p, a, v in cells}


def test_keyboard_reaches_the_last_trick_and_the_final_sheet(page: Any, tmp_path: Path) -> None:
    path = write_viewer(tmp_path, LONG)
    assert path.stat().st_size < 1_000_000
    audited = Workspace(tmp_path / "st").audit(str(LONG))[0]
    sheet = sheet_json(audited)
    last = sheet["deals"][-1]
    leaked = open_offline(page, path)
    # the viewer opens at deal 1: its DealStarted is the second event (the store's numbering)
    assert position(page)["seq"] == 2 and position(page)["deal"] == 1
    for _ in range(len(sheet["deals"]) - 1):
        page.keyboard.press("PageDown")
    assert position(page)["deal"] == last["deal"]
    assert position(page)["completed"] == 0
    for _ in range(10):
        page.keyboard.press("ArrowDown")
    at = position(page)
    # every trick of the last deal has been played out: the seats' trick counts are the deal's result
    assert at["completed"] == sum(last["tricks"].values()) == 10
    shown_tricks = page.evaluate("() => [...document.querySelectorAll('.seat .info')].map(e => +e.dataset.tricks)")
    assert shown_tricks == [last["tricks"][p] for p in sheet["players"]]
    assert_sheet_shows_totals(page, sheet)
    # and back one event: the last card is not played yet, the trick in progress shows the others
    page.keyboard.press("ArrowLeft")
    assert position(page)["completed"] == 9
    assert page.evaluate("() => document.querySelectorAll('#trick .card').length") == len(sheet["players"]) - 1
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "viewer-last-trick.png"), full_page=True)
    assert not leaked, f"the page asked the network for {leaked}"


def test_findings_link_to_their_event(page: Any, tmp_path: Path) -> None:
    path = write_viewer(tmp_path, ILLEGAL)
    audited = Workspace(tmp_path / "st").audit(str(ILLEGAL))[0]
    findings = audited.result.findings
    assert findings
    leaked = open_offline(page, path)
    links = page.locator("#findings a.finding")
    assert links.count() == len(findings)
    links.nth(0).click()
    assert position(page)["seq"] == findings[0].seq
    assert page.evaluate("() => document.getElementById('current').classList.contains('bad')")
    assert findings[0].code in page.locator("#current").inner_text()
    assert page.evaluate("() => document.querySelector('#findings a.finding.cur') !== null")
    page.keyboard.press("Home")
    assert position(page)["seq"] == 1  # the first event (the store's numbering)
    assert not page.evaluate("() => document.getElementById('current').classList.contains('bad')")
    assert not leaked


@pytest.mark.needs_no_extra
def test_viewer_of_the_longest_pulkas_stays_small(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "st")
    for record, pulka in (("data/demo/croatian-3p.pref", "demo-croatian-3p-013"),
                          ("data/demo/sochi-4p.pref", "demo-sochi-4p-038")):
        loaded = next(x for x in ws.load(str(ROOT / record)) if x.id == pulka)
        page = viewer_html(loaded)
        assert len(page.encode()) < 1_000_000
        # nothing to fetch: no address but the SVG namespace, no linked file
        assert "://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "<link" not in page and "src=" not in page and "url(" not in page


@pytest.mark.parametrize("record", ["data/demo/croatian-3p.pref", "data/examples/seed003-settlement.pref",
                                    "data/demo/sochi-4p.pref"])
def test_end_key_shows_the_final_sheet(page: Any, tmp_path: Path, record: str) -> None:
    """Croatian (columns from −start), paper-level and 4-player pulkas: End reaches the last event without a
    script error and the sheet there is ``sheet --json``'s totals."""
    path = write_viewer(tmp_path, ROOT / record)
    sheet = sheet_json(Workspace(tmp_path / "st").audit(str(ROOT / record))[0])
    leaked = open_offline(page, path)
    page.keyboard.press("End")
    assert_sheet_shows_totals(page, sheet)
    # the sheet's words are its family's: Croatian "column" and "juha on X", no gora
    words = family_named(sheet["family"]).sheet.words(sheet["rules"])
    heads = page.evaluate("() => [...document.querySelectorAll('#sheet th')].map(t => t.textContent)")
    assert words.pool_table in heads and words.visty_table.format(sheet["players"][0]) in heads
    assert ("gora" in heads) == (words.gora_table is not None)
    page.keyboard.press("PageUp")
    assert page.locator("#dealHead").inner_text().startswith(f"Deal {sheet['deals'][-1]['deal']}")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"viewer-{Path(record).stem}.png"), full_page=True)
    assert not leaked
