"""Progress bars (issue 11): the long steps draw a bar on standard error, only where someone watches.

``PREFLOG_PROGRESS=1`` stands for a terminal (the test runner's streams are none): each command then
writes its stage's bar to standard error, and standard output is byte for byte what it is without. Without
it (a pipe, a CI log, a test) standard error holds only the command's own messages, exactly as before;
``--json`` never draws one.
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app
from preflog.importer import prepare
from preflog.record.api import write_text
from preflog.workspace import READING
from preflog.workspace import STORING
from preflog.workspace import Workspace

from ..randomplay import random_pulka

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
SETTLEMENT = EXAMPLES / "seed003-settlement.pref"
CONSOLATION = EXAMPLES / "seed003-consolation.pref"


def _run(args: list[str], *, shown: bool, stdin: str | None = None) -> Result:
    env = {"COLUMNS": "100", "PREFLOG_PROGRESS": "1" if shown else ""}
    res = CliRunner().invoke(app, args, input=stdin, env=env)
    assert res.exit_code in (0, 1), res.output
    return res


def _store(folder: Path, monkeypatch: pytest.MonkeyPatch, imported: bool = True) -> str:
    """``st`` in a fresh ``folder``, made the current one (outputs that name the store then match), holding
    seed003-settlement (imported without bars) unless ``imported`` is false."""
    folder.mkdir()
    monkeypatch.chdir(folder)
    if imported:
        _run(["import", str(SETTLEMENT), "--store", "st"], shown=False)
    return "st"


def _both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: str, args: list[str],
          stdin: str | None = None) -> tuple[Result, Result]:
    """The command run twice on two equal stores (``make``: "empty" or "imported"), without and with bars."""
    results = []
    for shown in (False, True):
        root = _store(tmp_path / str(shown), monkeypatch, imported=make == "imported")
        results.append(_run([*args, "--store", root], shown=shown, stdin=stdin))
    return results[0], results[1]


CASES = [
    # (what, store, args, stdin, the stage its bar names)
    # one file or standard input: the bytes of record text read (the files done say nothing until the end)
    ("single-file import", "empty", ["import", str(SETTLEMENT)], None, READING),
    ("stdin import", "empty", ["import", "-"], SETTLEMENT.read_text(encoding="utf-8"), READING),
    ("two-file import", "empty", ["import", str(SETTLEMENT), str(CONSOLATION)], None, "importing files"),
    ("simulate", "empty", ["simulate", "--pulkas", "3", "--to-store", "--workers", "1"], None, "simulating"),
    ("audit --all", "imported", ["audit", "--all"], None, "auditing"),
    ("verify", "imported", ["verify"], None, "checking hash chains"),
]


@pytest.mark.parametrize(("what", "make", "args", "stdin", "stage"), CASES, ids=[c[0] for c in CASES])
def test_a_bar_on_stderr_only_when_watched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str, make: str,
                                           args: list[str], stdin: str | None, stage: str) -> None:
    quiet, shown = _both(tmp_path, monkeypatch, make, args, stdin)
    assert shown.stdout == quiet.stdout
    assert stage not in quiet.stderr and "\x1b[" not in quiet.stderr  # nothing drawn: no escape codes at all
    assert stage in shown.stderr and "\x1b[?25l" in shown.stderr     # the bar: its stage, the cursor hidden
    # what the command itself says on stderr is still there, after the bar is gone
    assert shown.stderr.endswith(quiet.stderr)


def test_projection_rebuild_draws_its_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``stats`` finds the projections gone and rebuilds them first: that step has its bar."""
    results = []
    for shown in (False, True):
        root = _store(tmp_path / str(shown), monkeypatch)
        shutil.rmtree(Path(root) / "projections")
        results.append(_run(["stats", "players", "--store", root], shown=shown))
    quiet, shown_res = results
    assert shown_res.stdout == quiet.stdout and quiet.stderr == ""
    assert "projecting" in shown_res.stderr


@pytest.mark.parametrize("args", [["audit", "--all", "--json"], ["verify", "--json"], ["stats", "players", "--json"]])
def test_no_bar_with_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    root = _store(tmp_path / "json", monkeypatch)
    res = _run([*args, "--store", root], shown=True)
    assert res.stderr == ""


