"""Counterfactual comparison with the real Russian scorer on the worked deal of docs/rules.md §B1, §B2:
A declares 7♥, B (left) passes, C whists, open play, tricks 6/2/2 (down 1).
Sochi (seed 003): A −50⅔ = −152/3, B +17⅓ = 52/3, C +33⅓ = 100/3.
Leningrad (gentleman, doubled): A −101⅓ = −304/3, B +50⅔ = 152/3, C +50⅔ = 152/3.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from preflog.reports.counterfactual import CounterfactualError
from preflog.reports.counterfactual import compare


@pytest.fixture
def worked(p1):
    """p1's first deal alone, with no recorded settlement (so the base is re-scored under Sochi)."""
    return replace(p1, deals=p1.deals[:1], settlement=None)


def test_sochi_vs_leningrad_worked_deal(worked):
    """Per pulka: base = Sochi, alternative = Leningrad, diff = alternative − base
    (A −304/3 + 152/3 = −152/3, B 152/3 − 52/3 = 100/3, C 152/3 − 100/3 = 52/3)."""
    df = compare([worked], "leningrad", per_pulka=True).set_index("player")
    assert list(df["base_text"]) == ["-152/3", "52/3", "100/3"]
    assert list(df["alternative_text"]) == ["-304/3", "152/3", "152/3"]
    assert list(df["diff_text"]) == ["-152/3", "100/3", "52/3"]
    assert df.loc["Ann", "diff"] == pytest.approx(-152 / 3)
    assert df["alternative"].sum() == pytest.approx(0)


def test_totals_over_pulkas(worked):
    """Two identical pulkas: per player totals double (Ann base −304/3, alternative −608/3), pulkas = 2."""
    two = [worked, replace(worked, pulka="copy")]
    df = compare(two, "leningrad").set_index("player")
    assert df.loc["Ann", "pulkas"] == 2
    assert (df.loc["Ann", "base_text"], df.loc["Ann", "alternative_text"]) == ("-304/3", "-608/3")


def test_recorded_settlement_is_the_base(worked):
    """With a recorded settlement the base is taken from it, not re-scored."""
    from fractions import Fraction as F

    from preflog.scoring.sheet import Settlement

    rec = replace(worked, settlement=Settlement((F(-50), F(20), F(30)), (-50, 20, 30), (-50, 20, 30)))
    df = compare([rec], "leningrad").set_index("player")
    assert df.loc["Ann", "base"] == -50 and df.loc["Ann", "diff_text"] == "-154/3"


def test_incompatible_or_incomplete(worked):
    """A Croatian convention cannot score Russian deals; a pulka without a pool size cannot be re-scored."""
    with pytest.raises(CounterfactualError, match="same family"):
        compare([worked], "croatian")
    with pytest.raises(CounterfactualError, match="pool"):
        compare([replace(worked, pool=None)], "leningrad")
    assert len(compare([replace(worked, pool=None)], "leningrad", pool=20)) == 3
