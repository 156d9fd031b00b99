"""Croatian scoring: seed 000's sample sheet, docs/rules.md §C6, contra, Bettel, invitation, refe, hat, end.

Seats A = 0, B = 1, C = 2. Columns are signed: start −30 (or −50), a made contract adds its value.
Calls per seat: 1 whist, 0 pass, 3 invite, −1 declarer.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from preflog.engine.families import family_of
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules.presets import resolve
from preflog.scoring.croatian import CroatianScorer
from preflog.scoring.croatian import HatMark
from preflog.scoring.croatian import ScoringError
from preflog.scoring.croatian import deal_value

A, B, C = 0, 1, 2
W, P, I, D = 1, 0, 3, -1
RULES = resolve("croatian")


def game(deal: int, decl: int, contract: int, tricks: tuple[int, int, int], calls: tuple[int, ...] = (),
         hand: bool = False, contra: tuple[int, ...] = (), stopped: bool = False, kind: str = DealKind.GAME,
         invited: int = -1) -> DealOutcome:
    if not calls and kind == DealKind.GAME:
        calls = tuple(D if s == decl else W for s in range(3))
    return DealOutcome(deal, (deal + 2) % 3, 3, kind, declarer=decl, contract=contract, tricks=tricks,
                       calls=calls, hand_game=hand, contra=contra, stopped_early=stopped, invited=invited)


def all_pass(deal: int) -> DealOutcome:
    return DealOutcome(deal, (deal + 2) % 3, 3, DealKind.ALL_PASS)


def not_whisted(deal: int, decl: int, contract: int, hand: bool = False) -> DealOutcome:
    return DealOutcome(deal, (deal + 2) % 3, 3, DealKind.NOT_WHISTED, declarer=decl, contract=contract, hand_game=hand)


def scorer(rules=RULES, start: int | None = None) -> CroatianScorer:
    s = family_of(rules).scorer(rules if start is None else rules.replace(start=start), 3, 0)
    assert isinstance(s, CroatianScorer)
    return s


def test_registry_and_values() -> None:
    """docs/rules.md §C1: V = 2n with the talon, 2(n+1) from hand; Bettel 12/14, Sanac 14/16."""
    assert family_of("croatian").scorer is CroatianScorer
    assert [deal_value(n, False) for n in range(2, 8)] == [4, 6, 8, 10, 12, 14]
    assert [deal_value(n, True) for n in range(2, 8)] == [6, 8, 10, 12, 14, 16]
    s = scorer()
    assert s.columns == (-30, -30, -30) and s.min_bid_level() == 0 and not s.is_finished()


def test_seed_000_sample_sheet() -> None:
    """Seed 000 «Пример записи» (start 30):
    row 2: C plays ♦ (3) with the talon, V 6; A and B whist, 2 tricks each → C −30+6 = −24, A and B write 12;
    row 3: B plays ♣ (5), V 10; C alone whists (A passed, not invited), 3 tricks → B −20, C writes 30 on B;
    row 4: all pass → refe for everybody;
    row 5: A plays ♣ on refe, 7 tricks; B passes, C alone 3 tricks → ×2: A −30+20 = −10, C writes 60 on A.
    Settlement: columns −10/−20/−24, mean −18 → +80/−20/−60; A 80+12−60 = 32, B −20+12−30 = −38,
    C −60+30+60−12−12 = 6."""
    s = scorer()
    s.score(game(1, C, 3, (2, 2, 6)))
    assert s.columns == (-30, -30, -24)
    s.score(game(2, B, 5, (0, 7, 3), calls=(P, D, W)))
    s.score(all_pass(3))
    assert s.refe == [1, 1, 1]
    d = s.score(game(4, A, 5, (7, 0, 3), calls=(D, P, W)))
    assert d.pulya == (20, 0, 0) and d.visty[C] == (60, 0, 0)
    assert s.columns == (-10, -20, -24)
    assert s.sheet.visty == [[0, 0, 12], [0, 0, 12], [60, 30, 0]]
    assert s.refe == [0, 1, 1]
    st = s.settlement()
    assert st.exact == (32, -38, 6)
    assert st.method1 == (32, -38, 6) and st.method2 == (32, -38, 6)


def test_rules_c6_extra_deal() -> None:
    """docs/rules.md §C6: start 30; B plays ♥ from hand (V = 2×(4+1) = 10), A and C whist.
    Made 6/2/2 → B −20, A and C write 20 each. With a refe: ×2 → B −10, A and C 40 each.
    Failed, stopped at the defenders' 5th trick (B 4, A 3, C 2) → B −40, A writes 30, C 20."""
    s = scorer()
    d = s.score(game(1, B, 4, (2, 6, 2), hand=True))
    assert s.columns == (-30, -20, -30) and d.visty[A][B] == 20 and d.visty[C][B] == 20

    s = scorer()
    s.score(all_pass(1))
    d = s.score(game(2, B, 4, (2, 6, 2), hand=True))
    assert s.columns == (-30, -10, -30) and d.visty[A][B] == 40 and d.visty[C][B] == 40

    s = scorer()
    d = s.score(game(1, B, 4, (3, 4, 2), hand=True, stopped=True))
    assert s.columns == (-30, -40, -30) and d.visty[A][B] == 30 and d.visty[C][B] == 20


