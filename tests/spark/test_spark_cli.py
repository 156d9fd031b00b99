"""``preflog spark audit|project|report``: thin commands; pyspark is loaded only when one runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app
from preflog.projections.store import read_table
from preflog.shipped import shipped
from preflog.workspace import Workspace

from .conftest import need_pyspark

runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args))


def one_error_line(res: Result) -> str:
    assert isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]


@pytest.mark.needs_no_extra
def test_the_cli_and_the_package_load_without_pyspark() -> None:
    code = ("import sys, preflog, preflog.cli.app, preflog.spark, preflog.spark.tables, preflog.spark.sql; "
            "assert 'pyspark' not in sys.modules, 'pyspark was imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.needs_no_extra
def test_help_lists_the_spark_commands() -> None:
    res = invoke("spark", "--help")
    assert res.exit_code == 0
    assert all(cmd in res.output for cmd in ("audit", "project", "report"))


@pytest.mark.needs_no_extra
def test_without_the_extra_the_command_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pyspark", None)          # as if pyspark were not installed
    monkeypatch.delitem(sys.modules, "preflog.spark.job", raising=False)
    import preflog.spark

    monkeypatch.delattr(preflog.spark, "job", raising=False)   # an earlier test's import leaves it on the package
    line = one_error_line(invoke("spark", "audit", str(tmp_path / "out"), "--store", str(tmp_path)))
    assert "pip install 'preflog[spark]'" in line and "pyspark" in line


def test_a_missing_table_is_one_line_before_any_spark_starts(tmp_path: Path) -> None:
    need_pyspark()  # fails instead of skipping where the run requires Spark
    line = one_error_line(invoke("spark", "project", str(tmp_path / "out"), "--store", str(tmp_path / "nowhere")))
    assert "nowhere" in line and "no Delta event table" in line


def test_bad_options_are_one_line(tmp_path: Path) -> None:
    need_pyspark()  # fails instead of skipping where the run requires Spark
    line = one_error_line(invoke("spark", "audit", str(tmp_path), "--format", "csv"))
    assert "'csv' is not one of 'parquet', 'delta'" in line  # an Enum choice (issue 25)
    line = one_error_line(invoke("spark", "audit", str(tmp_path), "--conf", "nokey"))
    assert "--conf 'nokey'" in line
    line = one_error_line(invoke("spark", "report", str(tmp_path / "none")))
    assert "no deals table" in line and "preflog spark project" in line


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_project_then_report_on_the_seed_examples(spark: object, tmp_path: Path) -> None:
    """The seed examples (a few illegal ones among them): exit 1 as ``preflog audit --all`` would, the
    summary line counts what the single-machine audit counts, and the tables and reports are written."""
    ws = Workspace(tmp_path / "store")
    ws.import_paths([shipped("data") / "examples"], workers=1)
    audited = ws.audit(None)
    findings = sum(len(a.result.findings) for a in audited)
    events = sum(a.result.events for a in audited)
    assert findings > 0
    out = tmp_path / "out"
    res = invoke("spark", "project", str(out), "--store", str(ws.root), "--master", "local[2]")
    assert res.exit_code == 1, res.output
    assert f"{len(audited)} pulkas, {events} events, {findings} findings, 0 not projected" in res.output
    assert pq.read_table(out / "findings").num_rows == findings
    assert pq.read_table(out / "deals").num_rows == read_table(ws.root, "deals").num_rows > 0
    res = invoke("spark", "report", str(out), "--master", "local[2]")
    assert res.exit_code == 0, res.output
    for name in ("players", "players_by_level", "contracts", "variants"):
        assert f"{name} →" in res.output
        assert pq.read_table(out / "reports" / name).num_rows > 0
