"""Projection files next to the events, in segments of pulkas:

    <store>/projections/manifest.json
    <store>/projections/{deals,player_deals,pulka_results}/seg-000000-g000001.parquet, …

Each pulka belongs to one *segment* (at most :data:`SEGMENT_PULKAS` pulkas); a segment is one
Parquet file per table (zstd, sorted by pulka, deal, seat). ``manifest.json`` maps each pulka to
its fingerprint, segment and the content hash of the events it was built from (the head of its
hash chain), and each segment to its current file per table with that file's SHA-256. So
:func:`refresh` rebuilds only pulkas whose facts changed and rewrites only their segments: one new
pulka goes into the open tail segment, which is the only file rewritten — the cost no longer grows
with the store (a whole-table rewrite took ~8 s at 1 M deals).

Readers see a consistent snapshot: segment files are immutable. A rewrite writes a *new* file
(the name carries the manifest generation ``gNNNNNN``) and the new manifest, swapped in with one
``os.replace``, names it; the file it supersedes is *retired*, not deleted, and removed by a later
writer once it has been retired for :data:`RETAIN_SECONDS`, so a reader that took its file list
from the old manifest (:func:`snapshot`, one manifest for all three tables) still reads whole,
unchanged files. Files no manifest lists (left by a killed writer) are never read and are deleted
by the next writer, under the lock.

Derived state that heals itself: the manifest records the event-table version the projections were
last found complete at (``events_version``) and each pulka's head, so :func:`lag` tells a caller
which pulkas are missing, pending, stale or gone (see ``Workspace.heal_projections``), and
:func:`check` compares the projections with the event table for ``verify``.

Crash safety: files are written to a temp name that does not end in ``.parquet``, fsynced and
``os.replace``-d. Before touching segments the manifest marks the affected pulkas *pending*
(empty fingerprint), and only the final manifest records their new fingerprints and files, so a
crash in between leaves the previous files listed and only causes a rebuild of those pulkas.
Writers are serialised by an exclusive lock on ``projections/.lock`` (``filelock.FileLock``: ``flock``
on Linux and macOS, ``LockFileEx`` on Windows). Stores written with the older
layouts (one file per table; segments rewritten in place) are read as they are and converted on
the next write.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from filelock import FileLock
from filelock import ReadWriteLock
from filelock import Timeout

from . import build
from .facts import PROJECTION_VERSION
from .facts import PulkaFacts

TABLES = ("deals", "player_deals", "pulka_results")
SORT_KEYS = {
    "deals": [("pulka", "ascending"), ("deal", "ascending")],
    "player_deals": [("pulka", "ascending"), ("deal", "ascending"), ("seat", "ascending")],
    "pulka_results": [("pulka", "ascending"), ("seat", "ascending")],
}
ROW_GROUP = 128 * 1024
MANIFEST = "manifest.json"
LAYOUT = 3                 # 1: one file per table; 2: segments rewritten in place; 3: immutable segment files
SEGMENT_PULKAS = 2000      # ~50 k deals a segment at 25 deals a pulka: a tail rewrite stays ~0.1 s
PENDING = ""               # fingerprint of a pulka whose rows are being (re)written
RETAIN_SECONDS = 600.0     # a superseded segment file stays this long for readers of an older manifest


@dataclass(frozen=True, slots=True)
class RefreshResult:
    """What a refresh did: pulka ids rebuilt, removed, and skipped because unchanged; and the
    segments whose files were rewritten (or deleted)."""

    rebuilt: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: tuple[str, ...]
    segments: tuple[int, ...] = ()

    @property
    def wrote(self) -> bool:
        return bool(self.rebuilt or self.removed)


@dataclass(frozen=True, slots=True)
class Lag:
    """How the projections lag the event table (:func:`lag`): pulkas to (re)build — not projected,
    pending, built from other events, or in a segment whose file is missing — and projected pulkas
    the table no longer holds. ``heads``: the table's head per pulka as read (empty when the fast
    path found the projections current); ``version``: the table version they were read at."""

    stale: tuple[str, ...]
    gone: tuple[str, ...]
    heads: Mapping[str, int]
    version: int | None
    current: bool = False


@dataclass(slots=True)
class _Manifest:
    """pulka → (fingerprint, segment, head); segment → file per table; retired files; counters."""

    pulkas: dict[str, str] = field(default_factory=dict)
    segment: dict[str, int] = field(default_factory=dict)
    head: dict[str, int] = field(default_factory=dict)
    files: dict[str, dict[int, tuple[str, str | None]]] = field(default_factory=lambda: {t: {} for t in TABLES})
    retired: list[tuple[str, float]] = field(default_factory=list)
    next: int = 0
    gen: int = 0
    events_version: int | None = None

    def members(self) -> dict[int, set[str]]:
        out: dict[int, set[str]] = {}
        for pid, seg in self.segment.items():
            out.setdefault(seg, set()).add(pid)
        return out

    def assign(self, new: Iterable[str], size: int) -> None:
        """Put new pulkas (in the given order) into the open tail segment, then fresh ones."""
        counts: dict[int, int] = {}
        for seg in self.segment.values():
            counts[seg] = counts.get(seg, 0) + 1
        tail = max(counts) if counts else None
        for pid in new:
            if tail is None or counts.get(tail, 0) >= size:
                tail = self.next
                self.next += 1
            self.segment[pid] = tail
            counts[tail] = counts.get(tail, 0) + 1

    def retire(self, table: str, seg: int) -> None:
        entry = self.files[table].pop(seg, None)
        if entry is not None:
            self.retired.append((f"{table}/{entry[0]}", time.time()))

    def listed(self) -> set[str]:
        """Every file the manifest names, listed or retired, as ``table/name``."""
        out = {f"{t}/{name}" for t in TABLES for name, _sha in self.files[t].values()}
        out.update(rel for rel, _t in self.retired)
        return out


def projections_dir(store_dir: str | os.PathLike[str]) -> Path:
    return Path(store_dir) / "projections"


def table_dir(store_dir: str | os.PathLike[str], table: str) -> Path:
    """The folder of one projection table's segment files."""
    if table not in TABLES:
        raise ValueError(f"unknown projection table {table!r} (known: {', '.join(TABLES)})")
    return projections_dir(store_dir) / table


