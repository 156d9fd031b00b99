"""Reports: DuckDB SQL over the projections, as pandas DataFrames and one HTML page."""

from .counterfactual import CounterfactualError, compare, rescore
from .db import Filters, connect, load_sql
from .queries import CONTRACT_DIMENSIONS, contracts, players, players_by_level, sql, variants

__all__ = [
    "CONTRACT_DIMENSIONS", "CounterfactualError", "Filters", "compare", "connect", "contracts", "load_sql",
    "players", "players_by_level", "rescore", "sql", "variants",
]
