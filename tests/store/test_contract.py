"""The store contract: one abstract suite, run against every backend (a new backend subclasses
:class:`EventStoreContract` and says how to make an empty store)."""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from collections.abc import Sequence
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from preflog.engine.replay import audit_columns
from preflog.engine.replay import audit_rows
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import DealStarted
from preflog.model.events import Event
from preflog.model.events import PulkaStarted
from preflog.store import ConcurrencyError
from preflog.store import DeltaStore
from preflog.store import EventRow
from preflog.store import EventStore
from preflog.store import MemoryStore
from preflog.store import PulkaInfo
from preflog.store import StoredRow
from preflog.store import StoreError
from preflog.store.chain import GENESIS
from preflog.store.chain import seal
from preflog.store.schema import EVENTS_V1
from tests.synthetic import synthetic_pulka

GAME = synthetic_pulka(7, deals=3)  # 1 + 3 deals + 1 events


def _sealed(store: EventStore, events: Sequence[Event]) -> list[StoredRow]:
    """A whole pulka's rows sealed as the importer seals them for ``append_sealed``."""
    return seal([e.to_row() for e in events], 0, GENESIS, 0, store.hash_every)


class EventStoreContract(ABC):
    """What every :class:`EventStore` backend does; ``store`` is an empty store of the backend."""

    @abstractmethod
    def make_store(self, tmp_path: Path) -> EventStore: ...

    @pytest.fixture
    def store(self, tmp_path: Path) -> EventStore:
        return self.make_store(tmp_path)

    def test_append_returns_last_seq_and_read_round_trips(self, store: EventStore) -> None:
        """Two appends of 10 and len-10 events: seqs continue, the events come back equal and in order."""
        assert store.append("g1", GAME[:10], 0) == 10
        assert store.append("g1", GAME[10:], 10) == len(GAME)
        assert store.read("g1") == GAME
        assert store.last_seq("g1") == len(GAME)
        assert store.last_seq("nope") == 0
        assert store.read("nope") == []


    def test_read_rows_sorted_by_pulka_then_seq(self, store: EventStore) -> None:
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


    def test_stale_expected_seq_conflicts_and_writes_nothing(self, store: EventStore) -> None:
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


    def test_append_many_is_all_or_nothing(self, store: EventStore) -> None:
        """One stale batch among three: none of them is written."""
        store.append("x", GAME[:2], 0)
        with pytest.raises(ConcurrencyError):
            store.append_many([("y", 0, GAME[:3]), ("x", 0, GAME[2:4]), ("z", 0, GAME[:1])])
        assert [i.pulka for i in store.pulkas()] == ["x"]
        assert store.last_seq("x") == 2


    def test_append_many_many_pulkas_and_repeated_pulka(self, store: EventStore) -> None:
        """x gets 2 then 3 more in the same call (2 + 3 = 5); y gets 4."""
        assert store.append_many([("x", 0, GAME[:2]), ("y", 0, GAME[:4]), ("x", 2, GAME[2:5])]) == [2, 4, 5]
        assert store.read("x") == GAME[:5]
        assert store.read("y") == GAME[:4]
        assert store.verify() == []


    def test_rows_and_events_are_interchangeable(self, store: EventStore) -> None:
        store.append("r", [e.to_row() for e in GAME[:6]], 0)
        assert store.read("r") == GAME[:6]


    def test_bad_row_names_pulka_and_seq(self, store: EventStore) -> None:
        store.append("g", GAME[:3], 0)
        with pytest.raises(StoreError, match=r"pulka 'g' seq 5"):
            store.append("g", [GAME[3].to_row(), (99, 0, -1, 0, None)], 3)
        assert store.last_seq("g") == 3


    def test_reimport_is_a_no_op(self, store: EventStore) -> None:
        """The same game under a new id is found by content; a different game is not."""
        assert store.import_pulka("first", GAME) == ("first", True)
        assert store.import_pulka("second", GAME) == ("first", False)
        assert [i.pulka for i in store.pulkas()] == ["first"]
        other = synthetic_pulka(8, deals=1)
        assert store.find_by_content(store.content_hash(other)) is None
        assert store.import_pulka("other", other) == ("other", True)


    def test_pulka_listing_and_content_hash_across_appends(self, store: EventStore) -> None:
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


    def test_verify_clean_after_mixed_appends(self, store: EventStore) -> None:
        evs = [PulkaStarted(players=("A", "B", "C")), DealStarted(dealer=0), BidMade(1, 61), CardPlayed(1, 5)]
        for i, e in enumerate(evs):
            store.append("v", [e], i)
        store.append_many([("w", 0, GAME), ("v", 4, GAME[1:3])])
        assert store.verify() == []

    # --- bulk paths the workspace and the benchmarks use -------------------------------------
    def test_append_sealed_stores_new_pulkas_as_append_would(self, store: EventStore) -> None:
        """Two pulkas sealed with the store's hash_every (given out of order) read back equal, list
        the content hash as their head, verify clean, and continue with an ordinary append."""
        other = synthetic_pulka(8, deals=1)
        store.append_sealed([("b", _sealed(store, other)), ("a", _sealed(store, GAME[:-1]))])
        assert store.read("a") == GAME[:-1] and store.read("b") == other
        assert store.pulkas() == [
            PulkaInfo("a", len(GAME) - 1, len(GAME) - 1, EventStore.content_hash(GAME[:-1])),
            PulkaInfo("b", len(other), len(other), EventStore.content_hash(other)),
        ]
        assert store.verify() == []
        assert store.append("a", GAME[-1:], len(GAME) - 1) == len(GAME)
        assert store.find_by_content(EventStore.content_hash(GAME)) == "a"
        assert store.verify() == []

    def test_append_sealed_is_all_or_nothing_for_new_pulkas_only(self, store: EventStore) -> None:
        """A pulka already stored (3 events), or named twice in one call, conflicts and nothing of the
        call is written; rows not running from seq 1 are refused; a pulka with no rows is skipped."""
        store.append("old", GAME[:3], 0)
        with pytest.raises(ConcurrencyError) as err:
            store.append_sealed([("new", _sealed(store, GAME)), ("old", _sealed(store, GAME))])
        assert (err.value.pulka, err.value.expected, err.value.actual) == ("old", 0, 3)
        with pytest.raises(ConcurrencyError):
            store.append_sealed([("twice", _sealed(store, GAME[:2])), ("twice", _sealed(store, GAME[:2]))])
        with pytest.raises(StoreError, match="seq 1..n"):
            store.append_sealed([("cut", _sealed(store, GAME)[1:])])
        with pytest.raises(StoreError, match="pulka id"):
            store.append_sealed([("", _sealed(store, GAME))])
        assert [i.pulka for i in store.pulkas()] == ["old"]
        store.append_sealed([("empty", []), ("new", _sealed(store, GAME[:4]))])
        assert [i.pulka for i in store.pulkas()] == ["new", "old"]
        assert store.verify() == []

    def test_import_sealed_decides_duplicates_and_ids_at_commit(self, store: EventStore) -> None:
        """Stored: "g" = GAME. import_sealed of [GAME as "x", other as "g", other again as "y", third as
        "z"]: x is a duplicate of g (same content), other gets g's id with its content hash's low 24 bits
        ("g-<6 hex>"), y is a duplicate of that within the call, z is stored as asked; one commit, verify
        clean, every content once."""
        from preflog.store.base import Stored

        store.append("g", GAME, 0)
        other, third = synthetic_pulka(8, deals=1), synthetic_pulka(9, deals=2)
        h = EventStore.content_hash(other)
        got = store.import_sealed([("x", _sealed(store, GAME)), ("g", _sealed(store, other)),
                                   ("y", _sealed(store, other)), ("z", _sealed(store, third))])
        renamed = f"g-{h & 0xFFFFFF:06x}"
        assert got == [Stored("g", False), Stored(renamed, True), Stored(renamed, False), Stored("z", True)]
        assert [i.pulka for i in store.pulkas()] == sorted(["g", renamed, "z"])
        assert store.read(renamed) == other and store.read("z") == third
        assert store.verify() == []

    def test_append_many_refuses_an_empty_pulka_id(self, store: EventStore) -> None:
        with pytest.raises(StoreError, match="pulka id"):
            store.append_many([("x", 0, GAME[:2]), ("", 0, GAME[:2])])
        assert store.pulkas() == []

    def test_shards_partition_the_pulkas(self, store: EventStore) -> None:
        """12 pulkas read as 3 shards: each pulka lands whole in exactly one shard, in (pulka, seq)
        order, and the shards together are the unsharded read; a bad shard is refused."""
        store.append_many([(f"p{i:02d}", 0, GAME[:i + 1]) for i in range(12)])
        everything = [r for b in store.read_rows() for r in b]
        shards = [[r for b in store.read_rows(shard=(k, 3), batch_size=5) for r in b] for k in range(3)]
        assert sorted(r for s in shards for r in s) == everything
        for part in shards:
            assert part == sorted(part, key=lambda r: (r[0], r[1]))
        owners = {r[0]: k for k, part in enumerate(shards) for r in part}
        assert len(set(owners.values())) >= 2  # the work spreads: the same ids every run, so no flake
        assert all(sum(1 for r in shards[owners[p]] if r[0] == p) == int(p[1:]) + 1 for p in owners)
        k = owners["p03"]
        assert [r for b in store.read_rows(["p03", "p07"], shard=(k, 3)) for r in b] == [
            r for r in everything if r[0] in ("p03", "p07") and owners[r[0]] == k]
        for bad in ((3, 3), (-1, 2), (0, 0)):
            with pytest.raises(StoreError, match="shard"):
                list(store.read_rows(shard=bad))

    def test_pulka_rows_group_the_engine_rows(self, store: EventStore) -> None:
        """pulka_rows() gives each pulka once, in id order, with its rows ``(code, player, card, value,
        payload)`` in seq order — the read_rows rows without pulka and seq — whole in its shard."""
        store.append_many([(f"p{i:02d}", 0, GAME[:i + 1]) for i in range(12)])
        everything = [r for b in store.read_rows() for r in b]
        grouped = list(store.pulka_rows())
        assert [p for p, _ in grouped] == [f"p{i:02d}" for i in range(12)]
        assert [(p, *row) for p, rows in grouped for row in rows] == [(r[0], *r[2:]) for r in everything]
        assert grouped[3][1] == [ev.to_row() for ev in GAME[:4]]
        assert list(store.pulka_rows(batch_size=5)) == grouped   # pulkas cut across read batches
        shards = [dict(store.pulka_rows(shard=(k, 3))) for k in range(3)]
        assert sum(len(s) for s in shards) == 12 and {p for s in shards for p in s} == dict(grouped).keys()
        assert all(rows == dict(grouped)[p] for s in shards for p, rows in s.items())
        assert dict(store.pulka_rows(["p05", "p01"])) == {"p01": dict(grouped)["p01"], "p05": dict(grouped)["p05"]}

    def test_pulka_columns_are_the_pulka_rows_as_columns(self, store: EventStore) -> None:
        """pulka_columns() gives the same pulkas in the same order as pulka_rows(), each pulka's rows as
        five columns (a pulka cut by a batch boundary joined up; shards and id lists alike), and the
        audit of the columns is the audit of the rows."""
        store.append_many([(f"p{i:02d}", 0, GAME[:i + 1]) for i in range(12)])
        grouped = list(store.pulka_rows())
        for kw in ({}, {"batch_size": 5}, {"batch_size": 1}):
            cols = list(store.pulka_columns(**kw))
            assert [p for p, _ in cols] == [p for p, _ in grouped]
            assert [c.rows() for _, c in cols] == [rows for _, rows in grouped]
            assert all(len(c) == len(rows) for (_, c), (_, rows) in zip(cols, grouped, strict=True))
        shards = [dict(store.pulka_columns(shard=(k, 3))) for k in range(3)]
        assert {p: c.rows() for s in shards for p, c in s.items()} == dict(grouped)
        assert {p: c.rows() for p, c in store.pulka_columns(["p05", "p01"])} == {
            "p01": dict(grouped)["p01"], "p05": dict(grouped)["p05"]}
        p11 = dict(store.pulka_columns())["p11"]
        assert p11.code[0] == GAME[0].CODE and p11.row(1) == GAME[1].to_row()
        a, b = audit_columns(p11), audit_rows(dict(grouped)["p11"])
        assert (a.codes(), a.sheet, a.settlement, a.events) == (b.codes(), b.sheet, b.settlement, b.events)

    def test_rows_are_named_at_the_edge(self, store: EventStore) -> None:
        """rows() hands out the read_rows tuples one by one as EventRow, equal as tuples."""
        store.append("b", GAME[:4], 0)
        store.append("a", GAME[:2], 0)
        named = list(store.rows())
        assert named == [r for b in store.read_rows() for r in b]
        assert all(type(r) is EventRow for r in named)
        assert [(r.pulka, r.seq) for r in named] == [("a", 1), ("a", 2)] + [("b", s) for s in range(1, 5)]
        assert (named[2].code, named[2].player, named[2].card, named[2].value, named[2].payload) == GAME[0].to_row()
        assert [r.seq for r in store.rows(["b"])] == [1, 2, 3, 4]

    def test_duckdb_relation_holds_every_stored_row(self, store: EventStore) -> None:
        """The relation has the table schema's columns and one row per event with its deal number;
        the last event of each pulka carries the head hash."""
        store.append("g", GAME[:10], 0)
        store.append("g", GAME[10:], 10)
        store.append("h", GAME[:2], 0)
        rel = store.duckdb_relation(duckdb.connect())
        assert rel.columns == EVENTS_V1.names
        rows = rel.order("pulka, seq").fetchall()
        assert [(r[0], r[1]) for r in rows] == [("g", s) for s in range(1, len(GAME) + 1)] + [("h", 1), ("h", 2)]
        assert [r[3:8] for r in rows[:len(GAME)]] == [e.to_row() for e in GAME]
        deals = [r[2] for r in rows[:len(GAME)]]
        assert deals == [sum(isinstance(e, DealStarted) for e in GAME[:i + 1]) for i in range(len(GAME))]
        assert rows[len(GAME) - 1][8] == EventStore.content_hash(GAME)

    def test_files_hold_every_event_once(self, store: EventStore) -> None:
        """The file list names only existing Parquet files that hold each stored event exactly once
        (none for a store that keeps its events in memory)."""
        store.append("g", GAME[:10], 0)
        store.append("g", GAME[10:], 10)
        files = [f.removeprefix("file://") for f in store.files()]
        assert all(Path(f).is_file() for f in files)
        if not files:
            assert isinstance(store, MemoryStore)
            return
        t = pq.read_table(files)
        assert sorted(zip(t["pulka"].to_pylist(), t["seq"].to_pylist(), strict=True)) == [
            ("g", s) for s in range(1, len(GAME) + 1)]

    def test_compact_keeps_every_event(self, store: EventStore) -> None:
        for k in range(4):
            store.append("g", GAME[k * 5:(k + 1) * 5], k * 5)
        assert isinstance(store.compact(), dict)
        assert store.read("g") == GAME[:20] and store.last_seq("g") == 20 and store.verify() == []

    def test_hash_every_sets_the_checkpoints(self, store: EventStore) -> None:
        """Every hash_every-th seq and the last event of an append carry a chain hash, nothing else."""
        store.append("g", GAME, 0)
        hashed = [r[0] for r in store.duckdb_relation(duckdb.connect()).filter("hash IS NOT NULL")
                  .order("seq").project("seq").fetchall()]
        assert store.hash_every >= 1
        assert hashed == [s for s in range(1, len(GAME) + 1) if s % store.hash_every == 0 or s == len(GAME)]


class TestMemoryStore(EventStoreContract):
    def make_store(self, tmp_path: Path) -> EventStore:
        return MemoryStore()


class TestMemoryStoreCheckpoints(EventStoreContract):
    """The memory store with the Delta store's sparse checkpoints."""

    def make_store(self, tmp_path: Path) -> EventStore:
        return MemoryStore(hash_every=32)


class TestDeltaStore(EventStoreContract):
    def make_store(self, tmp_path: Path) -> EventStore:
        return DeltaStore(tmp_path / "events")
