"""``preflog rekey``: the one command that moves a store's seal (issue 38, item 1).

The old key comes from ``PREFLOG_KEY`` (none for an unkeyed store), the new one from ``PREFLOG_NEW_KEY``
(``--no-key`` un-keys). The store must verify clean under the old key first; a kill at any point of the
re-key leaves the store under exactly one key, with nothing lost; verify says when the seal moved.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from preflog.store.keyed import WITNESS_NAME
from preflog.store.keyed import fingerprint
from preflog.store.keyed import pending_rekey
from preflog.workspace import KEY_ENV
from preflog.workspace import NEW_KEY_ENV
from preflog.workspace import Workspace

from ..store.test_fault_injection import KILL_HOOK
from .tampering import KEY
from .tampering import THIRD
from .tampering import commit_file
from .tampering import forge_pulka
from .tampering import last_version
from .test_issue31 import cli
from .test_issue31 import kinds
from .test_issue31 import verify_json
from .test_issue38 import built as built  # the stores of issue 38's tests: keyed and plain, two imports each
from .test_issue38 import keyed as keyed
from .test_issue38 import plain as plain

NEW = "the club's new secret"


def rekey(root: Path, old: str | None, new: str | None, *args: str) -> tuple[int, str, str]:
    return cli(["rekey", "--store", str(root), *args], key=old, **({NEW_KEY_ENV: new} if new is not None else {}))


def pulkas(root: Path, key: str | None) -> list[tuple[str, int, int]]:
    from .tampering import key_env

    with key_env(key):
        return sorted((p.pulka, p.last_seq, p.content_hash) for p in Workspace(root).store().pulkas())


def test_a_rekey_moves_the_seal_and_verify_says_when(keyed: Path) -> None:
    before, version = pulkas(keyed, KEY), last_version(keyed)
    code, out, err = rekey(keyed, KEY, NEW)
    assert code == 0, err
    assert out.strip() == (f"re-keyed (version {version + 1}): key {fingerprint(KEY.encode())} → "
                           f"key {fingerprint(NEW.encode())}")
    assert KEY not in out + err and NEW not in out + err
    assert pulkas(keyed, NEW) == before   # no row written or lost: one commit of no rows
    code, doc = verify_json(keyed, NEW)
    assert code == 0 and doc["clean"], doc
    moves = doc["seal_moves"]
    assert isinstance(moves, list) and len(moves) == 1
    assert {k: moves[0][k] for k in ("version", "old", "new")} == {
        "version": version + 1, "old": fingerprint(KEY.encode()), "new": fingerprint(NEW.encode())}
    code, out, _err = cli(["verify", "--store", str(keyed)], key=NEW)
    out = " ".join(out.split())
    assert code == 0 and f"the seal moved at version {version + 1}" in out and out.endswith("store verifies clean")
    # the old key is the wrong one now: verify names it, import refuses it; the new key imports and verifies
    code, doc = verify_json(keyed, KEY)
    assert code == 1 and "key" in kinds(doc)
    code, _out, err = cli(["import", str(THIRD), "--store", str(keyed)], key=KEY)
    assert code == 2 and fingerprint(NEW.encode()) in err and last_version(keyed) == version + 1
    assert cli(["import", str(THIRD), "--store", str(keyed)], key=NEW)[0] == 0
    code, doc = verify_json(keyed, NEW)
    assert code == 0 and doc["clean"], doc


def test_a_rekey_refuses_a_store_that_does_not_verify_and_writes_nothing(keyed: Path) -> None:
    forge_pulka(keyed)   # a made-up pulka without the key: signature and unrecorded under the old key
    version, witness = last_version(keyed), (keyed / "events" / WITNESS_NAME).read_bytes()
    code, out, err = rekey(keyed, KEY, NEW)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and "does not verify under its key" in lines[0], (out, err)
    assert "nothing was re-keyed" in lines[0]
    assert last_version(keyed) == version and (keyed / "events" / WITNESS_NAME).read_bytes() == witness


@pytest.mark.parametrize("old", ["wrng key", None], ids=["wrong", "none"])
def test_a_rekey_needs_the_stores_own_key(keyed: Path, old: str | None) -> None:
    version = last_version(keyed)
    code, _out, err = rekey(keyed, old, NEW)
    assert code == 2 and fingerprint(KEY.encode()) in err and last_version(keyed) == version


def test_a_rekey_needs_a_new_key_said_one_way(keyed: Path) -> None:
    code, _out, err = rekey(keyed, KEY, None)
    assert code == 2 and "PREFLOG_NEW_KEY" in err and "--no-key" in err
    code, _out, err = rekey(keyed, KEY, NEW, "--no-key")
    assert code == 2 and "one or the other" in err
    code, _out, err = rekey(keyed, KEY, KEY)
    assert code == 2 and "nothing to re-key" in err
    assert last_version(keyed) == 2


def test_an_unkeyed_store_is_keyed_and_a_keyed_one_unkeyed(plain: Path) -> None:
    before = pulkas(plain, None)
    assert rekey(plain, None, NEW)[0] == 0
    code, doc = verify_json(plain, NEW)
    assert code == 0 and doc["clean"], doc   # the commits made without a key are signed now
    code, doc = verify_json(plain, None)
    assert code == 0 and doc["unchecked"] and fingerprint(NEW.encode()) in str(doc["unchecked"])
    assert cli(["import", str(THIRD), "--store", str(plain)], key=None)[0] == 2   # keyed now
    code, out, _err = rekey(plain, NEW, None, "--no-key")
    assert code == 0 and out.strip().endswith(f"key {fingerprint(NEW.encode())} → no key")
    code, doc = verify_json(plain, None)
    assert code == 0 and doc["clean"] and doc["unchecked"] is None, doc
    assert [(m["old"], m["new"]) for m in doc["seal_moves"]] == [("", fingerprint(NEW.encode())),
                                                                 (fingerprint(NEW.encode()), "")]
    assert cli(["import", str(THIRD), "--store", str(plain)], key=NEW)[0] == 2   # unkeyed now
    assert cli(["import", str(THIRD), "--store", str(plain)], key=None)[0] == 0
    assert set(before) < set(pulkas(plain, None))


def test_a_forged_rekey_does_not_verify(keyed: Path) -> None:
    """Someone without the key appends a re-key to his own: verify with the club's key names it."""
    assert rekey(keyed, KEY, "attacker's key")[0] == 0   # what he would write, had he the key: he has not
    lines = commit_file(keyed, last_version(keyed)).read_text().splitlines()
    info = json.loads(lines[0])
    info["commitInfo"]["preflog.mac"] = "0" * 64
    commit_file(keyed, last_version(keyed)).write_text("\n".join([json.dumps(info), *lines[1:]]) + "\n")
    code, doc = verify_json(keyed, "attacker's key")
    assert code == 1 and "signature" in kinds(doc), doc


