"""``stats players`` keeps Russian visty and Croatian points apart: ``avg_visty`` / ``total_visty`` sum the
results of a player's Russian pulkas, ``avg_points`` / ``total_points`` those of his Croatian ones — the
same columns in ``Workspace.stats("players")``, ``Workspace.stats_arrow``, csv, json, ``--json`` and the
80-column table. Never one sum of both (the demo once printed Vera's 1556 = −638 visty + 2194 points).

Golden numbers, from the records' own comments:

* ``digest-b1.6-worked-deal`` (Sochi, A B C): docs/rules.md §B1, A's 7♥ down one, B passes, C whists open.
  Ann's deal in tests/stats/conftest.py (p1 D1) is the same deal: A −24 + 10·(4/3 − 4) = −152/3,
  B 4 + 40/3 = 52/3, C 20 + 40/3 = 100/3 visty.
* ``seed000-sample-sheet`` (Croatian, A B C): "Settled now (seed): columns −10/−20/−24, mean −18 →
  +8/−2/−6 × 10; with the juha A +32, B −38, C +6" points.

So A: −152/3 visty and +32 points (one sum would be −56/3); B: 52/3 and −38; C: 100/3 and 6.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from preflog.cli import app as cli
from preflog.engine.families import FAMILIES
from preflog.reports.db import RESULT_UNITS
from preflog.workspace import Workspace

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
runner = CliRunner()
VISTY = {"A": -152 / 3, "B": 52 / 3, "C": 100 / 3}
POINTS = {"A": 32.0, "B": -38.0, "C": 6.0}


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    ws = Workspace(tmp_path_factory.mktemp("units") / "store")
    items = ws.import_paths([EXAMPLES / "digest-b1.6-worked-deal.pref", EXAMPLES / "seed000-sample-sheet.pref"],
                            workers=1)
    assert [i.status for i in items] == ["imported", "imported"]
    return ws


def check(rows: list[dict[str, object]]) -> None:
    by = {str(r["player"]): r for r in rows}
    assert set(by) == {"A", "B", "C"}
    for p in by:
        r = by[p]
        assert (r["total_visty"], r["avg_visty"]) == pytest.approx((VISTY[p], VISTY[p])), p
        assert (r["total_points"], r["avg_points"]) == pytest.approx((POINTS[p], POINTS[p])), p
        assert r["pulkas"] == 2


def test_every_family_counts_in_a_unit_the_report_has_columns_for() -> None:
    assert {f.sheet.unit for f in FAMILIES} == set(RESULT_UNITS) == {"visty", "points"}


def test_the_api_keeps_visty_and_points_apart(ws: Workspace) -> None:
    df = ws.stats("players")
    assert "avg_result" not in df.columns and "deal_value_total" not in df.columns
    check(df.to_dict("records"))
    check(ws.stats_arrow("players").to_pylist())
    assert list(df["player"]) == ["C", "B", "A"]  # by total visty, then points
    one = ws.stats("players", preset="croatian")  # Croatian pulkas only: no visty at all
    assert one["total_visty"].isna().all() and one["avg_visty"].isna().all()
    assert dict(zip(one["player"], one["total_points"], strict=True)) == POINTS


def run(ws: Workspace, *args: str) -> str:
    res = runner.invoke(cli.app, ["stats", "players", *args, "--store", str(ws.root)])
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.mark.parametrize("fmt", ["csv", "json", "--json"])
def test_csv_and_json_keep_visty_and_points_apart(ws: Workspace, fmt: str) -> None:
    if fmt == "csv":
        rows = pd.read_csv(io.StringIO(run(ws, "--format", "csv"))).to_dict("records")
    elif fmt == "json":
        rows = json.loads(run(ws, "--format", "json"))["rows"]  # the --json document
    else:
        rows = json.loads(run(ws, "--json"))["rows"]
    check(rows)
    assert list(rows[0]) == list(ws.stats("players").columns)


def test_the_80_column_table_shows_both_units(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both total columns and both averages stay at 80 columns, as the table rounds them: A −50.7 visty
    (−152/3) and 32 points; no line is wider than 80."""
    monkeypatch.setattr(cli.out, "width", 80)
    text = run(ws)
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert any("visty" in line for line in lines) and any("points" in line for line in lines)
    row = next(line for line in lines if line.startswith("│ A "))
    cells = [c.strip() for c in row.strip("│").split("│")]
    assert cells[-4:] == ["-50.7", "-50.7", "32", "32"]


def test_a_russian_only_report_shows_no_points_column(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli.out, "width", 80)
    text = run(ws, "--preset", "sochi")
    assert "total" in text and "points" not in text