def test_contra_chain_to_16_with_refe() -> None:
    """Start 50 (refe allowed). Deal 1 all pass → refe for all. Deal 2: C plays ♥ (4) with the talon, V 8;
    A contra, C recontra, A subcontra, C mortcontra → 4 steps, ×16 between C and A; with C's refe ×32.
    B whists without contra → ×2 (refe only). Defenders reach 5 (C 5, A 3, B 2): C fails.
    C: −50 − 8×32 = −306. A writes 3×8×32 = 768 on C; B writes 2×8×2 = 32. No penalties
    (the contract failed). C's refe is used up."""
    s = scorer(start=50)
    s.score(all_pass(1))
    d = s.score(game(2, C, 4, (3, 2, 5), contra=(4, 0, 0), stopped=True))
    assert d.pulya == (0, 0, -256)
    assert d.visty[A][C] == 768 and d.visty[B][C] == 32
    assert s.columns == (-50, -50, -306) and s.refe == [1, 1, 0]


def test_contra_made_penalises_contra_er() -> None:
    """Start 30, C plays ♦ (3) with the talon, V 6; A contras once (×2), B whists. C 6, A 2, B 2: made.
    C: +6×2 = 12 → −18. A writes 2×6×2 = 24, B 2×6 = 12. A's side took 4 ≤ 4: contra-er penalty V×2 = 12
    → A −42 (contra_fail_penalty). Off: A stays −30."""
    s = scorer()
    d = s.score(game(1, C, 3, (2, 2, 6), contra=(1, 0, 0)))
    assert d.pulya == (-12, 0, 12) and d.visty[A][C] == 24 and d.visty[B][C] == 12
    s = scorer(RULES.replace(contra_fail_penalty=False))
    d = s.score(game(1, C, 3, (2, 2, 6), contra=(1, 0, 0)))
    assert d.pulya == (0, 0, 12)


def test_lone_contra_is_an_invitation() -> None:
    """C plays ♣ (5) with the talon, V 10; A whists alone and contras (automatic invitation of B).
    C 7, A 2, B 1 → side 3 < 4: A writes the side's 3 tricks × 10 × 2 = 60 and pays one penalty
    V×2 = 20 (the whist failure, not doubled by the contra-er penalty); C +20; B writes nothing."""
    s = scorer()
    d = s.score(game(1, C, 5, (2, 1, 7), calls=(W, P, D), contra=(1, 0, 0)))
    assert d.pulya == (-20, 0, 20) and d.visty[A][C] == 60 and d.visty[B] == (0, 0, 0)


