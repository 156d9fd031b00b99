"""Bulk import of record files, on every core.

Per file, a worker process reads and validates the text, seals each pulka's rows with the store's
hash chain (the chain's last value is the pulka's content hash), and audits the pulkas that are
not already stored, deriving their projection facts. The parent (an :class:`ImportSession`, what
``Workspace.import_each`` runs) takes the files' results strictly in file order and alone decides ids
and duplicates, commits to the store and refreshes the projections, so what is stored does not depend
on the number of workers.

Small imports stay in the calling process: a pool's start-up (a fork server's fresh interpreter
importing the reader, the engine and the store) costs about as much as reading a megabyte. A worker
that dies stops the import with :class:`~.workers.WorkerDied` naming the file not done: the pulkas
committed before it are stored whole (each commit is atomic), nothing of it or of the files after it.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Container
from collections.abc import Generator
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import NamedTuple
from typing import Protocol

from .engine.corrections import CORRECTED
from .engine.corrections import sheet_deals
from .errors import FileError
from .model.events import Event
from .model.events import PulkaStarted
from .model.events import Row
from .model.events import from_row
from .record.api import RECORD_SUFFIXES
from .record.api import Limits
from .record.api import Piece
from .record.api import gc_paused
from .record.api import parse_piece
from .record.api import read_any
from .record.api import record_files
from .record.api import record_pieces
from .record.errors import RecordError
from .record.reader import Record
from .store.base import EventStore
from .store.base import Heads
from .store.base import free_id
from .store.chain import DEAL_CODE
from .store.chain import DEFAULT_HASH_EVERY
from .store.chain import StoredRow
from .store.chain import content_hash
from .store.pool import ARROW_POOL_ENV
from .store.pool import BulkPool
from .store.pool import bulk_memory_pool

if TYPE_CHECKING:
    import pyarrow as pa
    from filelock import ReadWriteLock

    from .projections.facts import PulkaFacts
    from .store.heads import SortedHashes

# A pool pays off from about this much record text (≈ 6 k deals) spread over at least two files
# (or one file big enough to be read in parts).
PARALLEL_MIN_BYTES = 2_000_000
# A file bigger than this is read here one pulka at a time and handed out in parts of about
# PART_BYTES of text, so that one big file uses every worker and memory stays that of a few parts.
SPLIT_MIN_BYTES = 1_000_000
PART_BYTES = 400_000
# Pickled parts of one file kept in memory before they go to a temporary file (a file's pulkas are
# committed only once the whole file has been read without error).
SPILL_MEMORY_BYTES = 32 << 20
# Files handed out ahead of the one the parent waits for, per worker: keeps every worker busy
# while bounding the results held in memory when the parent falls behind. Six parts (≈ 1 s of a
# worker's work, a few MB of results) cover a store commit or projection write of the parent: with two,
# the workers of a 100 k-deal import sat idle 3-7 % of the time while the parent committed.
AHEAD_PER_WORKER = 6


class Prepared(NamedTuple):
    """One pulka of a file, ready for the parent (a plain tuple: cheap to pass between processes).

    ``rows``: its sealed rows, a :class:`~.store.sealed.SealedRows` slice of its part's Arrow batch
    (empty until :func:`attach` cuts the slices in the parent). ``projected``: its rows of the three
    projection tables (built on the worker) and its :meth:`~.projections.facts.PulkaFacts.content_print`;
    ``None`` when the audit was not run, or when the content was already stored before this import
    started (a duplicate: nothing to audit). ``facts``: the facts of an audited pulka whose rows the
    worker could not build (the parent projects them, and reports the error, as before)."""

    record_id: str | None
    content_hash: int
    deals: int
    events: int
    findings: int
    rows: Sequence[StoredRow]
    facts: PulkaFacts | None
    plain_hash: int | None = None
    """For a pulka with annotations (comments, names in moves): the content hash of its game alone,
    as it was stored before annotations were kept, so that importing an archive again finds it."""
    projected: Projected | None = None


class Rows(NamedTuple):
    """A run of rows of a table: the first and how many (``start`` -1: none)."""

    start: int
    length: int


NO_ROWS = Rows(-1, 0)


class Spans(NamedTuple):
    """Where one pulka's rows are in its part: its sealed events, and its rows of the three projection
    tables (:data:`NO_ROWS` when they were not built there)."""

    events: Rows
    deals: Rows = NO_ROWS
    player_deals: Rows = NO_ROWS
    pulka_results: Rows = NO_ROWS


class Projected(NamedTuple):
    """Where a pulka's projection rows are (``deals``, ``player_deals``, ``pulka_results`` of its part,
    under the worker's provisional id): ``spans``, its rows in each table; and the digest of its facts
    without the id."""

    content_print: str
    tables: tuple[pa.Table, pa.Table, pa.Table]
    spans: tuple[Rows, Rows, Rows]


class Part(NamedTuple):
    """What a worker sends for a file or a part of one: every pulka's sealed rows in one Arrow batch and
    its projection rows in three tables, and per pulka its :class:`Prepared` (``rows`` empty) and
    :class:`Spans`."""

    body: pa.RecordBatch
    tables: tuple[pa.Table, pa.Table, pa.Table] | None
    pulkas: list[Prepared]
    spans: list[Spans]
    prints: list[str | None]


def attach(part: Part) -> list[Prepared]:
    """The part's pulkas with their rows cut from its batch (zero-copy slices) and their projection rows."""
    from .store.sealed import SealedRows

    out: list[Prepared] = []
    body, tables = part.body, part.tables
    for pp, span, cp in zip(part.pulkas, part.spans, part.prints, strict=True):
        proj = None
        if tables is not None and cp is not None:
            proj = Projected(cp, tables, (span.deals, span.player_deals, span.pulka_results))
        rows = SealedRows(body.slice(span.events.start, span.events.length), pp.content_hash)
        out.append(pp._replace(rows=rows, projected=proj))
    return out


