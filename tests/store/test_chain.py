"""The hash chain check on stored rows: every kind of damage is named with pulka and seq."""

from __future__ import annotations

from preflog.model.events import CardPlayed
from preflog.store.chain import GENESIS
from preflog.store.chain import StoredRow
from preflog.store.chain import as_rows
from preflog.store.chain import check_pulka
from preflog.store.chain import seal
from tests.synthetic import synthetic_pulka

ROWS = as_rows("p", synthetic_pulka(3, deals=1), 1)  # pulka start + one deal + pulka end: 40 events


def _sealed(every: int = 1) -> list[StoredRow]:
    return seal(ROWS, 0, GENESIS, 0, every)


def _kinds(rows: list[StoredRow]) -> list[tuple[str, int]]:
    return [(p.kind, p.seq) for p in check_pulka("p", rows)]


def test_clean_chain() -> None:
    assert len(ROWS) == 40
    assert _kinds(_sealed()) == []
    assert _kinds(_sealed(16)) == []


def test_changed_event_is_named() -> None:
    rows = _sealed()
    s, d, c, pl, cd, v, pay, h = rows[19]  # seq 20
    rows[19] = (s, d, c, pl, (cd + 1) % 32 if c == CardPlayed.CODE else cd, v + 1, pay, h)
    assert _kinds(rows) == [("hash", 20)]


def test_removed_event_is_named() -> None:
    rows = _sealed()
    del rows[9]  # seq 10 gone: the gap shows at seq 11, the chain breaks there too
    assert _kinds(rows) == [("missing", 11), ("hash", 11)]


def test_renumbered_removal_is_caught_by_the_chain() -> None:
    """Seq 10 removed and later events renumbered down by one: only the chain can tell."""
    rows = _sealed()
    rows = rows[:9] + [(r[0] - 1, *r[1:]) for r in rows[10:]]
    assert ("hash", 10) in _kinds(rows)


def test_swapped_events_are_named() -> None:
    rows = _sealed()
    a, b = rows[29], rows[30]  # seq 30 and 31, two card plays: swap their contents, keep the seqs
    rows[29], rows[30] = (a[0], *b[1:7], a[7]), (b[0], *a[1:7], b[7])
    assert _kinds(rows) == [("hash", 30), ("hash", 31)]


def test_inserted_event_is_named() -> None:
    rows = _sealed()
    extra = (21, rows[19][1], CardPlayed.CODE, 0, 3, 0, None, 12345)
    rows = rows[:20] + [extra] + rows[20:]
    kinds = _kinds(rows)
    assert ("hash", 21) in kinds and ("duplicate", 21) in kinds


def test_checkpoint_window_and_unsealed_head() -> None:
    """With a hash every 16 seqs a change at seq 20 shows at checkpoint 32, window 17..32;
    a cut-off tail (last hash dropped) is reported as unsealed."""
    rows = _sealed(16)
    r = rows[19]
    rows[19] = (*r[:5], r[5] + 7, *r[6:])
    probs = list(check_pulka("p", rows))
    assert [(p.kind, p.first_seq, p.seq) for p in probs] == [("hash", 17, 32)]
    cut = _sealed(16)[:38]  # seq 38 is no checkpoint
    assert _kinds(cut) == [("unsealed", 38)]
