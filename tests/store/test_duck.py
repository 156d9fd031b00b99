"""The one place that writes Parquet paths into DuckDB SQL (the store's reads, the report views and the
analysis report used three spellings; the analysis one broke on a path with a quote)."""

import doctest
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from preflog.store import duck


def test_doctests() -> None:
    assert doctest.testmod(duck).failed == 0


def test_a_path_with_quotes_reads(tmp_path: Path) -> None:
    files = []
    for name, n in (("it's.parquet", 2), ('say "x".parquet', 3)):
        f = tmp_path / name
        pq.write_table(pa.table({"v": list(range(n))}), f)
        files.append(f)
    assert duckdb.connect().execute(f"SELECT count(*) FROM {duck.read_parquet(files)}").fetchone() == (5,)
