"""The worked example of docs/analysis.md: the first deal of data/demo/sochi-3p.pref, and the text the doc
shows (its numbers are worked out there from the Sochi prices)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from preflog.analysis import analyze_events
from preflog.model.cards import parse_card
from preflog.views.analysis import analysis_text
from preflog.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]


def test_worked_example(tmp_path: Path) -> None:
    loaded = Workspace(tmp_path / "st").load(str(ROOT / "data/demo/sochi-3p.pref"))[0]
    res = analyze_events(loaded.id, loaded.events, deal=1)
    (d,) = res.deals
    assert (d.declarer_name, d.contract, d.double_dummy, d.needed, d.margin, d.actual, d.made) == \
        ("Gleb", "7d", 6, 7, -1, 7, True)
    (loss,) = d.losses
    assert (loss.player, loss.card, loss.trick, loss.lost, loss.cost) == \
        ("Boris", parse_card("10c"), 1, 1, Fraction(116, 3))
    whist = {w.player: (w.call, w.value, w.alternative_value, w.right) for w in d.whist}
    assert whist["Boris"] == ("whist", Fraction(76, 3), Fraction(52, 3), True)
    assert d.discard is not None and (d.discard.actual_tricks, d.discard.best_tricks) == (6, 7)
    doc = (ROOT / "docs/analysis.md").read_text(encoding="utf-8")
    shown = re.search(r"--deal 1` .*?```text\n(.*?)```", doc, re.S)
    assert shown is not None
    text = analysis_text(res).replace(f"solver {res.solver}", "solver native").replace("\u00a0", " ")
    assert text + "\n" == shown.group(1)
