"""Every command on bad input: a missing file, an empty file, a binary file, a wrong store, bad option
values. Each answer is exactly one line on standard error starting ``error:``, nothing on standard
output, exit status 2, and no file or folder written or changed (the working folder is compared before
and after; ``./preflog-store`` would show up there)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "examples" / "seed003-settlement.pref"
runner = CliRunner()

TARGET_COMMANDS = [["replay"], ["audit"], ["audit", "--json"], ["sheet"], ["sheet", "--json"],
                   ["compare", "--rules", "rostov"], ["analyze"], ["analyze", "--json"]]
STORE_COMMANDS = [["ls"], ["ls", "--json"], ["verify"], ["verify", "--json"], ["compact"], ["stats", "players"],
                  ["stats", "contracts", "--json"], ["stats", "variants"], ["audit", "--all"],
                  ["export", "seed003-settlement"], ["replay", "seed003-settlement"], ["sheet", "seed003-settlement"],
                  ["audit", "seed003-settlement"], ["sql", "SELECT 1"], ["report", "--html", "report.html"],
                  ["analyze", "seed003-settlement"], ["analyze", "--all"], ["analyze", "--all", "--json"]]

CASES: list[tuple[list[str], str]] = [
    # missing, empty and binary record files, for every command that reads one
    *[(["import", f], say) for f, say in (("missing.pref", "missing.pref: no such file"),
                                          ("empty.pref", "empty.pref: holds no pulka"),
                                          ("binary.pref", "binary.pref: is not UTF-8 text"),
                                          ("folder", "folder/empty.pref: holds no pulka"))],
    *[([*cmd[:1], f, *cmd[1:]], say) for cmd in TARGET_COMMANDS
      for f, say in (("missing.pref", "missing.pref: no such file"), ("empty.pref", "empty.pref: holds no pulka"),
                     ("binary.pref", "binary.pref: is not UTF-8 text"))],
    (["demo", "--data", "missing"], "missing: no such file or folder"),
    (["demo", "--data", "folder"], "folder/empty.pref: holds no pulka"),
    (["demo", "--data", "binary.pref"], "binary.pref: is not UTF-8 text"),
    # a store folder that holds no store (mistyped, or a plain file)
    *[([*cmd, "--store", where], f"no preflog store at {where}") for cmd in STORE_COMMANDS
      for where in ("nope", "afile")],
    (["import", "good.pref", "--store", "afile"], "afile/events: Not a directory"),
    # bad option values
    (["stats", "players", "--format", "xlsx", "--store", "club"], "'xlsx' is not one of"),
    (["stats", "players", "--from", "2024.13.01", "--store", "club"], "--from '2024.13.01' is not a date"),
    (["stats", "players", "--player", "Nobody", "--store", "club"], "no player 'Nobody' in the store"),
    (["stats", "contracts", "--preset", "sochy", "--store", "club"], "no preset 'sochy' in the store"),
    (["stats", "players", "--format", "parquet", "--store", "club"], "--format parquet needs --output"),
    (["export", "seed003-settlement", "--format", "xml", "--store", "club"], "'xml' is not one of"),
    (["export", "nosuch", "--store", "club"], "no pulka 'nosuch'"),
    (["replay", "seed003-settlement", "--deal", "0", "--store", "club"], "--deal"),
    (["replay", "seed003-settlement", "--deal", "99", "--store", "club"], "no deal 99"),
    (["replay", "seed003-settlement", "--deal", "1", "--trick", "11", "--store", "club"], "no point after 11"),
    (["analyze", "seed003-settlement", "--deal", "0", "--store", "club"], "--deal"),
    (["analyze", "seed003-settlement", "--deal", "99", "--store", "club"], "no deal 99"),
    (["analyze"], "name a pulka or a record file, or pass --all"),
    (["analyze", "good.pref", "--all"], "analyze --all takes no pulka"),
    (["compare", "good.pref", "--rules", "nosuch"], "unknown rules preset 'nosuch'"),
    (["compare", "good.pref"], "Missing option '--rules'"),
    (["sql", "SELECT nope FROM deals", "--store", "club"], "SQL error"),
    (["simulate", "--players", "5"], "--players"),
    (["simulate", "--pulkas", "0"], "--pulkas"),
    (["simulate", "--rules", "nosuch"], "unknown rules preset 'nosuch'"),
    (["simulate", "--format", "pgn"], "'pgn' is not one of"),
    (["simulate", "-o", "afile"], "afile"),
    (["import", "good.pref", "--workers", "0", "--store", "new"], "--workers"),
    (["audit"], "name a pulka or a record file, or pass --all"),
    (["sheet", "--svg", "x.svg"], "Missing argument"),
    (["stats", "players", "--bogus"], "No such option: --bogus"),
]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("club") / "club"
    res = runner.invoke(app, ["import", str(EXAMPLE), "--store", str(store)])
    assert res.exit_code == 0, res.output
    return store


@pytest.fixture
def workdir(tmp_path: Path, club: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "empty.pref").write_text("", encoding="utf-8")
    (tmp_path / "binary.pref").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "afile").write_text("not a store\n", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "empty.pref").write_text("", encoding="utf-8")
    shutil.copy(EXAMPLE, tmp_path / "good.pref")
    shutil.copytree(club, tmp_path / "club")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PREFLOG_STORE", raising=False)
    return tmp_path


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(root.rglob("*"))}


@pytest.mark.parametrize(("args", "says"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(workdir: Path, args: list[str], says: str) -> None:
    before = snapshot(workdir)
    res = runner.invoke(app, args)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert res.exit_code == 2, (res.exit_code, res.output)
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("error: ") and says in lines[0], lines[0]
    assert "Errno" not in lines[0] and "Traceback" not in res.output
    if args[:2] == ["verify", "--json"]:  # a caller who asked verify for JSON gets it on every exit path (issue 31)
        doc = json.loads(res.stdout)
        assert doc["kind"] == "verify" and doc["clean"] is False and doc["error"] in lines[0]
    else:
        assert res.stdout == "", res.stdout
    assert snapshot(workdir) == before
