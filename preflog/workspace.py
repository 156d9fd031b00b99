"""The workspace: one folder holding a pulka store and its projections, and the façade over it.

``Workspace`` wires the layers below (record files → store → replay/audit → projections → reports)
and holds no rules of its own; the CLI and the notebooks call it. A workspace is a folder (default
``./preflog-store``, or ``$PREFLOG_STORE``) with the Delta event table in ``events/`` and the
projections in ``projections/``.

This is the edge where operating-system errors become :class:`~preflog.errors.FileError` (one
line naming the file) and the façade's own refusals :class:`~preflog.errors.WorkspaceError`.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import ParamSpec
from typing import TypeVar

from .engine.replay import AuditResult
from .engine.replay import audit
from .errors import FileError
from .errors import WorkspaceError
from .model.events import Event
from .projections.facts import PulkaFacts
from .projections.facts import facts_of
from .record.api import RECORD_SUFFIXES
from .record.api import Limits
from .record.api import gc_paused
from .record.api import read_any
from .record.api import record_files
from .record.api import write_json
from .record.api import write_text
from .store.base import EventStore
from .store.chain import DEFAULT_HASH_EVERY
from .store.chain import StoredRow

if TYPE_CHECKING:
    from .importer import FileResult
    from .store.delta import DeltaStore

STORE_ENV = "PREFLOG_STORE"
DEFAULT_STORE = "preflog-store"
IMPORT_CHUNK = 2000  # pulkas per store commit on bulk import

_P = ParamSpec("_P")
_T = TypeVar("_T")


def default_store() -> Path:
    return Path(os.environ.get(STORE_ENV) or DEFAULT_STORE)


@contextmanager
def file_errors(path: str | Path | None = None) -> Iterator[None]:
    """Turn an OS error inside the block into a :class:`FileError` naming the file (else ``path``)."""
    try:
        yield
    except OSError as exc:
        raise FileError.of(exc, path) from exc


def _file_errors_at_root(method: Callable[_P, _T]) -> Callable[_P, _T]:
    """A workspace method whose OS errors name the file, else the workspace folder."""
    @functools.wraps(method)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return method(*args, **kwargs)
        except OSError as exc:
            root = args[0].root if args and isinstance(args[0], Workspace) else None
            raise FileError.of(exc, root) from exc
    return wrapper


@dataclass(slots=True)
class Loaded:
    """One pulka's log and where it came from (a record file, or the store)."""

    id: str
    events: list[Event]
    source: str


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
class Audited:
    loaded: Loaded
    result: AuditResult
    extra: dict[str, Any] = field(default_factory=dict)