def _seg_name(seg: int, gen: int) -> str:
    return f"seg-{seg:06d}-g{gen:06d}.parquet"


def _load(pdir: Path) -> _Manifest:
    p = pdir / MANIFEST
    if not p.exists():
        return _Manifest()
    data = json.loads(p.read_text())
    layout = data.get("layout")
    if layout not in (2, LAYOUT):   # layout 1: {"pulkas": {id: fingerprint}}, segments unknown
        return _Manifest(dict(data.get("pulkas", {})))
    m = _Manifest(next=int(data.get("next", 0)), gen=int(data.get("gen", 0)))
    for pid, entry in data["pulkas"].items():
        m.pulkas[pid] = entry[0]
        m.segment[pid] = int(entry[1])
        if len(entry) > 2 and entry[2] is not None:
            m.head[pid] = int(entry[2])
    if layout == 2:                 # one file per segment and table, rewritten in place; no digests
        for t in TABLES:
            m.files[t] = {seg: (f"seg-{seg:06d}.parquet", None) for seg in set(m.segment.values())}
        return m
    m.events_version = data.get("events_version")
    for t in TABLES:
        m.files[t] = {int(seg): (name, sha) for seg, (name, sha) in data["files"].get(t, {}).items()}
    m.retired = [(rel, float(at)) for rel, at in data.get("retired", [])]
    return m


def read_manifest(store_dir: str | os.PathLike[str]) -> dict[str, str]:
    """Fingerprint per projected pulka id ({} for a store without projections; ``""`` = pending)."""
    return _load(projections_dir(store_dir)).pulkas


def segment_of(store_dir: str | os.PathLike[str]) -> dict[str, int]:
    """Segment number per projected pulka id."""
    return _load(projections_dir(store_dir)).segment


def events_version(store_dir: str | os.PathLike[str]) -> int | None:
    """The event-table version the projections were last found complete at (None: never)."""
    return _load(projections_dir(store_dir)).events_version


def snapshot(store_dir: str | os.PathLike[str]) -> dict[str, list[Path]]:
    """The files of every table from *one* manifest, in segment order: a consistent snapshot that
    stays readable while writers refresh (superseded files are kept :data:`RETAIN_SECONDS`)."""
    pdir = projections_dir(store_dir)
    m = _load(pdir)
    out: dict[str, list[Path]] = {}
    for table in TABLES:
        if not m.segment and (pdir / f"{table}.parquet").exists():
            out[table] = [pdir / f"{table}.parquet"]  # layout 1, not converted yet (the next refresh does)
            continue
        paths = (pdir / table / name for _seg, (name, _sha) in sorted(m.files[table].items()))
        out[table] = [p for p in paths if p.exists()]
    return out


