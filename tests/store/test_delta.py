"""Delta-only behaviour: processes, crashes, tampering, compaction, time travel, upcasting."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from deltalake import write_deltalake

from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.store import DeltaStore
from preflog.store import EventStore
from preflog.store import StoreError
from preflog.store.schema import EVENTS_V0
from preflog.store.schema import TABLE_SCHEMA_VERSION
from preflog.store.schema import schema_json
from tests.synthetic import synthetic_pulka
from tests.synthetic import synthetic_pulkas

WORKER = str(Path(__file__).with_name("_worker.py"))
REPO = Path(__file__).resolve().parents[2]
GAME = synthetic_pulka(11, deals=4)


def _spawn(*args: object) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, WORKER, *map(str, args)], stdout=subprocess.PIPE, text=True, env=env)


def _line(proc: subprocess.Popen[str], timeout: float = 60) -> str:
    """The worker's next line, or a failure (not a hang) when it says nothing for ``timeout`` s."""
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    if not ready:
        proc.kill()
        pytest.fail(f"worker {proc.pid} said nothing for {timeout} s")
    return proc.stdout.readline().strip()


def _parquet_files(path: Path) -> set[str]:
    return {p.name for p in path.glob("*.parquet")}


@pytest.mark.slow
def test_two_writer_processes_race_one_conflicts(tmp_path: Path) -> None:
    """Both writers read last seq 3, then append 5 events each with expected 3 at the same moment:
    exactly one wins, the other gets a conflict naming expected 3 and actual 3 + 5 = 8."""
    table = tmp_path / "t"
    store = DeltaStore(table)
    store.append("p", GAME[:3], 0)
    go = tmp_path / "go"
    procs = [_spawn("race", table, "p", 5, go) for _ in range(2)]
    for p in procs:  # both have read the last seq
        assert _line(p) == "ready"
    go.touch()
    outs = sorted(p.communicate(timeout=60)[0].strip() for p in procs)
    assert outs == ["conflict 3 8", "ok"]
    rows = [r for b in store.read_rows(["p"]) for r in b]
    assert [r[1] for r in rows] == list(range(1, 9))
    assert len({r[5] for r in rows[3:]}) == 1  # all 5 from the single winner
    assert store.verify() == []


@pytest.mark.slow
def test_two_writer_processes_loop_nothing_lost_or_duplicated(tmp_path: Path) -> None:
    """Two processes append 25 events each, one at a time, retrying on conflict: 50 events, each
    (tag, i) exactly once, seq 1..50, chain clean."""
    table = tmp_path / "t"
    store = DeltaStore(table)
    procs = [_spawn("loop", table, "p", 25, tag) for tag in (1, 2)]
    for p in procs:
        p.communicate(timeout=120)
        assert p.returncode == 0
    events = store.read("p")
    assert sorted((e.player, e.bid) for e in events if isinstance(e, BidMade)) == sorted(
        (t, t * 1000 + i) for t in (1, 2) for i in range(25))
    assert store.last_seq("p") == 50
    assert store.verify() == []


@pytest.mark.slow
def test_sigkill_mid_append_leaves_nothing_or_everything(tmp_path: Path) -> None:
    """A writer killed as soon as its Parquet file shows up (mid-write, before the commit) of a
    400 k-event append: the batch is absent or whole; cleanup removes the orphan file, verify is
    clean, and the append can be rerun."""
    table = tmp_path / "t"
    n = 400_000
    DeltaStore(table)
    proc = _spawn("big", table, "p", n)
    assert _line(proc) == "ready"
    deadline = time.monotonic() + 30
    while not _parquet_files(table) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.001)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    store = DeltaStore(table)
    before = store.last_seq("p")
    assert before in (0, n)
    orphans = _parquet_files(table) - {Path(f).name for f in store.files()}
    removed = store.cleanup()
    assert {Path(f).name for f in removed} == orphans
    assert _parquet_files(table) == {Path(f).name for f in store.files()}
    assert store.verify() == []
    if before == 0:
        store.append("p", [CardPlayed(i % 3, i % 32) for i in range(n)], 0)
    assert store.last_seq("p") == n
    assert store.verify() == []


def _tamper(table: Path, store: DeltaStore, pulka: str, seq: int) -> None:
    for f in store.files():
        t = pq.read_table(f)
        hits = [i for i, (p, s) in enumerate(zip(t["pulka"].to_pylist(), t["seq"].to_pylist(), strict=True))
                if p == pulka and s == seq]
        if hits:
            values = t["value"].to_pylist()
            values[hits[0]] += 1
            t = t.set_column(t.schema.get_field_index("value"), t.schema.field("value"), pa.array(values, pa.int64()))
            pq.write_table(t, f)
            return
    raise AssertionError("row not found")