class FileResult(NamedTuple):
    """A file's pulkas in file order, or the error that refuses the whole file. ``pulkas`` of a big
    file read in parts is an iterator over its parts, each loaded when reached (see :class:`_Spill`)."""

    source: str
    pulkas: Iterable[Prepared]
    error: str = ""


class Unit(NamedTuple):
    """One request to a worker: a whole file (``pieces`` None: the worker reads it), or one part of a
    big file or of standard input, read here as runs of pieces (pulkas) of a few hundred kilobytes.
    ``error`` is the file's error met while reading it here (it ends the file). ``size``: about how many
    bytes of the file the unit covers (a whole file: its size; a part: the characters of its pieces),
    for the import's progress."""

    source: str
    part: int
    last: bool
    pieces: list[Piece] | None = None
    error: str = ""
    size: int = 0


class PartResult(NamedTuple):
    """A worker's answer to a :class:`Unit`: its pulkas as a :class:`Part` (pickled when the file has
    several parts, so the parent can keep them on disk until the file has been read to its end), or an
    error (its ``pulkas`` empty). ``size``: its :class:`Unit`'s."""

    source: str
    part: int
    last: bool
    pulkas: Part | bytes | list[Prepared]
    n: int
    error: str = ""
    size: int = 0


def file_pulka_id(stem: str, index: int, record_id: str | None) -> str:
    """The id a pulka asks for: its ``[Id]`` tag, else the file stem (``-2``, ``-3`` … after the first)."""
    return record_id or (stem if index == 0 else f"{stem}-{index + 1}")


def source_stem(source: str) -> str:
    return "stdin" if source == "-" else Path(source).stem


def prepare_file(source: str, hash_every: int, run_audit: bool, known: Container[int]) -> FileResult:
    """Read, seal and audit one record file. ``known``: content hashes already stored, whose
    pulkas are duplicates and need no audit. Bad input is returned as the file's error, and so is
    any other failure inside the file's import: one file never aborts the others."""
    r = prepare_unit(Unit(source, 0, True), hash_every, run_audit, known)
    if r.error or not isinstance(r.pulkas, Part):
        return FileResult(source, [], r.error)
    return FileResult(source, attach(r.pulkas))


def unexpected_failure(source: str, exc: BaseException) -> str:
    """The error row of a file whose import failed in a way the reader did not foresee."""
    return f"{source}: could not be imported ({type(exc).__name__}: {exc}); please report this record"


def no_pulka(source: str) -> str:
    return f"{source}: holds no pulka (expected tag pairs such as [Players \"…\"] followed by deals)"


def _read_file(source: str) -> list[Record] | str:
    """A whole file's records, or its error."""
    try:
        records = read_any(source)
    except (RecordError, FileError) as exc:  # bad text; not a regular file, or over a size limit
        return str(exc)
    except OSError as exc:
        return f"{source}: {exc.strerror or exc}"
    if not records:
        return no_pulka(source)
    return records


def prepare_unit(unit: Unit, hash_every: int, run_audit: bool, known: Container[int]) -> PartResult:
    """A worker's answer to one :class:`Unit` (never raises: a failure is the part's error). A whole
    file's :class:`Part` is sent as it is, a part of a bigger file pickled (see :class:`_Spill`)."""
    return _prepare_unit(unit, hash_every, run_audit, known)._replace(size=unit.size)


def _prepare_unit(unit: Unit, hash_every: int, run_audit: bool, known: Container[int]) -> PartResult:
    if unit.error:
        return PartResult(unit.source, unit.part, unit.last, [], 0, unit.error)
    name = "<stdin>" if unit.source == "-" else unit.source
    try:
        if unit.pieces is None:
            got = _read_file(unit.source)
            if isinstance(got, str):
                return PartResult(unit.source, unit.part, unit.last, [], 0, got)
            records = got
        else:
            with gc_paused():
                records = [r for piece in unit.pieces for r in parse_piece(piece, name)]
        part = _part(records, unit.source, unit.part, hash_every, run_audit, known)
    except RecordError as exc:
        return PartResult(unit.source, unit.part, unit.last, [], 0, str(exc))
    except Exception as exc:  # not bad input the reader caught, but still this file's problem alone
        return PartResult(unit.source, unit.part, unit.last, [], 0, unexpected_failure(unit.source, exc))
    whole = unit.part == 0 and unit.last
    return PartResult(unit.source, unit.part, unit.last,
                      part if whole else pickle.dumps(part, pickle.HIGHEST_PROTOCOL), len(part.pulkas))


