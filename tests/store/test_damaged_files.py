"""A damaged data file (truncated, missing, overwritten) is one line naming the file and what is wrong,
pointing to ``preflog verify`` and time travel: never a DuckDB or Arrow traceback, a Rust backtrace,
or "table files kept vanishing". ``verify`` lists every damaged file (exit 1)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pytest
from deltalake import DeltaTable
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.store.delta import DeltaStore
from preflog.workspace import Workspace

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
FIRST, SECOND = "seed003-settlement", "seed001-bidding"
COMMANDS = [["ls"], ["audit", "--all"], ["export", FIRST], ["replay", SECOND], ["stats", "players"],
            ["sql", "SELECT count(*) FROM events"], ["compact"], ["import", str(EXAMPLES / "seed003-consolation.pref")]]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of two commits, one data file each: FIRST's, then SECOND's."""
    root = tmp_path_factory.mktemp("clean") / "st"
    ws = Workspace(root)
    for name in (FIRST, SECOND):
        assert [i.status for i in ws.import_paths([EXAMPLES / f"{name}.pref"], workers=1)] == ["imported"]
    return root


@pytest.fixture
def store(clean: Path, tmp_path: Path) -> Path:
    root = tmp_path / "st"
    shutil.copytree(clean, root)
    return root


def data_file_of(root: Path, pulka: str) -> Path:
    """The data file holding ``pulka`` (each import above wrote one file)."""
    adds = pa.table(DeltaTable(str(root / "events")).get_add_actions(flatten=True))
    rows = [p for p, lo in zip(adds.column("path").to_pylist(), adds.column("min.pulka").to_pylist(), strict=True)
            if lo == pulka]
    assert len(rows) == 1
    return root / "events" / rows[0]


def truncate(f: Path) -> str:
    size = f.stat().st_size
    with open(f, "r+b") as fh:
        fh.truncate(size // 2)
    return f"is truncated ({size // 2:,} of {size:,} bytes)"


def remove(f: Path) -> str:
    f.unlink()
    return "is missing (the table lists it as a live data file)"


def overwrite(f: Path) -> str:
    f.write_bytes(b"x" * f.stat().st_size)
    return "is not a whole Parquet file (no PAR1 magic at its start and end: cut short or overwritten)"


@pytest.mark.parametrize("damage", [truncate, remove, overwrite])
def test_every_command_names_the_damaged_file_in_one_line(store: Path, damage: Callable[[Path], str]) -> None:
    target = data_file_of(store, SECOND)
    what = damage(target)
    expected = (f"error: {target}: {what}; it holds pulka '{SECOND}'; the event table cannot be read. Run 'preflog "
                "verify' to list every damaged file, then restore it from a backup, or read an earlier version of "
                "the table (time travel, docs/storage.md)")
    for command in COMMANDS:
        res = runner.invoke(app, [*command, "--store", str(store)])
        assert isinstance(res.exception, SystemExit), (command, res.exception)
        assert res.exit_code == 2, (command, res.output)
        assert res.output.strip() == expected, command
    res = runner.invoke(app, ["verify", "--store", str(store)])
    assert res.exit_code == 1
    assert " ".join(res.output.split()) == f"file: {target}: {what}; it holds pulka '{SECOND}'"


def test_verify_lists_every_damaged_file(store: Path) -> None:
    first, second = data_file_of(store, FIRST), data_file_of(store, SECOND)
    gone, cut = remove(first), truncate(second)
    problems = DeltaStore(store / "events").verify()
    assert sorted(str(p) for p in problems) == sorted([f"file: {first}: {gone}; it holds pulka '{FIRST}'",
                                                       f"file: {second}: {cut}; it holds pulka '{SECOND}'"])
    res = runner.invoke(app, ["ls", "--store", str(store)])
    assert res.exit_code == 2 and "(and 1 more damaged file)" in res.output


def test_a_clean_store_still_reads(store: Path) -> None:
    assert DeltaStore(store / "events").damaged_files() == []
    res = runner.invoke(app, ["verify", "--store", str(store)])
    assert (res.exit_code, res.output.strip()) == (0, "store verifies clean")


def test_a_damaged_projection_file_is_built_again(store: Path) -> None:
    """Projections are derived state: a cut segment file is rebuilt from the events on the next read,
    which then reports what it reported before, and verify is clean again."""
    before = runner.invoke(app, ["stats", "players", "--store", str(store), "--format", "csv"])
    seg = sorted((store / "projections" / "deals").glob("*.parquet"))[0]
    truncate(seg)
    res = runner.invoke(app, ["stats", "players", "--store", str(store), "--format", "csv"])
    assert res.exit_code == 0 and before.exit_code == 0
    assert res.output == before.output
    assert runner.invoke(app, ["verify", "--store", str(store)]).exit_code == 0
