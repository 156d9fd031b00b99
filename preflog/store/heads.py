"""The heads of a store's pulkas, compact: what an import asks of every pulka it reads.

A bulk import asks two things of each pulka it reads: is its content (the head of its hash chain)
stored already, and under which id; and is the id it asks for taken. A dict of ids and a dict of
heads answer that at ≈ 400 bytes a pulka in the parent (the id string, tuples and ints, two dict
slots): 1.2 GB for an online club's 3 M pulkas. :class:`HeadIndex` keeps the same facts in NumPy
arrays and one bytes object for the ids, ≈ 53 bytes a pulka plus the id's UTF-8 length:

* per row (a pulka, in the order it became known): last seq, head (with a "has a head" flag), deal
  number, and where its id lies in the ids' bytes;
* the 64-bit keys of the ids (Python's ``hash`` of the string; the index is never written anywhere)
  sorted, with their rows; a key hit is confirmed by comparing the id itself, so a collision of
  keys is harmless;
* the heads sorted, with their rows (several pulkas may end with the same content: the smallest id
  is the holder, as :meth:`~.base.EventStore.find_by_content` answers).

What changes lands in a small dict first (new pulkas, pulkas appended to), merged into the arrays
once it holds more than an eighth of them (so merging costs O(n log n) over a whole import).

:class:`SortedHashes` is what an import's worker processes get of it: the stored heads alone, sorted
(8 bytes a pulka), to skip auditing what is stored already.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

import numpy as np

Head = tuple[int, int | None, int]
"""A pulka's (last seq, head hash or None, deal number of its last event)."""

MERGE_MIN = 4096  # changes kept in the dict before a merge, at the least


class SortedHashes:
    """A set of 64-bit content hashes as one sorted NumPy array (picklable: sent to import workers)."""

    __slots__ = ("values",)

    def __init__(self, values: Iterable[int] | np.ndarray[Any, Any] = ()) -> None:
        arr = values if isinstance(values, np.ndarray) else np.fromiter(values, dtype=np.int64)
        self.values = np.unique(arr.astype(np.int64, copy=False))

    def __contains__(self, h: object) -> bool:
        if not isinstance(h, int) or not -(1 << 63) <= h < (1 << 63):
            return False
        i = int(np.searchsorted(self.values, h))
        return i < len(self.values) and int(self.values[i]) == h

    def __len__(self) -> int:
        return len(self.values)


