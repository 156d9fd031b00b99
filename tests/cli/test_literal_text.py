"""Record text is printed as written, never read as Rich markup or emoji codes (issue 13, item 7).

``[Id "[/x]"]`` once crashed ``import`` after its commit (and then ``ls`` and ``audit --all`` for the
whole store); ``[bold red]`` vanished from messages; ``:100:`` turned into an emoji."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app

from ..record.conftest import doc_blocks

ODD_ID = "[/x] [bold red]:100:"  # player names cannot hold '[', ']' or ':' (the reader refuses them)


def _record() -> str:
    return doc_blocks("pref")[0].replace("club-2024-05-17-1", ODD_ID)


def _run(args: list[str], store: Path) -> str:
    res = CliRunner().invoke(app, [*args, "--store", str(store)])
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res.output


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    record = tmp_path / "odd.pref"
    record.write_text(_record(), encoding="utf-8")
    store = tmp_path / "st"
    out = _run(["import", str(record)], store)
    assert "1 imported" in out
    assert ODD_ID in out, out
    return store


def test_ls_prints_the_id_as_written(stored: Path) -> None:
    assert ODD_ID in _run(["ls"], stored)


def test_audit_and_sheet_print_the_id_as_written(stored: Path) -> None:
    for args in (["audit", ODD_ID], ["audit", "--all"], ["sheet", ODD_ID], ["replay", ODD_ID]):
        out = _run(args, stored)
        assert ODD_ID in out, (args, out)
        assert "💯" not in out


@pytest.mark.parametrize("odd", ["[bold red]", "[/x]", ":100:"])
def test_error_messages_quote_record_text_as_written(tmp_path: Path, odd: str) -> None:
    for name in ("bad.pref", "also-bad.pref"):
        (tmp_path / name).write_text(_record().replace("Boris", odd, 1), encoding="utf-8")
    one = _run(["import", str(tmp_path / "bad.pref")], tmp_path / "st")  # one line on stderr
    both = _run(["import", str(tmp_path)], tmp_path / "st")  # the folder's error rows
    for out in (one, both):
        assert f"{odd!r} is not a usable player name" in out.replace("\n", " "), out


def test_sql_tables_print_values_and_headers_as_written(stored: Path) -> None:
    out = _run(["sql", 'select distinct pulka as "[/y] :100:" from events'], stored)
    assert ODD_ID in out and "[/y] :100:" in out, out
