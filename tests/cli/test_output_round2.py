"""Issue 25, output and conventions: what a command wrote, ids through export and simulate, the JSON
envelopes of ``sheet`` and ``settle``, one JSON document for ``--format json`` and ``--json``, and the
filters of ``report``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "examples"
runner = CliRunner()


def invoke(*args: str, input: str | None = None) -> Result:
    res = runner.invoke(app, list(args), input=input)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding seed003-settlement and the six pulkas of seed001-bidding-illegal."""
    tmp = tmp_path_factory.mktemp("out2")
    for name in ("seed003-settlement.pref", "seed001-bidding-illegal.pref"):
        shutil.copy(EXAMPLES / name, tmp / name)
    res = invoke("import", str(tmp), "--store", str(tmp / "st"))
    assert res.exit_code == 0, res.output
    return tmp


def st(store: Path) -> list[str]:
    return ["--store", str(store / "st")]


@pytest.mark.parametrize("args, what", [
    (["sheet", "seed003-settlement", "--svg", "{f}.svg"], "(the sheet of seed003-settlement)"),
    (["sheet", "seed003-settlement", "--html", "{f}.html"], "(the sheet of seed003-settlement)"),
    (["replay", "seed003-settlement", "--html", "{f}.html"], "(the deal viewer of seed003-settlement)"),
    (["stats", "players", "--format", "csv", "-o", "{f}.csv"], ""),
    (["stats", "players", "--json", "-o", "{f}.json"], ""),
    (["stats", "players", "--format", "parquet", "-o", "{f}.parquet"], ""),
    (["compare", "seed003-settlement", "--rules", "leningrad", "--format", "markdown", "-o", "{f}.md"], ""),
    (["report", "--html", "{f}.html"], ""),
    (["stats", "contracts", "-o", "{f}.txt"], ""),
])
def test_every_file_written_is_named(store: Path, tmp_path: Path, args: list[str], what: str) -> None:
    """Each command that writes a file says ``wrote FILE`` (with what it holds, where it can say)."""
    args = [a.replace("{f}", str(tmp_path / "out")) for a in args]
    path = next(a for a in args if a.startswith(str(tmp_path)))
    res = invoke(*args, *st(store))
    assert res.exit_code == 0, res.output
    assert Path(path).stat().st_size > 0
    assert f"wrote {path} {what}".strip() in res.stdout.splitlines()


def test_folders_written_are_named(store: Path, tmp_path: Path) -> None:
    """``simulate -o DIR`` (its records are the output: the line on standard error) and ``report --pages``."""
    res = invoke("simulate", "--pulkas", "2", "-o", str(tmp_path / "sim"))
    assert res.exit_code == 0 and f"wrote {tmp_path / 'sim'} (2 record files, one a pulka)" in res.stderr
    res = invoke("report", "--html", str(tmp_path / "r.html"), "--pages", str(tmp_path / "pages"),
                 "--pulka", "seed003-settlement", *st(store))
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines() == [f"wrote {tmp_path / 'pages'} (1 deal viewer, one a pulka)",
                                       f"wrote {tmp_path / 'r.html'}"]
    assert [p.name for p in (tmp_path / "pages").iterdir()] == ["seed003-settlement.html"]


def test_a_table_written_to_a_file_is_the_table(store: Path, tmp_path: Path) -> None:
    """``stats contracts -o F`` (the table format) wrote nothing and printed the table; now F holds it."""
    res = invoke("stats", "contracts", "-o", str(tmp_path / "c.txt"), *st(store))
    assert res.stdout == f"wrote {tmp_path / 'c.txt'}\n"
    text = (tmp_path / "c.txt").read_text(encoding="utf-8")
    assert "contracts" in text.splitlines()[0] and "│ 6s" in text


def test_a_written_file_beside_json_is_named_on_stderr(store: Path, tmp_path: Path) -> None:
    """``sheet --json --svg F``: standard output stays one JSON document, the line goes to standard error."""
    svg = tmp_path / "s.svg"
    res = invoke("sheet", "seed003-settlement", "--json", "--svg", str(svg), *st(store))
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["pulkas"][0]["id"] == "seed003-settlement"
    assert f"wrote {svg} (the sheet of seed003-settlement)" in res.stderr


