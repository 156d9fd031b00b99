"""A Serbian pulka is drawn in Serbian words (bula, supe, refa, šešir; the bula counting down from 60), and
``preflog serve``'s live entry speaks its terms (dođem, dalje, zovem; pik … sans, igra herc, igra betl)."""

from __future__ import annotations

import re
from pathlib import Path

from preflog.application.entry import CallEntered
from preflog.application.entry import DealEntry
from preflog.application.entry import DealKindEntered
from preflog.application.entry import Table
from preflog.application.entry import deal_events
from preflog.engine.families import family_of
from preflog.model.bidcodes import IGRA
from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.events import BidMade
from preflog.model.events import ContractDeclared
from preflog.model.events import WhistCalled
from preflog.record.api import write_text
from preflog.render.sheet_svg import render_html
from preflog.render.sheet_svg import render_svg
from preflog.render.words import words_for
from preflog.rules.presets import resolve
from preflog.sim import simulate_pulka
from preflog.views.json import sheet_json
from preflog.workspace import Workspace

TEXT = re.compile(r"<text [^>]*>([^<]*)</text>")


def serbian_sheet(tmp: Path) -> dict[str, object]:
    path = tmp / "serbian.pref"
    path.write_text(write_text(simulate_pulka("serbian", 3, 1, names=("Ana", "Bora", "Ceca"))), encoding="utf-8")
    audited = Workspace(tmp / "store").audit(str(path))
    assert len(audited) == 1
    return sheet_json(audited[0])


def test_the_words_of_the_preset() -> None:
    w = words_for("croatian", "serbian+no-subkontra")
    assert (w.pool, w.visty.format("B"), w.written_short, w.refe, w.hat, w.centre) == (
        "bula", "supe na B", "supe", "refa", "šešir", "bula")
    assert w.column_as_bula and not words_for("croatian", "croatian").column_as_bula


def test_the_sheet_is_drawn_in_serbian_words(tmp_path: Path) -> None:
    """The list's head says the bula of 60 (not the column −60), each player's column is headed bula and
    his others' supe; the refa and the šešir in the legend; no Croatian or Russian word."""
    pk = serbian_sheet(tmp_path)
    svg = render_svg(pk)
    texts = TEXT.findall(svg)
    assert texts[0].startswith("bula 60 \u00b7 ") and "\u2014 refa \u00b7 \u2229 šešir" in texts
    assert texts.count("bula") == 3 and "na A" in texts
    # the start row writes each bula as 60; the last total is the column's negative
    assert texts.count("60") >= 3
    shown = re.sub(r"<[^>]*>", " ", svg)   # the text and the titles, not the tags' own names
    assert "refa (" in shown
    for word in ("stupac", "juha", "refe", "pulya", "gora", "start"):
        assert word not in shown, word
    html = render_html([pk])
    assert "supe written" in html and "exact (bule)" in html and "stupac" not in html
    last = {p: -v for p, v in pk["totals"]["pulya"].items()}
    assert sum(last.values()) == 0   # the bulas closed


def test_live_entry_speaks_serbian() -> None:
    """The page's calls and contracts in Serbian words; a deal entered as «igra herc», «dođem», «dalje» is
    the igra call, the contract 4 and a whist and a pass."""
    family = family_of(resolve("serbian"))
    terms = family.entry_terms("serbian")
    assert terms is not None and terms.call_words == {CALL_WHIST: "dođem", CALL_PASS: "dalje", 3: "zovem"}
    texts = [c.text for c in family.entry_contracts("serbian")]
    assert texts == ["pik", "karo", "herc", "tref", "betl", "sans", "igra pik", "igra karo", "igra herc",
                     "igra tref", "igra betl", "igra sans"]
    assert [c.text for c in family.entry_contracts("croatian")][:2] == ["2", "3"]
    table = Table(("Ana", "Bora", "Ceca"), resolve("serbian"), (2,), False)
    assert table.terms("serbian")["calls"] == {"whist": "dođem", "pass": "dalje", "invite": "zovem"}
    assert [c["text"] for c in table.contracts()][8] == "igra herc"
    entry = DealEntry(DealKindEntered.CONTRACT, dealer=2, declarer=0, contract="igra herc",
                      calls=((1, CallEntered.WHIST), (2, CallEntered.PASS)), tricks=(6, 4, 0))
    events = deal_events(entry, table)
    assert BidMade(player=0, bid=IGRA) in events and ContractDeclared(player=0, contract=4) in events
    assert [e.call for e in events if isinstance(e, WhistCalled)] == [CALL_WHIST, CALL_PASS]
