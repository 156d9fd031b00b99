"""House rules for raspasy ("распасы", issue 10): amnesty of the common minimum, no zero-trick premium,
a price table, Rostov visty above the minimum, and the ways a raspasy series ends.

Every number is computed by hand in the test's docstring (docs/house-rules.md shows the same deals).
"""

from __future__ import annotations

import pytest

from preflog.model.calls import CALL_HALF
from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules import ROSTOV
from preflog.rules import SOCHI
from preflog.rules import Rules
from preflog.rules import RulesError
from preflog.rules import resolve
from preflog.scoring.russian import RussianScorer
from preflog.scoring.russian import raspasy_price


def rasp(tricks: tuple[int, ...], dealer: int = 2) -> DealOutcome:
    return DealOutcome(deal=1, dealer=dealer, n_players=len(tricks), kind=DealKind.RASPASY, tricks=tricks)


def whisted(contract: int, tricks: tuple[int, int, int]) -> DealOutcome:
    """A played game of seat 0 (A), B whists alone, C passes."""
    return DealOutcome(deal=1, dealer=2, n_players=3, kind=DealKind.GAME, declarer=0, contract=contract,
                       tricks=tricks, calls=(-1, CALL_WHIST, CALL_PASS), whist_order=(1,))


def not_whisted(contract: int) -> DealOutcome:
    """Seat 0's game that both defenders passed: made without play."""
    return DealOutcome(deal=1, dealer=2, n_players=3, kind=DealKind.NOT_WHISTED, declarer=0, contract=contract)


def miser(taken: int) -> DealOutcome:
    tricks = (taken, 10 - taken, 0)
    return DealOutcome(deal=1, dealer=2, n_players=3, kind=DealKind.MISER, declarer=0, contract=90, tricks=tricks)


def scorer(rules: Rules, n: int = 3) -> RussianScorer:
    return RussianScorer(rules, n, 50)


# ---------------------------------------------------------------- amnesty of the common minimum
def test_amnesty_writes_tricks_above_the_fewest() -> None:
    """sochi+raspasy-amnesty. 1st raspasy (price 1), tricks 2/3/5: fewest 2 is amnestied →
    gora (2−2)·1, (3−2)·1, (5−2)·1 = 0, 1, 3. 2nd raspasy (price 2), tricks 0/4/6: fewest 0, nothing
    amnestied → gora 0, 8, 12, and A's zero-trick premium is the price, 2, in his pulya.
    Without amnesty the first deal would be gora 2, 3, 5."""
    s = scorer(resolve("sochi+raspasy-amnesty"))
    d1 = s.score(rasp((2, 3, 5)))
    assert d1.gora == (0, 1, 3) and d1.pulya == (0, 0, 0)
    d2 = s.score(rasp((0, 4, 6)))
    assert d2.gora == (0, 8, 12) and d2.pulya == (2, 0, 0)
    assert scorer(SOCHI).score(rasp((2, 3, 5))).gora == (2, 3, 5)


def test_amnesty_players_at_four_keeps_the_dealers_talon_tricks_at_full_price() -> None:
    """4 players, dealer D (seat 3) won 2 talon tricks; A, B, C took 2/3/3, price 1.
    'players': the minimum is over A, B, C only (2) → gora 0, 1, 1; the dealer's 2 talon tricks are
    written whole, 2·1 = 2. 'with_dealer': the minimum is over all four (2) → gora 0, 1, 1, 0."""
    deal = rasp((2, 3, 3, 2), dealer=3)
    assert scorer(resolve("sochi+raspasy-amnesty"), 4).score(deal).gora == (0, 1, 1, 2)
    assert scorer(resolve("sochi+raspasy-amnesty-with-dealer"), 4).score(deal).gora == (0, 1, 1, 0)


def test_amnesty_with_dealer_gives_the_dealer_the_zero_trick_premium() -> None:
    """4 players, dealer D won no talon trick; A, B, C took 3/3/4, price 1. 'with_dealer': the fewest
    is D's 0, nothing is amnestied → gora 3, 3, 4, 0 and D writes the premium 1 in his pulya.
    'players': the fewest of A, B, C is 3 → gora 0, 0, 1, 0 and nobody has a premium."""
    deal = rasp((3, 3, 4, 0), dealer=3)
    d = scorer(resolve("sochi+raspasy-amnesty-with-dealer"), 4).score(deal)
    assert d.gora == (3, 3, 4, 0) and d.pulya == (0, 0, 0, 1)
    d = scorer(resolve("sochi+raspasy-amnesty"), 4).score(deal)
    assert d.gora == (0, 0, 1, 0) and d.pulya == (0, 0, 0, 0)


