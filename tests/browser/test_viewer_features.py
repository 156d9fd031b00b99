"""Issue 27: the viewer players expect, an analysis page worth opening, a report with a pulka table.

Each page is opened from disk in headless Chromium at 390×844 and 1280×900 (tests/browser/test_pictures.py's
:class:`Opened`: every request other than the page is refused and recorded, console errors are kept), for
a 3- and a 4-player Russian pulka, a Croatian and a Slovenian one seated by long Cyrillic and Latin names
(tests/browser/names.py). What a player expects of a board viewer (BBO's hand viewer, the lichess board)
is exercised, not only looked for: the keys, the address that follows the position, the deal list, the
help, a swipe made of touch events, the paper sheet whose entries lead to their deal; the analysis page's
figures come from ``preflog analyze --json`` of the same record.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.record.api import write_text
from preflog.render.numbers import mixed
from preflog.views.json import sheet_json
from preflog.views.viewer import viewer_html
from preflog.workspace import Workspace

from ..analysis.records import DOWN_ONE_DEAL
from ..analysis.records import MISER_DEAL
from ..randomplay import random_pulka
from .dom import overlaps
from .names import LONG
from .names import RUSSIAN_3
from .names import long_audited
from .names import long_report
from .test_pictures import VIEWPORTS
from .test_pictures import Opened
from .test_pictures import check_page
from .test_pictures import shot

CASES = list(LONG)

# The text of every text node of the viewer's table, header, paper sheet and analysis panel, as the
# rectangles of its lines on the page: two texts must never cover each other.
TEXT_RECTS_JS = """
(sel) => {
  const out = [];
  for (const root of document.querySelectorAll(sel)) {
    const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let n;
    while ((n = w.nextNode())) {
      if (!n.textContent.trim() || !n.parentElement || n.parentElement.closest('[hidden]')) continue;
      const r = document.createRange(); r.selectNodeContents(n);
      for (const b of r.getClientRects()) if (b.width > 0 && b.height > 0)
        out.push({text: n.textContent.trim().slice(0, 30), x: b.left, y: b.top, w: b.width, h: b.height});
    }
  }
  return out;
}
"""


# The contrast ratio (WCAG 2) of every text outside drawings against the background it is drawn on: the
# element's colour (times the opacity of it and its ancestors) over its ancestors' backgrounds composited
# down to the white page.
CONTRAST_JS = r"""
() => {
  const parse = c => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return [0, 0, 0, 0];
    const v = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const over = (top, under) => { const a = top[3] + under[3] * (1 - top[3]);
    return a === 0 ? [0, 0, 0, 0]
      : [0, 1, 2].map(k => (top[k] * top[3] + under[k] * under[3] * (1 - top[3])) / a).concat([a]); };
  const lum = c => { const f = x => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const bgOf = e => { const layers = [];
    for (let x = e; x; x = x.parentElement) layers.push(parse(getComputedStyle(x).backgroundColor));
    let bg = [255, 255, 255, 1]; for (let k = layers.length - 1; k >= 0; k--) bg = over(layers[k], bg); return bg; };
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('svg') || e.closest('[hidden]') || ['SCRIPT', 'STYLE'].includes(e.tagName)) continue;
    if (e.closest('.gone')) continue;   // a played card: greyed on purpose, no longer in play
    if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = e.getBoundingClientRect(); if (r.width === 0 || r.height === 0) continue;
    let op = 1; for (let x = e; x; x = x.parentElement) op *= +getComputedStyle(x).opacity;
    const bg = bgOf(e), fg = parse(getComputedStyle(e).color); fg[3] *= op;
    const c = over(fg, bg); const l1 = lum(c), l2 = lum(bg);
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    out.push({text: e.textContent.trim().slice(0, 30), ratio: Math.round(ratio * 100) / 100, cls: e.className});
  }
  return out;
}
"""


def low_contrast(page: Any, least: float = 4.5) -> list[dict[str, Any]]:
    return [x for x in page.evaluate(CONTRAST_JS) if x["ratio"] < least]


def assert_labelled_drawings(page: Any) -> None:
    """Every drawing says what it is to a screen reader (``aria-label`` or a ``<title>``) and the page its
    language."""
    unlabelled = page.evaluate("() => [...document.querySelectorAll('svg')].filter(s => !s.getAttribute('aria-label')"
                               " && !s.querySelector(':scope > title')).length")
    assert unlabelled == 0
    assert page.evaluate("() => document.documentElement.lang") == "en"


def pos(page: Any) -> dict[str, int]:
    data: dict[str, str] = page.evaluate("() => ({...document.getElementById('pos').dataset})")
    return {k: int(v) for k, v in data.items()}


def no_text_overlaps(page: Any, sel: str = "header, #table, #paper, #analysis") -> None:
    boxes = page.evaluate(TEXT_RECTS_JS, sel)
    assert boxes
    pairs = overlaps(boxes)
    assert not pairs, "overlapping texts: " + "; ".join(f"{boxes[i]['text']!r} × {boxes[j]['text']!r}"
                                                      for i, j in pairs[:6])


def swipe(page: Any, dx: float) -> None:
    """A one-finger swipe across the table, as touch events (the page listens to touchstart/touchend)."""
    page.evaluate("""(dx) => {
        const t = document.getElementById('table'), r = t.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + 60;
        const touch = (cx) => new Touch({identifier: 1, target: t, clientX: cx, clientY: y});
        t.dispatchEvent(new TouchEvent('touchstart', {touches: [touch(x)], changedTouches: [touch(x)], bubbles: true}));
        t.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [touch(x + dx)], bubbles: true}));
    }""", dx)


def open_page(browser: Any, path: Path, viewport: str) -> Opened:
    return Opened(browser, path, viewport)


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("case", CASES)
def test_the_viewer_players_expect(browser: Any, tmp_path: Path, case: str, viewport: str) -> None:
    audited = long_audited(case, tmp_path)
    sheet = sheet_json(audited)
    players = sheet["players"]
    path = tmp_path / f"{case}-viewer.html"
    path.write_text(viewer_html(audited.loaded), encoding="utf-8")
    opened = open_page(browser, path, viewport)
    page = opened.page
    try:
        # it opens at deal 1, with the deal list of every deal and a result line for each
        assert pos(page)["deal"] == 1
        assert_labelled_drawings(page)
        if viewport == "phone":  # the deal list's links are targets a finger hits: 44 px high
            heights = page.locator("#deals a").evaluate_all("es => es.map(e => e.getBoundingClientRect().height)")
            assert min(heights) >= 44, min(heights)
        deals = page.locator("#deals a")
        assert deals.count() == len(sheet["deals"])
        texts = deals.all_inner_texts()
        assert all(re.match(rf"{d['deal']}\. \S", t) for d, t in zip(sheet["deals"], texts, strict=True))
        assert not any("not finished" in t for t in texts)
        for d, t in zip(sheet["deals"], texts, strict=True):  # a deal an illegal event broke off says so
            assert ("stopped at an illegal event" in t) == bool(d.get("broken")), t
        # the deal list jumps: the third deal, then the address follows the position and a reload keeps it
        deals.nth(2).click()
        assert pos(page)["deal"] == 3 and page.locator("#deals a.cur").inner_text() == texts[2]
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        at = pos(page)
        assert page.url.endswith(f"#seq-{at['seq']}")
        page.reload()
        page.wait_for_load_state("load")
        assert pos(page) == at
        # a swipe to the left is the next event, to the right the one before; a short or upright one is not
        swipe(page, -120)
        assert pos(page)["seq"] == at["seq"] + 1
        swipe(page, 120)
        assert pos(page)["seq"] == at["seq"]
        swipe(page, -10)
        assert pos(page)["seq"] == at["seq"]
        # the turn marker: exactly one seat is to move during the auction and the play
        assert page.locator(".seat.turn").count() == 1
        # into the play of a deal with cards: played cards stay in the hands, greyed; the trump suit is marked
        page.keyboard.press("Home")
        page.keyboard.press("]")
        for _ in range(60):
            s = page.evaluate("() => { const s = S[at]; return [s.kind, s.trump, s.completed, s.deal]; }")
            if s[0] == "card" and s[1] >= 0 and s[2] >= 2:
                break
            page.keyboard.press("ArrowRight")
        else:
            pytest.fail("no trump deal with two tricks played in the first deals")
        played = page.evaluate("() => { const d = S[at].deal; return S.filter((s, i) => i <= at && s.deal === d"
                               " && s.play).length; }")
        assert page.locator(".seat .card.gone").count() == played
        trump = page.evaluate("() => S[at].trump")
        suit = "♠♣♦♥"[trump]
        assert f"trump {suit}" in page.locator("#dealHead").inner_text()
        in_hands = page.locator(".seat .card").all_inner_texts()
        trumps = page.locator(".seat .card.trump").all_inner_texts()
        assert trumps and all(t.endswith(suit) for t in trumps)
        assert len(trumps) == sum(t.endswith(suit) for t in in_hands)
        # the auction in seat columns, with suit symbols for the Russian bids
        heads = page.locator("table.auction th").all_inner_texts()
        assert len(heads) == len(players)
        if case.startswith("russian"):
            bids = " ".join(page.locator("table.auction td").all_inner_texts())
            assert re.search(r"\d[♠♣♦♥]|\dNT|miser", bids), bids
        no_text_overlaps(page)
        check_page(page, viewport)
        assert not low_contrast(page), low_contrast(page)[:6]
        # one seat's view: the chosen seat sits at the bottom, the other hands hidden
        page.select_option("#seatView", "1")
        assert page.locator(".seat.bottom").get_attribute("data-seat") == "1"
        assert page.locator(".cards.hidden").count() == len(players) - 1
        assert page.locator('.seat[data-seat="1"] .card').count() > 0
        page.select_option("#seatView", "-1")
        # the help overlay lists the keys; Escape closes it
        page.keyboard.press("?")
        help_box = page.locator("#help")
        assert help_box.is_visible() and "PageDown" in help_box.inner_text()
        check_page(page, viewport)
        # a modal dialog: Tab keeps the focus on its Close button, the keys behind it do nothing
        before = pos(page)
        for key in ("Tab", "Tab", "Shift+Tab", "ArrowRight", "End"):
            page.keyboard.press(key)
            assert page.evaluate("() => document.activeElement.id") == "helpClose", key
        assert pos(page) == before and help_box.is_visible()
        page.keyboard.press("Escape")
        assert not help_box.is_visible()
        assert page.evaluate("() => document.activeElement.id") == "helpBtn"
        # the paper sheet after the last deal: every zone's last entry is sheet --json's total; the last
        # deal's entries are marked, and an entry leads to the deal that wrote it
        page.keyboard.press("End")
        paper = page.evaluate("""() => [...document.querySelectorAll('#paper .pp')].map(pp =>
            [...pp.querySelectorAll('.pz')].map(z => [z.dataset.zone,
              [...z.querySelectorAll('a.pe')].map(a => a.textContent.replace(/\\.$/, ''))]))""")
        totals = sheet["totals"]
        for k, p in enumerate(players):
            zones = paper[k]
            pulya = [v for z, v in zones if z == "p"][0]
            if str(totals["pulya"][p]) != "0" or pulya:
                assert pulya[-1] == str(totals["pulya"][p])
            visty = [v for z, v in zones if z == "v"]
            want = [str(v) for q, v in totals["visty"][p].items()]
            assert [v[-1] if v else "0" for v in visty] == want
        new = page.locator("#paper a.pe.new")
        last = sheet["deals"][-1]["deal"]
        if new.count():
            assert {int(x) for x in new.evaluate_all("es => es.map(e => e.dataset.deal)")} == {last}
        entry = page.locator("#paper a.pe").first
        target = int(entry.get_attribute("data-deal") or 0)
        entry.click()
        assert pos(page)["deal"] == max(target, 1)
        shot(page, "viewer-features", case, viewport)
        # every control is reached by the keyboard: Tab walks the buttons, the seat chooser, the help, the
        # paper sheet's entries and the deal list; Enter on a deal goes there
        page.locator("#firstBtn").focus()
        reached: list[str] = ["firstBtn"]
        for _ in range(40):
            page.keyboard.press("Tab")
            reached.append(page.evaluate("() => { const e = document.activeElement;"
                                         " return e.id || (e.closest('[id]') || {}).id || e.tagName; }"))
        for want in ("firstBtn", "nextEvent", "nextDeal", "seatView", "helpBtn", "paper"):
            assert want in reached, (want, reached)
        for _ in range(500):
            if page.evaluate("() => (document.activeElement.closest('[id]') || {}).id") == "deals":
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        focused = int(page.evaluate("() => document.activeElement.dataset.deal"))
        assert pos(page)["deal"] == focused
        assert not opened.errors, opened.errors
        assert not opened.leaked, opened.leaked
    finally:
        opened.close()


# The analysed pulka: tests/analysis's Sochi 6♠ that goes down one (deal 1, the club ace a mistake), its
# miser with a hole (deal 2), and a deal written from paper (deal 3, not analysed), seated by long names.
ANALYSED = f"""[Players "{', '.join(RUSSIAN_3)}"]
[Rules "sochi"]
[Pool "50"]
[WhistPrice "1/2"]
[Id "analysed-long"]

