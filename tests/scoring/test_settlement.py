"""Final settlement: seed 003 example (docs/rules.md §B1), Leningrad and Rostov worked settlements (B2, B3)."""

from __future__ import annotations

from fractions import Fraction

from preflog.rules import LENINGRAD
from preflog.rules import ROSTOV
from preflog.rules import SOCHI
from preflog.rules import resolve
from preflog.scoring.settlement import compensation
from preflog.scoring.settlement import settle
from preflog.scoring.settlement import shown_result

ZERO3 = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]


def seed_sheet() -> tuple[list[int], list[int], list[list[int]]]:
    """docs/rules.md §B1: pulyas equal; goras З 8, В 19, Ю 14; net visty З −26, В +24, Ю +2 (В on З 24, Ю on З 2)."""
    return [50, 50, 50], [8, 19, 14], [[0, 0, 0], [24, 0, 0], [2, 0, 0]]


def test_seed_method1() -> None:
    """Seed 003 method 1: amnesty 0/11/6; В's 110/3 not whole → В 12, З and Ю remove 3 visty on В
    (nets −29/+30/−1); В 120/3 = 40 and Ю 60/3 = 20 written by the others → З −29 + 40 + 20 = +31,
    В 30 − 80 + 20 = −30, Ю −1 + 40 − 40 = −1. Seed: «З выиграл 31 …, В проиграл 30 …, Ю проиграл 1»."""
    assert settle(*seed_sheet(), SOCHI).method1 == (31, -30, -1)


def test_seed_method2() -> None:
    """Seed 003 method 2: 0 + 11 + 6 = 17, not divisible → +1 to Ю (smallest positive gora; the seed's
    lot also fell on Ю), З and В remove 3 on Ю (nets −29/+21/+8); mean 18/3 = 6 → +60/−50/−10
    → З +31, В −29, Ю −2."""
    assert settle(*seed_sheet(), SOCHI).method2 == (31, -29, -2)


def test_seed_exact_and_money() -> None:
    """Seed 003: «точные результаты … З: +30 2/3; В: –29 1/3; Ю: –1 1/3»; money is the result shown
    (Sochi: method 1, +31 / −30 / −1) × the price: «З выиграл 31 вист (если игра велась по 100 рублей
    за вист – 3100 руб.), … В проиграл 30 вистов (3000 руб.), … Ю проиграл 1 вист (100 руб.)»."""
    s = settle(*seed_sheet(), SOCHI, whist_price=100)
    assert s.exact == (Fraction(92, 3), Fraction(-88, 3), Fraction(-4, 3))
    assert s.money == (3100, -3000, -100)


def test_shown_result_follows_settlement_rounding() -> None:
    """settlement_rounding picks the result shown for the seed 003 sheet: Sochi's method1 З +31, В −30,
    Ю −1; method2 З +31, В −29, Ю −2; exact З +30⅔, В −29⅓, Ю −1⅓ (Croatian presets show exact);
    a whole exact value is an int."""
    s = settle(*seed_sheet(), SOCHI)
    assert shown_result(s, SOCHI) == (31, -30, -1)
    assert shown_result(s, SOCHI.replace(settlement_rounding="method2")) == (31, -29, -2)
    assert shown_result(s, SOCHI.replace(settlement_rounding="exact")) == (Fraction(92, 3), Fraction(-88, 3),
                                                                           Fraction(-4, 3))
    whole = settle([0, 0, 0], [0, 3, 0], ZERO3, SOCHI)  # exact +10, −20, +10
    assert shown_result(whole, resolve("croatian")) == (10, -20, 10)
    assert all(type(x) is int for x in shown_result(whole, resolve("croatian")))


def test_compensation_three_and_four_players() -> None:
    """Seed 003: a gora point ≈ 3 visty per other player: 10/3 rounded down, 10/4 = 2.5 rounded up."""
    assert compensation(10, 3) == 3 and compensation(10, 4) == 3


