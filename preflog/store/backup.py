"""A backup of the event table taken while it is in use (``preflog backup``, docs/deploy.md).

The copy is the table as of one commit, never half of one: it is taken holding the writers' lock
(``_preflog.lock``, :mod:`.delta`), so no append commits meanwhile; the commit log is copied before the
data files, so every file a copied commit refers to is there (a compaction, which commits outside the
lock, may add files the copy then holds unreferenced — harmless; its vacuum removes only files no recent
version refers to, and a file gone between the listing and its copy is skipped for that reason). The log's
``_last_checkpoint`` hint is left out: a reader lists the log without it, and it could name a checkpoint
written after the listing. The copy goes to a hidden folder beside ``dest`` and is renamed to ``dest``
when whole, so a backup interrupted leaves no ``dest`` that looks like one.

Only the table is copied: the projections beside it are derived from it and rebuilt by the first read
of the copy (docs/storage.md).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock
from filelock import Timeout

from ..errors import FileError
from .delta import LOCK_NAME
from .problems import StoreError

__all__ = ["Backup", "backup_table"]

LOG = "_delta_log"
WAIT = 60.0
"""Seconds a backup waits for a writer to finish before it gives up (a write takes milliseconds)."""


@dataclass(frozen=True, slots=True)
class Backup:
    """What a backup holds: the table's ``version`` (its last commit copied), ``files`` and ``size`` in
    bytes, at ``dest``."""

    dest: Path
    version: int
    files: int
    size: int


def _copy(src: Path, dest: Path) -> int:
    """Copy one file (its times kept); its size, or -1 when it went meanwhile (a vacuum)."""
    try:
        shutil.copy2(src, dest)
    except FileNotFoundError as exc:
        if exc.filename == str(src):
            return -1
        raise
    return dest.stat().st_size


def backup_table(table: Path, dest: Path) -> Backup:
    """Copy the event table at ``table`` into the new folder ``dest``, as of its last commit."""
    if not (table / LOG).is_dir():
        raise StoreError(f"{table}: no event table to back up (no {LOG} folder)")
    if dest.exists():
        raise FileError(dest, "exists already: a backup goes into a new folder")
    part = dest.parent / f".{dest.name}.partial-{os.getpid()}"
    files = size = 0
    version = -1
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(part, ignore_errors=True)
        (part / LOG).mkdir(parents=True)
        with FileLock(table / LOCK_NAME, timeout=WAIT):
            for f in sorted((table / LOG).iterdir()):  # the log first: what it names is copied after
                if f.is_file() and f.name != "_last_checkpoint" and (got := _copy(f, part / LOG / f.name)) >= 0:
                    files, size = files + 1, size + got
                    if f.name.endswith(".json") and f.name[:-5].isdigit():
                        version = max(version, int(f.name[:-5]))
            for f in sorted(table.rglob("*")):
                rel = f.relative_to(table)
                if rel.parts[0] == LOG or f.name == LOCK_NAME or not f.is_file():
                    continue
                (part / rel).parent.mkdir(parents=True, exist_ok=True)
                if (got := _copy(f, part / rel)) >= 0:
                    files, size = files + 1, size + got
        os.replace(part, dest)
    except Timeout:
        shutil.rmtree(part, ignore_errors=True)
        raise StoreError(f"{table}: a writer held the store for {WAIT:g} s; nothing was backed up (try again)") \
            from None
    except OSError as exc:
        shutil.rmtree(part, ignore_errors=True)
        raise FileError.of(exc, dest) from None
    return Backup(dest, version, files, size)
