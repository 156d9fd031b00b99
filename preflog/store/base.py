"""The event store interface: append-only logs of pulka events with optimistic concurrency.

A pulka ("пулька", one game session) is a stream of events numbered ``seq = 1, 2, …``.
Writers say which seq they last saw (``expected_seq``); if another writer got there
first the append fails with :class:`ConcurrencyError` and nothing is written.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from preflog.errors import PreflogError
from preflog.model.events import Event, Row, from_row

# Replay fast path row: (pulka, seq, code, player, card, value, payload)
EventRow = tuple[str, int, int, int, int, int, str | None]
# One batch of a bulk append: (pulka, expected_seq, events or rows)
Batch = tuple[str, int, Sequence[Event] | Sequence[Row]]


class StoreError(PreflogError):
    """The store cannot do what was asked (bad input, read-only view, broken table …)."""


class ConcurrencyError(StoreError):
    """The writer's expected seq is stale: another writer appended to the pulka first."""

    def __init__(self, pulka: str, expected: int, actual: int) -> None:
        self.pulka, self.expected, self.actual = pulka, expected, actual
        super().__init__(f"pulka {pulka!r}: expected last seq {expected}, but the store is at seq {actual}; "
                         "reload the pulka and retry")


@dataclass(frozen=True, slots=True)
class PulkaInfo:
    pulka: str
    events: int
    last_seq: int
    content_hash: int


@dataclass(frozen=True, slots=True)
class IntegrityProblem:
    """What :meth:`EventStore.verify` found: ``seq`` is the event where it shows; for a hash
    mismatch the damage lies in ``first_seq..seq``."""

    pulka: str
    seq: int
    kind: str  # missing | duplicate | bad_event | deal | hash | unsealed
    detail: str
    first_seq: int | None = None

    def __str__(self) -> str:
        return f"pulka {self.pulka!r} seq {self.seq}: {self.kind}: {self.detail}"


class EventStore(ABC):
    """Backend-neutral API. Backends implement the abstract methods; the rest is derived."""

    # --- writing -------------------------------------------------------------------------
    @abstractmethod
    def append_many(self, batches: Sequence[Batch]) -> list[int]:
        """Append several pulkas' events in one atomic step (one commit).

        Each batch is ``(pulka, expected_seq, events_or_rows)``; its events get seqs
        ``expected_seq + 1 …``. If any batch's expected seq is stale, :class:`ConcurrencyError`
        is raised and nothing at all is written. A pulka may appear in several batches; each
        later batch then continues from the earlier one. Returns the new last seq per batch.
        """

    def append(self, pulka: str, events: Sequence[Event] | Sequence[Row], expected_seq: int) -> int:
        """Append one pulka's events atomically; returns the new last seq."""
        return self.append_many([(pulka, expected_seq, events)])[0]

    def import_pulka(self, pulka: str, events: Sequence[Event] | Sequence[Row]) -> tuple[str, bool]:
        """Store a whole game unless the same content is already stored (re-import is a no-op).

        Returns ``(pulka id holding the content, created)``.
        """
        existing = self.find_by_content(self.content_hash(events))
        if existing is not None:
            return existing, False
        self.append(pulka, events, 0)
        return pulka, True

    # --- reading -------------------------------------------------------------------------
    @abstractmethod
    def read_rows(self, pulkas: Sequence[str] | None = None,
                  batch_size: int = 65_536) -> Iterator[list[EventRow]]:
        """Batches of ``(pulka, seq, code, player, card, value, payload)`` sorted by (pulka, seq)."""

    def read(self, pulka: str) -> list[Event]:
        """A pulka's events in order ([] for an unknown pulka)."""
        return [from_row(r[2], r[3], r[4], r[5], r[6]) for b in self.read_rows([pulka]) for r in b]

    @abstractmethod
    def pulkas(self) -> list[PulkaInfo]:
        """All pulkas, sorted by id."""

    def last_seq(self, pulka: str) -> int:
        """Last seq of a pulka, 0 if it has no events."""
        for info in self.pulkas():
            if info.pulka == pulka:
                return info.last_seq
        return 0

    @staticmethod
    def content_hash(events: Sequence[Event] | Sequence[Row]) -> int:
        """Hash of a whole game's events, independent of the pulka id and the store."""
        from .chain import content_hash

        return content_hash(events)

    def find_by_content(self, content_hash: int) -> str | None:
        """The pulka whose full event list has this content hash, if any."""
        for info in self.pulkas():
            if info.content_hash == content_hash:
                return info.pulka
        return None

    # --- maintenance ---------------------------------------------------------------------
    @abstractmethod
    def verify(self) -> list[IntegrityProblem]:
        """Check seq continuity, event decoding, deal numbering and the hash chain of every pulka."""

    def compact(self) -> None:  # noqa: B027 - optional for backends without files
        """Merge small files; a no-op where there are none."""
