"""The HTML page is self-contained and holds the three kinds of charts."""

from __future__ import annotations

import re
from pathlib import Path

from preflog.reports import html as report_html
from preflog.templates import counted
from preflog.workspace import Workspace

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def test_page_has_svg_charts_and_no_external_resources(con, tmp_path):
    """Contract chart: 5 contracts (6s 6d 7h 8s miser) → 5 bars, each with a whisker group; player
    charts (4 players); 4 variant-delta charts; one script, the page's own inline table sorter (no src), no
    external href/src."""
    page = report_html.render(con, title="Test <stats>")
    assert page.startswith("<!DOCTYPE html>") and "Test &lt;stats&gt;" in page
    svgs = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    assert len(svgs) == 1 + 2 + 4
    contracts = svgs[0]
    assert "Declarer success by contract" in contracts
    assert contracts.count("<rect") == 5 and contracts.count('class="whisker"') == 5
    assert all(f">{lab}<" in contracts for lab in ("6♠", "6♦", "7♥", "8♠", "miser"))
    assert "n=2" in contracts  # the 7♥ bar: two declarations
    assert svgs[1].count("<rect") == 4 and "Total result" in svgs[1]
    assert sum("Variant delta" in s for s in svgs) == 4
    assert re.findall(r"<script[^>]*>", page) == ["<script>"] and "src=" not in page
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    out = report_html.write(tmp_path / "r.html", con, preset="sochi")
    text = out.read_text()
    assert "Filters: preset=sochi" in text and "<svg" in text


def test_bar_chart_negative_values_and_whiskers():
    """A negative bar is drawn left of the zero line in the negative colour; whiskers need lo and hi."""
    svg = report_html.bar_chart(["a", "b"], [-2.0, 4.0], title="t")
    assert svg.count("#c0504d") == 1 and svg.count("#4a7ab5") == 1 and "whisker" not in svg
    svg2 = report_html.bar_chart(["a"], [0.5], lo=[0.2], hi=[0.8], percent=True, title="t")
    assert 'class="whisker"' in svg2 and "50%" in svg2


def test_tables_fold_intervals_and_rate_deltas_in_points(con):
    """Ann's declarer success 1/3 is one cell with its Wilson interval [0.0615, 0.7923]; no
    ``_lo``/``_hi`` header; no hand_game or refe column (no Croatian pulka); rate deltas are
    labelled in percentage points ("pp"), never as 0.0."""
    page = report_html.render(con)
    assert "<td class=\"ci\">0.33 <span class=\"iv\">[0.06–0.79]</span></td>" in page  # the interval may wrap
    assert "success lo" not in page and ">hand game<" not in page and ">refe rate<" not in page
    svgs = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    raspasy = next(s for s in svgs if "raspasy frequency" in s)
    assert " pp<" in raspasy


def test_bar_chart_margins_fit_labels():
    """The value text "1.0 " + 28 × "x" (32 characters at ~6.5 px) starts at x and must end inside the
    svg: x + 32 · 6.5 ≤ width (with the old fixed 90 px right margin it ran 118 px past the edge)."""
    svg = report_html.bar_chart(["a"], [1.0], title="t", notes=["x" * 28])
    width = int(re.search(r'width="(\d+)"', svg).group(1))
    x = float(re.search(r'<text x="([\d.]+)" y="[\d.]+">1.0 x{28}</text>', svg).group(1))
    assert x + 32 * 6.5 <= width


def test_bar_chart_notes_stay_with_their_bar_after_a_skipped_value():
    """Values 1, NaN, 3 with notes n=1, n=2, n=3: the NaN row is not drawn and its note goes with it,
    so the bar of "c" reads "3 n=3" (it read "3 n=2" when the notes were indexed after skipping)."""
    svg = report_html.bar_chart(["a", "b", "c"], [1.0, float("nan"), 3.0], title="t", notes=["n=1", "n=2", "n=3"])
    assert ">3.0 n=3<" in svg and ">1.0 n=1<" in svg and "n=2" not in svg and ">b<" not in svg


def test_booleans_read_as_words():
    assert report_html._cell(True) == "yes" and report_html._cell(False) == "no"
    import numpy  # pandas' own dependency: DataFrame rows hand out numpy.bool_

    assert report_html._cell(numpy.bool_(True)) == "yes"


def test_header_names_store_dates_filters_and_lists_the_sections(con):
    """The fixture's pulkas are dated 2024-03-01 and 2024-04-10 (tests/stats/conftest.py)."""
    page = report_html.render(con, store="/srv/club", preset="sochi")
    header = re.search(r"<header>.*?</header>", page, flags=re.S).group(0)
    assert "/srv/club" in header and "Filters: preset=sochi" in header
    assert "1 pulka · dated 2024-03-01 to 2024-03-01" in header  # the Sochi pulka only
    for anchor in re.findall(r'href="#([\w-]+)"', header):
        assert f'id="{anchor}"' in page
    assert "2 pulkas · dated 2024-03-01 to 2024-04-10" in report_html.render(con)


def test_one_pulka_is_counted_in_the_singular_and_croatian_contracts_are_written_with_their_suits(
        tmp_path: Path) -> None:
    """Issue 39 item 7: a report of one Russian pulka (digest-b1.6: A's 7♥) and one Croatian pulka (the
    seed 000 sample sheet: 3♦ and 5♣ declared) said "1 pulkas" under each player's bar and wrote the
    Croatian contracts ``3d (cr)``. Each player played each pulka once: "1 pulka"; both pulkas: "2 pulkas";
    the contracts with their suit signs and the family named in full."""
    ws = Workspace(tmp_path / "store")
    ws.import_paths([EXAMPLES / "digest-b1.6-worked-deal.pref", EXAMPLES / "seed000-sample-sheet.pref"], workers=1)
    ws.heal_projections()
    con = ws.connect(sandbox=True)
    try:
        page = report_html.render(con)
    finally:
        con.close()
    assert re.findall(r"\b\d+ pulkas?\b", page).count("1 pulka") == 6   # 3 players × 2 family charts
    facts = re.search(r'<p class="facts">(.*?)</p>', page, flags=re.S)
    assert "1 pulkas" not in page and facts is not None and " · 2 pulkas" in facts.group(1)   # both pulkas
    assert "(cr)" not in page and ">3d" not in page and ">5c" not in page
    assert ">3♦ Croatian<" in page and ">5♣ Croatian<" in page and ">7♥ Russian<" in page
    assert "<td>3♦</td>" in page


def test_counted_follows_the_plural_rule() -> None:
    assert [counted(n, "pulka", "pulkas") for n in (0, 1, 2, 21)] == ["0 pulkas", "1 pulka", "2 pulkas", "21 pulkas"]
    # Russian: 21 is "one" (21 пулька), 0 is not
    assert [counted(n, "пулька", "пулек", "ru") for n in (21, 0)] == ["21 пулька", "0 пулек"]
