"""The questions of :mod:`tests.application.test_front_ends` asked of the Spark job as well: the same store
(the seed three times over, one pulka with a finding), the list of its pulkas and the players' and contracts'
stats, from ``preflog ls --json`` / ``stats … --json``, the web app's JSON routes, and ``preflog spark
project`` + ``spark report`` (Spark in local mode). Marked ``spark`` (tests/conftest.py): it runs in the
extras lane, and skips without the extra.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from starlette.testclient import TestClient

from preflog.views.json import frame_rows

from .test_front_ends import _cli
from .test_front_ends import cli
from .test_front_ends import runner
from .test_front_ends import store as store  # the module's fixtures: the same store, the same web app
from .test_front_ends import web as web

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_the_spark_job_answers_as_the_command_line_and_the_web_app(store: Path, web: TestClient,
                                                                    tmp_path: Path) -> None:
    out = tmp_path / "spark"
    # local[2], as every Spark test: the run's one SparkSession is the first one made, and the Spark tests
    # after this one read their master from it (tests/spark/conftest.py)
    res = runner.invoke(cli, ["spark", "project", str(out), "--store", str(store), "--master", "local[2]"])
    assert res.exit_code == 1, res.output   # 1: the typo pulka's finding, as `preflog audit --all` says
    assert "3 pulkas" in res.output and "0 not projected" in res.output
    res = runner.invoke(cli, ["spark", "report", str(out), "--master", "local[2]"])
    assert res.exit_code == 0, res.output
    # which pulkas the store holds
    listed = sorted(p["id"] for p in _cli(store, "ls", "--json")["pulkas"])
    assert listed == ["club/friday", "club/typo", "seed003-settlement"]
    assert sorted(p["id"] for p in web.get("/api/pulkas").json()["pulkas"]) == listed
    assert sorted(set(pq.read_table(out / "pulka_results").column("pulka").to_pylist())) == listed
    # the players' and the contracts' stats: the same rows, in the same order, to the last decimal kept
    for report in ("players", "contracts"):
        rows = _cli(store, "stats", report, "--json")["rows"]
        assert rows and web.get(f"/api/stats/{report}").json()["rows"] == rows, report
        assert frame_rows(pd.read_parquet(out / "reports" / report)) == rows, report
    anna = [r for r in _cli(store, "stats", "players", "--json")["rows"] if r["player"] == "Anna"]
    assert len(anna) == 1 and anna[0]["pulkas"] == 2   # club/friday and club/typo
