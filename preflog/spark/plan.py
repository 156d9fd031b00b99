"""What the Spark job's driver plans and its Python workers read, in plain pyarrow and deltalake (no pyspark).

* :func:`snapshot` — one version of the Delta event table (the latest, ``version=N`` or ``as_of=TIME``):
  its live files, their sizes and row counts, and each file's pulka range from the log's statistics;
* :func:`file_groups` — the files cut into groups that each hold whole pulkas (files whose pulka ranges
  overlap go to one group), packed into a few tasks of about equal events; None when the log cannot prove
  it (a file without exact statistics, or one group holding most of the table: the pulkas are scattered,
  and the job shuffles by pulka instead);
* :func:`read_group` / :func:`audit_files` — a worker's side: read a task's files with pyarrow (a local
  path, or ``pyarrow.fs`` for ``s3://``; only the columns the audit needs), cut them into pulkas, run
  :func:`preflog.spark.tables.packed_row` on each.

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
from typing import Any
from urllib.parse import unquote

import pyarrow as pa
import pyarrow.compute as pc

from ..errors import FileError
from ..errors import PreflogError
from ..model.events import Row
from .tables import EVENT_COLUMNS
from .tables import analysis_row
from .tables import packed_row

# Events per task: a task's input is ~10⁵–10⁶ events (a few tens of MB as Arrow).
EVENTS_PER_PARTITION = 250_000
STAT_CHARS = 32  # Delta statistics keep the first 32 characters of a string; a longer id's bounds are not exact
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


def _local(uri: str) -> str:
    """A file of a local table as a path: deltalake names it percent-encoded (``my%20store``)."""
    if uri.startswith("file://"):
        uri = uri[len("file://"):]
    return unquote(uri) if "://" not in uri else uri


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
    actions = pa.table(dt.get_add_actions(flatten=True))
    uris = [_local(u) if "://" not in path else u for u in dt.file_uris()]
    by_name = {a["path"]: a for a in actions.to_pylist()}
    files = []
    for uri in uris:
        a = by_name.get(uri.rsplit("/", 1)[-1]) or by_name.get(unquote(uri.rsplit("/", 1)[-1]))
        lo = a.get("min.pulka") if a else None
        hi = a.get("max.pulka") if a else None
        exact = isinstance(lo, str) and isinstance(hi, str) and max(len(lo), len(hi)) < STAT_CHARS - 1
        files.append(DataFile(uri, int(a["size_bytes"]) if a else 0, int(a["num_records"] or 0) if a else 0,
                              lo if exact else None, hi if exact else None))
    events = sum(f.rows for f in files)
    return Snapshot(path, int(dt.version()), tuple(files), events, dict(storage or {}))


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
    """One task of the grouped plan: the files it reads (whole groups of them) and their events."""

    files: tuple[str, ...]
    events: int


def file_groups(snap: Snapshot, slots: int, per_task: int = EVENTS_PER_PARTITION) -> list[Task] | None:
    """The tasks of the grouped plan, or None when the log cannot prove that the files can be cut into
    groups holding whole pulkas of a useful size (then the job shuffles by pulka).

    Every file has its pulka range ``[lo, hi]`` in the log; a pulka of a file lies in its range, so the
    files whose ranges overlap, joined transitively, hold every row of each of their pulkas. The groups go
    to ``max(slots, events / per_task)`` tasks, largest first into the emptiest. None when a file has no
    exact range, or when the largest group holds more than half the events (and more than one task's
    share) of a table that should make more than one task (the pulkas are scattered over the files: one
    task would do most of the work).
    """
    if not snap.files:
        return []
    if any(f.lo is None or f.hi is None for f in snap.files):
        return None
    ordered = sorted(snap.files, key=lambda f: (f.lo or "", f.hi or ""))
    groups: list[list[DataFile]] = []
    reach = ""
    for f in ordered:
        assert f.lo is not None and f.hi is not None
        if groups and f.lo <= reach:
            groups[-1].append(f)
            reach = max(reach, f.hi)
        else:
            groups.append([f])
            reach = f.hi
    sizes = [sum(f.rows for f in g) for g in groups]
    wanted = max(slots, math.ceil(snap.events / per_task))
    if wanted > 1 and max(sizes) > max(per_task, snap.events / 2):
        return None
    n_tasks = max(1, min(len(groups), wanted))
    bins: list[list[DataFile]] = [[] for _ in range(n_tasks)]
    load = [0] * n_tasks
    for size, g in sorted(zip(sizes, groups, strict=True), key=lambda sg: -sg[0]):
        i = load.index(min(load))
        bins[i].extend(g)
        load[i] += size
    return [Task(tuple(f.uri for f in b), n) for b, n in zip(bins, load, strict=True) if b]


# --- the worker's side ---------------------------------------------------------------------------------
MARK = "preflog-file-problem"
_MARK_RE = re.compile(MARK + r"\[(gone|damaged)\]\[([^\]]*)\]\[([^\n]*?)\]" + MARK)


class FileProblem(FileError):
    """A worker could not read a file of the plan (its text, marked, is found in Spark's error by the
    driver): ``kind`` is ``gone`` or ``damaged``, ``path`` the file, ``reason`` why."""

    def __init__(self, kind: str, uri: str, reason: str) -> None:
        PreflogError.__init__(self, f"{MARK}[{kind}][{uri}][{reason.replace(']', ')')}]{MARK}")
        self.kind = kind
        self.path = uri
        self.reason = reason


def file_problem_in(text: str) -> tuple[str, str, str] | None:
    """The (kind, file, reason) of a :class:`FileProblem` raised in a worker, out of Spark's error text."""
    m = _MARK_RE.search(text)
    return (m.group(1), m.group(2), m.group(3)) if m else None


