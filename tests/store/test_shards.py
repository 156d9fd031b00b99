"""Shards: ``read_rows(shard=(k, n))`` is the k-th of n contiguous ranges of pulka ids that split the rows
evenly. Whatever the table's layout and whichever read path serves it (the ordered pyarrow read of the
shard's own files and row groups, DuckDB's sorted scan, a read that falls back half-way, the memory
store), the n shards of one store partition its pulkas: read one after another they are the whole read,
row for row and in order; no pulka is in two shards; each holds about rows / n rows. The ordered read
of a shard decodes about its own share of the table, not all of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from deltalake import WriterProperties

from preflog.store import DeltaStore
from preflog.store import EventStore
from preflog.store import MemoryStore
from preflog.store import delta
from preflog.store import delta_read
from preflog.store.base import bounds_of_counts
from preflog.store.base import shard_cuts
from preflog.store.base import shard_range
from tests.synthetic import synthetic_pulkas

Rows = list[tuple[Any, ...]]


def _rows(store: EventStore, **kw: Any) -> Rows:
    return [r for b in store.read_rows(batch_size=7, **kw) for r in b]


def _shards(store: EventStore, n: int, **kw: Any) -> list[Rows]:
    return [_rows(store, shard=(k, n), **kw) for k in range(n)]


def _check_partition(shards: list[Rows], everything: Rows) -> None:
    """The shards one after another are the whole read (so: every row once, in (pulka, seq) order, the
    ranges ascending); no pulka id is in two shards (so: each pulka whole in one); each shard holds at
    most its even share of the rows plus one pulka (the cut rows fall inside pulkas)."""
    assert [r for s in shards for r in s] == everything
    ids = [{r[0] for r in s} for s in shards]
    assert sum(len(i) for i in ids) == len(set().union(*ids))
    biggest = max((sum(1 for r in everything if r[0] == p) for p in {r[0] for r in everything}), default=0)
    n = len(shards)
    assert all(len(s) <= -(-len(everything) // n) + biggest for s in shards)


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rows of the units each ordered read decodes (one entry per read that went the ordered way)."""
    seen: list[int] = []
    real = delta.read_units

    def spy(units: list[delta_read.Unit], *a: Any) -> Iterator[pa.RecordBatch]:
        seen.append(sum(u.rows or 0 for u in units))
        return real(units, *a)

    monkeypatch.setattr(delta, "read_units", spy)
    return seen


def _delta(tmp: Path, chunks: list[list[tuple[str, list[Any]]]], **kw: Any) -> DeltaStore:
    store = DeltaStore(tmp / "events", **kw)
    for chunk in chunks:
        store.append_many([(p, 0, ev) for p, ev in chunk])
    return store


def _memory(chunks: list[list[tuple[str, list[Any]]]]) -> MemoryStore:
    store = MemoryStore()
    for chunk in chunks:
        store.append_many([(p, 0, ev) for p, ev in chunk])
    return store


