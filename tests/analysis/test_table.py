"""The play_analysis tables (``preflog analyze --all``) over a store of the three hand-built deals of
tests/analysis/records.py, and the report per player worked out from their docstrings (test_deal.py).

Cards each player answered for: Anna declares all three deals (10 cards in DOWN_ONE, 1 before the claim in
MISER and in WRONG_WHIST: 12, 1 trick lost); Boris and Vera defend them (12 cards each; Boris lost the miser's
trick). Anna's trick contracts were both makeable; she made one. The miser was catchable and not caught.
Whists: Boris right in DOWN_ONE (4/3 against −20/3), wrong in WRONG_WHIST; Vera right in both (a tie,
−20/3 each, counts as right). Costs: Anna 98/3, Boris 200/3, Vera 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.analysis.table import MANIFEST
from preflog.cli.app import app

from .records import DOWN_ONE
from .records import HEAD
from .records import MISER
from .records import WRONG_WHIST

runner = CliRunner()


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    for name, text in (("down-one", DOWN_ONE), ("miser", MISER), ("wrong-whist", WRONG_WHIST)):
        (tmp_path / f"{name}.pref").write_text(text, encoding="utf-8")
    st = tmp_path / "st"
    res = runner.invoke(app, ["import", *(str(p) for p in sorted(tmp_path.glob("*.pref"))), "--store", str(st)])
    assert res.exit_code == 0, res.output
    return st


def run(store: Path) -> dict[str, object]:
    res = runner.invoke(app, ["analyze", "--all", "--json", "--workers", "1", "--store", str(store)])
    assert res.exit_code == 0, res.output
    out: dict[str, object] = json.loads(res.stdout)
    return out


def test_report_per_player(store: Path) -> None:
    got = run(store)
    assert (got["analysed"], got["current"]) == (3, 0)
    rows = {r["player"]: r for r in got["rows"]}  # type: ignore[attr-defined]
    anna, boris, vera = rows["Anna"], rows["Boris"], rows["Vera"]
    assert (anna["declarer_cards"], anna["declarer_lost"], anna["declarer_lost_per_100"]) == (12, 1, 8.33)
    assert (anna["contracts_makeable"], anna["contracts_made_of_makeable"], anna["contracts_made"]) == (2, 1, 1)
    assert (boris["defender_cards"], boris["defender_lost"], vera["defender_cards"], vera["defender_lost"]) == \
        (12, 1, 12, 0)
    assert (boris["misers_catchable"], boris["misers_caught"]) == (1, 0)
    assert (boris["whists_right"], boris["whists_wrong"], vera["whists_right"], vera["whists_wrong"]) == (1, 1, 2, 0)
    assert (anna["cost"], boris["cost"], vera["cost"]) == (32.67, 66.67, 0)


def test_incremental_by_head_and_rebuilt_on_a_new_version(store: Path) -> None:
    run(store)
    again = run(store)
    assert (again["analysed"], again["current"]) == (0, 3)
    manifest = store / "analysis" / MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["pulkas"]["miser"][0] += 1          # as if the pulka's events had changed
    manifest.write_text(json.dumps(data), encoding="utf-8")
    changed = run(store)
    assert (changed["analysed"], changed["current"]) == (1, 2)
    assert {r["player"]: r["cost"] for r in changed["rows"]}["Boris"] == 66.67  # type: ignore[attr-defined]
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["version"] = 0                       # an older layout: everything is analysed again
    manifest.write_text(json.dumps(data), encoding="utf-8")
    assert run(store)["analysed"] == 3
    assert len(list((store / "analysis").glob("deals-*.parquet"))) == 1


@pytest.mark.slow
def test_workers_give_the_same_tables(store: Path) -> None:
    """Two worker processes (a fork server) build the same report as one process."""
    one = run(store)
    (store / "analysis" / MANIFEST).unlink()
    res = runner.invoke(app, ["analyze", "--all", "--json", "--workers", "2", "--store", str(store)])
    two = json.loads(res.stdout)
    assert two["analysed"] == 3 and two["rows"] == one["rows"]


def test_a_store_of_paper_deals_says_why_there_is_nothing_to_report(tmp_path: Path) -> None:
    """Paper-level deals (contract and tricks, no hands) are counted but give no row: the report says the
    analysis needs the cards, instead of a bare "no analysed deals" under "1 deal analysed"."""
    paper = HEAD.format(id="paper") + "\nDeal 1: dealer C\nContract: A 6s\nWhist: B pass, C whist\n" \
        "Tricks: A 6, B 0, C 4\n"
    (tmp_path / "paper.pref").write_text(paper, encoding="utf-8")
    st = tmp_path / "st"
    assert runner.invoke(app, ["import", str(tmp_path / "paper.pref"), "--store", str(st)]).exit_code == 0
    res = runner.invoke(app, ["analyze", "--all", "--workers", "1", "--store", str(st)], terminal_width=80)
    assert res.exit_code == 0, res.output
    assert "1 pulka analysed (1 deal)" in res.output
    said = " ".join(res.output.split())
    assert "no deal here has its cards recorded: the double-dummy analysis needs each hand" in said
