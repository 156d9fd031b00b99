"""``preflog simulate --level`` and ``preflog stats skill`` end to end: bots of known levels into a store,
``analyze --all``, then the skill table (80 columns), CSV, JSON and Workspace.stats("skill")."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.workspace import Workspace

from .conftest import WIDTH

runner = CliRunner()
LEVELS = ["--level", "dd", "--level", "heuristic", "--level", "careless:0.5", "--level", "careless:0.9"]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("club")
    r = runner.invoke(app, ["simulate", "--rules", "sochi", "--players", "4", "--pool", "6", "--pulkas", "4",
                            "--seed", "9", "--workers", "1", "--to-store", "--store", str(root), *LEVELS])
    assert r.exit_code == 0, r.output
    return root


def test_before_analyze_all_the_report_is_empty_and_says_why(tmp_path: Path) -> None:
    r = runner.invoke(app, ["simulate", "--pulkas", "1", "--pool", "4", "--to-store", "--store", str(tmp_path)])
    assert r.exit_code == 0
    r = runner.invoke(app, ["stats", "skill", "--json", "--store", str(tmp_path)])
    assert r.exit_code == 0 and json.loads(r.stdout)["rows"] == []
    assert "analyze --all" in r.stderr


def test_bad_levels_are_refused_in_one_line(tmp_path: Path) -> None:
    for bad in (["--level", "genius"], ["--level", "dd"]):
        r = runner.invoke(app, ["simulate", "--to-store", "--store", str(tmp_path), *bad])
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_stats_skill_after_analyze_all(club: Path, narrow: None) -> None:
    r = runner.invoke(app, ["analyze", "--all", "--workers", "1", "--store", str(club)])
    assert r.exit_code == 0, r.output
    table = runner.invoke(app, ["stats", "skill", "--store", str(club)])
    assert table.exit_code == 0
    assert max(len(line) for line in table.stdout.splitlines()) <= WIDTH
    assert "play" in table.stdout and "North" in table.stdout
    doc = json.loads(runner.invoke(app, ["stats", "skill", "--json", "--store", str(club)]).stdout)
    assert doc["kind"] == "stats skill" and len(doc["rows"]) == 4
    for row in doc["rows"]:   # cards + play is the result; the 4 pulkas' results sum to 0 over the players
        assert row["cards"] + row["play"] == pytest.approx(row["result"])
        assert row["pulkas"] == 4 and row["rating_sigma"] < 25 / 3
    assert sum(row["result"] for row in doc["rows"]) == pytest.approx(0.0)
    csv = pd.read_csv(io.StringIO(runner.invoke(app, ["stats", "skill", "--format", "csv", "--store",
                                                      str(club)]).stdout))
    assert set(csv["player"]) == {"North", "East", "South", "West"}
    df = Workspace(club).stats("skill")
    assert list(df["player"]) == list(csv["player"])
    one = runner.invoke(app, ["stats", "skill", "--player", "East", "--json", "--store", str(club)])
    assert [row["player"] for row in json.loads(one.stdout)["rows"]] == ["East"]
    hist = Workspace(club).skill(history=True)
    assert len(hist) == 4 * 4 * 4 and set(hist["rating"]) == {"play", "raw", "play_margin", "raw_margin"}
    unknown = runner.invoke(app, ["stats", "skill", "--player", "Nobody", "--store", str(club)])
    assert unknown.exit_code == 2 and "Nobody" in unknown.stderr
    page = club / "report.html"
    assert runner.invoke(app, ["report", "--html", str(page), "--store", str(club)]).exit_code == 0
    text = page.read_text(encoding="utf-8")
    assert '<h2 id="skill">' in text and text.count("<polyline") == 3 * 4


def test_analyze_all_judges_the_passes_only_when_asked(club: Path) -> None:
    """``analyze --all --passes`` fills the passes columns of ``stats skill`` (every player of the club passed
    somewhere); a later run without it builds the tables again without them."""
    def rows() -> list[dict]:  # type: ignore[type-arg]
        return json.loads(runner.invoke(app, ["stats", "skill", "--json", "--store", str(club)]).stdout)["rows"]

    r = runner.invoke(app, ["analyze", "--all", "--passes", "--workers", "1", "--store", str(club)])
    assert r.exit_code == 0, r.output
    judged = rows()
    assert len(judged) == 4 and all(row["passes_judged"] > 0 for row in judged)
    for row in judged:
        assert 0 <= row["passes_makeable"] <= row["passes_judged"]
        lo, hi = row["passed_makeable_share_lo"], row["passed_makeable_share_hi"]
        assert lo <= row["passed_makeable_share"] <= hi
    assert runner.invoke(app, ["analyze", "--all", "--workers", "1", "--store", str(club)]).exit_code == 0
    assert all(row["passes_judged"] == 0 for row in rows())
