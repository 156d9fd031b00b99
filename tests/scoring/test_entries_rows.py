"""The Russian scorer's per-deal entries mark the visty rows a deal writes: unwritten rows freeze to the
shared row of zeros (which :meth:`Sheet.add` skips), written rows are cleared before the next deal."""

from __future__ import annotations

from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules import SOCHI
from preflog.scoring.russian import RussianScorer
from preflog.scoring.sheet import ZERO_ROWS

W = CALL_WHIST


def six_spades(declarer: int, tricks: tuple[int, int, int]) -> DealOutcome:
    """6♠ (code 61, V 2 in Sochi) by ``declarer``, both defenders whist."""
    calls = tuple(-1 if s == declarer else W for s in range(3))
    return DealOutcome(1, 2, 3, DealKind.GAME, declarer, 61, tricks, calls)


def test_rows_written_by_one_deal_are_clear_for_the_next() -> None:
    """Deal 1: seat 0 makes 6♠ with (6, 3, 1): seat 1 writes 2 × 3 = 6 and seat 2 writes 2 × 1 = 2 on seat 0;
    seat 0's own row stays unwritten. Deal 2: seat 1 makes 6♠ with (3, 6, 1): seat 0 writes 6 and seat 2
    writes 2 on seat 1, and seat 1's row, written in deal 1, is zero again. The sheet holds both: visty[1][0]
    6, visty[2][0] 2, visty[0][1] 6, visty[2][1] 2 (4 in row 2)."""
    s = RussianScorer(SOCHI, 3, 50)
    d1 = s.score(six_spades(0, (6, 3, 1)))
    assert d1.visty == ((0, 0, 0), (6, 0, 0), (2, 0, 0))
    assert d1.visty[0] is ZERO_ROWS[3]   # not written: the shared row
    d2 = s.score(six_spades(1, (3, 6, 1)))
    assert d2.visty == ((0, 6, 0), (0, 0, 0), (0, 2, 0))
    assert d2.visty[1] is ZERO_ROWS[3]
    assert d2 == RussianScorer(SOCHI, 3, 50).score(six_spades(1, (3, 6, 1)))
    assert s.sheet.visty == [[0, 6, 0], [6, 0, 0], [2, 2, 0]]
    assert s.sheet.pulya == [2, 2, 0]
