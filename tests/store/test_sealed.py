"""Sealed rows as Arrow columns (the import workers' form): the same chain, rows and table as the tuples."""

from __future__ import annotations

import contextlib
import os
import random
import struct
from hashlib import blake2b
from pathlib import Path

import pytest

from preflog.model.events import Row
from preflog.store import DeltaStore
from preflog.store import StoreError
from preflog.store import sealed
from preflog.store.chain import DEAL_CODE
from preflog.store.chain import GENESIS
from preflog.store.chain import seal
from preflog.store.sealed import SEALED_SCHEMA
from preflog.store.sealed import SealedRows
from preflog.store.sealed import new_columns
from preflog.store.sealed import seal_into
from preflog.store.sealed import seal_part
from preflog.store.sealed import sealed_batch
from tests.synthetic import synthetic_pulka


def _rows(seed: int, deals: int) -> list[Row]:
    return [e.to_row() for e in synthetic_pulka(seed, deals=deals)]


@pytest.mark.parametrize("hash_every", [1, 4, 32])
def test_seal_into_equals_seal(hash_every: int) -> None:
    """Two pulkas sealed into one column set: each slice equals ``seal`` of that pulka from the genesis
    (seq, deal numbers, the chain value on every ``hash_every``-th seq and on the last row), and the
    returned head is the last row's chain value."""
    a, b = _rows(1, 3), _rows(2, 2)
    cols = new_columns()
    ha = seal_into(cols, a, hash_every)
    hb = seal_into(cols, b, hash_every)
    batch = sealed_batch(cols)
    sa, sb = seal(a, 0, GENESIS, 0, hash_every), seal(b, 0, GENESIS, 0, hash_every)
    assert (ha, hb) == (sa[-1][7], sb[-1][7])
    got_a = SealedRows(batch.slice(0, len(a)), ha)
    got_b = SealedRows(batch.slice(len(a), len(b)), hb)
    assert got_a.tuples() == sa and list(got_b) == sb
    assert len(got_b) == len(b) and got_b[-1] == sb[-1] and got_b[0] == sb[0] and got_b[1:3] == sb[1:3]
    with pytest.raises(IndexError):
        got_b[len(b)]


def test_delta_import_of_columns_equals_tuples(tmp_path: Path) -> None:
    """``import_sealed`` of Arrow slices and of the same rows as tuples store identical tables (rows,
    order, heads), and a slice that does not start at seq 1 is refused as the tuples are."""
    pulkas = {"b": _rows(3, 2), "a": _rows(4, 3), "c": _rows(5, 1)}
    cols = new_columns()
    spans: list[tuple[str, int, int]] = []
    for pid, rows in pulkas.items():
        start = len(cols[0])
        spans.append((pid, start, seal_into(cols, rows, 32)))
    batch = sealed_batch(cols)
    arrow = [(pid, SealedRows(batch.slice(start, len(pulkas[pid])), head)) for pid, start, head in spans]
    one, two = DeltaStore(tmp_path / "one"), DeltaStore(tmp_path / "two")
    one.import_sealed(arrow)
    two.import_sealed([(pid, seal(rows, 0, GENESIS, 0, 32)) for pid, rows in pulkas.items()])
    read = [r for b in one.read_rows() for r in b]
    assert read == [r for b in two.read_rows() for r in b] and len(read) == sum(map(len, pulkas.values()))
    assert one.pulkas() == two.pulkas()
    assert one.verify() == [] and two.verify() == []
    bad = SealedRows(batch.slice(1, 5), 0)
    with pytest.raises(StoreError, match="seq 1..n"):
        DeltaStore(tmp_path / "three").append_sealed([("x", bad)])


def test_seal_into_continues_a_pulka() -> None:
    """Rows appended after seq 7 of a pulka (its chain value and deal number there) seal as ``seal`` seals
    them: seqs from 8, deal numbers and chain continued, the last row carrying its hash."""
    rows = _rows(6, 3)
    head = seal(rows[:7], 0, GENESIS, 0, 4)
    cols = new_columns()
    h = seal_into(cols, rows[7:], 4, 7, head[-1][7] or 0, head[-1][1])
    want = seal(rows[7:], 7, head[-1][7] or 0, head[-1][1], 4)
    assert SealedRows(sealed_batch(cols), h).tuples() == want and h == want[-1][7]
    assert want[0][0] == 8 and h == seal(rows, 0, GENESIS, 0, 4)[-1][7]


