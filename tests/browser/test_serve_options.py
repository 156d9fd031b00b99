"""preflog serve on a phone (headless Chromium at 390×844): the start form's "More rules…" options, a pulka
started under a changed option, and every page of it fitting the phone's width with long names, Cyrillic
and Latin, for a Russian and a Croatian pulka."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from preflog.model.events import PulkaStarted
from preflog.workspace import Workspace

from .conftest import SHOTS
from .names import LONGEST
from .names import RUSSIAN_4
from .test_serve import _phone_page
from .test_serve import _serving
from .test_serve import _tap_row

WIDTH = 390

# every element of the page that reaches past the viewport's edges (an SVG's inner parts included)
TOO_WIDE = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && (r.right > w + 0.5 || r.left < -0.5)) {
      out.push(e.tagName + '#' + e.id + '.' + (e.getAttribute('class') || '') + ' ' + Math.round(r.left) + '..' +
               Math.round(r.right));
    }
  }
  return {scroll: document.documentElement.scrollWidth, width: w, wide: out};
}"""

# the longest Cyrillic name the sheet is tested with (40 characters), a long Cyrillic one and the 36-character
# Latin one that made the settlement table 402 px wide
RUSSIAN = (RUSSIAN_4[0], RUSSIAN_4[1], RUSSIAN_4[2])
CROATIAN = LONGEST["croatian-40"][2]


def _fits(page: Any, where: str) -> None:
    got = page.evaluate(TOO_WIDE)
    assert got["width"] == WIDTH and got["scroll"] <= WIDTH and got["wide"] == [], (where, got)


def _targets(page: Any, selector: str) -> None:
    boxes = [b.bounding_box() for b in page.locator(selector).all() if b.is_visible()]
    assert boxes and min(b["height"] for b in boxes) >= 44 and min(b["width"] for b in boxes) >= 44, selector


def _start_form(page: Any, base: str, names: tuple[str, ...], preset: str) -> None:
    page.goto(base + "/new")
    for i, name in enumerate(names):
        page.fill(f"#p{i}", name)
    page.select_option("#rules", preset)
    page.locator("#more > summary").tap()


def _open_section(page: Any, title: str) -> None:
    """Open one section of the options (each opens on its own, so the form stays short on a phone)."""
    page.locator("#options summary", has_text=title).tap()


