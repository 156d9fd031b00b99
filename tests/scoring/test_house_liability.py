"""House-rule options of the Russian scorer: American help, whist liability, half-whist credit,
settlement divisors (issue 10). Every golden number is computed by hand in the test's docstring.

Seats: 0 = A, 1 = B, 2 = C; dealer 2 at three players unless said otherwise. ``V`` = game value
(6: 2, 7: 4, 8: 6, 9: 8, 10: 10).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules import CROATIAN
from preflog.rules import LENINGRAD
from preflog.rules import SOCHI
from preflog.rules import Rules
from preflog.rules import RulesError
from preflog.scoring.russian import RussianScorer

W, P = CALL_WHIST, CALL_PASS


def game(contract: int, tricks: tuple[int, ...], calls: dict[int, int] | None = None, *, declarer: int = 0,
         dealer: int = 2, whist_order: tuple[int, ...] = (), kind: str = DealKind.GAME, **kw: object) -> DealOutcome:
    n = len(tricks) if tricks else 3
    c = tuple(-1 if s == declarer or (n == 4 and s == dealer) else (calls or {}).get(s, P) for s in range(n))
    if not whist_order:
        whist_order = tuple(s for s in ((declarer + k) % n for k in range(1, n)) if c[s] == W)
    return DealOutcome(deal=1, dealer=dealer, n_players=n, kind=kind, declarer=declarer, contract=contract,
                       tricks=tricks, calls=c, whist_order=whist_order, **kw)  # type: ignore[arg-type]


def scorer(rules: Rules = SOCHI, n: int = 3, pool: int = 50, pulya: list[int] | None = None,
           gora: list[int] | None = None) -> RussianScorer:
    s = RussianScorer(rules, n, pool)
    if pulya is not None:
        s.sheet.pulya = list(pulya)
    if gora is not None:
        s.sheet.gora = list(gora)
    return s


# ---------------------------------------------------------------- American help
def test_help_overflow_own_gora_may_go_negative() -> None:
    """help_overflow=own_gora. Pool 20, every pulya closed (20, 20, 20), goras A 3, B 0, C 5.
    A makes an 8 (V = 6): nobody can take a point, so all 6 come off A's gora: 3 − 6 = −3;
    B and C write nothing (today's rule would take 3 off A and put 3 on B and on C)."""
    s = scorer(SOCHI.replace(help_overflow="own_gora"), pool=20, pulya=[20, 20, 20], gora=[3, 0, 5])
    d = s.score(game(81, (8, 1, 1), {1: W, 2: W}))
    assert d.gora == (-6, 0, 0) and d.pulya == (0, 0, 0)
    assert s.sheet.gora == [-3, 0, 5]


def test_help_overflow_own_gora_to_zero_drops_the_rest() -> None:
    """help_overflow=own_gora_to_zero. Same deal: 3 of the 6 points take A's gora to 0, the other 3
    are dropped: goras 0, 0, 5."""
    s = scorer(SOCHI.replace(help_overflow="own_gora_to_zero"), pool=20, pulya=[20, 20, 20], gora=[3, 0, 5])
    d = s.score(game(81, (8, 1, 1), {1: W, 2: W}))
    assert d.gora == (-3, 0, 0) and s.sheet.gora == [0, 0, 5]
    assert "help 3 dropped" in d.note


def test_help_overflow_default_is_todays_rule() -> None:
    """The default (opponents_gora) is RULES.md B1.4 step 4: 3 off A's gora, 6 − 3 = 3 onto B and C."""
    assert Rules().help_overflow == "opponents_gora"
    s = scorer(pool=20, pulya=[20, 20, 20], gora=[3, 0, 5])
    assert s.score(game(81, (8, 1, 1), {1: W, 2: W})).gora == (-3, 3, 3)


@pytest.mark.parametrize(("tie", "helped"), [("clockwise", 2), ("lowest_seat", 0)])
def test_help_tie_between_equal_pulyas(tie: str, helped: int) -> None:
    """Pool 20: A 16, B 20 (closed), C 16. B declares a 6 (V = 2) and makes it; his pulya is closed,
    A and C are equally large. Clockwise from B the first is C (seat 2): C +2, B writes 2 × 10 = 20
    visty on C. By lowest seat it is A (seat 0): A +2, 20 visty on A."""
    s = scorer(SOCHI.replace(help_tie=tie), pool=20, pulya=[16, 20, 16])
    d = s.score(game(61, (2, 6, 2), {0: W, 2: W}, declarer=1, dealer=0))
    assert d.pulya[helped] == 2 and d.visty[1][helped] == 20
    assert sum(d.pulya) == 2 and sum(d.visty[1]) == 20


def test_help_point_price_separate_from_settlement_price() -> None:
    """Leningrad (pool_point_visty 20) with help_point_visty=5. RULES.md B1.4's example, pool 20:
    A 18, B 20, C 12; A declares an 8 (V = 6), both defenders pass (no play, no trick visty):
    A +2 → 20, C +4 → 16; A writes 4 × 5 = 20 visty on C (80 at the settlement price).
    Sheet: pulya 20/20/16, no gora, visty A→C 20.
    Settlement still prices the unequal pulya at 20: mean pulya 56/3, exact
    A = +20 + 20·(20 − 56/3) = 20 + 80/3 = 140/3; B = 0 + 80/3; C = −20 + 20·(16 − 56/3) = −20 − 160/3 = −220/3."""
    rules = LENINGRAD.replace(help_point_visty=5)
    s = scorer(rules, pool=20, pulya=[18, 20, 12])
    unplayed = game(81, (), kind=DealKind.NOT_WHISTED)
    d = s.score(unplayed)
    assert d.pulya == (2, 0, 4) and d.visty[0][2] == 20
    assert s.settlement().exact == (Fraction(140, 3), Fraction(80, 3), Fraction(-220, 3))
    assert scorer(LENINGRAD, pool=20, pulya=[18, 20, 12]).score(unplayed).visty[0][2] == 80


def test_help_options_are_typed_and_russian() -> None:
    """A float help price, an unknown tie word and a help option on Croatian rules are refused."""
    with pytest.raises(RulesError, match="help_point_visty"):
        SOCHI.replace(help_point_visty=7.5)
    with pytest.raises(RulesError, match="help_tie"):
        SOCHI.replace(help_tie="random")
    with pytest.raises(RulesError, match="russian family only"):
        CROATIAN.replace(help_overflow="own_gora")
    assert SOCHI.replace(help_point_visty="none").help_point_visty is None
