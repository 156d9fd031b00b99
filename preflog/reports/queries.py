"""Report functions: SQL from ``sql/*.sql`` run on a :func:`~preflog.reports.db.connect` connection.

Every function takes the filters ``player``, ``preset``, ``date_from``, ``date_to`` (ISO,
inclusive) and ``pulka`` (one id or several) and returns a pandas DataFrame; :func:`arrow` and
:func:`sql_arrow` give the same rows as a pyarrow Table, straight from DuckDB. Every rate
comes with its Wilson 95 % interval in ``<rate>_lo`` / ``<rate>_hi`` columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb
import pandas as pd
import pyarrow as pa

from .db import Filters
from .db import load_sql

# Dimensions a contracts report may be grouped by → the columns they stand for.
CONTRACT_DIMENSIONS: dict[str, tuple[str, ...]] = {
    "preset": ("preset",),
    "family": ("family",),
    "contract": ("family", "contract", "contract_label"),
    "level": ("family", "level"),
    "strain": ("strain",),
    "miser": ("is_miser",),
    "hand_game": ("hand_game",),       # Croatian "igra" (no talon) vs with talon
    "rel_seat": ("rel_seat",),         # declarer's hand counted from the dealer (1 = first hand)
    "whist_pattern": ("whist_pattern",),
    "open_play": ("open_play",),
    "n_players": ("n_players",),
}


def _run(con: duckdb.DuckDBPyConnection, sql: str, filters: Filters) -> pd.DataFrame:
    return con.execute(sql, filters.params()).df()


def players(con: duckdb.DuckDBPyConnection, *, player: str | None = None, preset: str | None = None,
            date_from: str | None = None, date_to: str | None = None,
            pulka: str | Sequence[str] | None = None) -> pd.DataFrame:
    """One row per player: deals played, share declared, declarer success (overall; by level in
    :func:`players_by_level`), whist rate and whist success (obligation met), misers and their
    success, raspasy tricks per deal; the results per unit, never summed across: average per pulka and
    total in visty over his Russian pulkas (``avg_visty``, ``total_visty``, ``deal_value_visty``) and in
    points over his Croatian ones (``avg_points``, ``total_points``, ``deal_value_points``), NULL where
    he has none; money over both (``total_money``)."""
    return _run(con, load_sql("players"), Filters(player, preset, date_from, date_to, pulka))


def players_by_level(con: duckdb.DuckDBPyConnection, *, player: str | None = None, preset: str | None = None,
                     date_from: str | None = None, date_to: str | None = None,
                     pulka: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Declarer success per player, family and level (``'miser'`` covers miser and Bettel)."""
    return _run(con, load_sql("players_by_level"), Filters(player, preset, date_from, date_to, pulka))


def contracts(con: duckdb.DuckDBPyConnection, by: Sequence[str] = ("contract", "hand_game"), *,
              player: str | None = None, preset: str | None = None, date_from: str | None = None,
              date_to: str | None = None, pulka: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Success rate of declared contracts grouped by ``by`` (names from :data:`CONTRACT_DIMENSIONS`,
    e.g. ``("preset", "contract", "rel_seat")``), with n, made, interval, played count, mean
    undertricks when failed and the declarer's mean deal value. ``player`` = the declarer."""
    return _run(con, contracts_sql(by), Filters(player, preset, date_from, date_to, pulka))


def contracts_sql(by: Sequence[str] = ("contract", "hand_game")) -> str:
    """The text of the contracts report grouped by ``by`` (also run on Spark by :mod:`preflog.spark`)."""
    cols: list[str] = []
    for dim in by:
        if dim not in CONTRACT_DIMENSIONS:
            raise ValueError(f"contracts: unknown dimension {dim!r} (known: {', '.join(CONTRACT_DIMENSIONS)})")
        cols += [c for c in CONTRACT_DIMENSIONS[dim] if c not in cols]
    if not cols:
        raise ValueError("contracts: give at least one dimension in 'by'")
    order = [c for c in cols if c != "contract_label"]  # the code orders contracts along the ladder
    return load_sql("contracts").format(group_cols=", ".join(cols), order_cols=", ".join(order or cols))


def variants(con: duckdb.DuckDBPyConnection, *, player: str | None = None, preset: str | None = None,
             date_from: str | None = None, date_to: str | None = None,
             pulka: str | Sequence[str] | None = None) -> pd.DataFrame:
    """One row per preset: raspasy / refe frequency, deals per pulka, spread (sample stddev) of
    per-pulka results, declarer edge and success. ``player`` keeps the pulkas he sat in."""
    return _run(con, load_sql("variants"), Filters(player, preset, date_from, date_to, pulka))


def sql(con: duckdb.DuckDBPyConnection, query: str, params: Sequence[Any] | dict[str, Any] | None = None
        ) -> pd.DataFrame:
    """Any query over the views (``deals``, ``player_deals``, ``pulka_results``, ``events``) and macros."""
    return (con.execute(query, params) if params is not None else con.execute(query)).df()


REPORTS = ("players", "players_by_level", "contracts", "variants")


def arrow(con: duckdb.DuckDBPyConnection, report: str, *, by: Sequence[str] = ("contract", "hand_game"),
          player: str | None = None, preset: str | None = None, date_from: str | None = None,
          date_to: str | None = None, pulka: str | Sequence[str] | None = None) -> pa.Table:
    """The report ``report`` (one of :data:`REPORTS`; ``by`` for ``contracts``) as a pyarrow Table: DuckDB's
    own Arrow output with no pandas in between (the column types are DuckDB's: ``int64`` counts,
    ``double`` rates, ``date32`` dates), the DataFrame's rows in its order."""
    if report not in REPORTS:
        raise ValueError(f"no report {report!r} (known: {', '.join(REPORTS)})")
    text = contracts_sql(by) if report == "contracts" else load_sql(report)
    return con.sql(text, params=Filters(player, preset, date_from, date_to, pulka).params()).to_arrow_table()


def sql_arrow(con: duckdb.DuckDBPyConnection, query: str, params: Sequence[Any] | dict[str, Any] | None = None
              ) -> pa.Table:
    """:func:`sql` as a pyarrow Table."""
    return con.sql(query, params=params).to_arrow_table()
