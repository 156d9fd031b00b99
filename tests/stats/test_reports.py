"""Report numbers on the hand-built dataset (conftest.py); every count below is read off that
docstring, and every interval comes from the Wilson formula

    centre = (p + z²/2n) / (1 + z²/n),  half = z/(1 + z²/n) · sqrt(p(1−p)/n + z²/4n²),  z = 1.959964,

clamped to [0, 1]. Known values: 1/3 → [0.0615, 0.7923], 1/1 → [0.2065, 1], 0/2 → [0, 0.6576].
"""

from __future__ import annotations

import math

import pytest

from preflog.reports import queries

Z = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z / d * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return max(0.0, c - h), min(1.0, c + h)


def test_wilson_reference_values():
    """The helper reproduces the published Wilson bounds for 1/3 (0.0615, 0.7923)."""
    lo, hi = wilson(1, 3)
    assert (round(lo, 4), round(hi, 4)) == (0.0615, 0.7923)


def test_players(con):
    """Ann: 8 deals (5 + 3), declared 3 (p1 D1, D2, p2 D1), made 1 (p1 D2) → share 3/8, success 1/3;
    whist chances 2 (p1 D5 passer, p2 D3 whister), whisted 1; her only whist carried no obligation
    (first whister on an 8) → whist success NULL; raspasy tricks (2 + 4)/2 = 3; results −110/3 and
    −308/3 → total −418/3, mean −209/3; money −55/3 (p2 unsettled, no money).
    Bob: 8 deals, 1 declared (miser, made); whist chances 5 (p1 D1 pass, D2 whist, D5 pass, p2 D1 pass,
    D3 whist), whisted 2, both obliged and met → 2/2; raspasy (3 + 1)/2 = 2; total 100/3 + 292/3 = 392/3.
    Cid: whisted twice (p1 D1 met, D2 short) → 1/2. Dan: 3 deals, total 16/3.
    Ordered by total result: Bob, Dan, Cid, Ann."""
    df = queries.players(con)
    assert list(df["player"]) == ["Bob", "Dan", "Cid", "Ann"]
    r = df.set_index("player")
    ann = r.loc["Ann"]
    assert (ann.pulkas, ann.deals_played, ann.declared, ann.declared_made) == (2, 8, 3, 1)
    assert ann.declared_share == pytest.approx(3 / 8)
    assert (ann.declared_share_lo, ann.declared_share_hi) == pytest.approx(wilson(3, 8))
    assert ann.declarer_success == pytest.approx(1 / 3)
    assert (ann.declarer_success_lo, ann.declarer_success_hi) == pytest.approx((0.061492, 0.792340), abs=1e-6)
    assert (ann.whist_chances, ann.whisted, ann.whist_obliged) == (2, 1, 0)
    assert (ann.whist_rate_lo, ann.whist_rate_hi) == pytest.approx(wilson(1, 2))
    assert math.isnan(ann.whist_success)
    assert ann.raspasy_tricks_per_deal == 3
    assert ann.total_visty == pytest.approx(-418 / 3) and ann.avg_visty == pytest.approx(-209 / 3)
    assert math.isnan(ann.total_points) and math.isnan(ann.avg_points)  # no Croatian pulka
    assert ann.total_money == pytest.approx(-55 / 3)
    bob = r.loc["Bob"]
    assert (bob.declared, bob.misers, bob.misers_made, bob.miser_success) == (1, 1, 1, 1.0)
    assert (bob.miser_success_lo, bob.miser_success_hi) == pytest.approx(wilson(1, 1))
    assert (bob.whist_chances, bob.whisted, bob.whist_obliged, bob.whist_met) == (5, 2, 2, 2)
    assert (bob.whist_rate, bob.whist_rate_lo, bob.whist_rate_hi) == pytest.approx((0.4, *wilson(2, 5)))
    assert bob.raspasy_tricks_per_deal == 2 and bob.total_visty == pytest.approx(392 / 3)
    cid = r.loc["Cid"]
    assert (cid.whist_obliged, cid.whist_met, cid.whist_success) == (2, 1, 0.5)
    assert (cid.whist_success_lo, cid.whist_success_hi) == pytest.approx(wilson(1, 2))
    assert r.loc["Dan"].total_visty == pytest.approx(16 / 3) and r.loc["Dan"].deals_played == 3
    assert df["total_visty"].sum() == pytest.approx(0)


def test_players_filters(con):
    """Ann in Sochi only: 5 deals, declared 2, made 1. From 2024-04-01: only p2 (Ann, Bob, Dan, 3 deals
    each). pulka p1 as a list: Ann, Bob, Cid with 5 deals each. Until 2024-03-31: p1 only."""
    ann = queries.players(con, player="Ann", preset="sochi")
    assert len(ann) == 1 and (ann.deals_played[0], ann.declared[0], ann.declared_made[0]) == (5, 2, 1)
    late = queries.players(con, date_from="2024-04-01")
    assert sorted(late.player) == ["Ann", "Bob", "Dan"] and set(late.deals_played) == {3}
    one = queries.players(con, pulka=["p1"])
    assert sorted(one.player) == ["Ann", "Bob", "Cid"] and set(one.deals_played) == {5}
    early = queries.players(con, date_to="2024-03-31")
    assert sorted(early.player) == ["Ann", "Bob", "Cid"]


def test_players_by_level(con):
    """Ann declared 6♠ (made) and two 7♥ (both down 1): level 6 1/1, level 7 0/2 → [0, 0.6576]."""
    df = queries.players_by_level(con, player="Ann")
    assert list(df["level"]) == ["6", "7"]
    seven = df[df.level == "7"].iloc[0]
    assert (seven.n, seven.made, seven.success) == (2, 0, 0.0)
    assert (seven.success_lo, seven.success_hi) == pytest.approx((0.0, 0.657620), abs=1e-6)
    bob = queries.players_by_level(con, player="Bob")
    assert list(bob["level"]) == ["miser"]


