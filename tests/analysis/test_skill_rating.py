"""The play rating orders a simulated club of known strength (a small version of the issue's target: the
full curve is benchmarks/skill_curve.py's, docs/skill.md gives its numbers)."""

from __future__ import annotations

import pytest

from benchmarks.skill_curve import LEVELS
from benchmarks.skill_curve import curve


@pytest.mark.slow
def test_the_play_rating_orders_four_bots_of_known_strength() -> None:
    """Four Sochi bots (double dummy, heuristic, careless 30 %, careless 70 %), 3 clubs of 30 pulkas at
    pool 10: the play rating must give the exact order of all four in at least 2 of the 3 clubs (a random
    order is right 1 time in 24), and the play per pulka must fall with the level."""
    res = curve(seeds=3, pulkas=30, levels=LEVELS, pool=10, checkpoints=(30,))
    assert res["share_correct"]["play"]["30"] >= 2 / 3
    per = res["play_per_pulka"]
    assert per["P1"] > per["P2"] > per["P3"] > per["P4"]
