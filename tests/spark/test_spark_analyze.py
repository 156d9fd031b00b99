"""``preflog spark analyze``: the double-dummy analysis of every stored pulka on Spark's workers equals
``preflog analyze --all`` on one machine, table by table and in the per-player report."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from preflog.analysis.table import TABLES
from preflog.analysis.table import table_files
from preflog.cli.app import app
from preflog.shipped import shipped
from preflog.workspace import Workspace

runner = CliRunner()


def _sorted(t: pa.Table, keys: tuple[str, ...]) -> list[dict[str, object]]:
    return t.sort_by([(k, "ascending") for k in keys]).to_pylist()


KEYS = {"deals": ("pulka", "deal"), "seats": ("pulka", "deal", "seat"), "cards": ("pulka", "deal", "seq"),
        "skill": ("pulka", "deal", "seat")}


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_spark_analyze_equals_analyze_all(spark: object, tmp_path: Path) -> None:
    """The seed examples (card-level and paper deals, Sochi, Leningrad, Rostov, raspasy, a four-player
    table, a few illegal logs): every row of the deals, seats and cards tables and the report are the
    single machine's."""
    ws = Workspace(tmp_path / "store")
    ws.import_paths([shipped("data") / "examples"], workers=1)
    built = ws.analyze_all(workers=1)
    assert built.analysed > 0 and built.deals > 0
    local = {t: pa.concat_tables([pq.read_table(f) for f in table_files(ws.root, t)]) for t in TABLES}
    assert local["cards"].num_rows > 0   # some card lost a trick: the comparison below is not of empty tables

    out = tmp_path / "out"
    res = runner.invoke(app, ["spark", "analyze", str(out), "--store", str(ws.root), "--master", "local[2]",
                              "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["kind"] == "analyze --all" and doc["analysed"] == built.analysed
    assert doc["rows"] == ws.analysis_report()
    for t in TABLES:
        remote = pq.read_table(out / "analysis" / t).cast(local[t].schema)
        assert _sorted(remote, KEYS[t]) == _sorted(local[t], KEYS[t]), t