def _part(records: list[Record], source: str, part: int, hash_every: int, run_audit: bool,
          known: Container[int]) -> Part:
    """The :class:`Part` of ``records``: each pulka's rows made once (``to_row``) into the part's five
    columns, sealed in one call (the chain's last value is each pulka's content hash), audited unless a
    duplicate, its facts projected into rows here."""
    from .model.columns import RowColumns
    from .projections.build import project_many
    from .projections.facts import FactsError
    from .projections.facts import facts_of
    from .store.sealed import seal_part

    stem = source_stem(source) if part == 0 else f"{source_stem(source)}.part{part}"
    pulkas: list[Prepared] = []
    spans: list[Spans] = []
    seen: set[int] = set()
    code: list[int] = []
    player: list[int] = []
    card: list[int] = []
    value: list[int] = []
    payload: list[str | None] = []
    ends: list[int] = []
    per_pulka: list[RowColumns] = []
    audited: list[tuple[int, PulkaFacts]] = []
    with gc_paused():  # acyclic bulk work: see gc_paused
        for rec in records:
            rows = RowColumns.of_rows([e.to_row() for e in rec.events])
            per_pulka.append(rows)
            code += rows.code
            player += rows.player
            card += rows.card
            value += rows.value
            payload += rows.payload
            ends.append(len(code))
        # the chain sealed once: its last value is each pulka's content hash, its rows are stored
        body, heads = seal_part(code, player, card, value, payload, ends, hash_every)
        del code, player, card, value, payload
        start = 0
        for i, rec in enumerate(records):
            events, h, rows = rec.events, heads[i], per_pulka[i]
            deals = (rows.code.count(DEAL_CODE) if CORRECTED not in rows.code   # as the sheet counts them
                     else sheet_deals([e.to_row() for e in events]))
            findings = 0
            # a hash stored before, or met earlier in this file, is a duplicate whatever the parent
            # decides about the files in between: no audit needed
            if run_audit and h not in known and h not in seen:
                from .engine.replay import audit

                result = audit(events)
                findings = len(result.findings)
                audited.append((i, facts_of(file_pulka_id(stem, i, rec.id), events, result)))
            seen.add(h)
            pulkas.append(Prepared(rec.id, h, deals, len(events), findings, (), None, _plain_hash(events)))
            spans.append(Spans(Rows(start, ends[i] - start)))
            start = ends[i]
        del per_pulka
        prints: list[str | None] = [None] * len(pulkas)
        tables: tuple[pa.Table, pa.Table, pa.Table] | None = None
        if audited:
            try:
                built = project_many(f for _i, f in audited)
            except FactsError:  # some pulka cannot be projected: the parent projects them, and says why
                for i, f in audited:
                    pulkas[i] = pulkas[i]._replace(facts=f)
            else:
                tables = (built["deals"], built["player_deals"], built["pulka_results"])
                d = pd = r = 0
                for i, f in audited:
                    nd, n = len(f.deals), f.n_players
                    spans[i] = spans[i]._replace(deals=Rows(d, nd), player_deals=Rows(pd, nd * n),
                                                 pulka_results=Rows(r, n))
                    d, pd, r = d + nd, pd + nd * n, r + n
                    prints[i] = f.content_print()
    return Part(body, tables, pulkas, spans, prints)


def _plain_hash(events: Sequence[Event]) -> int | None:
    first = events[0] if events else None
    if not isinstance(first, PulkaStarted) or not (first.notes or first.by_name):
        return None
    return content_hash([replace(first, notes=(), by_name=False).to_row(), *(e.to_row() for e in events[1:])])


# --- worker processes --------------------------------------------------------------------------
# The workers run through preflog.workers.run_ordered, the one runner of the simulator and the analysis too:
# one unit a task, results in file order, at most AHEAD_PER_WORKER units a worker queued ahead of the one the
# parent waits for, and a worker that dies is a WorkerDied naming the file it held, never a hang. Each
# worker gets the import's settings (the sealing interval, whether to audit, the known content hashes: 8
# bytes a stored pulka) once, from the pool's initializer (:func:`_settle`), not with every unit. The fork
# server the workers start from has imported these modules (what a unit needs), not the parent's threads.
PRELOAD = ("preflog.importer", "preflog.store.sealed", "preflog.engine.replay", "preflog.projections.build")
_SETTINGS: list[Any] = []  # a worker's (hash_every, run_audit, known), from _settle


def _settle(hash_every: int, run_audit: bool, known: Container[int]) -> None:
    """A worker's start: the import's settings; and Arrow's system allocator, as the parent's import uses
    (unless :data:`~.store.pool.ARROW_POOL_ENV` chooses one: see the workspace's ``import_memory_pool``)."""
    if not os.environ.get(ARROW_POOL_ENV):
        import pyarrow as pa

        from .store.pool import arrow_pool

        pa.set_memory_pool(arrow_pool(BulkPool.SYSTEM))
    _SETTINGS[:] = [hash_every, run_audit, known]


def work(unit: Unit) -> PartResult:
    """A worker's answer to one :class:`Unit` (after :func:`_settle`). A failure :func:`prepare_unit` did not
    turn into the file's error (a bug, not bad input) is the file's error row all the same, with its
    traceback: never the whole import's."""
    hash_every, run_audit, known = _SETTINGS
    try:
        return prepare_unit(unit, hash_every, run_audit, known)
    except Exception as exc:
        import traceback

        trace = "".join(traceback.format_exception(exc))
        return PartResult(unit.source, unit.part, unit.last, [], 0,
                          f"{unit.source}: could not be imported; please report this record:\n{trace}", unit.size)


