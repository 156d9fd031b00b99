"""Projection files next to the events: ``<store>/projections/{deals,player_deals,pulka_results}.parquet``.

Each table is one Parquet file (zstd, 128 k-row groups, sorted by pulka, deal, seat),
rewritten atomically: written to a temp name that does not end in ``.parquet`` (DuckDB
globs would pick it up otherwise), fsynced, then ``os.replace``. ``manifest.json`` keeps a
fingerprint per pulka, so :func:`refresh` rebuilds only pulkas whose facts changed; the
manifest is replaced last, so a crash in between only causes a harmless rebuild later.
Writers are serialised by an ``flock`` on ``projections/.lock``.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from . import build
from .facts import PROJECTION_VERSION, PulkaFacts

TABLES = ("deals", "player_deals", "pulka_results")
SORT_KEYS = {
    "deals": [("pulka", "ascending"), ("deal", "ascending")],
    "player_deals": [("pulka", "ascending"), ("deal", "ascending"), ("seat", "ascending")],
    "pulka_results": [("pulka", "ascending"), ("seat", "ascending")],
}
ROW_GROUP = 128 * 1024
MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class RefreshResult:
    """What a refresh did: pulka ids rebuilt, removed, and skipped because unchanged."""

    rebuilt: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: tuple[str, ...]

    @property
    def wrote(self) -> bool:
        return bool(self.rebuilt or self.removed)


def projections_dir(store_dir: str | os.PathLike[str]) -> Path:
    return Path(store_dir) / "projections"


def table_path(store_dir: str | os.PathLike[str], table: str) -> Path:
    if table not in TABLES:
        raise ValueError(f"unknown projection table {table!r} (known: {', '.join(TABLES)})")
    return projections_dir(store_dir) / f"{table}.parquet"


def read_manifest(store_dir: str | os.PathLike[str]) -> dict[str, str]:
    """Fingerprint per projected pulka id ({} for a store without projections)."""
    p = projections_dir(store_dir) / MANIFEST
    if not p.exists():
        return {}
    data = json.loads(p.read_text())
    return dict(data.get("pulkas", {}))


def read_table(store_dir: str | os.PathLike[str], table: str) -> pa.Table:
    """A projection table (empty with the right schema if not written yet)."""
    p = table_path(store_dir, table)
    if not p.exists():
        return build.SCHEMAS[table].empty_table()
    return pq.read_table(p, schema=build.SCHEMAS[table])


def refresh(store_dir: str | os.PathLike[str], changed: Mapping[str, PulkaFacts],
            removed: Iterable[str] = ()) -> RefreshResult:
    """Bring the projections up to date for ``changed`` pulkas (id → facts) and drop ``removed`` ones.

    A pulka whose fingerprint equals the manifest's is skipped; rows of pulkas not named are
    kept as they are. Nothing is written when nothing changed.
    """
    for pid, f in changed.items():
        if f.pulka != pid:
            raise ValueError(f"refresh: key {pid!r} differs from the facts' pulka id {f.pulka!r}")
    pdir = projections_dir(store_dir)
    pdir.mkdir(parents=True, exist_ok=True)
    with _lock(pdir):
        manifest = read_manifest(store_dir)
        gone = tuple(sorted(pid for pid in set(removed) if pid in manifest and pid not in changed))
        prints = {pid: f.fingerprint() for pid, f in changed.items()}
        todo = sorted(pid for pid, fp in prints.items() if manifest.get(pid) != fp)
        same = tuple(sorted(pid for pid in prints if pid not in todo))
        if not todo and not gone:
            return RefreshResult((), (), same)
        fresh = build.project_many(changed[pid] for pid in todo)
        drop = pa.array(list(todo) + list(gone), type=pa.string())
        for table in TABLES:
            old = read_table(store_dir, table)
            keep = old.filter(pc.invert(pc.is_in(old["pulka"], value_set=drop)))
            merged = pa.concat_tables([keep, fresh[table]]).sort_by(SORT_KEYS[table])
            _write_atomic(table_path(store_dir, table), merged)
        for pid in gone:
            manifest.pop(pid, None)
        manifest.update({pid: prints[pid] for pid in todo})
        _write_manifest(pdir, manifest)
        return RefreshResult(tuple(todo), gone, same)


def rebuild(store_dir: str | os.PathLike[str], facts: Iterable[PulkaFacts]) -> RefreshResult:
    """Rewrite all projections from scratch for exactly these pulkas."""
    pdir = projections_dir(store_dir)
    pdir.mkdir(parents=True, exist_ok=True)
    with _lock(pdir):
        all_facts = {f.pulka: f for f in facts}
        tables = build.project_many(all_facts.values())
        for table in TABLES:
            _write_atomic(table_path(store_dir, table), tables[table].sort_by(SORT_KEYS[table]))
        _write_manifest(pdir, {pid: f.fingerprint() for pid, f in all_facts.items()})
        return RefreshResult(tuple(sorted(all_facts)), (), ())


def write_table(store_dir: str | os.PathLike[str], table: str, data: pa.Table) -> None:
    """Write one projection table as is (used by the benchmark's synthetic data)."""
    projections_dir(store_dir).mkdir(parents=True, exist_ok=True)
    _write_atomic(table_path(store_dir, table), data)


def _write_atomic(path: Path, table: pa.Table) -> None:
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp")  # must not end in .parquet
    with open(tmp, "wb") as fh:
        pq.write_table(table, fh, compression="zstd", row_group_size=ROW_GROUP)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _write_manifest(pdir: Path, pulkas: Mapping[str, str]) -> None:
    tmp = pdir / f".{MANIFEST}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps({"version": PROJECTION_VERSION, "pulkas": dict(sorted(pulkas.items()))}, indent=0))
    os.replace(tmp, pdir / MANIFEST)


@contextmanager
def _lock(pdir: Path) -> Iterator[None]:
    with open(pdir / ".lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