# ---------------------------------------------------------------- no zero-trick premium
def test_no_zero_trick_premium() -> None:
    """sochi+no-raspasy-premium, 1st raspasy tricks 0/4/6: gora 0, 4, 6 as usual, but A writes
    nothing in his pulya (Sochi would give him the price, 1)."""
    d = scorer(resolve("sochi+no-raspasy-premium")).score(rasp((0, 4, 6)))
    assert d.gora == (0, 4, 6) and d.pulya == (0, 0, 0)
    assert scorer(SOCHI).score(rasp((0, 4, 6))).pulya == (1, 0, 0)


# ---------------------------------------------------------------- price table
def test_price_table_last_price_repeats() -> None:
    """raspasy_prices 2|4|8 → 2, 4, 8, 8, 8 (the last repeats, like the cap of a progression);
    2|4|6 → 2, 4, 6, 6. The table replaces base, progression and cap: base 5 changes nothing."""
    r = resolve("sochi+raspasy-2-4-8")
    assert [raspasy_price(r, k) for k in range(1, 6)] == [2, 4, 8, 8, 8]
    assert [raspasy_price(resolve("sochi+raspasy-2-4-6"), k) for k in range(1, 5)] == [2, 4, 6, 6]
    assert [raspasy_price(r.replace(raspasy_base=5), k) for k in range(1, 4)] == [2, 4, 8]


def test_price_table_in_a_series() -> None:
    """sochi+raspasy-2-4-8: three raspasy in a row, tricks 1/4/5 each time → gora 2, 8, 10 at 2;
    4, 16, 20 at 4; 8, 32, 40 at 8. The table is written as `raspasy_prices=2|4|8` in a spec too."""
    s = scorer(resolve("sochi", {"raspasy_prices": "2|4|8"}))
    assert [s.score(rasp((1, 4, 5))).gora for _ in range(3)] == [(2, 8, 10), (4, 16, 20), (8, 32, 40)]


def test_price_table_refuses_a_price_below_one() -> None:
    with pytest.raises(RulesError, match="raspasy_prices"):
        resolve("sochi", {"raspasy_prices": "[2, 0]"})


# ---------------------------------------------------------------- Rostov visty above the minimum
def test_rostov_visty_above_min() -> None:
    """rostov+rostov-min-visty, k = 5, tricks 1/3/6: fewest 1 (A). A writes (3−1)·5 = 10 on B and
    (6−1)·5 = 25 on C; nobody has 0 tricks, no pulya, no gora. (Rostov's own rule would write 5·3 = 15
    and 5·6 = 30.)"""
    d = scorer(resolve("rostov+rostov-min-visty")).score(rasp((1, 3, 6)))
    assert d.visty[0] == (0, 10, 25) and d.visty[1] == (0, 0, 0) and d.visty[2] == (0, 0, 0)
    assert d.gora == (0, 0, 0) and d.pulya == (0, 0, 0)
    assert scorer(ROSTOV).score(rasp((1, 3, 6))).visty[0] == (0, 15, 30)


def test_rostov_visty_above_min_tie_is_not_split() -> None:
    """Tricks 2/2/6, k = 5: A and B both have the fewest (2); each writes (6−2)·5 = 20 on C, 40 in all
    (Rostov's own rule splits 5·6 = 30 into 15 + 15)."""
    d = scorer(resolve("rostov+rostov-min-visty")).score(rasp((2, 2, 6)))
    assert d.visty[0][2] == 20 and d.visty[1][2] == 20 and sum(map(sum, d.visty)) == 40


def test_rostov_house_combination() -> None:
    """rostov+rostov-house (visty above the minimum, no zero-trick premium, gora first), tricks
    0/3/7: A writes 3·5 = 15 on B and 7·5 = 35 on C and nothing in his pulya."""
    d = scorer(resolve("rostov+rostov-house")).score(rasp((0, 3, 7)))
    assert d.visty[0] == (0, 15, 35) and d.pulya == (0, 0, 0)


