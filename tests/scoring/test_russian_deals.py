"""Russian per-deal scoring against the worked examples of seed 003 and docs/rules.md §B.

Seats: 0 = A (declarer unless said otherwise), 1 = B (declarer's left), 2 = C. Dealer 2 at 3
players, so seat 0 is first hand. ``V`` = game value (6: 2, 7: 4, 8: 6, 9: 8, 10: 10).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from preflog.engine.families import family_of
from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules import LENINGRAD
from preflog.rules import SOCHI
from preflog.rules import Rules
from preflog.scoring.russian import RussianScorer
from preflog.scoring.russian import ScoringError

W, P = CALL_WHIST, CALL_PASS


def game(contract: int, tricks: tuple[int, ...], calls: dict[int, int] | None = None, *, declarer: int = 0,
         dealer: int = 2, whist_order: tuple[int, ...] = (), kind: str = DealKind.GAME, **kw: object) -> DealOutcome:
    n = len(tricks) if tricks else 3
    c = tuple(-1 if s == declarer or (n == 4 and s == dealer) else (calls or {}).get(s, P) for s in range(n))
    if not whist_order:
        whist_order = tuple(s for s in ((declarer + k) % n for k in range(1, n)) if c[s] == W)
    return DealOutcome(deal=1, dealer=dealer, n_players=n, kind=kind, declarer=declarer, contract=contract,
                       tricks=tricks, calls=c, whist_order=whist_order, **kw)  # type: ignore[arg-type]


def scorer(rules: Rules = SOCHI, n: int = 3, pool: int = 50) -> RussianScorer:
    return RussianScorer(rules, n, pool)


# ---------------------------------------------------------------- made contracts, visty
def test_made_six_two_whisters_write_own_tricks() -> None:
    """Seed 003 «Примеры 1»: 6-level, one whister 3 tricks, other 1 → 2×3 = 6 and 2×1 = 2 visty; pulya +2."""
    d = scorer().score(game(61, (6, 3, 1), {1: W, 2: W}))
    assert d.pulya == (2, 0, 0)
    assert d.visty[1][0] == 6 and d.visty[2][0] == 2
    assert d.gora == (0, 0, 0)


def test_made_seven_whister_with_zero_writes_nothing() -> None:
    """Seed 003 «Примеры 2»: 7-level, 2 and 0 tricks → 4×2 = 8 and nothing; side took the needed 2,
    so the 0-taker has no shortfall (quota 1 capped by side shortfall 0)."""
    d = scorer().score(game(74, (8, 2, 0), {1: W, 2: W}))
    assert d.visty[1][0] == 8 and d.visty[2][0] == 0
    assert d.gora == (0, 0, 0) and d.pulya == (4, 0, 0)


def test_lone_whister_open_play_writes_side_tricks() -> None:
    """Seed 003 «Примеры 3»: 6-level, lone whister invites the passer (open); both hands 4 tricks
    → whister 2×4 = 8, the passer nothing."""
    d = scorer().score(game(61, (6, 1, 3), {1: W}, open_play=True))
    assert d.visty[1][0] == 8 and d.visty[2][0] == 0


def test_lone_whister_closed_play_also_greedy() -> None:
    """Greedy rule holds closed too (docs/rules.md §B1 default): side 2 + 2 = 4 tricks → 2×4 = 8 to the whister."""
    d = scorer().score(game(63, (6, 2, 2), {2: W}, open_play=False))
    assert d.visty[2][0] == 8 and d.visty[1][0] == 0


# ---------------------------------------------------------------- consolation
def test_consolation_two_whisters_10_and_4() -> None:
    """Seed 003 consolation ex. 1: 6-level, whisters 4 and 1, declarer 5 (down 1):
    first 2×4 + 2×1 = 10, second 2×1 + 2×1 = 4; declarer gora 2×1 = 2."""
    d = scorer().score(game(61, (5, 4, 1), {1: W, 2: W}))
    assert (d.visty[1][0], d.visty[2][0]) == (10, 4)
    assert d.gora == (2, 0, 0) and d.pulya == (0, 0, 0)


def test_consolation_whister_and_passer_28_and_8() -> None:
    """Seed 003 consolation ex. 2: 7-level, whist + pass, whister took 5 (declarer 5, down 2):
    whister 4×5 + 4×2 = 28, passer consolation 4×2 = 8; declarer gora 4×2 = 8."""
    d = scorer().score(game(74, (5, 0, 5), {2: W}))
    assert (d.visty[2][0], d.visty[1][0]) == (28, 8)
    assert d.gora[0] == 8


def test_consolation_returned_half_whist_24() -> None:
    """Seed 003 consolation ex. 3: 7-level, B said half-whist, C returned and took 4 (declarer 6):
    C writes 4×4 + 4×1 + 4×1 (B's consolation) = 24; B («уходил за свои») nothing."""
    d = scorer().score(game(74, (6, 0, 4), {2: W}, half_whister=1, returner=2))
    assert d.visty[2][0] == 24 and d.visty[1][0] == 0


def test_consolation_passer_option_off() -> None:
    """consolation_passer=False: 7-level down 2 with whist + pass → whister 4×5 + 8 = 28, passer 0."""
    d = scorer(SOCHI.replace(consolation_passer=False)).score(game(74, (5, 0, 5), {2: W}))
    assert (d.visty[2][0], d.visty[1][0]) == (28, 0)


def test_seven_with_five_tricks_costs_eight_gora() -> None:
    """Seed 003: «на семерной игре разыгрывающий взял только 5 взяток, он пишет в гору 4 х 2 = 8»."""
    d = scorer().score(game(72, (5, 3, 2), {1: W, 2: W}))
    assert d.gora[0] == 8 and d.pulya[0] == 0


def test_ten_game_check_20_and_10() -> None:
    """Seed 003 ten-game check: declarer loses one trick to B → gora 10×1; B 10 + 10 = 20, C consolation 10."""
    d = scorer().score(game(105, (9, 1, 0), {}, checked=True))
    assert d.gora == (10, 0, 0)
    assert (d.visty[1][0], d.visty[2][0]) == (20, 10)


def test_ten_game_check_made_no_liability() -> None:
    """A check that shows 10 tricks: pulya 10, nobody whisted so nobody owes the 1-trick obligation."""
    d = scorer().score(game(101, (10, 0, 0), {}, checked=True))
    assert d.pulya == (10, 0, 0) and d.gora == (0, 0, 0) and sum(map(sum, d.visty)) == 0


# ---------------------------------------------------------------- responsible whist (A9)
def test_shortfall_lone_whister_seven_one_trick() -> None:
    """Seed 003 shortfall ex. 1: lone whister on 7 took 1 (side needs 2) → 4 gora and 4 visty."""
    d = scorer().score(game(74, (9, 0, 1), {2: W}))
    assert d.gora == (0, 0, 4) and d.visty[2][0] == 4 and d.pulya[0] == 4


def test_shortfall_six_three_and_zero() -> None:
    """Seed 003 shortfall ex. 2: 6, both whist, 3 and 0 → side short 1; the 0-taker's quota 2
    capped at 1 → 2 gora; the 3-taker writes 2×3 = 6."""
    d = scorer().score(game(61, (7, 3, 0), {1: W, 2: W}))
    assert d.gora == (0, 0, 2) and d.visty[1][0] == 6


def test_shortfall_six_one_and_zero() -> None:
    """Seed 003 shortfall ex. 3: 6, 1 and 0 → side short 3; quotas min(2−1,3) = 1 and min(2,3) = 2
    → 2 gora + 2 visty, and 4 gora."""
    d = scorer().score(game(61, (9, 1, 0), {1: W, 2: W}))
    assert d.gora == (0, 2, 4) and d.visty[1][0] == 2


def test_shortfall_eight_second_whister() -> None:
    """Seed 003 shortfall ex. 4: 8, both whisters 0 → the one who whisted second writes 6 gora.
    Whist order: C (seat 2) first, then B → B pays."""
    d = scorer().score(game(85, (10, 0, 0), {1: W, 2: W}, whist_order=(2, 1)))
    assert d.gora == (0, 6, 0)


def test_shortfall_eight_split_option() -> None:
    """high_level_liability='split': 8-level side short 1 → each whister ½ × 6 = 3 gora."""
    d = scorer(SOCHI.replace(high_level_liability="split")).score(game(85, (10, 0, 0), {1: W, 2: W}))
    assert d.gora == (0, 3, 3)


def test_shortfall_nine_split_is_fraction() -> None:
    """split at 9: short 1 → ½ trick each × 8 = 4 gora each (½ trick stays exact)."""
    d = scorer(SOCHI.replace(high_level_liability="split")).score(game(91, (10, 0, 0), {1: W, 2: W}))
    assert d.gora == (0, 4, 4)


def test_whisters_share_penalty() -> None:
    """whisters_share_penalty: 6, 1 + 0 → penalties 1 and 2 tricks shared → 1½ each × 2 = 3 gora each."""
    d = scorer(SOCHI.replace(whisters_share_penalty=True)).score(game(61, (9, 1, 0), {1: W, 2: W}))
    assert d.gora == (0, 3, 3)


# ---------------------------------------------------------------- half-whist, not whisted
def test_half_whist_six_and_seven() -> None:
    """docs/rules.md §B1: half-whist stood → declarer pulya V; half-whister 2 tricks × 2 = 4 on 6, 1 × 4 = 4 on 7."""
    s = scorer()
    d6 = s.score(game(61, (), {}, kind=DealKind.HALF_WHIST, half_whister=2))
    d7 = s.score(game(74, (), {}, kind=DealKind.HALF_WHIST, half_whister=1))
    assert d6.pulya == (2, 0, 0) and d6.visty[2][0] == 4
    assert d7.pulya == (4, 0, 0) and d7.visty[1][0] == 4


def test_half_whist_not_at_eight() -> None:
    """Half-whist is only allowed at 6 and 7 (rules §A8): an 8-level half-whist is a ScoringError naming the deal."""
    with pytest.raises(ScoringError, match="deal 1: half-whist"):
        scorer().score(game(81, (), {}, kind=DealKind.HALF_WHIST, half_whister=2))


def test_not_whisted() -> None:
    """Both pass → contract counted as made: pulya V = 6 for an 8, nothing else."""
    d = scorer().score(game(83, (), {}, kind=DealKind.NOT_WHISTED))
    assert d.pulya == (6, 0, 0) and d.gora == (0, 0, 0) and sum(map(sum, d.visty)) == 0


# ---------------------------------------------------------------- miser
def test_miser_three_tricks_30_gora() -> None:
    """Seed 003: «на мизере игрок получил 3 взятки, то он записывает в гору 10 х 3 = 30»; no visty on miser."""
    d = scorer().score(game(90, (3, 4, 3), {}, kind=DealKind.MISER))
    assert d.gora == (30, 0, 0) and d.pulya == (0, 0, 0) and sum(map(sum, d.visty)) == 0


def test_miser_made_and_leningrad_fail() -> None:
    """Made miser → pulya 10; Leningrad failed miser 20 per trick: 2 tricks → 40 gora."""
    assert scorer().score(game(90, (0, 5, 5), {}, kind=DealKind.MISER)).pulya == (10, 0, 0)
    assert scorer(LENINGRAD).score(game(90, (2, 4, 4), {}, kind=DealKind.MISER)).gora == (40, 0, 0)


# ---------------------------------------------------------------- worked deals
def test_sochi_worked_deal_b16() -> None:
    """docs/rules.md §B1: A 7♥, B passes, C whists open, defenders 4 → A down 1: gora 4; C 4×4 + 4 = 20;
    B consolation 4. Values: A −24 + 10(4/3 − 4) = −50⅔; B 4 + 40/3 = 17⅓; C 20 + 40/3 = 33⅓."""
    d = scorer().score(game(74, (6, 1, 3), {2: W}, open_play=True))
    assert d.gora == (4, 0, 0) and d.visty[2][0] == 20 and d.visty[1][0] == 4
    assert [d.value(s) for s in range(3)] == [Fraction(-152, 3), Fraction(52, 3), Fraction(100, 3)]


def test_sochi_worked_deal_b16_second() -> None:
    """docs/rules.md §B1 second deal: A 6♠, both whist, B 3, C 0, A 7 → A pulya 2, B 6 visty, C short 1 → gora 2."""
    d = scorer().score(game(61, (7, 3, 0), {1: W, 2: W}))
    assert d.pulya == (2, 0, 0) and d.visty[1][0] == 6 and d.gora == (0, 0, 2)


def test_leningrad_worked_deal_b2() -> None:
    """docs/rules.md §B2: same deal in Leningrad: A gora 2×4 = 8; trick visty 8×4 = 32 + consolations 8 + 8
    = 48, gentleman's split 24/24. Values: A −48 + 10(8/3 − 8) = −101⅓; B, C 24 + 80/3 = 50⅔."""
    d = scorer(LENINGRAD).score(game(74, (6, 1, 3), {2: W}, open_play=True))
    assert d.gora == (8, 0, 0) and d.visty[2][0] == 24 and d.visty[1][0] == 24
    assert [d.value(s) for s in range(3)] == [Fraction(-304, 3), Fraction(152, 3), Fraction(152, 3)]


def test_leningrad_no_split_when_made() -> None:
    """Gentleman's split only on a remiz: Leningrad 6 made, lone whister side 3 → 4×3 = 12 to the whister, passer 0."""
    d = scorer(LENINGRAD).score(game(61, (7, 1, 2), {2: W}))
    assert d.visty[2][0] == 12 and d.visty[1][0] == 0


@pytest.mark.parametrize(("declarer_tricks", "cost"), [(5, 62), (4, 108)])
def test_leningrad_four_players_six_down(declarer_tricks: int, cost: int) -> None:
    """docs/rules.md §B2 (Skuratov), 4 players, dealer seat 3 sits out, Leningrad 6-level:
    down 1: gora 4 → 4·10·¾ = 30; consolation 4 × 3 opponents (dealer too) = 12; 5 defender tricks × 4 = 20 → 62.
    down 2: gora 8 → 60; consolation 8 × 3 = 24; 6 tricks × 4 = 24 → 108."""
    side = 10 - declarer_tricks
    o = game(61, (declarer_tricks, side - 2, 2, 0), {1: W, 2: W}, dealer=3)
    d = scorer(LENINGRAD, n=4).score(o)
    assert d.value(0) == -cost
    assert d.visty[3][0] == 4 * (6 - declarer_tricks)  # the sitting-out dealer's consolation


def test_four_players_dealer_consolation_option_off() -> None:
    """consolation_dealer=False: Sochi 4p 6 down 1 → dealer writes nothing; whisters 2×t + 2 each."""
    o = game(61, (5, 3, 2, 0), {1: W, 2: W}, dealer=3)
    d = scorer(SOCHI.replace(consolation_dealer=False), n=4).score(o)
    assert d.visty[3][0] == 0 and d.visty[1][0] == 8 and d.visty[2][0] == 6


# ---------------------------------------------------------------- American help (B1.4)
def _with_pulya(s: RussianScorer, pulya: list[int], gora: list[int] | None = None) -> RussianScorer:
    s.sheet.pulya = list(pulya)
    if gora is not None:
        s.sheet.gora = list(gora)
    return s


def test_american_help_example() -> None:
    """docs/rules.md §B1 (pool 20): A 18, B 20 (closed), C 12; A makes an 8 (6 points): A +2 → 20;
    C +4 → 16; A writes 10 × 4 = 40 visty on C."""
    s = _with_pulya(scorer(pool=20), [18, 20, 12])
    d = s.score(game(81, (8, 1, 1), {1: W, 2: W}))
    assert d.pulya == (2, 0, 4) and d.visty[0][2] == 40
    assert s.sheet.pulya == [20, 20, 16]


def test_american_help_larger_pulya_first_then_rest() -> None:
    """Seed 003: help goes to the larger pulya; if it cannot take all, the other gets the rest.
    Pool 20: A 20, B 12, C 17; A makes 9 (8 points) → C +3 (to 20, 30 visty), B +5 (50 visty)."""
    s = _with_pulya(scorer(pool=20), [20, 12, 17])
    d = s.score(game(91, (9, 1, 0), {1: W, 2: W}))
    assert d.pulya == (0, 5, 3) and d.visty[0][2] == 30 and d.visty[0][1] == 50


def test_american_help_equal_pulyas_left_first() -> None:
    """Seed 003: equal pulyas → the player on the declarer's left first. Declarer C (seat 2), his
    left is seat 0. Pool 20: C 20, A 16, B 16; C makes 7 (4 points) → all to A, 40 visty."""
    s = _with_pulya(scorer(pool=20), [16, 16, 20])
    d = s.score(game(74, (2, 1, 7), {0: W, 1: W}, declarer=2, dealer=1))
    assert d.pulya == (4, 0, 0) and d.visty[2][0] == 40


def test_american_help_off_gora_then_each_opponent() -> None:
    """Seed 003: nobody can take help → off the declarer's gora (3 here), the rest (6 − 3 = 3) into
    each opponent's gora. Pool 20, all pulyas closed; A makes an 8 (6 points)."""
    s = _with_pulya(scorer(pool=20), [20, 20, 20], [3, 0, 5])
    d = s.score(game(81, (8, 1, 1), {1: W, 2: W}))
    assert d.gora == (-3, 3, 3) and d.pulya == (0, 0, 0)
    assert s.sheet.gora == [0, 3, 8]


def test_no_american_help_option() -> None:
    """american_help=False: the closed pulya just grows (18 + 6 = 24 over a pool of 20)."""
    s = _with_pulya(scorer(SOCHI.replace(american_help=False), pool=20), [18, 20, 12])
    s.score(game(81, (8, 1, 1), {1: W, 2: W}))
    assert s.sheet.pulya == [24, 20, 12]


def test_is_finished_when_every_pulya_closed() -> None:
    """Pool 4: two made 7s by A and B close two pulyas (4 each) — not finished; C's 7 closes the last one."""
    s = scorer(pool=4)
    s.score(game(71, (7, 2, 1), {1: W, 2: W}))
    s.score(game(71, (2, 7, 1), {0: W, 2: W}, declarer=1))
    assert not s.is_finished()
    s.score(game(71, (2, 1, 7), {0: W, 1: W}, declarer=2))
    assert s.is_finished() and s.sheet.pulya == [4, 4, 4]


# ---------------------------------------------------------------- registry and errors
def test_registry_and_protocol() -> None:
    """The Russian family's scorer: a new pulka has min bid 0 and is not finished."""
    s = family_of(SOCHI).scorer(SOCHI, 3, 50)
    assert isinstance(s, RussianScorer)
    assert s.min_bid_level() == 0 and not s.is_finished()


def test_bad_trick_count_names_deal() -> None:
    """Tricks must add up to 10; the error names the deal."""
    with pytest.raises(ScoringError, match="deal 1: trick counts"):
        scorer().score(game(61, (6, 3, 0), {1: W, 2: W}))


def test_game_without_whister_is_error() -> None:
    """A played DealKind.GAME with both defenders passing is inconsistent (that is kind not_whisted)."""
    with pytest.raises(ScoringError, match="whister"):
        scorer().score(game(61, (6, 3, 1), {}))


def test_a_refused_deal_leaves_nothing_for_the_next() -> None:
    """The scorer reuses one set of entries from deal to deal. The refused game above has written the
    declarer's pulya +2 before it finds no whister; the next deal (6♠ made, whisters 3 and 1) still
    writes exactly what a fresh scorer writes: pulya (2, 0, 0), visty 2 × 3 = 6 and 2 × 1 = 2."""
    s = scorer()
    with pytest.raises(ScoringError, match="whister"):
        s.score(game(61, (6, 3, 1), {}))
    d = s.score(game(61, (6, 3, 1), {1: W, 2: W}))
    assert d == scorer().score(game(61, (6, 3, 1), {1: W, 2: W}))
    assert d.pulya == (2, 0, 0) and d.visty[1][0] == 6 and d.visty[2][0] == 2 and d.note == ""
    assert s.sheet.pulya == [2, 0, 0]



def test_concede_down_three_is_a_house_rule() -> None:
    """allow_concede_down3: A concedes 7♠ (V 4) without play → gora remiz_mult × V × 3 = 1 × 4 × 3 = 12,
    nobody writes visty, no pulya; Leningrad (remiz_mult 2) → 24. Without the option (the default)
    a conceded deal without tricks is a scoring error naming it."""
    conceded = DealOutcome(deal=1, dealer=2, n_players=3, kind=DealKind.CONCEDED, declarer=0, contract=71)
    d = scorer(SOCHI.replace(allow_concede_down3=True)).score(conceded)
    assert d.gora == (12, 0, 0) and d.pulya == (0, 0, 0) and d.visty == ((0,) * 3,) * 3
    assert scorer(LENINGRAD.replace(allow_concede_down3=True)).score(conceded).gora == (24, 0, 0)
    with pytest.raises(ScoringError, match="allow_concede_down3"):
        scorer().score(conceded)
