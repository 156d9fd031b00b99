"""The compiled column reader of the store's bulk read (preflog/store/_read.c) against its reference,
NumPy's ``tolist``: the same lists for every integer type, slice and extreme value, the same errors for
bounds out of range, and the same pulkas read back from a store either way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog._native import pure_requested
from preflog.model.events import CardPlayed
from preflog.model.events import DealStarted
from preflog.model.events import PulkaStarted
from preflog.store import delta_read
from preflog.store.delta import DeltaStore

# (built by every install with a compiler, CI's included: tests/test_packaging.py checks the wheel has it)
pytestmark = pytest.mark.skipif(delta_read.BUILT is None, reason="the column reader is not built here")

DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_extremes_of_every_integer_type(dtype: type[np.integer]) -> None:
    info = np.iinfo(dtype)
    col = np.array([info.min, info.min + 1, -1 if info.min < 0 else 1, 0, 1, 255 % (info.max + 1), 256 % (info.max + 1),
                    info.max - 1, info.max], dtype=dtype)
    got = delta_read.BUILT.int_list(col, 0, len(col))  # type: ignore[union-attr]
    assert got == col.tolist()
    assert all(type(x) is int for x in got)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_slice_is_the_tolist_of_the_slice(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(DTYPES))
    info = np.iinfo(dtype)
    values = data.draw(st.lists(st.integers(int(info.min), int(info.max)), max_size=40))
    col = np.array(values, dtype=dtype)
    start = data.draw(st.integers(0, len(values)))
    end = data.draw(st.integers(start, len(values)))
    assert delta_read.BUILT.int_list(col, start, end) == col[start:end].tolist()  # type: ignore[union-attr]


def test_an_arrow_column_view_as_the_store_reads_it() -> None:
    arr = pa.array([3, -1, 0, 1 << 40, -(1 << 62)], pa.int64()).slice(1, 3)   # an offset into the buffer
    col = arr.to_numpy()
    assert delta_read.BUILT.int_list(col, 0, 3) == [-1, 0, 1 << 40]  # type: ignore[union-attr]


@pytest.mark.parametrize(("start", "end"), [(-1, 2), (2, 1), (0, 4)])
def test_bounds_out_of_range_are_an_index_error(start: int, end: int) -> None:
    with pytest.raises(IndexError, match="int_list"):
        delta_read.BUILT.int_list(np.arange(3, dtype=np.int64), start, end)  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", [np.arange(6, dtype=np.int64).reshape(2, 3), np.arange(3, dtype=np.float64),
                                 np.arange(3, dtype=">i4"), b"abc"])
def test_what_it_does_not_read_is_a_type_error_and_values_falls_back(bad: object) -> None:
    if isinstance(bad, bytes):   # bytes are unsigned chars: it reads them
        assert delta_read.BUILT.int_list(bad, 0, 3) == [97, 98, 99]  # type: ignore[union-attr]
        return
    with pytest.raises(TypeError):
        delta_read.BUILT.int_list(bad, 0, 2)  # type: ignore[union-attr]
    if getattr(bad, "ndim", 1) == 1:
        assert delta_read.column_values(bad, 0, 2) == bad[0:2].tolist()  # type: ignore[index]


def test_a_store_reads_back_the_same_columns_either_way(tmp_path: Path) -> None:
    store = DeltaStore(tmp_path / "events")
    hands = (0b1111111111, 0b1111111111 << 10, 0b1111111111 << 20)
    rows = [PulkaStarted(("A", "B", "C")).to_row(), DealStarted(0, hands, 0b11 << 30).to_row(),
            CardPlayed(1, 5).to_row(), CardPlayed(2, 31).to_row()]
    store.append_many([(f"p{k}", 0, rows[: 2 + k % 3]) for k in range(7)])
    fast = [(pid, cols.code, cols.player, cols.card, cols.value, cols.payload) for pid, cols in store.pulka_columns()]
    with delta_read.pure_read():
        assert delta_read.READ is None
        ref = [(pid, cols.code, cols.player, cols.card, cols.value, cols.payload)
               for pid, cols in store.pulka_columns()]
    assert delta_read.READ is (None if pure_requested() else delta_read.BUILT)  # as it was (PURE=1: pure)
    assert fast == ref and len(fast) == 7
