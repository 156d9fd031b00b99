"""The store's locks come from ``filelock`` (portable: ``flock`` / ``LockFileEx``; SQLite for the shared
import mark), not ``fcntl`` (issue 11). What they must keep doing across processes:

* a commit waits while another process holds ``<table>/_preflog.lock``, and goes through once that
  process dies (the operating system drops the lock: no stale lock file wedges the store);
* the "import in progress" mark is shared (two imports hold it at once), :func:`import_running` sees
  it while any holder lives, and it vanishes with a killed holder.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from preflog.projections import store as pstore
from preflog.store import DeltaStore
from preflog.store.delta import LOCK_NAME
from tests.synthetic import synthetic_pulka

REPO = Path(__file__).resolve().parents[2]

_HOLD_COMMIT_LOCK = """
import sys, time
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
time.sleep(120)
"""

_HOLD_IMPORT_MARK = """
import sys, time
from preflog.projections.store import import_begins
mark = import_begins(sys.argv[1])
print("held", flush=True)
time.sleep(120)
"""


def _holder(code: str, arg: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-c", code, str(arg)], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    if not ready:
        proc.kill()
        pytest.fail("the lock holder said nothing for 60 s")
    assert proc.stdout.readline().strip() == "held"
    return proc


def _kill(proc: subprocess.Popen[str]) -> None:
    proc.kill()  # SIGKILL: no clean-up code of the holder runs
    proc.communicate(timeout=30)


def test_commit_waits_for_the_lock_and_survives_a_killed_holder(tmp_path: Path) -> None:
    """Another process holds the commit lock: an append started meanwhile has not finished after 1 s
    (nothing stored); the holder is SIGKILLed; the append then completes (4 deals of events stored)."""
    table = tmp_path / "t"
    store = DeltaStore(table)
    game = synthetic_pulka(3, deals=4)
    holder = _holder(_HOLD_COMMIT_LOCK, table / LOCK_NAME)
    done = threading.Event()

    def append() -> None:
        store.append("p", game, 0)
        done.set()

    th = threading.Thread(target=append, daemon=True)
    try:
        th.start()
        assert not done.wait(1.0)
        assert DeltaStore(table).last_seq("p") == 0
    finally:
        _kill(holder)
    assert done.wait(60)
    assert DeltaStore(table).last_seq("p") == len(game)


def test_import_mark_is_shared_and_dies_with_its_holder(tmp_path: Path) -> None:
    """This process marks an import; another process marks one too (shared: it does not wait). After
    this one ends its mark an import is still running (the other's); SIGKILL the other: none is."""
    root = tmp_path / "store"
    assert not pstore.import_running(root)
    mine = pstore.import_begins(root)
    other = None
    try:
        other = _holder(_HOLD_IMPORT_MARK, root)
        assert pstore.import_running(root)
    finally:
        pstore.import_ends(mine)
        try:
            assert pstore.import_running(root) == (other is not None)
        finally:
            if other is not None:
                _kill(other)
    assert not pstore.import_running(root)
