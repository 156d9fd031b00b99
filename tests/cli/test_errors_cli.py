"""The CLI's one error guard: a PreflogError is one line and a non-zero exit, never a traceback;
anything else is a bug and is not swallowed."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app
from preflog.workspace import Workspace

runner = CliRunner()
ILLEGAL = '''[Players "Anna, Boris, Vera"]
[Id "friday"]
Deal 1: dealer C
Auction: A 6s, B 6c, C pass, A miser
'''


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args))


def one_error_line(res: Result) -> str:
    """The result is a clean exit (no exception escaped) with exactly one line of output."""
    assert isinstance(res.exception, SystemExit), res.exception  # not an uncaught error
    assert res.exit_code != 0
    lines = res.output.strip().splitlines()
    assert len(lines) == 1, res.output
    assert lines[0].startswith("error: ") and "Traceback" not in res.output
    return lines[0]


def test_replay_of_an_illegal_event_is_one_line_naming_the_player(tmp_path: Path) -> None:
    record = tmp_path / "friday.pref"
    record.write_text(ILLEGAL, encoding="utf-8")
    line = one_error_line(invoke("replay", str(record), "--store", str(tmp_path / "st")))
    assert line == ("error: friday: deal 1, event 6: miser_not_first_call: Anna (seat 0) has already bid; "
                    "miser is only allowed as a player's first call (мизер кабальный)")


def test_replay_of_the_shipped_illegal_examples_is_one_line() -> None:
    record = Path(__file__).resolve().parents[2] / "data" / "examples" / "seed001-bidding-illegal.pref"
    line = one_error_line(invoke("replay", str(record), "--store", "no-store-here"))
    assert "deal 1, event 4: jump_bid:" in line


def test_a_missing_file_is_one_line_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.pref"
    for command in ("replay", "sheet", "audit"):
        line = one_error_line(invoke(command, str(missing), "--store", str(tmp_path / "st")))
        assert str(missing) in line and "no such file" in line
    line = one_error_line(invoke("import", str(missing), "--store", str(tmp_path / "st")))
    assert line == f"error: {missing}: no such file or folder"


def test_an_unwritable_output_file_is_one_line_naming_it(tmp_path: Path) -> None:
    record = tmp_path / "friday.pref"
    record.write_text(ILLEGAL.replace(", A miser", ", A pass"), encoding="utf-8")
    target = tmp_path / "no-such-folder" / "sheet.svg"
    res = invoke("sheet", str(record), "--svg", str(target))
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit)
    assert f"error: {target}: No such file or directory" in res.output
    assert not target.parent.exists()


def test_the_guard_lets_a_bug_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only PreflogError is a user's problem: a stray ValueError is a bug and keeps its traceback."""
    def broken(self: Workspace, target: str | None) -> list[object]:
        raise ValueError("a bug")

    monkeypatch.setattr(Workspace, "load", broken)
    res = invoke("replay", "friday", "--store", str(tmp_path / "st"))
    assert isinstance(res.exception, ValueError) and str(res.exception) == "a bug"


def test_the_message_is_printed_as_text_not_markup(tmp_path: Path) -> None:
    """A record's text may look like rich markup; the error quotes it as it is."""
    record = tmp_path / "tags.pref"
    record.write_text('[Players "A, B, C"]\n[bold]\nDeal 1: dealer C\n', encoding="utf-8")
    line = one_error_line(invoke("audit", str(record), "--store", str(tmp_path / "st")))
    assert line == f"error: {record}:2:1: '[bold]' is not a tag pair (expected [Name \"value\"])"
