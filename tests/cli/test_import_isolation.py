"""One bad file never aborts a folder import: any failure inside a file's import is that file's error
row, and the other files are still imported (issue 13, item 2)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.engine.replay import AuditResult
from preflog.importer import prepare
from preflog.model.events import Event
from preflog.model.events import PulkaStarted
from preflog.workspace import Workspace

from ..record.conftest import doc_blocks

RECORD = doc_blocks("pref")[0]


def _folder(root: Path) -> Path:
    root.mkdir()
    (root / "a.pref").write_text(RECORD.replace("club-2024-05-17-1", "a-id"), encoding="utf-8")
    (root / "b.pref").write_text(RECORD.replace("club-2024-05-17-1", "b-id").replace("Anna", "Boom"),
                                 encoding="utf-8")
    (root / "c.pref").write_text(RECORD.replace("club-2024-05-17-1", "c-id").replace("Anna", "Anya"),
                                 encoding="utf-8")
    return root


def _audit_failing_on_boom(events: list[Event]) -> AuditResult:
    start = events[0]
    if isinstance(start, PulkaStarted) and "Boom" in start.players:
        raise TypeError("an unforeseen failure inside the audit")
    return REAL_AUDIT(events)


REPLAY = importlib.import_module("preflog.engine.replay")  # the module (preflog.engine.replay is a function)
REAL_AUDIT = REPLAY.audit


def test_a_failure_inside_one_file_is_its_error_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(REPLAY, "audit", _audit_failing_on_boom)
    folder = _folder(tmp_path / "in")
    items = Workspace(tmp_path / "st").import_paths([folder], workers=1)
    by_file = {Path(i.source).name: i for i in items}
    assert by_file["b.pref"].status == "error"
    assert "TypeError" in by_file["b.pref"].error and "b.pref" in by_file["b.pref"].error
    assert by_file["a.pref"].status == by_file["c.pref"].status == "imported"
    assert sorted(info.pulka for info in Workspace(tmp_path / "st").store().pulkas()) == ["a-id", "c-id"]


def test_the_cli_reports_the_failed_file_and_imports_the_others(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(REPLAY, "audit", _audit_failing_on_boom)
    folder = _folder(tmp_path / "in")
    result = CliRunner().invoke(app, ["import", str(folder), "--store", str(tmp_path / "st"), "--workers", "1"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "2 imported" in result.output and "1 file with errors" in result.output
    assert "Traceback" not in result.output


def test_a_worker_failure_is_the_files_error_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure a worker's prepare_unit did not turn into the file's error (a bug) is that file's error row
    with its traceback, not the import's end."""
    def boom(*_a: object) -> prepare.PartResult:
        raise TypeError("boom")

    monkeypatch.setattr(prepare, "prepare_unit", boom)
    monkeypatch.setattr(prepare, "_SETTINGS", [32, True, frozenset()])
    got = prepare.work(prepare.Unit("x.pref", 0, True, size=10))
    assert got.source == "x.pref" and got.pulkas == [] and got.last and got.size == 10
    assert "x.pref: could not be imported" in got.error and "TypeError: boom" in got.error


def test_an_option_of_the_wrong_type_is_a_located_error_row(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    bad = RECORD.replace('[Pool "50"]', '[Option "min_bid_after_raspasy=[7]"]\n[Pool "50"]')
    (folder / "a.pref").write_text(bad, encoding="utf-8")
    (folder / "b.pref").write_text(RECORD, encoding="utf-8")
    items = Workspace(tmp_path / "st").import_paths([folder], workers=1)
    assert [(Path(i.source).name, i.status) for i in items] == [("a.pref", "error"), ("b.pref", "imported")]
    line = bad.splitlines().index('[Option "min_bid_after_raspasy=[7]"]') + 1
    assert items[0].error.startswith(f"{folder / 'a.pref'}:{line}:"), items[0].error