# --- kill points -------------------------------------------------------------------------------------------
_VICTIM = KILL_HOOK + r"""
from deltalake import DeltaTable
from preflog.store import keyed
owners = {"commit": (DeltaTable, "create_write_transaction"), "witness": (keyed, "write_witness")}
hook(*owners[cfg["point"]], 1, cfg["when"])
workspace.Workspace(cfg["root"]).rekey(workspace.new_club_key())
"""


def _killed_rekey(root: Path, point: str, when: str) -> None:
    env = {k: v for k, v in __import__("os").environ.items() if k not in (KEY_ENV, NEW_KEY_ENV)}
    env.update({KEY_ENV: KEY, NEW_KEY_ENV: NEW})
    cfg = {"point": point, "when": when, "root": str(root)}
    proc = subprocess.run([sys.executable, "-c", _VICTIM, json.dumps(cfg)], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr


@pytest.mark.parametrize(("point", "when", "moved"), [
    ("commit", "before", False),    # verified, nothing written
    ("commit", "after", True),      # the re-key committed, its witness not written
    ("witness", "before", True),    # the same moment, seen from the witness
    ("witness", "after", True),     # all done but the process's own end
])
def test_a_rekey_killed_at_any_point_leaves_one_key_and_loses_nothing(keyed: Path, point: str, when: str,
                                                                      moved: bool) -> None:
    before = pulkas(keyed, KEY)
    _killed_rekey(keyed, point, when)
    seal, other = (NEW, KEY) if moved else (KEY, NEW)
    assert pulkas(keyed, seal) == before
    code, doc = verify_json(keyed, seal)
    assert code == 0 and doc["clean"], (point, when, doc)
    code, doc = verify_json(keyed, other)
    assert code == 1 and "key" in kinds(doc)
    version = last_version(keyed)
    assert cli(["import", str(THIRD), "--store", str(keyed)], key=other)[0] == 2
    assert last_version(keyed) == version
    # running the re-key again finishes it (or does it, when the kill came first)
    pending = (point, when) in (("commit", "after"), ("witness", "before"))
    code, out, err = rekey(keyed, KEY, NEW)
    if (point, when) == ("witness", "after"):   # done already: the old key is no longer the store's
        assert code == 2 and fingerprint(NEW.encode()) in err
    else:
        assert code == 0 and ("finished the re-key" in out) == pending, err
    assert pending_rekey(keyed / "events") is None
    code, doc = verify_json(keyed, NEW)
    assert code == 0 and doc["clean"] and len(doc["seal_moves"]) == 1, doc
    assert cli(["import", str(THIRD), "--store", str(keyed)], key=NEW)[0] == 0
    code, doc = verify_json(keyed, NEW)
    assert code == 0 and doc["clean"], doc
