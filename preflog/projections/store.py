"""Projection files next to the events, in segments of pulkas:

    <store>/projections/manifest.json
    <store>/projections/{deals,player_deals,pulka_results}/seg-000000-g000001.parquet, …
    <store>/projections/members/seg-000000-g000001.parquet, …   (a segment's pulkas)
    <store>/projections/members/index-g000001.bin, …            (pulka → segment)

Each pulka belongs to one *segment* (at most :data:`SEGMENT_PULKAS` pulkas); a segment is one
Parquet file per table (zstd, sorted by pulka, deal, seat) and one *member file*: its pulkas with
their fingerprint and the content hash of the events they were built from (the head of the hash
chain). ``manifest.json`` holds no per-pulka entry: per segment its counts and its current file per
table and member file with that file's SHA-256, the index runs, and the counters. So
:func:`refresh` rebuilds only pulkas whose facts changed and rewrites only their segments — data
and member files — plus the small manifest: one new pulka goes into the open tail segment, which is
the only segment rewritten; neither its memory nor its I/O grows with the store's pulkas (it reads
the manifest, O(segments), and the index runs through ``mmap``).

Which segment holds a pulka: the *index*, sorted runs of 64-bit entries (a 40-bit hash of the id,
then the 24-bit segment number) in raw little-endian files, like a log-structured merge tree. A
refresh that adds pulkas writes one new run of their entries; runs whose size is at most twice the
new entries' total are merged into it (chunk by chunk, so memory stays flat), which keeps O(log n)
runs. A lookup searches each run (``numpy.searchsorted`` on a memory map) and confirms each
candidate against the segment's member file, so a hash collision or the entry of a removed pulka
only costs a member-file read. A lost or truncated run is rebuilt from the member files.

Readers see a consistent snapshot: all these files are immutable. A rewrite writes a *new* file
(the name carries the manifest generation ``gNNNNNN``) and the new manifest, swapped in with one
``os.replace``, names it; the file it supersedes is *retired*, not deleted, and removed by a later
writer once it has been retired for :data:`RETAIN_SECONDS`, so a reader that took its file list
from the old manifest (:func:`snapshot`, one manifest for all three tables) still reads whole,
unchanged files. Files no manifest lists (left by a killed writer) are never read and are deleted
by the next writer, under the lock.

Derived state that heals itself: the manifest records the event-table version the projections were
last found complete at (``events_version``) and each member file each pulka's head, so :func:`lag`
tells a caller which pulkas are missing, pending, stale or gone (see
``Workspace.heal_projections``), and :func:`check` compares the projections with the event table
for ``verify``; both read the member files one at a time.

Crash safety: files are written to a temp name that does not end in ``.parquet`` or ``.bin``,
fsynced and ``os.replace``-d. Before touching segments the manifest marks the affected pulkas
*pending* (a list of the refresh's pulka ids in ``manifest.json``), and only the final manifest
records their new fingerprints (in the new member files) and files, so a crash in between leaves
the previous files listed and only causes a rebuild of those pulkas. Writers are serialised by an
exclusive lock on ``projections/.lock`` (``filelock.FileLock``: ``flock`` on Linux and macOS,
``LockFileEx`` on Windows). Stores written with the older layouts (one file per table; segments
rewritten in place; every pulka listed in ``manifest.json``) are read as they are and converted on
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

import numpy as np
import numpy.typing as npt
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
MEMBERS = "members"        # the folder of the member files and index runs
KINDS = (*TABLES, MEMBERS)  # the files of a segment: one per table, and its member file
SORT_KEYS = {
    "deals": [("pulka", "ascending"), ("deal", "ascending")],
    "player_deals": [("pulka", "ascending"), ("deal", "ascending"), ("seat", "ascending")],
    "pulka_results": [("pulka", "ascending"), ("seat", "ascending")],
}
MEMBER_SCHEMA = pa.schema([("pulka", pa.string()), ("fingerprint", pa.string()), ("head", pa.int64())])
ROW_GROUP = 128 * 1024
MANIFEST = "manifest.json"
LAYOUT = 4                 # 1: one file per table; 2: segments rewritten in place; 3: immutable segment files,
#                            every pulka in manifest.json; 4: a member file per segment and an index
SEGMENT_PULKAS = 2000      # ~50 k deals a segment at 25 deals a pulka: a tail rewrite stays ~0.1 s
PENDING = ""               # fingerprint of a pulka whose rows are being (re)written
RETAIN_SECONDS = 600.0     # a superseded segment file stays this long for readers of an older manifest
SEG_BITS = 24              # an index entry: 40 bits of the id's hash, then 24 of the segment number
_SEG_MASK = (1 << SEG_BITS) - 1
MERGE_CHUNK = 1 << 16      # entries a run merge holds per source at a time

Member = tuple[str, int | None]   # (fingerprint, head) of a pulka in a member file
U64 = npt.NDArray[np.uint64]


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
    """segment → [pulkas, pending ones, ones without head]; segment → file per table and member file;
    index runs (name, SHA-256, entries); pulkas pending; retired files; counters.

    ``legacy``: the segments' members as a store of layout ≤ 3 lists them in its manifest (segment -1:
    layout 1, segments unknown); None for layout 4, whose members are in the member files."""

    segs: dict[int, list[int]] = field(default_factory=dict)
    files: dict[str, dict[int, tuple[str, str | None]]] = field(default_factory=lambda: {k: {} for k in KINDS})
    index: list[tuple[str, str | None, int]] = field(default_factory=list)
    pending: set[str] = field(default_factory=set)
    retired: list[tuple[str, float]] = field(default_factory=list)
    next: int = 0
    gen: int = 0
    events_version: int | None = None
    legacy: dict[int, dict[str, Member]] | None = None

    def assign(self, new: Iterable[str], size: int) -> dict[str, int]:
        """Segments for new pulkas (in the given order): the open tail segment, then fresh ones."""
        out: dict[str, int] = {}
        tail = max(self.segs) if self.segs else None
        count = self.segs[tail][0] if tail is not None else 0
        for pid in new:
            if tail is None or count >= size:
                tail, count = self.next, 0
                self.next += 1
            out[pid] = tail
            count += 1
        return out

    def retire(self, kind: str, seg: int) -> None:
        entry = self.files[kind].pop(seg, None)
        if entry is not None:
            self.retired.append((f"{kind}/{entry[0]}", time.time()))

    def listed(self) -> set[str]:
        """Every file the manifest names, listed or retired, as ``folder/name``."""
        out = {f"{k}/{name}" for k in KINDS for name, _sha in self.files[k].values()}
        out.update(f"{MEMBERS}/{name}" for name, _sha, _n in self.index)
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


def _counts(members: Mapping[str, Member]) -> list[int]:
    """[pulkas, pending ones, ones without head] of a segment."""
    return [len(members), sum(1 for fp, _h in members.values() if fp == PENDING),
            sum(1 for _fp, h in members.values() if h is None)]


def _load(pdir: Path) -> _Manifest:
    p = pdir / MANIFEST
    if not p.exists():
        return _Manifest()
    data = json.loads(p.read_text())
    layout = data.get("layout")
    if layout == LAYOUT:
        m = _Manifest(next=int(data["next"]), gen=int(data["gen"]), events_version=data.get("events_version"))
        m.segs = {int(seg): [int(c) for c in counts] for seg, counts in data["segments"].items()}
        for k in KINDS:
            m.files[k] = {int(seg): (name, sha) for seg, (name, sha) in data["files"].get(k, {}).items()}
        m.index = [(name, sha, int(n)) for name, sha, n in data["index"]]
        m.pending = set(data.get("pending", ()))
        m.retired = [(rel, float(at)) for rel, at in data.get("retired", [])]
        return m
    # the older layouts list every pulka in the manifest: read as they are, converted by the next write
    m = _Manifest(legacy={})
    assert m.legacy is not None
    if layout not in (2, 3):        # layout 1: {"pulkas": {id: fingerprint}}, segments unknown
        m.legacy = {-1: {pid: (fp, None) for pid, fp in data.get("pulkas", {}).items()}} if data.get("pulkas") else {}
    else:
        m.next, m.gen = int(data.get("next", 0)), int(data.get("gen", 0))
        for pid, entry in data["pulkas"].items():
            head = int(entry[2]) if len(entry) > 2 and entry[2] is not None else None
            m.legacy.setdefault(int(entry[1]), {})[pid] = (entry[0], head)
    if layout == 2:                 # one file per segment and table, rewritten in place; no digests
        for t in TABLES:
            m.files[t] = {seg: (f"seg-{seg:06d}.parquet", None) for seg in m.legacy}
    elif layout == 3:
        m.events_version = data.get("events_version")
        for t in TABLES:
            m.files[t] = {int(seg): (name, sha) for seg, (name, sha) in data["files"].get(t, {}).items()}
        m.retired = [(rel, float(at)) for rel, at in data.get("retired", [])]
    m.segs = {seg: _counts(members) for seg, members in m.legacy.items() if seg >= 0}
    m.pending = {pid for members in m.legacy.values() for pid, (fp, _h) in members.items() if fp == PENDING}
    return m


# --- member files -----------------------------------------------------------------------------------
def _read_members(path: Path) -> dict[str, Member]:
    t = pq.read_table(path, schema=MEMBER_SCHEMA)
    return dict(zip(t["pulka"].to_pylist(), zip(t["fingerprint"].to_pylist(), t["head"].to_pylist(), strict=True),
                    strict=True))


def _write_members(path: Path, members: Mapping[str, Member]) -> str:
    ids = sorted(members)
    columns = [pa.array(ids, pa.string()), pa.array([members[p][0] for p in ids], pa.string()),
               pa.array([members[p][1] for p in ids], pa.int64())]
    return _write_atomic(path, pa.table(columns, schema=MEMBER_SCHEMA))


def _members(pdir: Path, m: _Manifest, seg: int) -> dict[str, Member] | None:
    """A segment's pulkas → (fingerprint, head); None if its member file is missing or unreadable."""
    if m.legacy is not None:
        return dict(m.legacy.get(seg, {}))
    entry = m.files[MEMBERS].get(seg)
    if entry is None:
        return {} if seg not in m.segs else None
    try:
        return _read_members(pdir / MEMBERS / entry[0])
    except (OSError, pa.ArrowException):
        return None


