"""House rules of issue 10 besides raspasy: a checked ten without visty, Rostov "mountain first" (gora
first), and the end of a pulka on the sum of the pulyas. Numbers computed by hand in each docstring."""

from __future__ import annotations

from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules import SOCHI
from preflog.rules import Rules
from preflog.rules import resolve
from preflog.scoring.russian import RussianScorer


def checked_ten(tricks: tuple[int, ...], dealer: int = 2) -> DealOutcome:
    """Seat 0 (A) declared 10♠ and the deal was checked (Sochi "проверка")."""
    return DealOutcome(deal=1, dealer=dealer, n_players=len(tricks), kind=DealKind.GAME, declarer=0, contract=101,
                       tricks=tricks, checked=True)


def whisted(contract: int, tricks: tuple[int, int, int], declarer: int = 0) -> DealOutcome:
    """A played game: the first defender after the declarer whists alone, the other passes."""
    calls = [CALL_PASS] * 3
    calls[declarer] = -1
    calls[(declarer + 1) % 3] = CALL_WHIST
    return DealOutcome(deal=1, dealer=2, n_players=3, kind=DealKind.GAME, declarer=declarer, contract=contract,
                       tricks=tricks, calls=tuple(calls), whist_order=((declarer + 1) % 3,))


def not_whisted(contract: int, declarer: int = 0) -> DealOutcome:
    return DealOutcome(deal=1, dealer=2, n_players=3, kind=DealKind.NOT_WHISTED, declarer=declarer,
                       contract=contract)


def miser(taken: int, declarer: int = 0) -> DealOutcome:
    tricks = [0, 0, 0]
    tricks[declarer] = taken
    tricks[(declarer + 1) % 3] = 10 - taken
    return DealOutcome(deal=1, dealer=2, n_players=3, kind=DealKind.MISER, declarer=declarer, contract=90,
                       tricks=tuple(tricks))


def rasp(tricks: tuple[int, int, int]) -> DealOutcome:
    return DealOutcome(deal=1, dealer=2, n_players=3, kind=DealKind.RASPASY, tricks=tricks)


def scorer(rules: Rules, n: int = 3, pool: int = 50) -> RussianScorer:
    return RussianScorer(rules, n, pool)


# ---------------------------------------------------------------- ten: a checked ten writes no visty
def test_checked_ten_without_visty_down_one() -> None:
    """10♠ checked, A takes 9 (down 1), B 1, C 0; V = 10. Sochi (seed 003): A gora 10 × 1 = 10; B
    writes 10 × 1 + consolation 10 = 20 on A, C consolation 10. sochi+ten-check-no-visty: A gora 10,
    nobody writes visty."""
    d = scorer(SOCHI).score(checked_ten((9, 1, 0)))
    assert d.gora == (10, 0, 0) and d.visty[1][0] == 20 and d.visty[2][0] == 10
    d = scorer(resolve("sochi+ten-check-no-visty")).score(checked_ten((9, 1, 0)))
    assert d.gora == (10, 0, 0) and d.pulya == (0, 0, 0) and sum(map(sum, d.visty)) == 0


def test_checked_ten_without_visty_made_and_at_four() -> None:
    """Made ten (10/0/0): pulya 10 either way. At four (dealer D, seat 3), A down 2 (8 tricks, B 2):
    A gora 10 × 2 = 20; Sochi: B writes 2 × 10 + 20 = 40, C 20 and the dealer his consolation 20;
    with ten_check_visty false nobody writes, the dealer neither."""
    assert scorer(resolve("sochi+ten-check-no-visty")).score(checked_ten((10, 0, 0))).pulya == (10, 0, 0)
    deal = checked_ten((8, 2, 0, 0), dealer=3)
    d = scorer(SOCHI, 4).score(deal)
    assert d.gora == (20, 0, 0, 0) and [d.visty[s][0] for s in (1, 2, 3)] == [40, 20, 20]
    d = scorer(resolve("sochi+ten-check-no-visty"), 4).score(deal)
    assert d.gora == (20, 0, 0, 0) and sum(map(sum, d.visty)) == 0


def test_ten_check_no_visty_turns_the_check_on() -> None:
    """The named override also sets ten_mode=checked, so it works on top of a whisted-ten preset."""
    r = resolve("leningrad+ten-check-no-visty")
    assert (r.ten_mode, r.ten_check_visty) == ("checked", False)


