"""preflog serve's card-level entry on a phone (headless Chromium at 390×844): one deal's hands tapped from
the 32-card grid, its auction, discard and calls, two tricks card by card (only the legal cards active),
the rest claimed; the store then holds the record reader's events of the same deal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from preflog.record.api import read_records
from preflog.workspace import Workspace
from tests.deals import SEVEN_SPADES

from .conftest import SHOTS
from .names import RUSSIAN_3
from .test_serve import _phone_page
from .test_serve import _start
from .test_serve import served  # noqa: F401  (the fixture)

NAMES = RUSSIAN_3   # long names, Cyrillic and Latin
RECORD = """[Players "Александр Петров, Мария Иванова-Кузнецова, Maximilian von Hohenberg-Schwarzenau"]
[Rules "sochi"]
[Pool "14"]

Deal 1: dealer C
""" + SEVEN_SPADES + """Whist: B whist, C pass, B open
1: As 9s 7s
2: Ks 8s 9c
Claim: A 7, B 1, C 0
"""
ANNA = "A♠ K♠ Q♠ J♠ 10♠ A♣ K♣ A♦ K♦ 7♥"
BORIS = "9♠ 8♠ Q♣ J♣ 10♣ Q♦ J♦ 10♦ A♥ K♥"
VERA = "7♠ 9♣ 8♣ 7♣ 9♦ 8♦ 7♦ Q♥ J♥ 10♥"


def _card(page: Any, text: str) -> Any:
    return page.locator(f'#c-grid button[data-card="{text}"]')


def _settled(page: Any) -> None:
    """Wait until the last step's answer is drawn (the panel is not busy)."""
    page.wait_for_selector('#cards[aria-busy="false"]')


def _widest(page: Any) -> float:
    """The right edge of the card panel's widest element, in CSS pixels."""
    right: float = page.evaluate("Math.max(...Array.from(document.querySelectorAll('#cards, #cards *'))"
                                 ".map(e => e.getBoundingClientRect().right))")
    return right


def _option(page: Any, label: str) -> None:
    page.locator("#c-options").get_by_role("button", name=label, exact=True).tap()
    _settled(page)


def _talon(page: Any, cards: str) -> None:
    page.locator("#c-seats").get_by_role("button", name="Talon 0/2").tap()
    for text in cards.split():
        _card(page, text).tap()
    _settled(page)


def test_open_raspasy_shows_the_talon_leading_the_first_tricks(browser: Any, served: tuple[str, Path]) -> None:  # noqa: F811
    """All pass in Sochi: the talon's cards (8♦ and 9♥; Vera holds the 8♥) lead the first two tricks, and the
    panel says which suit to follow: either at first, the diamonds once Anna's A♦ shows the 8♦ was turned."""
    from playwright.sync_api import expect

    base, _ = served
    context, page, problems = _phone_page(browser)
    try:
        _start(page, base, NAMES)
        page.tap("#cards-open")
        for text in (ANNA + " " + BORIS).split():
            _card(page, text).tap()
        _talon(page, "8♦ 9♥")
        page.tap("#c-done")
        _settled(page)
        for _ in range(3):
            _option(page, "pass")
        expect(page.locator("#c-talon")).to_have_text("The talon (8♦ 9♥) leads this trick: follow ♦ / ♥")
        _card(page, "A♦").tap()
        _settled(page)
        expect(page.locator("#c-talon")).to_have_text("The talon (8♦ 9♥) leads this trick: follow ♦")
        assert _widest(page) <= 390
        SHOTS.mkdir(exist_ok=True)
        page.locator("#cards").screenshot(path=str(SHOTS / "serve-cards-raspasy.png"))
        assert not problems, problems
    finally:
        context.close()


