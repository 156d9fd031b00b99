"""preflog serve on a phone (headless Chromium at 390×844): an open whist, a returned half-whist and a
standing half-whist entered by tapping, each stored as the record's paper level reads it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from preflog.record.api import read_records
from preflog.record.api import write_text
from preflog.workspace import Workspace

from .conftest import SHOTS
from .test_serve import _phone_page
from .test_serve import _serving
from .test_serve import _start
from .test_serve import _tap_row


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    with _serving(tmp_path / "store") as base:
        yield base, tmp_path / "store"


def _tricks(page: Any, *counts: tuple[str, str]) -> None:
    for name, n in counts:
        _tap_row(page, "tricks", name, n)


def test_an_open_whist_and_half_whists_are_entered_by_tapping(browser: Any, served: tuple[str, Path]) -> None:
    from playwright.sync_api import expect

    base, store = served
    context, page, problems = _phone_page(browser)
    try:
        _start(page, base)
        # the all-pass deal in the family's word
        expect(page.locator("#kind [data-kind=raspasy]")).to_have_text("Raspasy")

        # deal 1 (Юг deals): Запад 6♠, Восток whists alone and plays open, Юг passes; 6 / 2 / 2
        page.get_by_role("button", name="Contract").tap()
        page.locator("#declarer").get_by_role("button", name="Запад").tap()
        page.locator("#contracts").get_by_role("button", name="6s", exact=True).tap()
        _tap_row(page, "calls", "Восток", "whist")
        expect(page.locator("#mode")).to_have_count(0)  # not before the calls make a lone whister
        _tap_row(page, "calls", "Юг", "pass")
        expect(page.locator("#after-calls")).to_contain_text("Восток plays")
        expect(page.locator("#concede")).to_have_count(0)  # Sochi does not allow «без трёх»
        page.locator("#mode").get_by_role("button", name="open").tap()
        _tricks(page, ("Запад", "6"), ("Восток", "2"), ("Юг", "2"))
        boxes = [b.bounding_box() for b in page.locator("#after-calls button").all()]
        assert boxes and min(b["height"] for b in boxes) >= 44 and max(b["x"] + b["width"] for b in boxes) <= 390
        page.tap("#enter")
        expect(page.locator("#dealno")).to_have_text("2")
        expect(page.locator("#last")).to_have_text("Deal 1: dealer Юг\nContract: Запад 6s\nWhist: Восток whist, "
                                                   "Юг pass, Восток open\nTricks: Запад 6, Восток 2, Юг 2")
        # the whister writes both hands' tricks, 2 × 4 = 8, on Запад, whose pulya is 2. Exact settlement by
        # hand: the others' pulya short of Запад's counts as 2 gora each (10 visty a point both ways), mean
        # gora 4/3; Запад −8 + 10·(4/3 − 0) = 16/3, Восток +8 + 10·(4/3 − 2) = 4/3, Юг 10·(4/3 − 2) = −20/3
        rows = {r.split("\t")[0]: r.split("\t")[1:] for r in page.locator("#settle tbody tr").all_inner_texts()}
        assert rows["Запад"][0] == "5⅓" and rows["Восток"][0] == "1⅓" and rows["Юг"][0] == "−6⅔"   # as on paper

        # deal 2 (Запад deals): Юг 7♥; Запад passes, Восток half-whists, Запад returns the whist; 4 / 0 / 6
        page.get_by_role("button", name="Contract").tap()
        page.locator("#declarer").get_by_role("button", name="Юг").tap()
        page.locator("#contracts").get_by_role("button", name="7h", exact=True).tap()
        # half-whist only where Sochi allows it: the second defender, on a 6 or a 7
        expect(page.locator("#calls .row").nth(0).get_by_role("button", name="half-whist")).to_have_count(0)
        _tap_row(page, "calls", "Запад", "pass")
        _tap_row(page, "calls", "Восток", "half-whist")
        expect(page.locator("#tricks button")).to_have_count(0)  # a half-whist alone: no tricks to enter
        expect(page.locator("#after-calls")).to_contain_text("Whist returned after the half-whist")
        page.locator("#returned").get_by_role("button", name="Запад").tap()
        expect(page.locator("#after-calls")).to_contain_text("Запад plays")  # the returner plays alone
        _tricks(page, ("Запад", "4"), ("Восток", "0"), ("Юг", "6"))
        SHOTS.mkdir(exist_ok=True)
        page.locator("#entry").screenshot(path=str(SHOTS / "serve-phone-return.png"))
        page.tap("#enter")
        expect(page.locator("#dealno")).to_have_text("3")
        expect(page.locator("#last")).to_have_text("Deal 2: dealer Запад\nContract: Юг 7h\nWhist: Запад pass, "
                                                   "Восток half, Запад return\nTricks: Запад 4, Восток 0, Юг 6")

        # deal 3 (Восток deals): Запад 6♦; Восток passes, Юг half-whists and nobody returns: no tricks
        page.get_by_role("button", name="Contract").tap()
        page.locator("#declarer").get_by_role("button", name="Запад").tap()
        page.locator("#contracts").get_by_role("button", name="8s", exact=True).tap()
        expect(page.locator("#calls").get_by_role("button", name="half-whist")).to_have_count(0)
        page.locator("#contracts").get_by_role("button", name="10NT", exact=True).tap()
        expect(page.locator("#calls button")).to_have_count(0)  # Sochi checks a ten: nobody calls
        expect(page.locator("#tricks .row")).to_have_count(3)   # its tricks are the check's
        page.locator("#contracts").get_by_role("button", name="6d", exact=True).tap()
        _tap_row(page, "calls", "Восток", "pass")
        _tap_row(page, "calls", "Юг", "half-whist")
        page.tap("#enter")
        expect(page.locator("#dealno")).to_have_text("4")
        expect(page.locator("#last")).to_have_text("Deal 3: dealer Восток\nContract: Запад 6d\nWhist: Восток pass, "
                                                   "Юг half")
    finally:
        context.close()
    assert problems == []
    (pid,) = Workspace(store).ids()
    (audited,) = Workspace(store).audit(pid)
    assert audited.result.findings == [] and len(audited.result.deals) == 3
    # the record written from the store reads back to the same events
    stored = Workspace(store).store().read(pid)
    (back,) = read_records(write_text(stored))
    assert list(back.events) == stored