def _unit_name(units: list[Unit]) -> str:
    """A task (one unit) in words, for :class:`~.workers.WorkerDied`: the file, and which part of it."""
    unit = units[0]
    name = "standard input" if unit.source == "-" else unit.source
    return f"reading {name}" if unit.part == 0 and unit.last else f"reading {name} (part {unit.part + 1})"


def _size(f: Path | str) -> int:
    try:
        return os.path.getsize(f)
    except OSError:
        return 0  # reported as the file's error when it is read


def use_pool(files: Sequence[Path | str], workers: int) -> bool:
    """Whether workers pay off: several cores, several files or one big enough to be read in parts,
    and enough text to read. Standard input is read here (streamed, one part at a time)."""
    if workers < 2 or any(str(f) == "-" for f in files):
        return False
    if len(files) < 2 and not any(_size(f) >= max(SPLIT_MIN_BYTES, 2 * PART_BYTES) for f in files):
        return False
    total = 0
    for f in files:
        total += _size(f)
        if total >= PARALLEL_MIN_BYTES:
            return True
    return False


def units(files: Sequence[Path | str], failed: Container[str] = ()) -> Iterator[Unit]:
    """The requests for ``files``, in file order: a small file whole (its worker reads it), a big file
    or standard input as parts read here one pulka at a time. A file in ``failed`` (an earlier part
    of it had an error) is read no further: its next unit is its last, empty one."""
    for f in files:
        source = str(f)
        whole = _size(f) if source != "-" else 0
        if source != "-" and whole < SPLIT_MIN_BYTES:
            yield Unit(source, 0, True, size=whole)
            continue
        part, batch, size = 0, [], 0
        try:
            for piece in record_pieces(source):
                batch.append(piece)
                size += len(piece.text)
                if size >= PART_BYTES:
                    yield Unit(source, part, False, batch, size=size)
                    part, batch, size = part + 1, [], 0
                    if source in failed:
                        break
        except (RecordError, FileError) as exc:
            yield Unit(source, part, True, batch, str(exc), size)
            continue
        except OSError as exc:
            yield Unit(source, part, True, batch, f"{source}: {exc.strerror or exc}", size)
            continue
        yield Unit(source, part, True, batch, size=size)


class _Spill:
    """The pickled parts of one file, in memory up to :data:`SPILL_MEMORY_BYTES`, beyond that in an
    anonymous temporary file; read back in order, one part at a time."""

    def __init__(self) -> None:
        self.parts: list[bytes | tuple[int, int]] = []
        self.held = 0
        self.file: Any = None

    def add(self, data: bytes) -> None:
        if self.held + len(data) <= SPILL_MEMORY_BYTES:
            self.parts.append(data)
            self.held += len(data)
            return
        if self.file is None:
            import tempfile

            self.file = tempfile.TemporaryFile()
        at = self.file.seek(0, os.SEEK_END)
        self.file.write(data)
        self.parts.append((at, len(data)))

    def pulkas(self) -> Iterator[Prepared]:
        try:
            for i, part in enumerate(self.parts):
                if isinstance(part, tuple):
                    self.file.seek(part[0])
                    data = self.file.read(part[1])
                else:
                    data = part
                self.parts[i] = b""
                got: Part = pickle.loads(data)
                del data
                yield from attach(got)
        finally:
            self.close()

    def close(self) -> None:
        self.parts = []
        if self.file is not None:
            self.file.close()
            self.file = None


def _files_of(results: Iterable[PartResult], failed: set[str]) -> Generator[FileResult, None, None]:
    """Each file's :class:`FileResult` from its parts (in order): the first part's error refuses the
    whole file (and marks it ``failed``, so it is read no further); a file without error yields its
    pulkas part by part."""
    spill: _Spill | None = None
    error = ""
    count = 0
    direct: list[Prepared] | None = None
    try:
        for r in results:
            if r.part == 0:
                spill, error, count, direct = _Spill(), "", 0, None
            assert spill is not None
            if not error and r.error:
                error = r.error
                failed.add(r.source)
                spill.close()
            elif not error:
                count += r.n
                if isinstance(r.pulkas, Part):
                    if r.part == 0 and r.last:
                        direct = attach(r.pulkas)
                    else:
                        spill.add(pickle.dumps(r.pulkas, pickle.HIGHEST_PROTOCOL))
                elif isinstance(r.pulkas, bytes):
                    spill.add(r.pulkas)
            if not r.last:
                continue
            if error:
                yield FileResult(r.source, [], error)
            elif count == 0:
                yield FileResult(r.source, [], no_pulka(r.source))
            else:
                yield FileResult(r.source, direct if direct is not None else spill.pulkas())
            spill = None
    finally:
        if spill is not None:
            spill.close()


class Known(Protocol):
    """The content hashes stored already, as the parent sees them (they may grow as it imports), and a
    sorted snapshot of them for the workers."""

    def __contains__(self, h: object) -> bool: ...

    def snapshot(self) -> SortedHashes: ...


