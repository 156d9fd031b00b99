"""One DuckDB connection over the projections (and optionally the events) of a store.

Views: ``deals``, ``player_deals``, ``pulka_results`` (the Parquet files of
:mod:`preflog.projections.store`; empty typed tables when not written yet) and, when event files are
given, ``events`` and ``events_readable`` (the events with names and words instead of codes:
:mod:`preflog.reports.readable`). These are the only tables a connection lists. Report SQL lives in
``preflog/reports/sql/*.sql``.

A *sandboxed* connection (``connect(..., sandbox=True)``, what ``preflog sql`` uses unless told
otherwise) reads the same files through Arrow datasets scanned by pyarrow, then turns DuckDB's own
file system off (``enable_external_access = false``) and locks the configuration: a query sees the
views and nothing else; it can neither read nor write a file (``COPY … TO``, ``read_csv``,
``ATTACH``, ``INSTALL``/``LOAD``), nor switch that back on. Tables it creates live in memory and
vanish with the connection.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import duckdb

from ..projections.build import SCHEMAS
from ..projections.store import TABLES
from ..projections.store import snapshot
from ..store.duck import read_parquet
from ..store.duck import sql_string
from ..store.plan import ReadPlan
from . import readable

EventPlan = ReadPlan | Callable[[], ReadPlan]
"""The event table as :func:`connect` reads it: its read plan, or a function that gives it when called."""


def load_sql(name: str) -> str:
    """The text of ``preflog/reports/sql/<name>.sql``; for ``macros``, followed by :func:`unit_macro_sql`
    (so every engine that runs the macros, DuckDB and Spark, has it)."""
    text = resources.files(__package__).joinpath("sql", f"{name}.sql").read_text(encoding="utf-8")
    return text + unit_macro_sql() if name == "macros" else text


RESULT_UNITS = ("visty", "points")
"""The units a pulka's result is counted in, as the players report names its columns (``total_visty``,
``total_points`` …): every family's :attr:`~preflog.engine.families.SheetTerms.unit`."""


def unit_macro_sql() -> str:
    """``result_unit(family)``: the unit of a pulka's result (``visty``; Croatian ``points``), generated
    from the families' sheet terms; a family the projection did not name reads as the first family (as
    :func:`~preflog.engine.families.family_named` does)."""
    from ..engine.families import FAMILIES
    from ..engine.families import family_named

    units = {f.name: f.sheet.unit for f in FAMILIES}
    unknown = set(units.values()) - set(RESULT_UNITS)
    if unknown:  # a new family's unit needs its own columns in players.sql
        raise ValueError(f"players.sql has no columns for the unit {', '.join(sorted(unknown))}")
    cases = " ".join(f"WHEN {sql_string(name)} THEN {sql_string(unit)}" for name, unit in units.items())
    return (f"\n-- Generated from the families' sheet terms (preflog.reports.db.unit_macro_sql).\n"
            f"CREATE OR REPLACE MACRO result_unit(family) AS CASE family {cases} "
            f"ELSE {sql_string(family_named(None).sheet.unit)} END;\n")


def _parquet_view(con: duckdb.DuckDBPyConnection, name: str, files: Sequence[str | os.PathLike[str]], sandbox: bool,
                  options: str = "") -> None:
    """``name`` as a view over Parquet ``files``: read by DuckDB, or (``sandbox``) by pyarrow through a
    registered dataset, so that DuckDB itself never needs file access."""
    if sandbox:
        import pyarrow.dataset as ds

        # the view is the dataset itself: no helper name of ours shows among the tables (SHOW TABLES)
        con.from_arrow(ds.dataset([str(f) for f in files], format="parquet")).create_view(name, replace=True)
        return
    con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM {read_parquet(files, options)}")


SANDBOX_SETTINGS = ("SET enable_external_access = false", "SET allow_community_extensions = false",
                    "SET autoinstall_known_extensions = false", "SET autoload_known_extensions = false",
                    "SET lock_configuration = true")


def connect(store_dir: str | os.PathLike[str], events: EventPlan | None = None,
            threads: int | None = None, *, sandbox: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the projection views and report macros.

    ``events`` is the event table's read plan (:class:`~preflog.store.plan.ReadPlan`, as
    :meth:`~preflog.store.delta.DeltaStore.read_plan` gives it), or a function returning it; its files
    become the ``events`` view. ``sandbox``: the connection can read the views only, never a file of its
    own (see the module's docstring).
    """
    con = duckdb.connect()
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    tables = snapshot(store_dir)  # one manifest for all tables: a consistent snapshot, never a half-written file
    for table in TABLES:
        files = tables[table]
        if files:
            _parquet_view(con, table, files, sandbox)
        else:
            con.from_arrow(SCHEMAS[table].empty_table()).create_view(table, replace=True)
    if events is not None:
        event_files = (events() if callable(events) else events).uris
        if event_files:
            _parquet_view(con, "events", event_files, sandbox, ", hive_partitioning = true")
            readable.create(con)
    con.execute(load_sql("macros"))
    if sandbox:
        for setting in SANDBOX_SETTINGS:
            con.execute(setting)
    return con


@dataclass(frozen=True, slots=True)
class Filters:
    """Report filters; ``None`` = no filter. Dates are ISO text, inclusive; ``pulka`` one id or several."""

    player: str | None = None
    preset: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    pulka: str | Sequence[str] | None = None

    def params(self) -> dict[str, Any]:
        pulkas = None if self.pulka is None else [self.pulka] if isinstance(self.pulka, str) else list(self.pulka)
        return {"player": self.player, "preset": self.preset, "date_from": self.date_from,
                "date_to": self.date_to, "pulkas": pulkas}
