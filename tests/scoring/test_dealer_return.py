"""The 4-player dealer returning a half-whist (seed 001: «вернуть вист может также и четвертый игрок»)."""

from preflog.model.calls import CALL_HALF
from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules import SOCHI
from preflog.scoring.russian import RussianScorer


def test_dealer_return_whists_alone_for_the_side() -> None:
    """Sochi, 4 players, dealer D (seat 3) sits out. A (0) plays 6♠; B (1) passes, C (2) says half-whist,
    the dealer returns the whist and whists alone. A takes 5, B 3, C 2: down 1. V = 2.

    - A: gora 2 × 1 = 2.
    - D: the side's tricks 2 × (3 + 2) = 10, consolation 2 × 1 = 2 as dealer, and the half-whister's
      consolation 2 (it goes to the returner, seed 003): 14 on A.
    - B (passer): consolation 2 on A.   C (half-whister): nothing.
    - Side took 5 ≥ obligation 4: no whist penalty.
    """
    sc = RussianScorer(SOCHI, 4, 20)
    o = DealOutcome(deal=1, dealer=3, n_players=4, kind=DealKind.GAME, declarer=0, contract=61, tricks=(5, 3, 2, 0),
                    calls=(-1, CALL_PASS, CALL_HALF, CALL_WHIST), whist_order=(3,), half_whister=2, returner=3)
    d = sc.score(o)
    assert d.gora == (2, 0, 0, 0)
    assert d.pulya == (0, 0, 0, 0)
    assert [row[0] for row in d.visty] == [0, 2, 0, 14]


def test_dealer_return_short_side_pays_as_lone_whister() -> None:
    """Same table, A makes 6♠ with 7 tricks; B 2, C 1 → side 3 < 4: the returning dealer, a lone
    whister answering for the side, writes 2 × 3 = 6 visty and 1 missing trick × 2 = 2 gora.
    A: pulya +2. B and C write nothing (no undertrick, no consolation)."""
    sc = RussianScorer(SOCHI, 4, 20)
    o = DealOutcome(deal=1, dealer=3, n_players=4, kind=DealKind.GAME, declarer=0, contract=61, tricks=(7, 2, 1, 0),
                    calls=(-1, CALL_PASS, CALL_HALF, CALL_WHIST), whist_order=(3,), half_whister=2, returner=3)
    d = sc.score(o)
    assert d.pulya == (2, 0, 0, 0)
    assert d.gora == (0, 0, 0, 2)
    assert [row[0] for row in d.visty] == [0, 0, 0, 6]
