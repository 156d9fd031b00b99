"""Files and folders the commands are given (issue 25): what a folder import skipped, a missing path among
others, ``audit X --all``, ``simulate -o DIR --to-store`` and the same simulation stored twice, and the file
a failed ``report --html`` names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app
from preflog.workspace import Workspace

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
SETTLEMENT = EXAMPLES / "seed003-settlement.pref"
CONSOLATION = EXAMPLES / "seed003-consolation.pref"


def _run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "80", "PREFLOG_PROGRESS": "0"})


def _one_error(res: Result) -> str:
    """The single line of a refusal: exit 2, nothing on standard output, no traceback."""
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert res.stdout == "" and "Traceback" not in res.output
    return lines[0]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PREFLOG_STORE", raising=False)
    return tmp_path


# --- import of folders -------------------------------------------------------------------------------

def test_an_empty_folder_is_refused_by_name(here: Path) -> None:
    (here / "games").mkdir()
    line = _one_error(_run("import", "games", "--store", "st"))
    assert line == "error: games: no record file in this folder (record files end in .pref, .txt, .json, .pgn or .ppn)"
    assert not (here / "st").exists()  # nothing to store: no store made


def test_a_folder_of_other_files_names_them(here: Path) -> None:
    (here / "games").mkdir()
    (here / "games" / "notes.md").write_text("# not a record\n", encoding="utf-8")
    (here / "games" / "scores.csv").write_text("a,b\n", encoding="utf-8")
    line = _one_error(_run("import", "games", "--store", "st"))
    assert line.endswith("; it holds only 2 other files: notes.md, scores.csv"), line


def test_a_folder_with_records_and_other_files_says_what_it_skipped(here: Path) -> None:
    (here / "games" / "sub").mkdir(parents=True)
    shutil.copy(SETTLEMENT, here / "games" / "friday.pref")
    (here / "games" / "README.md").write_text("scores of our club\n", encoding="utf-8")
    (here / "games" / "sub" / "photo.jpg").write_bytes(b"\xff\xd8")
    res = _run("import", "games", "--store", "st")
    assert res.exit_code == 0, res.output
    assert "1 file: 1 imported" in res.stdout
    assert res.stderr == "games: skipped 2 other files: README.md, sub/photo.jpg\n"
    assert Workspace(here / "st").ids() == ["seed003-settlement"]  # its [Id] tag


def test_many_skipped_files_are_counted_not_all_listed(here: Path) -> None:
    (here / "games").mkdir()
    shutil.copy(SETTLEMENT, here / "games" / "friday.pref")
    for i in range(7):
        (here / "games" / f"n{i}.md").write_text("x\n", encoding="utf-8")
    res = _run("import", "games", "--store", "st")
    assert res.exit_code == 0, res.output
    assert res.stderr == "games: skipped 7 other files: n0.md, n1.md, n2.md, n3.md, n4.md … (7 in all)\n"


# --- one missing path among many ---------------------------------------------------------------------

def test_a_missing_path_is_reported_and_the_others_are_imported(here: Path) -> None:
    """docs/cli.md: "A file with an error imports nothing; the others still do" — a path that is not there
    too. The exit status is 2, as for any refused file."""
    (here / "games").mkdir()
    shutil.copy(CONSOLATION, here / "games" / "sunday.pref")
    shutil.copy(SETTLEMENT, here / "friday.pref")
    res = _run("import", "friday.pref", "nosuch.pref", "games", "gone/", "--store", "st")
    assert res.exit_code == 2, res.output
    assert res.stderr.splitlines() == ["error: nosuch.pref: no such file or folder",
                                       "error: gone/: no such file or folder"]
    # friday.pref holds one pulka, sunday.pref six (their [Id] tags name them)
    assert "4 files: 7 imported, 0 already stored, 2 files with errors" in res.stdout
    ids = Workspace(here / "st").ids()
    assert len(ids) == 7 and "seed003-settlement" in ids and "seed003-consolation-1" in ids


def test_the_api_gives_a_missing_path_its_error_row(here: Path) -> None:
    shutil.copy(SETTLEMENT, here / "friday.pref")
    items = Workspace(here / "st").import_paths(["nosuch.pref", "friday.pref"])
    assert [(i.source, i.pulka, i.status, i.error) for i in items] == [
        ("nosuch.pref", "", "error", "nosuch.pref: no such file or folder"),
        ("friday.pref", "seed003-settlement", "imported", "")]


# --- audit X --all -----------------------------------------------------------------------------------

def test_audit_of_a_target_and_all_is_refused(here: Path) -> None:
    assert _run("import", str(SETTLEMENT), "--store", "st").exit_code == 0
    line = _one_error(_run("audit", str(SETTLEMENT), "--all", "--store", "st"))
    assert line == (f"error: audit --all takes no pulka or file (it audits every stored pulka): drop {SETTLEMENT} "
                    "or --all")


# --- simulate ----------------------------------------------------------------------------------------

def test_simulate_to_a_folder_and_the_store_writes_both(here: Path) -> None:
    res = _run("simulate", "--pulkas", "2", "--workers", "1", "-o", "recs", "--to-store", "--store", "st")
    assert res.exit_code == 0, res.output
    written = sorted(p.stem for p in (here / "recs").iterdir())
    assert written == ["sim-sochi-3p-1-00000", "sim-sochi-3p-1-00001"]
    assert Workspace(here / "st").ids() == written
    # the files hold what the store holds: importing them finds both stored already
    again = _run("import", "recs", "--store", "st")
    assert again.exit_code == 0 and "0 imported, 2 already stored" in again.stdout, again.output


def test_the_same_simulation_stored_twice_is_already_stored(here: Path) -> None:
    first = _run("simulate", "--pulkas", "2", "--workers", "1", "--to-store", "--store", "st")
    assert first.exit_code == 0 and first.stderr == "simulated 2 pulkas\n", first.output
    again = _run("simulate", "--pulkas", "2", "--workers", "1", "--to-store", "--store", "st")
    assert again.exit_code == 0, again.output
    assert again.stderr.replace("\n", " ").strip() == (
        "simulated 2 pulkas: all already stored in st (the same rules, seed and settings; another --seed plays "
        "new ones)")
    more = _run("simulate", "--pulkas", "3", "--workers", "1", "--to-store", "--store", "st")
    assert more.exit_code == 0, more.output
    assert more.stderr.startswith("simulated 3 pulkas: 1 new, 2 already stored in st"), more.stderr
    ws = Workspace(here / "st")
    assert ws.ids() == ["sim-sochi-3p-1-00000", "sim-sochi-3p-1-00001", "sim-sochi-3p-1-00002"]
    assert ws.verify() == []  # the projections were brought level with the new pulka


def test_the_same_seed_with_other_settings_is_stored_beside(here: Path) -> None:
    """The same seed and rules but another pulya: other games under the same id, stored under a free one."""
    assert _run("simulate", "--workers", "1", "--to-store", "--store", "st").exit_code == 0
    res = _run("simulate", "--workers", "1", "--pool", "10", "--to-store", "--store", "st")
    assert res.exit_code == 0 and res.stderr == "simulated 1 pulka\n", res.output
    ids = Workspace(here / "st").ids()
    assert len(ids) == 2 and ids[0] == "sim-sochi-3p-1-00000" and ids[1].startswith("sim-sochi-3p-1-00000-")


# --- report --html -----------------------------------------------------------------------------------

def test_report_into_a_missing_folder_names_the_file_given(here: Path) -> None:
    assert _run("import", str(SETTLEMENT), "--store", "st").exit_code == 0
    line = _one_error(_run("report", "--html", "nodir/r.html", "--store", "st"))
    assert line == "error: nodir/r.html: No such file or directory", line
    assert not (here / "nodir").exists()


def test_report_onto_a_folder_leaves_no_temporary_twin(here: Path) -> None:
    assert _run("import", str(SETTLEMENT), "--store", "st").exit_code == 0
    (here / "adir").mkdir()
    line = _one_error(_run("report", "--html", "adir", "--store", "st"))
    assert line == "error: adir: Is a directory", line
    assert sorted(p.name for p in here.iterdir()) == ["adir", "st"]  # no .adir.tmp beside it
