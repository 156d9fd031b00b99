"""Exit codes a scheduler can read: 0 clean, 1 findings, 2 the job could not run — each cause one line
naming the file, jar or URL; ``--debug`` (or ``PREFLOG_DEBUG=1``) prints the traceback first.

The causes: bad input (options, a timestamp), a missing table or version, a damaged file, a file a vacuum
removed under the job, a master URL nothing answers at or that is not one, and missing jars (Delta Lake for
``--read delta``, hadoop-aws for ``s3a://``). Each was a traceback with exit 1 before (issue 32).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app
from preflog.shipped import shipped
from preflog.workspace import Workspace

from .conftest import need_pyspark

runner = CliRunner()


def one_error_line(res: Result) -> str:
    assert isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = Workspace(tmp_path_factory.mktemp("fail") / "store")
    ws.import_paths([shipped("data") / "examples"], workers=1)
    return ws.root


def parquet_files(root: Path) -> list[Path]:
    return sorted((root / "events").glob("*.parquet"))


def test_bad_time_and_version_options_are_one_line(tmp_path: Path, store: Path) -> None:
    need_pyspark()
    line = one_error_line(runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", str(store),
                                              "--as-of", "yesterday"]))
    assert "--as-of 'yesterday'" in line
    line = one_error_line(runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", str(store),
                                              "--as-of", "2026-01-01", "--table-version", "0"]))
    assert "give one of them" in line
    line = one_error_line(runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", str(store),
                                              "--table-version", "99"]))
    assert "no version 99" in line and "events" in line


def test_an_unanswered_master_is_one_line_before_spark_starts(tmp_path: Path, store: Path) -> None:
    need_pyspark()
    with socket_closed() as port:
        line = one_error_line(runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", str(store),
                                                  "--master", f"spark://127.0.0.1:{port}"]))
    assert f"spark://127.0.0.1:{port}: no Spark master answers" in line


class socket_closed:
    """A local port nothing listens on (bound, then closed)."""

    def __enter__(self) -> int:
        import socket

        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = int(s.getsockname()[1])
        s.close()
        return self.port

    def __exit__(self, *exc: object) -> None:
        return None



@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("plan", ["groups", "shuffle"])
def test_a_damaged_file_is_one_line_naming_it(spark: object, store: Path, tmp_path: Path, plan: str) -> None:
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    victim = parquet_files(copy)[0]
    victim.write_bytes(b"PAR1" + b"\0" * 64 + b"PAR1")
    res = runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", str(copy), "--plan", plan])
    line = one_error_line(res)
    assert victim.name in line and "unreadable Parquet file" in line


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("plan", ["groups", "shuffle"])
def test_a_vacuumed_file_says_pin_a_version_or_raise_retention(spark: object, tmp_path: Path, plan: str) -> None:
    """Version 1 read after a compaction and a zero-retention vacuum removed its files: what a job reading
    version 1 meets when the vacuum runs while it reads."""
    from deltalake import DeltaTable

    ws = Workspace(tmp_path / "store")
    files = sorted((shipped("data") / "examples").glob("*.pref"))
    ws.import_paths(files[:4], workers=1)
    ws.import_paths(files[4:8], workers=1)
    table = ws.root / "events"
    dt = DeltaTable(str(table))
    v = dt.version()
    dt.optimize.compact()
    DeltaTable(str(table)).vacuum(retention_hours=0, enforce_retention_duration=False, dry_run=False)
    res = runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", str(ws.root),
                              "--table-version", str(v), "--plan", plan])
    line = one_error_line(res)
    assert f"version {v}" in line and "--table-version" in line and "retention" in line
    assert ".parquet" in line


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_missing_jars_are_one_line_naming_them(spark: object, store: Path, tmp_path: Path) -> None:
    line = one_error_line(runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", str(store),
                                              "--read", "delta"]))
    assert "'delta' data source" in line and "delta-spark" in line
    line = one_error_line(runner.invoke(app, ["spark", "audit", "s3a://bucket/out", "--store", str(store)]))
    assert "s3a://" in line and "hadoop-aws" in line


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_debug_prints_the_traceback_then_the_line(spark: object, store: Path, tmp_path: Path) -> None:
    res = runner.invoke(app, ["spark", "audit", "s3a://bucket/out", "--store", str(store), "--debug"])
    assert res.exit_code == 2
    assert "Traceback (most recent call last)" in res.output
    assert res.output.strip().splitlines()[-1].startswith("error: Spark cannot reach s3a://")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_master_url_that_is_none_exits_2_in_a_fresh_process(store: Path, tmp_path: Path) -> None:
    """A fresh process (no session yet), as a scheduler starts it: exit 2 and one line on standard error."""
    need_pyspark()
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    proc = subprocess.run([sys.executable, "-m", "preflog", "spark", "audit", str(tmp_path / "o"), "--store",
                           str(store), "--master", "nowhere://x"], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 2, proc.stderr
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("error:")]
    assert errors == ["error: nowhere://x: not a Spark master URL (local[*], spark://HOST:PORT, yarn, k8s://…)"]
    assert "Traceback" not in proc.stderr