Deal 1: dealer C
{DOWN_ONE_DEAL}
Deal 2: dealer A
{MISER_DEAL}
Deal 3: dealer B
Contract: A 6s
Whist: B whist, C whist
Tricks: A 6, B 2, C 2
"""


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("analysed")
    record = tmp / "analysed.pref"
    record.write_text(ANALYSED, encoding="utf-8")
    out = tmp / "analysed.html"
    runner = CliRunner()
    res = runner.invoke(app, ["analyze", str(record), "--html", str(out), "--store", str(tmp / "st")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["analyze", str(record), "--json", "--store", str(tmp / "st")])
    assert res.exit_code == 0, res.output
    return out, json.loads(res.output)["pulkas"][0]


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_analysis_page(browser: Any, analysed: tuple[Path, dict[str, Any]], viewport: str) -> None:
    path, doc = analysed
    d1, _, d3 = doc["deals"]
    anna = RUSSIAN_3[0]
    loss = d1["losses"][0]
    assert loss["card"] == "Ac" and d1["double_dummy"] == 6 and d1["makeable"] and d1["margin"] == 0
    opened = open_page(browser, path, viewport)
    page = opened.page
    try:
        box = page.locator("#analysis")
        text = box.inner_text()
        # deal 1: the double-dummy figures, the discard, each whist judged, the card that lost a trick
        assert text.startswith(f"Deal 1: {anna} 6♠ (game)")
        assert f"{anna} takes 6 tricks (makeable exactly)" in text
        assert "as played" in text and "5 tricks, failed" in text
        assert "discard" in text and "8♥ 7♥ gives 6 tricks; the best" in text
        for w in d1["whist"]:
            assert f"{w['player']}'s {w['call']}" in text
            assert ("right" if w["right"] else "wrong") in text
        assert f"{anna}'s A♣ at trick 1 lost 1 trick" in text
        # n: the next card that lost a trick; every card its player could have played shows its value
        page.keyboard.press("n")
        assert pos(page)["seq"] == loss["seq"]
        played = page.locator(".card.ddplayed")
        assert played.count() == 1 and played.inner_text().startswith("A♣")
        assert "tricks: 5" in (played.get_attribute("title") or "")
        best = page.locator(".card.ddbest")
        assert best.count() >= 1
        best_titles = best.evaluate_all("es => es.map(e => e.title)")
        assert all(f"{anna}'s tricks: 6 (best)" in t for t in best_titles)
        best_cards = {c.replace("\n", "")[:-1] for c in best.all_inner_texts()}
        assert best_cards == {f"{c[:-1].upper()}{'♠♣♦♥'['scdh'.index(c[-1])]}" for c in loss["best"]}
        page.locator(".card.ddbest").first.hover()
        check_page(page, viewport)
        no_text_overlaps(page)
        assert not low_contrast(page), low_contrast(page)[:6]
        shot(page, "analysis", "long", viewport)
        # p goes back to it from further on; no mistake before it: p stays
        page.keyboard.press("End")
        page.keyboard.press("p")
        assert pos(page)["seq"] >= loss["seq"]
        page.locator(f'#log div[data-i="{loss["seq"] - 1}"]').click()
        page.keyboard.press("p")
        assert pos(page)["seq"] == loss["seq"]
        # the deal written from paper: a clear message why it is not analysed
        page.locator('#deals a[data-deal="3"]').click()
        skipped = page.locator("#analysis .skipped")
        assert skipped.count() == 1 and d3["skipped"] in skipped.inner_text()
        check_page(page, viewport)
        assert not opened.errors, opened.errors
        assert not opened.leaked, opened.leaked
    finally:
        opened.close()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return long_report(tmp_path_factory.mktemp("report-features"))


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_report_sorts_its_pulka_table(browser: Any, report: Path, viewport: str) -> None:
    opened = open_page(browser, report, viewport)
    page = opened.page
    try:
        assert page.title() == "preflog statistics"
        assert_labelled_drawings(page)
        rows = page.locator("table.pulkas tbody tr")
        assert rows.count() == len(CASES)
        # every pulka linked to its viewer page, which exists
        for href in page.locator("table.pulkas td.id a").evaluate_all("es => es.map(e => e.getAttribute('href'))"):
            assert (report.parent / href).is_file()

        def column(k: int) -> list[str]:
            return [t.strip() for t in page.locator(f"table.pulkas tbody td:nth-child({k})").all_inner_texts()]

        deals = page.locator("table.pulkas th button", has_text="deals")
        deals.click()
        got = [int(x) for x in column(5)]
        assert got == sorted(got)
        assert page.locator("table.pulkas th").nth(4).get_attribute("aria-sort") == "ascending"
        deals.click()
        assert [int(x) for x in column(5)] == sorted(got, reverse=True)
        page.locator("table.pulkas th button", has_text="players").click()
        names = column(4)
        assert names == sorted(names, key=str.casefold) or names == sorted(names)
        # the winner: the player with the best result, named with it
        assert all(re.search(r"\((-?[\d.]+) (visty|points)\)$", w) for w in column(6))
        # the wide tables fit a 1280 px screen: no table scrolls in its box
        if viewport == "desktop":
            wide = page.evaluate("() => [...document.querySelectorAll('.tw')].filter(d => d.querySelector('table'))"
                                 ".map(d => d.scrollWidth - d.clientWidth)")
            assert wide and max(wide) <= 0, wide
        check_page(page, viewport)
        assert not low_contrast(page), low_contrast(page)[:6]
        # the check itself: light grey on white is found
        page.evaluate("() => { const p = document.createElement('p'); p.textContent = 'pale text';"
                      " p.style.color = '#aaa'; document.body.appendChild(p); }")
        assert [x["text"] for x in low_contrast(page)] == ["pale text"]
        assert not opened.errors, opened.errors
        assert not opened.leaked, opened.leaked
    finally:
        opened.close()


def test_a_viewer_of_110_deals_stays_under_1_5_mb(browser: Any, tmp_path: Path) -> None:
    """A long evening: 110 deals at a 4-player table, every card recorded. The page holds each step's
    table only where it changed; opened, End reaches the final sheet without an error."""
    record = tmp_path / "long.pref"
    players = ("Константин Константинопольский-Зарецкий", "Мария Иванова-Кузнецова",
               "Maximilian von Hohenberg-Schwarzenau", "Александр Петров")
    record.write_text(write_text(random_pulka("sochi", players, 110, seed=110)), encoding="utf-8")
    audited = Workspace(tmp_path / "st").audit(str(record))[0]
    assert len(audited.result.deals) == 110
    path = tmp_path / "long.html"
    path.write_text(viewer_html(audited.loaded), encoding="utf-8")
    size = path.stat().st_size
    assert size < 1_500_000, f"{size} bytes"
    opened = open_page(browser, path, "desktop")
    try:
        page = opened.page
        page.keyboard.press("End")
        cells = page.evaluate("""() => [...document.querySelectorAll('#sheet td[data-area]')]
            .map(td => [td.dataset.player, td.dataset.area, td.textContent])""")
        shown = {(p, a): v for p, a, v in cells}
        totals = sheet_json(audited)["totals"]
        for p in players:
            assert shown[(p, "pulya")] == mixed(totals["pulya"][p])
            for q, v in totals["visty"][p].items():
                assert shown[(p, "on " + q)] == mixed(v)
        assert page.locator("#deals a").count() == 110
        assert not opened.errors and not opened.leaked
    finally:
        opened.close()