@pytest.mark.parametrize("calls, invited, tricks, pulya, juha", [
    # both whist: C 7, A 2, B 1 → side 3 < 4, B took 1 < 2 → B −8; A writes 16, B 8
    ((W, W, D), -1, (2, 1, 7), (0, -8, 8), (16, 8)),
    # both whist, both under 2: C 8, A 1, B 1 → both −8
    ((W, W, D), -1, (1, 1, 8), (-8, -8, 8), (8, 8)),
    # A invites B: C 7, A 2, B 1 → A writes 3×8 = 24, side < 4 → A −8; B nothing
    ((I, P, D), -1, (2, 1, 7), (-8, 0, 8), (24, 0)),
    # the same invitation given through the outcome's invited field
    ((W, P, D), B, (2, 1, 7), (-8, 0, 8), (24, 0)),
    # A alone, not invited (two-handed): C 8, A 2 → A writes 16, own quota 2 met
    ((W, P, D), -1, (2, 0, 8), (0, 0, 8), (16, 0)),
    # A alone, 1 trick → A −8, writes 8
    ((W, P, D), -1, (1, 0, 9), (-8, 0, 8), (8, 0)),
    # both whist, failure C 5 stopped at the 5th trick: no penalties, C −8
    ((W, W, D), -1, (4, 1, 5), (0, 0, -8), (32, 8)),
])
def test_whist_obligations(calls, invited, tricks, pulya, juha) -> None:
    """C plays ♥ (4) with the talon, V 8 (docs/rules.md §A8, §A9 Croatian; flat penalty V)."""
    s = scorer()
    stopped = tricks[A] + tricks[B] == 5
    d = s.score(game(1, C, 4, tricks, calls=calls, invited=invited, stopped=stopped))
    assert d.pulya == pulya and (d.visty[A][C], d.visty[B][C]) == juha


@pytest.mark.parametrize("calls, invited, tricks, pulya", [
    # both whist, C 6, A 2, B 2 → side 4 < 6 and each took 2 < 3 → both −8 (default quota 4: no penalty)
    ((W, W, D), -1, (2, 2, 6), (-8, -8, 8)),
    # both whist, C 5, A 3, B 2 stopped at the 5th → side 5 < 6, B 2 < 3 → B −8; C fails −8
    ((W, W, D), -1, (3, 2, 5), (0, -8, -8)),
    # A invites B: C 6, A 3, B 1 → side 4 < 6 → A −8
    ((I, P, D), -1, (3, 1, 6), (-8, 0, 8)),
    # A alone, not invited: C 8, A 2 → own 2 < 3 → A −8 (default own quota 2: no penalty)
    ((W, P, D), -1, (2, 0, 8), (-8, 0, 8)),
])
def test_whist_obligations_read_from_the_rules(calls, invited, tricks, pulya) -> None:
    """whist_obligation 6 for ♥ (4) instead of 4: the side's quota is 6 and each whister's 3.
    C plays ♥ with the talon, V 8; a whister who falls short pays V flat."""
    rules = RULES.replace(whist_obligation=((2, 4), (3, 4), (4, 6), (5, 4), (6, 0), (7, 4)))
    stopped = tricks[A] + tricks[B] == 5
    d = scorer(rules).score(game(1, C, 4, tricks, calls=calls, invited=invited, stopped=stopped))
    assert d.pulya == pulya


def test_lone_whister_quota_side() -> None:
    """lone_whister_quota=side: a lone whister without invitation answers for the side's 4, not his 2.
    C plays ♥ (V 8), A alone takes 3 of C's 7 → 3 < 4 → A −8 (personal quota: 3 ≥ 2, no penalty)."""
    d = scorer().score(game(1, C, 4, (3, 0, 7), calls=(W, P, D)))
    assert d.pulya == (0, 0, 8)
    d = scorer(RULES.replace(lone_whister_quota="side")).score(game(1, C, 4, (3, 0, 7), calls=(W, P, D)))
    assert d.pulya == (-8, 0, 8)


def test_whist_obligation_without_the_contract_is_an_error() -> None:
    """A whist_obligation table without the contract's number cannot score it: the error names the option."""
    s = scorer(RULES.replace(whist_obligation=((2, 4),)))
    with pytest.raises(ScoringError, match="whist_obligation"):
        s.score(game(1, C, 4, (2, 2, 6)))


def test_bettel() -> None:
    """Seed 000: failed Bettel with the talon → declarer −12, each defender 60; from hand −14 and 70.
    Made Bettel +12, defenders write nothing. per_trick (seed 002): 60 per declarer trick, 2 tricks → 120."""
    s = scorer()
    d = s.score(game(1, A, 6, (1, 5, 4)))
    assert d.pulya == (-12, 0, 0) and d.visty[B][A] == 60 and d.visty[C][A] == 60
    d = s.score(game(2, B, 6, (5, 1, 4), hand=True))
    assert d.pulya == (0, -14, 0) and d.visty[A][B] == 70 and d.visty[C][B] == 70
    d = s.score(game(3, C, 6, (5, 5, 0)))
    assert d.pulya == (0, 0, 12) and d.visty == ((0,) * 3,) * 3
    s = scorer(RULES.replace(bettel_fail_mode="per_trick"))
    d = s.score(game(1, A, 6, (2, 4, 4)))
    assert d.visty[B][A] == 120 and d.pulya[A] == -12


