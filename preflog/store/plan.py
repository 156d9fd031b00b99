"""The read plan of a Delta event table: which data files to read, as readers open them, and what the log
and the files' footers say of each.

:func:`read_plan` is the one reading of a table's ``add`` actions: each live file as a reader-ready path or
URI (:func:`~.uris.data_file`), its size, its rows and its pulka range from the log's statistics. Every
reader of the event table starts from it: :class:`~.delta.DeltaStore` (its ``files()`` for DuckDB and the
reports, its damaged-file check, its ordered read) and the Spark job (:mod:`preflog.spark.plan`), local
or on an object store. Per file, its row groups with their pulka ranges come from the Parquet footer
where they are asked for (:meth:`ReadPlan.with_row_groups`, :func:`footer_groups`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Collection
from dataclasses import dataclass
from dataclasses import replace
from typing import TYPE_CHECKING
from typing import NamedTuple

from .uris import data_file

if TYPE_CHECKING:
    import pyarrow.parquet as pq
    from deltalake import DeltaTable

STAT_CHARS = 32
"""Delta and Parquet writers may cut a string statistic to 32 characters: a bound that long is no proof."""


def exact(value: object) -> bool:
    """Whether a pulka statistic is exact (a string shorter than a writer may cut one)."""
    return isinstance(value, str) and len(value) < STAT_CHARS - 1


class RowGroup(NamedTuple):
    """One row group of a data file: its rows and, when its footer's statistics are exact, its pulka range."""

    rows: int
    lo: str | None
    hi: str | None


@dataclass(frozen=True, slots=True)
class PlanFile:
    """One live data file: ``uri`` as readers open it, its size, rows (None: the log did not count them),
    the least and greatest pulka id and the first seq the log's statistics give (None: not recorded), and
    its row groups (None: not read from its footer)."""

    uri: str
    size: int
    rows: int | None
    lo: str | None
    hi: str | None
    first_seq: int | None = None
    row_groups: tuple[RowGroup, ...] | None = None

    @property
    def pulkas(self) -> tuple[str, str] | None:
        """The file's pulka range when the statistics prove it (both bounds exact), else None."""
        if exact(self.lo) and exact(self.hi):
            assert self.lo is not None and self.hi is not None
            return self.lo, self.hi
        return None


Opener = Callable[[str], "pq.ParquetFile"]
"""Opens a data file's footer by its URI (a local path by default; the Spark job's for object stores)."""


def _open_local(uri: str) -> pq.ParquetFile:
    import pyarrow.parquet as pq

    return pq.ParquetFile(uri)


def footer_groups(uri: str, open_file: Opener | None = None) -> tuple[RowGroup, ...] | None:
    """The row groups of the file at ``uri`` from its Parquet footer, each pulka range None where it is not
    exact; None when the footer cannot be read or holds no ``pulka`` column (its readers name the file)."""
    import pyarrow as pa

    try:
        with (open_file or _open_local)(uri) as f:
            meta = f.metadata
    except (OSError, pa.ArrowException):
        return None
    names = [meta.schema.column(i).path for i in range(meta.num_columns)]
    if "pulka" not in names:
        return None
    col = names.index("pulka")
    out: list[RowGroup] = []
    for g in range(meta.num_row_groups):
        rg = meta.row_group(g)
        st = rg.column(col).statistics
        lo = st.min if st is not None and st.has_min_max else None
        hi = st.max if st is not None and st.has_min_max else None
        ok = exact(lo) and exact(hi)
        out.append(RowGroup(rg.num_rows, lo if ok else None, hi if ok else None))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ReadPlan:
    """One version of the event table as its readers read it: ``table`` (its folder or URI), ``version``
    and its live ``files``."""

    table: str
    version: int
    files: tuple[PlanFile, ...]

    @property
    def uris(self) -> tuple[str, ...]:
        """The files as readers open them (read these, never a directory glob)."""
        return tuple(f.uri for f in self.files)

    @property
    def events(self) -> int:
        """The rows the log counted (a file it did not count adds none)."""
        return sum(f.rows or 0 for f in self.files)

    def with_row_groups(self, uris: Collection[str] | None = None, open_file: Opener | None = None) -> ReadPlan:
        """This plan with the row groups of the files ``uris`` (all: None) read from their footers (in
        parallel: one small read per file)."""
        from concurrent.futures import ThreadPoolExecutor

        wanted = [f.uri for f in self.files if (uris is None or f.uri in uris) and f.row_groups is None]
        if not wanted:
            return self
        with ThreadPoolExecutor(max_workers=min(16, len(wanted))) as pool:
            got = dict(zip(wanted, pool.map(lambda u: footer_groups(u, open_file), wanted), strict=True))
        return replace(self, files=tuple(replace(f, row_groups=got[f.uri]) if f.uri in got else f
                                         for f in self.files))


def read_plan(dt: DeltaTable, table: str | os.PathLike[str]) -> ReadPlan:
    """The read plan of ``dt`` as of its version; ``table`` is its folder (or its URI for a remote table),
    to which the log's relative paths are joined."""
    import pyarrow as pa

    # (pa.table() of the log's table would import pandas: ≈ 0.3 s in a fresh worker)
    adds = pa.RecordBatchReader.from_stream(dt.get_add_actions(flatten=True)).read_all()
    n = adds.num_rows
    names = adds.schema.names

    def column(name: str) -> list[object]:
        return adds.column(name).to_pylist() if name in names else [None] * n

    files = []
    for rel, size, rows, lo, hi, first in zip(column("path"), column("size_bytes"), column("num_records"),
                                              column("min.pulka"), column("max.pulka"), column("min.seq"),
                                              strict=True):
        assert isinstance(rel, str)
        files.append(PlanFile(data_file(table, rel), int(size) if isinstance(size, int) else 0,
                              int(rows) if isinstance(rows, int) else None,
                              lo if isinstance(lo, str) else None, hi if isinstance(hi, str) else None,
                              int(first) if isinstance(first, int) else None))
    return ReadPlan(os.fspath(table), int(dt.version()), tuple(files))


__all__ = ["STAT_CHARS", "Opener", "PlanFile", "ReadPlan", "RowGroup", "exact", "footer_groups", "read_plan"]
