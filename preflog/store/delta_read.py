"""The ordered read of a Delta event store: its rows in (pulka, seq) order without a sort.

When the statistics of the table's files (the Delta log's) and of a big file's row groups (its Parquet
footer) prove them in pulka order, pyarrow reads them one after another, each checked sorted as it is
read (:func:`read_units`); a shard reads only the files and row groups its range of pulka ids touches.
Otherwise :class:`~.delta.DeltaStore` has DuckDB sort. Also the column readers that turn the scanned
Arrow batches into Python values (:func:`column_values`: the compiled ``_read`` when it is built).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from types import ModuleType
from typing import Any
from typing import NamedTuple

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
from deltalake import DeltaTable

from preflog._native import pure_requested
from preflog._native import switched_off

from .base import ShardRange
from .base import StoreError
from .base import bounds_of_counts
from .base import in_range
from .base import parquet_damage
from .base import shard_cuts

COLS = "pulka, seq, code, player, card, value, payload"
ALL = "pulka, seq, deal, code, player, card, value, payload, hash"


try:
    from . import _read  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # not built (no compiler at install time): NumPy's tolist
    _read = None

BUILT: ModuleType | None = _read
"""The compiled column reader (``_read.c``, plain CPython C API) when it is built, else None."""
READ: ModuleType | None = None if pure_requested() else BUILT
"""The reader :func:`column_values` uses now (None: NumPy's ``tolist``)."""


def pure_read() -> AbstractContextManager[None]:
    """Read integer columns with NumPy's ``tolist`` inside the block (whatever is built)."""
    return switched_off(globals(), "READ")


def _sliceable(col: pa.Array) -> Any:
    """An integer column without nulls as a NumPy view (cut per pulka by :func:`column_values`: the same ints as
    ``to_pylist``, several times faster); any other column as its Python list."""
    if col.null_count == 0 and pa.types.is_integer(col.type):
        return col.to_numpy()
    return col.to_pylist()


def engine_columns(b: pa.RecordBatch) -> list[Any]:
    """A scanned batch's five engine columns (code, player, card, value, payload) for :func:`column_values`."""
    return [_sliceable(b.column(i)) for i in range(2, 6)] + [_payloads(b.column(6))]


def _payloads(col: pa.Array) -> list[Any]:
    """The payload column as Python values: ``None`` for the nulls (nearly every row), the strings set
    in place — cheaper than ``to_pylist`` over a column of nulls."""
    n = len(col)
    if col.null_count == n:
        return [None] * n
    if col.null_count == 0:
        return col.to_pylist()  # type: ignore[no-any-return]
    out: list[Any] = [None] * n
    at = pc.indices_nonzero(pc.is_valid(col)).to_pylist()
    for i, v in zip(at, col.take(pa.array(at, pa.int64())).to_pylist(), strict=True):
        out[i] = v
    return out


def column_values(col: Any, start: int, end: int) -> list[Any]:
    """Rows ``start:end`` of a :func:`_sliceable` or :func:`_payloads` column as a Python list (an integer
    column by the compiled :data:`READ` when it is built: ``tolist`` is the reference)."""
    if isinstance(col, list):
        return col[start:end]
    if READ is not None:
        try:
            return READ.int_list(col, start, end)  # type: ignore[no-any-return]
        except TypeError:  # an item format it does not read: NumPy's own conversion
            pass
    return col[start:end].tolist()  # type: ignore[no-any-return]


# A file of up to this many rows is read and checked whole by the ordered read (a few tens of MB);
# a bigger one row group by row group.
WHOLE_FILE_ROWS = 2_000_000
# Statistics this long may be truncated by a writer (Delta keeps 32 characters of a string): not proof.
STAT_CHARS = 32
_READ = ["pulka", "seq", "code", "player", "card", "value", "payload"]
SMALL_UNIT = 65_536  # rows of a unit the ordered read reads without Arrow's thread pool


class Unordered(StoreError):
    """A unit of the ordered read is not sorted by (pulka, seq) after all (caught inside the read: it
    falls back to the sorted scan)."""


def exact_stat(value: object) -> bool:
    return isinstance(value, str) and len(value) < STAT_CHARS - 1


class Unit(NamedTuple):
    """A piece of the ordered read: a whole file (``group`` None) or one row group of it, with the pulka
    range its statistics give (``lo`` … ``hi``, both exact) and its rows (None: the log did not say)."""

    path: str
    group: int | None
    lo: str
    hi: str
    rows: int | None


def row_groups(path: str) -> list[Unit] | None:
    """The row groups of the file at ``path`` as units, when its footer's statistics prove them in pulka
    order (exact, ascending, each starting at or after the end of the one before); else None."""
    import pyarrow.parquet as pq

    with pq.ParquetFile(path) as f:
        meta = f.metadata
    col = meta.schema.names.index("pulka")
    out: list[Unit] = []
    last: str | None = None
    for g in range(meta.num_row_groups):
        rg = meta.row_group(g)
        st = rg.column(col).statistics
        if st is None or not st.has_min_max or not exact_stat(st.min) or not exact_stat(st.max) \
                or (last is not None and last > st.min):
            return None
        last = st.max
        out.append(Unit(path, g, st.min, st.max, rg.num_rows))
    return out


def unit_bounds(units: Sequence[Unit], cuts: Sequence[int]) -> list[str]:
    """The pulka holding each row of ``cuts`` (ascending offsets into the rows of ``units`` read in order),
    from the units' row counts and, for a row group holding a cut, its pulka column alone. Raises
    :class:`Unordered` when the counts do not add up (the caller asks DuckDB instead)."""
    import pyarrow.parquet as pq

    out: list[str] = []
    it = iter(cuts)
    cut = next(it, None)
    start = 0
    for u in units:
        if cut is None:
            break
        if u.rows is None:
            raise Unordered
        end = start + u.rows
        if cut < end:
            with pq.ParquetFile(u.path) as f:
                meta = f.metadata
                offset = start  # the row group's first row among all the rows
                for g in range(meta.num_row_groups) if u.group is None else [u.group]:
                    n = meta.row_group(g).num_rows
                    col: pa.ChunkedArray | None = None
                    while cut is not None and cut < offset + n:
                        if col is None:
                            col = f.read_row_group(g, columns=["pulka"]).column(0)
                        out.append(col[cut - offset].as_py())
                        cut = next(it, None)
                    offset += n
            if offset != end:  # the file holds another number of rows than the log counted
                raise Unordered
        start = end
    if cut is not None:
        raise Unordered
    return out


def bounds_of_units(units: Sequence[Unit], n: int) -> list[str | None]:
    """The ``n - 1`` shard bounds (:func:`~.base.shard_cuts`) of the rows of ``units`` read in order."""
    counts = [u.rows for u in units]
    if any(c is None for c in counts):
        raise Unordered  # the log did not count a file's rows: DuckDB counts them
    total = sum(c for c in counts if c is not None)
    if total == 0:
        return [None] * (n - 1)
    return list(unit_bounds(units, shard_cuts(total, n)))


def duckdb_bounds(con: duckdb.DuckDBPyConnection, src: str, n: int) -> list[str | None]:
    """The ``n - 1`` shard bounds of the rows of ``src``, from DuckDB's count of rows per pulka."""
    counted = con.sql(f"SELECT pulka, count(*) FROM {src} GROUP BY pulka ORDER BY pulka").fetchall()
    return bounds_of_counts(((p, int(c)) for p, c in counted), n)


def _touches(u: Unit, rng: ShardRange) -> bool:
    return (rng[0] is None or u.hi >= rng[0]) and (rng[1] is None or u.lo < rng[1])


def shard_units(units: Sequence[Unit], rng: ShardRange) -> list[Unit]:
    """The units a shard range needs: those its range touches, a whole file the range cuts replaced by
    the row groups of it the range touches (when its footer proves them in order), so a reader decodes
    about its own share of the rows."""
    out: list[Unit] = []
    for u in units:
        if not _touches(u, rng):
            continue
        if u.group is None and not (in_range(u.lo, rng) and in_range(u.hi, rng)):
            groups = row_groups(u.path)
            if groups is not None:
                out.extend(g for g in groups if _touches(g, rng))
                continue
        out.append(u)
    return out


def _range_mask(ids: pa.Array | pa.ChunkedArray, rng: ShardRange) -> pa.Array | pa.ChunkedArray:
    lo, hi = rng
    if lo is not None and hi is not None:
        return pc.and_(pc.greater_equal(ids, lo), pc.less(ids, hi))
    if lo is not None:
        return pc.greater_equal(ids, lo)
    assert hi is not None
    return pc.less(ids, hi)


def plain_ids(col: pa.Array) -> pa.Array:
    """A dictionary column (the pulka ids of the ordered read) as its plain values: ``to_pylist`` of a
    dictionary array goes value by value through scalars, several times slower."""
    return col.dictionary_decode() if pa.types.is_dictionary(col.type) else col


def _id_keys(ids: pa.Array) -> pa.Array:
    """Keys ordered and equal as the pulka ids ``ids`` are: a dictionary column's indices when its
    dictionary is strictly ascending (as it is read from a table in pulka order: a unified dictionary
    lists the ids as they first occur), else the ids as strings."""
    if not pa.types.is_dictionary(ids.type):
        return ids
    d = ids.dictionary
    if len(d) < 2 or not pc.any(pc.less_equal(d.slice(1), d.slice(0, len(d) - 1))).as_py():
        return ids.indices
    return ids.dictionary_decode()


def pulka_spans(ids: pa.Array) -> list[tuple[int, int]]:
    """``(start, end)`` of each pulka's rows in a scanned batch, given its pulka id column (in order)."""
    n = len(ids)
    keys = _id_keys(ids)
    cuts = pc.indices_nonzero(pc.not_equal(keys[1:], keys[:-1])).to_pylist() if n > 1 else []
    ends = [c + 1 for c in cuts] + [n]
    return list(zip([0, *ends[:-1]], ends, strict=True))


def read_units(units: Sequence[Unit], pulkas: Sequence[str] | None,
               batch_size: int, rng: ShardRange | None = None) -> Iterator[pa.RecordBatch]:
    """The rows of ``units`` (ascending pulka ranges that touch at most at their ends: see
    :func:`ordered_units`) in order, read by pyarrow without a sort; with ``rng``, only the
    pulkas in that shard range (a unit the range cuts is filtered, one inside it is not).

    Each unit is checked sorted (pulka ascending, seq ascending within a pulka) before any of its rows
    is handed out (small units together with the next ones, up to :data:`SMALL_UNIT` rows), and the rows
    of its last pulka are held back and checked again with the next unit (a pulka may run on into it).
    So every row handed out belongs to a pulka that precedes every row not yet checked; a unit that
    fails raises :class:`Unordered`, and a sort from the last row handed out loses nothing. With
    ``pulkas``, a unit whose pulka range holds none of them is not read (a damaged one: the whole read
    falls back, so the damage is named as before)."""
    import pyarrow.parquet as pq

    asked = sorted(set(pulkas)) if pulkas is not None else None
    wanted = None if asked is None else pa.array(asked, pa.string())
    held: pa.Table | None = None
    pending: list[pa.Table] = []   # small units read, checked together (a live pulka's appends: a file each)
    waiting = 0
    last = len(units) - 1
    for k, u in enumerate(units):
        if asked is not None:   # a unit whose (exact) pulka range holds none of them is not read
            at = bisect_left(asked, u.lo)
            skip = at == len(asked) or asked[at] > u.hi
            if skip and u.group is None and parquet_damage(u.path) is not None:
                raise Unordered   # a damaged file is named as a whole read names it (DuckDB's read, then the check)
        else:
            skip = False
        if not skip:
            # the file alone: no dataset discovery, no partitions guessed from the path; the pulka ids as a
            # dictionary (as Parquet stores them): no string per row, and order checks and cuts on its indices;
            # a small file on this thread (handing a few rows to Arrow's thread pool costs more than it saves)
            threads = u.rows is None or u.rows > SMALL_UNIT
            with pq.ParquetFile(u.path, read_dictionary=["pulka"]) as f:
                t = f.read(columns=_READ, use_threads=threads) if u.group is None else \
                    f.read_row_group(u.group, columns=_READ, use_threads=threads)
            if wanted is not None:
                t = t.filter(pc.is_in(t.column(0), value_set=wanted))
            if rng is not None and t.num_rows and not (in_range(u.lo, rng) and in_range(u.hi, rng)):
                t = t.filter(_range_mask(t.column(0), rng))  # a unit the range cuts (a pulka is in one shard, whole)
            if t.num_rows:
                pending.append(t)
                waiting += t.num_rows
        if k < last and waiting < SMALL_UNIT:
            continue   # the next unit is checked with these
        if not pending:
            continue
        parts = [held, *pending] if held is not None else pending
        t = pa.concat_tables([parts[0], *(q.cast(parts[0].schema) for q in parts[1:])])
        pending, waiting = [], 0
        n = t.num_rows
        t = t.combine_chunks()
        ids, seqs = _id_keys(t.column(0).chunk(0)), t.column(1)
        if n > 1:
            a, b = ids.slice(0, n - 1), ids.slice(1)
            down = pc.less(b, a)
            same_not_up = pc.and_(pc.equal(b, a), pc.less_equal(seqs.slice(1), seqs.slice(0, n - 1)))
            if pc.any(pc.or_(down, same_not_up)).as_py():
                raise Unordered
        cut = pc.index(ids, ids[n - 1]).as_py()  # the first row of the last pulka
        held = t.slice(cut)
        if cut:
            yield from t.slice(0, cut).to_batches(max_chunksize=batch_size)
    if held is not None and held.num_rows:
        yield from held.to_batches(max_chunksize=batch_size)


def ordered_units(dt: DeltaTable, root: Path) -> list[Unit] | None:
    """The table's files (``group`` None) or, in a file of more than :data:`WHOLE_FILE_ROWS` rows, its
    row groups in (pulka, seq) order, when the statistics prove it: the pulka
    ranges of the files (the Delta log's statistics) and of a big file's row groups (its Parquet
    footer) ascend, each starting at or after the end of the one before (a pulka may run from one
    into the next). ``None`` when they do not (overlapping appends, a compaction
    that merged files, statistics missing or possibly truncated): DuckDB sorts then. Each unit's own
    order is checked as it is read (:func:`read_units`)."""
    from urllib.parse import unquote

    # (pa.table() of the log's table would import pandas: ≈ 0.3 s in a fresh worker)
    adds = pa.RecordBatchReader.from_stream(dt.get_add_actions(flatten=True)).read_all()
    if adds.num_rows == 0:
        return []
    names = adds.schema.names
    if "min.pulka" not in names or "max.pulka" not in names:
        return None
    # files of one and the same range (a live pulka's appends, a file each) in the order of their seqs
    first = adds.column("min.seq").to_pylist() if "min.seq" in names else [None] * adds.num_rows
    files = sorted(zip(adds.column("min.pulka").to_pylist(), adds.column("max.pulka").to_pylist(),
                       adds.column("path").to_pylist(), adds.column("num_records").to_pylist(), first, strict=True),
                   key=lambda f: (f[0] is None, f[0] or "", f[1] or "", f[4] if isinstance(f[4], int) else -1))
    units: list[Unit] = []
    prev: str | None = None
    for lo, hi, rel, rows, _first in files:
        if not exact_stat(lo) or not exact_stat(hi) or (prev is not None and prev > lo):
            return None
        prev = hi
        path = Path(unquote(rel))
        path = path if path.is_absolute() else root / path
        if rows is None or rows <= WHOLE_FILE_ROWS:
            units.append(Unit(str(path), None, lo, hi, rows))
            continue
        groups = row_groups(str(path))
        if groups is None:
            return None
        units.extend(groups)
    return units

