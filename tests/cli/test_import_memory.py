"""A bulk import allocates Arrow buffers from the system allocator (parent and workers) and leaves the
caller's default pool as it found it; a pool chosen with ``ARROW_DEFAULT_MEMORY_POOL`` is kept
(see ``importer.session.import_memory_pool``: Arrow's default mimalloc pool kept freed pages, so the
parent's memory grew with the number of pulkas imported)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from preflog.importer import prepare
from preflog.importer import session
from preflog.record.api import write_text
from preflog.store.pool import ARROW_POOL_ENV
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
    real = session.ImportSession._take_files

    def spy(self: session.ImportSession, results: Iterator[Any], *args: Any) -> None:
        seen.append(pa.default_memory_pool().backend_name)
        real(self, results, *args)

    monkeypatch.setattr(session.ImportSession, "_take_files", spy)
    return seen


def test_the_import_uses_the_system_allocator_and_restores_the_pool(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ARROW_POOL_ENV, raising=False)
    seen = _pools_seen(monkeypatch)
    before = pa.default_memory_pool().backend_name
    items = Workspace(tmp_path / "st").import_paths([_records(tmp_path / "in")], workers=1)
    assert [i.status for i in items] == ["imported", "imported"]
    assert seen == ["system"] and pa.default_memory_pool().backend_name == before


def test_a_chosen_pool_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ARROW_POOL_ENV, "mimalloc")
    seen = _pools_seen(monkeypatch)
    before = pa.default_memory_pool().backend_name
    Workspace(tmp_path / "st").import_paths([_records(tmp_path / "in")], workers=1)
    assert seen == [before]


def pool_name(_unit: object) -> str:
    """A job of the import's pool, run in the worker: the name of its Arrow pool."""
    return str(pa.default_memory_pool().backend_name)


def test_a_worker_gets_the_system_allocator(monkeypatch: pytest.MonkeyPatch) -> None:
    """The import's workers switch to the system allocator as they start (importer.prepare._settle), whatever
    pool the fork server they come from loaded pyarrow with."""
    from preflog.workers import run_ordered

    monkeypatch.delenv(ARROW_POOL_ENV, raising=False)
    got = list(run_ordered(pool_name, [0, 1], 2, preload=[*prepare.PRELOAD, __name__],
                           initializer=prepare._settle, initargs=(32, True, frozenset())))
    assert got == ["system", "system"]


def test_overlapping_imports_restore_the_pool_once_the_last_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two imports on two threads overlap: the first in switches to the system allocator, the last
    out switches back to the pool from before the first (not to the system one the second saw)."""
    monkeypatch.delenv(ARROW_POOL_ENV, raising=False)
    before = pa.default_memory_pool().backend_name
    first, second = session.import_memory_pool(), session.import_memory_pool()
    first.__enter__()
    second.__enter__()
    assert pa.default_memory_pool().backend_name == "system"
    first.__exit__(None, None, None)
    assert pa.default_memory_pool().backend_name == "system"
    second.__exit__(None, None, None)
    assert pa.default_memory_pool().backend_name == before


def _tagged(folder: Path, first: int, n: int, per_file: int = 100) -> Path:
    """``n`` one-deal pulkas tagged ``club-game-<7 digits>`` (ids of 17 characters), ``per_file`` a file."""
    from preflog.model.events import PulkaStarted

    folder.mkdir()
    texts: list[str] = []
    for i in range(first, first + n):
        events = random_pulka("sochi", ("A", "B", "C"), 1, seed=i)
        s = events[0]
        assert isinstance(s, PulkaStarted)
        events[0] = PulkaStarted(s.players, s.rules, s.overrides, s.pool, s.whist_price,
                                 (("id", f"club-game-{i:07d}"), *s.meta))
        texts.append(write_text(events))
    for k in range(0, n, per_file):
        (folder / f"r{k // per_file:04d}.pref").write_text("\n".join(texts[k:k + per_file]), encoding="utf-8")
    return folder


def test_the_parent_keeps_a_few_dozen_bytes_a_pulka(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory flat in the number of pulkas: the Python memory alive in the importing process (tracemalloc,
    after a collection) at the end of the commits — every pulka's id and head known — and after the
    import, for N = 300 and 3N = 900 pulkas imported into a fresh store each. Per pulka more, (3N − N) / 2N,
    it is the store's head index, ≈ 53 bytes plus the id's 17 (and at most an eighth of them as recent
    changes not merged yet): 71-75 bytes measured. The code before (``import_paths`` keeping its items,
    dicts of the ids and hashes seen, the store's dict of heads) kept 426 and 300. The bound, 200, leaves
    room for noise, not for a dict per pulka. Counts bytes allocated, not time: not sensitive to a busy
    machine (≈ 5 s)."""
    import gc
    import tracemalloc

    from preflog.store import heads

    monkeypatch.setattr(heads, "MERGE_MIN", 64)  # merge as a big import does (the default waits for 4096)
    Workspace(tmp_path / "warm").import_each([_tagged(tmp_path / "w", 10_000, 50)], workers=1)  # imports, caches
    alive: dict[int, tuple[int, int]] = {}
    for n in (300, 900):
        folder = _tagged(tmp_path / f"in{n}", 0, n)
        at_heal: list[int] = []
        real = Workspace.heal_projections

        def spy(self: Workspace, *args: Any, _real: Any = real, _at: list[int] = at_heal, **kw: Any) -> list[str]:
            gc.collect()
            _at.append(tracemalloc.get_traced_memory()[0])
            return _real(self, *args, **kw)  # type: ignore[no-any-return]

        monkeypatch.setattr(Workspace, "heal_projections", spy)
        gc.collect()
        tracemalloc.start(1)
        try:
            base = tracemalloc.get_traced_memory()[0]
            ws = Workspace(tmp_path / f"st{n}")
            counts = ws.import_each([folder], workers=1)
            gc.collect()
            after = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        monkeypatch.setattr(Workspace, "heal_projections", real)
        assert counts.imported == n and len(at_heal) == 1
        alive[n] = (at_heal[0] - base, after - base)
        del ws
    per_pulka = [(alive[900][k] - alive[300][k]) / 600 for k in range(2)]
    assert all(b <= 200 for b in per_pulka), per_pulka
