"""Every store-reading command works in a folder named ``Мои игры #1 100%`` (issue 37): a space, Cyrillic
letters, ``#`` and ``%``. The Delta log names its data files percent-encoded and deltalake's own history
lists no commit under a ``#``; before the store decoded them, ``ls`` printed a DuckDB traceback and
``verify`` advised restoring ``_delta_log`` from a backup although the data was intact.

Each command runs twice on the same records: in a folder named ``plain`` and in the odd one. Both must
exit 0 without a traceback and print the same text (the folder's own path aside)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
ODD = "Мои игры #1 100%"
PULKA = "seed003-settlement"  # 12 deals, players Запад, Восток, Юг

COMMANDS: list[tuple[str, ...]] = [
    ("ls",), ("ls", "--json"), ("ls", "--player", "Юг"),
    ("export", PULKA), ("audit", PULKA), ("sheet", PULKA), ("sheet", PULKA, "--json"), ("replay", PULKA),
    ("analyze", "digest-b1.6-worked-deal"),
    ("verify",), ("verify", "--deep"),
    ("stats", "players"), ("stats", "contracts"), ("stats", "variants"), ("stats", "skill"), ("settle", PULKA),
    ("sql", "SELECT count(*) AS events, count(DISTINCT pulka) AS pulkas FROM events"),
    ("report", "--html", "report.html"),
    ("compact",), ("verify",), ("ls", "--json"),
    # last: it adds two pulkas (the same two in both folders)
    ("simulate", "--pulkas", "2", "--seed", "1", "--to-store"), ("verify",), ("ls",),
]


def _run(folder: Path, *args: str) -> Result:
    """``preflog ARGS --store store`` run in ``folder`` (the store given by a relative name, as a user types it)."""
    with pytest.MonkeyPatch.context() as m:
        m.chdir(folder)
        m.delenv("PREFLOG_STORE", raising=False)
        return CliRunner().invoke(app, [*args, "--store", "store"],
                                  env={"COLUMNS": "80", "PREFLOG_PROGRESS": "0"})


def _ok(res: Result, folder: Path) -> str:
    """The command's output with ``folder`` written ``<dir>``, after checking it ran through: exit 0, no
    exception, no traceback."""
    assert res.exit_code == 0, (res.exit_code, res.output)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output and "%D0%9C" not in res.output, res.output
    return res.output.replace(str(folder), "<dir>")


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """``plain`` and :data:`ODD`, each with the example records under ``records/`` imported into ``store``."""
    root = tmp_path_factory.mktemp("folders")
    out = []
    for name in ("plain", ODD):
        folder = root / name
        shutil.copytree(EXAMPLES, folder / "records")
        out.append((folder, _ok(_run(folder, "import", "records"), folder)))
    (plain, plain_said), (odd, odd_said) = out
    assert odd_said == plain_said
    assert "16 files: 40 imported, 0 already stored, 0 files with errors" in odd_said
    yield plain, odd


def test_the_odd_folder_is_really_there(folders: tuple[Path, Path]) -> None:
    """The store's files sit under the folder as named, not under a percent-encoded twin of it."""
    _plain, odd = folders
    assert odd.name == ODD
    assert sorted(p.name for p in odd.parent.iterdir()) == sorted(["plain", ODD])
    assert any((odd / "store" / "events").glob("part-*.parquet"))


def test_what_the_commands_say_there(folders: tuple[Path, Path]) -> None:
    """A few of the answers in full (before the commands below add pulkas): the 40 pulkas and 761 events
    of the 16 example files, a clean verify (no advice to restore ``_delta_log``), the settlement pulka's
    12 deals."""
    _plain, odd = folders
    listed = json.loads(_ok(_run(odd, "ls", "--json"), odd))
    rows = listed["pulkas"] if isinstance(listed, dict) else listed
    assert len(rows) == 40
    assert sum(r["events"] for r in rows) == 761
    assert {r["id"]: r["deals"] for r in rows}[PULKA] == 12
    verified = _ok(_run(odd, "verify", "--deep"), odd)
    assert "store verifies clean" in verified and "_delta_log" not in verified
    counted = _ok(_run(odd, "sql", "SELECT count(*) AS n FROM events"), odd)
    assert "761" in counted
    assert "Юг" in _ok(_run(odd, "stats", "players"), odd)
    _ok(_run(odd, "report", "--html", "page.html"), odd)
    page = (odd / "page.html").read_text(encoding="utf-8")
    assert page.lstrip().lower().startswith("<!doctype html") and "Запад" in page


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_each_command_answers_as_in_a_plain_folder(folders: tuple[Path, Path], args: tuple[str, ...]) -> None:
    plain, odd = folders
    said = _ok(_run(odd, *args), odd)
    assert said == _ok(_run(plain, *args), plain)


def test_demo_runs_there(tmp_path: Path) -> None:
    """``preflog demo`` in the odd folder (its default store ``./preflog-store``, the records from a
    folder under it) says what it says in a plain folder."""
    said = []
    for name in ("plain", ODD):
        folder = tmp_path / name
        shutil.copytree(EXAMPLES, folder / "records")
        with pytest.MonkeyPatch.context() as m:
            m.chdir(folder)
            m.delenv("PREFLOG_STORE", raising=False)
            res = CliRunner().invoke(app, ["demo", "--data", "records"],
                                     env={"COLUMNS": "80", "PREFLOG_PROGRESS": "0"})
        # its title names the records' folder, wrapped where the terminal ends: compared without spaces
        said.append("".join(_ok(res, folder).split()).replace("".join(str(folder).split()), "<dir>"))
        assert (folder / "preflog-store" / "events" / "_delta_log").is_dir()
    assert said[1] == said[0]
    # the audit by rules: croatian 345 + leningrad 20 + rostov 14 + sochi 382 = the 761 events stored
    assert "<dir>/records" in said[1] and "6findingsin6pulkas" in said[1]
    assert "│sochi│25│56│382│19│6│" in said[1] and "│croatian│12│19│345│12│0│" in said[1]


def test_the_web_app_reads_a_store_there(folders: tuple[Path, Path]) -> None:
    """``preflog serve`` over the store in the odd folder: the list, the stats page and a pulka's page."""
    from starlette.testclient import TestClient

    from preflog.serve import create_app

    _plain, odd = folders
    with TestClient(create_app(odd / "store")) as c:
        pages = {url: c.get(url) for url in ("/", "/stats", f"/pulka/{PULKA}")}
    assert {url: r.status_code for url, r in pages.items()} == dict.fromkeys(pages, 200)
    assert "Запад" in pages[f"/pulka/{PULKA}"].text and "Traceback" not in pages["/"].text
