"""The store read without a sort: files whose pulka ranges are disjoint and ascending are read by pyarrow
in order; anything the statistics cannot prove, or a unit found out of order, goes through DuckDB's sort.
Every case must hand out exactly the rows of the DuckDB read, in the same order."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from deltalake import write_deltalake

from preflog.store import DeltaStore
from preflog.store import delta
from preflog.store import delta_read
from tests.synthetic import synthetic_pulkas


def _duckdb_rows(store: DeltaStore, **kw: object) -> list[tuple[object, ...]]:
    real = DeltaStore._ordered_units
    DeltaStore._ordered_units = lambda self, dt: None  # type: ignore[method-assign, assignment, return-value]
    try:
        return [r for b in store.read_rows(**kw) for r in b]  # type: ignore[arg-type]
    finally:
        DeltaStore._ordered_units = real  # type: ignore[method-assign]


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the units the ordered read hands out rows of (0 when it was not used)."""
    seen: list[int] = []
    real = delta.read_units

    def spy(units: list[tuple[str, int | None]], *a: object) -> Iterator[pa.RecordBatch]:
        seen.append(len(units))
        return real(units, *a)  # type: ignore[arg-type]

    monkeypatch.setattr(delta, "read_units", spy)
    return seen


def _store(tmp: Path, chunks: list[list[tuple[str, list[object]]]]) -> DeltaStore:
    store = DeltaStore(tmp / "events")
    for chunk in chunks:
        store.append_many([(p, 0, ev) for p, ev in chunk])  # type: ignore[misc]
    return store