def table_files(store_dir: str | os.PathLike[str], table: str) -> list[Path]:
    """The segment files of a table that the manifest lists, in segment order."""
    table_dir(store_dir, table)  # validates the name
    return snapshot(store_dir)[table]


def read_table(store_dir: str | os.PathLike[str], table: str) -> pa.Table:
    """A projection table, all segments (empty with the right schema if not written yet)."""
    files = table_files(store_dir, table)
    schema = build.SCHEMAS[table]
    if not files:
        return schema.empty_table()
    return pa.concat_tables([pq.read_table(f, schema=schema) for f in files])


def refresh(store_dir: str | os.PathLike[str], changed: Mapping[str, PulkaFacts],
            removed: Iterable[str] = (), *, heads: Mapping[str, int] | None = None,
            events_version: int | None = None, force: Iterable[str] = ()) -> RefreshResult:
    """Bring the projections up to date for ``changed`` pulkas (id → facts) and drop ``removed`` ones.

    A pulka whose fingerprint equals the manifest's is skipped (unless in ``force``); only the
    segments holding rebuilt or removed pulkas are rewritten (new pulkas fill the tail segment).
    ``heads``: the content hash of the events each pulka's facts came from (recorded for
    :func:`lag`); ``events_version``: the caller vouches that after this refresh every pulka of the
    event table at that version is projected. Nothing is written when nothing changed.
    """
    for pid, f in changed.items():
        if f.pulka != pid:
            raise ValueError(f"refresh: key {pid!r} differs from the facts' pulka id {f.pulka!r}")
    return _refresh(store_dir, {pid: f.fingerprint() for pid, f in changed.items()},
                    lambda todo: build.project_many(changed[pid] for pid in todo), removed, heads=heads,
                    events_version=events_version, force=force)


def refresh_built(store_dir: str | os.PathLike[str], tables: Mapping[str, pa.Table], prints: Mapping[str, str], *,
                  heads: Mapping[str, int] | None = None) -> RefreshResult:
    """:func:`refresh` for pulkas whose projection rows are built already (by an import's workers):
    ``tables`` holds the rows of the three tables for exactly the pulkas of ``prints`` (pulka id →
    fingerprint, :func:`~.facts.fingerprint_of`)."""

    def fresh(todo: list[str]) -> Mapping[str, pa.Table]:
        if len(todo) == len(prints):
            return tables
        keep = pa.array(todo, type=pa.string())
        return {t: data.filter(pc.is_in(data["pulka"], value_set=keep)) for t, data in tables.items()}

    return _refresh(store_dir, prints, fresh, (), heads=heads)


def _refresh(store_dir: str | os.PathLike[str], prints: Mapping[str, str],
             project: Callable[[list[str]], Mapping[str, pa.Table]], removed: Iterable[str] = (), *,
             heads: Mapping[str, int] | None = None, events_version: int | None = None,
             force: Iterable[str] = ()) -> RefreshResult:
    heads = heads or {}
    pdir = projections_dir(store_dir)
    pdir.mkdir(parents=True, exist_ok=True)
    with _lock(pdir):
        m = _migrate(pdir)
        forced = set(force)
        gone = tuple(sorted(pid for pid in set(removed) if pid in m.pulkas and pid not in prints))
        todo = sorted(pid for pid, fp in prints.items() if m.pulkas.get(pid) != fp or pid in forced)
        same = tuple(sorted(pid for pid in prints if pid not in todo))
        if not todo and not gone:
            if _note_heads(m, heads, prints, events_version):
                _save(pdir, m)
            return RefreshResult((), (), same)
        m.assign([pid for pid in todo if pid not in m.segment], SEGMENT_PULKAS)
        touched = sorted({m.segment[pid] for pid in (*todo, *gone)})
        for pid in (*todo, *gone):
            m.pulkas[pid] = PENDING
        _save(pdir, m)   # still lists the old files: a crash from here on only leaves these pending
        fresh = project(todo)
        for pid in gone:
            m.pulkas.pop(pid)
            m.segment.pop(pid)
            m.head.pop(pid, None)
        members = m.members()
        m.gen += 1
        drop = pa.array(list(todo) + list(gone), type=pa.string())
        for seg in touched:
            mine = pa.array([p for p in todo if m.segment[p] == seg], type=pa.string())
            for table in TABLES:
                entry = m.files[table].get(seg)
                if seg in members:
                    old = _read_file(pdir / table / entry[0], table) if entry else build.SCHEMAS[table].empty_table()
                    keep = old.filter(pc.invert(pc.is_in(old["pulka"], value_set=drop)))
                    add = fresh[table].filter(pc.is_in(fresh[table]["pulka"], value_set=mine))
                    name = _seg_name(seg, m.gen)
                    sha = _write_atomic(pdir / table / name, pa.concat_tables([keep, add]).sort_by(SORT_KEYS[table]))
                m.retire(table, seg)
                if seg in members:
                    m.files[table][seg] = (name, sha)
        m.pulkas.update({pid: prints[pid] for pid in todo})
        _note_heads(m, heads, prints, events_version)
        _publish(pdir, m)
        return RefreshResult(tuple(todo), gone, same, tuple(touched))


