"""Delta Lake event store: one Delta table of narrow typed event rows (see docs/storage.md).

* Atomicity: a batch of any number of pulkas is one Parquet file and one Delta commit;
  a killed writer leaves at most an unreferenced file, removed by :meth:`DeltaStore.cleanup`.
* Optimistic concurrency per pulka: Delta blind appends never conflict, so the
  expected-seq check and the commit run under an exclusive lock on ``<table>/_preflog.lock``
  (``filelock.FileLock``: ``flock`` on Linux and macOS, ``LockFileEx`` on Windows, released by the
  operating system if the process dies; files starting with ``_`` are ignored by Delta and vacuum).
* Reads go through the table's live file list (never a directory glob) into DuckDB.
"""

from __future__ import annotations

import hmac
import json
import os
import threading
from bisect import bisect_left
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import AbstractContextManager
from contextlib import contextmanager
from operator import itemgetter
from pathlib import Path
from types import ModuleType
from typing import Any
from typing import NamedTuple

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
from deltalake import ColumnProperties
from deltalake import CommitProperties
from deltalake import DeltaTable
from deltalake import WriterProperties
from deltalake import write_deltalake
from filelock import FileLock

from preflog._native import pure_requested
from preflog._native import switched_off

from ..model.columns import RowColumns
from ..model.events import Row
from . import keyed
from .base import Batch
from .base import ConcurrencyError
from .base import DamagedFileError
from .base import EventStore
from .base import EventTuple
from .base import IntegrityProblem
from .base import PulkaInfo
from .base import SealedBatch
from .base import ShardRange
from .base import Stored
from .base import StoreError
from .base import bounds_of_counts
from .base import check_pulka_id
from .base import check_shard
from .base import in_range
from .base import parquet_damage
from .base import resolve_sealed
from .base import shard_cuts
from .base import shard_range
from .chain import DEAL_CODE
from .chain import DEFAULT_HASH_EVERY
from .chain import GENESIS
from .chain import StoredRow
from .chain import as_rows
from .chain import check_pulka
from .duck import read_parquet
from .heads import HeadIndex
from .pool import BulkPool
from .pool import bulk_memory_pool
from .problems import ProblemKind as Kind
from .schema import EVENTS_V1
from .schema import TABLE_SCHEMA_VERSION
from .schema import VERSION_KEY
from .schema import upcast
from .sealed import Columns
from .sealed import SealedRows
from .sealed import seal_part
from .sealed import sealed_batch
from .sealed import with_ids

HASH_EVERY_KEY = "preflog.hashEvery"
HEADS_LOG_KEY = "preflog.headsLog"   # "1": every append commit records the heads it leaves (verify checks the log)
HEADS_META = "preflog.heads"         # commit metadata: {pulka: [last seq, head hash]} of the pulkas it appended to
MAC_META = "preflog.mac"             # commit metadata: HMAC-SHA256 of the heads record under the club's key
LOCK_NAME = "_preflog.lock"

def heads_record(heads: dict[str, tuple[int, int | None]]) -> str:
    """The canonical text of the heads a commit leaves: ``{pulka: [last seq, head]}``, sorted."""
    return json.dumps({p: [s, h] for p, (s, h) in sorted(heads.items())}, separators=(",", ":"))


def sign(key: bytes, record: str) -> str:
    """HMAC-SHA256 of a heads record under the club's key, in hex (:func:`.keyed.sign`)."""
    return keyed.sign(key, record)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class _Tip(NamedTuple):
    """The last append commit of the log as a writer continues it: its Delta version, chain number and
    link digest (version -1, number 0, digest "": none yet)."""

    version: int
    n: int
    digest: str


