"""Pinned table versions, the two plans, and two defects of issue 32.

* ``--table-version N`` reproduces an earlier audit after more imports and a compaction, and the summary
  line and ``OUT/_preflog.json`` record the path, version, files and events read;
* ``spark report`` refuses projections written from two versions of the table;
* the grouped plan (workers read whole-pulka file groups with pyarrow) and the shuffle plan give the same
  six tables, row for row;
* a store path with a space (``my store``, once read as ``my%20store``), and ``spark analyze`` on Croatian
  and Slovenian pulkas (the compiled build's ``FrozenInstanceError``), equal to ``preflog analyze --all``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from deltalake import DeltaTable
from typer.testing import CliRunner

from preflog.analysis.table import TABLES as ANALYSIS_TABLES
from preflog.analysis.table import table_files
from preflog.cli.app import app
from preflog.model.events import Row
from preflog.sim import simulate_many
from preflog.spark.tables import ANALYSIS_SORT_KEYS
from preflog.spark.tables import SORT_KEYS
from preflog.spark.tables import TABLES
from preflog.workspace import Workspace

from .conftest import damaged

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]
runner = CliRunner()


def sims(specs: list[dict[str, object]], n: int, seed: int, prefix: str, cut: bool = False
         ) -> list[tuple[str, int, list[Row]]]:
    out = []
    for i, rows in simulate_many(specs, n, seed, workers=1, rows=True):
        out.append((f"{prefix}-{i:03d}", 0, damaged(rows) if cut and i % 2 else rows))
    return out


def table(out: Path, name: str) -> list[dict[str, object]]:
    return pq.read_table(out / name).sort_by([(k, "ascending") for k in SORT_KEYS[name]]).to_pylist()


def test_table_version_reproduces_an_earlier_audit(spark: object, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    ws.store(create=True).append_many(sims([{"rules_spec": "sochi", "players": 3, "pool": 6}], 12, 3, "a", cut=True))
    v1 = DeltaTable(str(ws.root / "events")).version()
    first = tmp_path / "first"
    res = runner.invoke(app, ["spark", "audit", str(first), "--store", str(ws.root)])
    assert res.exit_code == 1, res.output
    assert f"at version {v1} (1 file), groups plan on local[2]: 1 executor, 2 cores" in res.output
    # more imports (overlapping ids: b- sorts before the a- ids, c- after), then a compaction into one file
    ws.store(create=True).append_many(sims([{"rules_spec": "rostov", "players": 3, "pool": 6}], 6, 4, "b", cut=True))
    ws.store(create=True).append_many(sims([{"rules_spec": "croatian", "players": 3, "pool": 6}], 6, 5, "c"))
    DeltaTable(str(ws.root / "events")).optimize.compact()
    latest = DeltaTable(str(ws.root / "events")).version()
    assert latest > v1 + 2

    again = tmp_path / "again"
    res = runner.invoke(app, ["spark", "audit", str(again), "--store", str(ws.root), "--table-version", str(v1)])
    assert res.exit_code == 1, res.output
    for name in ("findings", "settlements", "audits"):
        assert table(again, name) == table(first, name), name
    record = json.loads((again / "_preflog.json").read_text())["tables"]["audits"]
    events = sum(r["events"] for r in table(first, "audits"))  # type: ignore[misc]
    assert {k: record[k] for k in ("table", "version", "files", "events", "rules_versions")} == {
        "table": str(ws.root / "events"), "version": v1, "files": 1, "events": events, "rules_versions": [1]}
    assert record["preflog"]

    now = tmp_path / "now"
    res = runner.invoke(app, ["spark", "audit", str(now), "--store", str(ws.root)])
    assert f"at version {latest} (1 file)" in res.output
    assert len(table(now, "audits")) == 24 and len(table(first, "audits")) == 12

    # projections from v1, then (as if a later run stopped half way) deals recorded from the latest version
    proj = tmp_path / "proj"
    assert runner.invoke(app, ["spark", "project", str(proj), "--store", str(ws.root), "--table-version",
                               str(v1)]).exit_code == 1
    doc = json.loads((proj / "_preflog.json").read_text())
    doc["tables"]["deals"]["version"] = latest
    (proj / "_preflog.json").write_text(json.dumps(doc))
    res = runner.invoke(app, ["spark", "report", str(proj)])
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [
        f"error: {proj}: the projections mix two versions of the event table (deals was written from version "
        f"{latest}, player_deals from version {v1}): run `preflog spark project` on it again"]


def test_as_of_reads_the_version_current_then(spark: object, tmp_path: Path) -> None:
    from datetime import UTC
    from datetime import datetime

    ws = Workspace(tmp_path / "store")
    ws.store(create=True).append_many(sims([{"rules_spec": "sochi", "players": 3, "pool": 6}], 4, 7, "a"))
    import time

    time.sleep(1.1)
    ws.store(create=True).append_many(sims([{"rules_spec": "sochi", "players": 3, "pool": 6}], 4, 8, "b"))
    # half way between the two commits: a commit's recorded timestamp is taken a little before its file is
    # written, and delta-rs dates a version by the file, so the first commit's own timestamp can fall before it
    first, second = (h["timestamp"] for h in DeltaTable(str(ws.root / "events")).history(2)[::-1])
    assert second - first >= 1000
    when = datetime.fromtimestamp((first + second) / 2000, UTC)
    out = tmp_path / "out"
    res = runner.invoke(app, ["spark", "audit", str(out), "--store", str(ws.root), "--as-of", when.isoformat()])
    assert res.exit_code in (0, 1), res.output
    assert len(table(out, "audits")) == 4


def test_the_grouped_and_the_shuffle_plan_give_the_same_tables(spark: object, tmp_path: Path) -> None:
    """Three imports whose ids interleave (so two groups join files of two commits) and a pulka appended to
    in a later commit (its events in two files)."""
    ws = Workspace(tmp_path / "store")
    store = ws.store(create=True)
    store.append_many(sims([{"rules_spec": "sochi", "players": 3, "pool": 6}], 8, 11, "m", cut=True))
    store.append_many(sims([{"rules_spec": "leningrad", "players": 4, "pool": 6}], 8, 12, "a", cut=True))
    store.append_many(sims([{"rules_spec": "croatian", "players": 3, "pool": 6}], 8, 13, "z"))
    outs = {}
    for plan in ("groups", "shuffle"):
        outs[plan] = tmp_path / plan
        res = runner.invoke(app, ["spark", "project", str(outs[plan]), "--store", str(ws.root), "--plan", plan])
        assert res.exit_code == 1, res.output
        assert f"{plan} plan on" in res.output
    for name in TABLES:
        assert table(outs["groups"], name) == table(outs["shuffle"], name), name
    assert len(table(outs["groups"], "deals")) > 50


def test_a_path_with_a_space_and_croatian_and_slovenian_analysis(spark: object, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "my store")
    ws.store(create=True).append_many(sims([{"rules_spec": "croatian", "players": 3, "pool": 4},
                                 {"rules_spec": "slovenian", "players": 3, "pool": 4}], 4, 21, "hr"))
    built = ws.analyze_all(workers=1)
    assert built.analysed == 4
    local = {t: pa.concat_tables([pq.read_table(f) for f in table_files(ws.root, t)]) for t in ANALYSIS_TABLES}
    out = tmp_path / "out dir"
    res = runner.invoke(app, ["spark", "analyze", str(out), "--store", str(ws.root), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["rows"] == ws.analysis_report()
    keys = ANALYSIS_SORT_KEYS   # the analysis tables' row keys (each row one deal, seat or card)
    for t in ANALYSIS_TABLES:
        got = pq.read_table(out / "analysis" / t).cast(local[t].schema)
        assert got.sort_by([(k, "ascending") for k in keys[t]]).to_pylist() == \
            local[t].sort_by([(k, "ascending") for k in keys[t]]).to_pylist(), t
