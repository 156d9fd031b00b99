"""The files' side of a bulk import: read, validate, seal and audit record files, on every core.

Per file, a worker process reads and validates the text, seals each pulka's rows with the store's
hash chain (the chain's last value is the pulka's content hash), and audits the pulkas that are
not already stored, deriving their projection facts. :func:`prepared_files` hands the files' results
back strictly in file order to the parent (:mod:`preflog.importer.session`), which alone decides ids
and duplicates.

Small imports stay in the calling process: a pool's start-up (a fork server's fresh interpreter
importing the reader, the engine and the store) costs about as much as reading a megabyte. A worker
that dies stops the import with :class:`~preflog.workers.WorkerDied` naming the file not done.
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
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import NamedTuple
from typing import Protocol

from ..engine.corrections import CORRECTED
from ..engine.corrections import sheet_deals
from ..engine.findings import Finding
from ..errors import FileError
from ..model.events import Event
from ..model.events import PulkaStarted
from ..record.api import Piece
from ..record.api import gc_paused
from ..record.api import parse_piece
from ..record.api import read_any
from ..record.api import record_pieces
from ..record.errors import RecordError
from ..record.reader import Record
from ..store.chain import DEAL_CODE
from ..store.chain import StoredRow
from ..store.chain import content_hash
from ..store.pool import ARROW_POOL_ENV
from ..store.pool import BulkPool

if TYPE_CHECKING:
    import pyarrow as pa

    from ..projections.facts import PulkaFacts
    from ..store.heads import SortedHashes

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
    first_finding: tuple[int, int, str] | None = None
    """Where the audit's first finding is and what it says: the record line of its event (0 where the
    record has none: JSON), its deal and its message; ``None`` when the audit found nothing."""
    flagged_deals: int = 0
    """How many of its deals the audit's findings touch (:func:`tally_findings`)."""
    finding_codes: tuple[tuple[str, int], ...] = ()
    """Per finding code, how many deals it touches (:func:`tally_findings`)."""


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
    from ..store.sealed import SealedRows

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
    from ..model.columns import RowColumns
    from ..projections.build import project_many
    from ..projections.facts import FactsError
    from ..projections.facts import facts_of
    from ..store.sealed import seal_part

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
            findings = flagged = 0
            codes: tuple[tuple[str, int], ...] = ()
            first: tuple[int, int, str] | None = None
            # a hash stored before, or met earlier in this file, is a duplicate whatever the parent
            # decides about the files in between: no audit needed
            if run_audit and h not in known and h not in seen:
                from ..engine.replay import audit

                result = audit(events)
                stated: list[Finding] = []
                if rec.stated:   # a PPN file's stated values: reported, never projected (not events)
                    from ..record.ppn import stated_findings

                    stated = stated_findings(result, rec.stated)
                findings = len(result.findings) + len(stated)
                if result.findings or stated:
                    f0 = result.findings[0] if result.findings else stated[0]
                    line = f0.line or (rec.lines[f0.seq - 1] if 1 <= f0.seq <= len(rec.lines) else 0)
                    first = (line, f0.deal, f0.message)
                    flagged, codes = tally_findings(((f.code, f.deal) for f in result.findings), deals)
                audited.append((i, facts_of(file_pulka_id(stem, i, rec.id), events, result)))
            seen.add(h)
            pulkas.append(Prepared(rec.id, h, deals, len(events), findings, (), None, _plain_hash(events),
                                    first_finding=first, flagged_deals=flagged, finding_codes=codes))
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


def tally_findings(findings: Iterable[tuple[str, int]], deals: int) -> tuple[int, tuple[tuple[str, int], ...]]:
    """The import ledger's view of a pulka's audit ``findings`` (code, deal): how many of its ``deals`` they
    touch, and per code how many deals it touches (sorted by code). A finding on deal 0 (the rules, the
    table, the start: nothing replayed as recorded) touches every deal of the pulka.

    >>> tally_findings([("must_follow_suit", 3), ("score_mismatch", 3), ("must_follow_suit", 3),
    ...                 ("must_follow_suit", 5)], 8)
    (2, (('must_follow_suit', 2), ('score_mismatch', 1)))
    >>> tally_findings([("bad_rules", 0)], 8)
    (8, (('bad_rules', 8),))
    """
    by_code: dict[str, set[int]] = {}
    for code, deal in findings:
        by_code.setdefault(str(code), set()).add(deal)
    every = set(range(1, deals + 1))
    touched: set[int] = set()
    counts: list[tuple[str, int]] = []
    for code, on in sorted(by_code.items()):
        hit = every if 0 in on else {d for d in on if d > 0}
        touched |= hit
        counts.append((code, len(hit)))
    return min(len(touched), deals), tuple(counts)


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
PRELOAD = ("preflog.importer.prepare", "preflog.store.sealed", "preflog.engine.replay", "preflog.projections.build")
_SETTINGS: list[Any] = []  # a worker's (hash_every, run_audit, known), from _settle


def _settle(hash_every: int, run_audit: bool, known: Container[int]) -> None:
    """A worker's start: the import's settings; and Arrow's system allocator, as the parent's import uses
    (unless :data:`~.store.pool.ARROW_POOL_ENV` chooses one: see the workspace's ``import_memory_pool``)."""
    if not os.environ.get(ARROW_POOL_ENV):
        import pyarrow as pa

        from ..store.pool import arrow_pool

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
    from ..store.heads import SortedHashes
    from ..workers import run_ordered

    split = any(str(f) != "-" and _size(f) >= SPLIT_MIN_BYTES for f in files)
    n = workers if split else min(workers, len(files))
    frozen = known.snapshot() if hasattr(known, "snapshot") else SortedHashes(known)
    return run_ordered(work, units(files, failed), n, preload=PRELOAD, ahead=AHEAD_PER_WORKER,
                       initializer=_settle, initargs=(hash_every, run_audit, frozen), describe=_unit_name)
