"""The parent's side of a bulk import: an :class:`ImportSession` (what ``Workspace.import_each`` runs)
takes the files' results from :func:`~preflog.importer.prepare.prepared_files` strictly in file order and
alone decides ids and duplicates, commits to the store and refreshes the projections, so what is stored
does not depend on the number of workers.

A worker that dies stops the import: the pulkas committed before it are stored whole (each commit is
atomic), nothing of its file or of the files after it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import AbstractContextManager
from contextlib import nullcontext
from contextlib import suppress
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING
from typing import NamedTuple
from typing import Protocol

from ..errors import FileError
from ..model.events import PulkaStarted
from ..model.events import Row
from ..model.events import from_row
from ..record.api import RECORD_SUFFIXES
from ..record.api import Limits
from ..record.api import gc_paused
from ..record.api import record_files
from ..store.base import EventStore
from ..store.base import Heads
from ..store.base import free_id
from ..store.chain import DEFAULT_HASH_EVERY
from ..store.chain import StoredRow
from ..store.chain import content_hash
from ..store.ledger import LedgerEntry
from ..store.ledger import append_entry
from ..store.ledger import new_import_id
from ..store.pool import BulkPool
from ..store.pool import bulk_memory_pool
from .prepare import FileResult
from .prepare import Projected
from .prepare import Rows
from .prepare import file_pulka_id
from .prepare import prepared_files
from .prepare import source_stem

if TYPE_CHECKING:
    import pyarrow as pa
    from filelock import ReadWriteLock

    from ..projections.facts import PulkaFacts
    from ..store.heads import SortedHashes


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
    first_finding: tuple[int, int, str] | None = None
    """The audit's first finding: its record line (0: none, a JSON record), deal and message."""
    audited: bool = False
    """Whether its deals were replayed by the audit on import (a duplicate's were not)."""
    flagged_deals: int = 0
    """How many of its deals the audit's findings touch."""
    finding_codes: tuple[tuple[str, int], ...] = ()
    """Per finding code, how many of its deals it touches."""


