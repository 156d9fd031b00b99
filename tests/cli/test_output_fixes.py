"""Outputs that were wrong or could not be read back: simulated JSON on stdout, JSON on stdin, empty
files, the record's date form in filters, mistyped stores, filters that match nothing, float noise.

The stats store is the two hand-built pulkas of ``tests/stats/conftest.py``: p1 (Sochi, 2024-03-01:
Ann, Bob, Cid) and p2 (Leningrad, 2024-04-10: Ann, Bob, Dan).
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app
from preflog.projections.store import rebuild

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
_CONFTEST = Path(__file__).resolve().parents[1] / "stats" / "conftest.py"
runner = CliRunner()


def invoke(*args: str, input: str | None = None) -> Result:
    res = runner.invoke(app, list(args), input=input)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


def one_line_refusal(res: Result) -> str:
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert res.stdout == ""
    return lines[0]


@pytest.fixture(scope="module")
def stats_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    spec = importlib.util.spec_from_file_location("_stats_conftest", _CONFTEST)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    root = tmp_path_factory.mktemp("stats")
    rebuild(root, [mod.make_p1(), mod.make_p2()])
    return root


def test_simulated_json_on_stdout_is_one_document_import_reads(tmp_path: Path) -> None:
    """Two pulkas as JSON on stdout: one document with two entries, and ``import -`` takes both."""
    res = invoke("simulate", "--pulkas", "2", "--format", "json", "--seed", "3")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert len(doc["pulkas"]) == 2
    res = invoke("import", "-", "--store", str(tmp_path / "st"), input=res.stdout)
    assert res.exit_code == 0, res.output
    assert "2 imported" in res.stdout


def test_json_on_stdin_is_read_as_json(tmp_path: Path) -> None:
    """``export --format json | import -`` into another store: the same pulka (same deal count)."""
    store = str(tmp_path / "a")
    assert invoke("import", str(EXAMPLES / "seed003-settlement.pref"), "--store", store).exit_code == 0
    exported = invoke("export", "seed003-settlement", "--format", "json", "--store", store).stdout
    assert exported.lstrip().startswith("{")
    res = invoke("import", "-", "--store", str(tmp_path / "b"), input=exported)
    assert res.exit_code == 0, res.output
    assert "1 imported" in res.stdout and "seed003-settlement" in res.stdout
    a = json.loads(invoke("sheet", "seed003-settlement", "--json", "--store", store).stdout)["pulkas"][0]
    b = json.loads(invoke("sheet", "seed003-settlement", "--json", "--store", str(tmp_path / "b")).stdout)
    assert b["pulkas"][0]["settlement"] == a["settlement"]


@pytest.mark.parametrize("command", [["audit"], ["sheet"], ["replay"], ["compare", "--rules", "rostov"]])
def test_an_empty_file_is_refused_as_import_refuses_it(tmp_path: Path, command: list[str]) -> None:
    empty = tmp_path / "empty.pref"
    empty.write_text("", encoding="utf-8")
    line = one_line_refusal(invoke(command[0], str(empty), *command[1:], "--store", str(tmp_path / "st")))
    assert line.startswith(f"error: {empty}: holds no pulka")
    imported = invoke("import", str(empty), "--store", str(tmp_path / "st"))
    assert imported.exit_code == 2 and f"{empty}: holds no pulka" in imported.stderr
    assert not (tmp_path / "st").exists()


@pytest.mark.parametrize(("args", "players"), [
    (("--from", "2024.04.01"), ["Ann", "Bob", "Dan"]),    # the record's own form: p2 only
    (("--to", "2024/03/31"), ["Ann", "Bob", "Cid"]),      # p1 only
    (("--from", "2024.3.1", "--to", "2024.3.1"), ["Ann", "Bob", "Cid"]),
])
def test_dates_in_the_records_form(stats_store: Path, args: tuple[str, ...], players: list[str]) -> None:
    res = invoke("stats", "players", *args, "--format", "csv", "--store", str(stats_store))
    assert res.exit_code == 0, res.output
    assert sorted(pd.read_csv(io.StringIO(res.stdout))["player"]) == players


@pytest.mark.parametrize("value", ["2024.13.01", "yesterday", "2024-02-30", "2024-03-01T10:00"])
def test_a_bad_date_is_one_line(stats_store: Path, value: str) -> None:
    line = one_line_refusal(invoke("stats", "players", "--from", value, "--store", str(stats_store)))
    assert f"--from {value!r} is not a date" in line


@pytest.mark.parametrize("command", [["stats", "players"], ["stats", "contracts"], ["stats", "variants"],
                                     ["sql", "SELECT 1"], ["report", "--html", "out.html"]])
def test_a_mistyped_store_is_named(tmp_path: Path, command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    line = one_line_refusal(invoke(*command, "--store", str(tmp_path / "nope")))
    assert line.startswith(f"error: no preflog store at {tmp_path / 'nope'}")
    assert not (tmp_path / "out.html").exists() and not (tmp_path / "nope").exists()


@pytest.mark.parametrize(("args", "message"), [
    (("--player", "Anne"), "no player 'Anne' in the store (known players: Ann, Bob, Cid, Dan)"),
    (("--preset", "rostov"), "no preset 'rostov' in the store (known presets: leningrad, sochi)"),
    (("--pulka", "p3"), "no pulka 'p3' in the store (known pulkas: p1, p2)"),
])
def test_a_filter_naming_nothing_stored_lists_the_known_values(stats_store: Path, args: tuple[str, ...],
                                                              message: str) -> None:
    assert one_line_refusal(invoke("stats", "players", *args, "--store", str(stats_store))) == f"error: {message}"


def test_dates_matching_nothing_say_so_with_the_stored_range(stats_store: Path) -> None:
    res = invoke("stats", "contracts", "--from", "2025-01-01", "--format", "csv", "--store", str(stats_store))
    assert res.exit_code == 0
    assert res.stderr.strip() == "no pulka in the dates asked (the stored pulkas' dates: 2024-03-01 to 2024-04-10)"
    assert len(pd.read_csv(io.StringIO(res.stdout))) == 0


def test_csv_and_json_carry_no_float_noise(stats_store: Path) -> None:
    """Sums of thirds stored as floats print with at most 9 decimals and no runs of 0s or 9s; Ann's
    results read back equal the hand values of the conftest (p1 −110/3, p2 −308/3)."""
    noise = re.compile(r"\d\.\d*(0{6,}[1-9]|9{6,})")
    for kind in ("players", "contracts", "variants"):
        for fmt in ("csv", "json"):
            text = invoke("stats", kind, "--format", fmt, "--store", str(stats_store)).stdout
            assert not noise.search(text), (kind, fmt, noise.search(text))
            assert not re.search(r"\.\d{10,}", text), (kind, fmt)
    res = invoke("sql", "SELECT pulka, result FROM pulka_results WHERE player = 'Ann' ORDER BY pulka",
                 "--format", "json", "--store", str(stats_store))
    rows = json.loads(res.stdout)
    assert [r["result"] for r in rows] == [round(-110 / 3, 9), round(-308 / 3, 9)]


def test_strict_audit_names_the_pulka_of_its_finding(tmp_path: Path) -> None:
    """A file of several pulkas: ``--strict`` stops at the first finding of the first pulka that has one
    and names that pulka (not the file), in text and in JSON."""
    path = tmp_path / "two.pref"
    clean = (EXAMPLES / "seed003-settlement.pref").read_text(encoding="utf-8")
    illegal = (EXAMPLES / "seed001-bidding-illegal.pref").read_text(encoding="utf-8")
    path.write_text(clean + "\n" + illegal, encoding="utf-8")
    full = json.loads(invoke("audit", str(path), "--json", "--store", str(tmp_path / "st")).stdout)["pulkas"]
    first = next(p for p in full if p["findings"])
    assert full[0]["id"] == "seed003-settlement" and not full[0]["findings"]
    res = invoke("audit", str(path), "--strict", "--store", str(tmp_path / "st"))
    f = first["findings"][0]
    assert res.exit_code == 1
    assert res.stderr.strip() == f"{first['id']}: deal {f['deal']}, event {f['seq']}: {f['code']}: {f['message']}"
    res = invoke("audit", str(path), "--strict", "--json", "--store", str(tmp_path / "st"))
    assert res.exit_code == 1
    assert json.loads(res.stdout) == {"kind": "audit", "version": 2,  # the audit --json envelope (docs/cli.md)
                                      "pulkas": [{"id": first["id"], "findings": [f], "settlement": None}]}


def test_ls_filters(tmp_path: Path) -> None:
    """seed003-settlement (Sochi: Запад, Восток, Юг) and the two Leningrad pulkas of seed001-leningrad-four
    (A, B, C, D): each filter keeps its pulkas; a player the store does not know is refused by name."""
    store = str(tmp_path / "st")
    res = invoke("import", str(EXAMPLES / "seed003-settlement.pref"), str(EXAMPLES / "seed001-leningrad-four.pref"),
                 "--store", store)
    assert res.exit_code == 0, res.output

    def ids(*args: str) -> list[str]:
        res = invoke("ls", "--json", *args, "--store", store)
        assert res.exit_code == 0, res.output
        return [p["id"] for p in json.loads(res.stdout)["pulkas"]]

    everything = json.loads(invoke("ls", "--json", "--store", store).stdout)["pulkas"]
    leningrad = [p["id"] for p in everything if p["rules"].startswith("leningrad")]
    assert len(leningrad) == 2 and len(everything) == 3
    assert ids("--preset", "leningrad") == leningrad
    assert ids("--player", "Юг") == ["seed003-settlement"]
    assert ids("--player", "D", "--preset", "sochi") == []
    assert one_line_refusal(invoke("ls", "--player", "Zed", "--store", store)).startswith("error: no player 'Zed'")


def test_compact_says_what_it_merged(tmp_path: Path) -> None:
    """Two imports are two appends, so two data files; compacting merges them into one, and a second
    compaction has nothing left to merge."""
    store = str(tmp_path / "st")
    for name in ("seed003-settlement.pref", "seed001-leningrad-four.pref"):
        assert invoke("import", str(EXAMPLES / name), "--store", store).exit_code == 0
    res = invoke("compact", "--store", store)
    assert res.exit_code == 0 and res.stdout == "merged 2 small files into 1 (2 files considered)\n", res.output
    res = invoke("compact", "--store", store)
    assert res.exit_code == 0 and res.stdout == "nothing to merge (1 file considered)\n", res.output


def test_findings_of_a_record_file_point_into_it(tmp_path: Path) -> None:
    """A finding of a pulka read from a text record starts with the file and the line of the event it
    is about (line 12 holds Boris's Qc, played while he holds 8s: event 14, the store's numbering — PulkaStarted,
    DealStarted, 3 calls, the discard, the contract, 2 whist calls, trick 1's 3 cards, then Ks and Qc)."""
    record = tmp_path / "game.pref"
    record.write_text('[Players "Anna, Boris, Vera"]\nDeal 1: dealer C\n'
                      "A: As Ks Qs Js 10s Ac Kc Ad Kd 7h\nB: 9s 8s Qc Jc 10c Qd Jd 10d Ah Kh\n"
                      "C: 7s 9c 8c 7c 9d 8d 7d Qh Jh 10h\nTalon: 9h 8h\nAuction: A 6s, B pass, C pass\n"
                      "Discard: A 9h 8h\nContract: A 6s\nWhist: B whist, C pass\n1: As 9s 7s\n2: Ks Qc 9c\n",
                      encoding="utf-8")
    res = CliRunner().invoke(app, ["audit", str(record)], env={"COLUMNS": "200"})
    line = next(x for x in res.output.splitlines() if "must_follow_suit" in x)
    assert line.startswith(f"{record}:12: deal 1, event 14: must_follow_suit: Boris (seat 1) plays Qc")
