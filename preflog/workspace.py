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
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import AbstractContextManager
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import ParamSpec
from typing import TypeVar

from .engine.findings import Finding
from .engine.replay import AuditResult
from .engine.replay import audit
from .errors import FileError
from .errors import NoStoreError
from .errors import NotStoredError
from .errors import WorkspaceError
from .importer import READING as READING  # the import's stages and items: re-exported, their home is the importer
from .importer import STORING as STORING
from .importer import ImportCounts as ImportCounts
from .importer import ImportItem as ImportItem
from .importer import ImportSession
from .importer import no_record_file as no_record_file
from .importer import skipped_names as skipped_names
from .model.events import Event
from .model.events import PulkaStarted
from .model.events import from_row
from .projections.facts import PulkaFacts
from .projections.facts import facts_of
from .record.api import RECORD_SUFFIXES
from .record.api import read_any
from .record.api import write_json
from .record.api import write_text
from .record.reader import Stated
from .store.base import EventStore
from .store.base import IntegrityProblem
from .store.chain import DEFAULT_HASH_EVERY
from .store.chain import StoredRow
from .store.ledger import LedgerEntry
from .store.ledger import read_entries

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

    from .analysis.table import BuildResult
    from .store.delta import DeltaStore
    from .store.logdamage import Repaired

STORE_ENV = "PREFLOG_STORE"
KEY_ENV = "PREFLOG_KEY"            # the club's secret (text): commits are signed and verify checks them
KEY_FILE_ENV = "PREFLOG_KEY_FILE"  # or a file holding it
DEFAULT_STORE = "preflog-store"

_P = ParamSpec("_P")
_T = TypeVar("_T")


def default_store() -> Path:
    return Path(os.environ.get(STORE_ENV) or DEFAULT_STORE).expanduser()


def club_key() -> bytes | None:
    """The club's signing key: ``$PREFLOG_KEY``, else the contents of ``$PREFLOG_KEY_FILE``, else none."""
    text = os.environ.get(KEY_ENV)
    if text:
        return text.encode()
    path = os.environ.get(KEY_FILE_ENV)
    if path:
        from .store.keyed import read_key_file  # a regular file of a few KB at most: never a FIFO or a device

        return read_key_file(path)
    return None


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
    lines: tuple[int, ...] = ()
    """For a text record file: the line each event was read from, by position (event ``seq`` is at
    ``lines[seq - 1]``; findings point into the file)."""
    from_file: bool = False
    """Read from a record file (``source`` is its path, ``-`` for standard input), not from the store."""
    cols: tuple[int, ...] = ()
    """For a PPN file: the column of the field each event was read from (by position, as ``lines``)."""
    stated: tuple[Stated, ...] = ()
    """For a PPN file: what its lines state beside the events, checked by the audit (``Record.stated``)."""

    def line_of(self, seq: int) -> int | None:
        """The record line of event ``seq`` (the store's numbering: 1 = the first event) when the pulka was
        read from a text record, else ``None`` (a stored pulka, a JSON record, a seq past the log's end)."""
        line = self.lines[seq - 1] if 1 <= seq <= len(self.lines) else 0
        return line or None

    def where(self, seq: int, finding: Finding | None = None) -> str | None:
        """``file:line`` of event ``seq`` when the pulka was read from a text record, else ``None``;
        ``file:line:column`` where the column is known (a PPN field, or the stated field ``finding`` is
        about)."""
        if finding is not None and finding.line:
            return f"{self.source}:{finding.line}:{finding.column}"
        line = self.line_of(seq)
        col = self.cols[seq - 1] if 1 <= seq <= len(self.cols) else 0
        return (f"{self.source}:{line}:{col}" if col else f"{self.source}:{line}") if line else None


@dataclass(slots=True)
class Audited:
    loaded: Loaded
    result: AuditResult
    extra: dict[str, Any] = field(default_factory=dict)