@pytest.mark.parametrize("whole_file_rows", [delta_read.WHOLE_FILE_ROWS, 10])
def test_ordered_table_shards_partition_and_read_their_share(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             whole_file_rows: int) -> None:
    """Three commits of ascending pulka ranges in row groups of 97 rows (pulkas run from one group into
    the next), the files read whole (a file a range cuts is split into its row groups) or row group by
    row group from the start: for n = 1 … 4 the shards partition the pulkas and every shard read goes
    the ordered way, decoding at most its share of the rows plus two row groups (where its range begins
    and ends); the same shards come out of DuckDB's sorted scan and of the memory store."""
    monkeypatch.setattr(delta, "WRITER_PROPERTIES", WriterProperties(max_row_group_size=97))
    monkeypatch.setattr(delta_read, "WHOLE_FILE_ROWS", whole_file_rows)
    pulkas = list(synthetic_pulkas(4000, deals=2))
    third = len(pulkas) // 3
    chunks = [pulkas[:third], pulkas[third:2 * third], pulkas[2 * third:]]
    store = _delta(tmp_path, chunks)
    everything = _rows(store)
    assert len(everything) == sum(len(ev) for _p, ev in pulkas)
    memory = _memory(chunks)
    seen = _spy(monkeypatch)
    for n in range(1, 5):
        seen.clear()
        shards = _shards(store, n)
        _check_partition(shards, everything)
        assert all(shards)
        assert len(seen) == n  # every shard read went the ordered way
        assert all(rows <= len(everything) // n + 2 * 97 for rows in seen)
        with monkeypatch.context() as m:
            m.setattr(DeltaStore, "_ordered_units", lambda self, dt: None)
            assert _shards(store, n) == shards  # DuckDB: bounds from its counts, a sorted scan
        assert _shards(memory, n) == shards  # the memory store cuts the same rows alike


def test_a_read_that_falls_back_half_way_keeps_its_range(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ordered read of each shard hands out one batch and then finds a unit out of order: DuckDB
    sorts the rest of the same range (the bounds are found once per read), so the shard is the same."""
    monkeypatch.setattr(delta, "WRITER_PROPERTIES", WriterProperties(max_row_group_size=97))
    pulkas = list(synthetic_pulkas(3000, deals=2))
    half = len(pulkas) // 2
    store = _delta(tmp_path, [pulkas[:half], pulkas[half:]])
    everything = _rows(store)
    for n in (2, 3):
        shards = _shards(store, n)
        _check_partition(shards, everything)
        real = delta.read_units
        broken: list[int] = []

        def first_batch_then_unordered(*a: Any, real: Any = real, broken: list[int] = broken
                                       ) -> Iterator[pa.RecordBatch]:
            it = real(*a)
            yield next(it)
            broken.append(1)
            raise delta_read.Unordered

        with monkeypatch.context() as m:
            m.setattr(delta, "read_units", first_batch_then_unordered)
            assert _shards(store, n) == shards
        assert len(broken) == n


def test_overlapping_table_shards_partition_through_duckdb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two commits whose pulka ranges interleave, and a third that continues pulkas of both (the
    statistics prove no order, so every read is DuckDB's): for n = 1 … 4 the shards partition the
    pulkas, each pulka whole with the rows of all three commits; a pulka list and a shard together are
    that shard's part of the list; the memory store with the same contents gives the same shards."""
    pulkas = list(synthetic_pulkas(3000, deals=2))
    seen = _spy(monkeypatch)
    store = _delta(tmp_path, [pulkas[0::2], pulkas[1::2]])
    more = [(p, len(ev), ev[1:4]) for p, ev in (pulkas[0], pulkas[3], pulkas[-1])]
    store.append_many(more)
    memory = _memory([pulkas[0::2], pulkas[1::2]])
    memory.append_many(more)
    everything = _rows(store)
    assert len(everything) == sum(len(ev) for _p, ev in pulkas) + 9
    some = [pulkas[0][0], pulkas[5][0], pulkas[-1][0]]
    for n in range(1, 5):
        shards = _shards(store, n)
        _check_partition(shards, everything)
        assert shards == _shards(memory, n)
        assert [r for s in _shards(store, n, pulkas=some) for r in s] == _rows(store, pulkas=some)
    assert seen == []  # never the ordered read


@pytest.mark.parametrize("n", [2, 4, 5, 9])
def test_more_shards_than_pulkas_and_row_groups(tmp_path: Path, n: int) -> None:
    """Three pulkas in one file of one row group, read as up to nine shards: some shards are empty (two
    cut rows fall in one pulka), none holds a pulka twice or part of one, together they are the store;
    an empty store's shards are all empty."""
    pulkas = list(synthetic_pulkas(150, deals=1))[:3]
    assert len(pulkas) == 3
    store = _delta(tmp_path, [pulkas])
    everything = _rows(store)
    shards = _shards(store, n)
    _check_partition(shards, everything)
    assert sum(1 for s in shards if s) <= 3
    assert _shards(_memory([pulkas]), n) == shards
    assert _shards(DeltaStore(tmp_path / "empty"), n) == [[] for _ in range(n)]
    assert _shards(MemoryStore(), n) == [[] for _ in range(n)]


def test_bounds_by_hand() -> None:
    """Pulkas a, b, c, d of 5, 1, 3, 1 rows (rows 0-4 a, 5 b, 6-8 c, 9 d; 10 in all). Two shards: the
    cut row 10 // 2 = 5 is b's, so shard 0 is [.., b) = a (5 rows) and shard 1 is [b, ..) = b, c, d.
    Three shards: cut rows 3 (a's) and 6 (c's): shard 0 = [.., a) is empty, shard 1 = [a, c) = a, b,
    shard 2 = [c, ..) = c, d. Four: cut rows 2, 5, 7 → a, b, c."""
    counts = [("a", 5), ("b", 1), ("c", 3), ("d", 1)]
    assert shard_cuts(10, 2) == [5] and shard_cuts(10, 3) == [3, 6] and shard_cuts(10, 4) == [2, 5, 7]
    assert bounds_of_counts(counts, 2) == ["b"]
    assert bounds_of_counts(counts, 3) == ["a", "c"]
    assert bounds_of_counts(counts, 4) == ["a", "b", "c"]
    assert [shard_range((k, 3), ["a", "c"]) for k in range(3)] == [(None, "a"), ("a", "c"), ("c", None)]
    assert bounds_of_counts([], 3) == [None, None]
    assert shard_range((0, 1), []) == (None, None)


def test_v0_table_shards_partition_through_duckdb(tmp_path: Path) -> None:
    """A table of the old schema (read through DuckDB over its upcast rows): four pulkas of 3, 5, 7 and 9
    rows in one v0 commit; the shards partition them and cut the rows as the memory store does."""
    from deltalake import write_deltalake

    from preflog.store.schema import EVENTS_V0

    game = [e.to_row() for e in next(iter(synthetic_pulkas(40, deals=1)))[1]]
    sizes = {"a": 3, "b": 5, "c": 7, "d": 9}
    assert len(game) >= 9
    ids = [p for p, n in sizes.items() for _ in range(n)]
    rows = [r for n in sizes.values() for r in game[:n]]
    t = pa.table({"pulka": ids, "seq": [s for n in sizes.values() for s in range(1, n + 1)],
                  "code": [r[0] for r in rows], "player": [r[1] for r in rows], "card": [r[2] for r in rows],
                  "value": [r[3] for r in rows], "payload": [r[4] for r in rows]}, schema=EVENTS_V0)
    write_deltalake(tmp_path / "t", t)
    store = DeltaStore(tmp_path / "t")
    assert store.table_schema_version == 0
    everything = _rows(store)
    assert len(everything) == 24
    for n in range(1, 5):
        _check_partition(_shards(store, n), everything)
    # 24 rows, two shards: cut row 12 is c's (a: rows 0-2, b: 3-7, c: 8-14), so a, b | c, d
    assert [{r[0] for r in s} for s in _shards(store, 2)] == [{"a", "b"}, {"c", "d"}]