def _segments(pdir: Path, m: _Manifest) -> Iterator[tuple[int, dict[str, Member] | None]]:
    """Each segment with its members (None: member file lost), one at a time; layout 1's segment -1 too."""
    for seg in sorted(m.legacy if m.legacy is not None else m.segs):
        yield seg, _members(pdir, m, seg)


def each_member(store_dir: str | os.PathLike[str]) -> Iterator[tuple[int, str, str, int | None]]:
    """(segment, pulka, fingerprint, head) of every projected pulka, a member file at a time; pending
    pulkas carry the fingerprint :data:`PENDING` (also those of a refresh that died before its segment
    held them: segment -1)."""
    pdir = projections_dir(store_dir)
    m = _load(pdir)
    pending = set(m.pending)
    for seg, members in _segments(pdir, m):
        for pid, (fp, head) in (members or {}).items():
            pending.discard(pid)
            yield seg, pid, PENDING if pid in m.pending else fp, head
    for pid in sorted(pending):
        yield -1, pid, PENDING, None


def read_manifest(store_dir: str | os.PathLike[str]) -> dict[str, str]:
    """Fingerprint per projected pulka id ({} for a store without projections; ``""`` = pending).
    Built from the member files (O(pulkas): for tests and tools, not for the refresh path)."""
    return {pid: fp for _seg, pid, fp, _h in each_member(store_dir)}


