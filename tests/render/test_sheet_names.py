"""Issue 27: the drawn sheet with real names, without a browser: names shorten as on paper, the panels
keep their share, labels stay in their zones by the width estimate, the centre holds pool and whist
price (a Croatian one its column start), exact results are mixed numbers, each family in its words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from preflog.render.sheet_svg import initials
from preflog.render.sheet_svg import mixed
from preflog.render.sheet_svg import name_forms
from preflog.render.sheet_svg import render_html
from preflog.render.sheet_svg import render_svg
from preflog.render.sheet_svg import text_width
from preflog.render.words import Lang
from preflog.render.words import words_for
from tests.browser.names import LONG
from tests.browser.names import long_sheet

TAG = re.compile(r'<text ([^>]*)>([^<]*)</text>')
ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def text_elements(svg: str) -> list[tuple[str, str, bool, str, str, str]]:
    """(x, font size, bold, anchor, zone, text) of every <text>."""
    out = []
    for attrs, text in TAG.findall(svg):
        a = dict(ATTR.findall(attrs))
        out.append((a["x"], a["font-size"], a.get("font-weight") == "bold", a.get("text-anchor", "start"),
                    a.get("data-zone", ""), text))
    return out


RECT = re.compile(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"[^>]*? data-zone="([^"]+)"/>')


@pytest.mark.parametrize(("value", "written"), [
    (12, "12"), ("-7", "\u22127"), ("542/3", "180\u2154"), ("-92/3", "\u221230\u2154"), ("1/2", "\u00bd"),
    ("15/7", "2\u00b9\u2044\u2087"), ("-1/7", "\u2212\u00b9\u2044\u2087"), ("R\u2713", "R\u2713")])
def test_exact_results_are_mixed_numbers(value: object, written: str) -> None:
    assert mixed(value) == written


def test_names_shorten_as_on_paper() -> None:
    assert initials("Александр Петров") == "А.П."
    assert initials("Мария Иванова-Кузнецова") == "М.И.-К."
    assert initials("Maximilian von Hohenberg-Schwarzenau") == "M.v.H.-S."
    assert initials("Юг") == "Юг"
    forms = name_forms(["Александр Петров", "Алексей Петров", "Maximilian von Hohenberg-Schwarzenau"])
    # "А.П." and "Ал..." would not tell the first two apart: their shared forms are left out
    assert forms["Александр Петров"] == ["Александр Петров", "Александр П.", "Александр"]
    assert forms["Maximilian von Hohenberg-Schwarzenau"] == [
        "Maximilian von Hohenberg-Schwarzenau", "Maximilian v.H.-S.", "Maximilian", "M.v.H.-S."]


def test_each_family_in_its_words() -> None:
    ru, hr, sl = words_for("russian", "sochi"), words_for("croatian", "croatian"), words_for("croatian", "slovenian")
    assert (ru.pool, ru.gora, ru.paper_methods, ru.centre_is_start) == ("pulya", "gora", True, False)
    ru = words_for("russian", "sochi", Lang.RU)
    assert (ru.pool, ru.gora, ru.settlement, ru.exact, ru.method1, ru.method2, ru.money) == (
        "пуля", "гора", "Расчёт", "точно", "способ 1", "способ 2", "в деньгах")
    assert words_for("croatian", "slovenian", Lang.RU) == sl  # the game's own words in any language
    assert (hr.pool, hr.gora, hr.refe, hr.hat, hr.points, hr.paper_methods) == (
        "stupac", None, "refe", "šešir", "bule", False)
    assert sl.refe == "radlc" and sl.gora_zone == "radlc · šešir" and hr.gora_zone == "refe · šešir"


@pytest.mark.parametrize("portrait", [False, True])
@pytest.mark.parametrize("case", list(LONG))
def test_every_text_fits_its_zone_by_the_estimate(tmp_path: Path, case: str, portrait: bool) -> None:
    """By the renderer's own width estimate every text stays inside the zone it names and no side panel
    grows past its share (the estimate is an upper bound of the real fonts: the browser tests check those);
    a portrait sheet is 370 px wide with no text under 12 px."""
    sheet = long_sheet(case, tmp_path)
    svg = render_svg(sheet, Lang.RU, portrait)
    frames = {z: (float(x), float(w)) for x, w, z in RECT.findall(svg)}
    n = len(sheet["players"])
    side = (n + 1) * 104
    if 'data-shape="paper"' in svg:
        for panel in ("left", "right"):
            widths = [w for z, (_, w) in frames.items() if re.fullmatch(panel + r"-\d", z)]
            assert len(widths) == n + 1 and abs(sum(widths) - side) < 0.5
    texts = text_elements(svg)
    assert len(texts) > 40
    for x, size, bold, anchor, zone, text in texts:
        fx, fw = frames[zone]
        w = text_width(text.replace("&amp;", "&"), float(size), bool(bold))
        left = float(x) - {"start": 0, "middle": w / 2, "end": w}[anchor]
        assert fx - 0.1 <= left and left + w <= fx + fw + 0.1, f"{text!r} leaves {zone}"
        if portrait:
            assert float(size) >= 12, f"{text!r} at {size} px on a portrait sheet"
    if portrait:
        assert re.search(r'<svg [^>]*width="370"', svg)


def test_the_centre_shows_pool_and_whist_price_or_the_column_start(tmp_path: Path) -> None:
    def centre(svg: str) -> list[str]:
        return [t for *_, zone, t in text_elements(svg) if zone == "centre"]

    ru = long_sheet("russian-3p", tmp_path)
    assert centre(render_svg(ru)) == ["pool", str(ru["pool"]), f"whist {ru['whist_price']}", "35 deals"]
    assert centre(render_svg(ru, Lang.RU)) == ["пуля", str(ru["pool"]), f"вист {ru['whist_price']}", "сдач: 35"]
    assert centre(render_svg(ru, portrait=True)) == centre(render_svg(ru))
    hr = long_sheet("croatian", tmp_path)
    assert centre(render_svg(hr)) == ["start \u221230 \u00b7 whist 1 \u00b7 47 deals",
                                      "\u2014 refe \u00b7 \u2229 šešir"]


def test_croatian_and_slovenian_pages_say_no_russian_word(tmp_path: Path) -> None:
    """No pulya, gora or paper method on a Croatian or Slovenian page; the Slovenian refe is a radlc."""
    for case, refe in (("croatian", "refe"), ("slovenian", "radlc")):
        html = render_html([long_sheet(case, tmp_path)])
        for word in ("pulya", "gora", "пуля", "гора", "висты", "method", "Pool", "[Pool]"):
            assert word not in html, (case, word)
        assert "stupac" in html and "juha written" in html and f"\u2014 {refe}" in html and "\u2229 šešir" in html
        assert "exact (bule)" in html
    ru = render_html([long_sheet("russian-3p", tmp_path)], Lang.RU)
    assert all(w in ru for w in ("пуля", "гора", "способ 1", "способ 2", "висты на"))


def test_a_long_one_word_name_is_cut_after_a_few_letters_never_to_one(tmp_path: Path) -> None:
    """Issue 39 item 7: «Константинопольский» (one word, 19 letters) shrank to ``К.`` on the sheet (``visty
    on К.``) and in the page's tables; cut as people cut it, after 8, 5 or 4 letters, it still says who."""
    one = "Константинопольский"
    assert name_forms([one])[one] == [one, "Констант.", "Конст.", "Конс."]
    players = ["Александра Константинопольская", "Maximilian Württemberg-Hohenzollern", one]
    from preflog.application.entry import table_names
    assert table_names(players) == ["Александра К.", "Maximilian W.-H.", "Констант."]
    # a cut two players share is left out: each keeps only the forms that tell them apart
    assert name_forms([one, "Константинов"]) == {one: [one], "Константинов": ["Константинов"]}
    record = Path(__file__).resolve().parents[2] / "data" / "demo" / "sochi-3p.pref"
    text = record.read_text(encoding="utf-8").split("\n[Players ")[0]
    text = re.sub(r'\[Players "[^"]*"\]', f'[Players "{", ".join(players)}"]', text, count=1)
    path = tmp_path / "one-word.pref"
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    from preflog.views.json import sheet_json
    from preflog.workspace import Workspace
    (audited,) = Workspace(tmp_path / "store").audit(str(path))
    sheet = sheet_json(audited)
    for portrait in (False, True):
        texts = [t for *_, t in text_elements(render_svg(sheet, portrait=portrait))]
        assert not any(t == "К." or t.endswith(" on К.") for t in texts), texts   # "Александра К." is hers
        # the paper sheet's narrow panels write his visty with his name cut; the portrait has room for it
        assert any(re.search(r"Конс(т|тант)?\.$", t) for t in texts) is not portrait, texts


