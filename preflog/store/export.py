"""The shared Parquet export: a store's events and deal facts as a folder anyone can read.

Layout (docs/storage.md, "The Parquet export")::

    DIR/preflog-export.json                    the marker: format, licence, preflog version, row counts
    DIR/README.md                              what each column means, the licence, how to read it
    DIR/events/year=2024/month=3/part-0.parquet
    DIR/deals/year=2024/month=3/part-0.parquet
    DIR/events/year=0/month=0/part-0.parquet     the pulkas without a recorded date

Hive partitions by the pulka's recorded date, at most ``max_rows`` rows a file. The events keep the
store's columns (:data:`~.schema.EVENTS_V1`, cards as small integers); the licence and the preflog
version are in every file's schema metadata too. The folder is written beside ``DIR`` and renamed into
place, so a failed export leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..errors import FileError
from ..model.events import Row
from .schema import EVENTS_V1

MARKER = "preflog-export.json"
FORMAT = "preflog-parquet-export"
FORMAT_VERSION = 1
MAX_ROWS = 5_000_000   # rows a file: an events file of about a hundred MB at most
PARTITION = pa.schema([("year", pa.int16()), ("month", pa.int8())])
EVENTS = "events"
DEALS = "deals"


def undated(part: Any, kind: pa.DataType) -> Any:
    """A year or month column of the partition: the pulkas without a recorded date are 0. (Not the Hive
    NULL partition: pandas 3 with pyarrow cannot read a partition column holding NULL.)"""
    import pyarrow.compute as pc

    return pc.fill_null(part, 0).cast(kind)


def is_export(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a folder written by :func:`write_export` (it holds the marker file)."""
    return (Path(path) / MARKER).is_file()


def _metadata(licence: str, version: str) -> dict[bytes, bytes]:
    return {b"preflog.format": FORMAT.encode(), b"preflog.licence": licence.encode(),
            b"preflog.version": version.encode()}


def _write(table: pa.Table | pa.RecordBatchReader, folder: Path, max_rows: int) -> None:
    import pyarrow.dataset as ds

    ds.write_dataset(table, folder, format="parquet", basename_template="part-{i}.parquet",
                     partitioning=ds.partitioning(PARTITION, flavor="hive"),
                     max_rows_per_file=max_rows, max_rows_per_group=min(max_rows, 1 << 20),
                     existing_data_behavior="error")


_README = """# A preferans game log (preflog Parquet export)

Written by preflog {version}. Licence of the data: **{licence}**.

Two tables of Parquet files, Hive-partitioned by the date the pulka (the game)
was recorded on: `year=YYYY/month=M/`; the pulkas without a recorded date are in
`year=0/month=0/`. At most {max_rows} rows a file. The licence and the preflog
version are in each file's schema metadata too (`preflog.licence`,
`preflog.version`); `{marker}` holds them as JSON, with the
row counts.

## events/ - every recorded event, one row each

- `pulka`: the pulka's id
- `seq`: the event's number in its pulka, from 1
- `deal`: the deal the event belongs to (0: before the first deal)
- `code`: the kind of event (a small integer: preflog's event codes)
- `player`: the seat the event is about (0 = the first seat), or -1
- `card`: a card as a small integer, suit * 8 + rank: suits spades 0, clubs 1,
  diamonds 2, hearts 3; ranks seven 0, eight 1, ... ace 7; -1 for none
- `value`: the event's number (a bid's code, a count of tricks, ...)
- `payload`: the event's other fields as JSON text, or NULL
- `hash`: the store's hash chain after this event (on some events only)
- `year`, `month`: the partition, the pulka's recorded date

## deals/ - one row a scored deal

The facts preflog derives from the events: `pulka`, `deal`, `preset` and
`rules_spec` (the rules), `family`, `date`, `n_players`, `dealer`, `kind` (game,
miser, raspasy ...), `declarer`, `contract` and its `contract_label`, `level`,
`strain`, the whist pattern, `tricks` (per seat), `made`, `undertricks`, `price`
and `declarer_value` (in whists).

## Reading it

DuckDB:

    SELECT * FROM read_parquet('events/**/*.parquet', hive_partitioning = true);

pandas (with pyarrow):

    import pandas as pd
    events = pd.read_parquet("events")
    deals = pd.read_parquet("deals")

preflog itself imports the folder back into a store: `preflog import DIR`.
"""


