"""The Spark job gives the single-machine path's results, table for table and report for report.

On the store of ``conftest.py`` (the shipped records and 200 bot-played pulkas, 60 with a card play
removed), in local mode with two executor threads. Findings, per-pulka audit rows and settlements are
compared with ``Workspace.audit(None)``; the projections with the tables the workspace rebuilt
(``preflog.projections.read_table``), schema included; the reports with DuckDB's
(:mod:`preflog.reports`), float columns to 1e-9 (the engines add floats in different orders).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from preflog import reports as duck_reports
from preflog.projections.build import SCHEMAS
from preflog.projections.build import frac_text
from preflog.projections.store import read_table

from .conftest import SIM_PULKAS
from .conftest import Single

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]  # the first test also starts Spark and runs the job


def spark_table(out: Path, table: str) -> pa.Table:
    return pq.read_table(out / table)


def plain(t: pa.DataType) -> pa.DataType:
    """A type with list item names dropped (Spark's Parquet lists name the item ``element``)."""
    return pa.list_(plain(t.value_type)) if pa.types.is_list(t) else t


def test_findings_are_the_single_machine_audits(single: Single, spark_out: Path) -> None:
    want = Counter((pid, f.deal, f.seq, f.code, f.seat, f.message)
                   for pid, res in single.audits.items() for f in res.findings)
    got = Counter(tuple(r.values()) for r in spark_table(spark_out, "findings").to_pylist())
    assert got == want
    found = {k[0] for k in want}
    chosen = sum(1 for i in range(SIM_PULKAS) if i % 10 in (1, 3, 7))      # 60 of the suite's 200
    assert 0 < len(single.damaged) <= chosen and single.damaged <= found    # every damaged log has findings …
    assert any(p.startswith("sim-") and int(p[4:]) % 5 == 1 for p in found)  # … Croatian ones too
    assert found - single.damaged                                            # and the shipped records have theirs


def test_audit_rows_and_settlements(single: Single, spark_out: Path) -> None:
    want_audits = {(pid, r.events, len(r.deals), sum(d.broken for d in r.deals), len(r.findings), r.ended, None)
                   for pid, r in single.audits.items()}
    got_audits = {tuple(r.values()) for r in spark_table(spark_out, "audits").to_pylist()}
    assert got_audits == want_audits
    want: set[tuple[Any, ...]] = set()
    for pid, r in single.audits.items():
        st = r.settlement
        if st is None:
            continue
        for seat, exact in enumerate(st.exact):
            money = st.money[seat] if st.money else None
            want.add((pid, seat, r.players[seat], float(exact), frac_text(exact), st.method1[seat], st.method2[seat],
                      None if money is None else float(money), None if money is None else frac_text(money)))
    got = {tuple(r.values()) for r in spark_table(spark_out, "settlements").to_pylist()}
    assert len(want) > 600 and got == want


@pytest.mark.parametrize("table", ["deals", "player_deals", "pulka_results"])
def test_projections_are_identical(single: Single, spark_out: Path, table: str) -> None:
    keys = {"deals": ["pulka", "deal"], "player_deals": ["pulka", "deal", "seat"],
            "pulka_results": ["pulka", "seat"]}[table]
    mine = spark_table(spark_out, table)
    schema = SCHEMAS[table]
    assert mine.schema.names == schema.names
    assert [plain(f.type) for f in mine.schema] == [plain(f.type) for f in schema]
    want = read_table(single.ws.root, table).sort_by([(k, "ascending") for k in keys])
    got = mine.cast(schema).sort_by([(k, "ascending") for k in keys])
    assert got.num_rows == want.num_rows > 0
    assert got.to_pylist() == want.to_pylist()
    if table == "deals":
        assert {"croatian", "rostov", "leningrad", "sochi"} <= set(got.column("preset").to_pylist())


@pytest.mark.parametrize("report", ["players", "players_by_level", "contracts", "variants"])
def test_reports_agree_with_duckdb(single: Single, spark_out: Path, report: str) -> None:
    con = single.ws.connect()
    want = getattr(duck_reports, report)(con)
    got = pd.read_parquet(spark_out / "reports" / report)
    assert list(got.columns) == list(want.columns)
    assert len(got) == len(want) > 0
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True),
                                  check_dtype=False, rtol=1e-9, atol=1e-9)


def test_filtered_reports_agree_with_duckdb(single: Single, spark: Any, spark_out: Path) -> None:
    """The filters (preset, player, dates, pulka list) become Spark literals and filter alike."""
    from preflog.reports.db import Filters
    from preflog.spark import job
    from preflog.spark.sql import spark_report_sql

    job.load_projections(spark, str(spark_out))
    con = single.ws.connect()
    player = single.audits["sim-0001"].players[0]
    cases = [("players", Filters(preset="sochi")), ("contracts", Filters(pulka=sorted(single.audits)[::7])),
             ("variants", Filters(player="Vera", date_from="2000-01-01")),  # a demo player (sims have no date)
             ("players_by_level", Filters(player=player))]
    for name, f in cases:
        want = getattr(duck_reports, name)(con, player=f.player, preset=f.preset, date_from=f.date_from,
                                           pulka=f.pulka)
        got = spark.sql(spark_report_sql(name, f)).toPandas()
        assert len(got) == len(want) > 0, name
        pd.testing.assert_frame_equal(got, want, check_dtype=False, rtol=1e-9, atol=1e-9)
