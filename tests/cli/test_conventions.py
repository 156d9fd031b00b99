"""Command-line conventions: --version, -h, python -m preflog, --store before the command, choices in
--help (case-insensitive), usage errors as one line, and a --help that loads no heavy library."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "examples" / "seed003-settlement.pref"
runner = CliRunner()


def invoke(*args: str) -> Result:
    res = runner.invoke(app, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


def test_version() -> None:
    res = invoke("--version")
    assert res.exit_code == 0 and res.stdout == f"preflog {version('preflog')}\n"


@pytest.mark.parametrize("args", [["-h"], ["import", "-h"], ["stats", "-h"], ["stats", "players", "-h"]])
def test_short_help_everywhere(args: list[str]) -> None:
    res = invoke(*args)
    assert res.exit_code == 0 and "Usage:" in res.stdout and "--help" in res.stdout


def test_python_dash_m_preflog() -> None:
    proc = subprocess.run([sys.executable, "-m", "preflog", "--version"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout == f"preflog {version('preflog')}\n", proc.stderr
    proc = subprocess.run([sys.executable, "-m", "preflog", "-h"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "Usage: preflog" in proc.stdout


def test_store_before_the_command(tmp_path: Path) -> None:
    """``preflog --store A ls`` reads A; a ``--store`` after the command wins over the one before."""
    a, b = tmp_path / "a", tmp_path / "b"
    assert invoke("--store", str(a), "import", str(EXAMPLE)).exit_code == 0
    assert (a / "events").is_dir()
    res = invoke("--store", str(a), "ls", "--json")
    assert res.exit_code == 0 and '"seed003-settlement"' in res.stdout
    res = invoke("--store", str(a), "ls", "--store", str(b))
    assert res.exit_code == 2 and f"no preflog store at {b}" in res.stderr
    res = invoke("ls", "--store", str(b))  # the folder before the command is not remembered
    assert res.exit_code == 2 and f"no preflog store at {b}" in res.stderr


def test_store_precedence_over_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the command, then before it, then ``$PREFLOG_STORE``."""
    a, b = tmp_path / "a", tmp_path / "b"
    assert invoke("import", str(EXAMPLE), "--store", str(a)).exit_code == 0
    monkeypatch.setenv("PREFLOG_STORE", str(a))
    assert invoke("ls", "--json").exit_code == 0
    res = invoke("--store", str(b), "ls")
    assert res.exit_code == 2 and f"no preflog store at {b}" in res.stderr
    monkeypatch.setenv("PREFLOG_STORE", str(b))
    assert invoke("--store", str(a), "ls").exit_code == 0


@pytest.mark.parametrize(("path", "choices"), [
    (["stats", "players"], ["table", "csv", "json", "parquet", "markdown"]),
    (["sql"], ["table", "csv", "json", "parquet", "markdown"]),
    (["compare"], ["table", "csv", "json", "parquet", "markdown"]),
    (["export"], ["text", "json", "ppn", "parquet"]),
    (["simulate"], ["text", "json"]),
])
def test_choices_are_listed_in_help(path: list[str], choices: list[str]) -> None:
    """``--format`` is a choice, listed by ``--help`` as ``[table|csv|…]`` (as click writes it), not free text."""
    res = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and f"[{'|'.join(choices)}]" in res.stdout, res.stdout


def test_choices_are_case_insensitive(tmp_path: Path) -> None:
    store = str(tmp_path / "st")
    assert invoke("import", str(EXAMPLE), "--store", store).exit_code == 0
    res = invoke("export", "seed003-settlement", "--format", "JSON", "--store", store)
    assert res.exit_code == 0 and res.stdout.startswith("{")
    res = invoke("stats", "variants", "--format", "CSV", "--store", store)
    assert res.exit_code == 0 and res.stdout.startswith("preset,")


@pytest.mark.parametrize(("args", "says"), [
    (["stats", "players", "--format", "xlsx"], "'xlsx' is not one of"),
    (["simulate", "--players", "5"], "--players"),
    (["simulate", "--pulkas", "0"], "--pulkas"),
    (["replay", "x.pref", "--deal", "0"], "--deal"),
    (["ls", "--bogus"], "No such option: --bogus"),
    (["sheet"], "Missing argument"),
    (["nosuchcommand"], "No such command"),
])
def test_usage_errors_are_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    res = invoke(*args, "--store", str(tmp_path / "st")) if args[0] != "nosuchcommand" else invoke(*args)
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], res.stderr
    assert res.stdout == "" and not (tmp_path / "st").exists()


def test_help_loads_no_heavy_library() -> None:
    """``preflog --help`` imports neither pyarrow, pandas, numpy, DuckDB nor deltalake (``-X importtime``
    lists every module imported)."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "preflog", "--help"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    loaded = {line.split("|")[-1].strip().split(".")[0] for line in proc.stderr.splitlines()
              if line.startswith("import time:")}
    assert "preflog" in loaded and "typer" in loaded
    assert loaded.isdisjoint({"pyarrow", "pandas", "numpy", "duckdb", "deltalake"}), \
        loaded & {"pyarrow", "pandas", "numpy", "duckdb", "deltalake"}
