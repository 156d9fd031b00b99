"""``Workspace.stats`` (pandas) and ``Workspace.stats_arrow`` (pyarrow) are the reports of ``preflog stats``
(docs/api.md, "Statistics as DataFrames and Arrow"): the same rows in the same order, filters and ``by``
passed through, and a mistake said in one line."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from preflog import reports
from preflog.errors import WorkspaceError
from preflog.workspace import Workspace

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    ws = Workspace(tmp_path_factory.mktemp("stats") / "store")
    ws.import_paths([EXAMPLES / "seed003-settlement.pref", EXAMPLES / "seed001-leningrad-four.pref"], workers=1)
    return ws


def _same(df: pd.DataFrame, table: pa.Table) -> None:
    assert isinstance(df, pd.DataFrame) and isinstance(table, pa.Table)
    assert list(df.columns) == table.column_names and len(df) == table.num_rows
    for col in df.columns:
        for a, b in zip(df[col].tolist(), table.column(col).to_pylist(), strict=True):
            if isinstance(b, float) and math.isnan(b) or b is None:
                assert a is None or a is pd.NA or (isinstance(a, float) and math.isnan(a)), (col, a, b)
            else:
                assert a == b, (col, a, b)


@pytest.mark.parametrize(("report", "options"), [
    ("players", {}),
    ("players", {"preset": "leningrad"}),
    ("players_by_level", {"player": "Запад"}),
    ("contracts", {"by": ("preset", "level")}),
    ("variants", {"pulka": "seed003-settlement"}),
])
def test_dataframe_and_arrow_hold_the_same_rows(ws: Workspace, report: str, options: dict[str, object]) -> None:
    df, table = ws.stats(report, **options), ws.stats_arrow(report, **options)
    _same(df, table)
    assert len(df) > 0
    con = ws.connect()
    try:
        _same(getattr(reports, report)(con, **options), table)  # what preflog stats prints
    finally:
        con.close()


def test_filters_reach_the_report(ws: Workspace) -> None:
    """seed001-leningrad-four holds two Leningrad pulkas of A, B, C, D; seed003 is Sochi of Запад, Восток, Юг."""
    assert sorted(ws.stats_arrow("players", preset="leningrad").column("player").to_pylist()) == ["A", "B", "C", "D"]
    assert sorted(ws.stats("players", preset="sochi")["player"]) == ["Восток", "Запад", "Юг"]
    assert ws.stats_arrow("variants").column("preset").to_pylist() == ["leningrad", "sochi"]


def test_unknown_report_and_missing_store_are_one_line(ws: Workspace, tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match=r"no report 'player' \(known: players, players_by_level, contracts"):
        ws.stats("player")
    with pytest.raises(WorkspaceError, match="no preflog store at"):
        Workspace(tmp_path / "nowhere").stats_arrow("players")
