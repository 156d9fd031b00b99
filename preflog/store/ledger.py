"""The import ledger: what every import brought, kept beside the events (``<store>/ledger``).

One row an import, appended in one Delta commit of its own after the import's last commit to the event
table: the files named, the pulkas stored and already stored, the files refused (with their one-line
errors), and the deals by how they replayed — clean, with audit findings (and how many deals each finding
code touched), or not audited. So a corpus's headline ("1,204 deals clean, 3 with findings: follow_suit 2,
score_mismatch 1") is read back from the store, not retold.

The ledger is append-only and holds no event: it is never needed to replay or verify a pulka. An import
that fails after some commits still writes its row (``complete`` false: the counts of what it committed);
one killed outright leaves its pulkas without a row (``events_version`` of the rows around it shows the
gap). Deltalake and pyarrow are imported on first use.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from .problems import StoreError

if TYPE_CHECKING:
    import pyarrow as pa

LEDGER_DIR = "ledger"
"""The ledger's folder under the store's root, beside ``events/``."""
LOCK_NAME = "_preflog.lock"
"""Held by a writer of the ledger (as the event table's writers hold theirs)."""


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One import, as the ledger keeps it. ``findings``: per finding code, how many deals it touched (a
    finding on no deal in particular — the rules, the table, the start — touches every deal of its pulka);
    ``refused``: each refused file with its error line; ``sources``: the paths named for the import."""

    import_id: str
    at: datetime
    complete: bool = True
    events_version: int | None = None
    files: int = 0
    pulkas_imported: int = 0
    pulkas_duplicate: int = 0
    files_refused: int = 0
    deals_clean: int = 0
    deals_with_findings: int = 0
    deals_unaudited: int = 0
    deals_duplicate: int = 0
    findings: Mapping[str, int] = field(default_factory=dict)
    refused: Sequence[tuple[str, str]] = ()
    sources: Sequence[str] = ()

    def headline(self) -> str:
        """``1,204 deals clean, 3 with findings: follow_suit 2, score_mismatch 1`` (then deals not audited,
        deals already stored and files refused, when there are any)."""
        def n(k: int) -> str:
            return f"{k:,}"

        text = f"{n(self.deals_clean)} deal{'' if self.deals_clean == 1 else 's'} clean, " \
               f"{n(self.deals_with_findings)} with findings"
        if self.findings:
            codes = sorted(self.findings.items(), key=lambda kv: (-kv[1], kv[0]))
            text += ": " + ", ".join(f"{code} {n(k)}" for code, k in codes)
        if self.deals_unaudited:
            text += f"; {n(self.deals_unaudited)} not audited"
        if self.deals_duplicate:
            text += f"; {n(self.deals_duplicate)} already stored"
        if self.files_refused:
            text += f"; {n(self.files_refused)} file{'' if self.files_refused == 1 else 's'} refused"
        if not self.complete:
            text += " (import interrupted: what it committed)"
        return text

    def as_json(self) -> dict[str, Any]:
        """The entry as JSON values (``import --json``'s ``ledger``, ``ledger --json``'s rows)."""
        return {"import_id": self.import_id, "at": self.at.isoformat(timespec="seconds"),
                "complete": self.complete, "events_version": self.events_version, "files": self.files,
                "pulkas_imported": self.pulkas_imported, "pulkas_duplicate": self.pulkas_duplicate,
                "files_refused": self.files_refused, "deals_clean": self.deals_clean,
                "deals_with_findings": self.deals_with_findings, "deals_unaudited": self.deals_unaudited,
                "deals_duplicate": self.deals_duplicate, "findings": dict(sorted(self.findings.items())),
                "refused": [{"source": s, "error": e} for s, e in self.refused], "sources": list(self.sources),
                "headline": self.headline()}


def schema() -> pa.Schema:
    """The ledger table's columns (``findings``, ``refused`` and ``sources`` as JSON text)."""
    import pyarrow as pa

    count = pa.int64()
    return pa.schema([
        pa.field("import_id", pa.string(), nullable=False),
        pa.field("at", pa.timestamp("us", tz="UTC"), nullable=False),
        pa.field("complete", pa.bool_(), nullable=False),
        pa.field("events_version", pa.int64()),
        *(pa.field(name, count, nullable=False) for name in (
            "files", "pulkas_imported", "pulkas_duplicate", "files_refused", "deals_clean",
            "deals_with_findings", "deals_unaudited", "deals_duplicate")),
        pa.field("findings", pa.string(), nullable=False),
        pa.field("refused", pa.string(), nullable=False),
        pa.field("sources", pa.string(), nullable=False),
    ])


def append_entry(root: Path, entry: LedgerEntry) -> None:
    """Append ``entry`` to the ledger of the store at ``root`` (one Delta commit; the table is created by
    the first)."""
    import pyarrow as pa
    from deltalake import write_deltalake
    from filelock import FileLock

    row = {
        "import_id": entry.import_id, "at": entry.at, "complete": entry.complete,
        "events_version": entry.events_version, "files": entry.files, "pulkas_imported": entry.pulkas_imported,
        "pulkas_duplicate": entry.pulkas_duplicate, "files_refused": entry.files_refused,
        "deals_clean": entry.deals_clean, "deals_with_findings": entry.deals_with_findings,
        "deals_unaudited": entry.deals_unaudited, "deals_duplicate": entry.deals_duplicate,
        "findings": json.dumps(dict(sorted(entry.findings.items())), ensure_ascii=False),
        "refused": json.dumps([list(r) for r in entry.refused], ensure_ascii=False),
        "sources": json.dumps(list(entry.sources), ensure_ascii=False),
    }
    table = pa.Table.from_pylist([row], schema=schema())
    path = root / LEDGER_DIR
    path.mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(path / LOCK_NAME):  # two imports at once: one creates the table, each appends its row
            write_deltalake(str(path), table, mode="append", name="preflog_ledger")
    except Exception as exc:  # deltalake's own errors: one line naming the table
        raise StoreError(f"{path}: the import ledger could not be written ({exc})") from exc


def read_entries(root: Path) -> list[LedgerEntry]:
    """Every import the ledger of the store at ``root`` holds, oldest first (none when it has no ledger:
    a store written before the ledger was kept)."""
    from deltalake import DeltaTable

    path = root / LEDGER_DIR
    if not DeltaTable.is_deltatable(str(path)):
        return []
    try:
        rows = DeltaTable(str(path)).to_pyarrow_table().to_pylist()
    except Exception as exc:
        raise StoreError(f"{path}: the import ledger could not be read ({exc})") from exc
    out = [LedgerEntry(
        import_id=r["import_id"], at=r["at"], complete=r["complete"], events_version=r["events_version"],
        files=r["files"], pulkas_imported=r["pulkas_imported"], pulkas_duplicate=r["pulkas_duplicate"],
        files_refused=r["files_refused"], deals_clean=r["deals_clean"],
        deals_with_findings=r["deals_with_findings"], deals_unaudited=r["deals_unaudited"],
        deals_duplicate=r["deals_duplicate"], findings=json.loads(r["findings"]),
        refused=[(s, e) for s, e in json.loads(r["refused"])], sources=json.loads(r["sources"]))
        for r in rows]
    return sorted(out, key=lambda e: (e.at, e.import_id))


def new_import_id(at: datetime | None = None) -> tuple[str, datetime]:
    """An import's id and time: ``20261208T004012Z-1a2b3c4d`` (UTC to the second, then 32 random bits), and
    the time to the microsecond, which orders the ledger (two imports in one second keep their order)."""
    import secrets

    when = at or datetime.now(UTC)
    return f"{when.strftime('%Y%m%dT%H%M%SZ')}-{secrets.token_hex(4)}", when


def totals(entries: Sequence[LedgerEntry]) -> LedgerEntry:
    """The imports ``entries`` summed into one entry (the store's headline): id ``total``, the time and
    events version of the last, ``complete`` when every one was."""
    findings: dict[str, int] = {}
    for e in entries:
        for code, k in e.findings.items():
            findings[code] = findings.get(code, 0) + k
    last = entries[-1] if entries else None
    return LedgerEntry(
        "total", last.at if last else datetime.now(UTC).replace(microsecond=0),
        all(e.complete for e in entries), last.events_version if last else None,
        sum(e.files for e in entries), sum(e.pulkas_imported for e in entries),
        sum(e.pulkas_duplicate for e in entries), sum(e.files_refused for e in entries),
        sum(e.deals_clean for e in entries), sum(e.deals_with_findings for e in entries),
        sum(e.deals_unaudited for e in entries), sum(e.deals_duplicate for e in entries), findings,
        [r for e in entries for r in e.refused], [s for e in entries for s in e.sources])
