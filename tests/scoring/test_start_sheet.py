"""A pulka continues from a starting sheet: the scorer starts from the written totals, deals add to
them, help and the end of the pulka see them, and the settlement counts them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from preflog.engine.replay import audit
from preflog.record.api import read_text
from preflog.rules import SOCHI
from preflog.rules import resolve
from preflog.scoring.croatian import CroatianScorer
from preflog.scoring.russian import RussianScorer
from preflog.scoring.sheet import Sheet
from preflog.scoring.sheet import StartSheetError

CONTINUED = """[Players "Anna, Boris, Vera"]
[Rules "sochi"]
[Pool "10"]

Start: Anna pulya 8 gora 2 visty Boris=10 Vera=0
Start: Boris pulya 4 gora 0 visty Anna=6 Vera=0
Start: Vera pulya 10 gora 6 visty Anna=0 Boris=12

Deal 1: dealer Vera
Contract: Anna 6s
Whist: Boris pass, Vera pass
Score: Anna pulya 10 gora 2 visty Boris=10 Vera=0
Score: Boris pulya 4 gora 0 visty Anna=6 Vera=0
Score: Vera pulya 10 gora 6 visty Anna=0 Boris=12

Deal 2: dealer Anna
Contract: Anna 6s
Whist: Boris pass, Vera pass
Score: Anna pulya 10 gora 2 visty Boris=30 Vera=0
Score: Boris pulya 6 gora 0 visty Anna=6 Vera=0
Score: Vera pulya 10 gora 6 visty Anna=0 Boris=12
"""


def test_a_pulka_continues_from_its_starting_sheet() -> None:
    """Sochi, pool 10, from the written sheet Anna 8/2 (10 visty on Boris), Boris 4/0 (6 on Anna),
    Vera 10/6 (12 on Boris).

    Deal 1: Anna's 6♠ unwhisted writes 2 → pulya 10 (closed, nothing over).
    Deal 2: the same again: her pulya is closed, so both points are American help; Vera's pulya is
    closed too, so Boris (pulya 4, room 6) takes 2 → 6 and Anna writes 2 × 10 = 20 visty on him → 30.
    The written score lines are checked by the audit: no finding.

    Settlement (pulyas unequal, top 10, a pulya point = a gora point = 10 visty): effective gora
    Anna 2, Boris 0 + 4 = 4, Vera 6; mean 4. Net visty Anna 30 − 6 = +24, Boris 6 − 30 − 12 = −36,
    Vera +12. Exact = net + 10 × (mean − gora): Anna 24 + 20 = +44, Boris −36 + 0 = −36,
    Vera 12 − 20 = −8 (sum 0)."""
    res = audit(read_text(CONTINUED))
    assert not res.findings, res.findings
    assert res.sheet is not None and res.sheet.pulya == [10, 6, 10]
    assert res.deals[1].score is not None and "help 2 to seat 1" in res.deals[1].score.note
    assert res.settlement is not None and res.settlement.exact == (44, -36, -8)


def test_a_written_line_that_ignores_the_start_is_a_mismatch() -> None:
    """Score lines are running totals from the starting sheet: Anna's pulya 2 after deal 1 (as if
    from a blank sheet) differs from the replayed 10."""
    text = CONTINUED.replace("Score: Anna pulya 10 gora 2 visty Boris=10 Vera=0", "Score: Anna pulya 2 gora 2 "
                             "visty Boris=10 Vera=0", 1)
    codes = [f.code for f in audit(read_text(text)).findings]
    assert codes == ["score_mismatch"]


def test_a_deal_after_a_finished_starting_sheet_is_flagged() -> None:
    """Every pulya closed on the starting sheet: the pulka is over, a deal after it is flagged."""
    text = ('[Players "A, B, C"]\n[Pool "10"]\n\nStart: A pulya 10\nStart: B pulya 10\nStart: C pulya 10\n\n'
            "Deal 1: dealer A\nAuction: all pass\nTricks: A 4, B 3, C 3\n")
    assert [f.code for f in audit(read_text(text)).findings] == ["pulka_already_finished"]


def test_four_player_starting_sheet_settles_with_divisor_four() -> None:
    """4 players, pulyas equal, goras 10/0/3/7, no visty: mean 5 → exact −50, +50, +20, −20."""
    text = ('[Players "A, B, C, D"]\n[Pool "20"]\n\n' + "".join(
        f"Start: {p} pulya 20 gora {g}\n" for p, g in zip("ABCD", (10, 0, 3, 7), strict=True)))
    res = audit(read_text(text))
    assert res.settlement is not None and res.settlement.exact == (-50, 50, 20, -20)


def test_scorer_start_checks() -> None:
    s = RussianScorer(SOCHI, 3, 10)
    s.start_from(Sheet(3, [1, 2, 3], [0, Fraction(1, 2), 0], [[0, 1, 2], [0, 0, 0], [3, 0, 0]]))
    assert s.sheet.gora == [0, Fraction(1, 2), 0] and not s._ints
    with pytest.raises(StartSheetError) as err:
        RussianScorer(SOCHI, 3, 10).start_from(Sheet(3, [0, 0, 0], [0, 0, 0], [[0, 0, 0], [0, 0, -1], [0, 0, 0]]))
    assert (err.value.seat, err.value.area, err.value.on) == (1, "visty", 2)
    with pytest.raises(StartSheetError):
        RussianScorer(SOCHI, 4, 10).start_from(Sheet(3))
    with pytest.raises(StartSheetError):
        CroatianScorer(resolve("croatian"), 3).start_from(Sheet(3))


def test_rescoring_under_other_rules_continues_from_the_starting_sheet() -> None:
    """``compare`` re-scores the deals from the same starting sheet: under the pulka's own rules the
    difference is 0 (the base settlement counts the starting sheet, so must the re-scoring)."""
    from preflog.projections.facts import facts_of
    from preflog.reports.counterfactual import compare

    events = read_text(CONTINUED)
    facts = facts_of("continued", events, audit(events))
    assert facts.start and compare([facts], "sochi")["diff"].tolist() == [0, 0, 0]
