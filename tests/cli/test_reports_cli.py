"""compare, report and sql through the CLI."""

import json
from pathlib import Path

from typer.testing import CliRunner

from preflog.cli.app import app

DATA = Path(__file__).resolve().parents[2] / "data" / "examples"
runner = CliRunner()


def test_compare_sochi_deal_under_leningrad_and_rostov(tmp_path: Path) -> None:
    """docs/rules.md §B1, §B2: A 7♥ down 1, B passes, C whists alone (open).
    Sochi: A gora 4 → 10 × (4/3 − 4) = −26⅔, visty C 4×4 + 4 = 20 and B 4 on A → A −50⅔, B +17⅓, C +33⅓.
    Leningrad (doubled, gentleman's whist): A gora 8 → −53⅓; visty 4 × 8 + 8 + 8 = 48 split 24/24 →
    A −101⅓, B +50⅔, C +50⅔. Rostov scores this deal like Sochi (no raspasy involved): no difference."""
    res = runner.invoke(app, ["compare", str(DATA / "digest-b1.6-worked-deal.pref"), "--rules", "leningrad",
                              "--rules", "rostov", "--format", "json", "--store", str(tmp_path)])
    assert res.exit_code == 0, res.output
    rows = {(r["alt_rules"], r["player"]): r for r in json.loads(res.output)["rows"]}
    assert [rows["leningrad", p]["base_text"] for p in "ABC"] == ["-152/3", "52/3", "100/3"]
    assert [rows["leningrad", p]["alternative_text"] for p in "ABC"] == ["-304/3", "152/3", "152/3"]
    assert [rows["rostov", p]["diff_text"] for p in "ABC"] == ["0", "0", "0"]


def test_report_html_and_sql(tmp_path: Path) -> None:
    store = str(tmp_path / "st")
    assert runner.invoke(app, ["import", str(DATA), "--store", store]).exit_code == 0
    page = tmp_path / "r.html"
    res = runner.invoke(app, ["report", "--html", str(page), "--store", store])
    assert res.exit_code == 0, res.output
    html = page.read_text(encoding="utf-8")
    # one script only: the page's own (it sorts the pulka table), nothing loaded
    assert html.count("<svg") >= 3 and html.count("<script") == 1 and "<script src" not in html
    res = runner.invoke(app, ["sql", "SELECT count(*) AS n FROM deals WHERE kind = 'raspasy'", "--format", "json",
                              "--store", store])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)[0]["n"] >= 4
    bad = runner.invoke(app, ["sql", "SELECT nope FROM deals", "--store", store])
    assert bad.exit_code == 2 and "SQL error" in bad.output and "Traceback" not in bad.output
