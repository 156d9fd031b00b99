"""The shared Parquet export (issue 40, item 4): ``preflog export --format parquet -o DIR --licence ID``
writes the events and the deal facts partitioned by the pulkas' dates (``year=…/month=…``; undated:
``year=0/month=0``), at most ``--max-rows`` rows a file, cards as small integers, the licence in a marker,
the README and every file's schema metadata; DuckDB and pandas read it as it is; ``preflog import DIR``
stores the same events again."""

from __future__ import annotations

import json
import math
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.store.export import MARKER
from preflog.workspace import Workspace

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
runner = CliRunner()

# record file → the [Date] tag put in front of it (None: left undated)
DATED = {"seed003-settlement.pref": "2024.03.05",          # 12 deals
         "seed001-bidding.pref": "2025-11-20",             # 4 deals
         "seed000-sample-sheet-cards.pref": "2025/11/02",  # a card-level record: the play's cards
         "seed003-raspasy-series.pref": None}              # 4 deals


def _store(tmp_path: Path) -> Path:
    folder = tmp_path / "records"
    folder.mkdir()
    for name, date in DATED.items():
        text = (EXAMPLES / name).read_text("utf-8")
        if date is not None:
            at = text.index("\n[") + 1  # before the first tag, after the comment lines
            text = f'{text[:at]}[Date "{date}"]\n{text[at:]}'
        (folder / name).write_text(text, "utf-8")
    store = tmp_path / "store"
    r = runner.invoke(app, ["import", "--store", str(store), str(folder)])
    assert r.exit_code == 0, r.output
    return store


def _export(store: Path, out: Path, *more: str) -> None:
    r = runner.invoke(app, ["export", "--store", str(store), "--format", "parquet", "-o", str(out),
                            "--licence", "CC-BY-4.0", *more])
    assert r.exit_code == 0, r.output
    assert "exported 4 pulkas" in r.output and "CC-BY-4.0" in r.output


def _events(store: Path) -> dict[str, int]:
    s = Workspace(store).store()
    return {p.pulka: p.last_seq for p in s.pulkas()}


