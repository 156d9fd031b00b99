"""The ratings order a simulated club of known strength (a small version of the issue's target: the full
curve is benchmarks/skill_curve.py's, docs/skill.md gives its numbers)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from benchmarks.skill_curve import LEVELS
from benchmarks.skill_curve import club
from benchmarks.skill_curve import curve


def test_the_play_ratings_order_four_bots_of_known_strength() -> None:
    """Four Sochi bots (double dummy, heuristic, careless 30 %, careless 70 %), 3 clubs of 30 pulkas at
    pool 10 (about 10 s of CPU): the play rating and the play rating with margins must each give the exact
    order of all four in at least 2 of the 3 clubs (a random order is right 1 time in 24), and the play per
    pulka must fall with the level."""
    res = curve(seeds=3, pulkas=30, levels=LEVELS, pool=10, checkpoints=(30,))
    assert res["share_correct"]["play"]["30"] >= 2 / 3
    assert res["share_correct"]["play_margin"]["30"] >= 2 / 3
    per = res["play_per_pulka"]
    assert per["P1"] > per["P2"] > per["P3"] > per["P4"]


def test_a_kept_club_is_extended_not_played_again(tmp_path: Path) -> None:
    """Pulka i of a club depends on its seed and i alone: a club kept with 2 pulkas and asked for 3 plays
    only the third, and its rows are those of the club played with 3 from the start."""
    two = club(5, 2, cache=str(tmp_path))
    (kept,) = tmp_path.glob("club-*.csv")
    three = club(5, 3, cache=str(tmp_path))
    assert list(three["pulka"].unique()) == ["00000", "00001", "00002"]
    pd.testing.assert_frame_equal(three.iloc[:len(two)].reset_index(drop=True), two.reset_index(drop=True))
    pd.testing.assert_frame_equal(three, club(5, 3), check_dtype=False)
    assert len(club(5, 2, cache=str(tmp_path))) == len(two) and kept.exists()
