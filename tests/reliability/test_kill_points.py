"""Kill points at every stage of import and compaction, on keyed and unkeyed stores.

The machinery of ``tests/store/test_fault_injection.py``: a fresh interpreter imports record files three
pulkas a commit and SIGKILLs itself at a chosen point (a hook it installs on itself), or is killed at a
random moment; then the next command (a read, or a re-import) must leave a store whose verify is clean
(with the key, for a keyed store), with no event lost or doubled and the projections equal to a clean build
(that test's ``_check``), and a re-import must store exactly the games of a clean import.

Stages: before and after an event commit; after the commit and before its witness is written (a keyed
store's new step), and after it; a projection segment written; a manifest saved; compaction before its
optimize, after it (before the vacuum); a random moment. The short run kills twice; the long run
(``PREFLOG_RELIABILITY=long``) every stage at several calls, keyed and not, and random moments, ≥ 60 kills.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from preflog.importer import prepare_file
from preflog.projections import store as pstore
from preflog.store.chain import DEFAULT_HASH_EVERY
from preflog.workspace import KEY_ENV
from preflog.workspace import Workspace

from ..store.test_fault_injection import KILL_HOOK
from ..store.test_fault_injection import _check
from ..store.test_fault_injection import _contents
from .conftest import COUNTS
from .conftest import LONG
from .tampering import EXAMPLES
from .tampering import KEY
from .tampering import key_env

_VICTIM = KILL_HOOK + r"""
from deltalake.table import TableOptimizer
from preflog.projections import store as pstore
from preflog.store import delta, keyed

point, k, when = cfg["point"], cfg["k"], cfg["when"]
owners = {"commit": (delta.DeltaStore, "_commit_sealed"), "witness": (keyed, "write_witness"),
          "segment": (pstore, "_write_atomic"), "manifest": (pstore, "_save"),
          "optimize": (TableOptimizer, "compact")}
if point in owners:
    hook(*owners[point], k, when)
ws = workspace.Workspace(cfg["root"])
ws.import_paths([cfg["records"]], workers=1)
if cfg["compact"]:
    ws.store().compact(vacuum_retention_hours=0)
"""

# (point, k, when, compact)
STAGES: list[tuple[str, int, str, bool]] = [
    ("commit", 1, "before", False), ("commit", 2, "after", False), ("witness", 1, "before", False),
    ("witness", 2, "after", False), ("segment", 2, "after", False), ("manifest", 1, "after", False),
    ("manifest", 2, "after", False), ("optimize", 1, "before", True), ("optimize", 1, "after", True),
]
SHORT = [(STAGES[2], True), (("random", 0, "", False), False)]


def _trials(rng: random.Random) -> list[tuple[tuple[str, int, str, bool], bool]]:
    if not LONG:
        return SHORT
    out = [((p, k2, w, c), keyed) for (p, _k, w, c) in STAGES for k2 in (1, 2, 3) for keyed in (True, False)
           if not (p == "optimize" and k2 > 1)]
    out += [(("random", 0, "", rng.random() < 0.3), rng.random() < 0.5) for _ in range(24)]
    return out


def _run_victim(cfg: dict[str, object], root: Path, key: str | None, rng: random.Random) -> int:
    env = {k: v for k, v in __import__("os").environ.items() if k != KEY_ENV}
    if key is not None:
        env[KEY_ENV] = key
    proc = subprocess.Popen([sys.executable, "-c", _VICTIM, json.dumps(cfg)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        if cfg["point"] == "random":
            deadline = time.monotonic() + 60
            delay = rng.uniform(0.0, 1.0)
            start: float | None = None
            while proc.poll() is None and time.monotonic() < deadline:
                if start is None and (root / "events" / "_delta_log").exists():
                    start = time.monotonic()
                if start is not None and time.monotonic() - start >= delay:
                    break
                time.sleep(0.01)
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    if proc.returncode != -signal.SIGKILL:
        assert proc.returncode == 0, err
        assert cfg["point"] == "random", f"hook {cfg['point']} {cfg['k']} never fired: {err}"
    return proc.returncode


def test_killed_at_every_stage_loses_nothing(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    names = sorted(p.name for p in EXAMPLES.glob("*.pref"))
    for name in names if LONG else names[:4]:
        shutil.copy(EXAMPLES / name, records / name)
    reference = sorted(p.content_hash for f in sorted(records.iterdir())
                       for p in prepare_file(str(f), DEFAULT_HASH_EVERY, False, ()).pulkas)
    assert len(reference) == len(set(reference)) >= 9
    rng = random.Random(31)
    kills = 0
    for n, ((point, k, when, compact), keyed) in enumerate(_trials(rng)):
        root = tmp_path / f"trial{n}"
        key = KEY if keyed else None
        cfg = {"point": point, "k": k, "when": when, "compact": compact, "root": str(root), "records": str(records)}
        if _run_victim(cfg, root, key, rng) == -signal.SIGKILL:
            kills += 1
            COUNTS["kill"] += 1
        with key_env(key):
            if n % 2 == 0 and Workspace(root).exists():  # a read first (stats heals), then a re-import
                Workspace(root).connect().execute("SELECT count(*) FROM pulka_results").fetchone()
                _check(root, tmp_path, reference)
            items = Workspace(root).import_paths([records], workers=1)
            assert {i.status for i in items} <= {"imported", "duplicate"}
            _check(root, tmp_path, reference, clean_build=n % 2 == 1)
            assert _contents(Workspace(root)) == reference, f"trial {n} ({point} {k} {when}): games lost"
            assert pstore.events_version(root) is not None
        shutil.rmtree(root)
    assert kills >= (60 if LONG else 2)
