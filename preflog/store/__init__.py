"""Event store: append-only pulka event logs (in memory, or a Delta Lake table).

The Delta backend is imported on first use (PEP 562), so code that needs only the interface or the
hash chain (import workers, :class:`MemoryStore`) does not load deltalake and DuckDB.
"""

from typing import Any

from .base import (
    Batch,
    ConcurrencyError,
    EventRow,
    EventStore,
    IntegrityProblem,
    PulkaInfo,
    StoreError,
)
from .memory import MemoryStore

__all__ = [
    "SCHEMA_VERSION", "Batch", "ConcurrencyError", "DeltaStore", "EventRow", "EventStore", "IntegrityProblem",
    "MemoryStore", "PulkaInfo", "StoreError",
]


def __getattr__(name: str) -> Any:
    if name in ("DeltaStore", "SCHEMA_VERSION"):
        from . import delta

        return getattr(delta, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
