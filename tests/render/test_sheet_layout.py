"""The sheet drawing without a browser: terms per family, zones per opponent, settlement labels, widths."""

from __future__ import annotations

import re
from pathlib import Path

from preflog.render.sheet_svg import _widths
from preflog.render.sheet_svg import render_svg
from preflog.views.json import sheet_json
from preflog.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]


def _sheet(record: str, pulka: str, tmp: Path) -> dict:
    audited = Workspace(tmp / "st").audit(str(ROOT / record))
    return sheet_json(next(a for a in audited if a.loaded.id == pulka))


def texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_russian_sheet_zones_and_settlement(tmp_path: Path) -> None:
    """Seed 003's sample: three players, a visty zone on each opponent (3 × 2), one pulya and one gora
    each; the settlement rows are labelled and method 1 of З (Запад) is 31 (the seed's figure)."""
    svg = render_svg(_sheet("data/examples/seed003-settlement.pref", "seed003-settlement", tmp_path))
    t = texts(svg)
    assert sum(x.startswith("висты на ") for x in t) == 6
    assert t.count("пуля") == 3 and t.count("гора") == 3
    for label in ("exact (visty)", "method 1", "method 2", "money (× 1)"):
        assert any(x.startswith(label) for x in t)
    assert "31" in t and "30\u2154" in t  # exact 92/3 written as a mixed number, 30⅔


def test_croatian_sheet_uses_its_own_terms(tmp_path: Path) -> None:
    """No Russian word on a Croatian sheet; its column starts at −30 (the starting line of the record) and
    it shows no paper methods."""
    sheet = _sheet("data/demo/croatian-3p.pref", "demo-croatian-3p-013", tmp_path)
    t = texts(render_svg(sheet))
    assert not any(w in x for x in t for w in ("пуля", "гора", "висты"))
    assert t.count("stupac") == 3 and sum(x.startswith("juha na ") for x in t) == 6
    assert "\u221230." in t and not any(x.startswith("method") for x in t)


def test_four_players_have_three_visty_zones_each(tmp_path: Path) -> None:
    t = texts(render_svg(_sheet("data/demo/sochi-4p.pref", "demo-sochi-4p-038", tmp_path)))
    assert sum(x.startswith("висты на ") for x in t) == 12


def test_widths_share_the_panel_by_content() -> None:
    """Contents 0, 0, 100, 300 in 400 px with 60 px minimums: the empty zones keep 60 each, the other
    two share the remaining 280 as 1 : 3 (70 and 210)."""
    w = _widths([0, 0, 100, 300], 400, [60, 60, 60, 60])
    assert [round(x) for x in w] == [60, 60, 70, 210] and abs(sum(w) - 400) < 1e-9
