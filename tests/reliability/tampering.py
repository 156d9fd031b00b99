"""What an attacker who can write every file of a store except the key does to it (and what accidents do):
the store builders and tamperings the reliability suite and the issue-31 tests share.

A store here is a workspace folder (``events/`` the Delta table, ``projections/``) built by the ordinary
import, with or without the club's key in ``PREFLOG_KEY``.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import CommitProperties
from deltalake import DeltaTable
from deltalake import write_deltalake

from preflog.store.chain import GENESIS
from preflog.store.chain import seal
from preflog.store.delta_log import HEADS_META
from preflog.store.delta_log import MAC_META
from preflog.store.delta_log import heads_record
from preflog.store.keyed import CHAIN_META
from preflog.store.keyed import Link
from preflog.store.keyed import link_digest
from preflog.store.keyed import sign
from preflog.store.keyed import signed_text
from preflog.store.schema import stored_table
from preflog.workspace import KEY_ENV
from preflog.workspace import Workspace
from tests.synthetic import synthetic_pulka

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
KEY = "club secret of issue 31"
FIRST = EXAMPLES / "seed003-settlement.pref"          # 1 pulka
SECOND = EXAMPLES / "seed000-worked-deals.pref"       # 3 pulkas
THIRD = EXAMPLES / "seed003-ten-check-miser-remiz.pref"  # 3 more


@contextmanager
def key_env(key: str | None) -> Iterator[None]:
    """``PREFLOG_KEY`` set to ``key`` (unset for None) inside the block."""
    was = os.environ.pop(KEY_ENV, None)
    if key is not None:
        os.environ[KEY_ENV] = key
    try:
        yield
    finally:
        os.environ.pop(KEY_ENV, None)
        if was is not None:
            os.environ[KEY_ENV] = was


def build_store(root: Path, key: str | None = KEY) -> Path:
    """A store of two imports: FIRST (1 pulka, commit 1), then SECOND (3 pulkas, commit 2), projected."""
    with key_env(key):
        ws = Workspace(root)
        for f in (FIRST, SECOND):
            assert {i.status for i in ws.import_paths([f], workers=1)} == {"imported"}
    return root


def events(root: Path) -> Path:
    return root / "events"


def commit_file(root: Path, version: int) -> Path:
    return events(root) / "_delta_log" / f"{version:020d}.json"


def last_version(root: Path) -> int:
    return DeltaTable(str(events(root))).version()


def commit_lines(root: Path, version: int) -> list[dict[str, object]]:
    return [json.loads(line) for line in commit_file(root, version).read_text().splitlines() if line.strip()]


def write_commit(root: Path, version: int, actions: list[dict[str, object]]) -> None:
    commit_file(root, version).write_text("".join(json.dumps(a) + "\n" for a in actions))


# --- tamperings of the log -------------------------------------------------------------------------------
def drop_setting(root: Path, name: str = "preflog.headsLog") -> None:
    """A commit that rewrites the table's metadata without the setting ``name`` (D2)."""
    v = last_version(root)
    meta = next(a["metaData"] for a in commit_lines(root, 0) if "metaData" in a)
    assert isinstance(meta, dict)
    conf = dict(meta["configuration"])
    conf.pop(name, None)
    now = int(time.time() * 1000)
    write_commit(root, v + 1, [{"commitInfo": {"timestamp": now, "operation": "SET TBLPROPERTIES"}},
                               {"metaData": {**meta, "configuration": conf}}])


def strip_heads_log(root: Path) -> None:
    """Every commit's heads record, link and signature removed from its commit info."""
    for v in range(last_version(root) + 1):
        actions = commit_lines(root, v)
        for a in actions:
            info = a.get("commitInfo")
            if isinstance(info, dict):
                for k in (HEADS_META, CHAIN_META, MAC_META):
                    info.pop(k, None)
        write_commit(root, v, actions)


def set_heads_record(root: Path, version: int, record: str) -> None:
    """Commit ``version``'s heads record replaced by ``record`` as it stands (D6: a damaged record)."""
    actions = commit_lines(root, version)
    for a in actions:
        info = a.get("commitInfo")
        if isinstance(info, dict) and HEADS_META in info:
            info[HEADS_META] = record
    write_commit(root, version, actions)


def forged_rows(pulka: str, seed: int, hash_every: int = 32) -> tuple[pa.Table, tuple[int, int]]:
    """A made-up pulka with a correctly recomputed chain, and its (last seq, head)."""
    rows = seal([e.to_row() for e in synthetic_pulka(seed, deals=1)], 0, GENESIS, 0, hash_every)
    last = rows[-1]
    assert last[7] is not None
    return stored_table([(pulka, *r) for r in rows]), (last[0], last[7])


def next_link(root: Path, record: str, key_fp: str = "") -> str:
    """The next link of the chain of append commits, computed from the log (nothing in it is secret)."""
    dt = DeltaTable(str(events(root)))
    chained = [c for c in dt.history() if isinstance(c.get(CHAIN_META), str)]
    conf = {k: v for k, v in dt.metadata().configuration.items() if k.startswith("preflog.")}
    if not chained:
        return Link(1, "", conf, key_fp).text()
    last = max(chained, key=lambda c: int(c["version"]))
    return Link(Link.parse(last[CHAIN_META]).n + 1, link_digest(last[CHAIN_META], last[HEADS_META]), conf,
                key_fp).text()


def forge_pulka(root: Path, pulka: str = "forged", seed: int = 9, key: bytes | None = None) -> None:
    """A made-up pulka appended straight through Delta with its own heads record and the next link of the
    chain: all a forger without the key can do. With ``key`` (the legitimate user running a writer that
    does not know the witness, as an older preflog) the record is signed too."""
    table, head = forged_rows(pulka, seed)
    record = heads_record({pulka: head})
    link = next_link(root, record)
    meta = {HEADS_META: record, CHAIN_META: link, "preflog.op": "append"}
    if key is not None:
        meta[MAC_META] = sign(key, signed_text(link, record))
    write_deltalake(str(events(root)), table, mode="append", commit_properties=CommitProperties(custom_metadata=meta))


def delete_last_commit(root: Path) -> int:
    v = last_version(root)
    commit_file(root, v).unlink()
    return v


# --- tamperings of the projections ---------------------------------------------------------------------
def rewrite_projection(root: Path, table: str = "pulka_results", column: str = "pulya") -> str:
    """One value of a projection file changed (the first row's ``column`` plus 7), and the manifest's
    SHA-256 of that file rewritten to match. Returns the pulka whose row was edited."""
    pdir = root / "projections"
    manifest = json.loads((pdir / "manifest.json").read_text())
    seg, (name, _sha) = next(iter(manifest["files"][table].items()))
    path = pdir / table / name
    t = pq.read_table(path)
    col = t[column]
    values = col.to_pylist()
    values[0] = (values[0] or 0) + 7
    t = t.set_column(t.schema.get_field_index(column), column, pa.array(values, col.type))
    pq.write_table(t, path)
    manifest["files"][table][seg] = [name, hashlib.sha256(path.read_bytes()).hexdigest()]
    (pdir / "manifest.json").write_text(json.dumps(manifest))
    return str(t["pulka"][0].as_py())
