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

from collections import Counter
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
from ..projections.build import project_many
from ..projections.facts import PulkaFacts
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
# The same with the audit's tables only (``spark audit``: no facts, no projections).
AUDIT_PACKED_SCHEMA = pa.schema([pa.field("pulka", pa.string())] + [_packed_field(t) for t in AUDIT_TABLES])


def findings_rows(pid: str, result: AuditResult) -> list[tuple[object, ...]]:
    """The findings of one audited pulka, in log order (the columns of :data:`FINDINGS_SCHEMA`)."""
    return [(pid, f.deal, f.seq, f.code, f.seat, f.message) for f in result.findings]


def _float(x: Fraction | int | None) -> float | None:
    return None if x is None else float(x)


def settlements_rows(pid: str, result: AuditResult) -> list[tuple[object, ...]]:
    """One row per player of the pulka's settlement (none when the pulka has no scorer)."""
    st = result.settlement
    if st is None:
        return []
    n = len(st.exact)
    names: Sequence[str | None] = list(result.players) if len(result.players) == n else [None] * n
    money: Sequence[Fraction | None] = st.money if st.money else [None] * n
    return [(pid, seat, names[seat], _float(exact), frac_text(exact), st.method1[seat], st.method2[seat],
             _float(paid), None if paid is None else frac_text(paid))
            for seat, (exact, paid) in enumerate(zip(st.exact, money, strict=True))]


def audits_rows(pid: str, result: AuditResult, error: str | None) -> list[tuple[object, ...]]:
    """The pulka's one audit summary row."""
    return [(pid, result.events, len(result.deals), sum(1 for d in result.deals if d.broken), len(result.findings),
             result.ended, error)]


def table_of(rows: Sequence[tuple[object, ...]], schema: pa.Schema) -> pa.Table:
    """Row tuples (in the schema's column order) as a table of ``schema``."""
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(schema)
    return pa.Table.from_arrays([pa.array(c, f.type) for c, f in zip(columns, schema, strict=True)], schema=schema)


def _facts_or_error(pid: str, rows: Sequence[Row], result: AuditResult) -> tuple[PulkaFacts | None, str | None]:
    try:
        first = [from_row(*rows[0])] if rows else []
        return facts_of(pid, first, result), None
    except PreflogError as e:
        return None, str(e)


def _list_of(flat: pa.Table, counts: Sequence[int]) -> pa.Array:
    """``flat``'s rows cut into consecutive lists of ``counts`` rows: a ``list<struct>`` array of len(counts)."""
    flat = flat.combine_chunks()
    struct = pa.StructArray.from_arrays([c.chunk(0) if c.num_chunks else pa.array([], c.type)
                                         for c in flat.columns], fields=list(flat.schema))
    offsets = [0]
    for n in counts:
        offsets.append(offsets[-1] + n)
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), struct)


def packed_schema(tables: Sequence[str]) -> pa.Schema:
    """The packed rows a run of ``tables`` needs: the audit's three tables only (:data:`AUDIT_PACKED_SCHEMA`:
    no facts or projections are computed), or every table (:data:`PACKED_SCHEMA`)."""
    return PACKED_SCHEMA if any(t in PROJECTION_TABLES for t in tables) else AUDIT_PACKED_SCHEMA


