"""The Arrow schemas of the event table, one per table-schema version, and the upcasters between them.

Pure pyarrow: a backend that only needs the column layout (``MemoryStore.duckdb_relation``) does not
load deltalake. ``schemas/events.v<n>.json`` hold the same schemas (a test checks they equal the code).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyarrow as pa

from .chain import DEAL_CODE
from .chain import GENESIS
from .chain import link

# The event table's schema version: how its columns are laid out (the events' rules tables have their own,
# ``preflog.model.events.RULES_VERSION``); stored under ``VERSION_KEY`` in the table configuration.
TABLE_SCHEMA_VERSION = 1
VERSION_KEY = "preflog.schemaVersion"  # the key written tables carry: never renamed

EVENTS_V1 = pa.schema([
    pa.field("pulka", pa.string(), nullable=False),
    pa.field("seq", pa.int32(), nullable=False),
    pa.field("deal", pa.int32(), nullable=False),
    pa.field("code", pa.int8(), nullable=False),
    pa.field("player", pa.int8(), nullable=False),
    pa.field("card", pa.int8(), nullable=False),
    pa.field("value", pa.int64(), nullable=False),
    pa.field("payload", pa.string()),
    pa.field("hash", pa.int64()),
])
# v0: the first layout, without deal numbers and hash chain (kept to prove the upcast path).
EVENTS_V0 = pa.schema([
    pa.field("pulka", pa.string(), nullable=False),
    pa.field("seq", pa.int64(), nullable=False),
    pa.field("code", pa.int8(), nullable=False),
    pa.field("player", pa.int8(), nullable=False),
    pa.field("card", pa.int8(), nullable=False),
    pa.field("value", pa.int64(), nullable=False),
    pa.field("payload", pa.string()),
])
SCHEMAS: dict[int, pa.Schema] = {0: EVENTS_V0, 1: EVENTS_V1}


def schema_json(version: int = TABLE_SCHEMA_VERSION) -> dict[str, Any]:
    """The Arrow schema of a version as the JSON kept in ``schemas/events.v<n>.json``."""
    return {
        "name": "preflog.events",
        "version": version,
        "sort": ["pulka", "seq"],
        "fields": [{"name": f.name, "type": str(f.type), "nullable": f.nullable} for f in SCHEMAS[version]],
    }


def _v0_to_v1(t: pa.Table) -> pa.Table:
    """Add deal numbers and the hash chain (on every event) to v0 rows."""
    t = t.sort_by([("pulka", "ascending"), ("seq", "ascending")])
    cols = [t.column(n).to_pylist() for n in ("pulka", "seq", "code", "player", "card", "value", "payload")]
    deals: list[int] = []
    hashes: list[int] = []
    prev_p, h, deal = None, GENESIS, 0
    for p, s, c, pl, cd, v, pay in zip(*cols, strict=True):
        if p != prev_p:
            prev_p, h, deal = p, GENESIS, 0
        deal += c == DEAL_CODE
        h = link(h, s, c, pl, cd, v, pay)
        deals.append(deal)
        hashes.append(h)
    return pa.table({
        "pulka": t.column("pulka"), "seq": t.column("seq").cast(pa.int32()), "deal": pa.array(deals, pa.int32()),
        "code": t.column("code"), "player": t.column("player"), "card": t.column("card"),
        "value": t.column("value"), "payload": t.column("payload"), "hash": pa.array(hashes, pa.int64()),
    }, schema=EVENTS_V1)


# from_version -> function lifting a table of that version by one version
UPCASTERS: dict[int, Callable[[pa.Table], pa.Table]] = {0: _v0_to_v1}


def upcast(table: pa.Table, version: int) -> pa.Table:
    while version < TABLE_SCHEMA_VERSION:
        table = UPCASTERS[version](table)
        version += 1
    return table


def stored_table(stored: list[tuple[Any, ...]]) -> pa.Table:
    """``(pulka, seq, deal, code, player, card, value, payload, hash)`` tuples → an Arrow table."""
    if not stored:
        return EVENTS_V1.empty_table()
    cols = list(zip(*stored, strict=True))
    return pa.Table.from_arrays([pa.array(c, f.type) for c, f in zip(cols, EVENTS_V1, strict=True)],
                                schema=EVENTS_V1)


_TEXT = {"string", "large_string", "string_view"}   # one column type, however a writer laid the text out


def _type_name(t: pa.DataType) -> str:
    name = str(t)
    return "string" if name in _TEXT else name


def file_schema_problem(path: str, version: int = TABLE_SCHEMA_VERSION) -> str | None:
    """What in the footer of the data file at ``path`` differs from the columns of table-schema ``version``
    (names and types, in words), None when they agree. A column renamed or retyped in a footer (one flipped
    byte turns ``code`` into ``codE``) reads as a column of NULLs under its own name: a reader never says
    so. An unreadable footer is :func:`~.base.parquet_damage`'s to name: None here."""
    import pyarrow.parquet as pq

    try:
        got = pq.read_schema(path)
    except (OSError, pa.ArrowException):
        return None
    want = SCHEMAS[version]
    if [(f.name, _type_name(f.type)) for f in got] == [(f.name, _type_name(f.type)) for f in want]:
        return None
    have = {f.name: _type_name(f.type) for f in got}
    need = {f.name: _type_name(f.type) for f in want}
    parts = [f"column {n!r} is missing" for n in need if n not in have]
    parts += [f"column {n!r} is not one of the table's" for n in have if n not in need]
    parts += [f"column {n!r} is {have[n]}, not {t}" for n, t in need.items() if n in have and have[n] != t]
    if not parts:
        parts = ["its columns are in another order than the table's"]
    return "its schema differs from the table's: " + "; ".join(parts)