def _parse_heads(record: str) -> dict[str, tuple[int, int]]:
    """The heads of a ``preflog.heads`` record; ValueError when it is not a map of pulka → [seq, head]."""
    got: Any = json.loads(record)
    if not isinstance(got, dict):
        raise ValueError("not an object")
    out: dict[str, tuple[int, int]] = {}
    for pulka, value in got.items():
        if not (isinstance(value, list) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise ValueError(f"pulka {pulka!r}: not [last seq, head]")
        out[pulka] = (value[0], value[1])
    return out


def _link_of(commit: dict[str, Any], before: _Tip) -> _Tip | None:
    """The chain position of an append commit (from ``history()``) after ``before``: its own link when it
    carries one, else (a commit written before links existed) the next number and its record's digest;
    None when it records no heads. ValueError when its record or link cannot be read."""
    record, chain = commit.get(HEADS_META), commit.get(keyed.CHAIN_META)
    if record is None:
        return None
    if not isinstance(record, str) or not (chain is None or isinstance(chain, str)):
        raise ValueError("its heads record or link is not text")
    version = int(commit.get("version", -1))
    if chain is None:
        return _Tip(version, before.n + 1, keyed.link_digest(None, record))
    return _Tip(version, keyed.Link.parse(chain).n, keyed.link_digest(chain, record))


# Sorted-by-(pulka, seq) data: dictionary + RLE for the small ints, delta encoding for the
# counters, no dictionary for the random hash and payloads; 128 k-row groups keep one-pulka reads pruned.
WRITER_PROPERTIES = WriterProperties(
    compression="ZSTD", compression_level=3, max_row_group_size=131_072,
    column_properties={
        "seq": ColumnProperties(dictionary_enabled=False, encoding="DELTA_BINARY_PACKED"),
        "deal": ColumnProperties(dictionary_enabled=False, encoding="DELTA_BINARY_PACKED"),
        "hash": ColumnProperties(dictionary_enabled=False),
        # deal_started payloads (the hands) are all different: a dictionary only adds bytes and time
        "payload": ColumnProperties(dictionary_enabled=False),
    },
)


_COLS = "pulka, seq, code, player, card, value, payload"
_ALL = "pulka, seq, deal, code, player, card, value, payload, hash"


try:
    from . import _read  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # not built (no compiler at install time): NumPy's tolist
    _read = None

BUILT: ModuleType | None = _read
"""The compiled column reader (``_read.c``, plain CPython C API) when it is built, else None."""
READ: ModuleType | None = None if pure_requested() else BUILT
"""The reader :func:`_values` uses now (None: NumPy's ``tolist``)."""


def pure_read() -> AbstractContextManager[None]:
    """Read integer columns with NumPy's ``tolist`` inside the block (whatever is built)."""
    return switched_off(globals(), "READ")


def _sliceable(col: pa.Array) -> Any:
    """An integer column without nulls as a NumPy view (cut per pulka by :func:`_values`: the same ints as
    ``to_pylist``, several times faster); any other column as its Python list."""
    if col.null_count == 0 and pa.types.is_integer(col.type):
        return col.to_numpy()
    return col.to_pylist()


def _engine_columns(b: pa.RecordBatch) -> list[Any]:
    """A scanned batch's five engine columns (code, player, card, value, payload) for :func:`_values`."""
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


def _values(col: Any, start: int, end: int) -> list[Any]:
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


def _columns(rows: Sequence[StoredRow]) -> Columns:
    """Stored-row tuples as the eight column lists of :func:`~.sealed.sealed_batch`."""
    cols = tuple(list(c) for c in zip(*rows, strict=True))
    return cols  # type: ignore[return-value]


# A file of up to this many rows is read and checked whole by the ordered read (a few tens of MB);
# a bigger one row group by row group.
WHOLE_FILE_ROWS = 2_000_000
# Statistics this long may be truncated by a writer (Delta keeps 32 characters of a string): not proof.
STAT_CHARS = 32
_READ = ["pulka", "seq", "code", "player", "card", "value", "payload"]
SMALL_UNIT = 65_536  # rows of a unit the ordered read reads without Arrow's thread pool


class _Unordered(StoreError):
    """A unit of the ordered read is not sorted by (pulka, seq) after all (caught inside the read: it
    falls back to the sorted scan)."""


def _exact_stat(value: object) -> bool:
    return isinstance(value, str) and len(value) < STAT_CHARS - 1


class _Unit(NamedTuple):
    """A piece of the ordered read: a whole file (``group`` None) or one row group of it, with the pulka
    range its statistics give (``lo`` … ``hi``, both exact) and its rows (None: the log did not say)."""

    path: str
    group: int | None
    lo: str
    hi: str
    rows: int | None


def _row_groups(path: str) -> list[_Unit] | None:
    """The row groups of the file at ``path`` as units, when its footer's statistics prove them in pulka
    order (exact, ascending, each starting at or after the end of the one before); else None."""
    import pyarrow.parquet as pq

    with pq.ParquetFile(path) as f:
        meta = f.metadata
    col = meta.schema.names.index("pulka")
    out: list[_Unit] = []
    last: str | None = None
    for g in range(meta.num_row_groups):
        rg = meta.row_group(g)
        st = rg.column(col).statistics
        if st is None or not st.has_min_max or not _exact_stat(st.min) or not _exact_stat(st.max) \
                or (last is not None and last > st.min):
            return None
        last = st.max
        out.append(_Unit(path, g, st.min, st.max, rg.num_rows))
    return out


def _unit_bounds(units: Sequence[_Unit], cuts: Sequence[int]) -> list[str]:
    """The pulka holding each row of ``cuts`` (ascending offsets into the rows of ``units`` read in order),
    from the units' row counts and, for a row group holding a cut, its pulka column alone. Raises
    :class:`_Unordered` when the counts do not add up (the caller asks DuckDB instead)."""
    import pyarrow.parquet as pq

    out: list[str] = []
    it = iter(cuts)
    cut = next(it, None)
    start = 0
    for u in units:
        if cut is None:
            break
        if u.rows is None:
            raise _Unordered
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
                raise _Unordered
        start = end
    if cut is not None:
        raise _Unordered
    return out


def _bounds_of_units(units: Sequence[_Unit], n: int) -> list[str | None]:
    """The ``n - 1`` shard bounds (:func:`~.base.shard_cuts`) of the rows of ``units`` read in order."""
    counts = [u.rows for u in units]
    if any(c is None for c in counts):
        raise _Unordered  # the log did not count a file's rows: DuckDB counts them
    total = sum(c for c in counts if c is not None)
    if total == 0:
        return [None] * (n - 1)
    return list(_unit_bounds(units, shard_cuts(total, n)))


def _duckdb_bounds(con: duckdb.DuckDBPyConnection, src: str, n: int) -> list[str | None]:
    """The ``n - 1`` shard bounds of the rows of ``src``, from DuckDB's count of rows per pulka."""
    counted = con.sql(f"SELECT pulka, count(*) FROM {src} GROUP BY pulka ORDER BY pulka").fetchall()
    return bounds_of_counts(((p, int(c)) for p, c in counted), n)


def _touches(u: _Unit, rng: ShardRange) -> bool:
    return (rng[0] is None or u.hi >= rng[0]) and (rng[1] is None or u.lo < rng[1])


def _shard_units(units: Sequence[_Unit], rng: ShardRange) -> list[_Unit]:
    """The units a shard range needs: those its range touches, a whole file the range cuts replaced by
    the row groups of it the range touches (when its footer proves them in order), so a reader decodes
    about its own share of the rows."""
    out: list[_Unit] = []
    for u in units:
        if not _touches(u, rng):
            continue
        if u.group is None and not (in_range(u.lo, rng) and in_range(u.hi, rng)):
            groups = _row_groups(u.path)
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


def _plain_ids(col: pa.Array) -> pa.Array:
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


def _pulka_spans(ids: pa.Array) -> list[tuple[int, int]]:
    """``(start, end)`` of each pulka's rows in a scanned batch, given its pulka id column (in order)."""
    n = len(ids)
    keys = _id_keys(ids)
    cuts = pc.indices_nonzero(pc.not_equal(keys[1:], keys[:-1])).to_pylist() if n > 1 else []
    ends = [c + 1 for c in cuts] + [n]
    return list(zip([0, *ends[:-1]], ends, strict=True))


def _read_units(units: Sequence[_Unit], pulkas: Sequence[str] | None,
                batch_size: int, rng: ShardRange | None = None) -> Iterator[pa.RecordBatch]:
    """The rows of ``units`` (ascending pulka ranges that touch at most at their ends: see
    ``DeltaStore._ordered_units``) in order, read by pyarrow without a sort; with ``rng``, only the
    pulkas in that shard range (a unit the range cuts is filtered, one inside it is not).

    Each unit is checked sorted (pulka ascending, seq ascending within a pulka) before any of its rows
    is handed out (small units together with the next ones, up to :data:`SMALL_UNIT` rows), and the rows
    of its last pulka are held back and checked again with the next unit (a pulka may run on into it).
    So every row handed out belongs to a pulka that precedes every row not yet checked; a unit that
    fails raises :class:`_Unordered`, and a sort from the last row handed out loses nothing. With
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
                raise _Unordered   # a damaged file is named as a whole read names it (DuckDB's read, then the check)
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
                raise _Unordered
        cut = pc.index(ids, ids[n - 1]).as_py()  # the first row of the last pulka
        held = t.slice(cut)
        if cut:
            yield from t.slice(0, cut).to_batches(max_chunksize=batch_size)
    if held is not None and held.num_rows:
        yield from held.to_batches(max_chunksize=batch_size)


class DeltaStore(EventStore):
    """Event store on a Delta table at ``path`` (created on first use).

    ``hash_every``: chain checkpoint interval for new tables (1 = a hash on every event).
    ``version``: open a read-only view of that table version (time travel).
    ``key``: the club's secret; commits are then signed (an HMAC of the heads they record) and
    :meth:`verify` checks the signatures, so forging a pulka that verifies needs the key.
    """

    def __init__(self, path: str | os.PathLike[str], *, hash_every: int = DEFAULT_HASH_EVERY,
                 version: int | None = None, create: bool = True, key: bytes | None = None) -> None:
        self.path = Path(path).resolve()
        self._key = key
        self._pinned = version
        self._cache_lock = threading.Lock()
        self._heads = HeadIndex()  # pulka -> (last seq, head hash, deal), compact (see heads.py)
        self._seen: set[str] = set()
        if not DeltaTable.is_deltatable(str(self.path)):
            if not create or version is not None:
                raise StoreError(f"no Delta event table at {self.path}")
            self.path.mkdir(parents=True, exist_ok=True)
            with self._write_lock():
                if not DeltaTable.is_deltatable(str(self.path)):
                    DeltaTable.create(str(self.path), EVENTS_V1, name="preflog_events",
                                      configuration={VERSION_KEY: str(TABLE_SCHEMA_VERSION),
                                                     HASH_EVERY_KEY: str(hash_every), HEADS_LOG_KEY: "1"},
                                      raise_if_key_not_exists=False)
                    keyed.write_witness(self.path, keyed.Witness(0, 0, ""), key)
        try:
            self._dt = DeltaTable(str(self.path), version=version)
        except Exception as exc:  # deltalake raises several types for a missing version
            raise StoreError(f"cannot open {self.path} at version {version}: {exc}") from None
        conf = self._dt.metadata().configuration
        self.table_schema_version = int(conf.get(VERSION_KEY, "0"))
        self.hash_every = int(conf.get(HASH_EVERY_KEY, str(hash_every)))
        self.heads_log = conf.get(HEADS_LOG_KEY) == "1"
        self._legacy: pa.Table | None = None
        self._legacy_version = -1
        self._tip: _Tip | None = None  # the last append commit, as of this store's own last commit
        self.committed: int | None = None
        """The Delta version of this object's own last append commit (None before its first)."""
        self._pending: tuple[str, _Tip] | None = None  # the link of the commit being written, and its place

    def settings(self) -> dict[str, str]:
        """The table's own settings (``preflog.*`` of its configuration), as the table holds them now."""
        conf = self._table().metadata().configuration
        return {k: v for k, v in conf.items() if k.startswith("preflog.")}

    # --- plumbing --------------------------------------------------------------------------
    @contextmanager
    def _write_lock(self) -> Iterator[None]:
        with FileLock(self.path / LOCK_NAME):  # released by the operating system if the process dies
            yield

    def _table(self) -> DeltaTable:
        """The table as of its latest commit (a pinned view: as of its version)."""
        if self._pinned is None and self._behind():
            self._dt.update_incremental()
        return self._dt

    def _behind(self) -> bool:
        """Whether the log holds a commit after the version this object has read: one ``stat`` of the next
        commit's file (Delta numbers its commits, and writes each as a new file of the next number), where
        ``update_incremental`` lists the log folder and costs milliseconds even when nothing is new (an
        entry at the table asks for the table several times)."""
        return (self.path / "_delta_log" / f"{self._dt.version() + 1:020d}.json").exists()

    # --- damaged files ---------------------------------------------------------------------
    def damaged_files(self) -> list[tuple[str, str]]:
        """``(path, what is wrong)`` for each live data file that is missing, of another size than the
        table's log recorded, or not a whole Parquet file (see :func:`~preflog.store.base.parquet_damage`);
        the pulkas the file holds (from the log's statistics) are named after the problem."""
        from urllib.parse import unquote

        dt = self._dt if self._pinned is not None else self._table()
        adds = pa.table(dt.get_add_actions(flatten=True))
        if adds.num_rows == 0:
            return []
        names = adds.schema.names
        low = adds.column("min.pulka").to_pylist() if "min.pulka" in names else [None] * adds.num_rows
        high = adds.column("max.pulka").to_pylist() if "max.pulka" in names else [None] * adds.num_rows
        out: list[tuple[str, str]] = []
        for rel, size, a, b in zip(adds.column("path").to_pylist(), adds.column("size_bytes").to_pylist(), low, high,
                                   strict=True):
            path = Path(unquote(rel))
            path = path if path.is_absolute() else self.path / path
            problem = parquet_damage(path, size)
            if problem is not None:
                held = "" if a is None else f"pulka {a!r}" if a == b else f"pulkas {a!r} … {b!r}"
                out.append((str(path), f"{problem}; it holds {held}" if held else problem))
        return out

    def check_files(self) -> None:
        """Raise :class:`~preflog.store.base.DamagedFileError` naming the first damaged data file, if any."""
        damaged = self.damaged_files()
        if damaged:
            raise DamagedFileError(damaged[0][0], damaged[0][1], len(damaged) - 1)

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Turn a read that failed on a damaged data file (DuckDB, Arrow or Delta errors, or a Rust
        panic) into one :class:`~preflog.store.base.DamagedFileError`; any other failure stands."""
        try:
            yield
        except DamagedFileError:
            raise
        except BaseException as exc:
            if isinstance(exc, Exception) or type(exc).__name__ == "PanicException":
                self._raise_if_damaged()
            raise

    def _raise_if_damaged(self) -> None:
        try:
            damaged = self.damaged_files()
        except Exception:  # the log itself cannot be read: the original error says more
            return
        if damaged:
            raise DamagedFileError(damaged[0][0], damaged[0][1], len(damaged) - 1) from None

    def _source(self, con: duckdb.DuckDBPyConnection, dt: DeltaTable) -> str | None:
        """SQL for the event rows of ``dt`` in the current schema; None if the table is empty."""
        if self.table_schema_version < TABLE_SCHEMA_VERSION:
            if self._legacy is None or self._legacy_version != dt.version():
                self._legacy = upcast(dt.to_pyarrow_table(), self.table_schema_version)
                self._legacy_version = dt.version()
            con.register("legacy_events", self._legacy)
            return "legacy_events"
        files = dt.file_uris()
        if not files:
            return None
        return read_parquet(files)

    def _refresh_heads(self, dt: DeltaTable) -> HeadIndex:
        """Per-pulka heads, reading only files not seen before (compaction output is re-read
        once; taking the max seq makes that harmless). The live index, not a copy: callers that
        change the table hold the writer lock, and its updates happen under the cache lock."""
        with self._cache_lock, self._reading():
            if self.table_schema_version < TABLE_SCHEMA_VERSION:
                self._heads, self._seen = HeadIndex(), set()
                con = duckdb.connect()
                src, new = self._source(con, dt), ["legacy"]
            else:
                files = dt.file_uris()
                new = [f for f in files if f not in self._seen]
                if not new:   # nothing to read (the usual case after this store's own commit): no connection
                    self._seen = set(files)
                    return self._heads
                con = duckdb.connect()
                src = read_parquet(new)
            if new and src:
                q = (f"SELECT pulka, max(seq), arg_max_null(hash, seq), arg_max_null(deal, seq) FROM {src} "
                     "GROUP BY pulka")
                got = con.sql(q).to_arrow_table()
                if not len(self._heads):  # the first read of a table: straight into the arrays
                    self._heads.load(*got.columns)
                else:
                    changed: dict[str, tuple[int, int | None, int]] = {}
                    for batch in got.to_batches(65_536):
                        for p, s, h, d in zip(*(c.to_pylist() for c in batch.columns), strict=True):
                            cur = self._heads.get(p)
                            if cur is None or s > cur[0]:
                                changed[p] = (s, h, d)
                    self._heads.update(changed)
            if self.table_schema_version >= TABLE_SCHEMA_VERSION:
                self._seen = set(files)
            con.close()
            return self._heads

    # --- writing ---------------------------------------------------------------------------
    def _check_writable(self) -> None:
        if self._pinned is not None:
            raise StoreError(f"{self.path} is open read-only at version {self._pinned}")
        if self.table_schema_version != TABLE_SCHEMA_VERSION:
            raise StoreError(f"{self.path} holds schema v{self.table_schema_version}; "
                             "call migrate() before appending")

    def append_many(self, batches: Sequence[Batch]) -> list[int]:
        self._check_writable()
        with self._write_lock():
            dt = self._table()
            heads = self._refresh_heads(dt)
            local: dict[str, tuple[int, int | None, int]] = {}
            sealed: list[tuple[str, int, pa.RecordBatch]] = []
            out: list[int] = []
            for pulka, expected, items in batches:
                check_pulka_id(pulka)
                seq, h, deal = local.get(pulka) or heads.get(pulka) or (0, GENESIS, 0)
                if expected != seq:
                    raise ConcurrencyError(pulka, expected, seq)
                if h is None:
                    raise StoreError(f"pulka {pulka!r} seq {seq}: head has no chain hash; run verify()")
                rows = as_rows(pulka, items, seq + 1)
                if rows:
                    code, player, card, value, payload = (list(c) for c in zip(*rows, strict=True))
                    batch, (head,) = seal_part(code, player, card, value, payload, [len(rows)], self.hash_every,
                                               [(seq, h, deal)])
                    sealed.append((pulka, seq, batch))
                    local[pulka] = (seq + len(rows), head, deal + code.count(DEAL_CODE))
                out.append(expected + len(rows))
            if sealed:
                sealed.sort(key=itemgetter(0, 1))  # (pulka, seq) order on disk; a pulka's batches continue
                table = with_ids([p for p, _s, _b in sealed], [b for _p, _s, b in sealed])
                write_deltalake(dt, table, mode="append", writer_properties=WRITER_PROPERTIES,
                                commit_properties=CommitProperties(custom_metadata={
                                    "preflog.op": "append", "preflog.pulkas": str(len(local)),
                                    "preflog.events": str(table.num_rows), **self._log_record(dt, local)}))
                self._own_commit(dt, local)
            return out

    def append_sealed(self, batches: Sequence[SealedBatch]) -> None:
        """See :meth:`EventStore.append_sealed`; one Parquet file and one Delta commit."""
        self._check_writable()
        with self._write_lock():
            dt = self._table()
            self._commit_sealed(dt, self._refresh_heads(dt), batches)

    def import_sealed(self, batches: Sequence[SealedBatch]) -> list[Stored]:
        """See :meth:`EventStore.import_sealed`: duplicates and ids are decided under the writer lock,
        against the heads as of the commit, so no concurrent importer can slip in between."""
        self._check_writable()
        with self._write_lock():
            dt = self._table()
            heads = self._refresh_heads(dt)
            out, new = resolve_sealed(batches, heads)
            self._commit_sealed(dt, heads, new)
            return out

    def heads(self) -> HeadIndex:
        """The live head index (:meth:`~.base.EventStore.heads`): brought level with the table now, and
        kept level by this store's own commits."""
        return self._refresh_heads(self._table())

    def _commit_sealed(self, dt: DeltaTable, heads: HeadIndex,
                       batches: Sequence[SealedBatch]) -> None:
        """The commit of :meth:`append_sealed` (caller holds the writer lock)."""
        local: dict[str, tuple[int, int | None, int]] = {}
        ids: list[str] = []
        parts: list[pa.RecordBatch] = []
        for pulka, rows in sorted(batches, key=itemgetter(0)):  # (pulka, seq) order on disk
            check_pulka_id(pulka)
            if pulka in local or pulka in heads:
                raise ConcurrencyError(pulka, 0, (local.get(pulka) or heads.get(pulka) or (0, None, 0))[0])
            if not rows:
                continue
            n = len(rows)
            if isinstance(rows, SealedRows):  # columns already (an import worker's): three values checked
                batch = rows.batch
                first, last_seq, deal = batch.column(0)[0].as_py(), batch.column(0)[n - 1].as_py(), \
                    batch.column(1)[n - 1].as_py()
                head = batch.column(7)[n - 1].as_py()
            else:
                batch = None
                first, (last_seq, deal, *_rest, head) = rows[0][0], rows[-1]
            if first != 1 or last_seq != n or head is None:
                raise StoreError(f"pulka {pulka!r}: sealed rows must run seq 1..n and end with a hash")
            parts.append(batch if batch is not None else sealed_batch(_columns(rows)))
            ids.append(pulka)
            local[pulka] = (last_seq, head, deal)
        if parts:
            table = with_ids(ids, parts)
            write_deltalake(dt, table, mode="append", writer_properties=WRITER_PROPERTIES,
                            commit_properties=CommitProperties(custom_metadata={
                                "preflog.op": "append", "preflog.pulkas": str(len(local)),
                                "preflog.events": str(table.num_rows), **self._log_record(dt, local)}))
            self._own_commit(dt, local)

    def _own_commit(self, dt: DeltaTable, local: dict[str, tuple[int, int | None, int]]) -> None:
        """After a commit of ours (writer lock held): its heads are ``local``, so its file need not be read
        back by :meth:`_refresh_heads`. No other writer committed in between; a compaction running
        alongside only rewrites rows whose heads are known already. The witness then names the commit."""
        with self._cache_lock:
            self._heads.update(local)
            self.committed = dt.version()   # the write moved ``dt`` on to its own commit
            self._table()   # and what came after it (nothing, usually)
            if self.table_schema_version >= TABLE_SCHEMA_VERSION:
                self._seen.update(dt.file_uris())
        pending, self._pending = self._pending, None
        if pending is None:
            return
        chain, tip = pending
        version = next((int(c["version"]) for limit in (1, 8) for c in dt.history(limit=limit)
                        if c.get(keyed.CHAIN_META) == chain), None)   # our commit is the last one, usually
        if version is None:  # (cannot happen: our commit is among the last few) the next writer finds it
            self._tip = None
            return
        self._tip = tip._replace(version=version)
        keyed.write_witness(self.path, keyed.Witness(version, tip.n, tip.digest), self._key)

    def _log_record(self, dt: DeltaTable, local: dict[str, tuple[int, int | None, int]]) -> dict[str, str]:
        """The commit metadata that records the heads an append leaves, its link in the chain of append
        commits, and (with the key) their signature. Refuses to write over a log that lost commits its
        witness names (:meth:`_chain_tip`)."""
        if not self.heads_log and self._key is None:
            return {}
        record = heads_record({p: (s, h) for p, (s, h, _d) in local.items()})
        tip = self._chain_tip(dt)
        conf = dt.metadata().configuration
        link = keyed.Link(tip.n + 1, tip.digest, {k: v for k, v in conf.items() if k.startswith("preflog.")},
                          keyed.fingerprint(self._key) if self._key is not None else "")
        chain = link.text()
        self._pending = (chain, _Tip(-1, link.n, keyed.link_digest(chain, record)))
        out = {HEADS_META: record, keyed.CHAIN_META: chain}
        if self._key is not None:
            out[MAC_META] = sign(self._key, keyed.signed_text(chain, record))
        return out

    def _chain_tip(self, dt: DeltaTable) -> _Tip:
        """The last append commit of the log, to link the next one to (writer lock held). Checked against
        the witness: a witness naming a commit the log no longer holds (its last commit deleted, or
        deleted and another written at its number) stops the write with one line."""
        current = dt.version()
        if self._tip is not None and self._tip.version == current:
            return self._tip
        try:
            witness = keyed.read_witness(self.path, None)  # its signature is verify's to check
        except ValueError as exc:
            raise StoreError(f"{exc}; run `preflog verify` (the witness names the last commit: "
                             "a store whose witness is damaged takes no more commits)") from None
        if witness is not None and witness.version > current:
            raise StoreError(f"{self.path}: commits are missing from _delta_log: its witness names version "
                             f"{witness.version}, the log ends at version {current}; restore the log from a "
                             "backup (run `preflog verify`)")
        commits = dt.history() if witness is None else dt.history(limit=current - witness.version + 1)
        tip = _Tip(-1, 0, "")
        for c in sorted(commits, key=lambda c: int(c.get("version", -1))):
            version = int(c.get("version", -1))
            try:
                got = _link_of(c, tip)
            except ValueError:
                got = None  # verify names it; the chain goes on from the last readable link
            if witness is not None and version == witness.version:
                if ((got.n, got.digest) if got is not None else (0, "")) != (witness.n, witness.digest):
                    raise StoreError(f"{self.path}: the commit at version {version} of _delta_log is not the one "
                                     "its witness names: a commit was lost and another written at its number; "
                                     "restore the log from a backup (run `preflog verify`)")
                tip = _Tip(version, witness.n, witness.digest)
            elif got is not None:
                tip = got
        return tip

    # --- reading ---------------------------------------------------------------------------
    def read_rows(self, pulkas: Sequence[str] | None = None, batch_size: int = 65_536, *,
                  shard: tuple[int, int] | None = None) -> Iterator[list[EventTuple]]:
        """Sorted batches (:meth:`_scan`: the ordered read, else DuckDB sorts); a shard is a range of pulka
        ids (:meth:`EventStore.read_rows`)."""
        for b in self._scan(pulkas, batch_size, shard):
            yield list(zip(*(_plain_ids(c).to_pylist() for c in b.columns), strict=True))

    def pulka_rows(self, pulkas: Sequence[str] | None = None, batch_size: int = 65_536, *,
                   shard: tuple[int, int] | None = None) -> Iterator[tuple[str, list[Row]]]:
        """Column by column: each batch's engine rows are zipped from five columns at once and cut at
        the pulka boundaries Arrow finds, so no stored-row tuple is built and sliced per event."""
        cur: str | None = None
        rows: list[Row] = []
        for b in self._scan(pulkas, batch_size, shard):
            ids = b.column(0)
            body = list(zip(*(_values(c, 0, len(ids)) for c in _engine_columns(b)), strict=True))
            for start, end in _pulka_spans(ids):
                pid = ids[start].as_py()
                if pid == cur:
                    rows.extend(body[start:end])
                else:
                    if cur is not None:
                        yield cur, rows
                    cur, rows = pid, body[start:end]
        if cur is not None:
            yield cur, rows

    def pulka_columns(self, pulkas: Sequence[str] | None = None, batch_size: int = 65_536, *,
                      shard: tuple[int, int] | None = None) -> Iterator[tuple[str, RowColumns]]:
        """Column by column, like :meth:`pulka_rows`, and no tuple at all: each pulka's slice of the five
        engine columns (a pulka cut by a batch boundary is joined up)."""
        cur: str | None = None
        cols: list[list[Any]] = []
        for b in self._scan(pulkas, batch_size, shard):
            ids = b.column(0)
            # each pulka's slice turned into Python values once (a NumPy view per integer column: no
            # whole-batch list to slice again); the payload column is nearly all nulls
            body = _engine_columns(b)
            spans = _pulka_spans(ids)
            pids = _plain_ids(ids.take(pa.array([s for s, _ in spans], pa.int64()))).to_pylist()  # one call
            for k, (start, end) in enumerate(spans):
                pid = pids[k]
                part = [_values(c, start, end) for c in body]
                if pid == cur:
                    for have, more in zip(cols, part, strict=True):
                        have.extend(more)
                else:
                    if cur is not None:
                        yield cur, RowColumns(*cols)
                    cur, cols = pid, part
        if cur is not None:
            yield cur, RowColumns(*cols)

    def _scan(self, pulkas: Sequence[str] | None, batch_size: int,
              shard: tuple[int, int] | None) -> Iterator[pa.RecordBatch]:
        """Arrow batches of ``pulka, seq, code, player, card, value, payload`` sorted by (pulka, seq); if a
        file vanishes under a concurrent vacuum, the scan resumes after the last row handed out on a
        fresh file list."""
        check_shard(shard)
        with self._reading(), bulk_memory_pool(BulkPool.JEMALLOC):  # (see preflog.store.pool)
            yield from self._scan_files(pulkas, batch_size, shard)

    def _scan_files(self, pulkas: Sequence[str] | None, batch_size: int,
                    shard: tuple[int, int] | None) -> Iterator[pa.RecordBatch]:
        """The rows in order: the ordered read when the statistics allow it, DuckDB's sort otherwise (or
        for the rest, after the last row handed out). A shard is one range of pulka ids
        (:meth:`~.base.EventStore.read_rows`): its bounds are found once per read — from the units' row
        counts and one pulka column per cut (:func:`_unit_bounds`) when the read is ordered, by DuckDB
        (:func:`_duckdb_bounds`) otherwise — and kept for the whole read, so a read that falls back
        half-way keeps the same range. Both ways name the pulka holding the same cut rows of the same
        rows in (pulka, seq) order, so they agree on a table in order."""
        after: tuple[str, int] | None = None
        rng: ShardRange | None = (None, None) if shard is not None and shard[1] == 1 else None
        if pulkas is not None and not pulkas:
            return
        if self.table_schema_version >= TABLE_SCHEMA_VERSION:
            units = self._ordered_units(self._table())
            if units is not None:
                try:
                    if shard is not None and rng is None:
                        rng = shard_range(shard, _bounds_of_units(units, shard[1]))
                    if rng is not None:
                        units = _shard_units(units, rng)
                    for b in _read_units(units, pulkas, batch_size, rng):
                        after = (b.column(0)[-1].as_py(), b.column(1)[-1].as_py())
                        yield b
                    return
                except (_Unordered, OSError, pa.ArrowException):
                    pass  # out of order after all, or a file gone (a vacuum): DuckDB sorts the rest
        for _attempt in range(5):
            # no progress bar: long scans would draw one on the caller's (or a worker's) stdout
            con = duckdb.connect()
            try:
                con.execute("SET enable_progress_bar = false")
            except duckdb.Error:  # under Jupyter without ipywidgets DuckDB refuses to touch the setting
                pass
            try:
                src = self._source(con, self._table())
                if src is None:
                    return
                if shard is not None and rng is None:
                    rng = shard_range(shard, _duckdb_bounds(con, src, shard[1]))
                where: list[str] = []
                params: list[str | int] = []
                if pulkas is not None:
                    if not pulkas:
                        return
                    where.append("pulka IN (" + ", ".join("?" for _ in pulkas) + ")")
                    params.extend(pulkas)
                if rng is not None and rng[0] is not None:
                    where.append("pulka >= ?")
                    params.append(rng[0])
                if rng is not None and rng[1] is not None:
                    where.append("pulka < ?")
                    params.append(rng[1])
                if after is not None:
                    where.append("(pulka > ? OR (pulka = ? AND seq > ?))")
                    params.extend([after[0], after[0], after[1]])
                sql = f"SELECT {_COLS} FROM {src}"
                if where:
                    sql += " WHERE " + " AND ".join(where)
                reader = con.sql(sql + " ORDER BY pulka, seq", params=params).to_arrow_reader(batch_size)
                for b in reader:
                    if b.num_rows == 0:
                        continue
                    after = (b.column(0)[-1].as_py(), b.column(1)[-1].as_py())
                    yield b
                return
            except duckdb.IOException:
                self._raise_if_damaged()  # a file gone for good is damage, not a concurrent vacuum
                continue
            finally:
                con.close()
        raise StoreError(f"{self.path}: table files kept vanishing during the read")

    def _ordered_units(self, dt: DeltaTable) -> list[_Unit] | None:
        """The table's files (``group`` None) or, in a file of more than :data:`WHOLE_FILE_ROWS` rows, its
        row groups in (pulka, seq) order, when the statistics prove it: the pulka
        ranges of the files (the Delta log's statistics) and of a big file's row groups (its Parquet
        footer) ascend, each starting at or after the end of the one before (a pulka may run from one
        into the next). ``None`` when they do not (overlapping appends, a compaction
        that merged files, statistics missing or possibly truncated): DuckDB sorts then. Each unit's own
        order is checked as it is read (:func:`_read_units`)."""
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
        units: list[_Unit] = []
        prev: str | None = None
        for lo, hi, rel, rows, _first in files:
            if not _exact_stat(lo) or not _exact_stat(hi) or (prev is not None and prev > lo):
                return None
            prev = hi
            path = Path(unquote(rel))
            path = path if path.is_absolute() else self.path / path
            if rows is None or rows <= WHOLE_FILE_ROWS:
                units.append(_Unit(str(path), None, lo, hi, rows))
                continue
            groups = _row_groups(str(path))
            if groups is None:
                return None
            units.extend(groups)
        return units

    def pulkas(self) -> list[PulkaInfo]:
        heads = self._refresh_heads(self._table())
        with self._cache_lock:
            return [PulkaInfo(p, s, s, h if h is not None else 0) for p, (s, h, _d) in heads.items()]

    def last_seq(self, pulka: str) -> int:
        head = self._refresh_heads(self._table()).get(pulka)
        return head[0] if head else 0

    def find_by_content(self, content_hash: int) -> str | None:
        heads = self._refresh_heads(self._table())
        with self._cache_lock:
            return heads.holder(content_hash)

    # --- maintenance -----------------------------------------------------------------------
    def verify(self, progress: Callable[[int, int], None] | None = None) -> list[IntegrityProblem]:
        """The hash chain of every pulka (:func:`~.chain.check_pulka`), then the table against its log
        (:meth:`verify_log`); ``progress(rows checked, rows in all)`` after each batch of rows."""
        try:
            damaged = self.damaged_files()
            if damaged:  # its rows cannot be read, so the chains cannot be checked: name the files
                return [IntegrityProblem("", 0, Kind.FILE, f"{path}: {problem}") for path, problem in damaged]
            problems = self._verify_rows(progress)
            problems.extend(self.verify_log())
        except DamagedFileError as exc:
            return [IntegrityProblem("", 0, Kind.FILE, f"{exc.path}: {exc.problem}")]
        except BaseException as exc:  # a damaged log: Delta's errors (a Rust panic is a BaseException)
            if not isinstance(exc, Exception) and type(exc).__name__ != "PanicException":
                raise
            return [IntegrityProblem("", 0, Kind.UNREADABLE, f"{self.path}: the table's commit log cannot be read "
                                     f"({type(exc).__name__}: {_first_line(exc)}); restore _delta_log from a backup")]
        return problems

    def verify_log(self) -> list[IntegrityProblem]:
        """The table against what its commits recorded adding (see docs/security.md).

        * Each pulka must end where and as the last commit that appended to it recorded (else rows of it
          were lost: a removed ``add``, a forged ``remove``, rows dropped from a file: ``lost``), and no
          pulka may be there that no commit recorded (a made-up pulka with a recomputed chain:
          ``unrecorded``).
        * The append commits form a chain (``preflog.chain``): a commit missing, replaced or reordered
          between two others breaks it (``chain``); the witness beside the log names the last one, so a
          deleted last commit, or one deleted and written over by the next import, shows (``witness``).
        * The table settings must be the ones the last link was written under, and a store that keeps
          a heads log (or is opened with a key) must say so in its settings (``settings``).
        * With the club's key every record and link must carry a valid signature (``signature``; a
          key other than the store's is named once by its fingerprint: ``key``); what only unsigned
          records vouch for counts as unrecorded. A heads record or link that cannot be read is
          ``record``, never a crash.

        A table created before the heads log (no setting, no record) is not checked here unless a key
        is given: with a key the store must prove every pulka (fail closed)."""
        problems: list[IntegrityProblem] = []
        key = self._key

        def problem(kind: Kind, detail: str, pulka: str = "", seq: int = 0) -> None:
            problems.append(IntegrityProblem(pulka, seq, kind, detail))

        witness: keyed.Witness | None = None
        witness_error: str | None = None
        if self._pinned is None:  # read before the log: it moves on only after a commit, so never ahead of it
            try:
                witness = keyed.read_witness(self.path, key)
            except ValueError as exc:
                witness_error = str(exc)
        dt = self._table()
        current = dt.version()
        commits = sorted(dt.history(), key=lambda c: int(c.get("version", -1)))
        settings = {k: v for k, v in dt.metadata().configuration.items() if k.startswith("preflog.")}
        has_records = any(HEADS_META in c for c in commits)
        if not (settings.get(HEADS_LOG_KEY) == "1" or has_records or key is not None):
            return problems  # a table from before the heads log: nothing to check it against
        if settings.get(HEADS_LOG_KEY) != "1":
            why = "its commits record heads" if has_records else "it is opened with a key"
            problem(Kind.SETTINGS, f"the table setting {HEADS_LOG_KEY} is "
                    f"{'missing' if HEADS_LOG_KEY not in settings else repr(settings[HEADS_LOG_KEY])}, but "
                    f"{why}: a commit changed the table's settings (the heads log is checked all the same)")
        own = keyed.fingerprint(key) if key is not None else ""
        foreign: set[str] = set()
        unsigned: list[int] = []       # append commits without a valid signature, and not another key's
        sealed_with_own = False        # a commit signed with the key given (else the store may never have had one)
        recorded: dict[str, tuple[int, int, int]] = {}   # pulka -> (last seq, head, commit version)
        links: dict[int, _Tip] = {}
        tip = _Tip(-1, 0, "")
        chained = False          # a commit with a link seen: from then on every append commit has one
        last_settings: tuple[int, dict[str, str]] | None = None
        complete = bool(commits) and int(commits[0].get("version", -1)) == 0
        for commit in commits:
            version = int(commit.get("version", -1))
            record, chain = commit.get(HEADS_META), commit.get(keyed.CHAIN_META)
            if record is None:
                metrics = commit.get("operationMetrics")
                added = metrics.get("num_added_files", 0) if isinstance(metrics, dict) else 0
                rewrite = commit.get("preflog.op") in ("sort", "migrate")  # the whole table rewritten in order
                if commit.get("operation") == "WRITE" and isinstance(added, int) and added > 0 and not rewrite:
                    problem(Kind.RECORD, f"commit {version} added data but records no heads (written by "
                            "another tool, or its record was removed)")
                continue
            try:
                link = keyed.Link.parse(chain) if isinstance(chain, str) else None
                if not isinstance(record, str) or (chain is not None and link is None):
                    raise ValueError("not text")
                got = _link_of(commit, tip)
            except ValueError as exc:
                problem(Kind.RECORD, f"commit {version}: its heads record or link cannot be read ({exc})")
                continue  # (a writer skips it too: the chain goes on from the link before it)
            assert got is not None and isinstance(record, str)
            heads: dict[str, tuple[int, int]] | None
            try:
                heads = _parse_heads(record)
            except ValueError as exc:
                problem(Kind.RECORD, f"commit {version}: its heads record cannot be read ({exc})")
                heads = None
            signed = key is None or hmac.compare_digest(str(commit.get(MAC_META, "")),
                                                        sign(key, keyed.signed_text(chain, record)))
            if not signed:
                if link is not None and link.key and link.key != own:
                    foreign.add(link.key)
                else:
                    unsigned.append(version)
            elif link is not None and link.key == own:
                sealed_with_own = True
            # the chain is the log's order as writers saw it: unsigned commits hold their place in it
            if link is not None:
                if tip.version < 0:
                    if link.n != 1 and complete:
                        problem(Kind.CHAIN, f"commit {version} is append commit {link.n}, but the log holds no "
                                "append commit before it: commits are missing from _delta_log")
                elif link.n != tip.n + 1 or link.prev != tip.digest:
                    problem(Kind.CHAIN, f"commit {version} links to append commit {link.n - 1} ({link.prev or '-'}), "
                            f"but the append commit before it is commit {tip.version} (number {tip.n}, "
                            f"{tip.digest}): an append commit was lost, replaced or reordered")
                chained = True
                if signed:
                    last_settings = (version, link.settings)
            elif chained:
                problem(Kind.CHAIN, f"commit {version} records heads but no link (written by another tool?)")
            tip = got
            links[version] = got
            if heads is None or not signed:
                continue  # an unsigned record vouches for nothing
            for pulka, (seq, head) in heads.items():
                if pulka not in recorded or seq >= recorded[pulka][0]:
                    recorded[pulka] = (seq, head, version)
        if key is not None and unsigned and not foreign and not sealed_with_own and len(unsigned) == len(links):
            problem(Kind.KEY, f"a key is given (fingerprint {own}), but no commit of this store was signed with one: "
                    "it was sealed without a key (its records count as unsigned; set the key before the first "
                    "import)")
        else:
            for version in unsigned:
                problem(Kind.SIGNATURE, f"commit {version}: the heads it records are not signed with this store's "
                        "key (forged, or written without it)")
        if foreign:
            problem(Kind.KEY, f"the key does not match the one this store was sealed with (the key given has "
                    f"fingerprint {own}, the store's {', '.join(sorted(foreign))}); its records count as unsigned")
        if last_settings is not None and last_settings[1] != settings:
            changed = sorted(k for k in set(settings) | set(last_settings[1])
                             if settings.get(k) != last_settings[1].get(k))
            problem(Kind.SETTINGS, f"the table settings {', '.join(changed)} differ from the ones commit "
                    f"{last_settings[0]} was written under: a later commit changed them")
        self._check_witness(witness, witness_error, links, current, chained, problem)
        actual = self._refresh_heads(dt)
        for pulka, (seq, head, version) in sorted(recorded.items()):
            got_head = actual.get(pulka)
            if got_head is None:
                problem(Kind.LOST, f"commit {version} recorded seq 1..{seq}, but the table holds no row of it (a "
                        "removed add, a forged remove, rows dropped from a file?); time travel to that version",
                        pulka, seq)
            elif got_head[0] < seq:
                problem(Kind.LOST, f"commit {version} recorded seq {seq}, but the table ends at seq {got_head[0]}",
                        pulka, seq)
            elif got_head[0] == seq and got_head[1] != head:
                problem(Kind.LOST, f"head at seq {seq} differs from the one commit {version} recorded (events "
                        "replaced, chain recomputed)", pulka, seq)
            elif got_head[0] > seq:
                problem(Kind.UNRECORDED, f"events after seq {seq} that no commit of the log recorded adding",
                        pulka, got_head[0])
        with self._cache_lock:
            unrecorded = [(pulka, head[0]) for pulka, head in actual.items() if pulka not in recorded]
        for pulka, last in unrecorded:
            problem(Kind.UNRECORDED, "no commit of the log recorded adding this pulka (made up, or its commit's "
                    "record was not signed with the key)", pulka, last)
        return problems

    def _check_witness(self, witness: keyed.Witness | None, error: str | None, links: dict[int, _Tip],
                       current: int, chained: bool, problem: Callable[[Kind, str], None]) -> None:
        """The witness against the log's append commits (``links``, by version): the commit it names must
        be there, with the number and digest it names."""
        if self._pinned is not None:
            return  # a view of an older version: the witness names a later commit, rightly
        if error is not None:
            problem(Kind.WITNESS, error)
            return
        if witness is None:
            if chained and self._key is not None:
                problem(Kind.WITNESS, f"{self.path / keyed.WITNESS_NAME} is missing: the store cannot show that "
                        "its last commits are all there")
            return
        if witness.n == 0:
            return  # the witness of a new table: no append commit named yet
        if witness.version > current:
            problem(Kind.WITNESS, f"the witness names append commit {witness.n} at version {witness.version}, but "
                    f"the log ends at version {current}: commits are missing from _delta_log (restore it from "
                    "a backup)")
            return
        got = links.get(witness.version)
        if got is None or (got.n, got.digest) != (witness.n, witness.digest):
            problem(Kind.WITNESS, f"the commit at version {witness.version} is not the append commit {witness.n} "
                    f"({witness.digest}) the witness names: a commit was lost from _delta_log and another "
                    "written at its number (restore the log from a backup)")

    def _verify_rows(self, progress: Callable[[int, int], None] | None = None) -> list[IntegrityProblem]:
        problems: list[IntegrityProblem] = []
        con = duckdb.connect()
        try:
            src = self._source(con, self._table())
            if src is None:
                return []
            total = done = 0
            if progress is not None:
                [(counted,)] = con.execute(f"SELECT count(*) FROM {src}").fetchall()  # from the Parquet footers
                total = int(counted)
            reader = con.sql(f"SELECT {_ALL} FROM {src} ORDER BY pulka, seq").to_arrow_reader(65_536)
            cur: str | None = None
            rows: list[StoredRow] = []
            for b in reader:
                if progress is not None:
                    done += b.num_rows
                    progress(done, total)
                for r in zip(*(c.to_pylist() for c in b.columns), strict=True):
                    if r[0] != cur:
                        if cur is not None:
                            problems.extend(check_pulka(cur, rows))
                        cur, rows = r[0], []
                    rows.append(r[1:])
            if cur is not None:
                problems.extend(check_pulka(cur, rows))
        except duckdb.IOException as exc:
            raise StoreError(f"{self.path}: a file of the table cannot be read: {exc}") from None
        finally:
            con.close()
        return problems

    def compact(self, *, sort: bool = False, vacuum_retention_hours: int | None = 168) -> dict[str, Any]:
        """Merge small files (``optimize.compact``), then vacuum files removed more than
        ``vacuum_retention_hours`` ago (None: no vacuum; 0: drop them now, ends time travel to
        older versions). Readers may run alongside. ``sort=True`` instead rewrites the whole
        table sorted by (pulka, seq) under the writer lock (for tables built by many small
        appends, so that one-pulka reads prune row groups again)."""
        if self._pinned is not None:
            raise StoreError(f"{self.path} is open read-only at version {self._pinned}")
        self.check_files()  # never merge a damaged file into a new one
        dt = self._table()
        if sort:
            with self._write_lock():
                dt = self._table()
                con = duckdb.connect()
                src = self._source(con, dt)
                if src is None:
                    return {}
                t = con.sql(f"SELECT {_ALL} FROM {src} ORDER BY pulka, seq").to_arrow_table().cast(EVENTS_V1)
                con.close()
                write_deltalake(dt, t, mode="overwrite", writer_properties=WRITER_PROPERTIES,
                                commit_properties=CommitProperties(custom_metadata={"preflog.op": "sort"}))
                metrics: dict[str, Any] = {"rows": t.num_rows}
        else:
            metrics = dt.optimize.compact(writer_properties=WRITER_PROPERTIES)
        if vacuum_retention_hours is not None:
            self._table().vacuum(retention_hours=vacuum_retention_hours, enforce_retention_duration=False,
                                 dry_run=False)
        return metrics

    def cleanup(self) -> list[str]:
        """Delete files no table version refers to (left by writers killed mid-append).

        Holds the writer lock, so no in-flight append loses its file. Also drops files removed
        by compaction (time travel to versions before a compaction ends)."""
        with self._write_lock():
            return self._table().vacuum(retention_hours=0, enforce_retention_duration=False,
                                        dry_run=False, full=True)

    def migrate(self) -> None:
        """Rewrite an older-schema table in the current schema (upcasters applied)."""
        if self.table_schema_version == TABLE_SCHEMA_VERSION:
            return
        with self._write_lock():
            dt = self._table()
            t = upcast(dt.to_pyarrow_table(), self.table_schema_version)
            write_deltalake(dt, t, mode="overwrite", schema_mode="overwrite", writer_properties=WRITER_PROPERTIES,
                            commit_properties=CommitProperties(custom_metadata={"preflog.op": "migrate"}))
            dt = self._table()
            dt.alter.set_table_properties({VERSION_KEY: str(TABLE_SCHEMA_VERSION),
                                           HASH_EVERY_KEY: str(self.hash_every)}, raise_if_not_exists=False)
            self.table_schema_version = TABLE_SCHEMA_VERSION
            self._heads, self._seen, self._legacy = HeadIndex(), set(), None

    # --- versions and engines --------------------------------------------------------------
    def version(self) -> int:
        return self._table().version()

    def checkpoint(self) -> int:
        """Write a Delta checkpoint of the log as of now (its version is returned): a table opened later
        reads it and the commits after it, not every commit since the last checkpoint (Delta writes one
        every hundred commits by itself; a live pulka commits once a deal). On a table object of its own,
        so that it may run on another thread beside this store's reads and writes; it changes no data
        and no commit (every commit stays in the log: history and :meth:`verify_log` read them)."""
        if self._pinned is not None:
            raise StoreError(f"{self.path} is open read-only at version {self._pinned}")
        dt = DeltaTable(str(self.path))
        dt.create_checkpoint()
        return dt.version()

    def appended_since(self, version: int, most: int = 64) -> set[str] | None:
        """The pulkas the commits after ``version`` (up to now) appended to, as the heads record of each
        says (the record is written in the commit itself, beside its rows: :data:`HEADS_META`); None when
        it cannot be told so: a commit there records no heads (a compaction, a change of settings, another
        tool's write), more than ``most`` commits came since, or the log is not ahead of ``version``. A
        reader that keeps what it read of a pulka as of a version asks this to know whether it is still
        the pulka's (None: read it again)."""
        dt = self._table()
        current = dt.version()
        if current == version:
            return set()
        if not 0 <= version < current or current - version > most:
            return None
        out: set[str] = set()
        commits = [c for c in dt.history(limit=current - version) if int(c.get("version", -1)) > version]
        if len(commits) != current - version:
            return None
        for c in commits:
            record = c.get(HEADS_META)
            if not isinstance(record, str):
                return None
            try:
                out.update(_parse_heads(record))
            except ValueError:
                return None
        return out

    def history(self) -> list[dict[str, Any]]:
        return self._table().history()

    def at_version(self, version: int) -> DeltaStore:
        """A read-only view of the table as of a Delta version (time travel)."""
        return DeltaStore(self.path, version=version, create=False)

    def files(self) -> list[str]:
        """The live Parquet files of this view: read them, never glob the directory."""
        return self._table().file_uris()

    def duckdb_relation(self, con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyRelation:
        """All event rows (current schema) as a relation on ``con``."""
        src = self._source(con, self._table())
        if src is None:
            return con.from_arrow(EVENTS_V1.empty_table())
        return con.sql(f"SELECT {_ALL} FROM {src}")