class HeadIndex:
    """pulka id → :data:`Head`, and content hash → the pulka holding it, in ≈ 53 bytes a pulka plus its
    id (see the module's doc). Not thread-safe: the store guards it with its cache lock."""

    def __init__(self) -> None:
        self._ids = b""
        self._off = np.zeros(1, np.int64)
        self._seq = np.empty(0, np.int64)
        self._deal = np.empty(0, np.int32)
        self._head = np.empty(0, np.int64)
        self._has = np.empty(0, np.bool_)
        self._keys = np.empty(0, np.int64)
        self._key_rows = np.empty(0, np.int32)
        self._heads = np.empty(0, np.int64)
        self._head_rows = np.empty(0, np.int32)
        self._recent: dict[str, Head] = {}
        self._recent_by_head: dict[int, str] = {}
        self._new = 0  # entries of _recent that have no row yet

    # --- building ---------------------------------------------------------------------------
    @classmethod
    def of(cls, heads: Iterable[tuple[str, Head]]) -> HeadIndex:
        """An index of these ``(pulka, head)`` pairs (each pulka once)."""
        index = cls()
        index.update(dict(heads))
        index.merge()
        return index

    def load(self, ids: Any, seqs: Any, heads: Any, deals: Any) -> None:
        """Fill an empty index from Arrow columns (ids as strings, each once; heads may be null),
        without a Python object per pulka kept."""
        import pyarrow as pa

        if len(self) or not len(ids):
            if len(ids):
                self.update({p: (s, h, d) for p, s, h, d in zip(ids.to_pylist(), seqs.to_pylist(),
                                                                heads.to_pylist(), deals.to_pylist(), strict=True)})
            return
        arr = ids.combine_chunks() if isinstance(ids, pa.ChunkedArray) else ids
        arr = arr.cast(pa.large_string())
        n = len(arr)
        off = np.frombuffer(arr.buffers()[1], np.int64)[arr.offset:arr.offset + n + 1]
        data = arr.buffers()[2]
        blob = data.to_pybytes()[int(off[0]):int(off[-1])] if data is not None else b""
        self._ids, self._off = blob, (off - off[0]).astype(np.int64)
        self._seq = _ints(seqs, n)
        self._deal = _ints(deals, n).astype(np.int32)
        col = heads.combine_chunks() if isinstance(heads, pa.ChunkedArray) else heads
        self._has = ~np.asarray(col.is_null().to_numpy(zero_copy_only=False), np.bool_)
        self._head = np.array(col.fill_null(0).to_numpy(zero_copy_only=False), np.int64)  # a writable copy
        keys = np.fromiter((_key(self._id(r)) for r in range(n)), np.int64, n)
        self._sort(keys, np.arange(n, dtype=np.int32))

    def update(self, heads: dict[str, Head]) -> None:
        """Set the heads of these pulkas (new ones, or ones appended to)."""
        for pid, head in heads.items():
            if pid not in self._recent and self._row(pid) < 0:
                self._new += 1
            self._recent[pid] = head
            h = head[1]
            if h is not None:
                cur = self._recent_by_head.get(h)
                if cur is None or pid < cur or self._recent[cur][1] != h:
                    self._recent_by_head[h] = pid
        if len(self._recent) > max(MERGE_MIN, len(self._seq) // 8):
            self.merge()

    def merge(self) -> None:
        """Fold the recent changes into the arrays."""
        if not self._recent:
            return
        new: list[tuple[str, Head]] = []
        for pid, (s, h, d) in self._recent.items():
            r = self._row(pid)
            if r < 0:
                new.append((pid, (s, h, d)))
                continue
            self._seq[r], self._deal[r] = s, d
            self._has[r], self._head[r] = h is not None, h if h is not None else 0
        if new:
            n0, k = len(self._seq), len(new)
            encoded = [p.encode() for p, _v in new]
            lengths = np.fromiter((len(e) for e in encoded), np.int64, k)
            self._off = np.concatenate([self._off, self._off[-1] + np.cumsum(lengths)])
            self._ids = self._ids + b"".join(encoded)
            self._seq = np.concatenate([self._seq, np.fromiter((v[0] for _p, v in new), np.int64, k)])
            self._deal = np.concatenate([self._deal, np.fromiter((v[2] for _p, v in new), np.int32, k)])
            self._has = np.concatenate([self._has, np.fromiter((v[1] is not None for _p, v in new), np.bool_, k)])
            self._head = np.concatenate([self._head, np.fromiter((v[1] if v[1] is not None else 0 for _p, v in new),
                                                                 np.int64, k)])
            keys = np.concatenate([self._keys, np.fromiter((_key(p) for p, _v in new), np.int64, k)])
            rows = np.concatenate([self._key_rows, np.arange(n0, n0 + k, dtype=np.int32)])
            self._sort(keys, rows)
        else:
            self._sort(self._keys, self._key_rows)
        self._recent.clear()
        self._recent_by_head.clear()
        self._new = 0

    def _sort(self, keys: np.ndarray[Any, Any], rows: np.ndarray[Any, Any]) -> None:
        if len(self._seq) >= (1 << 31):
            raise OverflowError("more than 2**31 pulkas in one head index")
        order = np.argsort(keys, kind="stable")
        self._keys, self._key_rows = keys[order], rows[order].astype(np.int32)
        with_head = np.flatnonzero(self._has)
        by_head = np.argsort(self._head[with_head], kind="stable")
        self._head_rows = with_head[by_head].astype(np.int32)
        self._heads = self._head[self._head_rows]

    # --- lookups ----------------------------------------------------------------------------
    def _id(self, row: int) -> str:
        return self._ids[int(self._off[row]):int(self._off[row + 1])].decode()

    def _row(self, pid: str) -> int:
        k = _key(pid)
        keys = self._keys
        i = int(np.searchsorted(keys, k))
        while i < len(keys) and int(keys[i]) == k:
            r = int(self._key_rows[i])
            if self._id(r) == pid:
                return r
            i += 1
        return -1

    def get(self, pid: str) -> Head | None:
        """The pulka's head, or None if the index does not hold it."""
        got = self._recent.get(pid)
        if got is not None:
            return got
        r = self._row(pid)
        if r < 0:
            return None
        return int(self._seq[r]), int(self._head[r]) if self._has[r] else None, int(self._deal[r])

    def __contains__(self, pid: object) -> bool:
        return isinstance(pid, str) and self.get(pid) is not None

    def __len__(self) -> int:
        return len(self._seq) + self._new

    def holder(self, content_hash: int) -> str | None:
        """The pulka whose events end with this content hash (the smallest id, if several), or None."""
        best: str | None = None
        pid = self._recent_by_head.get(content_hash)
        if pid is not None and self._recent[pid][1] == content_hash:
            best = pid
        if not -(1 << 63) <= content_hash < (1 << 63):
            return best
        heads = self._heads
        i = int(np.searchsorted(heads, content_hash))
        while i < len(heads) and int(heads[i]) == content_hash:
            other = self._id(int(self._head_rows[i]))
            if other not in self._recent and (best is None or other < best):  # a recent change supersedes it
                best = other
            i += 1
        return best

    def items(self) -> Iterator[tuple[str, Head]]:
        """Every pulka and its head, sorted by id."""
        self.merge()
        ids = [self._id(r) for r in range(len(self._seq))]
        for r in sorted(range(len(ids)), key=ids.__getitem__):
            yield ids[r], (int(self._seq[r]), int(self._head[r]) if self._has[r] else None, int(self._deal[r]))

    def content_hashes(self) -> SortedHashes:
        """The heads held, as a :class:`SortedHashes`."""
        self.merge()
        return SortedHashes(self._heads)

    def nbytes(self) -> int:
        """The bytes its arrays and ids take (the recent changes not counted)."""
        arrays = (self._off, self._seq, self._deal, self._head, self._has, self._keys, self._key_rows, self._heads,
                  self._head_rows)
        return len(self._ids) + sum(a.nbytes for a in arrays)


def _key(pid: str) -> int:
    """The 64-bit key of an id (a hit is confirmed by the id itself: collisions only cost a comparison)."""
    return hash(pid)


def _ints(col: Any, n: int) -> np.ndarray[Any, Any]:
    import pyarrow as pa

    arr = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    return np.array(arr.fill_null(0).to_numpy(zero_copy_only=False)[:n], np.int64)  # a writable copy
