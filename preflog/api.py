"""The application facade: import → store → replay/audit → sheet → projections → reports.

The CLI and the notebooks call this module; it wires the layers below and holds
no rules of its own. A *workspace* is a folder (default ``./preflog-store``)
with the Delta event table in ``events/`` and the projections in ``projections/``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .engine.families import family_of
from .engine.findings import Finding
from .engine.replay import AuditResult, audit
from .model.bids import RUSSIAN_BIDS
from .model.events import Event, PulkaStarted
from .projections.facts import PulkaFacts
from .record.api import gc_paused, read_file_records, read_records, write_json, write_text
from .record.build import Record
from .record.errors import RecordError
from .rules.config import Rules
from .scoring.sheet import Settlement
from .store.base import EventStore, StoreError
from .store.chain import DEFAULT_HASH_EVERY, StoredRow

if TYPE_CHECKING:
    from .importer import FileResult
    from .store.delta import DeltaStore

STORE_ENV = "PREFLOG_STORE"
DEFAULT_STORE = "preflog-store"
RECORD_SUFFIXES = (".pref", ".txt", ".json", ".pgn")
IMPORT_CHUNK = 2000  # pulkas per store commit on bulk import


class PreflogError(Exception):
    """A user-facing error: the message says what and where; the CLI prints it without a traceback."""


def default_store() -> Path:
    return Path(os.environ.get(STORE_ENV) or DEFAULT_STORE)


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


def _date_iso(text: str | None) -> str | None:
    if not text:
        return None
    t = text.strip().replace(".", "-").replace("/", "-")
    parts = t.split("-")
    if len(parts) >= 3 and all(p.isdigit() for p in parts[:3]) and len(parts[0]) == 4:
        return f"{int(parts[0]):04d}-{int(parts[1]):02d}-{int(parts[2]):02d}"
    return None


def record_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files named directly, and record files found under folders (sorted, recursive)."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(f for f in path.rglob("*") if f.is_file() and f.suffix.lower() in RECORD_SUFFIXES))
        elif path.exists():
            out.append(path)
        else:
            raise PreflogError(f"{path}: no such file or folder")
    return out


def read_any(path: Path | str) -> list[Record]:
    """Records of one file; ``-`` reads standard input."""
    if str(path) == "-":
        import sys

        return read_records(sys.stdin.read(), "<stdin>")
    return read_file_records(path)


class Workspace:
    """A store folder with its event table and projections."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else default_store()
        self._store: DeltaStore | None = None

    # --- store --------------------------------------------------------------------------
    @property
    def events_dir(self) -> Path:
        return self.root / "events"

    def store(self, create: bool = False) -> EventStore:
        if self._store is None:
            if not create and not (self.events_dir / "_delta_log").exists():
                raise PreflogError(f"no preflog store at {self.root} (import something first, or pass --store)")
            from .store.delta import DeltaStore  # loaded on first use: import workers never need it

            try:
                self._store = DeltaStore(self.events_dir)
            except StoreError as exc:
                raise PreflogError(str(exc)) from None
        return self._store

    def exists(self) -> bool:
        return (self.events_dir / "_delta_log").exists()

    # --- import -------------------------------------------------------------------------
    def import_paths(self, paths: Sequence[str | Path], progress: Callable[[int, int], None] | None = None,
                     run_audit: bool = True, workers: int | None = None) -> list[ImportItem]:
        """Import record files and folders. A file with an error imports nothing; the others still do.

        Each pulka is stored under its ``[Id]`` tag, else the file name (``-2``, ``-3`` … for further
        pulkas of one file). The same content already stored is a no-op (``duplicate``).
        ``workers``: processes that read, seal and audit the files (default: every core); small
        imports stay in this process. The result is the same for any number of workers.
        """
        from .importer import prepared_files

        files: list[Path | str] = []
        for p in paths:
            files.extend(["-"] if str(p) == "-" else record_files([p]))
        # The store is created only when something is appended: a run of bad files leaves no trace.
        if self.exists():
            store = self.store()
            hash_every = getattr(store, "hash_every", DEFAULT_HASH_EVERY)
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

        from .importer import file_pulka_id, source_stem

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
            append_sealed = getattr(store, "append_sealed", None)  # the Delta backend's bulk path
            if append_sealed is not None:
                append_sealed(pending)
            else:
                store.append_many([(pid, 0, [r[2:7] for r in rows]) for pid, rows in pending])
            pending.clear()
        if facts:
            self.refresh_projections(facts)
            facts.clear()

    # --- loading ------------------------------------------------------------------------
    def ids(self) -> list[str]:
        return [i.pulka for i in self.store().pulkas()] if self.exists() else []

    def load(self, target: str | None) -> list[Loaded]:
        """A record file's pulkas, one stored pulka by id, or every stored pulka (``None``)."""
        if target is None:
            return self._load_all()
        if target == "-" or Path(target).is_file():
            try:
                records = read_any(target)
            except RecordError as exc:
                raise PreflogError(str(exc)) from None
            stem = Path(target).stem
            return [Loaded(r.id or (stem if i == 0 else f"{stem}-{i + 1}"), list(r.events), target)
                    for i, r in enumerate(records)]
        store = self.store()
        events = store.read(target)
        if not events:
            raise PreflogError(f"no pulka {target!r} in {self.root} and no such file "
                               f"(stored: {', '.join(self.ids()[:10]) or 'none'})")
        return [Loaded(target, events, str(self.root))]

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

    def audit(self, target: str | None, strict: bool = False) -> list[Audited]:
        return [Audited(ld, audit(ld.events, strict=strict)) for ld in self.load(target)]

    def export(self, pulka: str, fmt: str = "text") -> str:
        events = self.load(pulka)[0].events
        if fmt == "json":
            return write_json(events)
        if fmt == "text":
            return write_text(events)
        raise PreflogError(f"unknown export format {fmt!r} (text or json)")

    # --- projections and reports ----------------------------------------------------------
    def refresh_projections(self, changed: dict[str, PulkaFacts]) -> None:
        from .projections.store import refresh

        refresh(self.root, changed)

    def rebuild_projections(self) -> int:
        from .projections.store import rebuild

        facts = [facts_of(a.loaded.id, a.loaded.events, a.result) for a in self.audit(None)]
        rebuild(self.root, facts)
        return len(facts)

    def connect(self) -> Any:
        from .reports.db import connect

        files = self._store.files if self._store is not None else (
            self.store().files if self.exists() else None)  # type: ignore[union-attr]
        return connect(self.root, events=files)