def test_the_html_sheet_names_its_pulka_once_with_players_date_and_money(tmp_path: Path) -> None:
    """Issue 39 item 7: the HTML sheet's header said the id twice (heading and section) and nothing of the
    players, the date or the money. The demo Croatian pulka 013 (2023-07-16, 47 deals) settles at
    −60 / +272 / −212 (its settlement's money at 1 a point, whole already)."""
    sheet = long_sheet("croatian", tmp_path)
    assert sheet["date"] == "2023-07-16"
    html = render_html([sheet])
    body = html.split("<body", 1)[1]
    assert re.findall(r"<h[12]>(.*?)</h[12]>", body) == ["demo-croatian-3p-013"]
    players = ", ".join(LONG["croatian"][2])
    assert f'<p class="facts">{players} · 2023-07-16 · croatian · 47 deals</p>' in body
    money = sheet["settlement"]["money"]
    assert list(money.values()) == [-60, 272, -212]
    assert ('<p class="money" data-words="sheet">money (× 1): Krešimir Horvat-Babić −60, Ivana Kovačević-Marković 272, '
            'Zvonimir Šimunović Petrinjski −212</p>') in body
    two = render_html([sheet, long_sheet("russian-3p", tmp_path)]).split("<body", 1)[1]
    assert re.findall(r"<h[12]>(.*?)</h[12]>", two) == ["preflog · Sheet", "demo-croatian-3p-013", "demo-sochi-3p-001"]
