"""Tampering with the stored table as a whole (issue 13, item 8): ``verify`` used to check each pulka's
hash chain only, so damage that removes or adds *whole* pulkas went unseen — a deleted ``_delta_log``
commit, a removed ``add`` action, a forged ``remove``, all rows of one pulka dropped from a file, a
made-up pulka with a recomputed (unkeyed) chain. Every append commit now records the heads it leaves
(``preflog.heads`` in the commit's metadata; signed with the club's key when there is one) and verify
checks the table against that record; the projections manifest witnesses the table version.

Store: p0 … p3, each a synthetic pulka of 2 deals (tests/synthetic.py), p0 and p1 in one commit
(version 1, one file), p2 (version 2), p3 (version 3).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from deltalake import CommitProperties
from deltalake import write_deltalake
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.errors import WorkspaceError
from preflog.store import DeltaStore
from preflog.store.chain import GENESIS
from preflog.store.chain import seal
from preflog.store.delta_log import HEADS_META
from preflog.store.delta_log import heads_record
from preflog.store.keyed import CHAIN_META
from preflog.store.keyed import Link
from preflog.store.keyed import fingerprint
from preflog.store.keyed import link_digest
from preflog.store.schema import stored_table
from preflog.workspace import Workspace
from tests.synthetic import synthetic_pulka

KEY = b"club secret"


def _store(path: Path, key: bytes | None = None) -> DeltaStore:
    s = DeltaStore(path, key=key)
    s.append_many([("p0", 0, synthetic_pulka(0, deals=2)), ("p1", 0, synthetic_pulka(1, deals=2))])
    s.append("p2", synthetic_pulka(2, deals=2), 0)
    s.append("p3", synthetic_pulka(3, deals=2), 0)
    assert s.version() == 3 and s.verify() == []
    return s


def _commit(path: Path, version: int) -> Path:
    return path / "_delta_log" / f"{version:020d}.json"


def _kinds(path: Path, key: bytes | None = None) -> list[tuple[str, str]]:
    return [(p.pulka, p.kind) for p in DeltaStore(path, key=key).verify()]


def test_removed_add_action(tmp_path: Path) -> None:
    """Commit 2's ``add`` line deleted: p2 vanishes from the table; verify names it as lost."""
    _store(tmp_path)
    c = _commit(tmp_path, 2)
    c.write_text("".join(line for line in c.read_text().splitlines(keepends=True) if '"add"' not in line))
    assert _kinds(tmp_path) == [("p2", "lost")]


def test_forged_remove_action(tmp_path: Path) -> None:
    """A hand-written commit 4 removing commit 3's file: p3 vanishes; verify names it as lost."""
    _store(tmp_path)
    add = next(json.loads(line)["add"] for line in _commit(tmp_path, 3).read_text().splitlines() if '"add"' in line)
    now = int(time.time() * 1000)
    _commit(tmp_path, 4).write_text(
        json.dumps({"commitInfo": {"timestamp": now, "operation": "DELETE"}}) + "\n"
        + json.dumps({"remove": {"path": add["path"], "deletionTimestamp": now, "dataChange": True}}) + "\n")
    assert DeltaStore(tmp_path).version() == 4
    assert _kinds(tmp_path) == [("p3", "lost")]


def test_all_rows_of_one_pulka_dropped_from_a_file(tmp_path: Path) -> None:
    """Commit 1's file rewritten without p1's rows (p0's kept, valid Parquet, chains intact): p1 is lost."""
    s = _store(tmp_path)
    first = next(f for f in s.files() if "p1" in pq.read_table(f.removeprefix("file://"))["pulka"].to_pylist())
    path = first.removeprefix("file://")
    t = pq.read_table(path)
    pq.write_table(t.filter(pc.not_equal(t["pulka"], "p1")), path)
    assert _kinds(tmp_path) == [("p1", "lost")]


def _forged_rows(store: DeltaStore, pulka: str, seed: int) -> tuple[list[tuple[object, ...]], tuple[int, int]]:
    """A made-up pulka's rows with a correctly recomputed chain, and its (last seq, head)."""
    rows = seal([e.to_row() for e in synthetic_pulka(seed, deals=1)], 0, GENESIS, 0, store.hash_every)
    last = rows[-1]
    assert last[7] is not None
    return [(pulka, *r) for r in rows], (last[0], last[7])