# ---------------------------------------------------------------- series exits
def test_made_and_played_exit_keeps_the_series_over_a_both_pass_game() -> None:
    """sochi+played-game-exit (price 1-2-3): raspasy at 1; A's 6♠ passed by both (made, not played):
    the series stays open, the next raspasy is at 2 (tricks 1/4/5 → 2, 8, 10); A's 6♠ whisted and
    made 6 tricks: the series ends, the next raspasy is at 1. Under made_game the both-pass six
    would already have ended it (next raspasy at 1)."""
    s = scorer(resolve("sochi+played-game-exit"))
    s.score(rasp((1, 4, 5)))
    s.score(not_whisted(61))
    assert s.score(rasp((1, 4, 5))).gora == (2, 8, 10)
    s.score(whisted(61, (6, 3, 1)))
    assert s.score(rasp((1, 4, 5))).gora == (1, 4, 5)
    m = scorer(resolve("sochi+made-game-exit"))
    m.score(rasp((1, 4, 5)))
    m.score(not_whisted(61))
    assert m.current_raspasy_price() == 1


def test_whisted_exit_at_level_seven_without_shortfall() -> None:
    """sochi+whisted-game-exit with raspasy_exit_level 7 (price 1-2-3):
    1. raspasy → next at 2;  2. A's 6♠ whisted and made: below level 7, the series stays (next at 2);
    3. raspasy at 2 → next at 3;  4. A's 8♠ passed by both (made, not whisted): stays (next at 3);
    5. A's 7♠ made with 9 tricks, B whisted alone and the side took 1 of the 2 it owes: a whist
    shortfall, the series stays (next at 3);  6. raspasy at 3 → next at 3 (the cap);
    7. A's 7♠ made with 7 tricks, the side took 3 ≥ 2: no shortfall, the series ends (next at 1)."""
    s = scorer(resolve("sochi+whisted-game-exit", {"raspasy_exit_level": 7}))
    s.score(rasp((1, 4, 5)))
    s.score(whisted(61, (6, 3, 1)))
    assert s.current_raspasy_price() == 2
    s.score(rasp((1, 4, 5)))
    s.score(not_whisted(81))
    assert s.current_raspasy_price() == 3
    s.score(whisted(71, (9, 1, 0)))
    assert s.current_raspasy_price() == 3
    s.score(rasp((1, 4, 5)))
    s.score(whisted(71, (7, 2, 1)))
    assert s.current_raspasy_price() == 1


def test_exit_level_with_any_game() -> None:
    """sochi with raspasy_exit_level 7: raspasy, then A's 6♠ (any game, but below 7): the next raspasy
    is at 2; then A's failed 7♠ (any game at 7 ends it): the next raspasy is at 1."""
    s = scorer(SOCHI.replace(raspasy_exit_level=7))
    s.score(rasp((1, 4, 5)))
    s.score(whisted(61, (6, 3, 1)))
    assert s.current_raspasy_price() == 2
    s.score(whisted(71, (5, 4, 1)))
    assert s.current_raspasy_price() == 1


def test_miser_does_not_end_the_series_when_told() -> None:
    """sochi+miser-keeps-raspasy: raspasy at 1, a made miser → the series stays, next raspasy at 2.
    Plain Sochi (any game ends it, misers included): next at 1."""
    s = scorer(resolve("sochi+miser-keeps-raspasy"))
    s.score(rasp((1, 4, 5)))
    s.score(miser(0))
    assert s.current_raspasy_price() == 2
    p = scorer(SOCHI)
    p.score(rasp((1, 4, 5)))
    p.score(miser(0))
    assert p.current_raspasy_price() == 1


def half_whist(contract: int) -> DealOutcome:
    """Seat 0's game: B passes, C says half-whist and it stands (made without play)."""
    return DealOutcome(deal=1, dealer=2, n_players=3, kind=DealKind.HALF_WHIST, declarer=0, contract=contract,
                       calls=(-1, CALL_PASS, CALL_HALF), half_whister=2)


