"""Projection files next to the events, in segments of pulkas:

    <store>/projections/manifest.json
    <store>/projections/{deals,player_deals,pulka_results}/seg-000000.parquet, seg-000001.parquet, …

Each pulka belongs to one *segment* (at most :data:`SEGMENT_PULKAS` pulkas); a segment is one
Parquet file per table (zstd, sorted by pulka, deal, seat). ``manifest.json`` maps each pulka to
its fingerprint and segment, so :func:`refresh` rebuilds only pulkas whose facts changed and
rewrites only their segments: one new pulka goes into the open tail segment, which is the only
file rewritten — the cost no longer grows with the store (a whole-table rewrite took ~8 s at
1 M deals). Readers take the file list from the manifest (:func:`table_files`), so a segment file
being written, or left behind by a crash, is never read.

Crash safety: files are written to a temp name that does not end in ``.parquet``, fsynced and
``os.replace``-d. Before touching segments the manifest marks the affected pulkas *pending*
(empty fingerprint), and only the final manifest records their new fingerprints, so a crash in
between only causes a rebuild of those pulkas by the next refresh. Emptied segments are deleted
after the final manifest. Writers are serialised by an ``flock`` on ``projections/.lock``.
Stores written with the older one-file-per-table layout are converted on first use.
"""

from __future__ import annotations

import fcntl
import json
import os
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
LAYOUT = 2                 # 1: one file per table; 2: segments
SEGMENT_PULKAS = 2000      # ~50 k deals a segment at 25 deals a pulka: a tail rewrite stays ~0.1 s
PENDING = ""               # fingerprint of a pulka whose rows are being (re)written


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


@dataclass(slots=True)
class _Manifest:
    """pulka → (fingerprint, segment), and the next unused segment number."""

    pulkas: dict[str, str] = field(default_factory=dict)
    segment: dict[str, int] = field(default_factory=dict)
    next: int = 0

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


def projections_dir(store_dir: str | os.PathLike[str]) -> Path:
    return Path(store_dir) / "projections"


def table_dir(store_dir: str | os.PathLike[str], table: str) -> Path:
    """The folder of one projection table's segment files."""
    if table not in TABLES:
        raise ValueError(f"unknown projection table {table!r} (known: {', '.join(TABLES)})")
    return projections_dir(store_dir) / table


def _seg_path(pdir: Path, table: str, seg: int) -> Path:
    return pdir / table / f"seg-{seg:06d}.parquet"


def _load(pdir: Path) -> _Manifest:
    p = pdir / MANIFEST
    if not p.exists():
        return _Manifest()
    data = json.loads(p.read_text())
    if data.get("layout") != LAYOUT:   # layout 1: {"pulkas": {id: fingerprint}}, segments unknown
        return _Manifest(dict(data.get("pulkas", {})))
    m = _Manifest(next=int(data.get("next", 0)))
    for pid, (fp, seg) in data["pulkas"].items():
        m.pulkas[pid] = fp
        m.segment[pid] = int(seg)
    return m


def read_manifest(store_dir: str | os.PathLike[str]) -> dict[str, str]:
    """Fingerprint per projected pulka id ({} for a store without projections; ``""`` = pending)."""
    return _load(projections_dir(store_dir)).pulkas


def segment_of(store_dir: str | os.PathLike[str]) -> dict[str, int]:
    """Segment number per projected pulka id."""
    return _load(projections_dir(store_dir)).segment


def table_files(store_dir: str | os.PathLike[str], table: str) -> list[Path]:
    """The segment files of a table that the manifest lists, in segment order."""
    table_dir(store_dir, table)  # validates the name
    pdir = projections_dir(store_dir)
    m = _load(pdir)
    if not m.segment and (pdir / f"{table}.parquet").exists():
        return [pdir / f"{table}.parquet"]  # layout 1, not converted yet (the next refresh does)
    segs = sorted(set(m.segment.values()))
    return [p for p in (_seg_path(pdir, table, s) for s in segs) if p.exists()]


def read_table(store_dir: str | os.PathLike[str], table: str) -> pa.Table:
    """A projection table, all segments (empty with the right schema if not written yet)."""
    files = table_files(store_dir, table)
    schema = build.SCHEMAS[table]
    if not files:
        return schema.empty_table()
    return pa.concat_tables([pq.read_table(f, schema=schema) for f in files])


