"""preflog serve on a phone (headless Chromium at 390×844): start a pulka and enter two deals by tapping."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from preflog.serve import create_app
from preflog.serve import uvicorn_server
from preflog.workspace import Workspace

from .conftest import SHOTS


@contextmanager
def _serving(store: Path, poll_ms: int = 5000, root_path: str = "", proxied: bool = False) -> Iterator[str]:
    """The app over ``store`` on a free local port (uvicorn in a thread), its address; ``root_path`` and
    ``proxied`` as ``preflog serve`` passes them (docs/deploy.md)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn_server(create_app(store, poll_ms=poll_ms), "127.0.0.1", port, root_path, proxied)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(5)
        assert not thread.is_alive(), "uvicorn did not exit (an update stream kept it waiting)"


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    with _serving(tmp_path / "store") as base:
        yield base, tmp_path / "store"


@contextmanager
def _two_phones(browser: Any, store: Path, poll_ms: int) -> Iterator[tuple[Any, Any]]:
    """Two phones at a pulka the first one starts on a server over ``store`` (``poll_ms`` as served)."""
    first, second = _phone(browser), _phone(browser)
    try:
        with _serving(store, poll_ms=poll_ms) as base:
            a, b = first.new_page(), second.new_page()
            b.goto(_start(a, base))
            yield a, b
    finally:
        first.close()
        second.close()


def _phone(browser: Any) -> Any:
    return browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True,
                               is_mobile=True)


def _phone_page(browser: Any) -> tuple[Any, Any, list[str]]:
    """A phone's context, its page, and the list the page's script errors and logged errors go to."""
    context = _phone(browser)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return context, page, problems


def _start(page: Any, base: str, names: tuple[str, ...] = ("Запад", "Восток", "Юг")) -> str:
    page.goto(base + "/new")
    for i, name in enumerate(names):
        page.fill(f"#p{i}", name)
    page.fill("#pool", "14")
    page.tap("#start")
    page.wait_for_url("**/pulka/live-*")
    url: str = page.url
    return url


def _raspasy(page: Any, tricks: tuple[tuple[str, str], ...]) -> None:
    page.get_by_role("button", name="Raspasy").tap()
    for name, n in tricks:
        _tap_row(page, "tricks", name, n)


def _tap_row(page: Any, container: str, label: str, text: str) -> None:
    """Tap the button ``text`` in the row of ``container`` headed ``label`` (a player's name)."""
    row = page.locator(f"#{container} .row").filter(has=page.locator("b", has_text=label))
    row.get_by_role("button", name=text, exact=True).tap()