class Workspace:
    """A store folder with its event table and projections."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else default_store()
        self._store: DeltaStore | None = None

    # --- store --------------------------------------------------------------------------
    @property
    def events_dir(self) -> Path:
        return self.root / "events"

    @_file_errors_at_root
    def store(self, create: bool = False) -> EventStore:
        """The event store; ``create`` makes an empty one if the folder holds none."""
        if self._store is None:
            if not create and not (self.events_dir / "_delta_log").exists():
                raise WorkspaceError(f"no preflog store at {self.root} (import something first, or pass --store)")
            from .store.delta import DeltaStore  # loaded on first use: import workers never need it

            self._store = DeltaStore(self.events_dir)
        return self._store

    def exists(self) -> bool:
        return (self.events_dir / "_delta_log").exists()

    # --- import -------------------------------------------------------------------------
    @_file_errors_at_root
    def import_paths(self, paths: Sequence[str | Path], progress: Callable[[int, int], None] | None = None,
                     run_audit: bool = True, workers: int | None = None) -> list[ImportItem]:
        """Import record files and folders. A file with an error imports nothing; the others still do.

        Each pulka is stored under its ``[Id]`` tag, else the file name (``-2``, ``-3`` … for further
        pulkas of one file). The same content already stored is a no-op (``duplicate``).
        ``workers``: processes that read, seal and audit the files (default: every core); small
        imports stay in this process. The result is the same for any number of workers.
        """
        from .importer import prepared_files

        Limits.from_env()  # a malformed size limit is one error for the run, not one per file
        files: list[Path | str] = []
        for p in paths:
            files.extend(["-"] if str(p) == "-" else record_files([p]))
        # The store is created only when something is appended: a run of bad files leaves no trace.
        if self.exists():
            store = self.store()
            hash_every = store.hash_every
            known_hash = {info.content_hash: info.pulka for info in store.pulkas()}
        else:
            hash_every, known_hash = DEFAULT_HASH_EVERY, {}
        known_ids = set(known_hash.values())
        items: list[ImportItem] = []
        n_workers = workers if workers is not None else (os.cpu_count() or 1)
        results = prepared_files(files, hash_every, run_audit, known_hash, n_workers)
        try:
            with gc_paused():  # millions of acyclic rows and facts in flight: see gc_paused
                self._take_files(results, len(files), known_hash, known_ids, items, progress)
        finally:
            results.close()  # stops the workers now if the import failed
        return items

    def _take_files(self, results: Iterator[FileResult], n_files: int, known_hash: dict[int, str],
                    known_ids: set[str], items: list[ImportItem], progress: Callable[[int, int], None] | None
                    ) -> None:
        """The parent's half of :meth:`import_paths`: ids, duplicates, commits and projections, file by
        file in file order."""
        from dataclasses import replace

        from .importer import file_pulka_id
        from .importer import source_stem

        pending: list[tuple[str, list[StoredRow]]] = []
        facts: dict[str, PulkaFacts] = {}
        for n_done, fr in enumerate(results, 1):
            src = fr.source
            if fr.error:
                items.append(ImportItem(src, status="error", error=fr.error))
            stem = source_stem(src)
            for i, pp in enumerate(fr.pulkas):
                h = pp.content_hash
                item = ImportItem(src, deals=pp.deals, events=pp.events)
                if h in known_hash:
                    item.pulka, item.status = known_hash[h], "duplicate"
                    items.append(item)
                    continue
                pid = file_pulka_id(stem, i, pp.record_id)
                if pid in known_ids:
                    pid = f"{pid}-{h & 0xFFFFFF:06x}"
                known_ids.add(pid)
                known_hash[h] = pid
                item.pulka = pid
                if pp.facts is not None:
                    item.findings = pp.findings
                    facts[pid] = pp.facts if pp.facts.pulka == pid else replace(pp.facts, pulka=pid)
                pending.append((pid, pp.rows))
                items.append(item)
            if len(pending) >= IMPORT_CHUNK:
                self._flush(pending, facts)
            if progress:
                progress(n_done, n_files)
        self._flush(pending, facts)

    def _flush(self, pending: list[tuple[str, list[StoredRow]]], facts: dict[str, PulkaFacts]) -> None:
        """One store commit for the pulkas gathered so far (rows sealed by the importer), then their
        projections: a chunk at a time, so a big import never holds every pulka's facts."""
        if pending:
            store = self.store(create=True)
            store.append_sealed(pending)
            pending.clear()
        if facts:
            self.refresh_projections(facts)
            facts.clear()

    # --- loading ------------------------------------------------------------------------
    @_file_errors_at_root
    def ids(self) -> list[str]:
        return [i.pulka for i in self.store().pulkas()] if self.exists() else []

    @_file_errors_at_root
    def load(self, target: str | None) -> list[Loaded]:
        """A record file's pulkas, one stored pulka by id, or every stored pulka (``None``).

        A path that exists is read as a record file (a folder, FIFO or device is refused by name);
        a target that names both an existing path and a stored pulka is refused as ambiguous."""
        if target is None:
            return self._load_all()
        path = Path(target)
        if target == "-" or path.exists() or path.is_symlink():
            if target != "-" and self.exists() and self.store().last_seq(target) > 0:
                raise WorkspaceError(
                    f"{target!r} is ambiguous: it names both a file here and a pulka stored in {self.root} "
                    f"(write ./{target} for the file; for the stored pulka, run from another folder)"
                    if os.sep not in target else
                    f"{target!r} is ambiguous: it names both a file and a pulka stored in {self.root}")
            with file_errors(target):
                records = read_any(target)
            stem = path.stem
            return [Loaded(r.id or (stem if i == 0 else f"{stem}-{i + 1}"), list(r.events), target)
                    for i, r in enumerate(records)]
        if not self.exists() and (path.suffix.lower() in RECORD_SUFFIXES or os.sep in target):
            raise FileError(target, f"no such file (and no preflog store at {self.root} to hold a pulka of that id)")
        return [self._load_stored(target)]

    def _load_stored(self, pulka: str) -> Loaded:
        events = self.store().read(pulka)
        if not events:
            raise WorkspaceError(f"no pulka {pulka!r} in {self.root} and no such file "
                                 f"(stored: {', '.join(self.ids()[:10]) or 'none'})")
        return Loaded(pulka, events, str(self.root))

    def _load_all(self) -> list[Loaded]:
        """Every stored pulka in one scan of the event table (not one scan per pulka)."""
        from .model.events import from_row

        out: list[Loaded] = []
        current: Loaded | None = None
        for batch in self.store().read_rows():
            for pulka, _seq, code, player, card, value, payload in batch:
                if current is None or current.id != pulka:
                    current = Loaded(pulka, [], str(self.root))
                    out.append(current)
                current.events.append(from_row(code, player, card, value, payload))
        return out

    @_file_errors_at_root
    def audit(self, target: str | None, strict: bool = False) -> list[Audited]:
        return [Audited(ld, audit(ld.events, strict=strict)) for ld in self.load(target)]

    @_file_errors_at_root
    def export(self, pulka: str, fmt: str = "text") -> str:
        events = self._load_stored(pulka).events  # a stored pulka only, never a file of that name
        if fmt == "json":
            return write_json(events)
        if fmt == "text":
            return write_text(events)
        raise WorkspaceError(f"unknown export format {fmt!r} (text or json)")

    # --- projections and reports ----------------------------------------------------------
    @_file_errors_at_root
    def refresh_projections(self, changed: dict[str, PulkaFacts]) -> None:
        from .projections.store import refresh

        refresh(self.root, changed)

    @_file_errors_at_root
    def rebuild_projections(self) -> int:
        from .projections.store import rebuild

        facts = [facts_of(a.loaded.id, a.loaded.events, a.result) for a in self.audit(None)]
        rebuild(self.root, facts)
        return len(facts)

    @_file_errors_at_root
    def connect(self, *, sandbox: bool = False) -> Any:
        """A DuckDB connection over the views; ``sandbox``: over the views only, with no file access of
        its own (what ``preflog sql`` gives a user's query; see :mod:`preflog.reports.db`)."""
        from .projections.store import TABLES
        from .projections.store import table_files
        from .reports.db import connect
        from .store.base import DamagedFileError
        from .store.base import parquet_damage

        if self.exists():  # a damaged file is one line naming it, not a reader's traceback later on
            self.store().check_files()
        for table in TABLES:
            for f in table_files(self.root, table):
                problem = parquet_damage(f)
                if problem is not None:
                    raise DamagedFileError(f, problem, projection=True)
        files = self._store.files if self._store is not None else (
            self.store().files if self.exists() else None)
        return connect(self.root, events=files, sandbox=sandbox)