def test_tampered_value_is_found_with_pulka_and_seq(tmp_path: Path) -> None:
    """A bid value at seq 5 of pulka 'b' rewritten in the Parquet file: with checkpoints every 32
    seqs, verify names pulka 'b' and the window 1..32 holding seq 5; other pulkas stay clean."""
    store = DeltaStore(tmp_path / "t")
    store.append_many([(p, 0, ev) for p, ev in (("a", GAME), ("b", GAME), ("c", GAME))])
    assert store.verify() == []
    assert isinstance(GAME[4], BidMade)
    _tamper(tmp_path / "t", store, "b", 5)
    probs = store.verify()
    assert [(p.pulka, p.kind, p.first_seq, p.seq) for p in probs] == [("b", "hash", 1, 32)]


def test_tampered_value_exact_seq_with_hash_on_every_event(tmp_path: Path) -> None:
    store = DeltaStore(tmp_path / "t", hash_every=1)
    store.append("a", GAME, 0)
    _tamper(tmp_path / "t", store, "a", 17)
    assert [(p.pulka, p.kind, p.seq) for p in store.verify()] == [("a", "hash", 17)]


@pytest.mark.slow
def test_compaction_while_a_reader_loops(tmp_path: Path) -> None:
    """40 small appends (4 pulkas x 10), then compact + vacuum now while a thread reads all rows in
    a loop: every read sees each pulka as seq 1..n without gaps or duplicates, n = 10 x 5 = 50."""
    store = DeltaStore(tmp_path / "t")
    games = {p: ev[:50] for p, ev in synthetic_pulkas(150, deals=2)}
    assert len(games) == 2
    for k in range(10):
        store.append_many([(p, k * 5, ev[k * 5:(k + 1) * 5]) for p, ev in games.items()])
    assert len(store.files()) == 10
    bad: list[str] = []
    reads = 0
    stop = threading.Event()

    def reader() -> None:
        nonlocal reads
        r = DeltaStore(tmp_path / "t")
        while not stop.is_set():
            seen: dict[str, list[int]] = {}
            for b in r.read_rows(batch_size=7):
                for row in b:
                    seen.setdefault(row[0], []).append(row[1])
            if seen != {p: list(range(1, 51)) for p in games}:
                bad.append(repr(seen))
            reads += 1

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    try:
        time.sleep(0.3)
        metrics = store.compact(vacuum_retention_hours=0)
        time.sleep(0.3)
    finally:
        stop.set()
        th.join(timeout=30)
    assert not th.is_alive()
    assert metrics["numFilesRemoved"] == 10
    assert bad == [] and reads > 2
    assert len(store.files()) == 1 and _parquet_files(tmp_path / "t") == {Path(store.files()[0]).name}
    assert all(store.read(p) == ev for p, ev in games.items())


def test_live_file_list_not_glob_after_compaction(tmp_path: Path) -> None:
    """Before vacuum the directory holds old and compacted files (a glob would count 2x);
    the relation over files() counts each event once."""
    store = DeltaStore(tmp_path / "t")
    for k in range(3):
        store.append("p", GAME[k * 10:(k + 1) * 10], k * 10)
    store.compact(vacuum_retention_hours=None)
    assert len(_parquet_files(tmp_path / "t")) == 4
    con = duckdb.connect()
    assert store.duckdb_relation(con).count("*").fetchall()[0][0] == 30
    files = [str(f) for f in (tmp_path / "t").glob("*.parquet")]
    assert con.execute("SELECT count(*) FROM read_parquet(?)", [files]).fetchone() == (60,)


def test_sorted_compaction_keeps_content(tmp_path: Path) -> None:
    store = DeltaStore(tmp_path / "t")
    store.append("b", GAME[:7], 0)
    store.append("a", GAME[:3], 0)
    store.append("b", GAME[7:], 7)
    store.compact(sort=True, vacuum_retention_hours=0)
    assert len(store.files()) == 1
    t = pq.read_table(store.files()[0])
    keys = list(zip(t["pulka"].to_pylist(), t["seq"].to_pylist(), strict=True))
    assert keys == sorted(keys)
    assert store.read("b") == GAME and store.verify() == []


def test_time_travel(tmp_path: Path) -> None:
    """Version 0 is the empty table; each append is one version."""
    store = DeltaStore(tmp_path / "t")
    store.append("p", GAME[:5], 0)
    store.append("p", GAME[5:9], 5)
    assert store.version() == 2
    old = store.at_version(1)
    assert old.read("p") == GAME[:5] and old.last_seq("p") == 5
    assert store.at_version(0).pulkas() == []
    assert store.read("p") == GAME[:9]
    with pytest.raises(StoreError, match="read-only"):
        old.append("p", GAME[5:6], 5)
    with pytest.raises(StoreError):
        store.at_version(99)


