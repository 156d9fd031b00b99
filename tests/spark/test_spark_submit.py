"""Cluster-true settings: without ``--master`` the job takes the master that ``spark-submit``,
``spark-defaults.conf`` or ``$MASTER`` set (``local[*]`` only when none did), ``--conf`` adds to them, and
the entry script runs ``preflog spark …`` under ``spark-submit``. Each run is a fresh process (a scheduler's
view): its exit status and its summary line, which names the master and the executors and cores that ran it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from preflog.shipped import shipped
from preflog.workspace import Workspace

from .conftest import need_pyspark

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = Workspace(tmp_path_factory.mktemp("submit") / "store")
    ws.import_paths(sorted((shipped("data") / "examples").glob("seed001-*.pref")), workers=1)
    return ws.root


def spark_home() -> Path:
    need_pyspark()
    import pyspark

    return Path(pyspark.__file__).parent


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k not in ("MASTER", "SPARK_MASTER", "SPARK_CONF_DIR",
                                                              "PYSPARK_SUBMIT_ARGS")}
    out.update(PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable, **extra)
    return out


def preflog(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "preflog", "spark", *args], capture_output=True, text=True,
                          env=env(**extra), timeout=600)


def ran_on(proc: subprocess.CompletedProcess[str]) -> str:
    """The summary's second line (``… plan on MASTER: E executors, C cores``; spark-submit's Python runner
    sends the driver's warnings to standard output too, so the two lines are picked out)."""
    assert proc.returncode == 1, proc.stderr[-3000:]  # the seed001 records hold an illegal bid: findings
    lines = summary(proc)
    assert len(lines) == 2 and lines[0].startswith("10 pulkas, 109 events, 6 findings"), proc.stdout
    return lines[1]


def summary(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [ln for ln in proc.stdout.splitlines() if " pulkas, " in ln or " plan on " in ln]


def test_spark_defaults_conf_sets_the_master_and_conf_adds(store: Path, tmp_path: Path) -> None:
    conf_dir = tmp_path / "conf"
    conf_dir.mkdir()
    (conf_dir / "spark-defaults.conf").write_text("spark.master local[1]\nspark.app.name from-defaults\n")
    out = tmp_path / "out"
    proc = preflog("audit", str(out), "--store", str(store), "--conf", "spark.executor.memory=600m",
                   SPARK_CONF_DIR=str(conf_dir))
    assert ran_on(proc).endswith("plan on local[1]: 1 executor, 1 core")
    record = json.loads((out / "_preflog.json").read_text())["tables"]["findings"]
    assert record["master"] == "local[1]" and record["cores"] == 1


def test_master_from_the_environment_and_local_star_without_one(store: Path, tmp_path: Path) -> None:
    assert ran_on(preflog("audit", str(tmp_path / "a"), "--store", str(store), MASTER="local[1]")).endswith(
        "on local[1]: 1 executor, 1 core")
    quiet = preflog("audit", str(tmp_path / "b"), "--store", str(store))
    assert f"on local[*]: 1 executor, {os.cpu_count()} core" in ran_on(quiet)
    # a user's terminal shows the command's two lines and, of the start-up, only what the JVM itself prints:
    # no log4j profile or Spark warnings (preflog/spark/log4j2.properties), no pyspark note on pandas
    said = [ln for ln in quiet.stderr.splitlines() if ln.strip() and not ln.startswith("WARNING: Using incubator")]
    assert said == [], quiet.stderr


def test_the_entry_script_under_spark_submit(store: Path, tmp_path: Path) -> None:
    script = subprocess.run([sys.executable, "-m", "preflog", "spark", "entry-script"], capture_output=True,
                            text=True, check=True).stdout.strip()
    assert Path(script).is_file() and script.endswith("preflog/cli/spark_submit.py")
    submit = spark_home() / "bin" / "spark-submit"
    out = tmp_path / "out"
    proc = subprocess.run([str(submit), "--master", "local[1]", script, "audit", str(out), "--store", str(store)],
                          capture_output=True, text=True, env=env(), timeout=600)
    assert ran_on(proc).endswith("on local[1]: 1 executor, 1 core")
    direct = preflog("audit", str(tmp_path / "direct"), "--store", str(store), "--master", "local[1]")
    assert summary(proc)[0].replace(str(out), "") == summary(direct)[0].replace(str(tmp_path / "direct"), "")