def test_any_played_exit_ends_at_a_failed_game_not_at_a_both_pass_one() -> None:
    """sochi+any-played-exit (raspasy_exit=played_game; price 1-2-3, tricks 1/4/5 each raspasy):

    1. raspasy at 1 → gora 1, 4, 5;
    2. A's 6♠ passed by both (made, not played): the series stays, so
    3. the raspasy is at 2 → gora 2, 8, 10;
    4. A's 7♠ whisted by B and failed (A 6, B 3, C 1): played, so the series ends although the game
       failed, and
    5. the raspasy is at 1 again → gora 1, 4, 5.

    The neighbouring exits differ at deal 3 or 5 (the prices of deals 3 and 5 below): any_game ends the
    series at the both-pass six (deal 3 at 1) and at the failed seven (deal 5 at 1); made_game at the
    six (made) but not at the seven (deal 5 at 2); made_played_game at neither (deal 3 at 2, deal 5
    at 3)."""
    s = scorer(resolve("sochi+any-played-exit"))
    assert s.rules.raspasy_exit == "played_game"
    assert s.score(rasp((1, 4, 5))).gora == (1, 4, 5)
    s.score(not_whisted(61))
    assert s.score(rasp((1, 4, 5))).gora == (2, 8, 10)
    s.score(whisted(71, (6, 3, 1)))
    assert s.score(rasp((1, 4, 5))).gora == (1, 4, 5)

    def prices(spec: str) -> tuple[int, int]:
        other = scorer(resolve(spec))
        other.score(rasp((1, 4, 5)))
        other.score(not_whisted(61))
        third = other.current_raspasy_price()
        other.score(rasp((1, 4, 5)))
        other.score(whisted(71, (6, 3, 1)))
        return third, other.current_raspasy_price()

    assert prices("sochi+any-played-exit") == (2, 1)
    assert prices("sochi") == (1, 1)
    assert prices("sochi+made-game-exit") == (1, 2)
    assert prices("sochi+played-game-exit") == (2, 3)


def test_any_played_exit_miser_and_half_whist() -> None:
    """raspasy_exit=played_game: a failed miser (A takes 2) is played and ends the series (next at 1),
    unless raspasy_exit_miser is false (next at 2); a standing half-whist is not played and keeps it
    (next at 2), as a both-pass game does."""
    s = scorer(resolve("sochi+any-played-exit"))
    s.score(rasp((1, 4, 5)))
    s.score(miser(2))
    assert s.current_raspasy_price() == 1
    k = scorer(resolve("sochi+any-played-exit+miser-keeps-raspasy"))
    k.score(rasp((1, 4, 5)))
    k.score(miser(2))
    assert k.current_raspasy_price() == 2
    h = scorer(resolve("sochi+any-played-exit"))
    h.score(rasp((1, 4, 5)))
    h.score(half_whist(71))
    assert h.current_raspasy_price() == 2


def test_any_but_both_pass_exit_ends_at_a_standing_half_whist() -> None:
    """sochi+both-pass-keeps-raspasy (raspasy_exit=any_but_both_pass; price 1-2-3, tricks 1/4/5 each
    raspasy):

    1. raspasy at 1 → gora 1, 4, 5;
    2. A's 6♠ passed by both (made without play): the series stays, so
    3. the raspasy is at 2 → gora 2, 8, 10;
    4. A's 7♥, B passes, C's half-whist stands (no play; A pulya 4, C 1 × 4 = 4 visty): not a
       both-pass game, so the series ends, and
    5. the raspasy is at 1 again → gora 1, 4, 5.

    Under played_game (any-played-exit) deal 4 was not played: deal 5 would be at 3 → gora 3, 12, 15.
    A failed played game and a failed miser end it too (made or not)."""
    s = scorer(resolve("sochi+both-pass-keeps-raspasy"))
    assert s.rules.raspasy_exit == "any_but_both_pass"
    assert s.score(rasp((1, 4, 5))).gora == (1, 4, 5)
    s.score(not_whisted(61))
    assert s.score(rasp((1, 4, 5))).gora == (2, 8, 10)
    stood = s.score(half_whist(74))
    assert stood.pulya == (4, 0, 0) and stood.visty[2][0] == 4
    assert s.score(rasp((1, 4, 5))).gora == (1, 4, 5)

    p = scorer(resolve("sochi+any-played-exit"))
    for deal in (rasp((1, 4, 5)), not_whisted(61), rasp((1, 4, 5)), half_whist(74)):
        p.score(deal)
    assert p.score(rasp((1, 4, 5))).gora == (3, 12, 15)

    for failed in (whisted(71, (6, 3, 1)), miser(2)):
        f = scorer(resolve("sochi+both-pass-keeps-raspasy"))
        f.score(rasp((1, 4, 5)))
        f.score(failed)
        assert f.current_raspasy_price() == 1
    k = scorer(resolve("sochi+both-pass-keeps-raspasy+miser-keeps-raspasy"))
    k.score(rasp((1, 4, 5)))
    k.score(miser(0))
    assert k.current_raspasy_price() == 2
