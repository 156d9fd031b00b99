"""The skill statistics (preflog.analysis.skill_stats): the Wilson and bootstrap intervals, the OpenSkill
ratings and their history, the decisions read off hand-built play_analysis rows."""

from __future__ import annotations

import pandas as pd
import pytest

from preflog.analysis.skill_stats import bootstrap_per_100
from preflog.analysis.skill_stats import final_ratings
from preflog.analysis.skill_stats import history
from preflog.analysis.skill_stats import margin_history
from preflog.analysis.skill_stats import rating_history
from preflog.analysis.skill_stats import skill_frame
from preflog.analysis.skill_stats import wilson
from preflog.analysis.table import SCHEMAS

Z2 = 1.959963984540054 ** 2


def test_wilson_interval_by_hand() -> None:
    """0 of 10: the interval is [0, z²/(n + z²)] = [0, 3.8415/13.8415]; 5 of 10 is symmetric about 1/2."""
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(Z2 / (10 + Z2))
    lo, hi = wilson(5, 10)
    assert lo is not None and hi is not None and lo + hi == pytest.approx(1.0)
    assert wilson(0, 0) == (None, None)


def test_bootstrap_interval_is_fixed_and_holds_the_ratio() -> None:
    assert bootstrap_per_100([1, 1, 1], [10, 10, 10]) == pytest.approx((10.0, 10.0))
    a = bootstrap_per_100([0, 3, 1, 0, 2], [10, 10, 10, 10, 10])
    assert a == bootstrap_per_100([0, 3, 1, 0, 2], [10, 10, 10, 10, 10])   # the same every run
    assert a[0] is not None and a[1] is not None and a[0] < 12.0 < a[1]
    assert bootstrap_per_100([], []) == (None, None)


def _pulkas(scores: list[dict[str, float]]) -> pd.DataFrame:
    return pd.DataFrame([{"pulka": f"p{i:03d}", "player": n, "unit": "visty", "result": -s, "play": s}
                         for i, row in enumerate(scores) for n, s in row.items()])


def test_the_player_who_always_wins_the_play_rates_highest_and_sigma_shrinks() -> None:
    pp = _pulkas([{"Ann": 30.0, "Bob": 0.0, "Cid": -30.0}] * 8)
    h = rating_history(pp, "play")
    r = final_ratings(h)
    assert r["Ann"][2] > r["Bob"][2] > r["Cid"][2]
    ann = h[h["player"] == "Ann"]
    assert list(ann["sigma"]) == sorted(ann["sigma"], reverse=True) and len(ann) == 8
    raw = final_ratings(rating_history(pp, "result"))   # the results ran the other way
    assert raw["Cid"][2] > raw["Bob"][2] > raw["Ann"][2]


def history_of(pp: pd.DataFrame) -> pd.DataFrame:
    return history({"skill": pp.assign(cards=0.0, deal=1, seat=0)})


def test_margin_rating_by_hand() -> None:
    """Two players, one pulka, scores +1 and −1 (sd 1): prior N(0, 1) each; the observation of each is his
    skill less the table's mean skill plus noise of sd 1. H = [[½, −½], [−½, ½]], S = H Hᵀ + I =
    [[3/2, −½], [−½, 3/2]], K = Hᵀ S⁻¹ = [[¼, −¼], [−¼, ¼]]: mu = K y = (½, −½), the variance 1 − ¼ = ¾."""
    pp = pd.DataFrame([{"pulka": "p", "player": "Ann", "unit": "visty", "play": 1.0},
                       {"pulka": "p", "player": "Bob", "unit": "visty", "play": -1.0}])
    h = margin_history(pp, "play")
    assert list(h["mu"]) == pytest.approx([0.5, -0.5])
    assert list(h["sigma"]) == pytest.approx([0.75 ** 0.5] * 2)
    many = _pulkas([{"Ann": 30.0, "Bob": 0.0, "Cid": -30.0}] * 8)
    r = final_ratings(margin_history(many, "play"))
    assert r["Ann"][0] > r["Bob"][0] > r["Cid"][0] and r["Ann"][1] < 0.75 ** 0.5


def _table(name: str, rows: list[dict]) -> pd.DataFrame:  # type: ignore[type-arg]
    cols = [f.name for f in SCHEMAS[name]]
    return pd.DataFrame([{c: r.get(c) for c in cols} for r in rows], columns=cols)