@pytest.mark.parametrize("case", ["russian", "croatian"])
def test_a_pulka_started_with_a_changed_option_fits_the_phone(browser: Any, tmp_path: Path, case: str) -> None:
    from playwright.sync_api import expect

    store = tmp_path / "store"
    names = RUSSIAN if case == "russian" else CROATIAN
    context, page, problems = _phone_page(browser)
    a, b, c = names
    try:
        with _serving(store) as base:
            if case == "russian":
                _start_form(page, base, names, "sochi")
                # the Russian family's options, in the rules' sections; none of the Croatian family's
                expect(page.locator("#options summary", has_text="Auction (A5)")).to_have_count(1)
                expect(page.locator("#opt-start")).to_have_count(0)
                # the sections start closed: the form with "More rules…" open is a list of titles
                expect(page.locator("#opt-raspasy_exit")).to_be_hidden()
                _fits(page, "the start form, sections closed")
                assert page.evaluate("document.documentElement.scrollHeight") < 2 * 844
                _open_section(page, "Russian scoring (B)")
                expect(page.locator("#opt-allow_concede_down3")).not_to_be_checked()
                assert page.input_value("#opt-raspasy_exit") == "any_game"
                page.locator("#opt-allow_concede_down3").tap()   # the table plays «без трёх»
                expect(page.locator("#spec")).to_have_text("sochi+allow_concede_down3=true")
                expect(page.locator("#changed")).to_have_text("· changed: 1")
                expect(page.locator("#options summary", has_text="Russian scoring (B)")).to_contain_text("· changed: 1")
                expect(page.locator("#options summary", has_text="Auction (A5)")).not_to_contain_text("changed")
                page.fill("#pool", "10")
            else:
                _start_form(page, base, names, "croatian")
                # a Croatian list has no pool: its columns start from the rules' start, an option of its own
                expect(page.locator("#pool")).to_be_hidden()
                expect(page.locator("#opt-allow_concede_down3")).to_have_count(0)
                _open_section(page, "Croatian and Slovenian scoring (C)")
                assert page.input_value("#opt-start") == "30"
                page.fill("#opt-start", "50")
                expect(page.locator("#spec")).to_have_text("croatian+start=50")
            _targets(page, "#new input:not([type=checkbox]), #new select, #new summary, #new button")
            _targets(page, "#options input[type=checkbox]")
            _fits(page, "the start form")
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"serve-options-{case}.png"), full_page=True)
            if case == "russian":
                # a value the rules cannot read is refused with the spec parser's sentence, nothing stored
                page.fill("#opt-game_values", "6:2")   # its section is open (above)
                page.tap("#start")
                expect(page.locator("#msg")).to_contain_text(
                    "rules spec 'sochi+game_values=6:2+allow_concede_down3=true': option 'game_values' takes")
                assert not store.exists() or Workspace(store).ids() == []
                page.fill("#opt-game_values", "[[6,2],[7,4],[8,6],[9,8],[10,10]]")
                expect(page.locator("#spec")).to_have_text("sochi+allow_concede_down3=true")
            page.tap("#start")
            page.wait_for_url("**/pulka/live-*")
            _fits(page, "the new pulka's page")

            if case == "russian":
                # deal 1 (the last seat deals): the first player's 7NT, whisted by the second, conceded down three
                page.get_by_role("button", name="Contract").tap()
                page.locator("#declarer").get_by_role("button", name=a).tap()
                page.locator("#contracts").get_by_role("button", name="7NT", exact=True).tap()
                _tap_row(page, "calls", b, "whist")
                _tap_row(page, "calls", c, "pass")
                page.locator("#concede").get_by_role("button", name="down three", exact=True).tap()
                expect(page.locator("#tricks button")).to_have_count(0)   # no play: no tricks to enter
                page.tap("#enter")
                expect(page.locator("#dealno")).to_have_text("2")
                expect(page.locator("#last")).to_contain_text(f"Whist: {b} whist, {c} pass, {a} concede")
                heads = page.locator("#settle thead th").all_inner_texts()
                assert heads == ["Player", "Exact (visty)", "Method 1", "Method 2", "Money"]
                # a name with a piece too long for the column is shortened as the drawn sheet does
                first = page.locator("#settle tbody tr").first.locator("td").first
                assert first.inner_text() == "Константин К.-З." and first.get_attribute("title") == a
            else:
                # deal 1 (the last seat deals): the first player plays 3 with the talon, both whist, 6 / 2 / 2
                page.get_by_role("button", name="Contract").tap()
                page.locator("#declarer").get_by_role("button", name=a).tap()
                page.locator("#contracts").get_by_role("button", name="3", exact=True).tap()
                _tap_row(page, "calls", b, "igram")
                _tap_row(page, "calls", c, "igram")
                for name, n in ((a, "6"), (b, "2"), (c, "2")):
                    _tap_row(page, "tricks", name, n)
                page.tap("#enter")
                expect(page.locator("#dealno")).to_have_text("2")
                # the family settles exactly, in its points: no paper methods
                heads = page.locator("#settle thead th").all_inner_texts()
                assert heads == ["Player", "Exact (bule)", "Money"]
            page.locator("#history-box summary").tap()
            _fits(page, "the pulka page")
            page.screenshot(path=str(SHOTS / f"serve-options-{case}-pulka.png"), full_page=True)
            page.reload()   # as the server draws it, before the script redraws
            _fits(page, "the pulka page, reloaded")
            assert page.locator("#settle thead th").all_inner_texts() == heads
    finally:
        context.close()
    assert [p for p in problems if "status of 400" not in p] == []
    (pid,) = Workspace(store).ids()
    started = Workspace(store).store().read(pid)[0]
    assert isinstance(started, PulkaStarted)
    want = (("allow_concede_down3", True),) if case == "russian" else (("start", 50),)
    assert started.overrides == want and started.players == names
    (audited,) = Workspace(store).audit(pid)
    assert audited.result.findings == [] and len(audited.result.deals) == 1