def test_start_a_pulka_and_enter_two_deals_by_tapping(browser: Any, served: tuple[str, Path]) -> None:
    from playwright.sync_api import expect

    base, store = served
    context, page, problems = _phone_page(browser)
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(base) else None)
    try:
        _start(page, base)
        assert page.locator("#entry").is_visible()

        # deal 1: raspasy, Запад 1, Восток 9, Юг 0
        page.get_by_role("button", name="Raspasy").tap()
        for name, n in (("Запад", "1"), ("Восток", "9"), ("Юг", "0")):
            _tap_row(page, "tricks", name, n)
        page.tap("#enter")
        expect(page.locator("#dealno")).to_have_text("2")

        # a tap target is at least 44 px high (the tricks' buttons, the players', the contracts')
        page.get_by_role("button", name="Contract").tap()
        boxes = [b.bounding_box() for b in page.locator("#entry button").all() if b.is_visible()]
        assert boxes and min(b["height"] for b in boxes) >= 44 and max(b["x"] + b["width"] for b in boxes) <= 390

        # deal 2: Запад 6♠, Восток whists, Юг passes; tricks 3 / 5 / 2
        page.locator("#declarer").get_by_role("button", name="Запад").tap()
        page.locator("#contracts").get_by_role("button", name="6s", exact=True).tap()
        _tap_row(page, "calls", "Восток", "whist")
        _tap_row(page, "calls", "Юг", "pass")
        for name, n in (("Запад", "3"), ("Восток", "5"), ("Юг", "2")):
            _tap_row(page, "tricks", name, n)
        page.tap("#enter")
        expect(page.locator("#dealno")).to_have_text("3")
        # the record's block with the players' names (the record says seats A/B/C)
        assert page.text_content("#last") == ("Deal 2: dealer Запад\nContract: Запад 6s\nWhist: Восток whist, "
                                              "Юг pass\nTricks: Запад 3, Восток 5, Юг 2")

        # the settlement the page shows (exact: З −46, В −20, Ю +66, as computed by hand in
        # tests/serve/test_app.py::test_deals_entered_redraw_the_sheet)
        rows = page.locator("#settle tbody tr").all_inner_texts()
        cells = {r.split("\t")[0]: r.split("\t")[1:] for r in rows}
        assert cells["Запад"][0] == "−46" and cells["Восток"][0] == "−20" and cells["Юг"][0] == "66"   # as on paper: −
        # the sheet redrew: the pulya of Юг (1) and the whists on Запад (20) are drawn
        svg = page.inner_html("#sheet")
        assert "<svg" in svg and ">20<" in svg
        # an impossible entry is refused with the audit's sentence, and nothing is entered
        page.get_by_role("button", name="Raspasy").tap()
        for name, n in (("Запад", "5"), ("Восток", "5"), ("Юг", "5")):
            _tap_row(page, "tricks", name, n)
        page.tap("#enter")
        page.wait_for_selector("#msg.err")
        assert "sums to 15, expected 10" in page.text_content("#msg")
        assert page.text_content("#dealno") == "3"
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "serve-phone.png"), full_page=True)
        # ending takes two taps; then the entry goes away
        page.tap("#end")
        assert page.is_visible("#entry")
        page.tap("#end")
        expect(page.locator("#entry")).to_be_hidden()
    finally:
        context.close()
    # the one refused entry is the browser's one logged failure (422); no script error, nothing fetched elsewhere
    assert [p for p in problems if "status of 422" not in p] == [] and len(problems) == 1
    assert outside == []
    (pid,) = Workspace(store).ids()
    (audited,) = Workspace(store).audit(pid)
    assert audited.result.findings == [] and len(audited.result.deals) == 2