def test_enter_a_deals_hands_and_tricks_by_tapping(browser: Any, served: tuple[str, Path]) -> None:  # noqa: F811
    from playwright.sync_api import expect

    base, store = served
    context, page, problems = _phone_page(browser)
    try:
        url = _start(page, base, NAMES)
        page.tap("#cards-open")
        expect(page.locator("#cards")).to_be_visible()
        # one entry at a time (issue 39 item 7: two "Enter the deal" buttons and two dealer rows showed)
        expect(page.get_by_role("button", name="Enter the deal", exact=True)).to_have_count(1)
        expect(page.locator("#c-save")).to_be_visible()
        expect(page.locator("#dealer")).to_be_hidden()
        expect(page.locator("#c-dealer")).to_be_visible()
        # Vera deals: Anna's hand first, then Boris's (the panel moves on at the tenth card), then the talon
        expect(page.locator('#c-seats button[aria-pressed="true"]')).to_have_text("Александр Петров 0/10")
        for text in ANNA.split():
            _card(page, text).tap()
        expect(page.locator('#c-seats button[aria-pressed="true"]')).to_have_text("Мария Иванова-Кузнецова 0/10")
        expect(_card(page, "A♠")).to_be_disabled()   # Anna's: not Boris's to take
        for text in BORIS.split():
            _card(page, text).tap()
        _talon(page, "9♥ 8♥")
        # the last hand is what is left: Vera's ten cards, filled in by the server
        expect(page.locator("#c-done")).to_be_enabled()
        page.locator("#c-seats").get_by_role("button", name="Maximilian von Hohenberg-Schwarzenau 0/10").tap()
        for text in VERA.split():
            expect(_card(page, text)).to_have_attribute("aria-pressed", "true")
        # every card a 44 px target inside the 390 px screen
        boxes = [b.bounding_box() for b in page.locator("#c-grid button").all()]
        assert len(boxes) == 32 and min(b["height"] for b in boxes) >= 44 and min(b["width"] for b in boxes) >= 44
        assert max(b["x"] + b["width"] for b in boxes) <= 390
        assert _widest(page) <= 390   # nothing of the panel wider than the phone, long names included
        page.tap("#c-done")
        _settled(page)

        for label in ("6♠", "6♣", "pass", "6♣ · hold", "pass"):
            _option(page, label)
        _card(page, "8♥").tap()
        _card(page, "7♥").tap()
        _settled(page)
        for label in ("7♠", "whist · вист", "pass · пас", "open · в светлую"):
            _option(page, label)
        # Anna leads: her cards are active, nobody else's
        expect(_card(page, "A♠")).to_be_enabled()
        expect(_card(page, "9♠")).to_be_disabled()
        for text in ("A♠", "9♠"):
            _card(page, text).tap()
            _settled(page)
        # Vera must follow spades with her 7♠: her clubs are not offered
        expect(_card(page, "7♣")).to_be_disabled()
        SHOTS.mkdir(exist_ok=True)   # the panel in play (docs/serve.md)
        page.locator("#cards").screenshot(path=str(SHOTS / "serve-cards-play.png"))
        for text in ("7♠", "K♠", "8♠", "9♣"):
            _card(page, text).tap()
            _settled(page)
        expect(page.locator("#c-taken")).to_have_text("Tricks: Александр Петров 2, Мария Иванова-Кузнецова 0, "
                                                         "Maximilian von Hohenberg-Schwarzenau 0")
        # the rest claimed: Anna 7 of the 8 left, Boris 1 (the A♥)
        page.tap("#c-claim-open")
        page.locator('#c-claim [data-claim="0"]').get_by_role("button", name="7", exact=True).tap()
        page.locator('#c-claim [data-claim="1"]').get_by_role("button", name="1", exact=True).tap()
        page.locator('#c-claim [data-claim="2"]').get_by_role("button", name="0", exact=True).tap()
        page.locator("#c-claim").get_by_role("button", name="Claim", exact=True).tap()
        _settled(page)
        expect(page.locator("#c-text")).to_contain_text("Claim: A 7, B 1, C 0")
        assert _widest(page) <= 390
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "serve-cards-phone.png"), full_page=True)
        page.tap("#c-save")
        expect(page.locator("#dealno")).to_have_text("2")
        expect(page.locator("#msg")).to_have_text("Deal 1 entered card by card")
        expect(page.locator("#cards")).to_be_hidden()
        assert f"Contract: {NAMES[0]} 7s" in page.text_content("#last")
        expect(page.locator("#enter")).to_be_visible()   # the paper entry is back for the next deal
        assert not problems, problems
    finally:
        context.close()
    pid = url.rsplit("/", 1)[1]
    stored = Workspace(store).store().read(pid)
    (rec,) = read_records(RECORD, "test")
    assert stored[1:] == list(rec.events)[1:]
