"""What the Spark job computes per pulka, in plain pyarrow (no pyspark here): the worker function and the
schemas of its tables.

The job groups the event rows by pulka and hands each group to :func:`audit_group` in a Python worker.
It runs preflog's own audit (:func:`preflog.engine.replay.audit_rows`, the store's row form) and the
projections' own :func:`~preflog.projections.facts.facts_of` and :func:`~preflog.projections.build.project`
on that one pulka: no rule is re-derived here, so every table equals the single-machine path's.

Tables (one row per …):

* ``findings`` — finding of the audit: pulka, deal, seq (the store's seq: 1 = the first event), code, seat, message;
* ``settlements`` — player of a pulka with a scorer: exact settlement (float and ``"n/d"`` text), the two
  paper methods and money;
* ``audits`` — pulka: events, deals, broken deals, findings, whether it ended, and ``error`` (a
  :class:`~preflog.errors.PreflogError` that kept the pulka out of the projections, else null);
* ``deals``, ``player_deals``, ``pulka_results`` — :data:`preflog.projections.build.SCHEMAS`.

:func:`audit_group` returns one row per pulka whose columns are lists of each table's rows (a
``list<struct>``), so one pass of the audit feeds every table; the job explodes them per table.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pyarrow as pa

from ..analysis.table import SCHEMAS as ANALYSIS_SCHEMAS
from ..analysis.table import TABLES as ANALYSIS_TABLES
from ..analysis.table import analyze_rows
from ..engine.replay import AuditResult
from ..engine.replay import audit_rows
from ..errors import PreflogError
from ..model.events import Row
from ..model.events import from_row
from ..projections.build import SCHEMAS as PROJECTION_SCHEMAS
from ..projections.build import frac_text
from ..projections.build import project
from ..projections.facts import facts_of

# The columns of the event table the job reads (the others — deal, hash — are not needed by the audit).
EVENT_COLUMNS = ("pulka", "seq", "code", "player", "card", "value", "payload")

FINDINGS_SCHEMA = pa.schema([
    ("pulka", pa.string()), ("deal", pa.int32()), ("seq", pa.int32()), ("code", pa.string()),
    ("seat", pa.int8()), ("message", pa.string()),
])

SETTLEMENTS_SCHEMA = pa.schema([
    ("pulka", pa.string()), ("seat", pa.int8()), ("player", pa.string()),
    ("exact", pa.float64()), ("exact_text", pa.string()),
    ("method1", pa.int32()), ("method2", pa.int32()),
    ("money", pa.float64()), ("money_text", pa.string()),
])

AUDITS_SCHEMA = pa.schema([
    ("pulka", pa.string()), ("events", pa.int32()), ("deals", pa.int32()), ("broken_deals", pa.int32()),
    ("findings", pa.int32()), ("ended", pa.bool_()), ("error", pa.string()),
])

AUDIT_TABLES = ("findings", "settlements", "audits")
PROJECTION_TABLES = ("deals", "player_deals", "pulka_results")
TABLES = AUDIT_TABLES + PROJECTION_TABLES

SCHEMAS: dict[str, pa.Schema] = {
    "findings": FINDINGS_SCHEMA, "settlements": SETTLEMENTS_SCHEMA, "audits": AUDITS_SCHEMA,
    **{t: PROJECTION_SCHEMAS[t] for t in PROJECTION_TABLES},
}

# Rows of each table in the order a sort makes them comparable (and Parquet statistics prune by pulka).
SORT_KEYS: dict[str, tuple[str, ...]] = {
    "findings": ("pulka", "seq", "code"), "settlements": ("pulka", "seat"), "audits": ("pulka",),
    "deals": ("pulka", "deal"), "player_deals": ("pulka", "deal", "seat"), "pulka_results": ("pulka", "seat"),
}


def _packed_field(table: str) -> pa.Field:
    return pa.field(table, pa.list_(pa.struct(list(SCHEMAS[table]))))


# One row per pulka: the id, then every table's rows of that pulka as a list of structs.
PACKED_SCHEMA = pa.schema([pa.field("pulka", pa.string())] + [_packed_field(t) for t in TABLES])


def findings_table(pid: str, result: AuditResult) -> pa.Table:
    """The findings of one audited pulka, in log order."""
    fs = result.findings
    return pa.table({
        "pulka": pa.array([pid] * len(fs), pa.string()),
        "deal": pa.array([f.deal for f in fs], pa.int32()),
        "seq": pa.array([f.seq for f in fs], pa.int32()),
        "code": pa.array([f.code for f in fs], pa.string()),
        "seat": pa.array([f.seat for f in fs], pa.int8()),
        "message": pa.array([f.message for f in fs], pa.string()),
    }, schema=FINDINGS_SCHEMA)


def _float(x: Fraction | int | None) -> float | None:
    return None if x is None else float(x)


def settlements_table(pid: str, result: AuditResult) -> pa.Table:
    """One row per player of the pulka's settlement (none when the pulka has no scorer)."""
    st = result.settlement
    if st is None:
        return SETTLEMENTS_SCHEMA.empty_table()
    n = len(st.exact)
    names = list(result.players) if len(result.players) == n else [None] * n
    money: Sequence[Fraction | None] = st.money if st.money else [None] * n
    return pa.table({
        "pulka": pa.array([pid] * n, pa.string()),
        "seat": pa.array(range(n), pa.int8()),
        "player": pa.array(names, pa.string()),
        "exact": pa.array([_float(x) for x in st.exact], pa.float64()),
        "exact_text": pa.array([frac_text(x) for x in st.exact], pa.string()),
        "method1": pa.array(st.method1, pa.int32()),
        "method2": pa.array(st.method2, pa.int32()),
        "money": pa.array([_float(x) for x in money], pa.float64()),
        "money_text": pa.array([None if x is None else frac_text(x) for x in money], pa.string()),
    }, schema=SETTLEMENTS_SCHEMA)


