"""Two whist conventions the rule texts leave to the table, as records with hand-computed Score lines
(an audit checks every Score line against the scorer, so a wrong number is a finding)."""

from __future__ import annotations

from preflog import audit
from preflog import read_text

DEALER_WHISTS = """[Players "A, B, C, D"]
[Rules "sochi+dealer-whists"]
Deal 1: dealer D
Contract: A 8s
Whist: B pass, C pass, D whist
Tricks: A 7, B 2, C 1
Score: A gora 6
Score: B visty A=6
Score: C visty A=6
Score: D visty A=24
"""


def test_dealer_whists_after_two_passes_scores_as_a_returning_dealer() -> None:
    """Sochi at four, dealer D sits out. A plays 8♠, B and C pass, D (dealer_whists_after_passes)
    whists for the side on their cards. A takes 7: down 1. V(8) = 6, whist price W = V = 6.

    - A: gora remiz 1 × 6 × 1 = 6.
    - D: the side's tricks 6 × (2 + 1) = 18, plus consolation 6 × 1 as the 4-player dealer: 24 on A.
    - B and C (passers): consolation 6 each on A.
    - The side took 3 ≥ the 8-level obligation (1 trick): no whist penalty.
    Without the option the same calls end the deal at two passes (A writes 6 in his pulya) and D's
    call is out of order."""
    result = audit(read_text(DEALER_WHISTS))
    assert result.findings == []
    sheet = result.sheet
    assert sheet is not None
    assert sheet.gora == [6, 0, 0, 0] and sheet.pulya == [0, 0, 0, 0]
    assert [row[0] for row in sheet.visty] == [0, 6, 6, 24]
    plain = audit(read_text(DEALER_WHISTS.replace("sochi+dealer-whists", "sochi")))
    assert plain.codes() == ["deal_over"]


DEALER_CONSOLATION = """[Players "A, B, C, D"]
[Rules "sochi+dealer-whists+dealer-consolation"]
Deal 1: dealer D
Contract: A 8s
Whist: B pass, C pass, D whist
Tricks: A 7, B 2, C 1
Score: A gora 6
Score: B visty A=0
Score: C visty A=0
Score: D visty A=36
"""


def test_dealer_who_whists_after_two_passes_writes_the_passers_consolation() -> None:
    """The deal above under dealer_whist_consolation=dealer (named override dealer-consolation). A's 8♠
    down 1, V(8) = 6; B and C pass, the dealer D whists.

    - A: gora 6, as before.
    - D: the side's tricks 6 × (2 + 1) = 18, his own consolation as the 4-player dealer 6, and the
      passers' consolations 6 + 6 = 12 written by him: 36 on A.
    - B and C write nothing.
    The total written on A is unchanged: 36 = 24 + 6 + 6."""
    result = audit(read_text(DEALER_CONSOLATION))
    assert result.findings == []
    sheet = result.sheet
    assert sheet is not None
    assert sheet.gora == [6, 0, 0, 0] and sheet.pulya == [0, 0, 0, 0]
    assert [row[0] for row in sheet.visty] == [0, 0, 0, 36]
    default = audit(read_text(DEALER_WHISTS)).sheet
    assert default is not None and sum(row[0] for row in default.visty) == sum(row[0] for row in sheet.visty)


def test_dealer_consolation_leaves_a_returned_half_whist_alone() -> None:
    """dealer_whist_consolation is about the dealer who whists after two passes. When he returns a
    half-whist instead (RussianScorer, 4 players, dealer D = 3): A's 7♠ down 1 (V(7) = 4; A 6, B 3,
    C 1), B passed, C said half-whist, D returned it. C's consolation 4 goes to D (the returner,
    consolation_half_to_returner) as always; B, the plain passer, writes his own 4 under either value.
    D: 4 × (3 + 1) = 16, + 4 as dealer, + 4 for C = 24."""
    from preflog.model.calls import CALL_HALF
    from preflog.model.calls import CALL_PASS
    from preflog.model.outcome import DealKind
    from preflog.model.outcome import DealOutcome
    from preflog.rules import resolve
    from preflog.scoring.russian import RussianScorer

    o = DealOutcome(deal=1, dealer=3, n_players=4, kind=DealKind.GAME, declarer=0, contract=71,
                    tricks=(6, 3, 1, 0), calls=(-1, CALL_PASS, CALL_HALF, -1), half_whister=2, returner=3)
    for spec in ("sochi+dealer-whists", "sochi+dealer-whists+dealer-consolation"):
        d = RussianScorer(resolve(spec), 4, 50).score(o)
        assert [row[0] for row in d.visty] == [0, 4, 0, 24], spec


FIRST_HALF = """[Players "A, B, C"]
[Rules "sochi+half-whist-either"]
Deal 1: dealer C
Contract: A 7h
Whist: B half, C pass
Score: A pulya 4
Score: B visty A=4
"""


def test_first_defender_half_whist() -> None:
    """Sochi, half_whist_by=either. A plays 7♥; B, the first defender, says half-whist and C does not
    return the whist (passes): no play, the game counts as made. V(7) = 4.

    - A: pulya 4.   B: half-whist credit at 7 is 1 trick × 4 = 4 visty on A.   C: nothing.
    Under the rule texts' order (half_whist_by=second) B's half-whist is refused."""
    result = audit(read_text(FIRST_HALF))
    assert result.findings == []
    assert result.sheet is not None and result.sheet.pulya == [4, 0, 0]
    assert [row[0] for row in result.sheet.visty] == [0, 4, 0]
    assert "half_whist_not_allowed" in audit(read_text(FIRST_HALF.replace("+half-whist-either", ""))).codes()