def simulate_to(*, rules: str, pulkas: int, players: int, pool: int, seed: int, paper: bool, fmt: str,
                output: Path | None, workspace: Workspace | None, workers: int, stdout: Any) -> int:
    """Bots play ``pulkas`` pulkas; each goes to a record file in ``output``, into ``workspace``'s
    store, or (neither given) as records to ``stdout``. Returns the number of pulkas."""
    from .sim import simulate_many

    if fmt not in ("text", "json"):
        raise WorkspaceError(f"unknown record format {fmt!r} (text or json)")
    spec = {"rules_spec": rules, "players": players, "pool": pool, "paper": paper}
    if output is not None:
        with file_errors(output):
            output.mkdir(parents=True, exist_ok=True)
    batch: list[tuple[str, int, list[Event]]] = []
    n = 0
    for index, events in simulate_many([spec], pulkas, seed, workers=workers or None):
        pid = f"sim-{rules.replace('+', '-')}-{players}p-{seed}-{index:05d}"
        n += 1
        if workspace is not None:
            batch.append((pid, 0, events))
            if len(batch) >= IMPORT_CHUNK:
                workspace.store(create=True).append_many(batch)
                batch.clear()
        elif output is not None:
            suffix = ".json" if fmt == "json" else ".pref"
            text = write_json(events) if fmt == "json" else write_text(events)
            with file_errors(output / f"{pid}{suffix}"):
                (output / f"{pid}{suffix}").write_text(text, encoding="utf-8")
        else:
            stdout.write(write_json(events) if fmt == "json" else write_text(events) + "\n")
    if workspace is not None and batch:
        workspace.store(create=True).append_many(batch)
    if workspace is not None:
        workspace.rebuild_projections()
    return n