def audits_table(pid: str, result: AuditResult, error: str | None) -> pa.Table:
    """The pulka's one audit summary row."""
    return pa.table({
        "pulka": [pid], "events": [result.events], "deals": [len(result.deals)],
        "broken_deals": [sum(1 for d in result.deals if d.broken)], "findings": [len(result.findings)],
        "ended": [result.ended], "error": [error],
    }, schema=AUDITS_SCHEMA)


def pulka_tables(pid: str, rows: Sequence[Row]) -> dict[str, pa.Table]:
    """Every table's rows of one pulka from its log in row form (sorted by seq).

    A pulka whose facts cannot be projected (a :class:`~preflog.errors.PreflogError`, e.g. a date that
    is not ISO) keeps its findings, settlement and audit row, with the error in ``audits.error`` and no
    projection rows: one bad pulka among millions does not stop the job.
    """
    result = audit_rows(rows)
    error: str | None = None
    try:
        first = [from_row(*rows[0])] if rows else []
        projected = project(facts_of(pid, first, result))
    except PreflogError as e:
        error = str(e)
        projected = {t: PROJECTION_SCHEMAS[t].empty_table() for t in PROJECTION_TABLES}
    return {"findings": findings_table(pid, result), "settlements": settlements_table(pid, result),
            "audits": audits_table(pid, result, error), **projected}


def _as_list(table: pa.Table) -> pa.Array:
    """A table as one ``list<struct>`` value (a list array of length 1)."""
    table = table.combine_chunks()
    struct = pa.StructArray.from_arrays([c.chunk(0) if c.num_chunks else pa.array([], c.type)
                                         for c in table.columns], fields=list(table.schema))
    return pa.ListArray.from_arrays(pa.array([0, len(table)], pa.int32()), struct)


def packed_row(pid: str, rows: Sequence[Row]) -> pa.Table:
    """One pulka as one row of :data:`PACKED_SCHEMA`."""
    tables = pulka_tables(pid, rows)
    return pa.Table.from_arrays([pa.array([pid], pa.string())] + [_as_list(tables[t]) for t in TABLES],
                                schema=PACKED_SCHEMA)


def rows_of_table(events: pa.Table) -> list[Row]:
    """One pulka's event rows (columns :data:`EVENT_COLUMNS`, any order of rows) as engine rows by seq."""
    events = events.sort_by("seq")
    return list(zip(*(events.column(c).to_pylist() for c in ("code", "player", "card", "value", "payload")),
                    strict=True))


def rows_of_sorted(events: pa.Table) -> list[Row]:
    """One pulka's event rows, already sorted by seq, as engine rows."""
    return list(zip(*(events.column(c).to_pylist() for c in ("code", "player", "card", "value", "payload")),
                    strict=True))


def audit_group(events: pa.Table) -> pa.Table:
    """The worker function of ``groupBy("pulka").applyInArrow``: one pulka's events → its packed row."""
    if events.num_rows == 0:
        return PACKED_SCHEMA.empty_table()
    pid = events.column("pulka")[0].as_py()
    return packed_row(pid, rows_of_table(events))


# --- the play analysis (preflog spark analyze): the same per-pulka function as `preflog analyze --all`
ANALYSIS_PACKED_SCHEMA = pa.schema([pa.field("pulka", pa.string())] + [
    pa.field(t, pa.list_(pa.struct(list(ANALYSIS_SCHEMAS[t])))) for t in ANALYSIS_TABLES])
"""One row per pulka: the id, then the rows of each ``play_analysis`` table (deals, seats, cards)."""

ANALYSIS_SORT_KEYS: dict[str, tuple[str, ...]] = {
    "deals": ("pulka", "deal"), "seats": ("pulka", "deal", "seat"), "cards": ("pulka", "deal", "seq"),
    "skill": ("pulka", "deal", "seat"),
}


def analysis_row(pid: str, rows: Sequence[Row]) -> pa.Table:
    """One pulka's double-dummy analysis as one row of :data:`ANALYSIS_PACKED_SCHEMA`, by
    :func:`preflog.analysis.table.analyze_rows` (what ``preflog analyze --all`` runs per pulka)."""
    _pid, tables = analyze_rows((pid, list(rows)))
    return pa.Table.from_arrays(
        [pa.array([pid], pa.string())]
        + [_as_list(pa.Table.from_pylist(tables[t], schema=ANALYSIS_SCHEMAS[t])) for t in ANALYSIS_TABLES],
        schema=ANALYSIS_PACKED_SCHEMA)


def analysis_group(events: pa.Table) -> pa.Table:
    """The worker function of ``groupBy("pulka").applyInArrow`` for ``preflog spark analyze``."""
    if events.num_rows == 0:
        return ANALYSIS_PACKED_SCHEMA.empty_table()
    return analysis_row(events.column("pulka")[0].as_py(), rows_of_table(events))


def unpack(packed: pa.Table, table: str) -> pa.Table:
    """The rows of one table from packed rows (what the job does with ``explode`` in Spark)."""
    col = packed.column(table).combine_chunks()
    flat = col.flatten() if len(col) else pa.array([], col.type.value_type)
    if len(flat) == 0:
        return SCHEMAS[table].empty_table()
    return pa.Table.from_struct_array(flat).cast(SCHEMAS[table])
