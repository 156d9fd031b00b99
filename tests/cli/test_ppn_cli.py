"""PPN through the CLI: a Croatian pulka exported to PPN and imported into an empty store gives the same
sheet; the spec's example audited with its findings at file:line:col; bad input refused in one line with
nothing stored; a pulka PPN cannot hold refused by export in one line (docs/ppn.md)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.record import write_text
from preflog.record.errors import RecordWriteError
from preflog.record.ppn import write_ppn
from preflog.sim.pulka import simulate_pulka

DATA = Path(__file__).resolve().parents[2] / "data" / "examples"
SPEC = Path(__file__).resolve().parents[1] / "record" / "ppn" / "spec-example.ppn"


def _run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(app, list(args))
    return res.exit_code, res.output


def _writable_croatian(preset: str) -> str:
    for seed in range(50):
        evs = simulate_pulka(preset, 3, seed, pool=30)
        try:
            write_ppn(evs)
        except RecordWriteError:
            continue
        return write_text(evs)
    raise AssertionError("no simulated pulka PPN can hold")


def test_export_ppn_then_import_gives_the_same_sheet(tmp_path: Path) -> None:
    """A pulka simulated under each preset PPN holds (Serbian, the game PPN was written for, included),
    exported to PPN and imported into an empty store gives the same sheet (issue 40's test of done)."""
    for name, text in (("hr.pref", _writable_croatian("croatian")), ("si.pref", _writable_croatian("slovenian")),
                       ("rs.pref", _writable_croatian("serbian"))):
        first, second = tmp_path / f"a-{name}", tmp_path / f"b-{name}"
        src = tmp_path / name
        src.write_text(text, encoding="utf-8")
        code, out = _run("import", str(src), "--store", str(first))
        assert code == 0, out
        code, out = _run("ls", "--json", "--store", str(first))
        [pid] = [p["id"] for p in json.loads(out)["pulkas"]]
        code, ppn = _run("export", pid, "--format", "ppn", "--store", str(first))
        assert code == 0, ppn
        assert ppn.startswith("[Bula ") and "\n[1 " in ppn
        target = tmp_path / f"{pid}.ppn"
        target.write_text(ppn, encoding="utf-8")
        code, out = _run("import", str(target), "--store", str(second))
        assert code == 0, out
        sheets = [json.loads(_run("sheet", pid, "--json", "--store", str(s))[1]) for s in (first, second)]
        assert sheets[0] == sheets[1]
        again = [_run("export", pid, "--format", "ppn", "--store", str(s))[1] for s in (first, second)]
        assert again[0] == again[1] == ppn


def test_audit_of_the_spec_example_points_at_fields(tmp_path: Path) -> None:
    code, out = _run("audit", str(SPEC), "--store", str(tmp_path / "s"))
    assert code == 1
    lines = [x for x in out.splitlines() if ": deal " in x]
    assert [x.split(": deal ")[0].rsplit("/", 1)[-1] for x in lines] == [
        "spec-example.ppn:17:54", "spec-example.ppn:19:53", "spec-example.ppn:20:54", "spec-example.ppn:20:116",
        "spec-example.ppn:10:14", "spec-example.ppn:11:14", "spec-example.ppn:12:14"]
    assert "discard_not_held" in lines[0] and "stated_mismatch" in lines[4]


def test_bad_ppn_is_one_line_and_stores_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ppn"
    bad.write_text(SPEC.read_text(encoding="utf-8").replace("2,G4", "2,G4").replace("M3,P,3 2 GH", "M3,Z,3 2 GH"),
                   encoding="utf-8")
    store = tmp_path / "s"
    code, out = _run("import", str(bad), "--store", str(store))
    assert code != 0
    [line] = [x for x in out.splitlines() if "bad.ppn:20:" in x]
    assert "'Z' is not a PPN bid" in line
    code, out = _run("ls", "--json", "--store", str(store))
    assert code != 0 or json.loads(out)["pulkas"] == []


def test_export_refuses_written_score_lines_in_one_line(tmp_path: Path) -> None:
    store = str(tmp_path / "s")
    assert _run("import", str(DATA / "seed000-sample-sheet-cards.pref"), "--store", store)[0] == 0
    code, out = _run("export", "seed000-sample-sheet-cards", "--format", "ppn", "--store", store)
    assert code != 0 and out.strip().count("\n") == 0
    assert "deal 1 cannot be written as PPN: it holds a ScoreRecorded event (a written score line" in out


def test_export_refuses_a_russian_pulka_in_one_line(tmp_path: Path) -> None:
    src = tmp_path / "r.pref"
    src.write_text(write_text(simulate_pulka("sochi", 3, 1, pool=10)), encoding="utf-8")
    store = str(tmp_path / "s")
    assert _run("import", str(src), "--store", store)[0] == 0
    [pid] = [p["id"] for p in json.loads(_run("ls", "--json", "--store", store)[1])["pulkas"]]
    code, out = _run("export", pid, "--format", "ppn", "--store", store)
    assert code != 0
    assert out.strip().count("\n") == 0 and "a russian pulka cannot be written as PPN" in out


def test_audit_json_of_a_ppn_file_gives_line_and_column(tmp_path: Path) -> None:
    code, out = _run("audit", str(SPEC), "--json", "--store", str(tmp_path / "s"))
    assert code == 1
    found = [(f["code"], f["line"], f["column"]) for f in json.loads(out)["pulkas"][0]["findings"]]
    assert found == [("discard_not_held", 17, 54), ("discard_not_held", 19, 53), ("discard_not_held", 20, 54),
                     ("pulka_not_finished", 20, 116), ("stated_mismatch", 10, 14), ("stated_mismatch", 11, 14),
                     ("stated_mismatch", 12, 14)]