def audit_loaded(ld: Loaded, strict: bool = False) -> Audited:
    """The audit of a loaded pulka: its events replayed, and what a PPN file states beside them checked
    against that replay (findings located at the stated field)."""
    result = audit(ld.events, strict=strict)
    if ld.stated:
        from .record.ppn import stated_findings

        result.findings.extend(stated_findings(result, ld.stated))
    return Audited(ld, result)


Report = Callable[[str, int, int | None], None]
"""``report(stage, done, total)``: how far a long step is (``total`` None while unknown)."""

class Workspace:
    """A store folder with its event table and projections.

    ``progress``, when set, is told how far the long steps are (``report(stage, done, total)``): an import's
    record text read (:data:`READING`, in bytes) and its pulkas stored (:data:`STORING`), auditing every
    pulka, projection rebuilds, ``verify``'s hash chains; the CLI draws it as progress bars."""

    def __init__(self, root: str | Path | None = None, progress: Report | None = None) -> None:
        self.root = Path(root).expanduser() if root is not None else default_store()  # `~/Преферанс` too
        self.progress = progress
        self._store: DeltaStore | None = None

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r})"

    def _report(self, stage: str, done: int, total: int | None) -> None:
        if self.progress is not None:
            self.progress(stage, done, total)

    # --- store --------------------------------------------------------------------------
    @property
    def events_dir(self) -> Path:
        return self.root / "events"

    @_file_errors_at_root
    def store(self, create: bool = False) -> EventStore:
        """The event store; ``create`` makes an empty one if the folder holds none."""
        if self._store is None:
            if not create and not (self.events_dir / "_delta_log").exists():
                raise NoStoreError(self.root)
            from .store.delta import DeltaStore  # loaded on first use: import workers never need it

            self._store = DeltaStore(self.events_dir, key=club_key())
        return self._store

    def exists(self) -> bool:
        return (self.events_dir / "_delta_log").exists()

    @_file_errors_at_root
    def unchecked_signatures(self) -> str | None:
        """What a verify without the key could not check, in one sentence: the store is keyed (its seal's
        fingerprint) and no key is given, so its signatures went unchecked; None when a key is given or the
        store is not keyed."""
        if not self.exists() or club_key() is not None:
            return None
        from .store.keyed import store_seal

        self.store()
        assert self._store is not None
        sealed = store_seal(self.events_dir, self._store.history)
        if not sealed:
            return None
        return (f"this store is keyed (fingerprint {sealed}) and no key is given: its signatures went unchecked "
                "(set PREFLOG_KEY or PREFLOG_KEY_FILE to check them)")

    @_file_errors_at_root
    def repair(self) -> Repaired:
        """Move the damaged files of the event table's log aside and rebuild its checkpoint from the
        commits (:func:`~preflog.store.logdamage.repair`); when a cut last commit was moved aside, the
        projections are rebuilt too (they were built at the version it held)."""
        if not self.exists():
            raise NoStoreError(self.root)
        from .store.logdamage import repair

        self._store = None   # opened again after the repair
        done = repair(self.events_dir, club_key())
        if done.dropped is not None and done.checkpoint is not None:
            self.rebuild_projections()
        return done

    @_file_errors_at_root
    def check_key(self) -> None:
        """Refuse to write with a key that is not the store's (a wrong one, none for a keyed store, one for
        a store sealed without a key): :class:`~preflog.store.keyed.KeyMismatchError`, one line naming
        both fingerprints, before anything is read or written. A new store takes any key."""
        if not self.exists():
            return
        from .store.keyed import check_writer_key

        self.store()
        assert self._store is not None
        check_writer_key(self.events_dir, club_key(), self._store.history)

    def projected(self) -> bool:
        """Whether the folder holds projections (a folder of projections alone is read by the reports)."""
        return (self.root / "projections").is_dir()

    # --- import -------------------------------------------------------------------------
    @_file_errors_at_root
    def import_paths(self, paths: Sequence[str | Path], progress: Callable[[int, int], None] | None = None,
                     run_audit: bool = True, workers: int | None = None,
                     commit_lock: AbstractContextManager[object] | None = None,
                     names: Mapping[str, str] | None = None) -> list[ImportItem]:
        """Import record files and folders. A file with an error imports nothing; the others still do. A path
        that does not exist, and a folder holding no record file, is an error item of its own (handed out
        first); what folders held besides record files is in :attr:`ImportCounts.skipped`.

        Each pulka is stored under its ``[Id]`` tag, else the file name (``-2``, ``-3`` … for further
        pulkas of one file). The same content already stored is a no-op (``duplicate``).
        ``workers``: processes that read, seal and audit the files (default: every core); small
        imports stay in this process. The result is the same for any number of workers.
        Every pulka's :class:`ImportItem`, in file order: :meth:`import_each` without keeping them is
        what a big import should call.
        """
        items: list[ImportItem] = []
        self.import_each(paths, items.append, progress, run_audit, workers, commit_lock, names)
        return items

    @_file_errors_at_root
    def import_each(self, paths: Sequence[str | Path], on_item: Callable[[ImportItem], None] | None = None,
                    progress: Callable[[int, int], None] | None = None, run_audit: bool = True,
                    workers: int | None = None,
                    commit_lock: AbstractContextManager[object] | None = None,
                    names: Mapping[str, str] | None = None) -> ImportCounts:
        """:meth:`import_paths`, handing each :class:`ImportItem` to ``on_item`` as its file is done (in
        file order; a pulka stored under another id at commit time is handed out after that commit) and
        keeping none of them: what it returns are the counts. The parent's memory stays flat in the number
        of pulkas (the ids and content hashes already stored are looked up in the store's compact head
        index, see :mod:`preflog.store.heads`). ``commit_lock`` is held around each commit only (files are
        read and audited without it). The work is an :class:`~preflog.importer.ImportSession`'s. Its row of
        the import ledger (:meth:`ledger`) is the counts' ``ledger``; ``names``: how the ledger names a path."""
        self.check_key()
        return ImportSession(self, run_audit, workers, self.progress, commit_lock).run(paths, on_item, progress,
                                                                                       names)

    @_file_errors_at_root
    def ledger(self) -> list[LedgerEntry]:
        """The store's import ledger: one entry an import, oldest first (:mod:`preflog.store.ledger`)."""
        if not self.exists():
            raise NoStoreError(self.root)
        return read_entries(self.root)

    # --- loading ------------------------------------------------------------------------
    @_file_errors_at_root
    def ids(self) -> list[str]:
        """The stored pulkas' ids; a folder holding no store is :class:`NoStoreError` (a mistyped folder
        is said, not answered with an empty list)."""
        return [i.pulka for i in self.store().pulkas()]

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
            if not records:  # refused as import refuses it: an empty file is not a clean pulka
                raise FileError(target, 'holds no pulka (expected tag pairs such as [Players "…"] followed by deals)')
            stem = path.stem
            return [Loaded(r.id or (stem if i == 0 else f"{stem}-{i + 1}"), list(r.events), target, r.lines,
                           from_file=True, cols=r.cols, stated=r.stated) for i, r in enumerate(records)]
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
        loaded = self.load(target)
        out = []
        for ld in loaded:
            out.append(audit_loaded(ld, strict))
            self._report("auditing", len(out), len(loaded))
        return out

    @_file_errors_at_root
    def export(self, pulka: str, fmt: str = "text") -> str:
        """The canonical record of a stored pulka, with its id as the ``[Id]`` tag (so an import of the
        record stores it under the same id)."""
        events = with_id(self._load_stored(pulka).events, pulka)  # a stored pulka only, never a file of that name
        if fmt == "json":
            return write_json(events)
        if fmt == "text":
            return write_text(events)
        if fmt == "ppn":
            from .record.ppn import write_ppn

            return write_ppn(events)
        raise WorkspaceError(f"unknown export format {fmt!r} (text, json or ppn)")

    # --- projections and reports ----------------------------------------------------------
    @_file_errors_at_root
    def refresh_projections(self, changed: dict[str, PulkaFacts], heads: dict[str, int] | None = None, *,
                            built: tuple[dict[str, pa.Table], dict[str, str]] | None = None) -> None:
        """Project ``changed`` pulkas; ``heads``: the content hash of the events each one's facts
        came from (so a later :meth:`heal_projections` knows they are current). ``built``: projection
        rows made already (an import's workers) and their pulkas' fingerprints, written as they are."""
        from .projections.store import refresh
        from .projections.store import refresh_built

        if changed or built is None:
            refresh(self.root, changed, heads=heads)
        if built is not None:
            refresh_built(self.root, built[0], built[1], heads=heads)

    @_file_errors_at_root
    def rebuild_projections(self) -> int:
        from .projections.store import rebuild

        store = self.store()
        version = store.version()
        heads = {i.pulka: i.content_hash for i in store.pulkas()}
        facts = [facts_of(a.loaded.id, a.loaded.events, a.result) for a in self.audit(None)]
        self._report("writing projections", 0, None)
        rebuild(self.root, facts, heads=heads, events_version=version)
        return len(facts)

    @_file_errors_at_root
    def heal_projections(self, reading: bool = True) -> list[str]:
        """Projections are derived state: bring them level with the event table and return the pulka
        ids (re)built.

        Cheap when nothing is amiss: the manifest names the table version it was last found complete
        at; if that is the current version, nothing is pending and no listed file is missing, nothing
        is read. Else the stored heads are compared with the ones each projection was built from,
        and every pulka that is missing (an import killed after its commit), pending (a refresh
        killed midway), stale or in a segment that lost a file is replayed and projected again;
        pulkas the table no longer holds are dropped. Called on import and before every read of the
        projections (stats, report, sql). A read (``reading``) while another import is in progress
        leaves its pulkas to it: that import projects them, and heals the rest, when it ends (or, if it
        is killed, the next read does)."""
        from .projections.facts import FactsError
        from .projections.store import import_running
        from .projections.store import lag
        from .projections.store import refresh

        if not self.exists() or (reading and import_running(self.root)):
            return []
        store = self.store()
        version = store.version()
        self._check_not_rolled_back(version)
        need = lag(self.root, version, lambda: {i.pulka: i.content_hash for i in store.pulkas()})
        if need.current:
            return []
        facts: dict[str, PulkaFacts] = {}
        if need.stale:
            self._report("projecting", 0, len(need.stale))
            for n, (pid, rows) in enumerate(store.pulka_rows(list(need.stale)), 1):
                events = [from_row(*r) for r in rows]
                try:
                    facts[pid] = facts_of(pid, events, audit(events))
                except FactsError:
                    continue  # cannot be projected (verify names it); the others still are
                finally:
                    self._report("projecting", n, len(need.stale))
            self._report("writing projections", 0, None)
        refresh(self.root, facts, removed=need.gone, heads=need.heads, force=need.stale,
                events_version=version if len(facts) == len(need.stale) else None)
        return sorted(facts)

    def _check_not_rolled_back(self, version: int | None) -> None:
        """The projections witness the table version they were built at: a table older than that lost
        commits (a deleted ``_delta_log`` file). Healing would then drop their pulkas from the
        projections too, so it is refused."""
        from .projections.store import events_version

        built = events_version(self.root)
        if version is not None and built is not None and version < built:
            raise WorkspaceError(f"the event table {self.events_dir} is at version {version}, but its projections "
                                 f"were built at version {built}: commits are missing from _delta_log "
                                 "(run `preflog verify`; restore the log from a backup)")

    @_file_errors_at_root
    def analyze_all(self, workers: int | None = None,
                    progress: Callable[[int, int], None] | None = None, passes: bool = False) -> BuildResult:
        """Bring the ``play_analysis`` tables (:mod:`preflog.analysis.table`) level with the store: the
        double-dummy analysis of every new or changed pulka, on ``workers`` processes (default: all cores);
        ``passes``: judge every first pass in an auction too (docs/skill.md; slow)."""
        from .analysis.table import update

        store = self.store()
        heads = {i.pulka: i.content_hash for i in store.pulkas()}
        n = workers if workers is not None else (os.cpu_count() or 1)
        return update(self.root, heads, lambda ids: store.pulka_rows(ids) if ids else iter(()), n, progress,
                      passes)

    @_file_errors_at_root
    def analysis_report(self) -> list[dict[str, Any]]:
        """The per-player report of the ``play_analysis`` tables (empty before ``analyze --all``)."""
        from .analysis.table import report_rows

        self.store()   # a folder that holds no store is refused as everywhere
        return report_rows(self.root)

    @_file_errors_at_root
    def skill(self, player: str | None = None, history: bool = False) -> pd.DataFrame:
        """``stats("skill")``: luck and play per player, the two ratings and the decisions with their
        intervals, from the ``play_analysis`` tables (empty before ``analyze --all``; docs/skill.md).
        ``history``: each rating after every pulka instead."""
        from .analysis.skill_stats import skill_history
        from .analysis.skill_stats import skill_report

        self.store()   # a folder that holds no store is refused as everywhere
        if history:
            return skill_history(self.root)
        df = skill_report(self.root)
        if player is not None:
            if player not in set(df["player"]):
                raise NotStoredError("player", player, sorted(set(df["player"])))
            df = df[df["player"] == player].reset_index(drop=True)
        return df

    @_file_errors_at_root
    def verify(self, deep: bool = False) -> list[IntegrityProblem]:
        """The event table's problems (:meth:`EventStore.verify`), then the projections' against it:
        each pulka projected from exactly the stored events, nothing pending, no projection file
        missing or changed since it was written. ``deep``: also replay every pulka and compare each
        projection row with the one its events give (kind ``derived``): a value edited together with its
        manifest's SHA-256 shows only so."""
        from .projections.store import check
        from .projections.store import check_derived

        store = self.store()
        problems = list(store.verify(lambda done, total: self._report("checking hash chains", done, total)))
        if any(p.kind in ("file", "unreadable") for p in problems):
            return problems  # damaged data files or log: nothing else can be read to be checked
        try:
            self._check_not_rolled_back(store.version())
        except WorkspaceError as exc:
            problems.append(IntegrityProblem("", 0, "log", exc.message))
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            pass  # an unreadable manifest: the projections' check below names it
        heads = {i.pulka: i.content_hash for i in store.pulkas()}
        self._report("checking projections", 0, None)
        problems.extend(IntegrityProblem(pid, 0, "projection", detail) for pid, detail in check(self.root, heads))
        if deep:
            self._report("replaying every pulka", 0, None)
            from .projections.facts import FactsError

            facts: list[PulkaFacts] = []
            for a in self.audit(None):
                try:
                    facts.append(facts_of(a.loaded.id, a.loaded.events, a.result))
                except FactsError:
                    continue  # cannot be projected: the projections check names it as not projected
            problems.extend(IntegrityProblem(pid, 0, "derived", detail)
                            for pid, detail in check_derived(self.root, facts))
        return problems

    @_file_errors_at_root
    def stats(self, report: str, *, progress: Report | None = None, **options: Any) -> pd.DataFrame:
        """A report of ``preflog stats`` as a pandas DataFrame: ``report`` is ``players``,
        ``players_by_level``, ``contracts``, ``variants`` or ``skill`` (:meth:`skill`: its option is
        ``player``); ``options`` the filters (``player``,
        ``preset``, ``date_from``, ``date_to``, ``pulka``) and, for ``contracts``, ``by``. The projections
        are brought level with the events first (:meth:`connect`): ``progress`` (else the workspace's own)
        is told how far that is when it has pulkas to project (the first call after an import of another
        version, a deleted ``projections/`` folder)."""
        from . import reports

        if report == "skill":
            return self.skill(**options)
        con = self._report_connection(report, options, progress)
        try:
            return getattr(reports, report)(con, **options)
        finally:
            con.close()

    @_file_errors_at_root
    def stats_arrow(self, report: str, *, progress: Report | None = None, **options: Any) -> pa.Table:
        """:meth:`stats` as a pyarrow Table (DuckDB's Arrow output: no pandas in between)."""
        from . import reports

        con = self._report_connection(report, options, progress)
        try:
            return reports.arrow(con, report, **options)
        finally:
            con.close()

    def _report_connection(self, report: str, options: dict[str, Any], progress: Report | None = None) -> Any:
        """The views' connection for :meth:`stats`, once the report and its options are known: an unknown
        report or option, a folder without a store, and a player, preset or pulka the store does not hold
        (a filter that can only match nothing: a typo) are refused, as ``preflog stats`` refuses them.
        ``progress`` (else the workspace's own) is told how far bringing the projections level goes."""
        from .reports import REPORTS

        if report not in REPORTS:
            raise WorkspaceError(f"no report {report!r} (known: {', '.join(REPORTS)})")
        known = _REPORT_OPTIONS if report == "contracts" else _REPORT_OPTIONS[1:]
        for key in options:
            if key not in known:
                raise WorkspaceError(f"report {report!r} has no option {key!r} (known: {', '.join(known)})")
        self.store()  # "no preflog store at …" rather than an empty report
        before = self.progress
        if progress is not None:
            self.progress = progress
        try:
            con = self.connect()
        finally:
            self.progress = before
        try:
            _refuse_unknown_names(con, options)
        except BaseException:
            con.close()
            raise
        return con

    @_file_errors_at_root
    def connect(self, *, sandbox: bool = False) -> Any:
        """A DuckDB connection over the views; ``sandbox``: over the views only, with no file access of
        its own (what ``preflog sql`` gives a user's query; see :mod:`preflog.reports.db`)."""
        from .projections.store import TABLES
        from .projections.store import table_files
        from .reports.db import connect
        from .store.base import DamagedFileError
        from .store.base import parquet_damage

        if self.exists():  # a damaged event file is one line naming it, not a reader's traceback later on
            self.store().check_files()
            self.heal_projections()
        damaged = [(f, problem) for table in TABLES for f in table_files(self.root, table)
                   if (problem := parquet_damage(f)) is not None]
        if damaged and self.exists():
            self.rebuild_projections()  # derived state: a damaged projection file is built again from the events
            damaged = [(f, problem) for table in TABLES for f in table_files(self.root, table)
                       if (problem := parquet_damage(f)) is not None]
        if damaged:
            raise DamagedFileError(damaged[0][0], damaged[0][1], projection=True)
        files = self._store.files if self._store is not None else (
            self.store().files if self.exists() else None)
        return connect(self.root, events=files, sandbox=sandbox)


