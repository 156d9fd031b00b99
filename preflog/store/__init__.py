"""Event store: append-only pulka event logs (in memory, or a Delta Lake table).

The Delta backend is imported on first use (PEP 562), so code that needs only the interface or the
hash chain (import workers, :class:`MemoryStore`) does not load deltalake and DuckDB.
"""

from typing import Any

from .base import Batch
from .base import ConcurrencyError
from .base import EventRow
from .base import EventStore
from .base import EventTuple
from .base import IntegrityProblem
from .base import PulkaInfo
from .base import SealedBatch
from .base import StoreError
from .chain import StoredRow
from .memory import MemoryStore

__all__ = [
    "TABLE_SCHEMA_VERSION", "Batch", "ConcurrencyError", "DeltaStore", "EventRow", "EventStore", "EventTuple",
    "IntegrityProblem", "MemoryStore", "PulkaInfo", "SealedBatch", "StoreError", "StoredRow",
]


def __getattr__(name: str) -> Any:
    if name == "DeltaStore":
        from .delta import DeltaStore

        return DeltaStore
    if name == "TABLE_SCHEMA_VERSION":  # in .schema, which loads pyarrow
        from .schema import TABLE_SCHEMA_VERSION

        return TABLE_SCHEMA_VERSION
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
