"""Raspasy ("распасы") scoring, price series and the anti-raspasy minimum bid (seed 003, docs/rules.md §B1, B3)."""

from __future__ import annotations

from fractions import Fraction

from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules import LENINGRAD
from preflog.rules import ROSTOV
from preflog.rules import SOCHI
from preflog.rules import Rules
from preflog.rules import resolve
from preflog.scoring.russian import RussianScorer
from preflog.scoring.russian import raspasy_price


def rasp(tricks: tuple[int, ...], dealer: int = 2) -> DealOutcome:
    return DealOutcome(deal=1, dealer=dealer, n_players=len(tricks), kind=DealKind.RASPASY, tricks=tricks)


def game(contract: int, tricks: tuple[int, int, int], kind: str = DealKind.GAME) -> DealOutcome:
    calls = (-1, CALL_WHIST, CALL_PASS) if kind == DealKind.GAME else (-1, -1, -1)
    return DealOutcome(deal=1, dealer=2, n_players=3, kind=kind, declarer=0, contract=contract,
                       tricks=tricks, calls=calls, whist_order=(1,) if kind == DealKind.GAME else ())


def scorer(rules: Rules = SOCHI, n: int = 3) -> RussianScorer:
    return RussianScorer(rules, n, 50)


def test_sochi_raspasy_gora_and_zero_premium() -> None:
    """Seed 003: tricks × price to gora; 0 tricks → price to pulya. Price 1, tricks 0/4/6 → gora 0,4,6, A pulya 1."""
    d = scorer().score(rasp((0, 4, 6)))
    assert d.gora == (0, 4, 6) and d.pulya == (1, 0, 0)


def test_seed_sequence_one_two_game_one() -> None:
    """Seed 003 first sequence: raspasy at 1, again at 2, then a 6-level game, then single raspasy again.
    Deal 2 tricks 2/0/8 at price 2 → gora 4, 0, 16, B pulya 2; deal 4 tricks 1/3/6 at price 1."""
    s = scorer()
    assert s.score(rasp((0, 4, 6))).gora == (0, 4, 6)
    d2 = s.score(rasp((2, 0, 8)))
    assert d2.gora == (4, 0, 16) and d2.pulya == (0, 2, 0)
    s.score(game(61, (6, 3, 1)))
    assert s.score(rasp((1, 3, 6))).gora == (1, 3, 6)


def test_arithmetic_cap_and_geometric() -> None:
    """Seed 003: modern Sochi 1-2-3 (then 3 forever) or geometric 1-2-4 (then 4); old Sochi always 1;
    Leningrad preset 2-4-6 (base 2, cap 3)."""
    assert [raspasy_price(SOCHI, k) for k in range(1, 6)] == [1, 2, 3, 3, 3]
    assert [raspasy_price(resolve("sochi+geometric-raspasy"), k) for k in range(1, 6)] == [1, 2, 4, 4, 4]
    assert [raspasy_price(resolve("sochi+flat-raspasy"), k) for k in range(1, 4)] == [1, 1, 1]
    assert [raspasy_price(LENINGRAD, k) for k in range(1, 5)] == [2, 4, 6, 6]


def test_fourth_consecutive_raspasy_stays_at_three() -> None:
    """Seed 003: «четвёртая и последующие распасовки также стоят 3»: 4th raspasy, tricks 0/5/5 → 15 each, pulya 3."""
    s = scorer()
    for _ in range(3):
        s.score(rasp((3, 3, 4)))
    d = s.score(rasp((0, 5, 5)))
    assert d.gora == (0, 15, 15) and d.pulya == (3, 0, 0)


