"""A small fixed dataset of hand-built pulkas for the statistics tests.

Pulka ``p1`` — Sochi, 2024-03-01, seats Ann (0), Bob (1), Cid (2); settled:

* D1 dealer Ann. Ann 7♥; Bob (her left) passes, Cid whists, open; tricks 6/2/2 → down 1.
  docs/rules.md §B1: Ann gora +4, Cid writes 16 + 4 = 20 on Ann, Bob consolation 4.
  Values: Ann −24 + 10·(4/3 − 4) = −152/3, Bob 4 + 40/3 = 52/3, Cid 20 + 40/3 = 100/3.
* D2 dealer Bob. Ann 6♠, both whist (Bob first), tricks 7/3/0 → made. Ann pulya +2, Bob writes 6,
  Cid short 1 of the side's 4 → gora +2 (B1.6 second deal). Values: Ann −6 + 20/3 = 2/3,
  Bob 6 + 20/3 = 38/3, Cid 10·(2/3 − 2) = −40/3.
* D3 dealer Cid. Raspasy, tricks 2/3/5, price 1 → gora 2/3/5. Values (mean 10/3): 40/3, 10/3, −50/3.
* D4 dealer Ann. Bob miser, 0 tricks (Ann 5, Cid 5) → made, pulya +10. Values 0.
* D5 dealer Bob. Cid 6♦, both pass → not whisted, made, pulya +2. Values 0.
Settlement = the sums of the values (pools taken as closed): Ann −110/3, Bob 100/3, Cid 10/3;
method 1 −37/33/4; money at ½ per whist: −55/3, 50/3, 5/3.

Pulka ``p2`` — Leningrad, 2024-04-10, seats Ann (0), Bob (1), Dan (2); not settled:

* D1 dealer Ann. Ann 7♥, Bob passes, Dan whists, tricks 6/2/2 → down 1. docs/rules.md §B2: gora +8,
  48 visty split 24/24 (gentleman). Values: Ann −48 + 10·(8/3 − 8) = −304/3, Bob 24 + 80/3 = 152/3,
  Dan 152/3.
* D2 dealer Bob. Raspasy, tricks 4/1/5, price 2 → gora 8/2/10. Values (mean 20/3): −40/3, 140/3, −100/3.
* D3 dealer Dan. Dan 8♠, Ann whists first, Bob second; tricks 1/0/9 → made. Dan pulya +6, Ann writes
  12 on Dan. Values: Ann +12, Bob 0, Dan −12.
Results (value sums): Ann −308/3, Bob 292/3, Dan 16/3.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.projections.facts import PulkaFacts
from preflog.scoring.sheet import DealScore
from preflog.scoring.sheet import Settlement

F = Fraction
N = -1  # no call


def score(pulya=(0, 0, 0), gora=(0, 0, 0), visty=((0, 0, 0), (0, 0, 0), (0, 0, 0)), note="") -> DealScore:
    return DealScore(tuple(pulya), tuple(gora), tuple(tuple(r) for r in visty), note)


def make_p1() -> PulkaFacts:
    deals = (
        (DealOutcome(1, 0, 3, DealKind.GAME, declarer=0, contract=74, tricks=(6, 2, 2),
                     calls=(N, CALL_PASS, CALL_WHIST), whist_order=(2,), open_play=True),
         score(gora=(4, 0, 0), visty=((0, 0, 0), (4, 0, 0), (20, 0, 0)))),
        (DealOutcome(2, 1, 3, DealKind.GAME, declarer=0, contract=61, tricks=(7, 3, 0),
                     calls=(N, CALL_WHIST, CALL_WHIST), whist_order=(1, 2)),
         score(pulya=(2, 0, 0), gora=(0, 0, 2), visty=((0, 0, 0), (6, 0, 0), (0, 0, 0)))),
        (DealOutcome(3, 2, 3, DealKind.RASPASY, tricks=(2, 3, 5)), score(gora=(2, 3, 5))),
        (DealOutcome(4, 0, 3, DealKind.MISER, declarer=1, contract=90, tricks=(5, 0, 5)), score(pulya=(0, 10, 0))),
        (DealOutcome(5, 1, 3, DealKind.NOT_WHISTED, declarer=2, contract=63, tricks=(),
                     calls=(CALL_PASS, CALL_PASS, N)),
         score(pulya=(0, 0, 2))),
    )
    st = Settlement(exact=(F(-110, 3), F(100, 3), F(10, 3)), method1=(-37, 33, 4), method2=(-37, 33, 4),
                    money=(F(-55, 3), F(50, 3), F(5, 3)))
    return PulkaFacts("p1", "sochi", "sochi", ("Ann", "Bob", "Cid"), "2024-03-01", 3, deals, st, pool=20)


def make_p2() -> PulkaFacts:
    deals = (
        (DealOutcome(1, 0, 3, DealKind.GAME, declarer=0, contract=74, tricks=(6, 2, 2),
                     calls=(N, CALL_PASS, CALL_WHIST), whist_order=(2,)),
         score(gora=(8, 0, 0), visty=((0, 0, 0), (24, 0, 0), (24, 0, 0)))),
        (DealOutcome(2, 1, 3, DealKind.RASPASY, tricks=(4, 1, 5)), score(gora=(8, 2, 10))),
        (DealOutcome(3, 2, 3, DealKind.GAME, declarer=2, contract=81, tricks=(1, 0, 9),
                     calls=(CALL_WHIST, CALL_WHIST, N), whist_order=(0, 1)),
         score(pulya=(0, 0, 6), visty=((0, 0, 12), (0, 0, 0), (0, 0, 0)))),
    )
    return PulkaFacts("p2", "leningrad", "leningrad", ("Ann", "Bob", "Dan"), "2024-04-10", 3, deals, None, pool=20)


@pytest.fixture
def p1() -> PulkaFacts:
    return make_p1()


@pytest.fixture
def p2() -> PulkaFacts:
    return make_p2()


@pytest.fixture
def store(tmp_path, p1, p2):
    """A store directory with both pulkas projected."""
    from preflog.projections.store import rebuild

    rebuild(tmp_path, [p1, p2])
    return tmp_path


@pytest.fixture
def con(store):
    from preflog.reports.db import connect

    c = connect(store)
    yield c
    c.close()