def prepared_files(files: Sequence[Path | str], hash_every: int, run_audit: bool, known: Known | Collection[int],
                   workers: int, progress: Callable[[int, int | None], None] | None = None
                   ) -> Generator[FileResult, None, None]:
    """Each file's :class:`FileResult`, in file order; on ``workers`` processes when
    :func:`use_pool` says so (each gets a sorted snapshot of ``known``: 8 bytes a stored pulka), else
    here (where ``known`` may grow as the caller imports). ``progress(done, total)`` is told the bytes of
    record text read, sealed and audited so far as each file or part of one comes back (see
    :func:`_reporting`)."""
    failed: set[str] = set()
    parts: Iterator[PartResult]
    if not use_pool(files, workers):
        parts = (prepare_unit(u, hash_every, run_audit, known) for u in units(files, failed))
    else:
        parts = _pooled(files, hash_every, run_audit, known, workers, failed)
    if progress is not None:
        parts = _reporting(parts, files, progress)
    yield from _files_of(parts, failed)


def _reporting(parts: Iterator[PartResult], files: Sequence[Path | str],
               progress: Callable[[int, int | None], None]) -> Generator[PartResult, None, None]:
    """``parts`` as they come, telling ``progress`` the bytes done of the bytes of all ``files`` (``None``
    when standard input is one of them: its size is known only at its end). A part counts its text's
    characters (a few less than its bytes); a file's last part brings the count to the file's size, so the
    bytes of a file refused midway (read no further) are counted too."""
    total = None if any(str(f) == "-" for f in files) else sum(_size(f) for f in files)
    done = finished = 0
    progress(0, total)
    try:
        for r in parts:
            done += r.size
            if r.last:
                finished = done if r.source == "-" else finished + _size(r.source)
                done = finished
            progress(done, total)
            yield r
    finally:
        close = getattr(parts, "close", None)
        if close is not None:
            close()


def _pooled(files: Sequence[Path | str], hash_every: int, run_audit: bool, known: Known | Collection[int],
            workers: int, failed: set[str]) -> Iterator[PartResult]:
    from .store.heads import SortedHashes
    from .workers import run_ordered

    split = any(str(f) != "-" and _size(f) >= SPLIT_MIN_BYTES for f in files)
    n = workers if split else min(workers, len(files))
    frozen = known.snapshot() if hasattr(known, "snapshot") else SortedHashes(known)
    return run_ordered(work, units(files, failed), n, preload=PRELOAD, ahead=AHEAD_PER_WORKER,
                       initializer=_settle, initargs=(hash_every, run_audit, frozen), describe=_unit_name)


# --- the parent's side: ids, duplicates, commits, projections ------------------------------------
IMPORT_CHUNK = 2000  # pulkas per store commit on bulk import (at the end of a file) …
IMPORT_ROWS = 200_000  # … or event rows (inside a big file), so that memory stays flat

READING = "reading records"
"""The import's stage whose ``done`` and ``total`` are bytes: the record text read, sealed and audited so
far, of all the files' (``total`` None when standard input is read: its size is known at its end)."""
STORING = "storing pulkas"
"""The import's stage that counts the pulkas committed to the store (with their projections; no total)."""


@dataclass(slots=True)
class ImportItem:
    """What happened to one pulka (or one bad file) on import."""

    source: str
    pulka: str = ""
    status: str = "imported"  # imported | duplicate | error
    deals: int = 0
    events: int = 0
    findings: int = 0
    error: str = ""


@dataclass(slots=True)
class ImportCounts:
    """What :meth:`Workspace.import_each` did, in numbers: files named, pulkas imported and already
    stored, files refused; deals, events and findings of the pulkas imported. ``skipped``: per folder
    named that held record files, what else it held (a suffix other than .pref, .txt, .json and .pgn; a
    symbolic link; a FIFO …), by path (a folder without record files is an error row naming them)."""

    files: int = 0
    imported: int = 0
    duplicate: int = 0
    errors: int = 0
    deals: int = 0
    events: int = 0
    findings: int = 0
    skipped: dict[str, list[str]] = field(default_factory=dict, repr=False)  # a folder of photos: no flood

    def add(self, item: ImportItem) -> None:
        if item.status == "imported":
            self.imported += 1
            self.deals += item.deals
            self.events += item.events
            self.findings += item.findings
        elif item.status == "duplicate":
            self.duplicate += 1
        else:
            self.errors += 1


class ImportTarget(Protocol):
    """Where an import goes: a store folder (a :class:`~preflog.workspace.Workspace`)."""

    root: Path

    def exists(self) -> bool: ...

    def store(self, create: bool = False) -> EventStore: ...

    def heal_projections(self, reading: bool = True) -> list[str]: ...

    def refresh_projections(self, changed: dict[str, PulkaFacts], heads: dict[str, int] | None = None, *,
                            built: tuple[dict[str, pa.Table], dict[str, str]] | None = None) -> None: ...


class _Pending(NamedTuple):
    """A pulka waiting for the next commit, or (``pulka`` empty) an item handed out only after it, in its
    place in file order (a duplicate, a file's error)."""

    pulka: str
    rows: Sequence[StoredRow]
    item: ImportItem


