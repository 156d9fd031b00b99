"""Seed 000's sample sheet through the CLI: every line and the settlement (docs/rules.md §C6)."""

import json
from pathlib import Path

from typer.testing import CliRunner

from preflog.cli.app import app

DATA = Path(__file__).resolve().parents[2] / "data" / "examples"


def test_sample_sheet_lines_and_settlement(tmp_path: Path) -> None:
    """Columns start at −30. Deal 1: C ♦ with talon (V 6) made → C −24, A and B write 12 each on C.
    Deal 2: B ♣ (V 10) made, C alone 3 tricks → B −20, C writes 30 on B. Deal 3: all pass → refe.
    Deal 4: A ♣ on refe (×2 → 20), C alone 3 tricks → A −10, C writes 60 on A.
    Settlement: columns −10/−20/−24, mean −18 → +80/−20/−60; juha A +12 −60, B +12 −30, C +90 −24
    → A +32, B −38, C +6."""
    for name in ("seed000-sample-sheet.pref", "seed000-sample-sheet-cards.pref"):
        res = CliRunner().invoke(app, ["sheet", str(DATA / name), "--json", "--store", str(tmp_path)])
        assert res.exit_code == 0, res.output
        pk = json.loads(res.output)["pulkas"][0]
        assert pk["start"]["pulya"] == {"A": -30, "B": -30, "C": -30}
        cols = [tuple(d["pulya"].values()) for d in pk["deals"]]
        assert cols == [(-30, -30, -24), (-30, -20, -24), (-30, -20, -24), (-10, -20, -24)]
        assert pk["deals"][0]["visty"]["A"]["C"] == 12 and pk["deals"][0]["visty"]["B"]["C"] == 12
        assert pk["deals"][1]["visty"]["C"]["B"] == 30
        assert pk["deals"][3]["visty"]["C"]["A"] == 60
        assert pk["settlement"]["exact"] == {"A": 32, "B": -38, "C": 6}
        audit = CliRunner().invoke(app, ["audit", str(DATA / name), "--json", "--store", str(tmp_path)])
        assert audit.exit_code == 0 and json.loads(audit.output)["pulkas"][0]["findings"] == []


def test_replay_shows_a_croatian_contract(tmp_path: Path) -> None:
    """``replay`` of a Croatian deal with a contract: the contract line (a Croatian deal has no open play;
    the view used to ask it for one and fail)."""
    res = CliRunner().invoke(app, ["replay", str(DATA / "seed000-sample-sheet-cards.pref"), "--deal", "1",
                                   "--store", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "contract: C 3" in res.output and "open play" not in res.output
    assert "auction: C 2, A pass, B pass" in res.output