_REPORT_OPTIONS: tuple[str, ...] = ("by", "player", "preset", "date_from", "date_to", "pulka")
"""The keywords of :meth:`Workspace.stats` (``by`` for ``contracts`` only)."""


def _refuse_unknown_names(con: Any, options: dict[str, Any]) -> None:
    """:class:`NotStoredError` for a ``player``, ``preset`` or ``pulka`` filter naming nothing the store holds."""
    asked: list[tuple[str, str]] = []
    for what in ("player", "preset"):
        if options.get(what) is not None:
            asked.append((what, str(options[what])))
    pulkas = options.get("pulka")
    if pulkas is not None:
        asked.extend(("pulka", str(p)) for p in ([pulkas] if isinstance(pulkas, str) else pulkas))
    for what, name in asked:
        known = [str(r[0]) for r in con.execute(
            f"SELECT DISTINCT {what} FROM pulka_results WHERE {what} IS NOT NULL ORDER BY 1").fetchall()]
        if name not in known:
            raise NotStoredError(what, name, known)


@dataclass(slots=True)
class Simulated:
    """What :func:`simulate_to` did: ``pulkas`` played; of those sent to a store, the ids of the ones
    whose very content it held already (``already``: a run with the same rules, seed and settings)."""

    pulkas: int = 0
    already: list[str] = field(default_factory=list)


