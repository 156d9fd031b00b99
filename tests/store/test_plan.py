"""The read plan of the event table (:mod:`preflog.store.plan`): the one reading of the log's files that
the store's DuckDB readers and the Spark job share."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from deltalake import WriterProperties

from preflog.spark.plan import row_group_ranges
from preflog.spark.plan import snapshot
from preflog.store import DeltaStore
from preflog.store import delta
from preflog.store.plan import RowGroup
from tests.synthetic import synthetic_pulka

GAME = synthetic_pulka(7, deals=3)
ODD = "Мои игры #1 100%"


def test_the_plan_names_each_file_as_readers_open_it_with_its_rows_and_pulkas(tmp_path: Path) -> None:
    """Two commits (pulkas a, b; then c): two files, under the odd folder as named, their rows and pulka
    ranges as written; the store's files() and the Spark job's snapshot are the same plan."""
    store = DeltaStore(tmp_path / ODD / "events")
    store.append_many([("a", 0, GAME), ("b", 0, GAME[:10])])
    store.append("c", GAME[:4], 0)
    plan = store.read_plan()
    assert plan.version == store.version() == 2
    assert sorted(plan.uris) == sorted(store.files())
    assert all(Path(u).is_file() and ODD in u for u in plan.uris)
    got = sorted((f.lo, f.hi, f.rows, f.first_seq, f.size == Path(f.uri).stat().st_size) for f in plan.files)
    assert got == [("a", "b", len(GAME) + 10, 1, True), ("c", "c", 4, 1, True)]
    assert plan.events == len(GAME) + 14
    snap = snapshot(str(tmp_path / ODD))
    assert snap.version == plan.version and sorted(snap.uris) == sorted(plan.uris) and snap.events == plan.events
    assert sorted((f.lo, f.hi, f.rows) for f in snap.files) == [("a", "b", len(GAME) + 10), ("c", "c", 4)]


def test_row_groups_come_from_the_footers_where_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of 13 pulkas of ``len(GAME)`` rows written in row groups of 97 rows: the plan reads its footer once
    asked, and the row groups' rows and ranges are the footer's own (the Spark job's ranges are the same)."""
    monkeypatch.setattr(delta, "WRITER_PROPERTIES", WriterProperties(max_row_group_size=97))
    store = DeltaStore(tmp_path / "events")
    store.append_many([(f"p{k:02d}", 0, GAME) for k in range(13)])
    plan = store.read_plan()
    (f,) = plan.files
    assert f.row_groups is None  # not read until asked
    (g,) = plan.with_row_groups().files
    meta = pq.ParquetFile(f.uri).metadata
    assert g.row_groups is not None and len(g.row_groups) == meta.num_row_groups == -(-13 * len(GAME) // 97)
    assert sum(r.rows for r in g.row_groups) == f.rows == 13 * len(GAME)
    assert g.row_groups[0] == RowGroup(97, "p00", f"p{96 // len(GAME):02d}")  # rows 0..96
    assert g.row_groups[-1].hi == "p12"
    assert all(a.hi is not None and b.lo is not None and a.hi <= b.lo
               for a, b in zip(g.row_groups, g.row_groups[1:], strict=False))
    assert row_group_ranges([f.uri]) == {f.uri: list(g.row_groups)}


def test_a_long_id_has_no_exact_range(tmp_path: Path) -> None:
    """Ids of 31 characters or more may be cut by a writer's statistics: the plan keeps what the log says,
    and says the range is not proven."""
    store = DeltaStore(tmp_path / "events")
    store.append("x" * 40, GAME[:3], 0)
    (f,) = store.read_plan().files
    assert f.pulkas is None


def test_a_folder_deltalake_would_misread_is_refused(tmp_path: Path) -> None:
    """``100%41`` would be written as ``100A`` by deltalake: one line, and nothing made anywhere."""
    from preflog.store import StoreError

    with pytest.raises(StoreError, match=r"100%41/events: deltalake takes '%' and two hex digits .* rename the folder"):
        DeltaStore(tmp_path / "100%41" / "events")
    assert list(tmp_path.iterdir()) == []