def _read_one(uri: str, columns: Sequence[str], storage: dict[str, str]) -> pa.Table:
    import pyarrow.parquet as pq

    from .storage import filesystem

    try:
        if "://" in uri:
            fs, where = filesystem(uri, storage)
            return pq.read_table(where, columns=list(columns), filesystem=fs)
        return pq.read_table(uri, columns=list(columns))
    except FileNotFoundError as exc:
        raise FileProblem("gone", uri, _first(exc)) from None
    except (OSError, pa.ArrowException) as exc:
        if "not found" in str(exc).lower() or "no such file" in str(exc).lower():
            raise FileProblem("gone", uri, _first(exc)) from None
        raise FileProblem("damaged", uri, _first(exc)) from None


def read_group(files: Sequence[str], storage: dict[str, str] | None = None) -> pa.Table:
    """The events (columns :data:`EVENT_COLUMNS`) of a task's files, sorted by pulka and seq (the files
    an import writes are in pulka order already; the sort also joins a pulka appended to over several files)."""
    tables = [_read_one(u, EVENT_COLUMNS, storage or {}) for u in files]
    if not tables:
        from ..store.schema import EVENTS_V1

        return pa.schema([EVENTS_V1.field(c) for c in EVENT_COLUMNS]).empty_table()
    events = pa.concat_tables(tables, promote_options="permissive")
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


def _each_pulka(batches: Iterator[pa.RecordBatch], fn: Callable[[str, list[Row]], pa.Table]
                ) -> Iterator[pa.RecordBatch]:
    from .tables import rows_of_sorted

    for batch in batches:
        for files, storage in zip(batch.column("files").to_pylist(), batch.column("storage").to_pylist(),
                                  strict=True):
            events = read_group(files, json.loads(storage) if storage else None)
            out: list[pa.Table] = []
            ids = events.column("pulka")
            for start, end in pulka_spans(ids):
                out.append(fn(ids[start].as_py(), rows_of_sorted(events.slice(start, end - start))))
                if len(out) >= 256:
                    yield from pa.concat_tables(out).to_batches()
                    out = []
            if out:
                yield from pa.concat_tables(out).to_batches()


def audit_files(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """The worker function of the grouped plan's ``mapInArrow``: each input row names a task's files
    (``files``, ``storage`` as JSON); yields the packed rows (:data:`PACKED_SCHEMA`) of their pulkas."""
    return _each_pulka(batches, packed_row)


def analyze_files(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """:func:`audit_files` for ``preflog spark analyze``: the packed analysis rows of the task's pulkas."""
    return _each_pulka(batches, analysis_row)


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
    return fs.LocalFileSystem(), str(_local(out).rstrip("/")) + "/" + MANIFEST


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