def with_id(events: Sequence[Event], pulka: str) -> list[Event]:
    """A pulka's events whose ``PulkaStarted`` names ``pulka`` as its ``[Id]`` (its meta ``id``), as a
    record of it written out should; the same list when it names an id already."""
    first = events[0] if events else None
    if not isinstance(first, PulkaStarted) or any(k == "id" for k, _ in first.meta):
        return list(events)
    return [replace(first, meta=(*first.meta, ("id", pulka))), *events[1:]]


def simulate_to(*, rules: str, pulkas: int, players: int, pool: int, seed: int, paper: bool, fmt: str,
                output: Path | None, workspace: Workspace | None, workers: int, stdout: Any,
                progress: Report | None = None, levels: Sequence[str] = ()) -> Simulated:
    """Bots play ``pulkas`` pulkas; each goes to a record file in ``output`` and/or into ``workspace``'s
    store, or (neither given) as records to ``stdout``. ``progress`` is told each pulka played
    (``"simulating"``). ``levels``: a bot level per seat (:mod:`preflog.sim.levels`; default heuristic).

    Into a store they go as an import does (:meth:`EventStore.import_sealed`): a pulka whose content is
    stored already (the same seed and settings played again) is not stored twice but counted in
    ``already``; one whose id another pulka holds (the same seed, another ``pool``) is stored under
    :func:`free_id`. Then the projections of the new pulkas are written."""
    from .importer import session
    from .sim import simulate_many
    from .store.chain import GENESIS
    from .store.chain import seal

    if fmt not in ("text", "json"):
        raise WorkspaceError(f"unknown record format {fmt!r} (text or json)")
    spec = {"rules_spec": rules, "players": players, "pool": pool, "paper": paper}
    if levels:
        from .sim.levels import parse_levels

        parsed = parse_levels(levels)
        if len(parsed) != players:
            raise WorkspaceError(f"{len(parsed)} bot levels for {players} players (give one a seat)")
        spec["levels"] = parsed
    if output is not None:
        with file_errors(output):
            output.mkdir(parents=True, exist_ok=True)
    # the store is made at the first commit (a failed run leaves none), sealed with its own interval
    hash_every = workspace.store().hash_every if workspace is not None and workspace.exists() else DEFAULT_HASH_EVERY
    batch: list[tuple[str, Sequence[StoredRow]]] = []
    to_stdout: list[Event] = []
    done = Simulated()

    def commit() -> None:
        assert workspace is not None
        for got in workspace.store(create=True).import_sealed(batch):
            if not got.created:
                done.already.append(got.pulka)
        batch.clear()

    for index, events in simulate_many([spec], pulkas, seed, workers=workers or None):
        pid = f"sim-{rules.replace('+', '-')}-{players}p-{seed}-{index:05d}"
        if workspace is None:  # a record written out names its id ([Id]), as export's do
            events = with_id(events, pid)
        done.pulkas += 1
        if progress is not None:
            progress("simulating", done.pulkas, pulkas)
        if output is not None:
            suffix = ".json" if fmt == "json" else ".pref"
            text = write_json(events) if fmt == "json" else write_text(events)
            with file_errors(output / f"{pid}{suffix}"):
                (output / f"{pid}{suffix}").write_text(text, encoding="utf-8")
        if workspace is not None:
            batch.append((pid, seal([e.to_row() for e in events], 0, GENESIS, 0, hash_every)))
            if len(batch) >= session.IMPORT_CHUNK:
                commit()
        elif output is None and fmt == "json":
            to_stdout.extend(events)  # one JSON document holds every pulka (written below)
        elif output is None:
            stdout.write(write_text(events) + "\n")
    if to_stdout:
        stdout.write(write_json(to_stdout))
    if batch:
        commit()
    if workspace is not None:
        workspace.heal_projections(reading=False)  # the new pulkas' (and whatever else lags)
    return done
