"""``preflog analyze FILE --html OUT``: the deal viewer with the cards that lost tricks marked, in headless
Chromium. The record is tests/analysis's Sochi 6♠ that Anna lets go down one by leading ♣A at trick 1 (its
docstring works out the cost: 98/3 visty)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from preflog.cli.app import app

from ..analysis.records import DOWN_ONE
from .conftest import SHOTS
from .test_viewer import open_offline
from .test_viewer import position


def test_the_card_that_lost_a_trick_is_marked_with_its_cost(page: Any, tmp_path: Path) -> None:
    record = tmp_path / "down-one.pref"
    record.write_text(DOWN_ONE, encoding="utf-8")
    out = tmp_path / "down-one.html"
    res = CliRunner().invoke(app, ["analyze", str(record), "--html", str(out), "--store", str(tmp_path / "st")])
    assert res.exit_code == 0, res.output
    leaked = open_offline(page, out)
    marked = page.locator("#log div.mistake")
    assert marked.count() == 1
    title = marked.nth(0).get_attribute("title")
    assert "Anna's A♣ at trick 1 lost 1 trick" in title and "cost Anna 32 2/3 visty" in title
    marked.nth(0).click()
    assert position(page)["deal"] == 1 and position(page)["completed"] == 0
    card = page.locator("#trick .card.mistake")
    assert card.count() == 1
    assert card.inner_text() == "A♣"
    assert "32 2/3 visty" in (card.get_attribute("title") or "")
    assert "cost Anna 32 2/3 visty" in page.locator("#current .mistake").inner_text()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "viewer-analysis-mark.png"), full_page=True)
    page.keyboard.press("ArrowRight")   # Boris ruffs: the club ace stays marked in the trick
    assert page.locator("#trick .card.mistake").count() == 1
    page.keyboard.press("Home")
    assert page.locator(".card.mistake").count() == 0
    assert not leaked