def test_made_up_pulka_with_recomputed_chain(tmp_path: Path) -> None:
    """Rows of a pulka "fake" appended straight through Delta with a valid recomputed chain: its own
    chain verifies, but no commit recorded adding it, and its commit added data with no record."""
    s = _store(tmp_path)
    rows, _head = _forged_rows(s, "fake", 9)
    write_deltalake(str(tmp_path), stored_table(rows), mode="append")
    assert _kinds(tmp_path) == [("", "record"), ("fake", "unrecorded")]


def forged_link(path: Path, record: str) -> str:
    """What a forger without the key can write: the next link of the chain of append commits, computed
    from the log as it stands (nothing in it is secret)."""
    dt = DeltaStore(path, create=False)
    last = max((c for c in dt.history() if CHAIN_META in c), key=lambda c: int(c["version"]))
    prev = Link.parse(last[CHAIN_META])
    return Link(prev.n + 1, link_digest(last[CHAIN_META], last[HEADS_META]), dt.settings(), "").text()


def test_made_up_pulka_with_forged_record_needs_the_key(tmp_path: Path) -> None:
    """A forger who also writes a heads record for his pulka, and the next link of the chain of commits,
    passes an unkeyed store's verify (the documented limit: docs/security.md); one who forgets the link
    breaks the chain. On a store signed with the club's key his record's signature is missing: the
    commit and the pulka are reported. The genuine commits verify clean with the key; another key is
    named once by its fingerprint."""
    s = _store(tmp_path, key=KEY)
    assert _kinds(tmp_path, KEY) == []
    rows, head = _forged_rows(s, "fake", 9)
    record = heads_record({"fake": head})
    write_deltalake(str(tmp_path), stored_table(rows), mode="append", commit_properties=CommitProperties(
        custom_metadata={HEADS_META: record, CHAIN_META: forged_link(tmp_path, record)}))
    assert _kinds(tmp_path) == []
    assert _kinds(tmp_path, KEY) == [("", "signature"), ("fake", "unrecorded")]
    kinds = _kinds(tmp_path, b"another key")
    assert kinds == [("", "signature"), ("", "key"), ("", "witness")] + [(p, "unrecorded") for p in
                                                                        ("fake", "p0", "p1", "p2", "p3")]
    problems = DeltaStore(tmp_path, key=b"another key").verify()
    assert f"the store's {fingerprint(KEY)}" in problems[1].detail and "another key" not in problems[1].detail


def test_a_forged_record_without_its_link_breaks_the_chain(tmp_path: Path) -> None:
    s = _store(tmp_path)
    rows, head = _forged_rows(s, "fake", 9)
    write_deltalake(str(tmp_path), stored_table(rows), mode="append",
                    commit_properties=CommitProperties(custom_metadata={HEADS_META: heads_record({"fake": head})}))
    assert _kinds(tmp_path) == [("", "chain")]


EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def test_deleted_last_commit(tmp_path: Path) -> None:
    """Two imports (two commits); the second commit's log file deleted. The table silently shows the
    first import only and each pulka's chain is fine, but verify reports that commits are missing
    (the projections were built at a later version) and the projected pulkas the table lost; a read
    refuses to "heal" the projections down to the damaged table (one line, exit 2)."""
    root = tmp_path / "store"
    ws = Workspace(root)
    ws.import_paths([EXAMPLES / "seed003-settlement.pref"], workers=1)
    ws.import_paths([EXAMPLES / "seed000-worked-deals.pref"], workers=1)
    version = ws.store().version()  # type: ignore[attr-defined]
    _commit(root / "events", version).unlink()
    fresh = Workspace(root)
    assert [p.kind for p in fresh.store().verify()] == ["witness"]  # the table alone looks whole, but its witness
    problems = fresh.verify()
    assert [p.kind for p in problems] == ["witness", "log", "projection", "projection", "projection"]
    assert "missing from _delta_log" in problems[0].detail and "missing from _delta_log" in problems[1].detail
    with pytest.raises(WorkspaceError, match="commits are missing"):
        Workspace(root).connect()
    res = CliRunner().invoke(app, ["stats", "players", "--store", str(root)])
    assert res.exit_code == 2 and "commits are missing" in res.output
    res = CliRunner().invoke(app, ["verify", "--store", str(root)])
    assert res.exit_code == 1