class ImportSession:
    """One bulk import into ``target`` (the parent's side): the paths named become files, the files' pulkas
    come back prepared (:func:`prepared_files`, on worker processes for a big import) in file order, and this
    alone decides ids and duplicates, commits to the store and writes the projections.

    ``workers``: processes that read, seal and audit the files (default: every core); ``report(stage, done,
    total)`` is told the bytes read (:data:`READING`) and the pulkas stored (:data:`STORING`)."""

    def __init__(self, target: ImportTarget, run_audit: bool = True, workers: int | None = None,
                 report: Callable[[str, int, int | None], None] | None = None) -> None:
        self.target = target
        self.run_audit = run_audit
        self.workers = workers if workers is not None else (os.cpu_count() or 1)
        self.report = report
        self.seen = _Seen(None)
        self.pending: list[_Pending] = []
        self.todo = _ToProject()
        self.stored = 0  # pulkas committed
        self._importing: ReadWriteLock | None = None  # the "import in progress" mark, once committing
        self._take: Callable[[ImportItem], None] = lambda item: None

    def _report(self, stage: str, done: int, total: int | None) -> None:
        if self.report is not None:
            self.report(stage, done, total)

    def run(self, paths: Sequence[str | Path], on_item: Callable[[ImportItem], None] | None = None,
            progress: Callable[[int, int], None] | None = None) -> ImportCounts:
        """Import ``paths`` (record files, folders, ``-``), handing each :class:`ImportItem` to ``on_item`` once
        its fate is final (see :meth:`Workspace.import_each`); ``progress(files done, files)``."""
        Limits.from_env()  # a malformed size limit is one error for the run, not one per file
        files, empty, skipped = gather(paths)
        counts = ImportCounts(files=len({str(f) for f in files}) + len(empty), skipped=skipped)
        # The store is created only when something is appended: a run of bad files leaves no trace.
        if self.target.exists():
            store = self.target.store()
            hash_every, self.seen = store.hash_every, _Seen(store.heads())
        else:
            hash_every = DEFAULT_HASH_EVERY
        read = None if self.report is None else lambda done, total: self._report(READING, done, total)
        results = prepared_files(files, hash_every, self.run_audit, self.seen.hashes, self.workers, read)

        def take(item: ImportItem) -> None:
            counts.add(item)
            if on_item is not None:
                on_item(item)

        self._take = take
        for item in empty:
            take(item)
        try:
            with gc_paused(), import_memory_pool():  # millions of acyclic rows and facts in flight: see gc_paused
                self._take_files(results, len(files), progress)
            if self.run_audit:
                self.target.heal_projections(reading=False)  # what an earlier, interrupted import left unprojected
        finally:
            results.close()  # stops the workers now if the import failed
            if self._importing is not None:
                from .projections.store import import_ends

                import_ends(self._importing)
                self._importing = None
        return counts

    def _take_files(self, results: Iterator[FileResult], n_files: int,
                    progress: Callable[[int, int], None] | None) -> None:
        """Ids, duplicates, commits and projections, file by file in file order. An item is handed out once
        its fate is final: a duplicate at once, a pulka to be stored after its commit."""
        seen, pending = self.seen, self.pending
        rows_pending = 0
        for n_done, fr in enumerate(results, 1):
            src = fr.source
            if fr.error:
                self._hand_out(ImportItem(src, status="error", error=fr.error))
            stem = source_stem(src)
            for i, pp in enumerate(fr.pulkas):
                h = pp.content_hash
                item = ImportItem(src, deals=pp.deals, events=pp.events)
                holder = seen.holder(h)
                if holder is None and pp.plain_hash is not None:  # stored before its notes were kept
                    holder = seen.holder(pp.plain_hash)
                if holder is None and pp.record_id is not None and pp.record_id in seen.ids:
                    holder = seen.holder(_hash_without_id(pp.rows))  # the export of a pulka stored without [Id]
                if holder is not None:
                    item.pulka, item.status = holder, "duplicate"
                    self._hand_out(item)
                    continue
                pid = free_id(file_pulka_id(stem, i, pp.record_id), h, seen.ids)
                seen.add(pid, h)
                item.pulka = pid
                if pp.projected is not None or pp.facts is not None:
                    item.findings = pp.findings
                    self.todo.add(pid, h, pp.projected, pp.facts)
                pending.append(_Pending(pid, pp.rows, item))
                rows_pending += len(pp.rows)
                if rows_pending >= IMPORT_ROWS:  # a big file: commit within it, memory stays flat
                    self._flush()
                    rows_pending = 0
            if len(pending) >= IMPORT_CHUNK:
                self._flush()
                rows_pending = 0
            if progress:
                progress(n_done, n_files)
        self._flush(last=True)

    def _hand_out(self, item: ImportItem) -> None:
        """A duplicate or a file's error: handed out now, or after the commit of the pulkas before it (file order)."""
        if self.pending:
            self.pending.append(_Pending("", (), item))
        else:
            self._take(item)

    def _flush(self, last: bool = False) -> None:
        """One store commit for the pulkas gathered so far (rows sealed by the workers; an entry without
        id is a duplicate found before, only handed out in its place), telling the progress how many pulkas
        were committed (:data:`STORING`); then, once :data:`IMPORT_CHUNK` pulkas wait (or at the end), their
        projections: so a big import never holds every pulka's projection rows, and each projection segment
        is written about once.

        Duplicates and ids are decided again inside the commit's critical section
        (:meth:`EventStore.import_sealed`): content a concurrent import stored meanwhile becomes a
        ``duplicate`` of its pulka, an id it took meanwhile gives way to a free one, and the other
        pulkas are stored all the same."""
        pending, todo = self.pending, self.todo
        if pending:
            batches = [(p.pulka, p.rows) for p in pending if p.pulka]
            if batches:
                self._report(STORING, self.stored, None)
            store = self.target.store(create=True)
            if self._importing is None:
                from .projections.store import import_begins

                self._importing = import_begins(self.target.root)
            done = iter(store.import_sealed(batches) if batches else [])
            self.seen.committed(store)
            for p in pending:
                item = p.item
                if not p.pulka:
                    self._take(item)
                    continue
                got = next(done)
                if got.pulka == p.pulka and got.created:
                    todo.stored(p.pulka)
                elif not got.created:
                    item.pulka, item.status, item.findings = got.pulka, "duplicate", 0
                    todo.drop(p.pulka)
                else:
                    item.pulka = got.pulka
                    todo.stored(p.pulka, got.pulka)
                self._take(item)
            pending.clear()
            if batches:
                self.stored += len(batches)
                self._report(STORING, self.stored, None)
        if todo.ready and (last or len(todo.ready) >= IMPORT_CHUNK):
            tables, prints, heads = todo.take()
            self.target.refresh_projections({}, heads, built=(tables, prints))
        _release_arrow_memory()


