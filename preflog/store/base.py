"""The event store interface: append-only logs of pulka events with optimistic concurrency.

A pulka ("пулька", one game session) is a stream of events numbered ``seq = 1, 2, …``.
Writers say which seq they last saw (``expected_seq``); if another writer got there
first the append fails with :class:`ConcurrencyError` and nothing is written.

The ABC holds everything the workspace, the importer and the benchmarks call on a store,
bulk paths included (:meth:`EventStore.append_sealed`, sharded :meth:`EventStore.read_rows`,
:meth:`EventStore.files`); ``tests/store/test_contract.py`` runs one suite against every backend.
"""

from __future__ import annotations

import os
import stat
from abc import ABC
from abc import abstractmethod
from bisect import bisect_right
from collections.abc import Callable
from collections.abc import Container
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING
from typing import Any
from typing import NamedTuple
from typing import Protocol

from preflog.model.columns import RowColumns
from preflog.model.events import Event
from preflog.model.events import Row
from preflog.model.events import from_row

from .chain import StoredRow
from .chain import content_hash as _content_hash
from .problems import IntegrityProblem as IntegrityProblem
from .problems import StoreError as StoreError

if TYPE_CHECKING:
    import duckdb


class EventRow(NamedTuple):
    """One stored event, by name, as :meth:`EventStore.rows` hands it out."""

    pulka: str
    seq: int
    code: int
    player: int
    card: int
    value: int
    payload: str | None


# What :meth:`EventStore.read_rows` yields: an :class:`EventRow`'s fields as a plain tuple. The replay
# fast path indexes them (``row[0]`` …); a named tuple per row costs ~2.5x a plain one to build and
# ~4x to pickle, so the names stay at the edge (``EventRow(*row)`` names one).
EventTuple = tuple[str, int, int, int, int, int, str | None]
# One batch of a bulk append: (pulka, expected_seq, events or rows)
Batch = tuple[str, int, Sequence[Event] | Sequence[Row]]
# One batch of a sealed bulk append: (new pulka, its rows as sealed by ``chain.seal`` from seq 1)
SealedBatch = tuple[str, Sequence[StoredRow]]


class ConcurrencyError(StoreError):
    """The writer's expected seq is stale: another writer appended to the pulka first."""

    def __init__(self, pulka: str, expected: int, actual: int) -> None:
        self.pulka, self.expected, self.actual = pulka, expected, actual
        super().__init__(f"pulka {pulka!r}: expected last seq {expected}, but the store is at seq {actual}; "
                         "reload the pulka and retry")


class DamagedFileError(StoreError):
    """A data file of the store is missing, truncated or not Parquet, so the table cannot be read:
    one line naming the file and what is wrong, pointing to ``preflog verify`` and time travel."""

    def __init__(self, path: object, problem: str, others: int = 0, *, projection: bool = False) -> None:
        self.path = str(path)
        self.problem = problem
        more = f" (and {others} more damaged file{'s' if others > 1 else ''})" if others else ""
        if projection:
            advice = ("the projections cannot be read. They are derived from the events, so nothing is lost: "
                      "run 'preflog verify' for the events, then rebuild the projections (docs/storage.md)")
        else:
            advice = ("the event table cannot be read. Run 'preflog verify' to list every damaged file, then "
                      "restore it from a backup, or read an earlier version of the table (time travel, "
                      "docs/storage.md)")
        super().__init__(f"{path}: {problem}{more}; {advice}")