# --- adapters from engine results to plain data -------------------------------------------
def _started(events: Sequence[Event]) -> PulkaStarted | None:
    return events[0] if events and isinstance(events[0], PulkaStarted) else None


def rules_spec(started: PulkaStarted) -> str:
    parts = [started.rules] + [f"{k}={_spec_value(v)}" for k, v in started.overrides]
    return "+".join(parts)


def _spec_value(v: Any) -> str:
    import json

    return v if isinstance(v, str) else json.dumps(v)


def facts_of(pid: str, events: Sequence[Event], result: AuditResult) -> PulkaFacts:
    """The projection input of one audited pulka (broken deals are left out)."""
    started = _started(events)
    players = result.players or (started.players if started else ())
    deals = tuple((d.outcome, d.score) for d in result.deals if d.outcome is not None and d.score is not None)
    meta = dict(started.meta) if started else {}
    return PulkaFacts(
        pulka=pid,
        preset=result.rules.name if result.rules else (started.rules.split("+")[0] if started else "?"),
        rules_spec=rules_spec(started) if started else "sochi",
        players=tuple(players),
        date=_date_iso(meta.get("date")),
        n_players=len(players),
        deals=deals,
        settlement=result.settlement,
        pool=started.pool if started else None,
    )


def frac(x: Fraction | int) -> str | int:
    """A value for JSON: an int when whole, else ``"n/d"``."""
    x = Fraction(x)
    return int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def contract_text(rules: Rules | None, code: int, hand: bool = False) -> str:
    if code == 0:
        return ""
    bids = family_of(rules).bids if rules is not None else RUSSIAN_BIDS
    return bids.format(code) + (" hand" if hand else "")