def gather(paths: Sequence[str | Path]) -> tuple[list[Path | str], list[ImportItem], dict[str, list[str]]]:
    """The record files ``paths`` name (``-``: standard input; a folder: its record files), in order; the
    error items of paths that do not exist and of folders holding no record file (or that cannot be listed);
    and per folder what else it held."""
    files: list[Path | str] = []
    empty: list[ImportItem] = []
    skipped: dict[str, list[str]] = {}
    for p in paths:
        if str(p) == "-":
            files.append("-")
            continue
        if not Path(p).exists() and not Path(p).is_symlink():  # one missing path: the others still import
            empty.append(ImportItem(str(p), status="error", error=f"{p}: no such file or folder"))
            continue
        if not Path(p).is_dir():
            files.append(Path(p))
            continue
        passed: list[Path] = []
        try:
            found = record_files([p], passed)
        except FileError as exc:  # a folder that cannot be listed: its error row, the others still import
            empty.append(ImportItem(str(p), status="error", error=str(exc)))
            continue
        if not found:
            empty.append(ImportItem(str(p), status="error", error=no_record_file(p, passed)))
        elif passed:
            skipped[str(p)] = [str(f) for f in passed]
        files.extend(found)
    return files, empty, skipped


def no_record_file(folder: str | Path, skipped: Sequence[Path] = ()) -> str:
    """The error of a folder named for import that holds no record file, naming what it skipped."""
    what = f"; it holds only {skipped_names(folder, skipped)}" if skipped else ""
    return (f"{folder}: no record file in this folder (record files end in "
            f"{', '.join(RECORD_SUFFIXES[:-1])} or {RECORD_SUFFIXES[-1]}){what}")


def skipped_names(folder: str | Path, skipped: Sequence[str | Path], shown: int = 5) -> str:
    """``3 other files: a.md, b.csv, link.pref`` (names under ``folder``; the first ``shown``, then how many
    in all)."""
    names = []
    for f in skipped[:shown]:
        try:
            names.append(str(Path(f).relative_to(folder)))
        except ValueError:
            names.append(str(f))
    n = len(skipped)
    more = f" … ({n} in all)" if n > shown else ""
    return f"{n} other file{'' if n == 1 else 's'}: {', '.join(names)}{more}"


def import_memory_pool() -> AbstractContextManager[None]:
    """Arrow's system allocator for the buffers of a bulk import (unless ``ARROW_DEFAULT_MEMORY_POOL``
    chooses one), the previous default pool again after it (:mod:`preflog.store.pool`).

    Arrow's default pool (mimalloc) keeps freed pages for reuse, and every commit (a chunk's columns,
    their Parquet encoding, the projection segments) leaves more of them behind. Measured on the parent
    of an import of 100 k / 300 k deals: peak RSS 437 / 501 MB with mimalloc, 381 / 410 MB with the
    system allocator, its CPU no higher (3.4-3.6 against 3.9-4.2 s at 100 k); at the end of the import
    372 / 450 MB against 257 / 277 MB. The workers get the same allocator (:func:`_settle`)."""
    return bulk_memory_pool(BulkPool.SYSTEM)