def test_not_whisted_and_two_spades() -> None:
    """Nobody whists → made, no juha: A hand Sanac +16. 2♠ with the talon, no refe, no contra →
    conceded: won without play (+4); Slovenian: nobody writes, refe for all. Played without contra → error.
    With a refe the 2♠ rule does not apply."""
    s = scorer()
    d = s.score(not_whisted(1, A, 7, hand=True))
    assert d.pulya == (16, 0, 0)
    assert s.needs_contra(B, 2, False) and not s.needs_contra(B, 2, True) and not s.needs_contra(B, 3, False)
    d = s.score(DealOutcome(2, 0, 3, DealKind.CONCEDED, declarer=B, contract=2))
    assert d.pulya == (0, 4, 0)
    with pytest.raises(ScoringError, match="2♠"):
        s.score(game(3, B, 2, (2, 6, 2)))

    slo = scorer(resolve("slovenian"))
    d = slo.score(DealOutcome(1, 0, 3, DealKind.CONCEDED, declarer=B, contract=2))
    assert d.pulya == (0, 0, 0) and slo.refe == [1, 1, 1]
    assert not slo.needs_contra(B, 2, False)  # B has a refe now: 2♠ is played normally
    d = slo.score(game(2, B, 2, (2, 6, 2)))
    assert d.pulya == (0, 8, 0)  # ×2 refe


def test_refe_limits() -> None:
    """Seed 000/002: start 30 → one refe round, start 50 → three; later all-passes do nothing.
    Queued refes double one contract each (×2, not ×4): A with two refes plays ♦ (6) twice not whisted
    → +12, +12, then +6."""
    s = scorer()
    s.score(all_pass(1))
    s.score(all_pass(2))
    assert s.refe == [1, 1, 1] and s.refe_limit == 1
    s = scorer(start=50)
    for k in range(1, 5):
        s.score(all_pass(k))
    assert s.refe == [3, 3, 3] and s.refe_rounds == 3 and s.refe_limit == 3
    s = scorer(start=50)
    s.score(all_pass(1))
    s.score(all_pass(2))
    assert [s.score(not_whisted(k, A, 3)).pulya[A] for k in (3, 4, 5)] == [12, 12, 6]
    assert s.refe == [0, 2, 2]


def test_refe_kept_on_fail_by_option() -> None:
    """refe_consumed_on_fail=False: A fails ♠ (2) on refe (×2: −8) and keeps the refe."""
    s = scorer(RULES.replace(refe_consumed_on_fail=False))
    s.score(all_pass(1))
    d = s.score(game(2, A, 2, (5, 3, 2), stopped=True))
    assert d.pulya[A] == -8 and s.refe[A] == 1
    s = scorer()
    s.score(all_pass(1))
    s.score(game(2, A, 2, (5, 3, 2), stopped=True))
    assert s.refe[A] == 0


def test_hat() -> None:
    """Start 30. A makes hand Sanac (16) twice not whisted: −30 → −14 → +2: under the hat (∩, deal 2).
    All pass → no refe (someone under the hat). A fails hand Sanac whisted by B and C (A 5, B 3, C 2,
    stopped): +2 − 16 = −14 → out from under the hat (∪, deal 4); B writes 48, C 32.
    All pass → refe (limit 1 for start 30); all pass again → limit reached."""
    s = scorer()
    s.score(not_whisted(1, A, 7, hand=True))
    s.score(not_whisted(2, A, 7, hand=True))
    assert s.columns[A] == 2 and s.under_hat == (True, False, False)
    s.score(all_pass(3))
    assert s.refe == [0, 0, 0]
    d = s.score(game(4, A, 7, (5, 3, 2), hand=True, stopped=True))
    assert s.columns[A] == -14 and d.visty[B][A] == 48 and d.visty[C][A] == 32
    assert s.hat_marks == [HatMark(2, A, True), HatMark(4, A, False)]
    assert [m.symbol for m in s.hat_marks] == ["∩", "∪"]
    s.score(all_pass(5))
    assert s.refe == [1, 1, 1]
    s.score(all_pass(6))
    assert s.refe == [1, 1, 1]


