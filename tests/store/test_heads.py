"""The compact head index answers what a dict of heads answers: an id's head, whether an id is taken,
which pulka holds a content hash (the smallest id when several do), every pulka sorted by id; before
and after its recent changes are merged, loaded from Arrow columns or built up, and when the keys of
different ids collide."""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.store import heads as heads_mod
from preflog.store.heads import HeadIndex
from preflog.store.heads import SortedHashes

IDS = st.text(alphabet="abcé-1", min_size=1, max_size=6)
HASHES = st.sampled_from([0, 1, -1, 7, (1 << 63) - 1, -(1 << 63), 123456789])
HEADS = st.tuples(st.integers(1, 500), st.one_of(st.none(), HASHES), st.integers(0, 40))


def _check(index: HeadIndex, model: dict[str, tuple[int, int | None, int]], probes: list[str]) -> None:
    for pid in [*model, *probes]:
        assert index.get(pid) == model.get(pid)
        assert (pid in index) == (pid in model)
    for h in {h for _s, h, _d in model.values() if h is not None} | {42}:
        holders = sorted(p for p, (_s, hh, _d) in model.items() if hh == h)
        assert index.holder(h) == (holders[0] if holders else None)
    assert len(index) == len(model)


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.dictionaries(IDS, HEADS, max_size=8), max_size=8), probes=st.lists(IDS, max_size=5),
       collide=st.booleans())
def test_the_index_answers_as_a_dict(steps: list[dict[str, tuple[int, int | None, int]]], probes: list[str],
                                     collide: bool) -> None:
    """Random batches of updates (new ids, ids appended to, heads shared by several ids, none), merged
    after every step or left recent; with ``collide`` every id has one of two keys."""
    saved = heads_mod._key, heads_mod.MERGE_MIN
    try:
        if collide:
            heads_mod._key = lambda pid: len(pid) % 2  # type: ignore[assignment]
        heads_mod.MERGE_MIN = 3
        index, model = HeadIndex(), {}
        for k, step in enumerate(steps):
            index.update(step)
            model.update(step)
            _check(index, model, probes)
            if k % 2:
                index.merge()
                _check(index, model, probes)
        assert list(index.items()) == sorted(model.items())
        hashes = index.content_hashes()
        for h in [0, 1, -1, 7, 42, (1 << 63) - 1, -(1 << 63), 123456789, 1 << 64]:
            assert (h in hashes) == any(hh == h for _s, hh, _d in model.values())
    finally:
        heads_mod._key, heads_mod.MERGE_MIN = saved


def test_loaded_from_arrow_columns() -> None:
    """What DuckDB hands the Delta store on its first read of a table: ids (non-ASCII ones too), last
    seqs, heads with nulls, deals; chunked."""
    ids = pa.chunked_array([["b", "ä-1"], ["a", "c"]])
    seqs = pa.chunked_array([[3, 4], [5, 6]], pa.int64())
    heads = pa.chunked_array([[10, None], [-10, 10]], pa.int64())
    deals = pa.chunked_array([[1, 0], [2, 3]], pa.int64())
    index = HeadIndex()
    index.load(ids, seqs, heads, deals)
    assert index.get("ä-1") == (4, None, 0) and index.get("a") == (5, -10, 2) and index.get("z") is None
    assert index.holder(10) == "b" and index.holder(-10) == "a" and index.holder(0) is None
    index.update({"a": (9, 11, 4), "d": (1, 10, 0)})
    assert index.holder(-10) is None and index.holder(11) == "a" and index.holder(10) == "b"
    assert [p for p, _h in index.items()] == ["a", "b", "c", "d", "ä-1"]
    index.load(pa.array(["e"]), pa.array([1]), pa.array([5]), pa.array([0]))  # not empty: an update
    assert index.get("e") == (1, 5, 0) and len(index) == 6


def test_a_few_dozen_bytes_a_pulka() -> None:
    """10 000 pulkas with ids of 17 characters: the arrays and the ids' bytes take ≤ 53 + 17 bytes a
    pulka (row: id offset 8, seq 8, deal 4, head 8, flag 1; sorted keys 8 + rows 4; sorted heads 8 +
    rows 4 = 53)."""
    index = HeadIndex.of((f"club-game-{i:07d}", (30, i * 7919, 10)) for i in range(10_000))
    assert index.nbytes() <= 10_000 * (53 + 17) + 64
    assert index.get("club-game-0004711") == (30, 4711 * 7919, 10)


def test_sorted_hashes_refuse_what_is_not_a_64_bit_int() -> None:
    s = SortedHashes([3, 1, 3])
    assert len(s) == 2 and 1 in s and 3 in s and 2 not in s and "1" not in s and (1 << 70) not in s


@pytest.mark.parametrize("n", [0, 1])
def test_an_empty_or_tiny_index(n: int) -> None:
    index = HeadIndex.of((f"p{i}", (1, None, 0)) for i in range(n))
    assert len(index) == n and index.holder(0) is None and list(index.items()) == [(f"p{i}", (1, None, 0))
                                                                                  for i in range(n)]