def _release_arrow_memory() -> None:
    """Hand the pages Arrow's allocator kept back to the system after a commit (a pool other than the
    system allocator's keeps them: see :func:`import_memory_pool`)."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


def _hash_without_id(rows: Iterable[StoredRow]) -> int:
    """The content hash of a pulka's sealed rows with no ``[Id]`` in its ``PulkaStarted``: the hash it was
    stored under when it was imported without one (the workspace's ``with_id`` added it on export)."""
    plain: list[Row] = [(code, player, card, value, payload)
                        for _seq, _deal, code, player, card, value, payload, _hash in rows]
    first = from_row(*plain[0]) if plain else None
    if isinstance(first, PulkaStarted):
        plain[0] = replace(first, meta=tuple(m for m in first.meta if m[0] != "id")).to_row()
    return content_hash(plain)


class _Seen:
    """The ids and content hashes an import must not store again: the store's (its head index, live:
    the store's own commits keep it level) and those of this run's pulkas not committed yet (at most a
    commit's worth). ``ids`` and ``hashes`` are the two as containers (``hashes`` also for the import's
    workers, which get a sorted snapshot of it)."""

    def __init__(self, stored: Heads | None) -> None:
        self.stored = stored
        self.run: dict[int, str] = {}
        self.run_ids: set[str] = set()
        self.ids = _SeenIds(self)
        self.hashes = _SeenHashes(self)

    def holder(self, content_hash: int) -> str | None:
        got = self.run.get(content_hash)
        if got is None and self.stored is not None:
            got = self.stored.holder(content_hash)
        return got

    def add(self, pid: str, content_hash: int) -> None:
        self.run.setdefault(content_hash, pid)
        self.run_ids.add(pid)

    def committed(self, store: EventStore) -> None:
        """The run's pulkas so far are committed: from now on the store's index answers for them."""
        self.stored = store.heads()
        self.run.clear()
        self.run_ids.clear()


class _SeenIds:
    def __init__(self, seen: _Seen) -> None:
        self.seen = seen

    def __contains__(self, pid: object) -> bool:
        return pid in self.seen.run_ids or (self.seen.stored is not None and pid in self.seen.stored)


class _SeenHashes:
    def __init__(self, seen: _Seen) -> None:
        self.seen = seen

    def __contains__(self, h: object) -> bool:
        return isinstance(h, int) and self.seen.holder(h) is not None

    def snapshot(self) -> SortedHashes:
        """The hashes known now, sorted (what the import's workers get)."""
        from .store.heads import HeadIndex
        from .store.heads import SortedHashes

        stored = self.seen.stored
        base = stored.content_hashes().values if isinstance(stored, HeadIndex) else None
        run = list(self.seen.run)
        if base is None:
            return SortedHashes(run)
        import numpy as np

        return SortedHashes(np.concatenate([base, np.asarray(run, np.int64)]) if run else base)


class _Projecting(NamedTuple):
    """A pulka's projection rows made by a worker (``projected``), or its facts for the parent to project."""

    head: int
    projected: Projected | None
    facts: PulkaFacts | None


class _ToProject:
    """The projection rows of an import's pulkas, from the workers (or facts the parent projects), until
    they are written: ``waiting`` until their commit, ``ready`` after it (under the id stored)."""

    def __init__(self) -> None:
        self.waiting: dict[str, _Projecting] = {}
        self.ready: dict[str, _Projecting] = {}

    def add(self, pid: str, head: int, projected: Projected | None, facts: PulkaFacts | None) -> None:
        if facts is not None and facts.pulka != pid:
            facts = replace(facts, pulka=pid)
        self.waiting[pid] = _Projecting(head, projected, facts)

    def stored(self, pid: str, as_id: str | None = None) -> None:
        got = self.waiting.pop(pid, None)
        if got is None:
            return
        if as_id is not None and got.facts is not None:
            got = got._replace(facts=replace(got.facts, pulka=as_id))
        self.ready[as_id or pid] = got

    def drop(self, pid: str) -> None:
        self.waiting.pop(pid, None)

    def take(self) -> tuple[dict[str, pa.Table], dict[str, str], dict[str, int]]:
        """The ready pulkas' projection rows under their stored ids, their fingerprints and heads (what
        :func:`~.projections.store.refresh_built` writes); forgets them."""
        import numpy as np
        import pyarrow as pa

        from .projections.build import SCHEMAS
        from .projections.build import project_many
        from .projections.facts import fingerprint_of
        from .projections.store import TABLES

        ready, self.ready = self.ready, {}
        built = [pid for pid, r in ready.items() if r.projected is not None]
        others = [r.facts for r in ready.values() if r.projected is None and r.facts is not None]
        extra = project_many(others) if others else None  # a FactsError names the pulka, as before
        # the rows of consecutive pulkas of one part lie one after another: one slice a run, not a pulka
        runs: list[tuple[Projected, list[Rows]]] = []
        lengths: list[list[int]] = [[], [], []]
        for r in ready.values():
            p = r.projected
            if p is None:
                continue
            if runs and runs[-1][0].tables is p.tables and all(
                    run.start + run.length == span.start for run, span in zip(runs[-1][1], p.spans, strict=True)):
                runs[-1] = (runs[-1][0], [run._replace(length=run.length + span.length)
                                          for run, span in zip(runs[-1][1], p.spans, strict=True)])
            else:
                runs.append((p, list(p.spans)))
            for k in range(3):
                lengths[k].append(p.spans[k].length)
        tables: dict[str, pa.Table] = {}
        for k, name in enumerate(TABLES):
            if runs:
                data = pa.concat_tables([p.tables[k].slice(run[k].start, run[k].length) for p, run in runs])
                data = data.combine_chunks()
                ids = pa.array(built, pa.string()).take(pa.array(np.repeat(np.arange(len(built)), lengths[k])))
                data = data.set_column(0, SCHEMAS[name].field(0), ids)
            else:
                data = SCHEMAS[name].empty_table()
            tables[name] = data if extra is None else pa.concat_tables([data, extra[name]])
        prints: dict[str, str] = {}
        heads: dict[str, int] = {}
        for pid, r in ready.items():
            heads[pid] = r.head
            if r.projected is not None:
                prints[pid] = fingerprint_of(pid, r.projected.content_print)
            elif r.facts is not None:
                prints[pid] = r.facts.fingerprint()
        return tables, prints, heads
