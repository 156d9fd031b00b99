"""What the Spark job's driver plans and its Python workers read, in plain pyarrow and deltalake (no pyspark).

* :func:`snapshot` — one version of the Delta event table (the latest, ``version=N`` or ``as_of=TIME``):
  its live files, their sizes and row counts, and each file's pulka range from the log's statistics;
* :func:`file_groups` — the files cut into groups that each hold whole pulkas (files whose pulka ranges
  overlap go to one group), packed into a few tasks of about equal events; None when the log cannot prove
  it (a file without exact statistics, or one group holding most of the table: the pulkas are scattered,
  and the job shuffles by pulka instead);
* :func:`read_group` / :class:`TaskWorker` — a worker's side: read a task's pieces with pyarrow (a local
  path, or ``pyarrow.fs`` for ``s3://``; only the columns the audit needs), cut them into pulkas, hand them
  to :class:`preflog.spark.tables.Packer`.

A file that cannot be read raises :class:`FileProblem`, whose text carries a marker the driver finds in
Spark's error (:func:`file_problem_in`) to print one line naming the file.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import datetime
from enum import StrEnum
from typing import Any
from typing import Protocol

import pyarrow as pa
import pyarrow.compute as pc

from ..errors import FileError
from ..errors import PreflogError
from ..model.events import Row
from ..store.plan import PlanFile
from ..store.plan import ReadPlan
from ..store.plan import read_plan
from ..store.uris import reader_uri
from .tables import AUDIT_PACKED_SCHEMA
from .tables import EVENT_COLUMNS
from .tables import PACKED_SCHEMA
from .tables import Packer
from .tables import analysis_row

# Events per task: a task's input is ~10⁵–10⁶ events (a few tens of MB as Arrow).
EVENTS_PER_PARTITION = 250_000
MANIFEST = "_preflog.json"


class SparkJobError(PreflogError):
    """The Spark job cannot run as asked (no event table, an unknown format, a file it cannot read, …)."""


@dataclass(frozen=True, slots=True)
class DataFile:
    """One live file of the snapshot: where it is, its rows, and its pulka range (None: not known exactly)."""

    uri: str
    size: int
    rows: int
    lo: str | None
    hi: str | None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One version of the event table, from its log only (never the data)."""

    path: str
    version: int
    files: tuple[DataFile, ...]
    events: int
    storage: dict[str, str] = field(default_factory=dict)

    @property
    def uris(self) -> tuple[str, ...]:
        return tuple(f.uri for f in self.files)


def event_table_path(source: str) -> str:
    """The Delta event table of a store folder (``<store>/events``) or a table path/URI as given."""
    from pathlib import Path

    if "://" not in source and (Path(source) / "events" / "_delta_log").is_dir():
        return str((Path(source) / "events").resolve())
    if "://" not in source:
        return str(Path(source).resolve())
    return source