def test_decisions_from_hand_built_rows() -> None:
    """Ann declared 2 trick contracts, one not makeable; made 3 whist calls, 2 right (a wrong one cost
    4); as declarer lost 1 trick in 20 cards (5 per 100); defended one catchable misère and caught it."""
    skill = _table("skill", [
        {"pulka": "p", "deal": d, "seat": s, "player": n, "result": r, "cards": c, "play": r - c, "unit": "visty"}
        for d, s, n, r, c in [(1, 0, "Ann", 10.0, 4.0), (1, 1, "Bob", -10.0, -4.0),
                              (2, 0, "Ann", -2.0, 0.0), (2, 1, "Bob", 2.0, 0.0)]])
    deals = _table("deals", [
        {"pulka": "p", "deal": 1, "player": "Ann", "goal": "most", "makeable": True, "unit": "visty"},
        {"pulka": "p", "deal": 2, "player": "Ann", "goal": "most", "makeable": False, "unit": "visty"},
        {"pulka": "p", "deal": 3, "player": "Bob", "goal": "fewest", "makeable": False, "actual": 1,
         "unit": "visty"}])
    seats = _table("seats", [
        {"pulka": "p", "deal": 1, "seat": 0, "player": "Ann", "role": "declarer", "cards": 10, "lost": 0,
         "whist_right": None, "unit": "visty"},
        {"pulka": "p", "deal": 2, "seat": 0, "player": "Ann", "role": "declarer", "cards": 10, "lost": 1,
         "unit": "visty"},
        {"pulka": "p", "deal": 3, "seat": 0, "player": "Ann", "role": "defender", "cards": 10, "lost": 0,
         "whist_right": True, "whist_cost": 0.0, "unit": "visty"},
        {"pulka": "p", "deal": 4, "seat": 0, "player": "Ann", "role": "defender", "cards": 10, "lost": 0,
         "whist_right": True, "whist_cost": 0.0, "unit": "visty"},
        {"pulka": "p", "deal": 5, "seat": 0, "player": "Ann", "role": "defender", "cards": 10, "lost": 0,
         "whist_right": False, "whist_cost": 4.0, "unit": "visty"}])
    df = skill_frame({"skill": skill, "deals": deals, "seats": seats, "cards": _table("cards", [])})
    ann = df[df["player"] == "Ann"].iloc[0]
    assert (ann["result"], ann["cards"], ann["play"]) == (8.0, 4.0, 4.0)
    assert (ann["contracts"], ann["contracts_not_makeable"], ann["not_makeable_share"]) == (2, 1, 0.5)
    assert (ann["whists_judged"], ann["whists_right"], ann["whist_cost"]) == (3, 2, 4.0)
    assert ann["whist_right_share_lo"] == pytest.approx(wilson(2, 3)[0])
    assert (ann["declarer_cards"], ann["declarer_lost"], ann["declarer_lost_per_100"]) == (20, 1, 5.0)
    assert (ann["misers_catchable"], ann["misers_caught"], ann["misers_caught_share"]) == (1, 1, 1.0)
    assert list(df["player"]) == ["Ann", "Bob"]   # by the play rating: Ann's play was the better


def test_the_report_section_draws_the_split_and_both_histories() -> None:
    from preflog.reports.skill import ANCHOR
    from preflog.reports.skill import line_chart
    from preflog.reports.skill import skill_parts

    pp = _pulkas([{"Ann": 30.0, "Bob": 0.0, "Cid": -30.0}] * 3)
    hist = history_of(pp)
    summary = pd.DataFrame([{"player": n, "unit": "visty", "cards": -s, "play": s, "result": 0.0}
                            for n, s in (("Ann", 90.0), ("Bob", 0.0), ("Cid", -90.0))])
    parts = skill_parts(summary, hist)
    assert parts[0] == ("h2", (ANCHOR, "Skill: luck, play and ratings"))
    kinds = [k for k, _ in parts]
    assert kinds == ["h2", "chart", "chart", "chart", "chart", "chart", "table"]
    lines = [str(p) for k, p in parts if k == "chart" and "polyline" in str(p)]
    assert len(lines) == 3 and all(s.count("<polyline") == 3 for s in lines)
    assert skill_parts(summary.iloc[0:0], hist) == []
    assert "&lt;b&gt;" in line_chart({"<b>": [(1.0, 2.0), (2.0, 3.0)]}, title="t")   # names are escaped


def test_passes_that_passed_a_makeable_game_with_their_interval() -> None:
    """Ann's first passes: three judged (deals 1–3), one passed a makeable game; deal 4 she did not pass.
    The share is 1/3 with the Wilson interval of 1 of 3; Bob was never judged: no share."""
    skill = _table("skill", [
        {"pulka": "p", "deal": d, "seat": s, "player": n, "result": 0.0, "cards": 0.0, "play": 0.0,
         "unit": "visty", "passed_makeable": m, "passed_game": g}
        for d, s, n, m, g in [(1, 0, "Ann", True, "6s"), (1, 1, "Bob", None, None),
                              (2, 0, "Ann", False, None), (2, 1, "Bob", None, None),
                              (3, 0, "Ann", False, None), (3, 1, "Bob", None, None),
                              (4, 0, "Ann", None, None), (4, 1, "Bob", None, None)]])
    empty = {t: _table(t, []) for t in ("deals", "seats", "cards")}
    df = skill_frame({"skill": skill, **empty}).set_index("player")
    assert (df.loc["Ann", "passes_judged"], df.loc["Ann", "passes_makeable"]) == (3, 1)
    assert df.loc["Ann", "passed_makeable_share"] == pytest.approx(1 / 3)
    assert (df.loc["Ann", "passed_makeable_share_lo"], df.loc["Ann", "passed_makeable_share_hi"]) == \
        pytest.approx(wilson(1, 3))
    assert df.loc["Bob", "passes_judged"] == 0 and pd.isna(df.loc["Bob", "passed_makeable_share"])