def segment_of(store_dir: str | os.PathLike[str]) -> dict[str, int]:
    """Segment number per projected pulka id."""
    return {pid: seg for seg, pid, _fp, _h in each_member(store_dir) if seg >= 0}


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
        if not m.segs and (pdir / f"{table}.parquet").exists():
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


# --- the index: pulka → segment ----------------------------------------------------------------------
def _key(pid: str) -> int:
    """The id's hash with the segment bits cleared (an entry is ``key | segment``)."""
    h = int.from_bytes(hashlib.blake2b(pid.encode(), digest_size=8).digest(), "little")
    return h & ~_SEG_MASK & 0xFFFF_FFFF_FFFF_FFFF


def _entries(where: Mapping[str, int]) -> U64:
    """Sorted index entries of pulkas → segments."""
    for seg in set(where.values()):
        if not 0 <= seg <= _SEG_MASK:
            raise ValueError(f"projection segment {seg} does not fit the index's {SEG_BITS} bits")
    out = np.fromiter((_key(p) | seg for p, seg in where.items()), dtype=np.uint64, count=len(where))
    out.sort()
    return out


def _run(pdir: Path, name: str, count: int) -> U64:
    """An index run as a read-only memory map (nothing of it is copied into the heap)."""
    path = pdir / MEMBERS / name
    if count == 0:
        return np.zeros(0, dtype=np.uint64)
    if path.stat().st_size != 8 * count:
        raise ValueError(f"index run {path} holds {path.stat().st_size} bytes, not {8 * count}")
    return np.memmap(path, dtype="<u8", mode="r", shape=(count,))


