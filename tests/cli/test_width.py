"""Default outputs at an 80-column terminal: nothing is cut with ``…``, no line is wider than the
terminal, and the key columns (names, counts, headline numbers) survive.

The CLI's consoles are set to 80 columns (what ``COLUMNS=80`` or an 80-column terminal gives them);
the numbers asserted come from the same command's machine output (``--format csv`` / ``--json``), so the
test checks the layout, not the statistics.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from preflog.cli import app as cli

from .conftest import WIDTH

DATA = Path(__file__).resolve().parents[2] / "data"
runner = CliRunner()


pytestmark = pytest.mark.usefixtures("narrow")  # an 80-column terminal (tests/cli/conftest.py)


def run(*args: str) -> tuple[int, str]:
    res = runner.invoke(cli.app, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res.exit_code, res.output


def readable(text: str) -> list[str]:
    lines = text.splitlines()
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]
    assert "…" not in text, text
    return lines


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped Croatian and Sochi demo records (hand games, 3 players with names)."""
    root = tmp_path_factory.mktemp("width") / "st"
    res = runner.invoke(cli.app, ["import", str(DATA / "demo" / "croatian-3p.pref"),
                                  str(DATA / "demo" / "sochi-3p.pref"), "--store", str(root)])
    assert res.exit_code == 0, res.output
    return root


def test_players_table_keeps_names_and_numbers(store: Path) -> None:
    """Every player's name, deal count, average and total visty and points are on the table (rounded as
    the table rounds them); the left-out columns are named."""
    code, text = run("stats", "players", "--store", str(store))
    assert code == 0
    lines = readable(text)
    code, csv = run("stats", "players", "--format", "csv", "--store", str(store))
    df = pd.read_csv(io.StringIO(csv))
    for row in df.itertuples():
        line = next(line for line in lines if f"│ {row.player} " in line)
        assert f" {row.deals_played} " in line
        last = [float(c) for c in line.strip("│").split("│")[-4:]]  # avg and total visty, avg and total points
        assert last == pytest.approx([row.avg_visty, row.total_visty, row.avg_points, row.total_points], abs=0.05)
    assert "left out at this width" in text


def test_contracts_table_keeps_the_hand_suffix(store: Path) -> None:
    """Croatian hand games ("igra") keep their `` hand`` label, with n and made."""
    code, text = run("stats", "contracts", "--store", str(store))
    assert code == 0
    lines = readable(text)
    df = pd.read_csv(io.StringIO(run("stats", "contracts", "--format", "csv", "--store", str(store))[1]))
    hand = df[df["hand_game"] == True]  # noqa: E712 (a pandas mask)
    assert len(hand)
    for row in hand.itertuples():
        assert any(f" {row.contract_label} hand " in line and f" {row.n} " in line and f" {row.made} " in line
                   for line in lines), row


def test_import_table_does_not_cut_file_names(tmp_path: Path) -> None:
    """A 60-character file name is printed whole (folded if it must be, never cut), with its pulka."""
    name = "a-rather-long-record-name-from-the-friday-club-evening-01.pref"
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(DATA / "examples" / "seed003-settlement.pref", folder / name)
    code, text = run("import", str(folder / name), "--store", str(tmp_path / "st"))
    assert code == 0
    readable(text)
    assert name in text.replace("│", "").replace("\n", "").replace(" ", "")
    assert "seed003-settlement" in text and "1 imported" in text


def test_import_of_many_files_prints_counts_and_details_on_request(tmp_path: Path) -> None:
    """25 files: by default the counts alone; ``--details`` lists every pulka."""
    folder = tmp_path / "many"
    folder.mkdir()
    record = (DATA / "examples" / "seed003-settlement.pref").read_text(encoding="utf-8")
    for i in range(25):
        (folder / f"game-{i:02d}.pref").write_text(record.replace("seed003-settlement", f"game-{i:02d}"),
                                                    encoding="utf-8")
    code, text = run("import", str(folder), "--store", str(tmp_path / "st"), "--workers", "1")
    assert code == 0
    assert "25 files: 25 imported, 0 already stored, 0 files with errors" in text
    assert "game-07" not in text and len(readable(text)) <= 3
    code, text = run("import", str(folder), "--store", str(tmp_path / "st"), "--workers", "1", "--details")
    assert code == 0
    assert all(f"game-{i:02d}" in text for i in range(25)) and text.count("duplicate") == 25


def test_audit_all_prints_a_summary_of_many_pulkas(store: Path) -> None:
    """120 stored pulkas (40 Croatian, 80 Sochi): the totals by rules, not 120 sheets; ``--details`` prints
    each pulka."""
    code, text = run("audit", "--all", "--store", str(store))
    assert code == 0
    readable(text)
    assert "audit by rules" in text and "every pulka audits clean" in text and "sheet of" not in text
    code, text = run("audit", "--all", "--details", "--store", str(store))
    assert code == 0 and text.count("audit of ") == 120


