"""Sealed rows as Arrow columns: the bulk-import form of :func:`~.chain.seal`'s output.

An import worker seals every pulka of its part straight into eight column lists
(:func:`seal_into`) and turns them into one Arrow record batch for the whole part
(:func:`sealed_batch`); the parent hands each pulka's slice of it, a :class:`SealedRows`, to
:meth:`~.base.EventStore.import_sealed`. The store's commit then concatenates slices and adds the
pulka column without touching a row in Python (see ``DeltaStore._commit_sealed``).

The chain is the one of :mod:`.chain` (``link``): the same values, computed inline.

:func:`seal_part` seals a whole part given as five column lists (the rows' form of
:class:`~preflog.model.columns.RowColumns`, pulkas one after another) in one call: with the compiled chain
(``_chain.c``, plain CPython C API, built by ``pip install`` like the text scanner; BLAKE2b written out)
it builds the stored columns as buffers without a Python object per row; without it (not built, or
``PREFLOG_PURE=1``, or inside :func:`pure`) the same in Python through :func:`seal_into`. Both give the
values of :func:`~.chain.seal` (a differential test checks them against each other and the reference).
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import AbstractContextManager
from hashlib import blake2b
from types import ModuleType
from typing import overload

import pyarrow as pa

from preflog._native import pure_requested
from preflog._native import switched_off
from preflog.model.events import Row

from .chain import DEAL_CODE
from .chain import GENESIS
from .chain import StoredRow
from .schema import EVENTS_V1

try:
    from . import _chain  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # not built (no compiler at install time): the pure-Python chain
    _chain = None

BUILT: ModuleType | None = _chain if sys.byteorder == "little" else None
"""The compiled chain when it is built, else None."""
CHAIN: ModuleType | None = None if pure_requested() else BUILT
"""The chain :func:`seal_part` uses now (None: pure Python)."""


def pure() -> AbstractContextManager[None]:
    """Seal in pure Python inside the block (whatever is built)."""
    return switched_off(globals(), "CHAIN")


# the stored columns without the pulka id: seq, deal, code, player, card, value, payload, hash
SEALED_SCHEMA = pa.schema(list(EVENTS_V1)[1:])
_PACK = struct.Struct("<qibbbq").pack
_FROM = int.from_bytes
_BLAKE = blake2b(digest_size=8)  # copied per link: cheaper than a new hasher's keyword parsing

Columns = tuple[list[int], list[int], list[int], list[int], list[int], list[int], list[str | None], list[int | None]]


def new_columns() -> Columns:
    return [], [], [], [], [], [], [], []


def seal_into(cols: Columns, rows: Sequence[Row], hash_every: int, last_seq: int = 0, last_hash: int = GENESIS,
              last_deal: int = 0) -> int:
    """Append ``rows`` sealed to ``cols`` (a whole pulka by default: from seq 1 and the genesis hash; else
    continuing after ``last_seq``); return the chain value after the last row (for a whole pulka its
    content hash; ``last_hash`` for no rows).

    Equal to :func:`~.chain.seal` ``(rows, last_seq, last_hash, last_deal, hash_every)`` column by column."""
    seqs, deals, codes, players, cards, values, payloads, hashes = cols
    h, deal, n = last_hash, last_deal, last_seq + len(rows)
    pack, frm, fresh = _PACK, _FROM, _BLAKE.copy
    a_seq, a_deal, a_code, a_player = seqs.append, deals.append, codes.append, players.append
    a_card, a_value, a_payload, a_hash = cards.append, values.append, payloads.append, hashes.append
    seq = last_seq
    for code, player, card, value, payload in rows:
        seq += 1
        if code == DEAL_CODE:
            deal += 1
        data = pack(h, seq, code, player, card, value)
        data += b"\x00" if payload is None else b"\x01" + payload.encode()
        b = fresh()
        b.update(data)
        h = frm(b.digest(), "little", signed=True)
        a_seq(seq)
        a_deal(deal)
        a_code(code)
        a_player(player)
        a_card(card)
        a_value(value)
        a_payload(payload)
        a_hash(h if seq == n or seq % hash_every == 0 else None)
    return h


def seal_part(code: list[int], player: list[int], card: list[int], value: list[int], payload: list[str | None],
              ends: list[int], hash_every: int, starts: list[tuple[int, int, int]] | None = None
              ) -> tuple[pa.RecordBatch, list[int]]:
    """The sealed record batch (:data:`SEALED_SCHEMA`) of a part's rows given as five columns, pulka ``k``
    the rows before ``ends[k]`` (from the previous end), and each pulka's last chain value (its content
    hash for a whole pulka; its start hash for none). Each pulka is sealed from seq 1 and the genesis hash,
    or from ``starts[k]`` = (last_seq, last_hash, last_deal) to continue a stored one: row for row
    :func:`seal_into` over the same rows, which is :func:`~.chain.seal`."""
    chain = CHAIN
    if chain is None:
        return _seal_part_pure(code, player, card, value, payload, ends, hash_every, starts)
    n = len(code)
    seq, deal, b_code, b_player, b_card, b_value, b_hash, valid, nulls, heads = chain.seal(
        code, player, card, value, payload, ends, hash_every, starts, DEAL_CODE)
    buf = pa.py_buffer
    arrays = [
        pa.Array.from_buffers(pa.int32(), n, [None, buf(seq)]),
        pa.Array.from_buffers(pa.int32(), n, [None, buf(deal)]),
        pa.Array.from_buffers(pa.int8(), n, [None, buf(b_code)]),
        pa.Array.from_buffers(pa.int8(), n, [None, buf(b_player)]),
        pa.Array.from_buffers(pa.int8(), n, [None, buf(b_card)]),
        pa.Array.from_buffers(pa.int64(), n, [None, buf(b_value)]),
        pa.array(payload, pa.string()),
        pa.Array.from_buffers(pa.int64(), n, [buf(valid), buf(b_hash)], null_count=nulls),
    ]
    return pa.RecordBatch.from_arrays(arrays, schema=SEALED_SCHEMA), heads


def _seal_part_pure(code: list[int], player: list[int], card: list[int], value: list[int],
                    payload: list[str | None], ends: list[int], hash_every: int,
                    starts: list[tuple[int, int, int]] | None) -> tuple[pa.RecordBatch, list[int]]:
    """:func:`seal_part` in Python: :func:`seal_into` per pulka."""
    if not len(code) == len(player) == len(card) == len(value) == len(payload):
        raise ValueError("columns of different lengths")
    if (ends[-1] if ends else 0) != len(code) or any(b < a for a, b in zip([0, *ends], ends, strict=False)):
        raise ValueError("pulka ends must ascend to the length of the columns")
    if starts is not None and len(starts) != len(ends):
        raise ValueError("starts must be None or one (seq, hash, deal) per pulka")
    cols = new_columns()
    heads: list[int] = []
    at = 0
    for k, end in enumerate(ends):
        rows = list(zip(code[at:end], player[at:end], card[at:end], value[at:end], payload[at:end], strict=True))
        last_seq, last_hash, last_deal = starts[k] if starts is not None else (0, GENESIS, 0)
        heads.append(seal_into(cols, rows, hash_every, last_seq, last_hash, last_deal))
        at = end
    return sealed_batch(cols), heads


def with_ids(ids: Sequence[str], parts: Sequence[pa.RecordBatch]) -> pa.Table:
    """The stored table (:data:`~.schema.EVENTS_V1`) of ``parts`` (sealed batches, in order), the rows of
    ``parts[i]`` under ``ids[i]``: one concatenation and one ``take`` for the pulka column."""
    import numpy as np

    body = pa.Table.from_batches(parts, schema=SEALED_SCHEMA).combine_chunks()
    index = np.repeat(np.arange(len(ids), dtype=np.int32), [p.num_rows for p in parts])
    return body.add_column(0, EVENTS_V1.field(0), [pa.array(ids, pa.string()).take(pa.array(index))])


def sealed_batch(cols: Columns) -> pa.RecordBatch:
    """The columns of :func:`seal_into` as one Arrow record batch (:data:`SEALED_SCHEMA`)."""
    return pa.RecordBatch.from_arrays([pa.array(c, f.type) for c, f in zip(cols, SEALED_SCHEMA, strict=True)],
                                      schema=SEALED_SCHEMA)


class SealedRows(Sequence[StoredRow]):
    """One pulka's sealed rows as a slice of a part's record batch (``head``: the hash of the last row).

    A sequence of :data:`~.chain.StoredRow` for backends that want tuples; the Delta store writes
    the columns as they are."""

    __slots__ = ("batch", "head")

    def __init__(self, batch: pa.RecordBatch, head: int) -> None:
        self.batch = batch
        self.head = head

    def __len__(self) -> int:
        return int(self.batch.num_rows)

    def tuples(self) -> list[StoredRow]:
        return list(zip(*(c.to_pylist() for c in self.batch.columns), strict=True))

    @overload
    def __getitem__(self, i: int) -> StoredRow: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[StoredRow]: ...

    def __getitem__(self, i: int | slice) -> StoredRow | Sequence[StoredRow]:
        if isinstance(i, slice):
            return self.tuples()[i]
        n = len(self)
        if not -n <= i < n:
            raise IndexError(i)
        i %= n
        row: StoredRow = tuple(c[i].as_py() for c in self.batch.columns)
        return row

    def __iter__(self) -> Iterator[StoredRow]:
        return iter(self.tuples())
