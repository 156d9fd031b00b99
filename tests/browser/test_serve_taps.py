"""What the form fills in and what it refuses before sending (issue 39, items 4 to 6), on a phone
(headless Chromium at 390×844): the last trick count filled in, a missing call or count said by name and
nothing sent, one tap to tonight's pulka from the list, one tap to the last table's names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from preflog.workspace import Workspace

from .conftest import SHOTS
from .test_serve import _phone_page
from .test_serve import _serving
from .test_serve import _start
from .test_serve import _tap_row


def _pressed(page: Any, name: str) -> list[str]:
    row = page.locator("#tricks .row").filter(has=page.locator("b", has_text=name))
    return [b.inner_text() for b in row.locator('button[aria-pressed="true"]').all()]


def test_the_form_fills_the_last_count_and_says_what_is_missing(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    store = tmp_path / "store"
    with _serving(store) as base:
        context, page, problems = _phone_page(browser)
        posted: list[str] = []
        page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
        try:
            url = _start(page, base)
            # deal 1, raspasy: Запад 1 and Восток 9 tapped; Юг's 0 is filled in (shown, marked as filled)
            page.get_by_role("button", name="Raspasy").tap()
            _tap_row(page, "tricks", "Запад", "1")
            assert _pressed(page, "Юг") == []  # two blank: nothing filled in yet
            _tap_row(page, "tricks", "Восток", "9")
            assert _pressed(page, "Юг") == ["0"]
            assert page.locator("#tricks button.auto").inner_text() == "0"
            page.tap("#enter")
            expect(page.locator("#dealno")).to_have_text("2")
            assert page.text_content("#last") == "Deal 1: dealer Юг\nTricks: Запад 1, Восток 9, Юг 0"

            # deal 2: Восток 6♠; only Юг's call tapped: refused by name, nothing sent
            sent = len(posted)
            page.get_by_role("button", name="Contract").tap()
            page.locator("#declarer").get_by_role("button", name="Восток").tap()
            page.locator("#contracts").get_by_role("button", name="6s", exact=True).tap()
            _tap_row(page, "calls", "Юг", "whist")
            _tap_row(page, "tricks", "Восток", "6")
            page.tap("#enter")
            expect(page.locator("#msg.err")).to_have_text(
                "No call from Запад on 6s: tap whist or pass for each defender")
            _tap_row(page, "calls", "Запад", "pass")
            page.tap("#enter")  # two counts blank: not 0, said by name
            expect(page.locator("#msg.err")).to_have_text(
                "The tricks of Юг and Запад are not entered: tap them (the last count is filled in from the others)")
            assert len(posted) == sent and page.text_content("#dealno") == "2"
            _tap_row(page, "tricks", "Юг", "3")
            assert _pressed(page, "Запад") == ["1"]
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / "serve-phone-filled-in.png"), full_page=True)
            page.tap("#enter")
            expect(page.locator("#dealno")).to_have_text("3")
            assert page.text_content("#last") == ("Deal 2: dealer Запад\nContract: Восток 6s\nWhist: Юг whist, "
                                                  "Запад pass\nTricks: Запад 1, Восток 6, Юг 3")

            # the list: one tap to tonight's pulka
            page.goto(base + "/")
            page.locator("#tonight a").tap()
            page.wait_for_url(url)
            # the start form: one tap fills the last table's names
            page.goto(base + "/new")
            page.tap("#last-table")
            assert [page.input_value(f"#p{i}") for i in range(4)] == ["Запад", "Восток", "Юг", ""]
        finally:
            context.close()
    assert problems == []
    (pid,) = Workspace(store).ids()
    (audited,) = Workspace(store).audit(pid)
    assert audited.result.findings == [] and len(audited.result.deals) == 2
