"""What the store's checks report: :class:`StoreError`, and :class:`IntegrityProblem` with its
:class:`ProblemKind`. The bottom of the store package: the hash chain (:mod:`.chain`) and the store's
base (:mod:`.base`, which re-exports these names) both import it, and it imports neither."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from preflog.errors import PreflogError


class StoreError(PreflogError):
    """The store cannot do what was asked (bad input, read-only view, broken table …)."""


class ProblemKind(StrEnum):
    """The kinds of problem verify reports (``IntegrityProblem.kind``; docs/security.md says what each
    one catches)."""

    MISSING = "missing"
    DUPLICATE = "duplicate"
    BAD_EVENT = "bad_event"
    DEAL = "deal"
    HASH = "hash"
    UNSEALED = "unsealed"
    FILE = "file"
    UNREADABLE = "unreadable"
    LOST = "lost"
    UNRECORDED = "unrecorded"
    RECORD = "record"
    SIGNATURE = "signature"
    KEY = "key"
    CHAIN = "chain"
    WITNESS = "witness"
    SETTINGS = "settings"
    LOG = "log"
    PROJECTION = "projection"
    DERIVED = "derived"


@dataclass(frozen=True, slots=True)
class IntegrityProblem:
    """What :meth:`EventStore.verify` found: ``seq`` is the event where it shows; for a hash
    mismatch the damage lies in ``first_seq..seq``."""

    pulka: str
    seq: int
    kind: str  # a ProblemKind (pulka "": a problem of the table, its log or its files, not of one pulka's rows)
    detail: str
    first_seq: int | None = None

    def __str__(self) -> str:
        if not self.pulka:  # a problem of the table's files, not of one pulka's rows
            return f"{self.kind}: {self.detail}"
        return f"pulka {self.pulka!r} seq {self.seq}: {self.kind}: {self.detail}"


__all__ = ["IntegrityProblem", "ProblemKind", "StoreError"]