def test_round_trip_stores_the_same_events(tmp_path: Path) -> None:
    store = _store(tmp_path)
    _export(store, tmp_path / "out")
    again = tmp_path / "again"
    r = runner.invoke(app, ["import", "--store", str(again), str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    a, b = Workspace(store).store(), Workspace(again).store()
    ids = [p.pulka for p in a.pulkas()]
    assert ids == [p.pulka for p in b.pulkas()] and len(ids) == 4
    for pid in ids:  # every pulka under its id, its events equal, its content hash too
        assert a.read(pid) == b.read(pid)
    assert {p.pulka: p.content_hash for p in a.pulkas()} == {p.pulka: p.content_hash for p in b.pulkas()}
    # importing it again into the first store: all duplicates
    r = runner.invoke(app, ["import", "--store", str(store), str(tmp_path / "out")])
    assert r.exit_code == 0 and "0 imported, 4 already stored" in r.output


def test_partitions_duckdb_and_pandas_read_it_as_it_is(tmp_path: Path) -> None:
    store = _store(tmp_path)
    out = tmp_path / "out"
    _export(store, out)
    events = _events(store)
    total = sum(events.values())
    for table in ("events", "deals"):
        assert sorted(str(p.relative_to(out / table)) for p in (out / table).glob("*/*")) == [
            "year=0/month=0", "year=2024/month=3", "year=2025/month=11"]
    by_date = duckdb.sql(f"SELECT year, month, count(DISTINCT pulka), count(*) FROM read_parquet("
                         f"'{out}/events/**/*.parquet', hive_partitioning = true) GROUP BY ALL ORDER BY ALL"
                         ).fetchall()
    assert by_date == [(0, 0, 1, events["seed003-raspasy-series"]),
                       (2024, 3, 1, events["seed003-settlement"]),
                       (2025, 11, 2, events["seed001-bidding"] + events["seed000-sample-sheet-cards"])]
    deals = duckdb.sql(f"SELECT year, count(*) FROM read_parquet('{out}/deals/**/*.parquet', "
                       "hive_partitioning = true) GROUP BY ALL ORDER BY ALL").fetchall()
    assert deals[0] == (0, 4) and deals[1] == (2024, 12)  # raspasy series 4 deals, settlement 12
    frame = pd.read_parquet(out / "events")
    assert len(frame) == total and frame["pulka"].nunique() == 4
    assert len(pd.read_parquet(out / "deals")) == sum(n for _y, n in deals)


def test_cards_are_small_integers_and_the_licence_is_written(tmp_path: Path) -> None:
    store = _store(tmp_path)
    out = tmp_path / "out"
    _export(store, out)
    files = sorted((out / "events").rglob("*.parquet"))
    schema = pq.read_schema(files[0])
    assert str(schema.field("card").type) == "int8"
    assert schema.metadata[b"preflog.licence"] == b"CC-BY-4.0"
    cards = duckdb.sql(f"SELECT DISTINCT card FROM read_parquet('{out}/events/**/*.parquet') "
                       "WHERE pulka = 'seed000-sample-sheet-cards' AND card >= 0").fetchall()
    assert cards and all(0 <= c < 32 for (c,) in cards)  # suit * 8 + rank: 32 cards
    marker = json.loads((out / MARKER).read_text("utf-8"))
    assert marker["licence"] == "CC-BY-4.0" and marker["format"] == "preflog-parquet-export"
    readme = (out / "README.md").read_text("utf-8")
    assert "CC-BY-4.0" in readme and "read_parquet" in readme and "pd.read_parquet" in readme
    assert max(len(line) for line in readme.splitlines()) <= 80


def test_row_cap_splits_the_files(tmp_path: Path) -> None:
    store = _store(tmp_path)
    out = tmp_path / "out"
    _export(store, out, "--max-rows", "20")
    events = _events(store)
    settlement = sorted((out / "events" / "year=2024" / "month=3").glob("*.parquet"))
    assert len(settlement) == math.ceil(events["seed003-settlement"] / 20) > 1
    rows = [pq.ParquetFile(f).metadata.num_rows for f in (out / "events").rglob("*.parquet")]
    assert max(rows) == 20 and sum(rows) == sum(events.values())


@pytest.mark.parametrize(("args", "says"), [
    (["--format", "parquet", "-o", "{out}"], "needs the data's licence"),
    (["--format", "parquet", "-o", "{out}", "--licence", "  "], "needs the data's licence"),
    (["seed003-settlement", "--format", "parquet", "-o", "{out}", "--licence", "CC0-1.0"], "no pulka id"),
    (["--format", "parquet", "--licence", "CC0-1.0"], "to a new folder"),
    (["seed003-settlement", "--licence", "CC0-1.0"], "are for --format parquet"),
])
def test_bad_requests_are_one_line_and_write_nothing(tmp_path: Path, args: list[str], says: str) -> None:
    store = _store(tmp_path)
    out = tmp_path / "out"
    r = runner.invoke(app, ["export", "--store", str(store), *(a.format(out=out) for a in args)])
    assert r.exit_code == 2 and says in r.output
    assert r.output.count("\n") == 1 and "Traceback" not in r.output
    assert not out.exists() and not list(tmp_path.glob(".out.*"))


def test_an_existing_folder_is_refused(tmp_path: Path) -> None:
    store = _store(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine", "utf-8")
    r = runner.invoke(app, ["export", "--store", str(store), "--format", "parquet", "-o", str(out),
                            "--licence", "CC0-1.0"])
    assert r.exit_code == 2 and "exists and is not an empty folder" in r.output and str(out) in r.output
    assert r.output.count("\n") == 1
    assert [p.name for p in out.iterdir()] == ["keep.txt"] and not list(tmp_path.glob(".out.*"))
    empty = tmp_path / "empty"
    empty.mkdir()  # an empty folder is fine: the export takes its place
    _export(store, empty)
    assert (empty / MARKER).is_file()