def test_text_sheet_shows_the_final_totals_as_columns() -> None:
    """seed003-settlement: the final pulya, gora, visty and the settlement of ``sheet --json`` are each a
    cell of the player's row (seed 003: method 1 is 31 / −30 / −1); the running chains follow."""
    path = str(DATA / "examples" / "seed003-settlement.pref")
    code, text = run("sheet", path, "--store", "nowhere")
    assert code == 0
    lines = readable(text)
    pk = json.loads(runner.invoke(cli.app, ["sheet", path, "--json", "--store", "nowhere"]).stdout)["pulkas"][0]
    tot, st = pk["totals"], pk["settlement"]
    for p in pk["players"]:
        row = next(line for line in lines if line.startswith(f"│ {p} "))
        cells = [c.strip() for c in row.strip("│").split("│")]
        visty = ["—" if q == p else str(tot["visty"][p][q]) for q in pk["players"]]
        assert cells == [p, str(tot["pulya"][p]), str(tot["gora"][p]), *visty, str(st["exact"][p]),
                         str(st["method1"][p]), str(st["method2"][p])]
        assert any(line.startswith(f"  {p}: pulya ") for line in lines)
    assert st["method1"] == {"Запад": 31, "Восток": -30, "Юг": -1}


def test_demo_is_readable_and_ends_with_what_next(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for name in ("seed003-settlement.pref", "seed001-bidding-illegal.pref"):
        shutil.copy(DATA / "examples" / name, data / name)
    code, text = run("demo", "--data", str(data), "--store", str(tmp_path / "st"))
    assert code == 0
    tail = " ".join(" ".join(readable(text)[-3:]).split())  # the line folds at spaces
    assert tail.endswith(f"what next: preflog report --store {tmp_path / 'st'} --html report.html (charts), "
                         "preflog --help")


def test_compare_table_shows_the_exact_settlements() -> None:
    """docs/rules.md §B1 under Leningrad (the numbers of tests/cli/test_reports_cli.py): A −152/3 recorded,
    −304/3 under Leningrad, so the difference is −152/3; each an exact cell of A's row."""
    code, text = run("compare", str(DATA / "examples" / "digest-b1.6-worked-deal.pref"), "--rules", "leningrad",
                     "--store", "nowhere")
    assert code == 0
    row = next(line for line in readable(text) if line.startswith("│ A "))
    assert [c.strip() for c in row.strip("│").split("│")] == ["A", "leningrad", "1", "-152/3", "-304/3", "-152/3"]


def test_sql_table_prints_dates_and_lists(store: Path) -> None:
    code, text = run("sql", "SELECT pulka, date, tricks FROM deals ORDER BY pulka, deal LIMIT 2", "--store",
                     str(store))
    assert code == 0, text
    assert "demo-croatian-3p-001" in text and "2023-04-27" in text
    readable(text)


def test_settle_keeps_names_and_numbers_at_80_columns() -> None:
    """Seed 003's totals (price 100): too wide for one table, so the settlement gets its own; no name
    or number is cut, and the money row is the seed's 3100 / −3000 / −100."""
    path = str(Path(__file__).resolve().parents[1] / "golden" / "seed003-totals.pref")
    code, text = run("settle", path, "--store", "nowhere")
    assert code == 0
    lines = readable(text)
    for p, money in (("Запад", "3100"), ("Восток", "-3000"), ("Юг", "-100")):
        rows = [line for line in lines if line.startswith(f"│ {p} ")]
        assert len(rows) == 2 and rows[1].rstrip("│ ").endswith(money)


def test_analyze_prints_every_finding_within_80_columns(tmp_path: Path) -> None:
    """``analyze FILE`` (the first pulka of data/demo/sochi-3p.pref, 35 deals) and ``analyze --all``: no line
    wider than the terminal, nothing cut, and the figures of ``--json`` are all there (every deal, every card
    that lost tricks with its cost)."""
    record = str(DATA / "demo" / "sochi-3p.pref")
    code, text = run("analyze", record, "--store", str(tmp_path / "st"))
    assert code == 0
    lines = readable(text)
    got = json.loads(runner.invoke(cli.app, ["analyze", record, "--json", "--store", str(tmp_path / "st")]).stdout)
    deals = got["pulkas"][0]["deals"]
    flat = " ".join(" ".join(lines).split())
    for d in deals:
        assert f"Deal {d['deal']}:" in flat
        for x in d["losses"]:
            assert f"at trick {x['trick']} lost {x['lost']} trick" in flat
    costs = sum(1 for d in deals for x in d["losses"] if x["cost"] is not None)
    assert costs and flat.count("; it cost ") == costs
    store = tmp_path / "club"
    run("import", str(DATA / "examples" / "seed000-sample-sheet-cards.pref"), "--store", str(store))
    code, text = run("analyze", "--all", "--workers", "1", "--store", str(store))
    assert code == 0
    lines = readable(text)
    got = json.loads(runner.invoke(cli.app, ["analyze", "--all", "--json", "--store", str(store)]).stdout)
    for r in got["rows"]:
        row = next(line for line in lines if line.split()[:2] == [r["player"], r["unit"]])
        assert f"{r['whists_right']}/{r['whists_wrong']}" in row and f"{r['cost']:.1f}" in row
