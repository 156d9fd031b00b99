"""``preflog settle FILE``: a sheet given as totals (``Start:`` lines, text or JSON, ``-`` for stdin)
settled exactly and by the two paper methods, with money, as ``sheet`` prints them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app
from preflog.record.api import read_file
from preflog.record.api import write_json

ROOT = Path(__file__).resolve().parents[2]
TOTALS = ROOT / "tests" / "golden" / "seed003-totals.pref"
runner = CliRunner()


def invoke(*args: str, stdin: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


def settled(*args: str, stdin: str | None = None) -> dict[str, Any]:
    res = invoke("settle", *args, "--json", stdin=stdin)
    assert res.exit_code == 0, res.output
    (pulka,) = json.loads(res.stdout)["pulkas"]
    return pulka


def one_error_line(res: Result) -> str:
    assert isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in res.output, res.output
    return lines[0]


SEED_EXACT = {"Запад": "92/3", "Восток": "-88/3", "Юг": "-4/3"}
SEED_METHOD1 = {"Запад": 31, "Восток": -30, "Юг": -1}
SEED_METHOD2 = {"Запад": 31, "Восток": -29, "Юг": -2}
SEED_MONEY = {"Запад": 3100, "Восток": -3000, "Юг": -100}


def test_seed003_totals_settle_as_the_seed_prints() -> None:
    """Seed 003's final sheet as totals (goras З 8, В 19, Ю 14, nets −26 / +24 / +2, pulyas equal):
    method 1 «З выиграл 31 вист …, В проиграл 30 вистов …, Ю проиграл 1 вист», method 2 +31 / −29 / −2,
    «точные результаты … З: +30 2/3; В: –29 1/3; Ю: –1 1/3», and at 100 a vist «3100 руб.»,
    «3000 руб.», «100 руб.»."""
    s = settled(str(TOTALS))
    assert s["id"] == "seed003-totals" and s["whist_price"] == "100"
    assert s["totals"]["gora"] == {"Запад": 8, "Восток": 19, "Юг": 14}
    st = s["settlement"]
    assert (st["exact"], st["method1"], st["method2"], st["money"]) == (SEED_EXACT, SEED_METHOD1, SEED_METHOD2,
                                                                         SEED_MONEY)


def test_totals_settle_like_the_pulka_that_reaches_them() -> None:
    """The same sheet reached by the 12 deals of data/examples/seed003-settlement.pref settles alike."""
    res = invoke("sheet", str(ROOT / "data" / "examples" / "seed003-settlement.pref"), "--json")
    (pulka,) = json.loads(res.stdout)["pulkas"]
    totals = settled(str(TOTALS))
    assert pulka["totals"] == totals["totals"]
    for k in ("exact", "method1", "method2"):
        assert pulka["settlement"][k] == totals["settlement"][k]


def test_text_output_shows_every_column() -> None:
    res = invoke("settle", str(TOTALS))
    assert res.exit_code == 0, res.output
    row = next(line for line in res.stdout.splitlines() if "Восток" in line and "-88/3" in line)
    assert [c.strip() for c in row.strip("│ \n").split("│")] == ["Восток", "14", "19", "22", "—", "2", "-88/3",
                                                                  "-30", "-29", "-3000"]


def test_json_totals_and_stdin(tmp_path: Path) -> None:
    """The JSON form of the same totals, and the text form on stdin, settle alike."""
    js = tmp_path / "totals.json"
    js.write_text(write_json(read_file(TOTALS)), encoding="utf-8")
    assert settled(str(js))["settlement"]["money"] == SEED_MONEY
    assert settled("-", stdin=TOTALS.read_text(encoding="utf-8"))["settlement"]["method2"] == SEED_METHOD2


def test_four_player_totals() -> None:
    """4 players, pulyas equal, goras 10 / 0 / 3 / 7, no visty: mean 5 → exact −50, +50, +20, −20
    (each gora point is 10 visty shared among 4). Money at price 1 is the shown result, method 1."""
    text = '[Players "A, B, C, D"]\n[Pool "20"]\n\n' + "".join(
        f"Start: {p} pulya 20 gora {g}\n" for p, g in zip("ABCD", (10, 0, 3, 7), strict=True))
    st = settled("-", stdin=text)["settlement"]
    want = {"A": -50, "B": 50, "C": 20, "D": -20}
    assert st["exact"] == want
    assert st["money"] == st["method1"] and sum(st["method1"].values()) == 0


@pytest.mark.parametrize("text, words", [
    ('[Players "A, B, C"]\n[Pool "10"]\nStart: A pulya 12\n',
     ["<stdin>:3:16", "pulya 12 is not between 0 and the pool"]),
    ('[Players "A, B, C"]\n[Rules "croatian"]\nStart: A pulya -10\n', ["<stdin>:3:1", "Croatian"]),
    ('[Players "A, B, C"]\nStart: A pulya two\n', ["<stdin>:2:16", "'two' is not a score"]),
    ('[Players "A, B, C"]\n[WhistPrice "ten"]\n', ["<stdin>:2:14", "is not a whist price"]),
    ("", ["no pulka"]),
])
def test_bad_input_is_one_line(text: str, words: list[str]) -> None:
    line = one_error_line(invoke("settle", "-", stdin=text))
    assert all(w in line for w in words), line


def test_a_record_with_findings_is_refused_in_one_line(tmp_path: Path) -> None:
    """settle does not settle a sheet the audit disputes: the first finding, and exit 2."""
    bad = tmp_path / "bad.pref"
    bad.write_text('[Players "A, B, C"]\n[Pool "10"]\nStart: A pulya 4\n\nDeal 1: dealer A\nContract: B 6s\n'
                   "Whist: C pass, A pass\nScore: B pulya 0\n", encoding="utf-8")
    line = one_error_line(invoke("settle", str(bad), "--store", str(tmp_path / "st")))
    assert "bad: deal 1, event 6: score_mismatch:" in line


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    line = one_error_line(invoke("settle", str(tmp_path / "none.pref"), "--store", str(tmp_path / "st")))
    assert "no such file" in line