def test_bulk_append_is_one_commit(tmp_path: Path) -> None:
    store = DeltaStore(tmp_path / "t")
    games = list(synthetic_pulkas(3000, deals=2))
    store.append_many([(p, 0, ev) for p, ev in games])
    assert store.version() == 1 and len(store.files()) == 1
    assert [i.pulka for i in store.pulkas()] == [p for p, _ in games]


def test_schema_files_match_code() -> None:
    for v in (0, 1):
        path = REPO / "schemas" / f"events.v{v}.json"
        assert json.loads(path.read_text()) == schema_json(v)
    assert TABLE_SCHEMA_VERSION == 1


def test_v0_table_is_upcast_on_read_and_migrates(tmp_path: Path) -> None:
    """A v0 table (no deal numbers, no hashes) reads as v1: the same events, deal numbers 1, 2, …
    on the deal starts, and the same content hash as v1; appends need migrate() first."""
    game = GAME[:30]
    rows = [e.to_row() for e in game]
    t = pa.table({"pulka": ["old"] * len(rows), "seq": list(range(1, len(rows) + 1)),
                  "code": [r[0] for r in rows], "player": [r[1] for r in rows], "card": [r[2] for r in rows],
                  "value": [r[3] for r in rows], "payload": [r[4] for r in rows]}, schema=EVENTS_V0)
    write_deltalake(tmp_path / "t", t)
    store = DeltaStore(tmp_path / "t")
    assert store.table_schema_version == 0
    assert store.read("old") == game
    assert store.verify() == []
    assert store.find_by_content(EventStore.content_hash(game)) == "old"
    deals = store.duckdb_relation(duckdb.connect()).filter("code = 2").project("deal").fetchall()
    assert [d[0] for d in deals] == list(range(1, sum(r[0] == 2 for r in rows) + 1))
    with pytest.raises(StoreError, match="migrate"):
        store.append("old", GAME[30:31], 30)
    store.migrate()
    assert store.append("old", GAME[30:], 30) == len(GAME)
    reopened = DeltaStore(tmp_path / "t")
    assert reopened.table_schema_version == 1 and reopened.read("old") == GAME and reopened.verify() == []


def test_a_store_sees_another_writers_commit_and_lists_its_log_only_then(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Two store objects on one table (two processes): each sees the other's commit at once (its expected
    seq, its rows), and reads the log again only when a commit came (one stat of the next commit's file
    tells: an entry at the table asks for the table several times)."""
    from deltalake import DeltaTable

    events = synthetic_pulka(7, 2)
    one, two = DeltaStore(tmp_path / "t"), DeltaStore(tmp_path / "t")
    one.append("p", events[:5], 0)
    assert two.last_seq("p") == 5
    two.append("p", events[5:9], 5)
    with pytest.raises(StoreError):
        one.append("p", events[9:12], 5)   # stale: the other's commit is seen under the writer lock
    assert one.append("p", events[9:12], 9) == 12
    assert two.read("p") == one.read("p") == events[:12]
    listed: list[int] = []
    real = DeltaTable.update_incremental

    def spy(self: DeltaTable) -> None:
        listed.append(self.version())
        real(self)

    monkeypatch.setattr(DeltaTable, "update_incremental", spy)
    for k in range(3):
        assert one.last_seq("p") == 12 and one.read("p") == events[:12]
        one.append(f"q{k}", events[:2], 0)   # this store's own commit: the write moved its table on already
    assert listed == []
    behind = two._dt.version()
    assert two.last_seq("q2") == 2 and listed == [behind]   # behind by three commits: read them, once
    assert two.version() == one.version() == behind + 3


def test_appended_since_names_the_pulkas_of_the_commits_after_a_version(tmp_path: Path) -> None:
    """What a reader that kept a pulka as of a version asks: the pulkas appended to since (their commits'
    heads records); None when a commit since records none (a compaction) or the version is not behind."""
    events = synthetic_pulka(8, 2)
    store = DeltaStore(tmp_path / "t")
    store.append("a", events[:3], 0)
    v = store.version()
    assert store.appended_since(v) == set()
    store.append("b", events[:3], 0)
    store.append_many([("a", 3, events[3:5]), ("c", 0, events[:1])])
    assert store.appended_since(v) == {"a", "b", "c"}
    assert store.appended_since(v + 1) == {"a", "c"}
    assert store.appended_since(v, most=1) is None
    assert store.appended_since(store.version() + 5) is None
    store.compact(vacuum_retention_hours=None)
    assert store.appended_since(v) is None
