"""How DuckDB SQL names Parquet files: the one place that quotes a path into a query.

>>> read_parquet(["a.parquet", "it's.parquet"])
"read_parquet(['a.parquet', 'it''s.parquet'])"
>>> read_parquet(["x.parquet"], ", union_by_name = true")
"read_parquet(['x.parquet'], union_by_name = true)"
"""

from __future__ import annotations

import os
from collections.abc import Iterable


def sql_string(text: str) -> str:
    """``text`` as a SQL string literal (single quotes doubled)."""
    return "'" + text.replace("'", "''") + "'"


def read_parquet(files: Iterable[str | os.PathLike[str]], options: str = "") -> str:
    """The table function that reads ``files`` (``options``: more arguments, starting with a comma)."""
    return "read_parquet([" + ", ".join(sql_string(os.fspath(f)) for f in files) + "]" + options + ")"


__all__ = ["read_parquet", "sql_string"]
