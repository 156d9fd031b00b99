"""Issue 27: the deal viewer speaks each family's words: no pulya, gora or pool on a Croatian or Slovenian
page (the columns' start instead), stupac and juha there, radlc for the Slovenian refe; short paper forms
of long names for its narrow tables."""

from __future__ import annotations

import json
from pathlib import Path

from preflog.views.viewer import viewer_data
from tests.browser.names import long_audited


def test_croatian_and_slovenian_viewers_say_their_words(tmp_path: Path) -> None:
    for case, all_pass in (("croatian", "refe for everybody"), ("slovenian", "radlc for everybody")):
        data = viewer_data(long_audited(case, tmp_path).loaded)
        assert data["words"] == {"pool": "stupac", "gora": None, "visty": "juha na {}", "allPass": all_pass}
        texts = " ".join(s["text"] for s in data["steps"])
        assert "pulya" not in texts and "gora" not in texts and " pool " not in texts
        assert "columns start at \u221230" in data["steps"][0]["text"]


def test_russian_viewer_keeps_pulya_and_gora_and_shortens_names(tmp_path: Path) -> None:
    data = viewer_data(long_audited("russian-4p", tmp_path).loaded)
    assert data["words"] == {"pool": "pulya", "gora": "gora", "visty": "on {}", "allPass": "raspasy"}
    assert "pool 20" in data["steps"][0]["text"]
    assert data["short"] == ["Константин", "Мария И.-К.", "Maximilian", "Александр П."]
    assert all(len(s) <= 12 for s in data["short"])
    assert json.dumps(data["players"], ensure_ascii=False).count("Константинопольский-Зарецкий") == 1


def test_the_viewer_writes_its_sheet_and_scores_as_mixed_numbers(tmp_path: Path) -> None:
    from fractions import Fraction

    from preflog.render.numbers import mixed
    from preflog.scoring.sheet import Sheet
    from preflog.views.viewer import _sheet

    sheet = _sheet(Sheet(3, [Fraction(92, 3), 0, -4], [Fraction(1, 2), 0, 0], [[0, Fraction(-4, 3), 2]] * 3))
    assert sheet["p"] == ["30⅔", "0", "−4"] and sheet["g"][0] == "½" and sheet["v"][0] == ["0", "−1⅓", "2"]
    data = viewer_data(long_audited("croatian", tmp_path).loaded)   # the columns start at −30: minus as U+2212
    assert data["sheets"][0]["p"][0] == mixed(-30) == "−30"
