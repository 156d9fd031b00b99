"""``preflog sheet --lang`` and ``--portrait``: one language per sheet, in the terminal, the SVG and the
HTML page; Russian terms for the Russian game, a Croatian sheet in its own words in either language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from .conftest import WIDTH

ROOT = Path(__file__).resolve().parents[2]
SEED3 = str(ROOT / "data/examples/seed003-settlement.pref")
CROATIAN = str(ROOT / "data/demo/croatian-3p.pref")
FOUR = str(ROOT / "data/demo/sochi-4p.pref")


def run(args: list[str], tmp: Path) -> tuple[int, str, str]:
    from preflog.cli.app import app

    res = CliRunner().invoke(app, [*args, "--store", str(tmp / "st")])
    return res.exit_code, res.stdout, res.stderr


def test_the_terminal_sheet_in_russian(tmp_path: Path) -> None:
    """Seed 003 in Russian: the heads, the settlement and the running totals say пуля, гора, висты на …,
    точно, способ 1/2; the numbers are those of the English sheet (the seed's 92/3, 31, −30 …)."""
    code, ru, _ = run(["sheet", SEED3, "--lang", "ru"], tmp_path)
    assert code == 0
    for word in ("игрок", "пуля", "гора", "висты", "точно", "способ", "записи по сдачам:",
                 "Запад: пуля 2.12.14; гора 1.7.8; висты на Восток 0; висты на Юг 4"):
        assert word in ru, word
    assert not re.search(r"\b(pulya|gora|visty|exact|method|player|running)\b", ru)
    code, en, _ = run(["sheet", SEED3], tmp_path)
    assert code == 0 and "running totals, deal by deal:" in en and "пуля" not in en
    numbers = re.compile(r"-?\d+(?:/\d+)?")
    assert numbers.findall(ru.split("\n", 1)[1]) == numbers.findall(en.split("\n", 1)[1])


@pytest.mark.usefixtures("narrow")
def test_the_russian_sheet_fits_80_columns(tmp_path: Path) -> None:
    code, out, _ = run(["sheet", FOUR, "--pulka", "demo-sochi-4p-038", "--lang", "ru"], tmp_path)
    assert code == 0 and "способ" in out and "записи по сдачам:" in out
    assert max(len(line) for line in out.splitlines()) <= WIDTH


def test_json_is_the_same_in_every_language(tmp_path: Path) -> None:
    en = json.loads(run(["sheet", SEED3, "--json"], tmp_path)[1])
    ru = json.loads(run(["sheet", SEED3, "--json", "--lang", "ru"], tmp_path)[1])
    assert en == ru


def test_a_croatian_sheet_keeps_its_words(tmp_path: Path) -> None:
    """``--lang ru`` on a Croatian pulka: its own words (column, juha) as in English, no Russian term."""
    args = ["sheet", CROATIAN, "--pulka", "demo-croatian-3p-013"]
    code, ru, _ = run([*args, "--lang", "ru"], tmp_path)
    assert code == 0 and ru == run(args, tmp_path)[1]
    assert "juha" in ru and not any(w in ru for w in ("пуля", "гора", "висты"))
    svg_ru, svg_en = tmp_path / "ru.svg", tmp_path / "en.svg"
    assert run([*args, "--svg", str(svg_ru), "--lang", "ru"], tmp_path)[0] == 0
    assert run([*args, "--svg", str(svg_en)], tmp_path)[0] == 0
    assert svg_ru.read_text(encoding="utf-8") == svg_en.read_text(encoding="utf-8")
    assert 'data-shape="list"' in svg_en.read_text(encoding="utf-8")


def test_svg_html_and_portrait(tmp_path: Path) -> None:
    svg, portrait, html = tmp_path / "s.svg", tmp_path / "p.svg", tmp_path / "s.html"
    assert run(["sheet", SEED3, "--svg", str(svg), "--lang", "ru"], tmp_path)[0] == 0
    assert run(["sheet", SEED3, "--svg", str(portrait), "--portrait"], tmp_path)[0] == 0
    assert run(["sheet", SEED3, "--html", str(html), "--lang", "ru"], tmp_path)[0] == 0
    text = svg.read_text(encoding="utf-8")
    assert ">Расчёт<" in text and ">точно (висты)<" in text and 'data-shape="paper"' in text
    p = portrait.read_text(encoding="utf-8")
    assert 'data-shape="portrait"' in p and 'width="370"' in p and ">Settlement<" in p
    sizes = [float(x) for x in re.findall(r'<text [^>]*font-size="([\d.]+)"', p)]
    assert min(sizes) >= 12
    page = html.read_text(encoding="utf-8")
    assert '<html lang="ru">' in page and page.count("<svg") == 2 and "Расчёт" in page


def test_bad_options_are_refused(tmp_path: Path) -> None:
    code, _, err = run(["sheet", SEED3, "--lang", "de"], tmp_path)
    assert code == 2 and "--lang" in err
    code, _, err = run(["sheet", SEED3, "--portrait"], tmp_path)
    assert code == 2 and "--portrait" in err and "Traceback" not in err
