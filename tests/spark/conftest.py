"""One store for the Spark tests, one SparkSession for the whole run, and the single-machine results.

The store holds the shipped records (``data/``: the demo and the seed examples, six findings among
them) and 200 bot-played pulkas (~3 000 deals; Sochi, Croatian, Rostov, Leningrad at four players and
Sochi on paper), 60 of them — Croatian, Rostov and Leningrad ones — with one card play removed from the
middle of the log, so the audit has findings the bots never make. The single-machine side is what a user
gets without Spark: ``Workspace.import_paths``, ``Workspace.audit(None)``, the projections the workspace
rebuilt, and the DuckDB reports of :mod:`preflog.reports`.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from preflog.engine.replay import AuditResult
from preflog.model.events import CardPlayed
from preflog.model.events import Row
from preflog.shipped import shipped
from preflog.sim import simulate_many
from preflog.workspace import Workspace


def need_pyspark() -> None:
    """Without the extra the Spark tests skip, except where the run asks for them (.ci/run sets
    PREFLOG_REQUIRE_SPARK=1 after installing the extra): there a missing pyspark is a failure."""
    if importlib.util.find_spec("pyspark") is not None:
        return
    if os.environ.get("PREFLOG_REQUIRE_SPARK") == "1":
        pytest.fail("PREFLOG_REQUIRE_SPARK=1 but pyspark is not installed (pip install -e '.[spark]')")
    pytest.skip("needs the spark extra: pip install -e '.[spark,spark-test]'")

SIM_SPECS = [
    {"rules_spec": "sochi", "players": 3, "pool": 10},
    {"rules_spec": "croatian", "players": 3, "pool": 10},
    {"rules_spec": "rostov", "players": 3, "pool": 10},
    {"rules_spec": "leningrad", "players": 4, "pool": 10},
    {"rules_spec": "sochi", "players": 3, "pool": 10, "paper": True},
]
# 200 in the suite; the equality was also checked once at ~100 k deals (PREFLOG_SPARK_PULKAS=6700, docs/spark.md)
SIM_PULKAS = int(os.environ.get("PREFLOG_SPARK_PULKAS", "200"))
SEED = 14


def damaged(rows: list[Row]) -> list[Row]:
    """The log without its middle card play: the next card comes from the wrong hand or the deal ends short
    (a log with no card play, a short pulka where nobody played out a deal, is returned as it is)."""
    cards = [i for i, r in enumerate(rows) if r[0] == CardPlayed.CODE]
    if not cards:
        return rows
    drop = cards[len(cards) // 2]
    return rows[:drop] + rows[drop + 1:]


@dataclass
class Single:
    """The single-machine path's results on the test store."""

    ws: Workspace
    audits: dict[str, AuditResult]
    damaged: set[str]


@pytest.fixture(scope="session")
def single(tmp_path_factory: pytest.TempPathFactory) -> Single:
    root = tmp_path_factory.mktemp("spark") / "store"
    ws = Workspace(root)
    items = ws.import_paths([shipped("data")], workers=1)
    assert all(i.status == "imported" for i in items)
    batch: list[tuple[str, int, list[Row]]] = []
    hurt: set[str] = set()
    for i, rows in simulate_many(SIM_SPECS, SIM_PULKAS, SEED, workers=1, rows=True):
        pid = f"sim-{i:04d}"
        if i % 10 in (1, 3, 7):  # Croatian, Leningrad 4p, Rostov
            cut = damaged(rows)
            if cut != rows:
                hurt.add(pid)
            rows = cut
        batch.append((pid, 0, rows))
    ws.store().append_many(batch)
    ws.rebuild_projections()
    audits = {a.loaded.id: a.result for a in ws.audit(None)}
    return Single(ws, audits, hurt)


@pytest.fixture(scope="session")
def spark() -> Iterator[object]:
    need_pyspark()
    from preflog.spark import job

    session = job.session("local[2]")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def spark_out(single: Single, spark: object, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every table of the Spark job on the test store, then the reports (both under one folder)."""
    from preflog.spark import job

    out = tmp_path_factory.mktemp("spark-out")
    job.run(spark, str(single.ws.root), str(out))  # type: ignore[arg-type]
    job.reports(spark, str(out))  # type: ignore[arg-type]
    return out
