"""Issue 13, item 14 at the command line: a target that names both a file and a stored pulka is
refused as ambiguous (not silently read as the file), ``export`` reads the store only, and a reader
that goes away (``| head``) ends the command quietly instead of with ``[Errno 32] Broken pipe``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.workspace import Workspace

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
PULKA = "seed003-settlement"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding a store with PULKA, and a record file named exactly PULKA (another pulka)."""
    Workspace(tmp_path / "st").import_paths([EXAMPLES / f"{PULKA}.pref"], workers=1)
    shutil.copy(EXAMPLES / "seed001-bidding.pref", tmp_path / PULKA)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("command", [["replay"], ["sheet"], ["audit"], ["compare", "--rules", "leningrad"]])
def test_a_target_that_is_both_a_file_and_a_stored_pulka_is_ambiguous(here: Path, command: list[str]) -> None:
    res = runner.invoke(app, [command[0], PULKA, *command[1:], "--store", "st"])
    assert res.exit_code == 2
    assert res.output.strip() == (f"error: {PULKA!r} is ambiguous: it names both a file here and a pulka stored in "
                                  f"st (write ./{PULKA} for the file; for the stored pulka, run from another folder)")
    res = runner.invoke(app, [command[0], f".{os.sep}{PULKA}", *command[1:], "--store", "st"])
    assert res.exit_code in (0, 1), res.output  # the file, unambiguously (audit exits 1 on its findings)


def test_a_path_spelled_as_a_path_is_the_file(here: Path) -> None:
    import json

    res = runner.invoke(app, ["sheet", f".{os.sep}{PULKA}", "--json", "--store", "st"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["pulkas"][0]["players"] != ["Запад", "Восток", "Юг"]  # not the stored pulka's


def test_export_reads_the_store_only(here: Path) -> None:
    res = runner.invoke(app, ["export", PULKA, "--store", "st"])
    assert res.exit_code == 0, res.output
    # the record's leading comments come back with it (comments round-trip), then its tags
    assert [ln for ln in res.output.splitlines() if not ln.startswith(";")][0] == '[Players "Запад, Восток, Юг"]'
    assert res.output.startswith("; Seed 003, final settlement")


PIPE_COMMANDS = [["export", PULKA], ["sheet", PULKA, "--json"], ["audit", PULKA, "--json"], ["ls"],
                 ["stats", "players", "--format", "csv"], ["sql", "SELECT * FROM deals", "--format", "csv"]]


@pytest.mark.parametrize("command", PIPE_COMMANDS, ids=lambda c: c[0])
def test_output_to_a_reader_that_went_away_ends_quietly(here: Path, command: list[str]) -> None:
    (here / PULKA).unlink()  # the target is the stored pulka alone
    """Standard output is a pipe nobody reads (``| head`` after its line); with Python's own buffering
    (no PYTHONUNBUFFERED) the last write happens at exit, where it used to print "Exception ignored …
    BrokenPipeError: [Errno 32] Broken pipe" and exit 120."""
    read, write = os.pipe()
    os.close(read)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    code = "import sys; from preflog.cli.app import main; sys.argv[0] = 'preflog'; main()"
    try:
        res = subprocess.run([sys.executable, "-c", code, *command, "--store", "st"], stdout=write,
                             stderr=subprocess.PIPE, text=True, timeout=120, env=env, cwd=here)
    finally:
        os.close(write)
    assert (res.returncode, res.stderr) == (1, "")