def test_method1_removes_a_point() -> None:
    """Residue 1 → remove a point: goras 0/4/0, no visty. 4 → 3; A and C write +3 on B (nets 3/−6/3);
    B's 30/3 = 10 written by A and C → 13, −26, 13 (exact 13⅓, −26⅔, 13⅓); method 2 the same (4 → 3, mean 1)."""
    s = settle([0, 0, 0], [0, 4, 0], ZERO3, SOCHI)
    assert s.method1 == (13, -26, 13) and s.method2 == (13, -26, 13)
    assert s.exact == (Fraction(40, 3), Fraction(-80, 3), Fraction(40, 3))


def test_leningrad_worked_settlement() -> None:
    """docs/rules.md §B2: goras 36/20/12; visty A→B 30, A→C 18, B→A 96, B→C 24, C→A 64, C→B 40 → nets
    −112/+50/+62; mean 68/3 → exact −245⅓, +76⅔, +168⅔. Method 2: amnesty 24/8/0, sum 32 → +1 to B
    (smallest positive), A, C remove 3 on B → mean 11 → −115 − 130 = −245, 56 + 20 = 76, 59 + 110 = 169.
    Method 1: 8 → 9 the same way; A 240/3 = 80, B 90/3 = 30 → A −115 − 160 + 30 = −245, B 56 + 80 − 60 = 76,
    C 59 + 80 + 30 = 169."""
    s = settle([50, 50, 50], [36, 20, 12], [[0, 30, 18], [96, 0, 24], [64, 40, 0]], LENINGRAD)
    assert s.exact == (Fraction(-736, 3), Fraction(230, 3), Fraction(506, 3))
    assert s.method2 == (-245, 76, 169) and s.method1 == (-245, 76, 169)


def test_rostov_worked_settlement() -> None:
    """docs/rules.md §B3: goras 10/4/16 (mean 10); visty A→B 35, A→C 60, B→A 22, B→C 41, C→A 15, C→B 8 →
    nets +58/+20/−78; gora parts 0/+60/−60 → A +58, B +80, C −138 (all methods: amnesty 6/0/12 divides)."""
    s = settle([50, 50, 50], [10, 4, 16], [[0, 35, 60], [22, 0, 41], [15, 8, 0]], ROSTOV)
    assert s.exact == (58, 80, -138) and s.method1 == (58, 80, -138) and s.method2 == (58, 80, -138)


def test_four_player_divisor() -> None:
    """docs/rules.md §B1: 4 players, goras 10/0/3/7 → mean 5 → exact −50, +50, +20, −20; method 2 equal
    (sum 20 × 10 / 4 whole). Method 1: 3 → 4 and 7 → 8 (odd goras, +1 each, others remove 3 on each)
    → nets −6/−6/+6/+6, shares 25/0/10/20 (total 55) → net + 55 − 4·share = −51, 49, 21, −19."""
    s = settle([0] * 4, [10, 0, 3, 7], [[0] * 4 for _ in range(4)], SOCHI)
    assert s.exact == (-50, 50, 20, -20) and s.method2 == (-50, 50, 20, -20)
    assert s.method1 == (-51, 49, 21, -19)


def test_unequal_pulyas_pool_term() -> None:
    """Early stop with pulyas 50/40/30, nothing else: exact k·(pulya − mean 40) → Sochi (k = 10)
    +100/0/−100, Leningrad (k = 20) +200/0/−200; method 2 (shortfall 0/10/20 as gora, mean 10) equal."""
    s = settle([50, 40, 30], [0, 0, 0], ZERO3, SOCHI)
    assert s.exact == (100, 0, -100) and s.method2 == (100, 0, -100)
    assert settle([50, 40, 30], [0, 0, 0], ZERO3, LENINGRAD).exact == (200, 0, -200)


def test_fractional_sheet_rounds_zero_sum() -> None:
    """Half visty (Rostov tie): A wrote 17½ on C, B 17½ on C → exact +17½/+17½/−35; the paper
    methods give whole visty by largest remainder (lower seat first on ties): 18, 17, −35."""
    h = Fraction(35, 2)
    s = settle([0, 0, 0], [0, 0, 0], [[0, 0, h], [0, 0, h], [0, 0, 0]], ROSTOV)
    assert s.exact == (h, h, -35)
    assert s.method1 == (18, 17, -35) and s.method2 == (18, 17, -35)
