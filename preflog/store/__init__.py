"""Event store: append-only pulka event logs (in memory, or a Delta Lake table)."""

from .base import (
    Batch,
    ConcurrencyError,
    EventRow,
    EventStore,
    IntegrityProblem,
    PulkaInfo,
    StoreError,
)
from .delta import SCHEMA_VERSION, DeltaStore
from .memory import MemoryStore

__all__ = [
    "SCHEMA_VERSION", "Batch", "ConcurrencyError", "DeltaStore", "EventRow", "EventStore", "IntegrityProblem",
    "MemoryStore", "PulkaInfo", "StoreError",
]