def test_own_commit_is_not_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After an append the store knows its heads without reading its new file again: the next head
    lookup reads no file (``_refresh_heads`` queries only unseen files), and gives what a fresh store
    reading every file gives."""
    import duckdb

    store = DeltaStore(tmp_path / "ev")
    store.append_many([("a", 0, _rows(7, 2)), ("b", 0, _rows(8, 1))])
    store.import_sealed([("c", seal(_rows(9, 1), 0, GENESIS, 0, store.hash_every))])
    queries: list[str] = []
    real = duckdb.connect

    def spy(*a: object, **k: object) -> duckdb.DuckDBPyConnection:
        con = real(*a, **k)  # type: ignore[arg-type]
        return _Spy(con, queries)  # type: ignore[return-value]

    monkeypatch.setattr(duckdb, "connect", spy)
    got = store.pulkas()
    assert not any("read_parquet" in q for q in queries)
    monkeypatch.setattr(duckdb, "connect", real)
    assert got == DeltaStore(tmp_path / "ev").pulkas() and [i.pulka for i in got] == ["a", "b", "c"]


class _Spy:
    def __init__(self, con: object, queries: list[str]) -> None:
        self.con, self.queries = con, queries

    def execute(self, q: str, *a: object) -> object:
        self.queries.append(q)
        return self.con.execute(q, *a)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self.con, name)


Five = tuple[list[int], list[int], list[int], list[int], list[str | None]]


def _columns(pulkas: list[list[Row]]) -> tuple[Five, list[int]]:
    cols: Five = ([], [], [], [], [])
    ends: list[int] = []
    for rows in pulkas:
        for code, player, card, value, payload in rows:
            cols[0].append(code)
            cols[1].append(player)
            cols[2].append(card)
            cols[3].append(value)
            cols[4].append(payload)
        ends.append(len(cols[0]))
    return cols, ends


def _odd_rows(rnd: random.Random, n: int) -> list[Row]:
    """Rows of every shape the chain hashes: int8 extremes, int64 extremes, no payload, an empty one,
    non-ASCII text, payloads across BLAKE2b's 128-byte block boundary (the link's head is 24 bytes)."""
    payloads: list[str | None] = [None, None, "", "é", "x" * 103, "x" * 104, "x" * 105, "ж" * 150, "y" * 400]
    return [(rnd.choice([DEAL_CODE, 3, 10, 15]), rnd.choice([-128, 0, 2, 127]), rnd.choice([-128, -1, 31, 127]),
             rnd.choice([0, -1, 2**63 - 1, -(2**63), rnd.randrange(-(2**40), 2**40)]), rnd.choice(payloads))
            for _ in range(n)]


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("hash_every", [1, 5, 32])
def test_seal_part_equals_seal(compiled: bool, hash_every: int) -> None:
    """``seal_part`` (the compiled chain, and its pure path) seals a part of several pulkas — real ones
    and rows of odd shapes, an empty pulka among them — to exactly ``chain.seal``'s rows per pulka, from
    the genesis and continuing stored pulkas from given (seq, hash, deal) starts; the heads are each
    pulka's last chain value (the start hash for an empty pulka)."""
    if compiled and sealed.BUILT is None:
        pytest.skip("the compiled chain is not built")
    rnd = random.Random(hash_every)
    pulkas = [_rows(7, 3), _odd_rows(rnd, 70), [], _rows(8, 1), _odd_rows(rnd, 33)]
    cols, ends = _columns(pulkas)
    starts = [(rnd.randrange(0, 500), rnd.randrange(-(2**63), 2**63), rnd.randrange(0, 20)) for _ in pulkas]
    with sealed.pure() if not compiled else contextlib.nullcontext():
        for first in (None, starts):
            batch, heads = seal_part(*cols, ends, hash_every, first)
            assert batch.schema == SEALED_SCHEMA and batch.num_rows == ends[-1]
            got = list(zip(*(c.to_pylist() for c in batch.columns), strict=True))
            at = 0
            for k, rows in enumerate(pulkas):
                seq, h, deal = first[k] if first else (0, GENESIS, 0)
                want = seal(rows, seq, h, deal, hash_every)
                assert got[at:at + len(rows)] == want, k
                assert heads[k] == (want[-1][7] if want else h)
                at += len(rows)


def test_the_compiled_chain_hashes_as_blake2b() -> None:
    """The compiled BLAKE2b (8-byte digest) equals hashlib's for every length over three blocks."""
    if sealed.BUILT is None:
        pytest.skip("the compiled chain is not built")
    rnd = random.Random(5)
    for n in range(0, 400):
        data = bytes(rnd.randrange(256) for _ in range(n))
        assert sealed.BUILT.digest(data) == int.from_bytes(blake2b(data, digest_size=8).digest(), "little",
                                                              signed=True), n


@pytest.mark.parametrize("compiled", [True, False])
def test_seal_part_refuses_what_the_column_cannot_hold(compiled: bool) -> None:
    """A code, player or card outside int8 or a value outside int64 is refused (the reference's
    ``struct.pack`` refuses them too), and so is a payload that is not text; the ends must cover the rows."""
    if compiled and sealed.BUILT is None:
        pytest.skip("the compiled chain is not built")
    good: Row = (DEAL_CODE, 0, 3, 5, None)
    with sealed.pure() if not compiled else contextlib.nullcontext():
        for bad in [(DEAL_CODE, 128, 3, 5, None), (DEAL_CODE, 0, -129, 5, None), (DEAL_CODE, 0, 3, 2**63, None)]:
            cols, ends = _columns([[good, bad]])
            with pytest.raises((OverflowError, struct.error)):
                seal_part(*cols, ends, 32)
        cols, ends = _columns([[good, (DEAL_CODE, 0, 3, 5, b"bytes")]])  # type: ignore[list-item]
        with pytest.raises((TypeError, AttributeError)):
            seal_part(*cols, ends, 32)
        cols, _ = _columns([[good, good]])
        with pytest.raises(ValueError):
            seal_part(*cols, [1], 32)


def test_the_compiled_chain_is_built_when_required() -> None:
    """CI builds the package with a compiler and sets ``PREFLOG_REQUIRE_NATIVE=1``: then the compiled
    chain must be the one that seals."""
    if os.environ.get("PREFLOG_REQUIRE_NATIVE", "") not in ("", "0"):
        assert sealed.BUILT is not None and sealed.CHAIN is sealed.BUILT
    with sealed.pure():
        assert sealed.CHAIN is None
