"""Projection rows of the hand-built dataset (see conftest.py for every hand computation)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from preflog.projections.build import project
from preflog.projections.build import project_many
from preflog.projections.facts import FactsError
from preflog.projections.facts import resolve_spec


def rows(table):
    return table.to_pylist()


def test_deals_rows(p1):
    """p1: 5 deals. D1 7♥ by Ann at her own deal → third hand (rel_seat 3), pattern PW (Bob left of
    Ann passed, Cid whisted), 6 tricks of 7 → down 1, price V = 4, value −152/3. D4 miser by Bob at
    Ann's deal → first hand, made. D5 6♦ both passed → PP, made with no play."""
    d = rows(project(p1)["deals"])
    assert [r["kind"] for r in d] == ["game", "game", "raspasy", "miser", "not_whisted"]
    d1, d2, d3, d4, d5 = d
    assert (d1["declarer_name"], d1["rel_seat"], d1["contract_label"], d1["level"], d1["strain"]) == (
        "Ann", 3, "7h", 7, "h")
    assert (d1["whist_pattern"], d1["open_play"], d1["made"], d1["undertricks"], d1["price"]) == (
        "PW", True, False, 1, 4)
    assert d1["declarer_value"] == pytest.approx(-152 / 3)
    assert d1["tricks"] == [6, 2, 2] and d1["defender_tricks"] == 4 and d1["date"] == dt.date(2024, 3, 1)
    assert (d2["rel_seat"], d2["whist_pattern"], d2["made"], d2["price"]) == (2, "WW", True, 2)
    assert d3["declarer"] is None and d3["made"] is None and d3["whist_pattern"] == ""
    assert (d4["contract_label"], d4["is_miser"], d4["rel_seat"], d4["made"], d4["price"]) == (
        "miser", True, 1, True, 10)
    assert (d5["whist_pattern"], d5["made"], d5["undertricks"], d5["rel_seat"]) == ("PP", True, 0, 1)


def test_player_roles_and_obligations(p1, p2):
    """p1 D2 6♠, both whist, side 3 of 4: each whister answers for 2; Bob (3 tricks) met,
    Cid (0) short min(2 − 0, 4 − 3) = 1. p2 D3 8♠ both whist: quota 1, the second whister (Bob)
    answers for it (0 short, side took 1), Ann (first) for nothing."""
    pd = project_many([p1, p2])["player_deals"].to_pylist()
    by = {(r["pulka"], r["deal"], r["player"]): r for r in pd}
    assert len(pd) == 24
    assert by[("p1", 1, "Bob")]["role"] == "passer" and by[("p1", 1, "Cid")]["role"] == "whister"
    assert (by[("p1", 1, "Cid")]["obligation"], by[("p1", 1, "Cid")]["obligation_met"]) == (2, True)
    assert (by[("p1", 2, "Bob")]["obligation"], by[("p1", 2, "Bob")]["shortfall"]) == (2, 0)
    assert (by[("p1", 2, "Cid")]["obligation"], by[("p1", 2, "Cid")]["shortfall"],
            by[("p1", 2, "Cid")]["obligation_met"]) == (2, 1, False)
    assert by[("p1", 3, "Cid")]["role"] == "raspasy" and by[("p1", 3, "Cid")]["tricks"] == 5
    assert by[("p1", 4, "Ann")]["role"] == "defender" and by[("p1", 4, "Bob")]["role"] == "declarer"
    assert (by[("p2", 3, "Bob")]["obligation"], by[("p2", 3, "Bob")]["obligation_met"]) == (1, True)
    assert by[("p2", 3, "Ann")]["obligation"] == 0
    # value and visty: Cid in p1 D1 wrote 20, received 0; value 20 + 10·(4/3 − 0) = 100/3
    c = by[("p1", 1, "Cid")]
    assert (c["visty_written"], c["visty_received"], c["visty"]) == (20, 0, 20)
    assert c["value"] == pytest.approx(100 / 3)
    a = by[("p1", 1, "Ann")]
    assert (a["gora"], a["visty"], a["rel_seat"]) == (4, -24, 3)