def _write_run(path: Path, sources: list[U64]) -> str:
    """Merge sorted entry arrays into one run file, :data:`MERGE_CHUNK` entries a source at a time
    (temp name, fsync, rename); returns its SHA-256."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp")
    digest = hashlib.sha256()
    pos = [0] * len(sources)
    with open(tmp, "wb") as fh:
        while True:
            heads = [(i, s[pos[i]:pos[i] + MERGE_CHUNK]) for i, s in enumerate(sources) if pos[i] < len(s)]
            if not heads:
                break
            bound = min(int(chunk[-1]) for _i, chunk in heads)  # every entry ≤ bound of every source is here
            parts = []
            for i, chunk in heads:
                n = int(np.searchsorted(chunk, np.uint64(bound), side="right"))
                parts.append(np.asarray(chunk[:n]))
                pos[i] += n
            block = np.sort(np.concatenate(parts)).astype("<u8", copy=False).tobytes()
            digest.update(block)
            fh.write(block)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return digest.hexdigest()


def _add_run(pdir: Path, m: _Manifest, where: Mapping[str, int]) -> None:
    """Index new pulkas → segments: one new run, merged with the newest runs while they are at most
    twice its size (so the runs' sizes at least double from newest to oldest: O(log n) runs)."""
    if not where:
        return
    sources = [_entries(where)]
    while m.index and m.index[-1][2] <= 2 * sum(len(s) for s in sources):
        name, _sha, count = m.index.pop()
        sources.append(_run(pdir, name, count))
        m.retired.append((f"{MEMBERS}/{name}", time.time()))
    name = f"index-g{m.gen:06d}.bin"
    total = sum(len(s) for s in sources)
    m.index.append((name, _write_run(pdir / MEMBERS / name, sources), total))


def _reindex(pdir: Path, m: _Manifest) -> None:
    """Rebuild the index from the member files (a run lost or damaged; a store being converted)."""
    for name, _sha, _n in m.index:
        m.retired.append((f"{MEMBERS}/{name}", time.time()))
    m.index = []
    where: dict[str, int] = {}
    for seg, members in _segments(pdir, m):
        where.update(dict.fromkeys(members or {}, seg))
    _add_run(pdir, m, where)


def _locate(pdir: Path, m: _Manifest, ids: Iterable[str]) -> dict[str, tuple[int, str, int | None]]:
    """Projected pulkas among ``ids`` → (segment, fingerprint, head): the index's candidate segments,
    confirmed against their member files (read one at a time). A candidate segment whose member file
    does not read is dropped from ``m`` (:func:`_drop`)."""
    wanted = sorted(set(ids))
    if not wanted or not m.segs:
        return {}
    keys = np.fromiter((_key(p) for p in wanted), dtype=np.uint64, count=len(wanted))
    last = keys | np.uint64(_SEG_MASK)
    candidates: dict[int, list[str]] = {}
    for name, _sha, count in m.index:
        run = _run(pdir, name, count)
        lo = np.searchsorted(run, keys, side="left")
        hi = np.searchsorted(run, last, side="right")
        for i in np.flatnonzero(hi > lo):
            for entry in run[lo[i]:hi[i]]:
                candidates.setdefault(int(entry) & _SEG_MASK, []).append(wanted[i])
        del run
    out: dict[str, tuple[int, str, int | None]] = {}
    for seg in sorted(candidates):
        if seg not in m.segs:
            continue
        members = _members(pdir, m, seg)
        if members is None:      # unreadable: the segment is dropped, its pulkas are then not projected
            _drop(m, seg)
            continue
        for pid in candidates[seg]:
            if pid in members:
                out[pid] = (seg, *members[pid])
    return out


def _drop(m: _Manifest, seg: int) -> None:
    """Forget a segment whose member file is lost or unreadable: its files are retired and its pulkas,
    not projected now, are built again by the next heal (into other segments)."""
    for kind in KINDS:
        m.retire(kind, seg)
    m.segs.pop(seg, None)


# --- writing ---------------------------------------------------------------------------------------
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
        removed = set(removed)
        segments = len(m.segs)
        found = _locate(pdir, m, [*prints, *removed])
        dropped = len(m.segs) != segments   # an unreadable member file: its segment is forgotten
        gone = tuple(sorted(pid for pid in removed if (pid in found or pid in m.pending) and pid not in prints))
        todo = sorted(pid for pid, fp in prints.items()
                      if pid not in found or found[pid][1] != fp or pid in m.pending or pid in forced)
        busy = set(todo) | set(gone)
        same = tuple(sorted(pid for pid in prints if pid not in busy))
        fixes = _head_fixes(pdir, m, found, heads, same, busy)
        version_moves = events_version is not None and events_version != m.events_version
        if not todo and not gone:
            if fixes or version_moves or dropped:
                m.gen += 1
                for seg, heads_of in sorted(fixes.items()):
                    _rewrite_members(pdir, m, seg, heads=heads_of)
                if version_moves:
                    m.events_version = events_version
                _publish(pdir, m)
            return RefreshResult((), (), same)
        new = m.assign([pid for pid in todo if pid not in found], SEGMENT_PULKAS)
        seg_of = {pid: found[pid][0] for pid in found}
        seg_of.update(new)
        touched = sorted({seg_of[pid] for pid in (*todo, *gone) if pid in seg_of})
        m.pending.update(todo)
        m.pending.update(gone)
        _save(pdir, m)   # still lists the old files: a crash from here on only leaves these pending
        fresh = project(todo)
        m.gen += 1
        drop = pa.array(list(todo) + list(gone), type=pa.string())
        by_seg: dict[int, list[str]] = {}
        for pid in todo:
            by_seg.setdefault(seg_of[pid], []).append(pid)
        for seg in touched:
            members = (_members(pdir, m, seg) or {}) if seg in m.segs else {}
            for pid in gone:
                members.pop(pid, None)
            for pid in by_seg.get(seg, ()):
                members[pid] = (prints[pid], heads.get(pid, members.get(pid, (PENDING, None))[1]))
            for pid, head in fixes.pop(seg, {}).items():
                if pid in members:
                    members[pid] = (members[pid][0], head)
            mine = pa.array(by_seg.get(seg, []), type=pa.string())
            name = _seg_name(seg, m.gen)
            written: dict[str, tuple[str, str | None]] = {}
            if members:
                for table in TABLES:
                    entry = m.files[table].get(seg)
                    old = _read_file(pdir / table / entry[0], table) if entry else build.SCHEMAS[table].empty_table()
                    keep = old.filter(pc.invert(pc.is_in(old["pulka"], value_set=drop)))
                    add = fresh[table].filter(pc.is_in(fresh[table]["pulka"], value_set=mine))
                    sha = _write_atomic(pdir / table / name, pa.concat_tables([keep, add]).sort_by(SORT_KEYS[table]))
                    written[table] = (name, sha)
                written[MEMBERS] = (name, _write_members(pdir / MEMBERS / name, members))
            for kind in KINDS:
                m.retire(kind, seg)
                if kind in written:
                    m.files[kind][seg] = written[kind]
            if members:
                m.segs[seg] = _counts(members)
            else:
                m.segs.pop(seg, None)
        for seg, heads_of in sorted(fixes.items()):
            _rewrite_members(pdir, m, seg, heads=heads_of)
        _add_run(pdir, m, new)
        m.pending.difference_update(todo)
        m.pending.difference_update(gone)
        if version_moves:
            m.events_version = events_version
        _publish(pdir, m)
        return RefreshResult(tuple(todo), gone, same, tuple(touched))


def _head_fixes(pdir: Path, m: _Manifest, found: Mapping[str, tuple[int, str, int | None]],
                heads: Mapping[str, int], same: Iterable[str], busy: set[str]) -> dict[int, dict[str, int]]:
    """Heads to record for pulkas not rebuilt (segment → pulka → head): those confirmed by this refresh
    whose events moved on, and projected pulkas whose head was never recorded (stores written before
    heads were; only segments counting such pulkas are read)."""
    out: dict[int, dict[str, int]] = {}
    for pid in same:
        seg, _fp, head = found[pid]
        if pid in heads and head != heads[pid]:
            out.setdefault(seg, {})[pid] = heads[pid]
    if heads:
        for seg in sorted(seg for seg, counts in m.segs.items() if counts[2]):
            for pid, (fp, head) in (_members(pdir, m, seg) or {}).items():
                if head is None and fp != PENDING and pid in heads and pid not in busy and pid not in m.pending:
                    out.setdefault(seg, {})[pid] = heads[pid]
    return out


def _rewrite_members(pdir: Path, m: _Manifest, seg: int, add: Mapping[str, Member] | None = None,
                     heads: Mapping[str, int] | None = None) -> None:
    """A new generation of one segment's member file (its data files stay): ``add`` pulkas, new ``heads``."""
    members = _members(pdir, m, seg)
    if members is None:
        return
    members.update(add or {})
    for pid, head in (heads or {}).items():
        if pid in members:
            members[pid] = (members[pid][0], head)
    name = _seg_name(seg, m.gen)
    sha = _write_members(pdir / MEMBERS / name, members)
    m.retire(MEMBERS, seg)
    m.files[MEMBERS][seg] = (name, sha)
    m.segs[seg] = _counts(members)


def rebuild(store_dir: str | os.PathLike[str], facts: Iterable[PulkaFacts], *,
            heads: Mapping[str, int] | None = None, events_version: int | None = None) -> RefreshResult:
    """Rewrite all projections from scratch for exactly these pulkas (one manifest swap: readers see
    the old projections or the new ones, never a mixture or an empty table)."""
    heads = heads or {}
    pdir = projections_dir(store_dir)
    pdir.mkdir(parents=True, exist_ok=True)
    with _lock(pdir):
        all_facts = {f.pulka: f for f in facts}
        old = _load(pdir)
        m = _Manifest(next=0, gen=old.gen + 1, events_version=events_version)
        where = m.assign(sorted(all_facts), SEGMENT_PULKAS)
        by_seg: dict[int, list[str]] = {}
        for pid, seg in where.items():
            by_seg.setdefault(seg, []).append(pid)
        for seg, pids in sorted(by_seg.items()):
            tables = build.project_many(all_facts[p] for p in pids)
            name = _seg_name(seg, m.gen)
            for table in TABLES:
                sha = _write_atomic(pdir / table / name, tables[table].sort_by(SORT_KEYS[table]))
                m.files[table][seg] = (name, sha)
            members = {p: (all_facts[p].fingerprint(), heads.get(p)) for p in pids}
            m.files[MEMBERS][seg] = (name, _write_members(pdir / MEMBERS / name, members))
            m.segs[seg] = _counts(members)
        _add_run(pdir, m, where)
        for kind in KINDS:
            for seg in list(old.files[kind]):
                old.retire(kind, seg)
        old.retired.extend((f"{MEMBERS}/{name}", time.time()) for name, _sha, _n in old.index)
        m.retired = old.retired
        _publish(pdir, m)
        for p in (pdir / f"{t}.parquet" for t in TABLES):
            p.unlink(missing_ok=True)   # a layout-1 store's single files, now superseded
        return RefreshResult(tuple(sorted(all_facts)), (), (), tuple(sorted(by_seg)))


def write_table(store_dir: str | os.PathLike[str], table: str, data: pa.Table) -> None:
    """Write one projection table as is, segmented (used by the benchmark's synthetic data).

    Pulkas not yet projected are assigned segments and recorded as pending (no facts, so no
    fingerprint); the rows of ``data`` replace the table's rows of the segments it covers.
    """
    pdir = projections_dir(store_dir)
    pdir.mkdir(parents=True, exist_ok=True)
    with _lock(pdir):
        m = _migrate(pdir)
        data = data.sort_by(SORT_KEYS[table])
        pids = pc.unique(data["pulka"]).to_pylist()
        found = _locate(pdir, m, pids)
        new = m.assign([p for p in sorted(pids) if p not in found], SEGMENT_PULKAS)
        seg_of = {p: found[p][0] for p in found}
        seg_of.update(new)
        m.gen += 1
        seg_col = pc.index_in(data["pulka"], value_set=pa.array(pids, type=pa.string()))
        seg_of_row = pa.array([seg_of[p] for p in pids], type=pa.int32()).take(seg_col)
        for seg in sorted(set(seg_of.values())):
            name = _seg_name(seg, m.gen)
            sha = _write_atomic(pdir / table / name, data.filter(pc.equal(seg_of_row, seg)))
            m.retire(table, seg)
            m.files[table][seg] = (name, sha)
            mine = {p: (PENDING, None) for p, s in new.items() if s == seg}
            if mine:
                _rewrite_members(pdir, m, seg, add=mine)
        _add_run(pdir, m, new)
        _publish(pdir, m)


# --- healing and checking ----------------------------------------------------------------------
def _lost(pdir: Path, m: _Manifest) -> set[int]:
    """Segments with a listed file missing."""
    return {seg for k in KINDS for seg, (name, _sha) in m.files[k].items() if not (pdir / k / name).exists()}


def lag(store_dir: str | os.PathLike[str], version: int | None,
        heads: Callable[[], Mapping[str, int]]) -> Lag:
    """What the projections lack against the event table at ``version``.

    Fast path: the manifest was found complete at this very version, nothing is pending and every
    listed file exists — then ``heads`` (a scan of the table's heads) is not even called. Else
    every pulka whose head differs from the one its projection was built from, or that is not
    projected, pending, or in a segment whose file is missing, is stale; projected pulkas the
    table does not hold are gone. The member files are read one at a time.
    """
    pdir = projections_dir(store_dir)
    m = _load(pdir)
    lost = _lost(pdir, m)
    runs_lost = any(not (pdir / MEMBERS / name).exists() for name, _sha, _n in m.index)
    pending = bool(m.pending) or any(counts[1] for counts in m.segs.values())
    if version is not None and m.events_version == version and not pending and not lost and not runs_lost:
        return Lag((), (), {}, version, current=True)
    got = dict(heads())
    unseen = set(got)
    stale: list[str] = []
    gone: list[str] = []
    for seg, members in _segments(pdir, m):
        for pid, (fp, head) in (members or {}).items():
            if pid not in got:
                gone.append(pid)
                continue
            unseen.discard(pid)
            if fp == PENDING or pid in m.pending or seg in lost or (head is not None and head != got[pid]):
                stale.append(pid)
    stale.extend(unseen)   # not projected (or in a segment whose member file is lost)
    return Lag(tuple(sorted(stale)), tuple(sorted(gone)), got, version)


def check(store_dir: str | os.PathLike[str], heads: Mapping[str, int]) -> list[tuple[str, str]]:
    """The projections against the event table's ``heads`` (pulka → content hash): ``(pulka or "",
    what is wrong)`` for each pulka not projected, pending, projected from other events or not in the
    table, and each listed file missing, changed since written (SHA-256) or holding rows of pulkas
    its segment does not hold. The member files are read one at a time."""
    pdir = projections_dir(store_dir)
    try:
        m = _load(pdir)
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        return [("", f"projections manifest {pdir / MANIFEST} cannot be read: {exc}")]
    pulkas: list[tuple[str, str]] = []
    foreign: list[tuple[str, str]] = []
    files: list[tuple[tuple[int, int], tuple[str, str]]] = []
    unseen = set(heads)
    for seg, members in _segments(pdir, m):
        for k, kind in enumerate(KINDS):
            problem = _file_problem(pdir / kind / m.files[kind][seg][0], m.files[kind][seg][1]) \
                if seg in m.files[kind] else None
            if problem:
                files.append(((k, seg), ("", problem)))
                continue
            if kind == MEMBERS or seg not in m.files[kind] or members is None:
                continue
            path = pdir / kind / m.files[kind][seg][0]
            try:
                ids = set(pq.read_table(path, columns=["pulka"])["pulka"].to_pylist())
            except (OSError, pa.ArrowException) as exc:
                files.append(((k, seg), ("", f"projection file {path} cannot be read: {exc}")))
                continue
            for pid in sorted(ids - set(members)):
                files.append(((k, seg), (pid, f"rows in {path}, whose segment does not hold this pulka")))
        for pid, (fp, head) in sorted((members or {}).items()):
            if pid not in heads:
                foreign.append((pid, "projected, but the event table holds no such pulka"))
                continue
            unseen.discard(pid)
            if fp == PENDING or pid in m.pending:
                pulkas.append((pid, "projection pending: a refresh was interrupted (any stats command rebuilds it)"))
            elif head is not None and head != heads[pid]:
                pulkas.append((pid, f"projected from other events (head {head:#x}, events {heads[pid]:#x})"))
    for pid in unseen:
        pulkas.append((pid, "projection pending: a refresh was interrupted (any stats command rebuilds it)"
                       if pid in m.pending else
                       "not projected: the projections lag the events (any stats command rebuilds them)"))
    for name, sha, _n in m.index:
        problem = _file_problem(pdir / MEMBERS / name, sha)
        if problem:
            files.append(((len(KINDS), 0), ("", problem)))
    return sorted(pulkas) + sorted(foreign) + [p for _k, p in sorted(files, key=lambda f: f[0])]


def check_derived(store_dir: str | os.PathLike[str], facts: Iterable[PulkaFacts]) -> list[tuple[str, str]]:
    """The projections against what the pulkas' events give (``verify --deep``): ``(pulka, what differs)``
    for each pulka of ``facts`` whose stored rows of a table are not the rows :func:`build.project_many`
    makes of its facts, row for row, every column. The manifest's SHA-256 proves a file unchanged since it
    was written; only this shows a value edited together with the SHA-256 that vouches for it."""
    facts = list(facts)
    want_ids = {f.pulka for f in facts}
    expected = build.project_many(facts)
    out: list[tuple[str, str]] = []
    for table in TABLES:
        keys = SORT_KEYS[table]
        want = _by_pulka(expected[table].sort_by(keys))
        try:
            have_table = read_table(store_dir, table)
        except (OSError, ValueError, KeyError, TypeError, IndexError, pa.ArrowException):
            continue  # an unreadable manifest or file: :func:`check` names it
        have_table = have_table.filter(pc.is_in(have_table["pulka"], value_set=pa.array(sorted(want_ids), pa.string())))
        have = _by_pulka(have_table.sort_by(keys))
        for pid in sorted(want_ids):
            rows, got = want.get(pid, []), have.get(pid, [])
            if rows == got:
                continue
            if len(rows) != len(got):
                out.append((pid, f"{table}: {len(got)} rows projected, its events give {len(rows)}"))
                continue
            at = next(i for i, (a, b) in enumerate(zip(rows, got, strict=True)) if a != b)
            cols = [c for c in expected[table].schema.names if rows[at].get(c) != got[at].get(c)]
            out.append((pid, f"{table} row {at + 1}: {', '.join(cols)} differ from what its events give "
                        "(a projection edited, its manifest's SHA-256 with it?); any stats command after "
                        "deleting the projections folder rebuilds them"))
    return out


def _by_pulka(table: pa.Table) -> dict[str, list[dict[str, object]]]:
    out: dict[str, list[dict[str, object]]] = {}
    for row in table.to_pylist():
        out.setdefault(str(row["pulka"]), []).append(row)
    return out


def _file_problem(path: Path, sha: str | None) -> str | None:
    if not path.exists():
        return f"projection file {path} is missing"
    if sha is not None and _sha256(path.read_bytes()) != sha:
        return f"projection file {path} was changed after it was written (SHA-256 differs)"
    return None


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
    files = {k: {str(seg): list(entry) for seg, entry in sorted(m.files[k].items())} for k in KINDS}
    text = json.dumps({"version": PROJECTION_VERSION, "layout": LAYOUT, "next": m.next, "gen": m.gen,
                       "events_version": m.events_version,
                       "segments": {str(seg): counts for seg, counts in sorted(m.segs.items())}, "files": files,
                       "index": [list(run) for run in m.index], "pending": sorted(m.pending),
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
    for kind in KINDS:
        d = pdir / kind
        if not d.is_dir():
            continue
        for f in d.iterdir():
            if f"{kind}/{f.name}" not in keep and f.name.endswith((".parquet", ".bin", ".tmp")):
                f.unlink(missing_ok=True)
    for f in pdir.glob(f".{MANIFEST}.*.tmp"):
        f.unlink(missing_ok=True)


def _migrate(pdir: Path) -> _Manifest:
    """The manifest for a writer: a store of an older layout converted to member files and an index (a
    layout-1 store, one ``<table>.parquet`` per table, to segments too); segments whose member file is
    lost dropped (their pulkas are then not projected: the next heal builds them again); a lost or
    damaged index rebuilt from the member files."""
    m = _load(pdir)
    if m.legacy is not None:
        return _convert(pdir, m)
    changed = False
    for seg in sorted(seg for seg in m.segs if seg not in m.files[MEMBERS]
                      or not (pdir / MEMBERS / m.files[MEMBERS][seg][0]).exists()):
        _drop(m, seg)
        changed = True
    try:
        for name, _sha, count in m.index:
            _run(pdir, name, count)
    except (OSError, ValueError):
        m.gen += 1
        _reindex(pdir, m)
        changed = True
    if changed:
        _publish(pdir, m)
    return m


def _convert(pdir: Path, m: _Manifest) -> _Manifest:
    """A store of layout ≤ 3 as layout 4: member files written from its manifest's pulkas (its data
    files kept), or, for layout 1, its single files split into segments."""
    assert m.legacy is not None
    legacy_files = {t: pdir / f"{t}.parquet" for t in TABLES}
    m.gen += 1
    if any(p.exists() for p in legacy_files.values()) or -1 in m.legacy:
        old = {t: (pq.read_table(p, schema=build.SCHEMAS[t]) if p.exists() else build.SCHEMAS[t].empty_table())
               for t, p in legacy_files.items()}
        known = {pid: v for members in m.legacy.values() for pid, v in members.items()}
        pids = sorted(set(known) | set(pc.unique(old["pulka_results"]["pulka"]).to_pylist()))
        m.segs, m.next = {}, 0
        m.legacy = {}
        for pid, seg in m.assign(pids, SEGMENT_PULKAS).items():
            m.legacy.setdefault(seg, {})[pid] = known.get(pid, (PENDING, None))
        for seg, members in sorted(m.legacy.items()):
            value_set = pa.array(sorted(members), type=pa.string())
            for t in TABLES:
                name = _seg_name(seg, m.gen)
                data = old[t].filter(pc.is_in(old[t]["pulka"], value_set=value_set))
                m.files[t][seg] = (name, _write_atomic(pdir / t / name, data))
    else:
        legacy_files = {}
    for seg, members in sorted(m.legacy.items()):
        name = _seg_name(seg, m.gen)
        m.files[MEMBERS][seg] = (name, _write_members(pdir / MEMBERS / name, members))
        m.segs[seg] = _counts(members)
    m.pending = set()   # layouts ≤ 3 mark pending pulkas by their fingerprint, kept in the member files
    where = {pid: seg for seg, members in m.legacy.items() for pid in members}
    m.legacy = None
    _add_run(pdir, m, where)
    _save(pdir, m)
    for p in legacy_files.values():
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