def _to_minus_ten(s: CroatianScorer) -> None:
    """Hand Sanac (16) not whisted by A, B, C, A, B: columns −14/−14/−14 then +2/+2/−14, sum −10."""
    for k, seat in enumerate((A, B, C, A, B), start=1):
        s.score(not_whisted(k, seat, 7, hand=True))
    assert s.columns == (2, 2, -14)


def test_overshoot_at_end() -> None:
    """Sum −10; C plays ♣ from hand (12), C 6, A 3, B 1 (side 4, no penalty): the full write would take the
    sum to +2, so C writes 12 − 2 = 10 and the juha is scaled by 10/12: A 36 → 30, B 12 → 10. Columns
    2/2/−4 sum to 0: the pulka is over. Settlement (mean 0): A 20+30 = 50, B 20+10 = 30, C −40−40 = −80."""
    s = scorer()
    _to_minus_ten(s)
    d = s.score(game(6, C, 5, (3, 1, 6), hand=True))
    assert d.pulya == (0, 0, 10) and d.visty[A][C] == 30 and d.visty[B][C] == 10
    assert s.columns == (2, 2, -4) and s.is_finished()
    assert s.settlement().exact == (50, 30, -80)
    with pytest.raises(ScoringError, match="over"):
        s.score(all_pass(7))


def test_overshoot_none_and_penalty_continues() -> None:
    """overshoot_mode=none: the same deal writes 12, 36, 12 in full and ends at sum +2.
    A penalty keeping the sum below zero is written in full and play goes on: from sum −10, C makes Sanac
    with the talon (14), C 7, A 2, B 1 → B (1 < 2, side 3) −14: sum −10 + 14 − 14 = −10, not over."""
    s = scorer(RULES.replace(overshoot_mode="none"))
    _to_minus_ten(s)
    d = s.score(game(6, C, 5, (3, 1, 6), hand=True))
    assert d.pulya == (0, 0, 12) and d.visty[A][C] == 36 and s.is_finished()
    st = s.settlement()
    assert sum(st.exact) == 0 and sum(st.method1) == 0 and sum(st.method2) == 0

    s = scorer()
    _to_minus_ten(s)
    d = s.score(game(6, C, 7, (2, 1, 7)))
    assert d.pulya == (0, -14, 14) and sum(s.columns) == -10 and not s.is_finished()


def test_early_settlement_with_fractions() -> None:
    """Early stop: A makes ♠ (4) not whisted: columns −26/−30/−30, mean −86/3: A 10×(−26+86/3) = 80/3,
    B and C −40/3 each. method1 rounds by largest remainder: floors 26/−14/−14 miss 2 units, the equal
remainders (2/3 each) go to the lower seats first → 27/−13/−14 (sum 0)."""
    s = scorer()
    s.score(not_whisted(1, A, 2))
    st = s.settlement()
    assert st.exact == (Fraction(80, 3), Fraction(-40, 3), Fraction(-40, 3))
    assert st.method1 == (27, -13, -14) and sum(st.method2) == 0


@pytest.mark.parametrize("outcome, match", [
    (DealOutcome(1, 0, 3, "raspasy"), "does not exist"),
    (DealOutcome(1, 0, 3, DealKind.GAME, declarer=A, contract=9, tricks=(6, 2, 2)), "2..7"),
    (DealOutcome(1, 0, 3, DealKind.GAME, declarer=A, contract=4, tricks=(3, 6, 1)), "took 7 tricks"),
    (DealOutcome(1, 0, 3, DealKind.GAME, declarer=A, contract=4, tricks=(6, 2, 1)), "tricks played"),
    (DealOutcome(1, 0, 3, DealKind.GAME, declarer=A, contract=4, tricks=(6, 2, 2), contra=(1, 0, 0)), "contra"),
    (DealOutcome(1, 0, 3, DealKind.GAME, declarer=A, contract=4, tricks=(6, 2, 2), calls=(D, W, P), contra=(0, 0, 1)),
     "cannot contra"),
    (DealOutcome(1, 0, 3, DealKind.CONCEDED, declarer=A, contract=4), "only the 2♠"),
])
def test_bad_outcomes(outcome: DealOutcome, match: str) -> None:
    with pytest.raises(ScoringError, match=match) as exc:
        scorer().score(outcome)
    assert "deal 1" in str(exc.value)