# ---------------------------------------------------------------- Rostov "mountain first"
def test_gora_first_writes_off_own_gora_before_the_pulya() -> None:
    """sochi+mountain-first. 1. A's 6♠ down 3 (3 tricks; B whists alone, side 7): A gora 2 × 3 = 6.
    2. A's 7♠ passed by both (made, unplayed, V = 4): 4 off A's gora → 2, pulya 0.
    3. A's miser made (10): 2 off the gora → 0, the other 8 to his pulya.
    4. A's 6♠ made (V = 2), gora 0: all 2 to the pulya → 10.
    Plain Sochi: gora stays 6, pulya 4 + 10 + 2 = 16."""
    s = scorer(resolve("sochi+mountain-first"))
    s.score(whisted(61, (3, 5, 2)))
    assert s.sheet.gora[0] == 6
    d = s.score(not_whisted(71))
    assert d.gora[0] == -4 and d.pulya[0] == 0
    d = s.score(miser(0))
    assert d.gora[0] == -2 and d.pulya[0] == 8
    s.score(whisted(61, (6, 3, 1)))
    assert (s.sheet.gora[0], s.sheet.pulya[0]) == (0, 10)
    p = scorer(SOCHI)
    for o in (whisted(61, (3, 5, 2)), not_whisted(71), miser(0), whisted(61, (6, 3, 1))):
        p.score(o)
    assert (p.sheet.gora[0], p.sheet.pulya[0]) == (6, 16)


def test_gora_first_leaves_raspasy_premium_and_failures_alone() -> None:
    """The zero-trick raspasy premium is no contract: A with gora 6 takes no raspasy trick (price 1)
    → pulya 1, gora still 6. A failed game still adds to the gora."""
    s = scorer(resolve("sochi+mountain-first"))
    s.score(whisted(61, (3, 5, 2)))
    d = s.score(rasp((0, 4, 6)))
    assert d.pulya[0] == 1 and d.gora[0] == 0 and s.sheet.gora[0] == 6


# ---------------------------------------------------------------- end of pulka on the sum of the pulyas
def test_total_end_waits_for_the_sum_and_the_series() -> None:
    """sochi+total-pool-end, pool 4, three players: ends when pulyas sum to ≥ 3 × 4 = 12 and no raspasy
    series is open; pulyas are unbounded (no help).
    1. A's 8♠ passed by both: A 6 (Sochi would help: A 4, B 2 and A writes 20 visty on B) — sum 6.
    2. B's 6♠ passed: 6, 2, 0 — sum 8.  3. raspasy at 1, A no trick: premium 1 → 7, 2, 0 — sum 9.
    4. raspasy at 2, B no trick: 7, 4, 0 — sum 11.  5. raspasy at 3, A no trick: 10, 4, 0 — sum 14 ≥ 12,
    but the series is open: not over.  6. C's 6♠ passed: 10, 4, 2 — sum 16 and the series ended: over.
    Under every_pulya the pulka would not be over (C has 2 < 4)."""
    s = scorer(resolve("sochi+total-pool-end"), pool=4)
    d = s.score(not_whisted(81))
    assert d.pulya == (6, 0, 0) and sum(map(sum, d.visty)) == 0
    s.score(not_whisted(61, declarer=1))
    s.score(rasp((0, 4, 6)))
    s.score(rasp((5, 0, 5)))
    s.score(rasp((0, 5, 5)))
    assert s.sheet.pulya == [10, 4, 0] and not s.is_finished()
    s.score(not_whisted(61, declarer=2))
    assert s.sheet.pulya == [10, 4, 2] and s.is_finished()
    every = scorer(SOCHI.replace(american_help=False), pool=4)
    every.sheet.pulya = [10, 4, 2]
    assert not every.is_finished()


def test_every_pulya_end_is_the_default() -> None:
    """Sochi, pool 4: A's 8♠ passed by both writes A 4 and helps B with 2 (left of A, equal pulyas), 20
    visty on B: pulyas 4, 2, 0, not over."""
    s = scorer(SOCHI, pool=4)
    d = s.score(not_whisted(81))
    assert d.pulya == (4, 2, 0) and d.visty[0][1] == 20 and not s.is_finished()
