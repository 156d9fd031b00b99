"""The grouped plan's arithmetic (no Spark): files whose pulka ranges overlap form one group, each group holds
whole pulkas, groups are packed into tasks of about equal events, and a table whose pulkas are scattered
(or whose log lacks exact statistics) gets no grouped plan. And the worker's read: sorted, only the
audit's columns, a pulka split over two files joined."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from preflog.spark.plan import DataFile
from preflog.spark.plan import Snapshot
from preflog.spark.plan import file_groups
from preflog.spark.plan import pulka_spans
from preflog.spark.plan import read_group
from preflog.spark.plan import row_group_ranges
from preflog.spark.tables import EVENT_COLUMNS

# no Spark: the plan's arithmetic and the worker's read run without the extra too
pytestmark = pytest.mark.needs_no_extra


def snap(*files: tuple[str, int, str | None, str | None]) -> Snapshot:
    fs = tuple(DataFile(name, 0, rows, lo, hi) for name, rows, lo, hi in files)
    return Snapshot("t", 3, fs, sum(f.rows for f in fs))


def test_overlapping_ranges_join_transitively_and_tasks_balance() -> None:
    s = snap(("f1", 100, "a", "c"), ("f2", 50, "b", "d"), ("f3", 70, "d", "e"),  # a–e: one group of 220
             ("f4", 200, "f", "g"), ("f5", 30, "h", "h"), ("f6", 10, "i", "k"))
    tasks = file_groups(s, slots=2, per_task=1000)
    assert tasks is not None
    # largest first into the emptiest: 220 → task 1, 200 → task 2, 30 → task 2 (230), 10 → task 1 (230)
    assert sorted(sorted(t.files) for t in tasks) == [["f1", "f2", "f3", "f6"], ["f4", "f5"]]
    assert [t.events for t in tasks] == [230, 230]


def test_no_grouped_plan_without_exact_statistics_or_with_scattered_pulkas() -> None:
    assert file_groups(snap(("f1", 10, "a", "b"), ("f2", 10, None, None)), slots=2) is None
    # every commit spans the whole id range: one group holds everything, more than one task's share
    scattered = snap(*((f"f{i}", 400, "a", "z") for i in range(4)))
    assert file_groups(scattered, slots=2, per_task=500) is None
    # a small table makes one task anyway: one group is fine
    assert file_groups(scattered, slots=1, per_task=10_000) is not None
    assert file_groups(snap(), slots=2) == []


def test_a_worker_reads_its_files_sorted_with_the_audit_columns_only(tmp_path: Path) -> None:
    def write(name: str, rows: list[tuple[str, int]]) -> str:
        t = pa.table({"pulka": [p for p, _ in rows], "seq": pa.array([q for _, q in rows], pa.int32()),
                      "deal": pa.array([0] * len(rows), pa.int32()), "code": pa.array([1] * len(rows), pa.int8()),
                      "player": pa.array([0] * len(rows), pa.int8()), "card": pa.array([0] * len(rows), pa.int8()),
                      "value": pa.array([0] * len(rows), pa.int32()), "payload": [None] * len(rows),
                      "hash": pa.array([0] * len(rows), pa.int64())})
        pq.write_table(t, tmp_path / name)
        return str(tmp_path / name)

    a = write("my file 1.parquet", [("p1", 1), ("p1", 2), ("p2", 1)])
    b = write("f2.parquet", [("p2", 2), ("p1", 3), ("p3", 1)])  # p1 and p2 continue in a later commit
    events = read_group([b, a])
    assert events.schema.names == list(EVENT_COLUMNS)
    assert list(zip(events.column("pulka").to_pylist(), events.column("seq").to_pylist(), strict=True)) == [
        ("p1", 1), ("p1", 2), ("p1", 3), ("p2", 1), ("p2", 2), ("p3", 1)]
    assert list(pulka_spans(events.column("pulka"))) == [(0, 3), (3, 5), (5, 6)]


def test_a_large_group_is_cut_by_row_groups_into_tasks_owning_whole_pulkas(tmp_path: Path) -> None:
    # one commit's file of 40 pulkas of 7 to 13 events, in row groups of 50 rows: most row groups begin and end
    # inside a pulka, so the file's row groups all overlap their neighbours and the file is one group
    rows = [(f"p{i:03d}", q) for i in range(40) for q in range(1, 8 + (i * 5) % 7)]
    t = pa.table({"pulka": [p for p, _ in rows], "seq": pa.array([q for _, q in rows], pa.int32()),
                  "deal": pa.array([0] * len(rows), pa.int32()), "code": pa.array([1] * len(rows), pa.int8()),
                  "player": pa.array([0] * len(rows), pa.int8()), "card": pa.array([0] * len(rows), pa.int8()),
                  "value": pa.array([0] * len(rows), pa.int32()), "payload": [None] * len(rows),
                  "hash": pa.array([0] * len(rows), pa.int64())})
    path = str(tmp_path / "commit.parquet")
    pq.write_table(t, path, row_group_size=50)
    assert pq.ParquetFile(path).metadata.num_row_groups == -(-len(rows) // 50)
    s = snap((path, len(rows), "p000", "p039"))

    assert file_groups(s, slots=2, per_task=1000) is not None   # without the footers: the whole file, one task
    assert len(file_groups(s, slots=2, per_task=1000) or []) == 1
    tasks = file_groups(s, slots=2, per_task=100, footers=row_group_ranges, split=100)
    assert tasks is not None and len(tasks) >= 3
    assert tasks[0].lo is None and tasks[-1].hi is None
    assert all(a.hi == b.lo for a, b in zip(tasks, tasks[1:], strict=False))  # the owned ranges tile the ids

    # every pulka is read whole by exactly one task, and no task reads the whole file
    seen: list[tuple[str, int]] = []
    for task in tasks:
        (uri, groups), = task.pieces
        assert uri == path and groups is not None and len(groups) < pq.ParquetFile(path).metadata.num_row_groups
        events = read_group([uri], None, [groups], task.lo, task.hi)
        seen.extend(zip(events.column("pulka").to_pylist(), events.column("seq").to_pylist(), strict=True))
    assert seen == rows
    assert sum(task.events for task in tasks) == len(rows)