def sheet_json(audited: Audited) -> dict[str, Any]:
    """One pulka of the ``sheet --json`` / ``audit --json`` contract (docs/cli.md)."""
    ld, res = audited.loaded, audited.result
    players = list(res.players)
    n = len(players)
    pulya = [Fraction(0)] * n
    gora = [Fraction(0)] * n
    visty = [[Fraction(0)] * n for _ in range(n)]
    if res.sheet is not None:
        # The sheet need not start at zero (Croatian contract columns start at −start):
        # the starting line is the final sheet less every deal's entries.
        for d in res.deals:
            if d.score is not None:
                for i in range(n):
                    pulya[i] -= d.score.pulya[i]
        pulya = [pulya[i] + res.sheet.pulya[i] for i in range(n)]
    start = {players[i]: frac(pulya[i]) for i in range(n)}
    deals = []
    for d in res.deals:
        entry: dict[str, Any] = {"deal": d.deal, "dealer": players[d.dealer] if 0 <= d.dealer < n else None}
        o, s = d.outcome, d.score
        if o is not None:
            entry.update({
                "kind": o.kind,
                "declarer": players[o.declarer] if o.declarer >= 0 else None,
                "contract": contract_text(res.rules, o.contract, o.hand_game),
                "tricks": {players[i]: t for i, t in enumerate(o.tricks)},
            })
        if s is not None:
            for i in range(n):
                pulya[i] += s.pulya[i]
                gora[i] += s.gora[i]
                for j in range(n):
                    visty[i][j] += s.visty[i][j]
            if s.note:
                entry["note"] = s.note
        if d.broken:
            entry["broken"] = True
        entry["pulya"] = {players[i]: frac(pulya[i]) for i in range(n)}
        entry["gora"] = {players[i]: frac(gora[i]) for i in range(n)}
        entry["visty"] = {players[i]: {players[j]: frac(visty[i][j]) for j in range(n) if j != i} for i in range(n)}
        deals.append(entry)
    totals = {
        "pulya": {players[i]: frac(pulya[i]) for i in range(n)},
        "gora": {players[i]: frac(gora[i]) for i in range(n)},
        "visty": {players[i]: {players[j]: frac(visty[i][j]) for j in range(n) if j != i} for i in range(n)},
    }
    started = _started(ld.events)
    return {
        "id": ld.id,
        "players": players,
        "rules": rules_spec(started) if started else None,
        "pool": started.pool if started else None,
        "whist_price": started.whist_price if started else None,
        "start": {"pulya": start},
        "deals": deals,
        "totals": totals,
        "settlement": settlement_json(players, res.settlement, started.whist_price if started else "1"),
        "finished": bool(res.ended),
        "family": res.rules.family if res.rules else None,
    }


def settlement_json(players: Sequence[str], st: Settlement | None, whist_price: str = "1") -> dict[str, Any]:
    if st is None:
        return {"exact": {}, "method1": {}, "method2": {}, "money": {}}
    money = st.money or tuple(x * _price(whist_price) for x in st.exact)
    return {
        "exact": {p: frac(v) for p, v in zip(players, st.exact, strict=False)},
        "method1": dict(zip(players, st.method1, strict=False)),
        "method2": dict(zip(players, st.method2, strict=False)),
        "money": {p: frac(v) for p, v in zip(players, money, strict=False)},
    }


def _price(text: str) -> Fraction:
    try:
        return Fraction(str(text).strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        return Fraction(1)


_SEAT = re.compile(r"\bseat (\d)\b")


def name_seats(message: str, players: Sequence[str]) -> str:
    """The engine speaks of seats; people read names: ``seat 1`` → ``Boris (seat 1)``."""
    def repl(m: re.Match[str]) -> str:
        i = int(m.group(1))
        return f"{players[i]} (seat {i})" if i < len(players) else m.group(0)

    return _SEAT.sub(repl, message)


def finding_json(f: Finding, players: Sequence[str]) -> dict[str, Any]:
    d = f.as_dict()
    d["message"] = name_seats(f.message, players)
    return d


def audit_json(audited: Audited) -> dict[str, Any]:
    players = audited.result.players
    return {
        "id": audited.loaded.id,
        "findings": [finding_json(f, players) for f in audited.result.findings],
        "settlement": settlement_json(audited.result.players, audited.result.settlement),
    }


def simulate_to(*, rules: str, pulkas: int, players: int, pool: int, seed: int, paper: bool, fmt: str,
                output: Path | None, workspace: Workspace | None, workers: int, stdout: Any) -> int:
    """Bots play ``pulkas`` pulkas; each goes to a record file in ``output``, into ``workspace``'s
    store, or (neither given) as records to ``stdout``. Returns the number of pulkas."""
    from .sim import simulate_many

    if fmt not in ("text", "json"):
        raise PreflogError(f"unknown record format {fmt!r} (text or json)")
    spec = {"rules_spec": rules, "players": players, "pool": pool, "paper": paper}
    if output is not None:
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
            (output / f"{pid}{suffix}").write_text(text, encoding="utf-8")
        else:
            stdout.write(write_json(events) if fmt == "json" else write_text(events) + "\n")
    if workspace is not None and batch:
        workspace.store(create=True).append_many(batch)
    if workspace is not None:
        workspace.rebuild_projections()
    return n