def _note_heads(m: _Manifest, heads: Mapping[str, int], built: Iterable[str], version: int | None) -> bool:
    """Record the heads of pulkas built or confirmed from those events (and of projected pulkas
    whose head was never recorded: stores written before heads were); and the vouched version.
    Whether anything changed."""
    changed = False  # tracked as it goes: a copy of every pulka's head to compare with cost O(pulkas) a refresh
    for pid in built:
        if pid in heads and m.head.get(pid) != heads[pid]:
            m.head[pid] = heads[pid]
            changed = True
    for pid, h in heads.items():
        if pid in m.pulkas and pid not in m.head and m.pulkas[pid] != PENDING:
            m.head[pid] = h
            changed = True
    if version is not None and version != m.events_version:
        m.events_version = version
        changed = True
    return changed


def rebuild(store_dir: str | os.PathLike[str], facts: Iterable[PulkaFacts], *,
            heads: Mapping[str, int] | None = None, events_version: int | None = None) -> RefreshResult:
    """Rewrite all projections from scratch for exactly these pulkas (one manifest swap: readers see
    the old projections or the new ones, never a mixture or an empty table)."""
    pdir = projections_dir(store_dir)
    pdir.mkdir(parents=True, exist_ok=True)
    with _lock(pdir):
        all_facts = {f.pulka: f for f in facts}
        old = _migrate(pdir)
        m = _Manifest(next=0, gen=old.gen + 1, retired=list(old.retired))
        m.assign(sorted(all_facts), SEGMENT_PULKAS)
        for seg, pids in sorted(m.members().items()):
            tables = build.project_many(all_facts[p] for p in sorted(pids))
            for table in TABLES:
                name = _seg_name(seg, m.gen)
                sha = _write_atomic(pdir / table / name, tables[table].sort_by(SORT_KEYS[table]))
                m.files[table][seg] = (name, sha)
        for table in TABLES:
            for seg in list(old.files[table]):
                old.retire(table, seg)
        m.retired = old.retired
        m.pulkas = {pid: f.fingerprint() for pid, f in all_facts.items()}
        _note_heads(m, heads or {}, all_facts, events_version)
        _publish(pdir, m)
        return RefreshResult(tuple(sorted(all_facts)), (), (), tuple(sorted(m.members())))


def write_table(store_dir: str | os.PathLike[str], table: str, data: pa.Table) -> None:
    """Write one projection table as is, segmented (used by the benchmark's synthetic data).

    Pulkas not yet in the manifest are assigned segments and recorded as pending (no facts, so
    no fingerprint); the rows of ``data`` replace the table's rows of the segments it covers.
    """
    pdir = projections_dir(store_dir)
    pdir.mkdir(parents=True, exist_ok=True)
    with _lock(pdir):
        m = _migrate(pdir)
        data = data.sort_by(SORT_KEYS[table])
        pids = pc.unique(data["pulka"]).to_pylist()
        m.assign([p for p in sorted(pids) if p not in m.segment], SEGMENT_PULKAS)
        for p in pids:
            m.pulkas.setdefault(p, PENDING)
        m.gen += 1
        seg_col = pc.index_in(data["pulka"], value_set=pa.array(pids, type=pa.string()))
        seg_of_row = pa.array([m.segment[p] for p in pids], type=pa.int32()).take(seg_col)
        for seg in sorted({m.segment[p] for p in pids}):
            name = _seg_name(seg, m.gen)
            sha = _write_atomic(pdir / table / name, data.filter(pc.equal(seg_of_row, seg)))
            m.retire(table, seg)
            m.files[table][seg] = (name, sha)
        _publish(pdir, m)


