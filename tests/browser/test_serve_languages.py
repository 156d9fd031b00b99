"""The pulka page in the players' language on a phone (headless Chromium at 390×844): a browser that asks
for Russian gets the page and its script's words in Russian, enters a deal in Russian, switches to Croatian
with one tap, and the choice is remembered after a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import SHOTS
from .test_serve import _serving
from .test_serve import _tap_row


def test_the_pulka_page_in_russian_then_croatian_remembered(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with _serving(tmp_path / "store") as base:
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True,
                                      is_mobile=True, locale="ru-RU",
                                      extra_http_headers={"Accept-Language": "ru-RU,ru"})
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        try:
            page.goto(base + "/new")
            expect(page.locator("h1")).to_have_text("Новая пулька")
            for i, name in enumerate(("Запад", "Восток", "Юг")):
                page.fill(f"#p{i}", name)
            page.fill("#pool", "14")
            page.tap("#start")
            page.wait_for_url("**/pulka/live-*")
            assert page.locator("html").get_attribute("lang") == "ru"
            # the page's own words and its script's (drawn after the page loaded) are Russian
            expect(page.locator("#entryhead")).to_have_text("Следующая раздача")
            page.get_by_role("button", name="Распасы").tap()
            for name, n in (("Запад", "1"), ("Восток", "9"), ("Юг", "0")):
                _tap_row(page, "tricks", name, n)
            expect(page.locator("#tricks > b")).to_have_text("Взятки")
            page.tap("#enter")
            expect(page.locator("#msg")).to_have_text("Раздача 1 записана")
            expect(page.locator("#dealno")).to_have_text("2")
            heads = page.locator("#settle thead th").all_inner_texts()
            assert heads[:3] == ["Игрок", "Точно (висты)", "Способ 1"], heads
            assert "гора" in page.inner_html("#sheet")   # the Russian sheet's own terms
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / "serve-phone-russian.png"), full_page=True)

            # one tap on the switch: Croatian, remembered over the browser's Russian after a reload
            page.locator("nav.langs").get_by_role("link", name="Hrvatski").tap()
            expect(page.locator("#entryhead")).to_have_text("Sljedeće dijeljenje")
            page.reload()
            assert page.locator("html").get_attribute("lang") == "hr"
            expect(page.locator("h2").first).to_have_text("Zadnje upisano dijeljenje")
            expect(page.locator("#enter")).to_have_text("Upiši dijeljenje")
            current = page.locator('nav.langs a[aria-current="true"]')
            expect(current).to_have_text("Hrvatski")
            box = page.locator("nav.langs").bounding_box()
            assert box is not None and box["x"] + box["width"] <= 390
            page.screenshot(path=str(SHOTS / "serve-phone-croatian.png"), full_page=True)
            assert problems == []
        finally:
            context.close()