def test_contracts(con):
    """Six declared deals: 6♠ 1/1, 6♦ 1/1 (not whisted: made, not played), 7♥ 0/2 (two plays, each
    down 1, declarer values −152/3 and −304/3 → mean −76), 8♠ 1/1, miser 1/1; ordered along the ladder."""
    df = queries.contracts(con)
    assert list(df["contract_label"]) == ["6s", "6d", "7h", "8s", "miser"]
    r = df.set_index("contract_label")
    assert (r.loc["7h"].n, r.loc["7h"].made, r.loc["7h"].played, r.loc["7h"].mean_undertricks) == (2, 0, 2, 1)
    assert r.loc["7h"].mean_declarer_value == pytest.approx(-76)
    assert (r.loc["7h"].success_lo, r.loc["7h"].success_hi) == pytest.approx(wilson(0, 2))
    assert (r.loc["6d"].n, r.loc["6d"].made, r.loc["6d"].played) == (1, 1, 0)


def test_contracts_by_seat_and_preset(con):
    """Declarer hands: p1 D1 Ann at her own deal → 3, D2 → 2, D4 Bob → 1, D5 Cid → 1, p2 D1 Ann → 3,
    D3 Dan at his deal → 3. So hand 1: 2/2, hand 2: 1/1, hand 3: 1/3. Per preset: Sochi 7♥ 0/1,
    Leningrad 7♥ 0/1 and 8♠ 1/1. Declarer filter Ann: 6♠ and 7♥ only."""
    seat = queries.contracts(con, by=("rel_seat",)).set_index("rel_seat")
    assert [(seat.loc[h].n, seat.loc[h].made) for h in (1, 2, 3)] == [(2, 2), (1, 1), (3, 1)]
    assert (seat.loc[3].success_lo, seat.loc[3].success_hi) == pytest.approx(wilson(1, 3))
    pre = queries.contracts(con, by=("preset", "contract"))
    len_rows = pre[pre.preset == "leningrad"]
    assert list(len_rows.contract_label) == ["7h", "8s"] and list(len_rows.made) == [0, 1]
    assert list(queries.contracts(con, player="Ann").contract_label) == ["6s", "7h"]
    with pytest.raises(ValueError, match="unknown dimension"):
        queries.contracts(con, by=("contract; DROP TABLE deals",))


def test_variants(con):
    """Leningrad: 1 pulka, 3 deals, 1 raspasy → 1/3; declared 2, made 1; declarer edge
    (−304/3 − 12)/2 = −170/3; results −308/3, 292/3, 16/3 (mean 0) → sample stddev
    sqrt((308² + 292² + 16²)/9/2) = sqrt(10021.33) = 100.107.
    Sochi: 5 deals, raspasy 1/5, no refe (0/5 → [0, 0.4345]); declared 4, made 3; edge
    (−152/3 + 2/3 + 0 + 0)/4 = −12.5; results −110/3, 100/3, 10/3 → stddev sqrt(22200/18) = 35.119."""
    r = queries.variants(con).set_index("preset")
    le, so = r.loc["leningrad"], r.loc["sochi"]
    assert (le.pulkas, le.deals, le.deals_per_pulka, le.raspasy, le.declared, le.made) == (1, 3, 3.0, 1, 2, 1)
    assert (le.raspasy_rate, le.raspasy_rate_lo, le.raspasy_rate_hi) == pytest.approx((1 / 3, *wilson(1, 3)))
    assert le.declarer_edge == pytest.approx(-170 / 3)
    assert le.result_stddev == pytest.approx(math.sqrt((308**2 + 292**2 + 16**2) / 9 / 2))
    assert (so.deals, so.raspasy_rate, so.refe, so.declarer_success) == (5, 0.2, 0, 0.75)
    assert (so.refe_rate_lo, so.refe_rate_hi) == pytest.approx(wilson(0, 5))
    assert so.declarer_edge == pytest.approx(-12.5)
    assert so.result_stddev == pytest.approx(math.sqrt(22200 / 18))
    only_dan = queries.variants(con, player="Dan")
    assert list(only_dan.preset) == ["leningrad"]


def test_sql_over_views(con):
    """Free SQL sees the views and the macros: 8 deals, 24 player rows, rate(1, 4) = 0.25."""
    df = queries.sql(con, "SELECT (SELECT count(*) FROM deals) AS d, (SELECT count(*) FROM player_deals) AS p, "
                          "rate(1, 4) AS r")
    assert (df.d[0], df.p[0], df.r[0]) == (8, 24, 0.25)
    assert queries.sql(con, "SELECT count(*) AS n FROM deals WHERE preset = ?", ["sochi"]).n[0] == 5


def test_empty_store_and_events_view(tmp_path, store):
    """A store without projections gives empty typed views; the files of an event read plan become a view."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from preflog.reports.db import connect
    from preflog.store.plan import PlanFile
    from preflog.store.plan import ReadPlan

    empty = connect(tmp_path / "nothing")
    assert len(queries.players(empty)) == 0 and len(queries.contracts(empty)) == 0
    ev = tmp_path / "ev.parquet"
    pq.write_table(pa.table({"pulka": ["p1", "p1", "p2"], "seq": [1, 2, 1]}), ev)
    plan = ReadPlan(str(tmp_path), 0, (PlanFile(str(ev), ev.stat().st_size, 3, "p1", "p2"),))
    c = connect(store, events=lambda: plan)   # a read plan, or a function that gives it
    assert queries.sql(c, "SELECT count(*) AS n FROM events WHERE pulka = 'p1'").n[0] == 2