def test_the_demo_import_draws_its_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's import step (10-15 s on the shipped data) has the import's bar; the demo's output is the same."""
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(SETTLEMENT, data)
    results = []
    for shown in (False, True):
        root = _store(tmp_path / str(shown), monkeypatch, imported=False)
        results.append(_run(["demo", "--data", str(data), "--store", root], shown=shown))
    quiet, shown_res = results
    assert shown_res.stdout == quiet.stdout and quiet.stderr == ""
    assert READING in shown_res.stderr and " MB" in shown_res.stderr


# --- the Python API: what the bars draw --------------------------------------------------------------

PLAYERS = ("Anna", "Boris", "Vera")
# five pulkas of two random deals; ASCII, so its characters are its bytes (3555 of them)
FIVE = "\n".join(write_text(random_pulka("sochi", PLAYERS, 2, seed=s)) for s in range(5))


@pytest.fixture
def every_pulka_a_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any file is read in parts (as one of over 1 MB is), each pulka a part of its own."""
    monkeypatch.setattr(prepare, "SPLIT_MIN_BYTES", 0)
    monkeypatch.setattr(prepare, "PART_BYTES", 1)


def _reading(root: Path, paths: list[str]) -> list[tuple[int, int | None, bool]]:
    """The import's :data:`READING` reports (done, total, whether the store existed yet); then it stored the
    five pulkas, in one commit, and said so (:data:`STORING`)."""
    calls: list[tuple[str, int, int | None, bool]] = []
    ws = Workspace(root, progress=lambda stage, done, total: calls.append((stage, done, total, ws.exists())))
    items = ws.import_paths(paths, workers=1)
    assert [i.status for i in items] == ["imported"] * 5
    stages = [stage for stage, *_rest in calls]
    assert stages == [READING] * stages.count(READING) + [STORING] * 2
    assert calls[-2:] == [(STORING, 0, None, False), (STORING, 5, None, True)]
    return [(d, t, made) for stage, d, t, made in calls if stage == READING]


@pytest.mark.usefixtures("every_pulka_a_part")
def test_a_single_file_reports_its_bytes_while_it_is_read(tmp_path: Path) -> None:
    """A 28 MB file showed nothing for 137 s: now each part read, sealed and audited moves the count, long
    before anything is stored (the first commit comes after the whole file was read)."""
    f = tmp_path / "five.pref"
    f.write_text(FIVE, encoding="utf-8")
    size = f.stat().st_size
    assert size == len(FIVE) == 3555
    reading = _reading(tmp_path / "st", [str(f)])
    assert reading[0] == (0, size, False) and reading[-1] == (size, size, False)
    dones = [d for d, _t, _made in reading]
    assert dones == sorted(dones) and len([d for d in dones if 0 < d < size]) == 4  # after parts 1-4 of 5
    assert all(t == size and not made for _d, t, made in reading)


@pytest.mark.usefixtures("every_pulka_a_part")
def test_standard_input_reports_its_bytes_with_no_total(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(FIVE.encode())))
    reading = _reading(tmp_path / "st", ["-"])
    assert [d for d, _t, _made in reading] == sorted(d for d, _t, _made in reading)
    # 0, after each of the five pulkas, and after the empty last part that ends the input
    assert len(reading) == 7 and len({d for d, _t, _made in reading}) == 6 and reading[-1][0] == len(FIVE)
    assert all(t is None and not made for _d, t, made in reading)


def test_stats_takes_a_progress_callback_for_its_projection_check(tmp_path: Path) -> None:
    """``Workspace.stats`` projects what lags the events first (here: every pulka, the projections gone); its
    ``progress`` is told how far, without setting the workspace's own."""
    root = tmp_path / "st"
    Workspace(root).import_paths([SETTLEMENT, CONSOLATION])  # 1 + 6 pulkas
    shutil.rmtree(root / "projections")
    ws = Workspace(root)
    calls: list[tuple[str, int, int | None]] = []
    df = ws.stats("players", progress=lambda *a: calls.append(a))
    assert not df.empty and ws.progress is None
    projecting = [c for c in calls if c[0] == "projecting"]
    assert projecting == [("projecting", n, 7) for n in range(8)]
    assert calls[-1] == ("writing projections", 0, None)
    again: list[tuple[str, int, int | None]] = []
    ws.stats_arrow("players", progress=lambda *a: again.append(a))
    assert again == []  # level with the events: nothing to project, nothing said
