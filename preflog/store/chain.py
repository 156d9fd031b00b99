"""Hash chain, row sealing and integrity checks shared by every store backend.

Each stored event row is ``(seq, deal, code, player, card, value, payload, hash)``.
The chain value after event *k* of a pulka is ``h_k = blake2b-64(h_{k-1} ‖ seq ‖ row_k)``
with ``h_0 = 0``. It does not include the pulka id, so the chain value after the
last event is also the *content hash* of the whole pulka (same game, same hash).

A backend may store ``h_k`` on every event or only at checkpoints (every
``hash_every``-th seq and the last event of every append): 8 random bytes per event
would be most of the on-disk size. Checkpoints still catch any change, removal,
reordering or insertion; they localise it to the window since the previous
checkpoint.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from hashlib import blake2b
from typing import TypeGuard

from preflog.model.events import BY_CODE
from preflog.model.events import DealStarted
from preflog.model.events import Event
from preflog.model.events import EventError
from preflog.model.events import Row
from preflog.model.events import from_row

from .problems import IntegrityProblem
from .problems import StoreError

GENESIS = 0
DEAL_CODE = DealStarted.CODE
_PACK = struct.Struct("<qibbbq").pack
_INT8 = range(-128, 128)
_BLAKE = blake2b(digest_size=8)  # copied per link: half the cost of a new hasher (keyword parsing)

# (seq, deal, code, player, card, value, payload, hash|None)
StoredRow = tuple[int, int, int, int, int, int, str | None, int | None]


DEFAULT_HASH_EVERY = 32  # chain checkpoint interval of new Delta tables (docs/storage.md)

def link(prev: int, seq: int, code: int, player: int, card: int, value: int, payload: str | None) -> int:
    """One chain step: a signed 64-bit int, so that it fits an int64 column."""
    data = _PACK(prev, seq, code, player, card, value)
    data += b"\x00" if payload is None else b"\x01" + payload.encode()
    b = _BLAKE.copy()
    b.update(data)
    return int.from_bytes(b.digest(), "little", signed=True)


def as_rows(pulka: str, items: Sequence[Event | Row], first_seq: int) -> list[Row]:
    """Events or rows → validated rows; a bad item names the pulka and the seq it would get."""
    out: list[Row] = []
    for i, it in enumerate(items):
        row = it.to_row() if isinstance(it, Event) else tuple(it)
        if not _is_row(row):
            raise StoreError(f"pulka {pulka!r} seq {first_seq + i}: not an event row: {row!r}")
        out.append(row)
    return out


def _is_row(row: tuple[object, ...]) -> TypeGuard[Row]:
    """Whether ``row`` is an event row: a known code, player and card in int8, an int value, a text or no payload."""
    try:
        code, player, card, value, payload = row
        return (code in BY_CODE and player in _INT8 and card in _INT8 and isinstance(value, int)
                and (payload is None or isinstance(payload, str)))
    except (TypeError, ValueError):
        return False


def seal(rows: Sequence[Row], last_seq: int, last_hash: int, last_deal: int,
         hash_every: int) -> list[StoredRow]:
    """Number, deal-count and chain the rows appended after ``last_seq``.

    The last row always carries its chain value, so a pulka's head hash is always stored.
    """
    out: list[StoredRow] = []
    h, deal, n = last_hash, last_deal, len(rows)
    for i, (code, player, card, value, payload) in enumerate(rows):
        seq = last_seq + 1 + i
        if code == DEAL_CODE:
            deal += 1
        h = link(h, seq, code, player, card, value, payload)
        keep = i == n - 1 or seq % hash_every == 0
        out.append((seq, deal, code, player, card, value, payload, h if keep else None))
    return out


def content_hash(events: Iterable[Event | Row]) -> int:
    """Chain value after the last event: the same for the same game in any store."""
    h = GENESIS
    for seq, it in enumerate(events, 1):
        code, player, card, value, payload = it.to_row() if isinstance(it, Event) else it
        h = link(h, seq, code, player, card, value, payload)
    return h


def check_pulka(pulka: str, rows: Iterable[StoredRow]) -> Iterator[IntegrityProblem]:
    """Integrity problems of one pulka's stored rows (sorted by seq as stored).

    After a chain mismatch the check resynchronises on the stored value, so that each
    damaged window is reported once and later independent damage is still found.
    """
    h, deal, expect, checkpoint = GENESIS, 0, 1, 0
    last: StoredRow | None = None
    for row in rows:
        seq, sdeal, code, player, card, value, payload, shash = row
        if seq != expect:
            kind = "duplicate" if seq < expect else "missing"
            what = (f"seq {seq} appears again or out of order" if seq < expect
                    else f"events seq {expect}..{seq - 1} are missing")
            yield IntegrityProblem(pulka, seq, kind, what)
        try:
            from_row(code, player, card, value, payload)
        except EventError as exc:
            yield IntegrityProblem(pulka, seq, "bad_event", str(exc))
        if code == DEAL_CODE:
            deal += 1
        if sdeal != deal:
            yield IntegrityProblem(pulka, seq, "deal", f"stored deal number {sdeal}, events give {deal}")
            deal = sdeal
        h = link(h, seq, code, player, card, value, payload)
        if shash is not None:
            if shash != h:
                yield IntegrityProblem(
                    pulka, seq, "hash",
                    f"hash chain broken in events seq {checkpoint + 1}..{seq}: an event was changed, "
                    "removed, reordered or inserted", first_seq=checkpoint + 1)
                h = shash
            checkpoint = seq
        expect = seq + 1
        last = row
    if last is not None and last[7] is None:
        yield IntegrityProblem(pulka, last[0], "unsealed",
                               f"last event seq {last[0]} carries no chain hash (an append was cut short "
                               "or events after it were removed)", first_seq=checkpoint + 1)
