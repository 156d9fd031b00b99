"""The heads log of a Delta event store: what each append commit records beside its rows.

Every append commit carries, in its commit metadata, the heads it leaves (:data:`HEADS_META`: each pulka it
appended to, with its last seq and head hash), its link in the chain of append commits
(:data:`~.keyed.CHAIN_META`) and, with the club's key, their signature (:data:`MAC_META`). The writer
(:mod:`.delta`) writes these records and :mod:`.delta_verify` checks the table against them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from typing import NamedTuple

from . import keyed

HASH_EVERY_KEY = "preflog.hashEvery"
HEADS_LOG_KEY = "preflog.headsLog"   # "1": every append commit records the heads it leaves (verify checks the log)
HEADS_META = keyed.HEADS_META_NAME  # commit metadata: {pulka: [last seq, head hash]} of the pulkas it appended to
MAC_META = "preflog.mac"             # commit metadata: HMAC-SHA256 of the heads record under the club's key


def heads_record(heads: dict[str, tuple[int, int | None]]) -> str:
    """The canonical text of the heads a commit leaves: ``{pulka: [last seq, head]}``, sorted."""
    return json.dumps({p: [s, h] for p, (s, h) in sorted(heads.items())}, separators=(",", ":"))


def sign(key: bytes, record: str) -> str:
    """HMAC-SHA256 of a heads record under the club's key, in hex (:func:`.keyed.sign`)."""
    return keyed.sign(key, record)


class Tip(NamedTuple):
    """The last append commit of the log as a writer continues it: its Delta version, chain number and
    link digest (version -1, number 0, digest "": none yet)."""

    version: int
    n: int
    digest: str


def parse_heads(record: str) -> dict[str, tuple[int, int]]:
    """The heads of a ``preflog.heads`` record; ValueError when it is not a map of pulka → [seq, head]."""
    got: Any = json.loads(record)
    if not isinstance(got, dict):
        raise ValueError("not an object")
    out: dict[str, tuple[int, int]] = {}
    for pulka, value in got.items():
        if not (isinstance(value, list) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise ValueError(f"pulka {pulka!r}: not [last seq, head]")
        out[pulka] = (value[0], value[1])
    return out


def link_of(commit: dict[str, Any], before: Tip) -> Tip | None:
    """The chain position of an append commit (from ``history()``) after ``before``: its own link when it
    carries one, else (a commit written before links existed) the next number and its record's digest;
    None when it records no heads. ValueError when its record or link cannot be read."""
    record, chain = commit.get(HEADS_META), commit.get(keyed.CHAIN_META)
    if record is None:
        return None
    if not isinstance(record, str) or not (chain is None or isinstance(chain, str)):
        raise ValueError("its heads record or link is not text")
    version = int(commit.get("version", -1))
    if chain is None:
        return Tip(version, before.n + 1, keyed.link_digest(None, record))
    return Tip(version, keyed.Link.parse(chain).n, keyed.link_digest(chain, record))



def commit_history(table: Path, version: int, limit: int | None = None) -> list[dict[str, Any]]:
    """The commit infos of the local table at ``table`` from ``version`` back (at most ``limit`` of them),
    newest first, each with its ``version``: what ``DeltaTable.history`` gives, read from the log's own
    files, because deltalake's lists no commit at all under a folder whose name holds ``#``. Stops at the
    first commit file that is not there (the older ones a checkpoint let go)."""
    out: list[dict[str, Any]] = []
    while version >= 0 and (limit is None or len(out) < limit):
        info = keyed.commit_info(table, version)
        if info is None:
            break
        out.append(info)
        version -= 1
    return out
