"""One DuckDB connection over the projections (and optionally the events) of a store.

Views: ``deals``, ``player_deals``, ``pulka_results`` (the Parquet files of
:mod:`preflog.projections.store`; empty typed tables when not written yet) and ``events``
when event files are given. Report SQL lives in ``preflog/reports/sql/*.sql``.
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

EventFiles = Sequence[str] | Callable[[], Sequence[str]]


def load_sql(name: str) -> str:
    """The text of ``preflog/reports/sql/<name>.sql``."""
    return resources.files(__package__).joinpath("sql", f"{name}.sql").read_text(encoding="utf-8")


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def connect(store_dir: str | os.PathLike[str], events: EventFiles | None = None,
            threads: int | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the projection views and report macros.

    ``events`` is a list of Parquet file paths/URIs of the event table (e.g. a Delta table's
    ``file_uris()``), or a function returning it; it becomes the ``events`` view.
    """
    con = duckdb.connect()
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    tables = snapshot(store_dir)  # one manifest for all tables: a consistent snapshot, never a half-written file
    for table in TABLES:
        files = tables[table]
        if files:
            listing = ", ".join(_quote(str(f)) for f in files)
            con.execute(f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM read_parquet([{listing}])")
        else:
            con.register(f"_empty_{table}", SCHEMAS[table].empty_table())
            con.execute(f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM _empty_{table}")
    if events is not None:
        event_files = list(events() if callable(events) else events)
        if event_files:
            listing = ", ".join(_quote(str(f)) for f in event_files)
            con.execute(f"CREATE OR REPLACE VIEW events AS SELECT * FROM read_parquet([{listing}], "
                        "hive_partitioning = true)")
    con.execute(load_sql("macros"))
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
