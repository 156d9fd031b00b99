"""In-memory event store: the reference semantics, and a fast store for tests."""

from __future__ import annotations

import threading
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any

from .base import Batch
from .base import ConcurrencyError
from .base import EventStore
from .base import EventTuple
from .base import IntegrityProblem
from .base import PulkaInfo
from .base import SealedBatch
from .base import StoreError
from .base import bounds_of_counts
from .base import check_pulka_id
from .base import check_shard
from .base import in_range
from .base import shard_range
from .chain import GENESIS
from .chain import StoredRow
from .chain import as_rows
from .chain import check_pulka
from .chain import seal

if TYPE_CHECKING:
    import duckdb


class MemoryStore(EventStore):
    """Keeps the chain hash on every event by default (memory is not the constraint here)."""

    def __init__(self, hash_every: int = 1) -> None:
        self._rows: dict[str, list[StoredRow]] = {}
        self._lock = threading.Lock()
        self.hash_every = hash_every
        self._commits: list[frozenset[str]] = []  # the pulkas each commit appended to: commit k makes version k

    def _commit(self, pending: dict[str, list[StoredRow]]) -> None:
        """Store ``pending`` as one commit (the lock held): a new version when it adds a row."""
        if not pending:
            return
        self._rows.update(pending)
        self._commits.append(frozenset(pending))
        self.committed = len(self._commits)

    def version(self) -> int:
        """The number of commits that added rows (0: an empty store)."""
        return len(self._commits)

    def appended_since(self, version: int, most: int = 64) -> set[str] | None:
        current = len(self._commits)
        if version == current:
            return set()
        if not 0 <= version < current or current - version > most:
            return None
        out: set[str] = set()
        for pulkas in self._commits[version:]:
            out |= pulkas
        return out

    def append_many(self, batches: Sequence[Batch]) -> list[int]:
        with self._lock:
            pending: dict[str, list[StoredRow]] = {}
            out: list[int] = []
            for pulka, expected, items in batches:
                check_pulka_id(pulka)
                have = pending.get(pulka) or self._rows.get(pulka, [])
                last = have[-1] if have else None
                actual = last[0] if last else 0
                if expected != actual:
                    raise ConcurrencyError(pulka, expected, actual)
                rows = as_rows(pulka, items, expected + 1)
                if last is None:
                    new = seal(rows, 0, GENESIS, 0, self.hash_every)
                else:
                    h = self._head_hash(have)
                    new = seal(rows, last[0], h, last[1], self.hash_every)
                if new:
                    pending[pulka] = have + new
                out.append(expected + len(rows))
            self._commit(pending)
            return out

    def append_sealed(self, batches: Sequence[SealedBatch]) -> None:
        with self._lock:
            pending: dict[str, list[StoredRow]] = {}
            for pulka, rows in sorted(batches, key=lambda b: b[0]):
                check_pulka_id(pulka)
                have = pending.get(pulka) or self._rows.get(pulka)
                if have:
                    raise ConcurrencyError(pulka, 0, have[-1][0])
                if not rows:
                    continue
                if rows[0][0] != 1 or rows[-1][0] != len(rows) or rows[-1][7] is None:
                    raise StoreError(f"pulka {pulka!r}: sealed rows must run seq 1..n and end with a hash")
                pending[pulka] = list(rows)  # a copy: the caller's list stays theirs
            self._commit(pending)

    @staticmethod
    def _head_hash(rows: list[StoredRow]) -> int:
        h = rows[-1][7]
        assert h is not None  # seal() always hashes the last row of an append
        return h

    def read_rows(self, pulkas: Sequence[str] | None = None, batch_size: int = 65_536, *,
                  shard: tuple[int, int] | None = None) -> Iterator[list[EventTuple]]:
        check_shard(shard)
        names = sorted(self._rows if pulkas is None else set(pulkas) & self._rows.keys())
        if shard is not None:
            rng = shard_range(shard, bounds_of_counts(((p, len(rs)) for p, rs in sorted(self._rows.items())),
                                                      shard[1]))
            names = [p for p in names if in_range(p, rng)]
        batch: list[EventTuple] = []
        for p in names:
            for r in list(self._rows[p]):
                batch.append((p, r[0], r[2], r[3], r[4], r[5], r[6]))
                if len(batch) >= batch_size:
                    yield batch
                    batch = []
        if batch:
            yield batch

    def pulkas(self) -> list[PulkaInfo]:
        return [PulkaInfo(p, len(rs), rs[-1][0], self._head_hash(rs)) for p, rs in sorted(self._rows.items()) if rs]

    def last_seq(self, pulka: str) -> int:
        rs = self._rows.get(pulka)
        return rs[-1][0] if rs else 0

    def files(self) -> list[str]:
        return []  # the events live in this process's memory, in no file

    def duckdb_relation(self, con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyRelation:
        from .schema import stored_table  # pyarrow only on first use

        return con.from_arrow(stored_table([(p, *r) for p, rs in sorted(self._rows.items()) for r in rs]))

    def verify(self, progress: Callable[[int, int], None] | None = None) -> list[IntegrityProblem]:
        total, done = sum(len(rs) for rs in self._rows.values()), 0
        problems: list[IntegrityProblem] = []
        for name, rs in sorted(self._rows.items()):
            problems.extend(check_pulka(name, rs))
            done += len(rs)
            if progress is not None:
                progress(done, total)
        return problems

    def compact(self) -> dict[str, Any]:
        return {}  # nothing to merge: no files
