"""The allocator switch of the store's bulk paths (preflog.store.pool): a read of the Delta store runs with
jemalloc as Arrow's default pool (the system allocator where pyarrow lacks it), the previous default
comes back when the last bulk path ends, and ``ARROW_DEFAULT_MEMORY_POOL`` in the environment wins."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from preflog.model.events import CardPlayed
from preflog.model.events import PulkaStarted
from preflog.store.delta import DeltaStore
from preflog.store.pool import ARROW_POOL_ENV
from preflog.store.pool import BulkPool
from preflog.store.pool import arrow_pool
from preflog.store.pool import bulk_memory_pool


def _store(tmp_path: Path) -> DeltaStore:
    store = DeltaStore(tmp_path / "events")
    rows = [PulkaStarted(("A", "B", "C")).to_row(), CardPlayed(0, 5).to_row()]
    store.append_many([(f"p{k}", 0, rows) for k in range(3)])
    return store


def test_a_read_runs_on_the_bulk_pool_and_gives_the_default_back(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ARROW_POOL_ENV, raising=False)
    store = _store(tmp_path)
    before = pa.default_memory_pool().backend_name
    want = arrow_pool(BulkPool.JEMALLOC).backend_name
    seen = []
    for _pid, _cols in store.pulka_columns():
        seen.append(pa.default_memory_pool().backend_name)
    # while the scan is open (the last pulka is handed out after the scan's last batch, the scan closed)
    assert seen == [want, want, before]
    assert pa.default_memory_pool().backend_name == before
    # a read left half-way gives the default back when it is closed
    gen = store.pulka_columns()
    next(gen)
    assert pa.default_memory_pool().backend_name == want
    gen.close()
    assert pa.default_memory_pool().backend_name == before


def test_the_first_bulk_path_in_chooses_and_the_last_out_restores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ARROW_POOL_ENV, raising=False)
    before = pa.default_memory_pool().backend_name
    with bulk_memory_pool(BulkPool.SYSTEM):
        assert pa.default_memory_pool().backend_name == "system"
        with bulk_memory_pool(BulkPool.JEMALLOC):   # joins the running one: no switch mid-way
            assert pa.default_memory_pool().backend_name == "system"
        assert pa.default_memory_pool().backend_name == "system"
    assert pa.default_memory_pool().backend_name == before


def test_the_environment_variable_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ARROW_POOL_ENV, "mimalloc")
    before = pa.default_memory_pool().backend_name
    with bulk_memory_pool(BulkPool.SYSTEM):
        assert pa.default_memory_pool().backend_name == before
