"""The report SQL as Spark runs it (fast: DuckDB only, no Spark).

:func:`preflog.spark.sql.expand_macros` must not change a report: the macro-expanded text, run on
DuckDB, gives the macro version's frame exactly, with and without filters. What is left for Spark
(literal parameters, ``array_contains``, ``STRING``, double literals) is checked on the text here and
by running it on Spark against DuckDB in ``test_spark_job.py``.
"""

from __future__ import annotations

import pandas as pd
import pytest

from preflog import reports as duck_reports
from preflog.reports.db import Filters
from preflog.shipped import shipped
from preflog.spark.sql import REPORTS
from preflog.spark.sql import expand_macros
from preflog.spark.sql import macros
from preflog.spark.sql import report_sql
from preflog.spark.sql import spark_report_sql
from preflog.workspace import Workspace

# DuckDB only: these run without the extra too
pytestmark = pytest.mark.needs_no_extra


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    ws = Workspace(tmp_path_factory.mktemp("sql") / "store")
    ws.import_paths([shipped("data") / "examples"], workers=1)
    return ws


FILTERS = [Filters(), Filters(preset="sochi"), Filters(player="Anna", date_from="2020-01-01"),
           Filters(pulka=["seed000-sample-sheet", "seed001-rostov-raspasy"])]


@pytest.mark.parametrize("name", REPORTS)
@pytest.mark.parametrize("filters", FILTERS, ids=["none", "preset", "player+date", "pulkas"])
def test_the_expanded_report_is_the_macro_report(workspace: Workspace, name: str, filters: Filters) -> None:
    con = workspace.connect()
    want = getattr(duck_reports, name)(con, player=filters.player, preset=filters.preset,
                                       date_from=filters.date_from, pulka=filters.pulka)
    text = expand_macros(report_sql(name))
    assert not any(f"{m}(" in text.lower() for m in macros())
    got = con.execute(text, filters.params()).df()
    pd.testing.assert_frame_equal(got, want)
    if filters.pulka is None and filters.player is None:
        assert len(want) > 0


def test_the_macros_are_read_from_the_duckdb_file() -> None:
    m = macros()
    assert {"rate", "wilson_lo", "wilson_hi", "keep_row", "sel_deals", "sel_player_deals", "sel_pulka_results",
            "sel_pulkas"} <= set(m)
    assert m["rate"].params == ("k", "n") and not m["rate"].table and m["sel_deals"].table


def test_the_spark_text_has_literals_and_spark_spellings() -> None:
    text = spark_report_sql("players", Filters(player="O'Hara", pulka=["a", "b"]))
    assert "$" not in text and "list_contains" not in text
    assert "'O\\'Hara'" in text and "array('a', 'b')" in text and "array_contains(" in text
    assert "1.0D" in text and "1.959963984540054D" in text
    assert "CAST(NULL AS STRING)" in text  # the preset filter, not given
    assert "STRING" in spark_report_sql("players_by_level") and "VARCHAR" not in spark_report_sql("players_by_level")


def test_an_unknown_report_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown report"):
        report_sql("nope")

