"""Issue 25, text layout at 80 columns: ``ls`` keeps ids whole and counts deals as ``import`` does; sheet
titles and folded running totals are indented; ``replay`` names the talon and the discard, counts the tricks
of a paper deal, says when a deal had no play, and speaks the Croatian sheet's words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli import app as cli

from .conftest import WIDTH

DATA = Path(__file__).resolve().parents[2] / "data"
EXAMPLES = DATA / "examples"
runner = CliRunner()


pytestmark = pytest.mark.usefixtures("narrow")  # an 80-column terminal (tests/cli/conftest.py)


def run(*args: str) -> str:
    res = runner.invoke(cli.app, list(args))
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    if "--json" not in args:
        assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]
    return res.stdout


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The six illegal auctions of seed 001 (each stopped in its first deal), the raspasy variant (a long
    rules spec), the Rostov paper raspasy, and the Sochi demo (hands, talon and discard recorded)."""
    root = tmp_path_factory.mktemp("layout") / "st"
    res = runner.invoke(cli.app, ["import", str(EXAMPLES / "seed001-bidding-illegal.pref"),
                                  str(EXAMPLES / "seed003-raspasy-variant.pref"),
                                  str(EXAMPLES / "seed001-rostov-raspasy.pref"),
                                  str(DATA / "demo" / "sochi-3p.pref"), str(DATA / "demo" / "croatian-3p.pref"),
                                  "--store", str(root)])
    assert res.exit_code == 0, res.output
    return root


def test_ls_keeps_ids_whole_at_80_columns(store: Path) -> None:
    """The longest id (38 characters) is one cell of one line; rules and players fold instead."""
    text = run("ls", "--store", str(store))
    ids = [p["id"] for p in json.loads(run("ls", "--json", "--store", str(store)))["pulkas"]]
    assert "seed001-illegal-nine-over-miser-by-ten" in ids
    for pid in ids:
        assert re.search(rf"│ {re.escape(pid)} +│", text), pid


def test_ls_counts_deals_as_import_does(store: Path, tmp_path: Path) -> None:
    """Each illegal auction is one deal started (import says 1), though the audit stopped in it."""
    imported = json.loads(runner.invoke(cli.app, ["import", str(EXAMPLES / "seed001-bidding-illegal.pref"),
                                                  "--json", "--store", str(tmp_path / "st")]).stdout)
    listed = json.loads(run("ls", "--json", "--store", str(tmp_path / "st")))
    by_import = {i["pulka"]: i["deals"] for i in imported["items"]}
    assert by_import == {p["id"]: p["deals"] for p in listed["pulkas"]}
    assert set(by_import.values()) == {1}
    text = run("ls", "--store", str(tmp_path / "st"))
    assert re.search(r"│ seed001-illegal-jump +│ sochi +│ +│ +1 │", text)


def test_a_long_sheet_title_is_folded_and_indented(store: Path) -> None:
    """A title wider than its table stands above it, left, its further lines indented by two (rich
    centred each piece inside the table's width)."""
    text = run("sheet", "seed003-raspasy-variant", "--store", str(store))
    lines = text.splitlines()
    assert lines[0] == "sheet of seed003-raspasy-variant —"
    assert lines[1].startswith("  sochi+raspasy_exit=made_game") and lines[1].endswith("(pool 50)")
    assert lines[2].startswith("┏")


def test_folded_running_totals_are_indented(store: Path) -> None:
    """A player's running totals longer than a line go on under an indent of four, and a piece (``visty on X
    4.8``) never breaks from its numbers."""
    text = run("sheet", "demo-sochi-3p-001", "--store", str(store))
    lines = text.splitlines()
    start = lines.index("running totals, deal by deal:")
    chains = lines[start + 1:]
    assert any(line.startswith("    ") for line in chains), chains  # something folded
    for line in chains:
        assert line.startswith("  ") and not line.startswith("     ")
        assert not re.search(r"(visty|visty on \S+)$", line), line  # a word of a piece left alone at the end
        if line.startswith("    "):
            assert re.match(r"    (pulya|gora|visty on \S+) [\d.-]+", line), line


def test_replay_names_talon_and_discard(store: Path) -> None:
    """demo-sochi-3p-001, deal 2 (data/demo/sochi-3p.pref): talon 7♦ 8♥, B discards 10♠ 9♣, 6♥; after three
    tricks three are completed."""
    text = run("replay", "demo-sochi-3p-001", "--deal", "2", "--trick", "3", "--store", str(store))
    assert "talon: 7♦ 8♥" in text and "discard: Gleb 10♠ 9♣" in text
    assert "contract: Gleb 6h" in text and "tricks completed: 3" in text


def test_replay_counts_the_tricks_of_a_paper_deal(store: Path) -> None:
    """Rostov raspasy on paper (Tricks: A 0, B 3, C 7): all ten are completed, not 0."""
    text = run("replay", "seed001-rostov-raspasy", "--deal", "1", "--store", str(store))
    assert "tricks completed: 10" in text


def test_replay_of_a_deal_without_play_says_so(store: Path) -> None:
    """Deal 4 of demo-sochi-3p-001: Gleb's 6♠ that both defenders passed: no trick was played."""
    text = run("replay", "demo-sochi-3p-001", "--deal", "4", "--store", str(store))
    assert "no play: both defenders passed" in text and "tricks completed" not in text


def test_replay_of_a_croatian_pulka_uses_its_words(store: Path) -> None:
    """The Croatian sheet has a contract column and juha, and no gora: the score so far says so."""
    text = run("replay", "demo-croatian-3p-005", "--deal", "2", "--store", str(store))
    header = next(line for line in text.splitlines() if "player" in line and "written" in line)
    assert "column" in header and "juha written" in header
    assert "pulya" not in text and "gora" not in text and "visty" not in text


def test_a_croatian_sheet_shows_no_paper_methods(store: Path) -> None:
    """A Croatian sheet settles exactly (as the drawn sheet shows it): its text table has the contract
    column, juha and the exact result, not the Russian paper methods; a Sochi sheet keeps both methods."""
    croatian = run("sheet", "demo-croatian-3p-005", "--store", str(store))
    assert "column" in croatian and "exact" in croatian and "method" not in croatian
    sochi = run("sheet", "demo-sochi-3p-001", "--store", str(store))
    assert sochi.count("method") == 2
