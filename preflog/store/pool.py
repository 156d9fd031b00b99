"""Which allocator Arrow's buffers come from while the store reads or writes in bulk.

Arrow's default pool in the Linux wheels is mimalloc. On the store's bulk paths it costs time and
memory: it hands freed pages back to the system after a few milliseconds and takes them again, as
transparent huge pages the kernel zeroes 2 MB at a time, and it keeps more pages than the other two
after a commit. Measured on this project's benchmark store (10 k deals, the whole read and audit,
eight runs in one process, the store opened per run as a one-off audit does): the kernel's share of
the CPU was 1.05-1.80 µs a deal with mimalloc, 0.30-0.61 with the system allocator and 0.04-0.24
with jemalloc. For an import (see ``Workspace.import_each``) the system allocator kept peak RSS
down: 381 / 410 MB against 437 / 501 MB with mimalloc at 100 k / 300 k deals.

:func:`bulk_memory_pool` switches the process's default pool for as long as any bulk path runs (the
reads :class:`~preflog.store.delta.DeltaStore` makes, :data:`BulkPool.JEMALLOC`; the import,
:data:`BulkPool.SYSTEM`) and back when the last one ends. The first path in chooses; the others join
it: either allocator serves both, and a buffer is freed by the pool it came from whatever the default
is by then. ``ARROW_DEFAULT_MEMORY_POOL`` set in the environment is the user's choice: nothing is
switched.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import Any

ARROW_POOL_ENV = "ARROW_DEFAULT_MEMORY_POOL"
"""The variable Arrow chooses its default pool by when pyarrow loads; when it is set, :func:`bulk_memory_pool`
leaves the pool alone."""


class BulkPool(StrEnum):
    """The allocator a bulk path asks for (Arrow's pool names)."""

    SYSTEM = "system"
    JEMALLOC = "jemalloc"   # the system allocator where this pyarrow is built without it


def arrow_pool(kind: BulkPool) -> Any:
    """The Arrow memory pool of ``kind`` (``pyarrow.MemoryPool``)."""
    import pyarrow as pa

    if kind == BulkPool.JEMALLOC:
        try:
            return pa.jemalloc_memory_pool()
        except NotImplementedError:   # a pyarrow built without jemalloc
            pass
    return pa.system_memory_pool()


_LOCK = threading.Lock()
_STATE: list[Any] = [0, None]  # bulk paths running, the default pool before the first of them


@contextmanager
def bulk_memory_pool(kind: BulkPool) -> Iterator[None]:
    """Arrow's default pool is ``kind`` (or the one a bulk path already running chose) inside the block;
    the previous default again when the last bulk path ends."""
    import pyarrow as pa

    if os.environ.get(ARROW_POOL_ENV):
        yield
        return
    with _LOCK:  # bulk paths on several threads or generators: the first in switches, the last out back
        if _STATE[0] == 0:
            _STATE[1] = pa.default_memory_pool()
            pa.set_memory_pool(arrow_pool(kind))
        _STATE[0] += 1
    try:
        yield
    finally:
        with _LOCK:
            _STATE[0] -= 1
            if _STATE[0] == 0:
                pa.set_memory_pool(_STATE[1])
                _STATE[1] = None


__all__ = ["ARROW_POOL_ENV", "BulkPool", "arrow_pool", "bulk_memory_pool"]