# --- healing and checking ----------------------------------------------------------------------
def lag(store_dir: str | os.PathLike[str], version: int | None,
        heads: Callable[[], Mapping[str, int]]) -> Lag:
    """What the projections lack against the event table at ``version``.

    Fast path: the manifest was found complete at this very version, nothing is pending and every
    listed file exists — then ``heads`` (a scan of the table's heads) is not even called. Else
    every pulka whose head differs from the one its projection was built from, or that is not
    projected, pending, or in a segment whose file is missing, is stale; projected pulkas the
    table does not hold are gone.
    """
    pdir = projections_dir(store_dir)
    m = _load(pdir)
    lost = {seg for t in TABLES for seg, (name, _sha) in m.files[t].items() if not (pdir / t / name).exists()}
    holed = {pid for pid, seg in m.segment.items() if seg in lost}
    pending = {pid for pid, fp in m.pulkas.items() if fp == PENDING}
    if version is not None and m.events_version == version and not pending and not holed:
        return Lag((), (), {}, version, current=True)
    got = dict(heads())
    stale = tuple(sorted(pid for pid, h in got.items()
                         if pid not in m.pulkas or pid in pending or pid in holed
                         or m.head.get(pid, h) != h))
    gone = tuple(sorted(pid for pid in m.pulkas if pid not in got))
    return Lag(stale, gone, got, version)


def check(store_dir: str | os.PathLike[str], heads: Mapping[str, int]) -> list[tuple[str, str]]:
    """The projections against the event table's ``heads`` (pulka → content hash): ``(pulka or "",
    what is wrong)`` for each pulka not projected, pending, projected from other events or not in the
    table, and each listed file missing, changed since written (SHA-256) or holding rows of pulkas
    its segment does not hold."""
    pdir = projections_dir(store_dir)
    try:
        m = _load(pdir)
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        return [("", f"projections manifest {pdir / MANIFEST} cannot be read: {exc}")]
    out: list[tuple[str, str]] = []
    for pid, h in sorted(heads.items()):
        if pid not in m.pulkas:
            out.append((pid, "not projected: the projections lag the events (any stats command rebuilds them)"))
        elif m.pulkas[pid] == PENDING:
            out.append((pid, "projection pending: a refresh was interrupted (any stats command rebuilds it)"))
        elif pid in m.head and m.head[pid] != h:
            out.append((pid, f"projected from other events (head {m.head[pid]:#x}, events {h:#x})"))
    for pid in sorted(m.pulkas):
        if pid not in heads:
            out.append((pid, "projected, but the event table holds no such pulka"))
    members = m.members()
    for table in TABLES:
        for seg, (name, sha) in sorted(m.files[table].items()):
            path = pdir / table / name
            if not path.exists():
                out.append(("", f"projection file {path} is missing"))
                continue
            if sha is not None and _sha256(path.read_bytes()) != sha:
                out.append(("", f"projection file {path} was changed after it was written (SHA-256 differs)"))
                continue
            try:
                ids = set(pq.read_table(path, columns=["pulka"])["pulka"].to_pylist())
            except (OSError, pa.ArrowException) as exc:
                out.append(("", f"projection file {path} cannot be read: {exc}"))
                continue
            for pid in sorted(ids - members.get(seg, set())):
                out.append((pid, f"rows in {path}, whose segment does not hold this pulka"))
    return out


# --- files ---------------------------------------------------------------------------------------
def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_file(path: Path, table: str) -> pa.Table:
    if not path.exists():
        return build.SCHEMAS[table].empty_table()
    return pq.read_table(path, schema=build.SCHEMAS[table])


