"""The sheet drawing without a browser: terms per family, zones per opponent, settlement labels, widths."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from preflog.render.sheet_svg import _widths
from preflog.render.sheet_svg import render_html
from preflog.render.sheet_svg import render_svg
from preflog.render.words import Lang
from preflog.templates.i18n import Language
from preflog.templates.i18n import speaking
from preflog.views.json import sheet_json
from preflog.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]


def _sheet(record: str, pulka: str, tmp: Path) -> dict:
    audited = Workspace(tmp / "st").audit(str(ROOT / record))
    return sheet_json(next(a for a in audited if a.loaded.id == pulka))


def texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


SEED3 = ("data/examples/seed003-settlement.pref", "seed003-settlement")


def test_russian_sheet_zones_and_settlement(tmp_path: Path) -> None:
    """Seed 003's sample in Russian: three players, a visty zone on each opponent (3 × 2), one pulya and one
    gora each (and the pool's caption in the centre); the settlement is headed Расчёт, its rows labelled
    in Russian, and method 1 of З (Запад) is 31 (the seed's figure)."""
    svg = render_svg(_sheet(*SEED3, tmp_path), Lang.RU)
    t = texts(svg)
    assert sum(x.startswith("висты на ") for x in t) == 6
    assert t.count("пуля") == 4 and t.count("гора") == 3
    assert "Расчёт" in t and "вист 1" in t and "сдач: 12" in t
    for label in ("точно (висты)", "способ 1 (гора вистами)", "способ 2 (гора от средней)", "в деньгах (× 1)"):
        assert label in t
    assert "31" in t and "30\u2154" in t  # exact 92/3 written as a mixed number, 30⅔


def test_one_language_per_sheet(tmp_path: Path) -> None:
    """The English sheet (the default) has no Russian word but the players' names; the Russian one has no
    English label; the HTML page says its language."""
    sheet = _sheet(*SEED3, tmp_path)
    names = set(sheet["players"])

    def words(svg: str) -> list[str]:
        return [re.sub("|".join(names), "NAME", x) for x in texts(svg)]

    en = words(render_svg(sheet))
    assert not [x for x in en if re.search("[а-яё]", x, re.I)], en
    assert {"pulya", "gora", "Settlement", "exact (visty)", "method 1 (gora written as visty)", "pool",
            "whist 1", "12 deals"} <= set(en)
    assert en.count("visty on NAME") == 6
    ru = words(render_svg(sheet, Lang.RU))
    assert not [x for x in ru if re.search("[a-z]{3}", x) and "sochi" not in x], ru
    with speaking(Language.RU):   # the page's language (its catalog); Lang.RU: the sheet's Russian words
        page = render_html([sheet], Lang.RU)
    assert '<html lang="ru">' in page and "Как на бумаге" in page and "способ 1" in page
    assert "method" not in page and "Settlement" not in page


def test_a_pulya_closes_where_it_reaches_the_pool(tmp_path: Path) -> None:
    """Seed 003 (pool 14): by the record's own comments Запад closes his pulya at deal 10 (6♠ made, 12 →
    14), Восток at deal 11, Юг at deal 12; the closing entry is boxed on the paper and the portrait sheet,
    and the HTML table names the deal."""
    sheet = _sheet(*SEED3, tmp_path)
    for svg in (render_svg(sheet), render_svg(sheet, portrait=True)):
        closed = re.findall(r'data-role="closed"><title>([^<]*)</title>', svg)
        assert sorted(closed) == ["pulya: closed at deal 10", "pulya: closed at deal 11", "pulya: closed at deal 12"]
    ru = render_svg(sheet, Lang.RU)
    assert "пуля: закрыта на сдаче 10" in ru
    page = render_html([sheet])
    assert "14<br>closed at deal 10" in page
    four = _sheet("data/demo/sochi-4p.pref", "demo-sochi-4p-038", tmp_path)
    pool = four["pool"]
    want = sum(any(Fraction(str(d["pulya"][p])) >= pool for d in four["deals"]) for p in four["players"])
    assert render_svg(four).count('data-role="closed"') == want > 0


def test_croatian_sheet_is_the_list(tmp_path: Path) -> None:
    """The Croatian sheet is ruled as a list: a contract column (stupac) and two juha columns per player,
    headed by the other players' letters, a row per deal after the starting row of −30 each; no Russian
    word, no paper methods. Demo pulka 13: deal 2 gives everybody a refe (a stroke in each contract
    column); Gleb uses his at deal 4, Boris at deal 5 (crossed); Boris's column reaches 0 at deal 5 (the
    hat, ∩0)."""
    sheet = _sheet("data/demo/croatian-3p.pref", "demo-croatian-3p-013", tmp_path)
    svg = render_svg(sheet, Lang.RU)
    assert svg == render_svg(sheet)  # --lang ru: the Croatian game's own words all the same
    t = texts(svg)
    assert not any(w in x for x in t for w in ("пуля", "гора", "висты", "method", "pool"))
    assert t.count("stupac") == 3 and sorted(x for x in t if x.startswith("na ")) == [
        "na A", "na A", "na B", "na B", "na C", "na C"]
    assert t.count("\u221230") == 3 and "\u222904" not in t and "\u22290" in t
    assert len(re.findall(r'<rect [^>]*data-zone="col-\d+"', svg)) == 9
    assert svg.count('data-role="refe"') == 3
    used = re.findall(r'data-role="refe-used"><title>([^<]*)</title>', svg)
    assert "refe (2) \u2192 4" in used and "refe (2) \u2192 5" in used


def test_four_players_have_three_visty_zones_each(tmp_path: Path) -> None:
    t = texts(render_svg(_sheet("data/demo/sochi-4p.pref", "demo-sochi-4p-038", tmp_path), Lang.RU))
    assert sum(x.startswith("висты на ") for x in t) == 12


def test_widths_share_the_panel_by_content() -> None:
    """Contents 0, 0, 100, 300 in 400 px with 60 px minimums: the empty zones keep 60 each, the other
    two share the remaining 280 as 1 : 3 (70 and 210)."""
    w = _widths([0, 0, 100, 300], 400, [60, 60, 60, 60])
    assert [round(x) for x in w] == [60, 60, 70, 210] and abs(sum(w) - 400) < 1e-9
