"""The store contract, run against every backend."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from preflog.model.events import BidMade, CardPlayed, DealStarted, PulkaStarted
from preflog.store import ConcurrencyError, DeltaStore, EventStore, MemoryStore, PulkaInfo, StoreError
from preflog.store.synth import synthetic_pulka


@pytest.fixture(params=["memory", "delta"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    yield MemoryStore() if request.param == "memory" else DeltaStore(tmp_path / "events")


GAME = synthetic_pulka(7, deals=3)  # 1 + 3 deals + 1 events


def test_append_returns_last_seq_and_read_round_trips(store: EventStore) -> None:
    """Two appends of 10 and len-10 events: seqs continue, the events come back equal and in order."""
    assert store.append("g1", GAME[:10], 0) == 10
    assert store.append("g1", GAME[10:], 10) == len(GAME)
    assert store.read("g1") == GAME
    assert store.last_seq("g1") == len(GAME)
    assert store.last_seq("nope") == 0
    assert store.read("nope") == []


def test_read_rows_sorted_by_pulka_then_seq(store: EventStore) -> None:
    """Pulkas appended out of order (b, then a, then b again) come back sorted, seq 1..n each."""
    store.append("b", GAME[:5], 0)
    store.append("a", GAME[:3], 0)
    store.append("b", GAME[5:8], 5)
    rows = [r for batch in store.read_rows(batch_size=4) for r in batch]
    assert [(r[0], r[1]) for r in rows] == [("a", 1), ("a", 2), ("a", 3)] + [("b", s) for s in range(1, 9)]
    assert rows[0][2:] == GAME[0].to_row()
    assert rows[-1][2:] == GAME[7].to_row()
    only_a = [r for batch in store.read_rows(["a"]) for r in batch]
    assert [r[1] for r in only_a] == [1, 2, 3]


def test_stale_expected_seq_conflicts_and_writes_nothing(store: EventStore) -> None:
    store.append("g", GAME[:4], 0)
    with pytest.raises(ConcurrencyError) as err:
        store.append("g", GAME[4:6], 2)
    assert (err.value.pulka, err.value.expected, err.value.actual) == ("g", 2, 4)
    assert "'g'" in str(err.value) and "2" in str(err.value) and "4" in str(err.value)
    with pytest.raises(ConcurrencyError):
        store.append("g", GAME[4:6], 5)  # ahead of the store is stale too
    with pytest.raises(ConcurrencyError):
        store.append("new", GAME[:1], 1)
    assert store.read("g") == GAME[:4]


def test_append_many_is_all_or_nothing(store: EventStore) -> None:
    """One stale batch among three: none of them is written."""
    store.append("x", GAME[:2], 0)
    with pytest.raises(ConcurrencyError):
        store.append_many([("y", 0, GAME[:3]), ("x", 0, GAME[2:4]), ("z", 0, GAME[:1])])
    assert [i.pulka for i in store.pulkas()] == ["x"]
    assert store.last_seq("x") == 2


def test_append_many_many_pulkas_and_repeated_pulka(store: EventStore) -> None:
    """x gets 2 then 3 more in the same call (2 + 3 = 5); y gets 4."""
    assert store.append_many([("x", 0, GAME[:2]), ("y", 0, GAME[:4]), ("x", 2, GAME[2:5])]) == [2, 4, 5]
    assert store.read("x") == GAME[:5]
    assert store.read("y") == GAME[:4]
    assert store.verify() == []


def test_rows_and_events_are_interchangeable(store: EventStore) -> None:
    store.append("r", [e.to_row() for e in GAME[:6]], 0)
    assert store.read("r") == GAME[:6]


def test_bad_row_names_pulka_and_seq(store: EventStore) -> None:
    store.append("g", GAME[:3], 0)
    with pytest.raises(StoreError, match=r"pulka 'g' seq 5"):
        store.append("g", [GAME[3].to_row(), (99, 0, -1, 0, None)], 3)
    assert store.last_seq("g") == 3


def test_reimport_is_a_no_op(store: EventStore) -> None:
    """The same game under a new id is found by content; a different game is not."""
    assert store.import_pulka("first", GAME) == ("first", True)
    assert store.import_pulka("second", GAME) == ("first", False)
    assert [i.pulka for i in store.pulkas()] == ["first"]
    other = synthetic_pulka(8, deals=1)
    assert store.find_by_content(store.content_hash(other)) is None
    assert store.import_pulka("other", other) == ("other", True)


def test_pulka_listing_and_content_hash_across_appends(store: EventStore) -> None:
    """The head hash after appends of 1, 9 and the rest equals the content hash of the whole game."""
    store.append("g", GAME[:1], 0)
    store.append("g", GAME[1:10], 1)
    store.append("g", GAME[10:], 10)
    store.append("h", GAME[:2], 0)
    assert store.pulkas() == [
        PulkaInfo("g", len(GAME), len(GAME), EventStore.content_hash(GAME)),
        PulkaInfo("h", 2, 2, EventStore.content_hash(GAME[:2])),
    ]
    assert store.content_hash(GAME) != store.content_hash(GAME[:-1])


def test_verify_clean_after_mixed_appends(store: EventStore) -> None:
    evs = [PulkaStarted(players=("A", "B", "C")), DealStarted(dealer=0), BidMade(1, 61), CardPlayed(1, 5)]
    for i, e in enumerate(evs):
        store.append("v", [e], i)
    store.append_many([("w", 0, GAME), ("v", 4, GAME[1:3])])
    assert store.verify() == []
