"""Progress bars (issue 11): the long steps draw a bar on standard error, only where someone watches.

``PREFLOG_PROGRESS=1`` stands for a terminal (the test runner's streams are none): each command then
writes its stage's bar to standard error, and standard output is byte for byte what it is without. Without
it (a pipe, a CI log, a test) standard error holds only the command's own messages, exactly as before;
``--json`` never draws one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
SETTLEMENT = EXAMPLES / "seed003-settlement.pref"


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
    ("single-file import", "empty", ["import", str(SETTLEMENT)], None, "importing files"),
    ("stdin import", "empty", ["import", "-"], SETTLEMENT.read_text(encoding="utf-8"), "importing files"),
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
