"""Sealed rows as Arrow columns: the bulk-import form of :func:`~.chain.seal`'s output.

An import worker seals every pulka of its part straight into eight column lists
(:func:`seal_into`) and turns them into one Arrow record batch for the whole part
(:func:`sealed_batch`); the parent hands each pulka's slice of it, a :class:`SealedRows`, to
:meth:`~.base.EventStore.import_sealed`. The store's commit then concatenates slices and adds the
pulka column without touching a row in Python (see ``DeltaStore._commit_sealed``).

The chain is the one of :mod:`.chain` (``link``): the same values, computed inline.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from collections.abc import Sequence
from hashlib import blake2b
from typing import overload

import pyarrow as pa

from preflog.model.events import Row

from .chain import DEAL_CODE
from .chain import GENESIS
from .chain import StoredRow
from .schema import EVENTS_V1

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