def _write_atomic(path: Path, table: pa.Table) -> str:
    """Write ``table`` to ``path`` (temp name, fsync, rename); returns the file's SHA-256."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", row_group_size=ROW_GROUP)
    data = sink.getvalue().to_pybytes()
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp")  # must not end in .parquet
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return _sha256(data)


def _save(pdir: Path, m: _Manifest) -> None:
    tmp = pdir / f".{MANIFEST}.{os.getpid()}.tmp"
    body = {pid: [m.pulkas.get(pid, PENDING), m.segment[pid], m.head.get(pid)] for pid in sorted(m.segment)}
    files = {t: {str(seg): list(entry) for seg, entry in sorted(m.files[t].items())} for t in TABLES}
    text = json.dumps({"version": PROJECTION_VERSION, "layout": LAYOUT, "next": m.next, "gen": m.gen,
                       "events_version": m.events_version, "pulkas": body, "files": files,
                       "retired": [list(r) for r in m.retired]}, separators=(",", ":"))
    with open(tmp, "w") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, pdir / MANIFEST)


def _publish(pdir: Path, m: _Manifest) -> None:
    """Save the manifest that names the new files, dropping retired files older than
    :data:`RETAIN_SECONDS` from it; then delete those, and whatever no manifest names (files and temp
    files of killed writers: under the lock, no other writer is at work)."""
    now = time.time()
    m.retired = [(rel, at) for rel, at in m.retired if now - at < RETAIN_SECONDS]
    _save(pdir, m)
    keep = m.listed()
    for table in TABLES:
        d = pdir / table
        if not d.is_dir():
            continue
        for f in d.iterdir():
            if f"{table}/{f.name}" not in keep and (f.name.endswith(".parquet") or f.name.endswith(".tmp")):
                f.unlink(missing_ok=True)
    for f in pdir.glob(f".{MANIFEST}.*.tmp"):
        f.unlink(missing_ok=True)


def _migrate(pdir: Path) -> _Manifest:
    """The manifest, converting a layout-1 store (one ``<table>.parquet`` per table) to segments."""
    m = _load(pdir)
    legacy = {t: pdir / f"{t}.parquet" for t in TABLES}
    if not any(p.exists() for p in legacy.values()):
        return m
    old = {t: (pq.read_table(p, schema=build.SCHEMAS[t]) if p.exists() else build.SCHEMAS[t].empty_table())
           for t, p in legacy.items()}
    pids = sorted(set(m.pulkas) | set(pc.unique(old["pulka_results"]["pulka"]).to_pylist()))
    m.segment.clear()
    m.next = 0
    m.gen += 1
    m.assign(pids, SEGMENT_PULKAS)
    m.pulkas = {p: m.pulkas.get(p, PENDING) for p in pids}
    for seg, members in sorted(m.members().items()):
        value_set = pa.array(sorted(members), type=pa.string())
        for t in TABLES:
            name = _seg_name(seg, m.gen)
            data = old[t].filter(pc.is_in(old[t]["pulka"], value_set=value_set))
            m.files[t][seg] = (name, _write_atomic(pdir / t / name, data))
    _save(pdir, m)
    for p in legacy.values():
        p.unlink(missing_ok=True)
    return m


def import_begins(store_dir: str | os.PathLike[str]) -> ReadWriteLock:
    """Mark an import in progress (until :func:`import_ends`, or the process dies). Returns the mark to
    pass back.

    The mark is a *shared* hold of ``projections/.importing`` through ``filelock.ReadWriteLock``: a
    read transaction on an (empty) SQLite database, so any number of imports hold it at once, and the
    operating system drops it with the process (SQLite locks by ``fcntl`` on Linux and macOS and by
    ``LockFileEx`` on Windows). :func:`import_running` asks for the *exclusive* hold without waiting:
    refused while any import holds its mark."""
    pdir = projections_dir(store_dir)
    pdir.mkdir(parents=True, exist_ok=True)
    mark = ReadWriteLock(pdir / ".importing", is_singleton=False)
    mark.acquire_read()
    return mark


def import_ends(mark: ReadWriteLock) -> None:
    mark.release()
    mark.close()


def import_running(store_dir: str | os.PathLike[str]) -> bool:
    """Whether a live import holds :func:`import_begins`'s mark (it projects its pulkas, and heals
    the rest, when it ends: a reader need not replay them meanwhile)."""
    path = projections_dir(store_dir) / ".importing"
    if not path.exists():
        return False
    probe = ReadWriteLock(path, is_singleton=False, blocking=False)
    try:
        probe.acquire_write(timeout=0, blocking=False)
    except Timeout:
        return True
    else:
        probe.release()
    finally:
        probe.close()
    return False


@contextmanager
def _lock(pdir: Path) -> Iterator[None]:
    with FileLock(pdir / ".lock"):
        yield