def test_svg_of_a_file_of_several_pulkas_needs_pulka(store: Path, tmp_path: Path) -> None:
    """seed001-bidding-illegal.pref holds six pulkas: ``--svg`` draws one, so it asks which (and names
    them) rather than drawing the first silently; ``--pulka`` picks it and the line names it."""
    record, svg = str(store / "seed001-bidding-illegal.pref"), tmp_path / "s.svg"
    res = invoke("sheet", record, "--svg", str(svg), *st(store))
    assert res.exit_code == 2 and not svg.exists()
    assert "holds 6 pulkas and --svg draws one: name it with --pulka" in res.stderr
    assert "seed001-illegal-jump" in res.stderr
    res = invoke("sheet", record, "--svg", str(svg), "--pulka", "seed001-illegal-miser-after-bid", *st(store))
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == f"wrote {svg} (the sheet of seed001-illegal-miser-after-bid)"
    assert "seed001-illegal-miser-after-bid" in svg.read_text(encoding="utf-8")
    res = invoke("sheet", record, "--pulka", "nope", *st(store))
    assert res.exit_code == 2 and "no pulka 'nope'" in res.stderr


def test_export_names_the_id_so_it_survives_import(tmp_path: Path) -> None:
    """A pulka stored under its file's name (no ``[Id]`` tag) is exported with ``[Id "name"]``: imported
    from any file name into another store it keeps its id; into its own store it is already stored."""
    plain = tmp_path / "friday.pref"
    plain.write_text('[Players "A, B, C"]\n[Rules "sochi"]\n\nDeal 1: dealer A\nAuction: all pass\n'
                     'Tricks: A 2, B 3, C 5\n', encoding="utf-8")
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    assert invoke("import", str(plain), "--store", a).exit_code == 0
    for fmt, name in (("text", "backup.pref"), ("json", "backup.json")):
        exported = invoke("export", "friday", "--format", fmt, "--store", a).stdout
        assert '[Id "friday"]' in exported if fmt == "text" else '"id": "friday"' in exported
        (tmp_path / name).write_text(exported, encoding="utf-8")
        again = json.loads(invoke("import", str(tmp_path / name), "--json", "--store", a).stdout)
        assert [(i["pulka"], i["status"]) for i in again["items"]] == [("friday", "duplicate")]
    other = json.loads(invoke("import", str(tmp_path / "backup.pref"), "--json", "--store", b).stdout)
    assert [(i["pulka"], i["status"]) for i in other["items"]] == [("friday", "imported")]


def test_simulated_records_carry_their_ids(tmp_path: Path) -> None:
    """Two simulated pulkas as one JSON document on standard output: imported from standard input they keep
    the ids ``simulate -o`` and ``--to-store`` give them, not ``stdin``/``stdin-2``."""
    doc = invoke("simulate", "--pulkas", "2", "--format", "json", "--seed", "5").stdout
    res = json.loads(invoke("import", "-", "--json", "--store", str(tmp_path / "st"), input=doc).stdout)
    assert [i["pulka"] for i in res["items"]] == ["sim-sochi-3p-5-00000", "sim-sochi-3p-5-00001"]


@pytest.mark.parametrize("command", ["sheet", "settle"])
def test_sheet_and_settle_json_have_the_envelope(store: Path, command: str) -> None:
    """``sheet --json`` and ``settle --json`` are versioned documents like every other ``--json``."""
    doc = json.loads(invoke(command, "seed003-settlement", "--json", *st(store)).stdout)
    assert list(doc) == ["kind", "version", "pulkas"]
    assert (doc["kind"], doc["version"]) == (command, 1)
    assert doc["pulkas"][0]["settlement"]["method1"] == {"Запад": 31, "Восток": -30, "Юг": -1}


@pytest.mark.parametrize("args", [["stats", "variants", "--preset", "sochi"],
                                  ["compare", "seed003-settlement", "--rules", "leningrad"]])
def test_format_json_and_json_are_one_document(store: Path, args: list[str]) -> None:
    a = invoke(*args, "--format", "json", *st(store))
    b = invoke(*args, "--json", *st(store))
    assert a.exit_code == b.exit_code == 0, a.output + b.output
    assert json.loads(a.stdout) == json.loads(b.stdout)
    assert json.loads(a.stdout)["version"] == 1


def test_report_takes_the_filters_of_stats(store: Path, tmp_path: Path) -> None:
    """``report --player/--preset/--from/--to/--pulka`` as ``stats``: the page says the filters, and a
    player the store does not know is refused with the known ones (exit 2, no page)."""
    page = tmp_path / "r.html"
    res = invoke("report", "--html", str(page), "--player", "Запад", "--pulka", "seed003-settlement", *st(store))
    assert res.exit_code == 0, res.output
    assert "player=Запад" in page.read_text(encoding="utf-8")
    page.unlink()
    res = invoke("report", "--html", str(page), "--player", "Nobody", *st(store))
    assert res.exit_code == 2 and "no player 'Nobody'" in res.stderr and not page.exists()