class Packer:
    """The packed rows of many pulkas (one row each, :func:`packed_schema`), built as one Arrow table per batch
    of pulkas: the rows of every table are gathered as tuples and made into columns once, not per pulka."""

    def __init__(self, schema: pa.Schema = PACKED_SCHEMA) -> None:
        self.schema = schema
        self.projections = schema.names[1:] == list(TABLES)
        self._reset()

    def _reset(self) -> None:
        self.pids: list[str] = []
        self.rows: dict[str, list[tuple[object, ...]]] = {t: [] for t in AUDIT_TABLES}
        self.counts: dict[str, list[int]] = {t: [] for t in AUDIT_TABLES}
        self.facts: list[tuple[str, PulkaFacts | None]] = []

    def __len__(self) -> int:
        return len(self.pids)

    def add(self, pid: str, rows: Sequence[Row]) -> None:
        """Audit one pulka (its log in row form, sorted by seq) and keep its rows."""
        result = audit_rows(rows)
        error: str | None = None
        if self.projections:
            facts, error = _facts_or_error(pid, rows, result)
            self.facts.append((pid, facts))
        self.pids.append(pid)
        for table, got in (("findings", findings_rows(pid, result)), ("settlements", settlements_rows(pid, result)),
                           ("audits", audits_rows(pid, result, error))):
            self.rows[table].extend(got)
            self.counts[table].append(len(got))

    def _projected(self) -> dict[str, tuple[pa.Table, list[int]]]:
        """The projections of the batch's pulkas in one :func:`project_many` (pulka by pulka when one of them
        cannot be projected: that one gets its error in ``audits.error`` and no rows), with rows per pulka."""
        good = [f for _, f in self.facts if f is not None]
        try:
            tables = project_many(good)
        except PreflogError:
            parts: dict[str, list[pa.Table]] = {t: [] for t in PROJECTION_TABLES}
            for i, (_pid, f) in enumerate(self.facts):
                if f is None:
                    continue
                try:
                    one = project(f)
                except PreflogError as e:
                    row = self.rows["audits"][i]
                    self.rows["audits"][i] = (*row[:-1], str(e))
                    continue
                for t in PROJECTION_TABLES:
                    parts[t].append(one[t])
            tables = {t: pa.concat_tables(parts[t]) if parts[t] else PROJECTION_SCHEMAS[t].empty_table()
                      for t in PROJECTION_TABLES}
        out = {}
        for t in PROJECTION_TABLES:
            per = Counter(tables[t].column("pulka").to_pylist())
            out[t] = (tables[t], [per.get(pid, 0) for pid in self.pids])
        return out

    def table(self) -> pa.Table:
        """The packed rows of the pulkas added since the last call, in the order they were added."""
        projected = self._projected() if self.projections else {}
        arrays: list[pa.Array] = [pa.array(self.pids, pa.string())]
        for table in self.schema.names[1:]:
            if table in AUDIT_TABLES:
                arrays.append(_list_of(table_of(self.rows[table], SCHEMAS[table]), self.counts[table]))
            else:
                flat, counts = projected[table]
                arrays.append(_list_of(flat.cast(SCHEMAS[table]), counts))
        self._reset()
        return pa.Table.from_arrays(arrays, schema=self.schema)


def packed_row(pid: str, rows: Sequence[Row], schema: pa.Schema = PACKED_SCHEMA) -> pa.Table:
    """One pulka as one row of ``schema`` (:data:`PACKED_SCHEMA` or :data:`AUDIT_PACKED_SCHEMA`)."""
    packer = Packer(schema)
    packer.add(pid, rows)
    return packer.table()


# The columns of an engine row (:data:`preflog.model.events.Row`), in its order.
ROW_COLUMNS = ("code", "player", "card", "value", "payload")


def rows_of_table(events: pa.Table) -> list[Row]:
    """One pulka's event rows (columns :data:`EVENT_COLUMNS`, any order of rows) as engine rows by seq."""
    events = events.sort_by("seq")
    return list(zip(*(events.column(c).to_pylist() for c in ROW_COLUMNS), strict=True))


def audit_group(events: pa.Table) -> pa.Table:
    """The worker function of ``groupBy("pulka").applyInArrow``: one pulka's events → its packed row."""
    if events.num_rows == 0:
        return PACKED_SCHEMA.empty_table()
    pid = events.column("pulka")[0].as_py()
    return packed_row(pid, rows_of_table(events))


def audit_only_group(events: pa.Table) -> pa.Table:
    """:func:`audit_group` for ``spark audit``: the packed row of the audit's tables only."""
    if events.num_rows == 0:
        return AUDIT_PACKED_SCHEMA.empty_table()
    pid = events.column("pulka")[0].as_py()
    return packed_row(pid, rows_of_table(events), AUDIT_PACKED_SCHEMA)


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
        + [_list_of(pa.Table.from_pylist(tables[t], schema=ANALYSIS_SCHEMAS[t]), [len(tables[t])])
           for t in ANALYSIS_TABLES],
        schema=ANALYSIS_PACKED_SCHEMA)


def analysis_group(events: pa.Table) -> pa.Table:
    """The worker function of ``groupBy("pulka").applyInArrow`` for ``preflog spark analyze``."""
    if events.num_rows == 0:
        return ANALYSIS_PACKED_SCHEMA.empty_table()
    return analysis_row(events.column("pulka")[0].as_py(), rows_of_table(events))