@dataclass(slots=True)
class ImportCounts:
    """What :meth:`Workspace.import_each` did, in numbers: files named, pulkas imported and already
    stored, files refused; deals, events and findings of the pulkas imported. ``skipped``: per folder
    named that held record files, what else it held (a suffix other than .pref, .txt, .json, .pgn and .ppn; a
    symbolic link; a FIFO …), by path (a folder without record files is an error row naming them)."""

    files: int = 0
    imported: int = 0
    duplicate: int = 0
    errors: int = 0
    deals: int = 0
    events: int = 0
    findings: int = 0
    skipped: dict[str, list[str]] = field(default_factory=dict, repr=False)  # a folder of photos: no flood
    # the ledger's counts (the ledger's row says them: left out of the repr)
    deals_flagged: int = field(default=0, repr=False)
    """Deals of the pulkas imported that the audit's findings touch."""
    deals_unaudited: int = field(default=0, repr=False)
    deals_duplicate: int = field(default=0, repr=False)
    by_code: dict[str, int] = field(default_factory=dict, repr=False)
    """Per finding code, the deals of the pulkas imported it touches."""
    refused: list[tuple[str, str]] = field(default_factory=list, repr=False)
    """Each refused file (or path) and its error line, for the ledger."""
    ledger: LedgerEntry | None = field(default=None, repr=False)
    """The import's row of the store's import ledger (:mod:`preflog.store.ledger`), once written."""

    def add(self, item: ImportItem) -> None:
        if item.status == "imported":
            self.imported += 1
            self.deals += item.deals
            self.events += item.events
            self.findings += item.findings
            if not item.audited:
                self.deals_unaudited += item.deals
            self.deals_flagged += item.flagged_deals
            for code, k in item.finding_codes:
                self.by_code[code] = self.by_code.get(code, 0) + k
        elif item.status == "duplicate":
            self.duplicate += 1
            self.deals_duplicate += item.deals
        else:
            self.errors += 1
            self.refused.append((item.source, item.error))

    def entry(self, import_id: str, at: datetime, sources: Sequence[str], complete: bool = True,
              events_version: int | None = None) -> LedgerEntry:
        """The counts as a row of the import ledger."""
        audited = self.deals - self.deals_unaudited
        return LedgerEntry(import_id, at, complete, events_version, self.files, self.imported, self.duplicate,
                           self.errors, audited - self.deals_flagged, self.deals_flagged, self.deals_unaudited,
                           self.deals_duplicate, dict(self.by_code), list(self.refused), list(sources))


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
                 report: Callable[[str, int, int | None], None] | None = None,
                 commit_lock: AbstractContextManager[object] | None = None) -> None:
        self.target = target
        self.commit_lock: AbstractContextManager[object] = commit_lock if commit_lock is not None else nullcontext()
        """Held around each store commit and projection write, never while files are read and audited (a
        server's lock: its other requests wait for a commit, not for a parse)."""
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
            progress: Callable[[int, int], None] | None = None,
            names: Mapping[str, str] | None = None) -> ImportCounts:
        """Import ``paths`` (record files, folders, ``-``), handing each :class:`ImportItem` to ``on_item`` once
        its fate is final (see :meth:`Workspace.import_each`); ``progress(files done, files)``.

        At the end (also when it fails after a commit) the import's row goes to the store's import ledger
        (:mod:`preflog.store.ledger`; not when no store exists: a run of bad files leaves no trace) and is
        the counts' ``ledger``. ``names``: how the ledger names a path (an upload's temporary file)."""
        Limits.from_env()  # a malformed size limit is one error for the run, not one per file
        import_id, at = new_import_id()
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
                with self.commit_lock:
                    self.target.heal_projections(reading=False)  # what an earlier, interrupted import left unprojected
        except BaseException:
            if self.stored:  # the pulkas committed before the failure are stored: the ledger says so
                with suppress(Exception):  # the failure itself is what the caller must hear
                    self._keep(counts, paths, names, import_id, at, complete=False)
            raise
        finally:
            results.close()  # stops the workers now if the import failed
            if self._importing is not None:
                from ..projections.store import import_ends

                import_ends(self._importing)
                self._importing = None
        self._keep(counts, paths, names, import_id, at)
        return counts

    def _keep(self, counts: ImportCounts, paths: Sequence[str | Path], names: Mapping[str, str] | None,
              import_id: str, at: datetime, complete: bool = True) -> None:
        """Append the import's row to the store's ledger (when there is a store) and set ``counts.ledger``."""
        if not self.target.exists():
            return
        named = names or {}

        def shown(text: str) -> str:
            for path, name in named.items():
                text = text.replace(path, name)
            return text

        entry = counts.entry(import_id, at, [shown(str(p)) for p in paths], complete,
                             self.target.store().version())
        entry = replace(entry, refused=[(shown(src), shown(err)) for src, err in entry.refused])
        append_entry(self.target.root, entry)
        counts.ledger = entry

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
                    item.findings, item.first_finding = pp.findings, pp.first_finding
                    item.audited, item.flagged_deals, item.finding_codes = True, pp.flagged_deals, pp.finding_codes
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
        pulkas are stored all the same. All under :attr:`commit_lock`."""
        with self.commit_lock:
            self._commit(last)

    def _commit(self, last: bool) -> None:
        pending, todo = self.pending, self.todo
        if pending:
            batches = [(p.pulka, p.rows) for p in pending if p.pulka]
            if batches:
                self._report(STORING, self.stored, None)
            store = self.target.store(create=True)
            if self._importing is None:
                from ..projections.store import import_begins

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
                    item.pulka, item.status, item.findings, item.first_finding = got.pulka, "duplicate", 0, None
                    item.audited, item.flagged_deals, item.finding_codes = False, 0, ()
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
    372 / 450 MB against 257 / 277 MB. The workers get the same allocator
    (:func:`~preflog.importer.prepare._settle`)."""
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
        from ..store.heads import HeadIndex
        from ..store.heads import SortedHashes

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

        from ..projections.build import SCHEMAS
        from ..projections.build import project_many
        from ..projections.facts import fingerprint_of
        from ..projections.store import TABLES

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
