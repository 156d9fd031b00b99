"""preflog serve on a phone (headless Chromium at 390×844): a Croatian pulka entered by tapping, in its own
terms (igram / pass / zovem, refe), the page showing the totals the rule text's sample sheet gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from preflog.workspace import Workspace

from .conftest import SHOTS
from .test_serve import _phone_page
from .test_serve import _serving
from .test_serve import _tap_row


def _game(page: Any, declarer: str, contract: str, calls: tuple[tuple[str, str], ...],
          tricks: tuple[tuple[str, str], ...]) -> None:
    page.get_by_role("button", name="Contract", exact=True).tap()
    page.locator("#declarer").get_by_role("button", name=declarer, exact=True).tap()
    page.locator("#contracts").get_by_role("button", name=contract, exact=True).tap()
    for name, call in calls:
        _tap_row(page, "calls", name, call)
    for name, n in tricks:
        _tap_row(page, "tricks", name, n)


def test_a_croatian_pulka_entered_by_tapping_shows_the_sample_sheets_totals(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    store = tmp_path / "store"
    context, page, problems = _phone_page(browser)
    try:
        with _serving(store) as base:
            page.goto(base + "/new")
            for i, name in enumerate(("Ana", "Branko", "Cvita")):
                page.fill(f"#p{i}", name)
            page.select_option("#rules", "croatian")
            page.tap("#start")
            page.wait_for_url("**/pulka/live-*")

            # deal 1, dealt by Branko: Cvita plays 3 with the talon, both whist («igram»), 2 / 2 / 6
            page.locator("#dealer").get_by_role("button", name="Branko").tap()
            _game(page, "Cvita", "3", (("Ana", "igram"), ("Branko", "igram")),
                  (("Ana", "2"), ("Branko", "2"), ("Cvita", "6")))
            # the defenders' calls are the family's words: no half-whist in Croatia, the invitation instead
            assert page.locator("#calls .row").first.get_by_role("button").all_inner_texts() == [
                "igram", "pass", "zovem"]
            page.tap("#enter")
            expect(page.locator("#dealno")).to_have_text("2")
            assert page.text_content("#last") == ("Deal 1: dealer Branko\nContract: Cvita 3\nWhist: Ana whist, "
                                                  "Branko whist\nTricks: Ana 2, Branko 2, Cvita 6")

            # deal 2: Branko plays 5, Cvita whists alone, Ana passes (not invited), 0 / 7 / 3
            _game(page, "Branko", "5", (("Cvita", "igram"), ("Ana", "pass")),
                  (("Ana", "0"), ("Branko", "7"), ("Cvita", "3")))
            page.tap("#enter")
            expect(page.locator("#dealno")).to_have_text("3")

            # deal 3: everybody passes: a refe for everybody, nothing more to tap
            page.get_by_role("button", name="Refe for everybody").tap()
            assert page.locator("#tricks button").count() == 0
            page.tap("#enter")
            expect(page.locator("#dealno")).to_have_text("4")

            # deal 4: Ana plays 5 on her refe, Branko passes, Cvita whists alone, 7 / 0 / 3
            _game(page, "Ana", "5", (("Branko", "pass"), ("Cvita", "igram")),
                  (("Ana", "7"), ("Branko", "0"), ("Cvita", "3")))
            page.tap("#enter")
            expect(page.locator("#dealno")).to_have_text("5")

            # the totals shown: columns −10 / −20 / −24 (mean −18: +80 / −20 / −60) and juha Ana 12 − 60,
            # Branko 12 − 30, Cvita 90 − 24 → +32 / −38 / +6, the rule text's own result
            rows = page.locator("#settle tbody tr").all_inner_texts()
            cells = {r.split("\t")[0]: r.split("\t")[1] for r in rows}
            assert cells == {"Ana": "32", "Branko": "−38", "Cvita": "6"}   # as on paper: −
            svg = page.inner_html("#sheet")
            assert "<svg" in svg and ">60<" in svg   # Cvita's 60 juha on Ana is drawn

            # an impossible entry is refused with the audit's sentence: tricks to the passer nobody invited
            _game(page, "Branko", "4", (("Cvita", "igram"), ("Ana", "pass")),
                  (("Ana", "1"), ("Branko", "6"), ("Cvita", "3")))
            page.tap("#enter")
            page.wait_for_selector("#msg.err")
            assert "who passed and was not invited" in page.text_content("#msg")
            assert page.text_content("#dealno") == "5"
            boxes = [b.bounding_box() for b in page.locator("#entry button").all() if b.is_visible()]
            assert boxes and min(b["height"] for b in boxes) >= 44 and max(b["x"] + b["width"] for b in boxes) <= 390
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / "serve-phone-croatian.png"), full_page=True)
    finally:
        context.close()
    assert [p for p in problems if "status of 422" not in p] == []
    (pid,) = Workspace(store).ids()
    (audited,) = Workspace(store).audit(pid)
    assert audited.result.findings == [] and len(audited.result.deals) == 4