def test_failed_game_does_not_break_and_min_bid() -> None:
    """Seed 003 second sequence (made-game exit + min bid 7 after double, 8 after triple raspasy):
    1 raspasy ×1; 2 six failed (5 tricks) — series kept; 3 raspasy ×2 → next auction from 7;
    4 miser failed — series kept, still from 7; 5 raspasy ×3 → from 8; 6 eight made → series over;
    7 single raspasy again."""
    s = scorer(resolve("sochi+made-game-exit+min-bid-after-raspasy"))
    s.score(rasp((1, 4, 5)))
    assert s.min_bid_level() == 0
    s.score(game(61, (5, 3, 2)))
    assert s.current_raspasy_price() == 2
    assert s.score(rasp((1, 4, 5))).gora == (2, 8, 10)
    assert s.min_bid_level() == 7
    s.score(game(90, (1, 4, 5), kind=DealKind.MISER))
    assert s.min_bid_level() == 7
    assert s.score(rasp((1, 4, 5))).gora == (3, 12, 15)
    assert s.min_bid_level() == 8
    s.score(game(81, (8, 2, 0)))
    assert s.min_bid_level() == 0
    assert s.score(rasp((1, 4, 5))).gora == (1, 4, 5)


def test_any_game_breaks_series_by_default() -> None:
    """Sochi default exit: any declared game — even a failed six — resets the price to 1."""
    s = scorer()
    s.score(rasp((1, 4, 5)))
    s.score(game(61, (5, 3, 2)))
    assert s.score(rasp((1, 4, 5))).gora == (1, 4, 5)


def test_leningrad_zero_premium_is_price() -> None:
    """Leningrad first raspasy price 2: tricks 0/3/7 → gora 0, 6, 14; zero-trick player pulya 2."""
    d = scorer(LENINGRAD).score(rasp((0, 3, 7)))
    assert d.gora == (0, 6, 14) and d.pulya == (2, 0, 0)


def test_zero_premium_one_option() -> None:
    """raspasy_zero_premium='one' with price 2 (second raspasy): zero-trick player still writes 1."""
    s = scorer(SOCHI.replace(raspasy_zero_premium="one"))
    s.score(rasp((1, 4, 5)))
    assert s.score(rasp((0, 4, 6))).pulya == (1, 0, 0)


def test_four_players_dealer_talon_tricks_to_gora() -> None:
    """docs/rules.md §A12/A14: 4 players, dealer 3; his talon card won 1 trick → 1 × price 1 in his gora;
    seat 0 with 0 tricks pulya 1; the dealer gets no zero-trick premium when he wins nothing."""
    s = scorer(n=4)
    d = s.score(rasp((0, 4, 5, 1), dealer=3))
    assert d.gora == (0, 4, 5, 1) and d.pulya == (1, 0, 0, 0)
    d2 = s.score(rasp((0, 5, 5, 0), dealer=3))
    assert d2.pulya == (2, 0, 0, 0)


def test_rostov_zero_three_seven() -> None:
    """docs/rules.md §B3: A 0, B 3, C 7 → A pulya 1; A writes 5×3 = 15 on B and 5×7 = 35 on C; no gora."""
    d = scorer(ROSTOV).score(rasp((0, 3, 7)))
    assert d.pulya == (1, 0, 0) and d.gora == (0, 0, 0)
    assert d.visty[0] == (0, 15, 35) and d.visty[1] == (0, 0, 0) and d.visty[2] == (0, 0, 0)


def test_rostov_tie_two_two_six() -> None:
    """docs/rules.md §B3: A 2, B 2, C 6 → C's 5×6 = 30 written in halves: A and B 15 each on C."""
    d = scorer(ROSTOV).score(rasp((2, 2, 6)))
    assert d.visty[0][2] == 15 and d.visty[1][2] == 15 and sum(map(sum, d.visty)) == 30


def test_rostov_odd_tie_is_exact_fraction() -> None:
    """4 players, talon opened, dealer 3 won 1 talon trick: tricks 1/1/7 → C's 35 split → 17½ each
    (a Fraction, never rounded); the dealer's talon trick is 1 gora at price 1."""
    d = scorer(ROSTOV.replace(raspasy_talon_mode="open"), n=4).score(rasp((1, 1, 7, 1), dealer=3))
    assert d.visty[0][2] == Fraction(35, 2) and d.visty[1][2] == Fraction(35, 2)
    assert d.gora == (0, 0, 0, 1)


def test_rostov_no_progression() -> None:
    """Rostov preset: no growth; the 2nd raspasy writes the same 5 per trick and premium 1."""
    s = scorer(ROSTOV)
    s.score(rasp((0, 3, 7)))
    d = s.score(rasp((0, 3, 7)))
    assert d.visty[0] == (0, 15, 35) and d.pulya == (1, 0, 0)
