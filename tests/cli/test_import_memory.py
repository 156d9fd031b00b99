"""A bulk import allocates Arrow buffers from the system allocator (parent and workers) and leaves the
caller's default pool as it found it; a pool chosen with ``ARROW_DEFAULT_MEMORY_POOL`` is kept
(see ``workspace._import_memory_pool``: Arrow's default mimalloc pool kept freed pages, so the
parent's memory grew with the number of pulkas imported)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from preflog import importer
from preflog.record.api import write_text
from preflog.workspace import Workspace

from ..randomplay import random_pulka


def _records(folder: Path) -> Path:
    folder.mkdir()
    for i in range(2):
        (folder / f"r{i}.pref").write_text(write_text(random_pulka("sochi", ("A", "B", "C"), 2, seed=i)),
                                           encoding="utf-8")
    return folder


def _pools_seen(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = Workspace._take_files

    def spy(self: Workspace, results: Iterator[Any], *args: Any) -> None:
        seen.append(pa.default_memory_pool().backend_name)
        real(self, results, *args)

    monkeypatch.setattr(Workspace, "_take_files", spy)
    return seen


def test_the_import_uses_the_system_allocator_and_restores_the_pool(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(importer.ARROW_POOL_ENV, raising=False)
    seen = _pools_seen(monkeypatch)
    before = pa.default_memory_pool().backend_name
    items = Workspace(tmp_path / "st").import_paths([_records(tmp_path / "in")], workers=1)
    assert [i.status for i in items] == ["imported", "imported"]
    assert seen == ["system"] and pa.default_memory_pool().backend_name == before


def test_a_chosen_pool_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(importer.ARROW_POOL_ENV, "mimalloc")
    seen = _pools_seen(monkeypatch)
    before = pa.default_memory_pool().backend_name
    Workspace(tmp_path / "st").import_paths([_records(tmp_path / "in")], workers=1)
    assert seen == [before]


def test_a_worker_gets_the_system_allocator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker process is started with the variable set (its pyarrow reads it when it loads)."""
    monkeypatch.delenv(importer.ARROW_POOL_ENV, raising=False)
    out = tmp_path / "pool.txt"
    monkeypatch.setattr(importer, "_BOOT", "import os, pyarrow as pa; open(" + repr(str(out)) + ", 'w').write("
                        "pa.default_memory_pool().backend_name); os.close({rfd}); os.close({wfd}) # {path}")
    w = importer._Worker((32, True, frozenset()))
    w.proc.wait(timeout=60)
    w.busy = 1  # it has left: close without the polite goodbye
    w.close()
    assert out.read_text() == "system"


def test_overlapping_imports_restore_the_pool_once_the_last_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two imports on two threads overlap: the first in switches to the system allocator, the last
    out switches back to the pool from before the first (not to the system one the second saw)."""
    from preflog.workspace import _import_memory_pool

    monkeypatch.delenv(importer.ARROW_POOL_ENV, raising=False)
    before = pa.default_memory_pool().backend_name
    first, second = _import_memory_pool(), _import_memory_pool()
    first.__enter__()
    second.__enter__()
    assert pa.default_memory_pool().backend_name == "system"
    first.__exit__(None, None, None)
    assert pa.default_memory_pool().backend_name == "system"
    second.__exit__(None, None, None)
    assert pa.default_memory_pool().backend_name == before
