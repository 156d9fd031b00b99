"""Reports: DuckDB SQL over the projections, as pandas DataFrames (or pyarrow Tables) and one HTML page."""

from .counterfactual import CounterfactualError
from .counterfactual import compare
from .counterfactual import rescore
from .db import Filters
from .db import connect
from .db import load_sql
from .queries import CONTRACT_DIMENSIONS
from .queries import REPORTS
from .queries import arrow
from .queries import contracts
from .queries import players
from .queries import players_by_level
from .queries import sql
from .queries import sql_arrow
from .queries import variants

__all__ = [
    "CONTRACT_DIMENSIONS", "REPORTS", "CounterfactualError", "Filters", "arrow", "compare", "connect", "contracts",
    "load_sql", "players", "players_by_level", "rescore", "sql", "sql_arrow", "variants",
]
