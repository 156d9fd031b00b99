"""No lost taps, on phones (headless Chromium at 390×844): a phone whose entry another phone beat keeps its
draft and enters it as the next deal in one tap (or discards it); a phone without the connection keeps its
entry across a reload and sends it when the connection is back, counted once even when the answer to it
is lost on the way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from preflog.workspace import Workspace

from .conftest import SHOTS
from .test_serve import _phone
from .test_serve import _raspasy
from .test_serve import _serving
from .test_serve import _start
from .test_serve import _two_phones


def _tricks(store: Path) -> list[tuple[int, ...]]:
    (pid,) = Workspace(store).ids()
    (audited,) = Workspace(store).audit(pid)
    assert audited.result.findings == []
    return [d.outcome.tricks for d in audited.result.deals]


def _pressed(page: Any, name: str, n: str) -> str | None:
    row = page.locator("#tricks .row").filter(has=page.locator("b", has_text=name))
    value: str | None = row.get_by_role("button", name=n, exact=True).get_attribute("aria-pressed")
    return value


def test_two_phones_race_the_loser_keeps_its_draft_and_enters_it_next(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    store = tmp_path / "store"
    with _two_phones(browser, store, 600_000) as (a, b):
        _raspasy(a, (("Запад", "1"), ("Восток", "9"), ("Юг", "0")))
        _raspasy(b, (("Запад", "2"), ("Восток", "8"), ("Юг", "0")))
        a.tap("#enter")
        expect(a.locator("#dealno")).to_have_text("2")
        b.tap("#enter")   # a's came first: 409
        expect(b.locator("#conflict")).to_be_visible()
        # b is shown what a entered, and its own taps are still there
        expect(b.locator("#since")).to_contain_text("Tricks: Запад 1, Восток 9, Юг 0")
        assert (_pressed(b, "Запад", "2"), _pressed(b, "Восток", "8")) == ("true", "true")
        expect(b.locator("#mine")).to_have_text("Enter mine as deal 2")
        SHOTS.mkdir(exist_ok=True)
        b.screenshot(path=str(SHOTS / "serve-phone-race.png"), full_page=True)
        b.tap("#mine")   # one tap: b's draft is the next deal
        expect(b.locator("#dealno")).to_have_text("3")
        expect(b.locator("#conflict")).to_be_hidden()
        expect(b.locator("#msg")).to_have_text("Deal 2 entered")
        assert _tricks(store) == [(1, 9, 0), (2, 8, 0)]

        # the other way: a's draft loses to b's deal 3, and a discards it
        _raspasy(a, (("Запад", "3"), ("Восток", "7"), ("Юг", "0")))
        _raspasy(b, (("Запад", "4"), ("Восток", "6"), ("Юг", "0")))
        b.tap("#enter")
        expect(b.locator("#dealno")).to_have_text("4")
        a.tap("#enter")
        expect(a.locator("#conflict")).to_be_visible()
        expect(a.locator("#since")).to_contain_text("Tricks: Запад 4, Восток 6, Юг 0")
        a.tap("#discard")
        expect(a.locator("#conflict")).to_be_hidden()
        expect(a.locator("#dealno")).to_have_text("4")
        # the draft is gone: no kind of deal tapped, no tricks rows
        assert a.locator("#kind button[aria-pressed=true]").count() == 0
        assert a.locator("#tricks .row").count() == 0
        assert a.evaluate("Object.keys(localStorage).length") == 0
    assert _tricks(store) == [(1, 9, 0), (2, 8, 0), (4, 6, 0)]


def test_an_entry_made_offline_waits_survives_a_reload_and_lands_once(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    store = tmp_path / "store"
    phone = _phone(browser)
    try:
        with _serving(store, poll_ms=600_000) as base:
            a = phone.new_page()
            _start(a, base)
            phone.set_offline(True)
            _raspasy(a, (("Запад", "1"), ("Восток", "9"), ("Юг", "0")))
            a.tap("#enter")
            expect(a.locator("#pending")).to_contain_text("waits for the connection")
            assert a.evaluate("Object.keys(localStorage)")[0].startswith("preflog-pending:live-")
            # back online, but the server is still out of reach (the request is dropped): still waiting
            def drop(route: Any) -> None:
                route.abort()

            a.route("**/deals", drop)
            phone.set_offline(False)
            a.reload()
            expect(a.locator("#pending")).to_contain_text("waits for the connection")
            assert (_pressed(a, "Запад", "1"), _pressed(a, "Восток", "9")) == ("true", "true")
            SHOTS.mkdir(exist_ok=True)
            a.screenshot(path=str(SHOTS / "serve-phone-offline.png"), full_page=True)
            # the server is reached, but its answer is lost on the way back: the phone sends it again
            answered: list[int] = []

            def lose_first_answer(route: Any) -> None:
                if answered:
                    route.continue_()
                    return
                answered.append(route.fetch().status)
                route.abort()

            # (the new handler first, then the old one off: a retry between the two would land unseen; the
            # handler registered last is the one asked first)
            a.route("**/deals", lose_first_answer)
            a.unroute("**/deals", drop)
            expect(a.locator("#msg")).to_have_text("Deal 1 entered", timeout=20_000)
            expect(a.locator("#dealno")).to_have_text("2")
            expect(a.locator("#pending")).to_be_hidden()
            assert answered == [201]
            assert a.evaluate("Object.keys(localStorage).length") == 0
    finally:
        phone.close()
    assert _tricks(store) == [(1, 9, 0)]   # entered once