def test_pulka_results(p1, p2):
    """p1 settled: exact −110/3 → text "-110/3", money at ½ → −55/3; value sums equal the exact
    results. p2 unsettled: result = sum of values: Ann −304/3 − 40/3 + 12 = −308/3."""
    r = {(x["pulka"], x["player"]): x for x in project_many([p1, p2])["pulka_results"].to_pylist()}
    ann1 = r[("p1", "Ann")]
    assert (ann1["exact_text"], ann1["method1"], ann1["money_text"], ann1["settled"]) == ("-110/3", -37, "-55/3", True)
    assert ann1["value_total"] == pytest.approx(-110 / 3) and ann1["result"] == pytest.approx(-110 / 3)
    assert (ann1["pulya"], ann1["gora"], ann1["visty"], ann1["deals"]) == (2, 6, -30, 5)
    ann2 = r[("p2", "Ann")]
    assert ann2["settled"] is False and ann2["exact"] is None and ann2["method1"] is None
    assert ann2["result"] == pytest.approx(-308 / 3)
    assert sum(x["result"] for x in r.values()) == pytest.approx(0)


def test_bad_input_names_pulka_and_deal(p1):
    """A date that is not ISO and trick counts of the wrong length are reported with the pulka id."""
    with pytest.raises(FactsError, match="p1.*not ISO"):
        project(replace(p1, date="1st of May"))
    o, s = p1.deals[0]
    bad = replace(p1, deals=((replace(o, tricks=(6, 2)), s),))
    with pytest.raises(FactsError, match="p1.*deal 1"):
        project(bad)
    with pytest.raises(FactsError, match="n_players"):
        replace(p1, players=("Ann", "Bob"))


def test_resolve_spec_key_value():
    """A spec may mix named overrides and key=value parts."""
    r = resolve_spec("sochi+gentleman+raspasy_cap=4")
    assert (r.split_with_passer_on_remiz, r.raspasy_cap, r.ten_mode) == (True, 4, "checked")


def test_croatian_hand_game():
    """docs/rules.md §C (extra worked deal): start 30, B plays ♥ without talon ("igra"): V = 2·(4+1) = 10.
    A and C whist, tricks B 6, A 2, C 2 → B's column +10 (−30 → −20), A and C write 20 each on B.
    Values (pool point 10): B −40 + 10·(10 − 10/3) = 80/3, A and C 20 + 10·(0 − 10/3) = −40/3.
    Both whisters answer for 2 (side 4): met. Label "4h", hand game, price 10, made."""
    from preflog.model.calls import CALL_WHIST
    from preflog.model.outcome import DealKind
    from preflog.model.outcome import DealOutcome
    from preflog.projections.facts import PulkaFacts
    from preflog.scoring.sheet import DealScore

    o = DealOutcome(1, 2, 3, DealKind.GAME, declarer=1, contract=4, tricks=(2, 6, 2), calls=(CALL_WHIST, -1,
                    CALL_WHIST),
                    whist_order=(2, 0), hand_game=True)
    s = DealScore((0, 10, 0), (0, 0, 0), ((0, 20, 0), (0, 0, 0), (0, 20, 0)))
    f = PulkaFacts("hr1", "croatian", "croatian", ("A", "B", "C"), None, 3, ((o, s),), None, pool=30)
    t = project(f)
    d = t["deals"].to_pylist()[0]
    assert (d["family"], d["contract_label"], d["hand_game"], d["price"], d["made"], d["whist_pattern"]) == (
        "croatian", "4h", True, 10, True, "WW")
    pd = {r["player"]: r for r in t["player_deals"].to_pylist()}
    assert pd["B"]["value"] == pytest.approx(80 / 3) and pd["A"]["value"] == pytest.approx(-40 / 3)
    assert (pd["A"]["obligation"], pd["C"]["obligation_met"], pd["B"]["role"]) == (2, True, "declarer")
    assert d["date"] is None