def parquet_damage(path: str | os.PathLike[str], size: int | None = None) -> str | None:
    """What makes a Parquet data file unreadable, in words (``None``: nothing this check can see).

    Cheap: one ``stat`` and two 4-byte reads. Finds a missing file and a file without Parquet's
    ``PAR1`` magic at both ends (cut short, overwritten, not Parquet at all); ``size`` (what the
    table's log recorded) tells a truncated file apart. A whole Parquet file whose content changed
    is readable, and the hash chain's business (:meth:`EventStore.verify`)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "is missing (the table lists it as a live data file)"
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    try:
        with open(path, "rb") as f:
            head = f.read(4)
            f.seek(max(st.st_size - 4, 0))
            tail = f.read(4)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if st.st_size >= 12 and head == b"PAR1" and tail == b"PAR1":
        return None
    if size is not None and st.st_size < size:
        return f"is truncated ({st.st_size:,} of {size:,} bytes)"
    return "is not a whole Parquet file (no PAR1 magic at its start and end: cut short or overwritten)"


@dataclass(frozen=True, slots=True)
class PulkaInfo:
    pulka: str
    events: int
    last_seq: int
    content_hash: int


@dataclass(frozen=True, slots=True)
class Stored:
    """What :meth:`EventStore.import_sealed` did with one pulka: the id its content is stored under,
    and whether this call stored it (``False``: the same content was stored already, under that id)."""

    pulka: str
    created: bool


def free_id(wanted: str, content_hash: int, taken: Container[str]) -> str:
    """``wanted`` unless another pulka holds it; then ``wanted-<the content hash's low 24 bits in hex>``,
    and ``-2``, ``-3`` … after that should it be taken too."""
    if wanted not in taken:
        return wanted
    pid = f"{wanted}-{content_hash & 0xFFFFFF:06x}"
    n = 1
    while pid in taken:
        n += 1
        pid = f"{wanted}-{content_hash & 0xFFFFFF:06x}-{n}"
    return pid


class Heads(Protocol):
    """What deciding duplicates and ids asks of the stored heads (:class:`~.heads.HeadIndex`): whether an id
    is taken, and which pulka holds a content hash."""

    def __contains__(self, pulka: object) -> bool: ...

    def holder(self, content_hash: int) -> str | None: ...


class _MappingHeads:
    """:class:`Heads` over a mapping pulka → content hash."""

    def __init__(self, heads: Mapping[str, int]) -> None:
        self.heads = heads
        self.by_hash: dict[int, str] = {}
        for pid, h in heads.items():
            self.by_hash.setdefault(h, pid)

    def __contains__(self, pulka: object) -> bool:
        return pulka in self.heads

    def holder(self, content_hash: int) -> str | None:
        return self.by_hash.get(content_hash)


def resolve_sealed(batches: Sequence[SealedBatch], heads: Heads | Mapping[str, int]
                   ) -> tuple[list[Stored], list[SealedBatch]]:
    """Decide, against the stored ``heads`` (a :class:`Heads`, or a mapping pulka → content hash), what
    :meth:`EventStore.import_sealed` stores: each batch whose content is stored already (or earlier in
    ``batches``) is a duplicate of that pulka; each other one is stored under its id, or under
    :func:`free_id` if the id is taken. Costs O(batches), whatever the number of stored pulkas."""
    stored: Heads = _MappingHeads(heads) if isinstance(heads, Mapping) else heads
    by_hash: dict[int, str] = {}
    mine: set[str] = set()
    taken = _Taken(stored, mine)
    out: list[Stored] = []
    new: list[SealedBatch] = []
    for pulka, rows in batches:
        check_pulka_id(pulka)
        if not rows:
            out.append(Stored(pulka, False))
            continue
        head = rows[-1][7]
        if head is None:
            raise StoreError(f"pulka {pulka!r}: sealed rows must end with a hash")
        holder = by_hash.get(head) or stored.holder(head)
        if holder is not None:
            out.append(Stored(holder, False))
            continue
        pid = free_id(pulka, head, taken)
        mine.add(pid)
        by_hash[head] = pid
        new.append((pid, rows))
        out.append(Stored(pid, True))
    return out, new


class _Taken:
    """The ids taken: stored, or given out by this call."""

    def __init__(self, stored: Heads, mine: set[str]) -> None:
        self.stored, self.mine = stored, mine

    def __contains__(self, pulka: object) -> bool:
        return pulka in self.mine or pulka in self.stored


ShardRange = tuple[str | None, str | None]
"""The pulka ids of one shard: ``lo <= pulka < hi`` (``None``: no bound on that side)."""


def shard_cuts(total: int, n: int) -> list[int]:
    """The rows where shards ``1 … n-1`` of ``n`` begin, of ``total`` rows in (pulka, seq) order
    (0-based): row ``k * total // n`` for shard ``k``, so the shards split the rows as evenly as whole
    pulkas allow."""
    return [k * total // n for k in range(1, n)]


def shard_range(shard: tuple[int, int], bounds: Sequence[str | None]) -> ShardRange:
    """Shard ``(k, n)``'s range from the ``n - 1`` bounds (the pulka holding each cut row of
    :func:`shard_cuts`, in order): from bound ``k - 1`` (inclusive) to bound ``k`` (exclusive); the first
    shard has no lower bound and the last no upper one, so the ``n`` ranges tile all ids."""
    k, n = shard
    return (bounds[k - 1] if k > 0 else None, bounds[k] if k < n - 1 else None)


def in_range(pulka: str, rng: ShardRange) -> bool:
    """Whether ``pulka`` lies in the shard range ``rng``."""
    return (rng[0] is None or pulka >= rng[0]) and (rng[1] is None or pulka < rng[1])


def bounds_of_counts(counts: Iterable[tuple[str, int]], n: int) -> list[str | None]:
    """The ``n - 1`` shard bounds of a store whose pulkas (ascending ids) hold ``counts`` rows each:
    for each cut row of :func:`shard_cuts`, the pulka holding it (``None`` when there are no rows at all:
    then every shard is empty whatever its range)."""
    pairs = list(counts)
    ends = list(accumulate(c for _p, c in pairs))  # rows up to and including each pulka
    if not ends or ends[-1] == 0:
        return [None] * (n - 1)
    return [pairs[bisect_right(ends, cut)][0] for cut in shard_cuts(ends[-1], n)]


def check_shard(shard: tuple[int, int] | None) -> None:
    if shard is not None and not 0 <= shard[0] < shard[1]:
        raise StoreError(f"shard {shard!r} is not (k, n) with 0 <= k < n")


def check_pulka_id(pulka: object) -> None:
    if not isinstance(pulka, str) or not pulka:
        raise StoreError(f"pulka id must be a non-empty string, not {pulka!r}")


class EventStore(ABC):
    """Backend-neutral API. Backends implement the abstract methods; the rest is derived."""

    hash_every: int
    """Chain checkpoint interval: a hash on every ``hash_every``-th seq and on the last event of
    every append (rows for :meth:`append_sealed` are sealed with it)."""

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

    @abstractmethod
    def append_sealed(self, batches: Sequence[SealedBatch]) -> None:
        """Store whole new pulkas whose rows the caller already sealed with :func:`~.chain.seal`
        (``last_seq=0``, genesis hash, this store's :attr:`hash_every`), in one atomic step.

        The bulk-import path: the caller needed the chain anyway (its last value is the content
        hash that finds duplicates), so it is computed once and not checked again here. Every pulka
        must be new to the store and appear once (:class:`ConcurrencyError` otherwise, nothing
        written); its rows must run seq 1..n and end with a hash (:class:`StoreError`). A pulka
        with no rows is skipped.
        """

    def import_sealed(self, batches: Sequence[SealedBatch]) -> list[Stored]:
        """Import whole pulkas sealed as for :meth:`append_sealed`, deciding duplicates and ids at
        commit time: a pulka whose content is already stored (under any id, by this or a concurrent
        importer) is not stored again; one whose id another pulka took meanwhile is stored under
        :func:`free_id`. So concurrent importers never store one game twice, and a losing importer
        still stores its other pulkas. Returns what became of each batch, in order (one commit).

        Backends whose writers can race decide under their writer lock (:class:`~.delta.DeltaStore`);
        this default reads the heads, then appends."""
        out, new = resolve_sealed(batches, self.heads())
        self.append_sealed(new)
        return out

    def heads(self) -> Heads:
        """The stored pulkas' ids and heads, for deciding duplicates and ids on import (a
        :class:`~.heads.HeadIndex`: ≈ 50 bytes a pulka). A snapshot here; a backend may hand out a live
        index that its own commits keep up to date (:class:`~.delta.DeltaStore`)."""
        from .heads import HeadIndex

        return HeadIndex.of((i.pulka, (i.last_seq, i.content_hash, 0)) for i in self.pulkas())

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
    def read_rows(self, pulkas: Sequence[str] | None = None, batch_size: int = 65_536, *,
                  shard: tuple[int, int] | None = None) -> Iterator[list[EventTuple]]:
        """Batches of ``(pulka, seq, code, player, card, value, payload)`` sorted by (pulka, seq):
        the replay fast path (plain tuples; :meth:`rows` names them).

        ``shard=(k, n)`` keeps the ``k``-th of ``n`` contiguous ranges of pulka ids that split the
        store's rows evenly: with the rows in (pulka, seq) order, shard ``k`` begins at the pulka that
        holds row ``k * rows // n`` and ends before the one where shard ``k + 1`` begins
        (:func:`shard_cuts`, :func:`shard_range`). So ``n`` readers with ``k = 0 … n-1`` of the same
        contents see every pulka exactly once, whole, about ``rows / n`` rows each (parallel replay),
        and a reader can skip the files and row groups outside its range. The ranges follow the
        contents: readers in parallel must read the same contents (on a Delta table, the same
        version: ``DeltaStore(path, version=v)``); every backend and read path cuts the same contents
        alike."""

    def rows(self, pulkas: Sequence[str] | None = None, *,
             shard: tuple[int, int] | None = None) -> Iterator[EventRow]:
        """The rows of :meth:`read_rows` one at a time, as named :class:`EventRow` tuples."""
        for batch in self.read_rows(pulkas, shard=shard):
            yield from map(EventRow._make, batch)

    def pulka_rows(self, pulkas: Sequence[str] | None = None, batch_size: int = 65_536, *,
                   shard: tuple[int, int] | None = None) -> Iterator[tuple[str, list[Row]]]:
        """Each pulka (of ``pulkas`` or the ``shard``; all by default) with its engine rows
        ``(code, player, card, value, payload)`` in seq order: what replay and audit read."""
        cur: str | None = None
        rows: list[Row] = []
        for batch in self.read_rows(pulkas, batch_size, shard=shard):
            for r in batch:
                if r[0] != cur:
                    if cur is not None:
                        yield cur, rows
                    cur, rows = r[0], []
                rows.append(r[2:])
        if cur is not None:
            yield cur, rows

    def pulka_columns(self, pulkas: Sequence[str] | None = None, batch_size: int = 65_536, *,
                      shard: tuple[int, int] | None = None) -> Iterator[tuple[str, RowColumns]]:
        """:meth:`pulka_rows` with each pulka's rows as columns (what :func:`~preflog.engine.replay.audit_columns`
        reads): a backend that stores columns hands them over without a tuple per event."""
        for pid, rows in self.pulka_rows(pulkas, batch_size, shard=shard):
            yield pid, RowColumns.of_rows(rows)

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
        return _content_hash(events)

    def find_by_content(self, content_hash: int) -> str | None:
        """The pulka whose full event list has this content hash, if any."""
        for info in self.pulkas():
            if info.content_hash == content_hash:
                return info.pulka
        return None

    # --- bulk access for engines that read files --------------------------------------------
    @abstractmethod
    def files(self) -> list[str]:
        """The live Parquet files that hold this store's events, each row once (read these, never a
        directory glob); ``[]`` for a store that keeps no files (:class:`~.memory.MemoryStore`)."""

    @abstractmethod
    def duckdb_relation(self, con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyRelation:
        """Every stored row in the current table schema (``pulka, seq, deal, code, player, card,
        value, payload, hash``; see ``schemas/events.v1.json``) as a relation on ``con``."""

    # --- maintenance ---------------------------------------------------------------------
    def check_files(self) -> None:  # noqa: B027 - a backend without files has nothing to check
        """Raise :class:`DamagedFileError` naming a damaged data file (a backend without files has none)."""

    @abstractmethod
    def verify(self, progress: Callable[[int, int], None] | None = None) -> list[IntegrityProblem]:
        """Check seq continuity, event decoding, deal numbering and the hash chain of every pulka;
        ``progress(events checked, events in all)`` is told as the check goes."""

    @abstractmethod
    def compact(self) -> dict[str, Any]:
        """Merge small files; returns what was done (``{}`` where there are no files to merge)."""

    # --- versions: what a reader may keep -------------------------------------------------
    committed: int | None = None
    """The :meth:`version` this object's own last commit made (None before its first, or for a store that
    cannot say): a reader that wrote a pulka keeps it as of this version."""

    def version(self) -> int | None:
        """A number that grows with every commit to the store (a Delta table's version; the memory
        store's count of commits), or None for a store that cannot say: a reader then keeps nothing it
        read, since it cannot tell whether it is still current."""
        return None

    def appended_since(self, version: int, most: int = 64) -> set[str] | None:
        """The pulkas the commits after ``version`` (up to now) appended to (``set()``: none came); None
        when the store cannot tell (no versions, more than ``most`` commits since, ``version`` not one of
        its own, or a commit that does not say which pulkas it changed): a reader reads again then."""
        return None

    def checkpoint(self) -> int | None:
        """Make the store quicker to open from now on (a Delta checkpoint of the log) without changing a
        row or a commit; the version it was made at, or None where there is nothing to do."""
        return None