def test_two_phones_enter_the_same_deal_the_second_is_shown_the_conflict(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    store = tmp_path / "store"
    first, second = _phone(browser), _phone(browser)
    try:
        with _serving(store, poll_ms=600_000) as base:  # no polling here: the second phone learns on entering
            a, b = first.new_page(), second.new_page()
            url = _start(a, base)
            b.goto(url)
            _raspasy(a, (("Запад", "1"), ("Восток", "9"), ("Юг", "0")))
            _raspasy(b, (("Запад", "2"), ("Восток", "8"), ("Юг", "0")))
            a.tap("#enter")
            expect(a.locator("#dealno")).to_have_text("2")
            b.tap("#enter")
            expect(b.locator("#msg.err")).to_contain_text("another entry was made first")
            expect(b.locator("#dealno")).to_have_text("2")  # shown the sheet as it stands: deal 1 is a's
            assert b.locator("#settle tbody tr").first.inner_text().split("\t")[1] == "20"
    finally:
        first.close()
        second.close()
    (pid,) = Workspace(store).ids()
    (audited,) = Workspace(store).audit(pid)
    assert len(audited.result.deals) == 1 and audited.result.deals[0].outcome.tricks == (1, 9, 0)


def test_the_other_phones_see_a_new_deal(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    first, second = _phone(browser), _phone(browser)
    try:
        with _serving(tmp_path / "store", poll_ms=600_000) as base:  # no polling: the server-sent events tell b
            a, b = first.new_page(), second.new_page()
            b.goto(_start(a, base))
            _raspasy(a, (("Запад", "1"), ("Восток", "9"), ("Юг", "0")))
            a.tap("#enter")
            expect(b.locator("#dealno")).to_have_text("2", timeout=5000)
            expect(b.locator("#msg")).to_contain_text("updated from another device")
            _raspasy(a, (("Запад", "2"), ("Восток", "8"), ("Юг", "0")))
            a.tap("#enter")
            expect(b.locator("#dealno")).to_have_text("3", timeout=5000)   # and again, on the same stream
    finally:
        first.close()
        second.close()


def test_a_deal_corrected_by_tapping_redraws_the_sheet_and_the_other_phone_sees_it(browser: Any,
                                                                                   tmp_path: Path) -> None:
    from playwright.sync_api import expect

    store = tmp_path / "store"
    with _two_phones(browser, store, 300) as (a, b):
        # deal 1 entered wrong (Восток 8, Юг 1: Юг's pulya is not written), then corrected to 1 / 9 / 0
        _raspasy(a, (("Запад", "1"), ("Восток", "8"), ("Юг", "1")))
        a.tap("#enter")
        expect(a.locator("#dealno")).to_have_text("2")
        a.locator("#fix").get_by_role("button", name="1", exact=True).tap()
        expect(a.locator("#entryhead")).to_have_text("Correct deal")
        _raspasy(a, (("Запад", "1"), ("Восток", "9"), ("Юг", "0")))
        SHOTS.mkdir(exist_ok=True)   # the phone correcting deal 1 (README, docs/serve.md)
        a.locator("#entry").screenshot(path=str(SHOTS / "serve-phone-correct.png"))
        a.tap("#enter")
        expect(a.locator("#msg.ok")).to_have_text("Deal 1 corrected")
        expect(a.locator("#dealno")).to_have_text("2")   # still one deal on the sheet
        # the history keeps the first entry, marked as no longer counting, and the correction with its time
        items = a.locator("#history li")
        expect(items).to_have_count(2)
        expect(items.nth(0)).to_contain_text("no longer counts")
        expect(items.nth(0)).to_contain_text("Tricks: A 1, B 8, C 1")
        expect(items.nth(1)).to_contain_text("Corrects: deal 1 at 20")
        # the other phone redraws with the correction (it polls)
        expect(b.locator("#history li")).to_have_count(2, timeout=5000)
        expect(b.locator("#last")).to_contain_text("Tricks: Запад 1, Восток 9, Юг 0")
        # undo: strike deal 1 out (two taps): the sheet is blank again
        a.locator("#fix").get_by_role("button", name="1", exact=True).tap()
        a.tap("#strike")
        a.tap("#strike")
        expect(a.locator("#msg.ok")).to_have_text("Deal 1 struck out")
        expect(a.locator("#dealno")).to_have_text("1")
    (pid,) = Workspace(store).ids()
    (audited,) = Workspace(store).audit(pid)
    assert audited.result.findings == [] and audited.result.deals == []
    assert len(Workspace(store).store().read(pid)) == 1 + 2 + 3 + 2   # nothing edited: start, 3 blocks appended


def _upload(context: Any, base: str, name: str) -> Any:
    """A page of the archive in ``context`` that uploaded the example record ``name`` (data/examples)."""
    page = context.new_page()
    page.goto(base + "/")
    page.set_input_files("#upload", str(Path(__file__).resolve().parents[2] / "data" / "examples" / name))
    page.tap("#send")
    return page


def test_a_record_file_is_imported_from_the_archive_page(browser: Any, served: tuple[str, Path]) -> None:
    from playwright.sync_api import expect

    base, store = served
    context = _phone(browser)
    try:
        page = _upload(context, base, "seed003-settlement.pref")
        # the import's row of the store's ledger: seed003-settlement's 12 deals, all clean
        expect(page.locator("#msg.ok")).to_have_text("Pulkas imported: 1 — 12 deals clean, 0 with findings")
        page.locator("#imported a").tap()
        page.wait_for_url("**/pulka/seed003-settlement")
        expect(page.locator("#settle tbody tr").first).to_contain_text("31")
    finally:
        context.close()
    assert Workspace(store).ids() == ["seed003-settlement"]


def test_an_upload_with_audit_findings_says_so_on_the_page(browser: Any, served: tuple[str, Path]) -> None:
    from playwright.sync_api import expect

    base, _store = served
    context = _phone(browser)
    try:
        page = _upload(context, base, "seed001-bidding-illegal.pref")
        # six pulkas, each with one illegal auction; the first's is at the file's line 8 ("Auction: A 6s, B 7s")
        expect(page.locator("#msg.err")).to_have_text(
            "Pulkas imported: 6 — 0 deals clean, 6 with findings: bid_not_above_last 1, hold_not_allowed 1, "
            "jump_bid 1, miser_not_beaten 1, miser_not_bid 1, miser_not_first_call 1; seed001-illegal-jump: "
            "audit findings: 1, the first at line 8 (deal 1): 7s skips ladder steps; the next step is 6c (no jumps)")
        expect(page.locator("#imported li").first).to_contain_text("imported · deals: 1 · audit findings: 1, the first")
    finally:
        context.close()


def test_seed_003s_pulka_tapped_deal_by_deal_settles_as_the_seed_says(browser: Any, served: tuple[str, Path],
                                                                       tmp_path: Path) -> None:
    """data/examples/seed003-settlement.pref, every deal tapped on a phone: the seed's settlement shows
    (method 1 +31 / −30 / −1, exact +30⅔ / −29⅓ / −1⅓: docs/rules.md §B1), the stored pulka audits clean,
    and its exported record imports again to the same events."""
    from playwright.sync_api import expect

    from preflog.record.api import read_records

    from ..serve.test_app import SEED003

    base, store = served
    names = ("Запад", "Восток", "Юг")
    context = _phone(browser)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        url = _start(page, base)
        for k, deal in enumerate(SEED003, start=1):
            expect(page.locator("#dealno")).to_have_text(str(k))
            if deal["kind"] == "raspasy":
                page.get_by_role("button", name="Raspasy").tap()
            else:
                page.get_by_role("button", name="Contract").tap()
                page.locator("#declarer").get_by_role("button", name=names[deal["declarer"]]).tap()
                page.locator("#contracts").get_by_role("button", name=deal["contract"], exact=True).tap()
                for seat, call in deal["calls"].items():
                    _tap_row(page, "calls", names[int(seat)], call)
            for seat, n in enumerate(deal["tricks"] or ()):
                _tap_row(page, "tricks", names[seat], str(n))
            page.tap("#enter")
        expect(page.locator("#dealno")).to_have_text(str(len(SEED003) + 1))
        rows = page.locator("#settle tbody tr").all_inner_texts()
        heads = page.locator("#settle thead th").all_inner_texts()
        cells = {r.split("\t")[0]: dict(zip(heads[1:], r.split("\t")[1:], strict=True)) for r in rows}
        method1 = next(h for h in heads if "1" in h)
        exact = next(h for h in heads if h.lower().startswith("exact"))
        assert {p: cells[p][method1] for p in names} == {"Запад": "31", "Восток": "−30", "Юг": "−1"}
        assert {p: cells[p][exact] for p in names} == {"Запад": "30⅔", "Восток": "−29⅓", "Юг": "−1⅓"}
        record = page.request.get(url + "/record").text()
    finally:
        context.close()
    assert problems == []
    (pid,) = Workspace(store).ids()
    (audited,) = Workspace(store).audit(pid)
    assert audited.result.findings == [] and len(audited.result.deals) == len(SEED003)
    (path := tmp_path / "exported.pref").write_text(record, encoding="utf-8")
    again = Workspace(tmp_path / "again")
    again.import_paths([path])
    (stored,) = [again.store().read(i) for i in again.ids()]
    assert stored == Workspace(store).store().read(pid)
    assert [list(r.events) for r in read_records(record)] == [list(stored)]
