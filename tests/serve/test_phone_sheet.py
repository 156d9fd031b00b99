"""Issue 39, item 1, without a browser: the pulka page of ``preflog serve`` carries the portrait drawing
(``sheet --svg --portrait``) beside the paper one, the phone's one drawn 370 px wide (1:1 on a 390 px
phone, its page's margins 8 px a side) with no text under 12 px, for every family and long names; the
live state carries it too, redrawn after each deal. (The browser test tests/browser/test_serve_sheet.py
measures the same as rendered.)"""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

from preflog.render.sheet_svg import PORTRAIT
from preflog.serve import create_app

from ..browser.names import ALEXANDRA
from ..browser.names import MAXIMILIAN
from ..browser.names import table_store
from .conftest import csrf

SVG = re.compile(r"<svg\b.*?</svg>", re.S)


def _sizes(svg: str) -> list[tuple[float, str]]:
    return [(float(size), text) for size, text in re.findall(r'<text [^>]*font-size="([\d.]+)"[^>]*>([^<]*)<', svg)]


def test_every_pulka_page_carries_a_portrait_sheet_of_12_px_text(tmp_path: Path) -> None:
    store, ids = table_store(tmp_path)
    with TestClient(create_app(store)) as c:
        page = c.get("/")
        assert page.status_code == 200
        for case, pid in ids.items():
            html = c.get(f"/pulka/{pid}").text
            paper, portrait = SVG.findall(html)
            assert re.search(r'data-shape="(paper|list)"', paper), case
            assert re.search(r'data-shape="(list-)?portrait"', portrait), case
            assert f'width="{PORTRAIT}"' in portrait and PORTRAIT + 2 * 8 <= 390
            sizes = _sizes(portrait)
            assert len(sizes) > 20, case   # the drawing's texts were all found
            small = [(s, t) for s, t in sizes if s < 12]
            assert not small, f"{case}: {small[:5]}"
            shown = " ".join(t for _, t in sizes)
            assert ALEXANDRA in shown and MAXIMILIAN in shown, case   # the settlement writes them whole
            if case == "table-croatian":   # her group is too narrow for her name: the list's head writes it
                assert f"B \u00b7 {ALEXANDRA}" in shown and "B \u00b7 А.К." in shown
            state = c.get(f"/api/pulka/{pid}").json()
            assert state["portrait"] == portrait and state["svg"] == paper
        # the phone is shown the portrait one, a wider screen the paper one (serve_base.html)
        assert "@media (max-width:900px){.sheet .paper{display:none}.sheet .portrait{display:block}}" in html


def test_a_deal_entered_redraws_the_portrait_sheet(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "store")) as c:
        c.get("/new")
        r = c.post("/api/pulkas", json={"players": [ALEXANDRA, MAXIMILIAN, "Юг"], "rules": "sochi", "pool": 30},
                   headers=csrf(c))
        assert r.status_code == 201, r.text
        pid = r.json()["id"]
        before = c.get(f"/api/pulka/{pid}").json()
        # raspasy 1 / 9 / 0: gora 1 and 9 for the first two (one per trick), pulya 1 for Юг, who took none
        r = c.post(f"/api/pulka/{pid}/deals", headers=csrf(c),
                   json={"expected_seq": before["seq"], "deal": {"kind": "raspasy", "tricks": [1, 9, 0]}})
        assert r.status_code == 201, r.text
        after = r.json()["portrait"]
        assert after != before["portrait"]
        drawn = {t for _, t in _sizes(after)}
        assert {"1", "9"} <= drawn and not {"1", "9"} & {t for _, t in _sizes(before["portrait"])}
        assert min(s for s, _ in _sizes(after)) >= 12