def test_disjoint_files_are_read_in_order_without_a_sort(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three commits of disjoint pulka ranges, appended out of order (the middle range last): the ordered
    read runs over three files and gives the DuckDB read's rows; so does a subset of pulkas and
    ``pulka_rows``; small batches cut at the same rows."""
    pulkas = list(synthetic_pulkas(3000, deals=4))
    assert len(pulkas) >= 9
    third = len(pulkas) // 3
    store = _store(tmp_path, [pulkas[:third], pulkas[2 * third:], pulkas[third:2 * third]])
    seen = _spy(monkeypatch)
    got = [r for b in store.read_rows(batch_size=100) for r in b]
    assert seen == [3]
    assert got == _duckdb_rows(store) and len(got) == sum(len(ev) for _p, ev in pulkas)
    some = [pulkas[1][0], pulkas[-1][0], pulkas[third][0]]
    assert [r for b in store.read_rows(some) for r in b] == _duckdb_rows(store, pulkas=some)
    assert [r for b in store.read_rows([]) for r in b] == []
    by_pulka = list(store.pulka_rows())
    assert [p for p, _rows in by_pulka] == sorted(p for p, _ev in pulkas)
    assert [r for _p, rows in by_pulka for r in rows] == [r[2:] for r in got]


def test_shards_read_in_order_are_the_sorted_scan_shards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A shard (k, n) read without a sort holds exactly the rows DuckDB's sorted scan gives that shard
    (the same range of pulka ids, its bounds found from the files' statistics one way and from DuckDB's
    counts the other), in the same order; the shards partition the store; each shard read goes the
    ordered way and skips a file of the three (its range does not reach it); a shard and a pulka list
    together, and the columns form, agree too."""
    pulkas = list(synthetic_pulkas(3000, deals=4))
    third = len(pulkas) // 3
    store = _store(tmp_path, [pulkas[:third], pulkas[2 * third:], pulkas[third:2 * third]])
    seen = _spy(monkeypatch)
    everything = _duckdb_rows(store)
    for n in (2, 3):
        shards = [[r for b in store.read_rows(shard=(k, n), batch_size=50) for r in b] for k in range(n)]
        assert shards == [_duckdb_rows(store, shard=(k, n)) for k in range(n)]
        assert sorted(r for s in shards for r in s) == sorted(everything)
        assert all(shards)  # every shard holds some pulka here
    assert len(seen) == 5 and max(seen) < 3  # every one of those shard reads went the ordered way, not whole
    some = [pulkas[0][0], pulkas[-1][0], pulkas[third][0], pulkas[third + 1][0]]
    assert [r for b in store.read_rows(some, shard=(1, 2)) for r in b] == _duckdb_rows(store, pulkas=some,
                                                                                    shard=(1, 2))
    cols = dict(store.pulka_columns(shard=(0, 2)))
    assert {p: c.rows() for p, c in cols.items()} == dict(store.pulka_rows(shard=(0, 2)))


def test_overlapping_files_go_through_duckdb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two commits whose pulka ranges interleave (the statistics prove nothing): DuckDB sorts, same rows."""
    pulkas = list(synthetic_pulkas(2000, deals=4))
    store = _store(tmp_path, [pulkas[0::2], pulkas[1::2]])
    seen = _spy(monkeypatch)
    got = [r for b in store.read_rows() for r in b]
    assert seen == []
    assert got == _duckdb_rows(store) and [(r[0], r[1]) for r in got] == sorted((r[0], r[1]) for r in got)


def test_a_file_out_of_order_falls_back_without_losing_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file written behind the store's back with its rows reversed, whose pulka range lies after the
    first file's: the statistics allow the ordered read, the check of that file finds it unsorted
    before handing out any of its rows, and DuckDB sorts the rest from the last row handed out — every
    row once, in order."""
    pulkas = list(synthetic_pulkas(2000, deals=4))
    half = len(pulkas) // 2
    store = _store(tmp_path, [pulkas[:half]])
    whole = [r for b in store.read_rows() for r in b]
    store.append_many([(p, 0, ev) for p, ev in pulkas[half:]])  # type: ignore[misc]
    t = store.duckdb_relation(duckdb.connect()).to_arrow_table()
    later = t.filter(pc.is_in(t["pulka"], value_set=pa.array([p for p, _ev in pulkas[half:]])))
    reversed_rows = later.take(pa.array(range(later.num_rows - 1, -1, -1)))
    # the same rows again, reversed, as the only file of the second half: overwrite that commit's file
    dt = store._table()
    write_deltalake(dt, reversed_rows.cast(t.schema), mode="overwrite",
                    predicate=f"pulka >= '{pulkas[half][0]}'")
    store = DeltaStore(tmp_path / "events")
    seen = _spy(monkeypatch)
    got = [r for b in store.read_rows(batch_size=50) for r in b]
    assert seen == [2]
    assert got == _duckdb_rows(store)
    assert got[:len(whole)] == whole and len(got) == sum(len(ev) for _p, ev in pulkas)


def test_row_groups_and_pulkas_running_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of many small row groups read row group by row group (pulkas run from one group into the
    next), and a later commit that continues the last pulka of the one before (the two files' ranges
    touch): the ordered read is used and gives the DuckDB read's rows, for all pulkas and for a few."""
    from deltalake import WriterProperties

    monkeypatch.setattr(delta, "WRITER_PROPERTIES", WriterProperties(max_row_group_size=97))
    monkeypatch.setattr(delta_read, "WHOLE_FILE_ROWS", 10)
    pulkas = list(synthetic_pulkas(3000, deals=4))
    half = len(pulkas) // 2
    store = _store(tmp_path, [pulkas[:half]])
    last_id, last_events = pulkas[half - 1]
    store.append_many([(last_id, len(last_events), last_events[1:5])]  # type: ignore[list-item]
                      + [(p, 0, ev) for p, ev in pulkas[half:]])  # type: ignore[misc]
    seen = _spy(monkeypatch)
    got = [r for b in store.read_rows(batch_size=64) for r in b]
    assert seen and seen[0] > 20  # row groups of both files
    assert got == _duckdb_rows(store)
    assert len(got) == sum(len(ev) for _p, ev in pulkas) + 4
    some = [pulkas[0][0], last_id, pulkas[-1][0]]
    assert [r for b in store.read_rows(some) for r in b] == _duckdb_rows(store, pulkas=some)


def test_a_folder_named_like_a_partition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store under a folder called ``club=north``: the ordered read takes each file alone (no column
    guessed from the path), seven fields a row as DuckDB gives them."""
    pulkas = list(synthetic_pulkas(1000, deals=3))
    store = _store(tmp_path / "club=north", [pulkas])
    seen = _spy(monkeypatch)
    got = [r for b in store.read_rows() for r in b]
    assert seen == [1] and got == _duckdb_rows(store) and {len(r) for r in got} == {7}


def test_a_live_pulkas_small_files_are_read_in_order_and_others_files_not_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pulka entered live is a file per append, every one of the same pulka range: the ordered read takes
    them in the order of their seqs (checked together, not one by one) and never falls back to DuckDB's sort;
    reading that pulka opens no file of the other pulkas, and the rows are the DuckDB read's."""
    import pyarrow.parquet as pq

    pulkas = list(synthetic_pulkas(2000, deals=6))
    (live, events), others = pulkas[0], pulkas[1:]
    assert others
    store = _store(tmp_path, [others])
    for start in range(0, len(events), 8):   # appended a few events at a time, as deals are entered
        store.append(live, events[start:start + 8], start)
    assert len(store.files()) > 20
    expected = _duckdb_rows(store, pulkas=[live])
    assert [r[1] for r in expected] == list(range(1, len(events) + 1))
    opened: list[str] = []
    real = pq.ParquetFile

    def spy(path: str, *a: object, **kw: object) -> pq.ParquetFile:
        opened.append(str(path))
        return real(path, *a, **kw)  # type: ignore[arg-type]

    def no_duckdb(*a: object, **kw: object) -> None:
        raise AssertionError("the read fell back to DuckDB's sort")

    seen = _spy(monkeypatch)
    monkeypatch.setattr(pq, "ParquetFile", spy)
    monkeypatch.setattr(duckdb, "connect", no_duckdb)
    got = [r for b in store.read_rows(pulkas=[live]) for r in b]
    assert got == expected and seen
    imported = [f for f in store.files() if others[0][0] in pq.read_table(f.replace("file://", ""),
                                                                           columns=["pulka"]).column(0).to_pylist()]
    assert len(opened) == len(store.files()) - 1 and not set(opened) & {f.replace("file://", "") for f in imported}