def readme(licence: str, version: str, max_rows: int = MAX_ROWS) -> str:
    """The README.md written beside the data."""
    return _README.format(licence=licence, version=version, max_rows=max_rows, marker=MARKER)


def write_export(out: str | os.PathLike[str], events: pa.RecordBatchReader, deals: pa.Table, *,
                 licence: str, version: str, max_rows: int = MAX_ROWS) -> dict[str, Any]:
    """Write the export folder ``out``: ``events`` (the store's columns plus ``year``, ``month``) and
    ``deals`` (the deal facts plus ``year``, ``month``), the marker and the README. ``out`` must not
    exist or be an empty folder (else :class:`~preflog.errors.FileError`). Returns the marker's fields."""
    target = Path(out)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise FileError(target, "exists and is not an empty folder: the export writes a new folder")
    tmp = target.with_name(f".{target.name}.writing-{os.getpid()}")
    meta = _metadata(licence, version)
    try:
        tmp.mkdir(parents=True)
        schema = events.schema.with_metadata(meta)
        _write(pa.RecordBatchReader.from_batches(schema, (b.replace_schema_metadata(meta) for b in events)),
               tmp / EVENTS, max_rows)
        _write(deals.replace_schema_metadata(meta), tmp / DEALS, max_rows)
        marker: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION, "licence": licence,
                                  "preflog_version": version, "max_rows_per_file": max_rows,
                                  "deals": deals.num_rows}
        (tmp / MARKER).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
        (tmp / "README.md").write_text(readme(licence, version, max_rows), encoding="utf-8")
        if target.is_dir():
            target.rmdir()
        tmp.rename(target)
    except OSError as exc:
        raise FileError(target, f"cannot write the export ({exc.strerror or exc})") from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return marker


def export_files(path: str | os.PathLike[str], table: str = EVENTS) -> list[str]:
    """The Parquet files of one table of the export at ``path``, in a stable order."""
    return sorted(str(p) for p in (Path(path) / table).rglob("*.parquet"))


def export_rows(path: str | os.PathLike[str]) -> Iterator[tuple[str, list[Row]]]:
    """Each pulka of the export at ``path`` with its engine rows ``(code, player, card, value, payload)``
    in seq order, sorted by pulka id (what an import stores). A file that is not the export's is a
    :class:`~preflog.errors.FileError` naming it."""
    import duckdb

    from .duck import read_parquet

    files = export_files(path)
    if not files:
        return
    con = duckdb.connect()
    cols = ", ".join(f.name for f in EVENTS_V1)
    try:
        cur = con.execute(f"SELECT pulka, code, player, card, value, payload FROM "  # noqa: S608 - quoted paths
                          f"(SELECT {cols} FROM {read_parquet(files, ', hive_partitioning = true')}) "
                          "ORDER BY pulka, seq")
    except duckdb.Error as exc:
        raise FileError(path, f"not a readable preflog export ({str(exc).splitlines()[0]})") from None
    pid: str | None = None
    rows: list[Row] = []
    while batch := cur.fetchmany(65_536):
        for p, code, player, card, value, payload in batch:
            if p != pid:
                if pid is not None:
                    yield pid, rows
                pid, rows = p, []
            rows.append((code, player, card, value, payload))
    if pid is not None:
        yield pid, rows


__all__ = ["DEALS", "EVENTS", "MARKER", "MAX_ROWS", "export_files", "export_rows", "is_export", "readme", "undated",
           "write_export"]