def parse_as_of(text: str) -> datetime:
    """``--as-of``: an ISO date or date-time (UTC when it names no zone)."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise SparkJobError(f"--as-of {text!r}: expected an ISO date or time (2026-12-01 or 2026-12-01T18:30:00)"
                            ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def snapshot(source: str, version: int | None = None, as_of: str | None = None,
             storage: dict[str, str] | None = None) -> Snapshot:
    """A version of the Delta event table of ``source``: the latest, ``version`` or the one current at ``as_of``."""
    from deltalake import DeltaTable

    from ..store.schema import TABLE_SCHEMA_VERSION
    from ..store.schema import VERSION_KEY

    if version is not None and as_of is not None:
        raise SparkJobError("--table-version and --as-of: give one of them")
    if version is not None and version < 0:
        raise SparkJobError(f"--table-version {version}: a table version is 0 or more")
    when = parse_as_of(as_of) if as_of is not None else None
    path = event_table_path(source)
    from pathlib import Path

    if "://" not in path and not (Path(path) / "_delta_log").is_dir():
        raise SparkJobError(f"{path}: no Delta event table (neither it nor its events/ folder has a _delta_log)")
    if storage is None and "://" in path:
        from .storage import storage_options

        storage = storage_options()  # the AWS_* environment: endpoint, region, keys (preflog/spark/storage.py)
    try:
        dt = DeltaTable(path, storage_options=storage or None)
    except Exception as exc:  # deltalake raises several types for a missing table
        raise SparkJobError(f"{path}: {_no_table(exc)}") from None
    latest = dt.version()
    try:
        if version is not None:
            dt.load_as_version(version)
        elif when is not None:
            dt.load_as_version(when)
    except Exception as exc:
        asked = f"version {version}" if version is not None else f"--as-of {as_of}"
        raise SparkJobError(f"{path}: no {asked} (the table is at version {latest}; the log of older versions "
                            f"may be cleaned up: {_first(exc)})") from None
    meta_version = int(dt.metadata().configuration.get(VERSION_KEY, "0"))
    if meta_version != TABLE_SCHEMA_VERSION:
        raise SparkJobError(f"{path}: event table layout v{meta_version}, the Spark job reads "
                            f"v{TABLE_SCHEMA_VERSION} (open it once with preflog on one machine to migrate it)")
    plan = read_plan(dt, path)  # the store's one reading of the log: files as readers open them, their stats
    files = [DataFile(f.uri, f.size, f.rows or 0, *(f.pulkas or (None, None))) for f in plan.files]
    events = plan.events
    return Snapshot(path, plan.version, tuple(files), events, dict(storage or {}))


def _no_table(exc: BaseException) -> str:
    """Why deltalake could not open a table, in a few words (an object store's reason first)."""
    text = str(exc)
    for marker, says in (("NoSuchBucket", "no such bucket"), ("InvalidAccessKeyId", "the access key is refused"),
                         ("SignatureDoesNotMatch", "the secret key is refused"), ("AccessDenied", "access denied"),
                         ("ExpiredToken", "the session token has expired"),
                         ("Connection refused", "the storage endpoint refuses connections"),
                         ("dns error", "the storage endpoint's host is unknown")):
        if marker.lower() in text.lower():
            return f"cannot read the table's log: {says} ({_first(exc)})"
    return f"no Delta event table ({_first(exc)})"


def _first(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# --- the plan: files → groups of whole pulkas → tasks ----------------------------------------------------
@dataclass(frozen=True, slots=True)
class Task:
    """One task of the grouped plan: the pieces it reads — a file, or some row groups of a file (``None``: the
    whole file) — and its events. ``lo``/``hi``, when set, bound the pulkas the task owns (``lo`` ≤ pulka <
    ``hi``): a group cut by row groups, whose pieces also hold the edges of the neighbours' pulkas."""

    pieces: tuple[tuple[str, tuple[int, ...] | None], ...]
    events: int
    lo: str | None = None
    hi: str | None = None

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(uri for uri, _ in self.pieces))


@dataclass(frozen=True, slots=True)
class _Unit:
    """A file, or one row group of a file, with its rows and pulka range."""

    uri: str
    row_group: int | None
    rows: int
    lo: str
    hi: str


# A file's row groups, each as (rows, lo, hi) from the Parquet footer; None when a range is not exact.
Footers = Callable[[Sequence[str]], dict[str, list[tuple[int, str | None, str | None]] | None]]
# Events per task of a group cut by row groups: each such task also reads the row group that holds the start of
# its first pulka (~130 000 rows), so it is made a few row groups long.
SPLIT_EVENTS = 500_000


def _overlapping(units: Sequence[_Unit]) -> list[list[_Unit]]:
    """Units whose pulka ranges overlap, joined transitively, in pulka order: each group holds whole pulkas."""
    groups: list[list[_Unit]] = []
    reach = ""
    for u in sorted(units, key=lambda u: (u.lo, u.hi)):
        if groups and u.lo <= reach:
            groups[-1].append(u)
            reach = max(reach, u.hi)
        else:
            groups.append([u])
            reach = u.hi
    return groups


def _pieces(units: Sequence[_Unit]) -> tuple[tuple[str, tuple[int, ...] | None], ...]:
    """Units as pieces, one per file (its row groups, or None for the whole file), in pulka order."""
    order: dict[str, list[int] | None] = {}
    for u in sorted(units, key=lambda u: (u.lo, u.hi)):
        if u.row_group is None:
            order[u.uri] = None
        elif u.uri not in order:
            order[u.uri] = [u.row_group]
        elif (rgs := order[u.uri]) is not None:
            rgs.append(u.row_group)
    return tuple((uri, None if rgs is None else tuple(sorted(rgs))) for uri, rgs in order.items())


def _cut(group: list[_Unit], footers: dict[str, list[tuple[int, str | None, str | None]] | None],
         per_task: int) -> list[Task] | None:
    """A group of files cut by pulka id into tasks of about ``per_task`` events, at the first pulkas of row
    groups (from the footers). A task owns the pulkas from its cut to the next and reads every row group whose
    range meets them (a pulka that starts at the end of the row group before is read from there too). None
    when a footer lacks exact ranges or the group has a single cut."""
    units: list[_Unit] = []
    for f in group:
        ranges = footers.get(f.uri)
        if not ranges or any(lo is None or hi is None for _, lo, hi in ranges):
            return None
        units.extend(_Unit(f.uri, i, rows, lo or "", hi or "") for i, (rows, lo, hi) in enumerate(ranges))
    units.sort(key=lambda u: (u.lo, u.hi))
    cuts: list[str] = []
    acc = 0
    for u in units:
        if acc >= per_task and (not cuts or u.lo > cuts[-1]) and u.lo > units[0].lo:
            cuts.append(u.lo)
            acc = 0
        acc += u.rows
    if cuts and acc < per_task // 2:  # a short tail joins the task before it
        cuts.pop()
    if not cuts:
        return None
    tasks = []
    bounds: list[str | None] = [None, *cuts, None]
    read_rows = 0
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        owned = [u for u in units if (lo is None or u.lo >= lo) and (hi is None or u.lo < hi)]
        read = [u for u in units if (hi is None or u.lo < hi) and (lo is None or u.hi >= lo)]
        read_rows += sum(u.rows for u in read)
        tasks.append(Task(_pieces(read), sum(u.rows for u in owned), lo, hi))
    if read_rows > 2 * sum(u.rows for u in units):  # the row groups span most of the ids (scattered pulkas)
        return None
    return tasks


def file_groups(snap: Snapshot, slots: int, per_task: int = EVENTS_PER_PARTITION,
                footers: Footers | None = None, split: int = SPLIT_EVENTS) -> list[Task] | None:
    """The tasks of the grouped plan, or None when the log cannot prove that the files can be cut into
    groups holding whole pulkas of a useful size (then the job shuffles by pulka).

    Every file has its pulka range ``[lo, hi]`` in the log; a pulka of a file lies in its range, so the
    files whose ranges overlap, joined transitively, hold every row of each of their pulkas. A group larger
    than ``split`` events is cut by pulka id at row-group starts (``footers``: the ranges in the Parquet
    footers; an import writes a commit's pulkas in order, ~130 000 rows a row group) into tasks of about
    ``split`` events (:func:`_cut`), so that a worker holds a few row groups at a time and the workers end
    together. The other groups go to ``max(slots, events / per_task)`` tasks, largest first into the emptiest.
    None when a file has no exact range, or when a group that cannot be cut holds more than half the events
    (and more than one task's share) of a table that should make more than one task (the pulkas are scattered
    over the files: one task would do most of the work, or every task would read most of the table).
    """
    if not snap.files:
        return []
    if any(f.lo is None or f.hi is None for f in snap.files):
        return None
    groups = _overlapping([_Unit(f.uri, None, f.rows, f.lo or "", f.hi or "") for f in snap.files])
    sizes = [sum(u.rows for u in g) for g in groups]
    wanted = max(slots, math.ceil(snap.events / per_task))
    out: list[Task] = []
    if footers is not None and wanted > 1 and any(n > split for n in sizes):
        ranges = footers([u.uri for g, n in zip(groups, sizes, strict=True) if n > split for u in g])
        kept = []
        for g, n in zip(groups, sizes, strict=True):
            cut = _cut(g, ranges, split) if n > split else None
            if cut is None:
                kept.append(g)
            else:
                out.extend(cut)
        groups = kept
    if wanted > 1 and any(sum(u.rows for u in g) > max(per_task, snap.events / 2) for g in groups):
        return None
    if not groups:
        return out
    rest = sum(u.rows for g in groups for u in g)
    n_tasks = max(1, min(len(groups), max(slots - len(out), math.ceil(rest / per_task))))
    bins: list[list[_Unit]] = [[] for _ in range(n_tasks)]
    load = [0] * n_tasks
    for size, g in sorted(((sum(u.rows for u in g), g) for g in groups), key=lambda sg: -sg[0]):
        i = load.index(min(load))
        bins[i].extend(g)
        load[i] += size
    return out + [Task(_pieces(b), n) for b, n in zip(bins, load, strict=True) if b]


def row_group_ranges(uris: Sequence[str], storage: dict[str, str] | None = None
                     ) -> dict[str, list[tuple[int, str | None, str | None]] | None]:
    """Each file's row groups as (rows, lo, hi) of ``pulka`` from its Parquet footer (read in parallel: one small
    read per file, :meth:`~preflog.store.plan.ReadPlan.with_row_groups`); a range that is not exact (a long id
    the writer may have cut) is None, and so is a file whose footer cannot be read (the workers report it)."""
    unique = list(dict.fromkeys(uris))
    files = tuple(PlanFile(u, 0, None, None, None) for u in unique)
    got = ReadPlan("", -1, files).with_row_groups(open_file=lambda u: _parquet_file(u, storage or {}))
    return {f.uri: None if f.row_groups is None else list(f.row_groups) for f in got.files}


# --- the worker's side ---------------------------------------------------------------------------------
MARK = "preflog-file-problem"
_MARK_RE = re.compile(MARK + r"\[(gone|damaged|denied)\]\[([^\]]*)\]\[([^\n]*?)\]" + MARK)


class FileProblem(FileError):
    """A worker could not read a file of the plan (its text, marked, is found in Spark's error by the
    driver): ``kind`` is ``gone``, ``damaged`` or ``denied`` (the object store refused the read), ``path`` the
    file, ``reason`` why."""

    def __init__(self, kind: str, uri: str, reason: str) -> None:
        PreflogError.__init__(self, f"{MARK}[{kind}][{uri}][{reason.replace(']', ')')}]{MARK}")
        self.kind = kind
        self.path = uri
        self.reason = reason


def file_problem_in(text: str) -> tuple[str, str, str] | None:
    """The (kind, file, reason) of a :class:`FileProblem` raised in a worker, out of Spark's error text."""
    m = _MARK_RE.search(text)
    return (m.group(1), m.group(2), m.group(3)) if m else None


def _parquet_file(uri: str, storage: dict[str, str]) -> Any:
    """A ``pyarrow.parquet.ParquetFile`` of a local path, or of a URI through ``pyarrow.fs``."""
    import pyarrow.parquet as pq

    if "://" in uri:
        from .storage import filesystem

        fs, where = filesystem(uri, storage)
        return pq.ParquetFile(fs.open_input_file(where))
    return pq.ParquetFile(uri)


def _read_one(uri: str, columns: Sequence[str], storage: dict[str, str],
              row_groups: Sequence[int] | None = None) -> pa.Table:
    try:
        f = _parquet_file(uri, storage)
        if row_groups is None:
            return f.read(columns=list(columns))
        return f.read_row_groups(list(row_groups), columns=list(columns))
    except FileNotFoundError as exc:
        raise FileProblem("gone", uri, _first(exc)) from None
    except (OSError, pa.ArrowException) as exc:
        said = str(exc).lower()
        if "not found" in said or "no such file" in said:
            raise FileProblem("gone", uri, _first(exc)) from None
        if any(k in said for k in _DENIED):
            raise FileProblem("denied", uri, _first(exc)) from None
        raise FileProblem("damaged", uri, _first(exc)) from None


_DENIED = ("access_denied", "accessdenied", "access denied", "permission denied", "forbidden")
"""How a refused read reads in pyarrow's error (S3's ``ACCESS_DENIED``/403, a local file's EACCES)."""


def _sorted(events: pa.Table) -> bool:
    """Whether the rows are in (pulka, seq) order already (the usual case: an import writes them so)."""
    n = events.num_rows
    if n < 2:
        return True
    p = events.column("pulka").combine_chunks()
    q = events.column("seq").combine_chunks()
    p0, p1, q0, q1 = p.slice(0, n - 1), p.slice(1), q.slice(0, n - 1), q.slice(1)
    ok = pc.or_(pc.greater(p1, p0), pc.and_(pc.equal(p1, p0), pc.greater(q1, q0)))
    return bool(pc.all(ok).as_py())


def read_group(files: Sequence[str], storage: dict[str, str] | None = None,
               row_groups: Sequence[Sequence[int] | None] | None = None, lo: str | None = None,
               hi: str | None = None) -> pa.Table:
    """The events (columns :data:`EVENT_COLUMNS`) of a task's files (``row_groups``: per file, the row groups
    to read, None for all; ``lo``/``hi``: only the pulkas lo ≤ pulka < hi), sorted by pulka and seq (the files
    an import writes are in pulka order already; the sort also joins a pulka appended to over several files)."""
    groups = list(row_groups) if row_groups is not None else [None] * len(files)
    tables = [_read_one(u, EVENT_COLUMNS, storage or {}, g) for u, g in zip(files, groups, strict=True)]
    if not tables:
        from ..store.schema import EVENTS_V1

        return pa.schema([EVENTS_V1.field(c) for c in EVENT_COLUMNS]).empty_table()
    events = pa.concat_tables(tables, promote_options="permissive")
    if lo is not None or hi is not None:
        ids = events.column("pulka")
        keep = pc.greater_equal(ids, lo) if lo is not None else None
        if hi is not None:
            below = pc.less(ids, hi)
            keep = below if keep is None else pc.and_(keep, below)
        events = events.filter(keep)
    if _sorted(events):
        return events
    return events.take(pc.sort_indices(events, [("pulka", "ascending"), ("seq", "ascending")]))


def pulka_spans(ids: pa.ChunkedArray | pa.Array) -> Iterator[tuple[int, int]]:
    """(start, end) of each run of one pulka id in a sorted id column."""
    col = ids.combine_chunks() if isinstance(ids, pa.ChunkedArray) else ids
    n = len(col)
    if n == 0:
        return
    changes = pc.not_equal(col.slice(1), col.slice(0, n - 1))
    starts = [0] + [i + 1 for i in pc.indices_nonzero(changes).to_pylist()] if n > 1 else [0]
    for i, s in enumerate(starts):
        yield s, starts[i + 1] if i + 1 < len(starts) else n


class _Packing(Protocol):
    def __len__(self) -> int: ...
    def add(self, pid: str, rows: Sequence[Row]) -> None: ...
    def table(self) -> pa.Table: ...


class _PerPulka:
    """Packed rows made pulka by pulka by ``fn`` (the analysis), concatenated per batch."""

    def __init__(self, fn: Callable[[str, list[Row]], pa.Table]) -> None:
        self.fn = fn
        self.parts: list[pa.Table] = []

    def __len__(self) -> int:
        return len(self.parts)

    def add(self, pid: str, rows: Sequence[Row]) -> None:
        self.parts.append(self.fn(pid, list(rows)))

    def table(self) -> pa.Table:
        out = pa.concat_tables(self.parts)
        self.parts = []
        return out


PULKAS_PER_BATCH = 256  # packed rows per Arrow batch handed back to Spark
EVENTS_PER_CHUNK = 65_536  # events made into Python rows at a time (whole pulkas): memory stays small


# A task as the workers get it: its files, their row groups (None: all), and the pulkas it owns (lo, hi).
TaskSpec = tuple[tuple[str, ...], tuple[tuple[int, ...] | None, ...], str | None, str | None]


def task_spec(task: Task) -> TaskSpec:
    return (tuple(uri for uri, _ in task.pieces), tuple(g for _, g in task.pieces), task.lo, task.hi)


def _each_task(specs: Iterator[TaskSpec], storage: dict[str, str] | None, packer: _Packing
               ) -> Iterator[pa.RecordBatch]:
    """For each task: read its pieces, cut the events into pulkas, hand each pulka's rows to ``packer``, and
    yield the packed rows a batch at a time. The events are made into Python rows a chunk of whole pulkas at a
    time (one ``to_pylist`` per column, not per pulka)."""
    from .tables import ROW_COLUMNS

    for files, rgs, lo, hi in specs:
        events = read_group(files, storage, rgs, lo, hi)
        ids = events.column("pulka")
        spans = list(pulka_spans(ids))
        i = 0
        while i < len(spans):
            j = i + 1
            while j < len(spans) and spans[j][1] - spans[i][0] <= EVENTS_PER_CHUNK:
                j += 1
            base = spans[i][0]
            chunk = events.slice(base, spans[j - 1][1] - base)
            rows = list(zip(*(chunk.column(c).to_pylist() for c in ROW_COLUMNS), strict=True))
            pids = chunk.column("pulka")
            for start, end in spans[i:j]:
                packer.add(pids[start - base].as_py(), rows[start - base:end - base])
                if len(packer) >= PULKAS_PER_BATCH:
                    yield from packer.table().to_batches()
            i = j
        if len(packer):
            yield from packer.table().to_batches()


class Kind(StrEnum):
    """What a grouped plan's worker computes per pulka."""

    AUDIT = "audit"          # the audit's tables (spark audit)
    ALL = "all"              # the audit's tables and the projections (spark project)
    ANALYSIS = "analysis"    # the double-dummy analysis (spark analyze)


@dataclass(frozen=True, slots=True)
class TaskWorker:
    """The grouped plan's ``mapInArrow`` function over ``spark.range(len(tasks))`` (one id per partition): the
    worker of task ``id`` reads its pieces with pyarrow and yields the packed rows of its pulkas. The tasks
    travel inside the function (Spark ships it once per stage), so making the input costs no Python worker
    and no conversion of Python rows — each executor core keeps one warm Python worker."""

    tasks: tuple[TaskSpec, ...]
    kind: Kind
    storage: tuple[tuple[str, str], ...] = ()

    def packer(self) -> _Packing:
        if self.kind is Kind.ANALYSIS:
            return _PerPulka(analysis_row)
        return Packer(PACKED_SCHEMA if self.kind is Kind.ALL else AUDIT_PACKED_SCHEMA)

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        specs = (self.tasks[i] for batch in batches for i in batch.column(0).to_pylist())
        return _each_task(specs, dict(self.storage) or None, self.packer())


# --- what a run read: OUT/_preflog.json --------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pin:
    """The table version a run read, with what it ran on (``OUT/_preflog.json``, and the summary line)."""

    table: str
    version: int
    files: int
    events: int
    preflog: str
    rules_versions: list[int]
    master: str = ""
    executors: int = 0
    cores: int = 0
    plan: str = ""

    @classmethod
    def of(cls, snap: Snapshot) -> Pin:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version

        from ..model.events import RULES_VERSION

        try:
            __version__ = version("preflog")
        except PackageNotFoundError:  # run from a source tree that was never installed
            __version__ = "unknown"

        return cls(snap.path, snap.version, len(snap.files), snap.events, __version__,
                   list(range(1, RULES_VERSION + 1)))


def _out_fs(out: str) -> tuple[Any, str] | None:
    """The file system and path of ``OUT/_preflog.json``: local, or ``s3://``/``s3a://``/``gs://`` through
    ``pyarrow.fs``; None for a location pyarrow does not reach (HDFS, …: no record is kept there)."""
    from pyarrow import fs

    from .storage import filesystem

    if "://" in out and not out.startswith("file://"):
        scheme = out.split("://", 1)[0]
        if scheme not in ("s3", "s3a", "gs"):
            return None
        uri = ("s3" + out[len("s3a"):] if scheme == "s3a" else out).rstrip("/") + "/" + MANIFEST
        located, where = filesystem(uri)
        return located, str(where)
    local = reader_uri(out) if out.startswith("file:") else out  # a path as the user typed it: never decoded
    return fs.LocalFileSystem(), local.rstrip("/") + "/" + MANIFEST


def read_manifest(out: str) -> dict[str, dict[str, Any]]:
    """``OUT/_preflog.json``: table name → the :class:`Pin` of the run that wrote it ({} when none)."""
    located = _out_fs(out)
    if located is None:
        return {}
    filesystem, where = located
    try:
        with filesystem.open_input_stream(where) as f:
            doc = json.loads(f.read().decode("utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise SparkJobError(f"{where}: unreadable ({_first(exc)})") from None
    tables = doc.get("tables") if isinstance(doc, dict) else None
    return {str(k): v for k, v in tables.items() if isinstance(v, dict)} if isinstance(tables, dict) else {}


def write_manifest(out: str, pin: Pin, tables: Sequence[str]) -> None:
    """Record ``pin`` for ``tables`` in ``OUT/_preflog.json`` (the other tables' records kept)."""
    located = _out_fs(out)
    if located is None:
        return
    filesystem, where = located
    doc = read_manifest(out)
    for t in tables:
        doc[t] = asdict(pin)
    filesystem.create_dir(where.rsplit("/", 1)[0], recursive=True)
    with filesystem.open_output_stream(where) as f:
        f.write(json.dumps({"tables": doc}, indent=1, sort_keys=True).encode("utf-8") + b"\n")


def mixed_versions(records: dict[str, dict[str, Any]], tables: Sequence[str]) -> str | None:
    """A line naming two of ``tables`` that were written from different table versions, or None."""
    seen: dict[tuple[str, int], str] = {}
    for t in tables:
        r = records.get(t)
        if r is not None:
            seen.setdefault((str(r.get("table")), int(r.get("version", -1))), t)
    if len(seen) < 2:
        return None
    (a_path, a_v), a_t = next(iter(seen.items()))
    (b_path, b_v), b_t = list(seen.items())[1]
    same = a_path == b_path
    return (f"{a_t} was written from {'' if same else a_path + ' '}version {a_v}, {b_t} from "
            f"{'' if same else b_path + ' '}version {b_v}")