def refresh(store_dir: str | os.PathLike[str], changed: Mapping[str, PulkaFacts],
            removed: Iterable[str] = ()) -> RefreshResult:
    """Bring the projections up to date for ``changed`` pulkas (id → facts) and drop ``removed`` ones.

    A pulka whose fingerprint equals the manifest's is skipped; only the segments holding rebuilt
    or removed pulkas are rewritten (new pulkas fill the tail segment). Nothing is written when
    nothing changed.
    """
    for pid, f in changed.items():
        if f.pulka != pid:
            raise ValueError(f"refresh: key {pid!r} differs from the facts' pulka id {f.pulka!r}")
    pdir = projections_dir(store_dir)
    pdir.mkdir(parents=True, exist_ok=True)
    with _lock(pdir):
        m = _migrate(pdir)
        gone = tuple(sorted(pid for pid in set(removed) if pid in m.pulkas and pid not in changed))
        prints = {pid: f.fingerprint() for pid, f in changed.items()}
        todo = sorted(pid for pid, fp in prints.items() if m.pulkas.get(pid) != fp)
        same = tuple(sorted(pid for pid in prints if pid not in todo))
        if not todo and not gone:
            return RefreshResult((), (), same)
        m.assign([pid for pid in todo if pid not in m.segment], SEGMENT_PULKAS)
        touched = sorted({m.segment[pid] for pid in (*todo, *gone)})
        for pid in (*todo, *gone):
            m.pulkas[pid] = PENDING
        _save(pdir, m)
        fresh = build.project_many(changed[pid] for pid in todo)
        for pid in gone:
            m.pulkas.pop(pid)
            m.segment.pop(pid)
        members = m.members()
        drop = pa.array(list(todo) + list(gone), type=pa.string())
        for seg in touched:
            mine = pa.array([p for p in todo if m.segment[p] == seg], type=pa.string())
            for table in TABLES:
                path = _seg_path(pdir, table, seg)
                if seg not in members:
                    continue  # emptied: deleted below, after the manifest stops listing it
                old = _read_file(path, table)
                keep = old.filter(pc.invert(pc.is_in(old["pulka"], value_set=drop)))
                add = fresh[table].filter(pc.is_in(fresh[table]["pulka"], value_set=mine))
                _write_atomic(path, pa.concat_tables([keep, add]).sort_by(SORT_KEYS[table]))
        m.pulkas.update({pid: prints[pid] for pid in todo})
        _save(pdir, m)
        _delete_segments(pdir, [s for s in touched if s not in members])
        return RefreshResult(tuple(todo), gone, same, tuple(touched))


def rebuild(store_dir: str | os.PathLike[str], facts: Iterable[PulkaFacts]) -> RefreshResult:
    """Rewrite all projections from scratch for exactly these pulkas."""
    pdir = projections_dir(store_dir)
    pdir.mkdir(parents=True, exist_ok=True)
    with _lock(pdir):
        all_facts = {f.pulka: f for f in facts}
        old = _load(pdir)
        m = _Manifest(next=0)
        m.assign(sorted(all_facts), SEGMENT_PULKAS)
        m.pulkas = dict.fromkeys(all_facts, PENDING)
        # segment numbers restart at 0, so the old manifest must stop listing files first
        _save(pdir, _Manifest(next=max(old.next, m.next)))
        for seg, pids in sorted(m.members().items()):
            tables = build.project_many(all_facts[p] for p in sorted(pids))
            for table in TABLES:
                _write_atomic(_seg_path(pdir, table, seg), tables[table].sort_by(SORT_KEYS[table]))
        m.pulkas = {pid: f.fingerprint() for pid, f in all_facts.items()}
        _save(pdir, m)
        _delete_unlisted(pdir, m)
        for t in TABLES:
            (pdir / f"{t}.parquet").unlink(missing_ok=True)  # a layout-1 leftover
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
        seg_col = pc.index_in(data["pulka"], value_set=pa.array(pids, type=pa.string()))
        seg_of_row = pa.array([m.segment[p] for p in pids], type=pa.int32()).take(seg_col)
        for seg in sorted({m.segment[p] for p in pids}):
            _write_atomic(_seg_path(pdir, table, seg), data.filter(pc.equal(seg_of_row, seg)))
        _save(pdir, m)


# --- files ---------------------------------------------------------------------------------------
def _read_file(path: Path, table: str) -> pa.Table:
    if not path.exists():
        return build.SCHEMAS[table].empty_table()
    return pq.read_table(path, schema=build.SCHEMAS[table])


def _write_atomic(path: Path, table: pa.Table) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp")  # must not end in .parquet
    with open(tmp, "wb") as fh:
        pq.write_table(table, fh, compression="zstd", row_group_size=ROW_GROUP)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _save(pdir: Path, m: _Manifest) -> None:
    tmp = pdir / f".{MANIFEST}.{os.getpid()}.tmp"
    body = {pid: [m.pulkas.get(pid, PENDING), m.segment[pid]] for pid in sorted(m.segment)}
    tmp.write_text(json.dumps({"version": PROJECTION_VERSION, "layout": LAYOUT, "next": m.next, "pulkas": body},
                              separators=(",", ":")))
    os.replace(tmp, pdir / MANIFEST)


def _delete_segments(pdir: Path, segs: Iterable[int]) -> None:
    for seg in segs:
        for table in TABLES:
            _seg_path(pdir, table, seg).unlink(missing_ok=True)


def _delete_unlisted(pdir: Path, m: _Manifest) -> None:
    keep = {f"seg-{s:06d}.parquet" for s in set(m.segment.values())}
    for table in TABLES:
        d = pdir / table
        if d.is_dir():
            for f in d.glob("seg-*.parquet"):
                if f.name not in keep:
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
    m.assign(pids, SEGMENT_PULKAS)
    m.pulkas = {p: m.pulkas.get(p, PENDING) for p in pids}
    for seg, members in sorted(m.members().items()):
        value_set = pa.array(sorted(members), type=pa.string())
        for t in TABLES:
            _write_atomic(_seg_path(pdir, t, seg), old[t].filter(pc.is_in(old[t]["pulka"], value_set=value_set)))
    _save(pdir, m)
    for p in legacy.values():
        p.unlink(missing_ok=True)
    return m


@contextmanager
def _lock(pdir: Path) -> Iterator[None]:
    with open(pdir / ".lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
