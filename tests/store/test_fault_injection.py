"""Fault injection (issue 13, "Done when"): an import is killed with SIGKILL at random and at chosen
points — right after an event commit, with projection segments half written, between the manifest
saves, during compaction — and the next command must leave a store where

* no event is lost or duplicated: every stored game is whole and stored once (verify's chain, seq and
  duplicate checks, and ``count(*) = count(DISTINCT pulka, seq)``), and after a re-import the stored
  games are exactly those of a clean import of the same files;
* the projections equal a clean build (``rebuild_projections`` of a copy of the same events);
* ``verify`` (events and projections) is clean.

The victim is a fresh interpreter (``python -c``) importing ``data/examples`` (40 pulkas, 16 files)
three pulkas a commit (``importer.session.IMPORT_CHUNK = 3``, so an import is many commits); chosen points are hooks it
installs on itself that SIGKILL the process. Every wait has a timeout; no thread is started. Eight
trials, about 20 s of CPU (a minute of wall time on a loaded two-core machine).
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

import duckdb
import pyarrow as pa
import pytest

from preflog.importer import prepare_file
from preflog.projections import store as pstore
from preflog.store.chain import DEFAULT_HASH_EVERY
from preflog.workspace import Workspace

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"

# What a victim process runs first: its settings (argv[1], JSON), imports three pulkas a commit, and hook(),
# which makes any function SIGKILL the process just before or after its k-th call
# (tests/reliability/test_kill_points.py starts its victims with it too).
KILL_HOOK = r"""
import json, os, signal, sys
cfg = json.loads(sys.argv[1])
from preflog import workspace
from preflog.importer import session
session.IMPORT_CHUNK = 3

def die():
    os.kill(os.getpid(), signal.SIGKILL)

def hook(owner, name, k, when):
    real = getattr(owner, name)
    calls = [0]
    def wrapped(*a, **kw):
        calls[0] += 1
        if when == "before" and calls[0] == k:
            die()
        out = real(*a, **kw)
        if when == "after" and calls[0] == k:
            die()
        return out
    setattr(owner, name, wrapped)
"""

_VICTIM = KILL_HOOK + r"""
from deltalake import DeltaTable
from preflog.projections import store as pstore
from preflog.store import delta

point, k = cfg["point"], cfg["k"]
if point == "commit":          # events committed, projections of that chunk not yet written
    hook(delta.DeltaStore, "_commit_sealed", k, "after")
elif point == "segment":       # some segment files of a refresh written, the final manifest not
    hook(pstore, "_write_atomic", k, "after")
elif point == "manifest":      # after the pending-marking save (odd k) or a final save (even k)
    hook(pstore, "_save", k, "after")
elif point == "vacuum":        # compaction committed, its vacuum not run
    hook(DeltaTable, "vacuum", 1, "before")
ws = workspace.Workspace(cfg["root"])
ws.import_paths([cfg["records"]], workers=1)
if cfg["compact"]:
    ws.store().compact(vacuum_retention_hours=0)
    with open(cfg["marker"], "w") as fh:
        fh.write("compacted")
"""

# (point, k, compact): chosen points, then "random" = SIGKILL after a random delay
TRIALS: list[tuple[str, int, bool]] = [
    ("commit", 1, False), ("commit", 5, False), ("segment", 2, False), ("segment", 7, False),
    ("manifest", 1, False), ("vacuum", 1, True), ("random", 0, False), ("random", 0, True),
]


def _contents(ws: Workspace) -> list[int]:
    return sorted(i.content_hash for i in ws.store().pulkas()) if ws.exists() else []


def _tables(root: Path) -> dict[str, pa.Table]:
    return {t: pstore.read_table(root, t).sort_by(pstore.SORT_KEYS[t]) for t in pstore.TABLES}


def _check(root: Path, tmp: Path, reference: list[int], clean_build: bool = True) -> None:
    """No event duplicated, every stored game one of the reference games and stored once, verify
    clean, projections equal to a clean build of the same events."""
    ws = Workspace(root)
    assert ws.verify() == []
    contents = _contents(ws)
    assert len(contents) == len(set(contents)) and set(contents) <= set(reference)
    files = ws.store().files() if ws.exists() else []
    if files:
        listing = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
        con = duckdb.connect()
        total, distinct = con.execute(f"SELECT count(*), count(DISTINCT (pulka, seq)) FROM read_parquet([{listing}])"
                                      ).fetchone() or (0, 0)
        con.close()
        assert total == distinct
    if not clean_build:
        return
    clean = tmp / "clean"
    shutil.rmtree(clean, ignore_errors=True)
    shutil.copytree(root / "events", clean / "events")
    Workspace(clean).rebuild_projections()
    assert _tables(root) == _tables(clean)


@pytest.mark.slow
def test_import_killed_at_random_points_heals(tmp_path: Path) -> None:
    records = tmp_path / "records"
    shutil.copytree(EXAMPLES, records)
    reference = sorted(p.content_hash for f in sorted(records.iterdir())
                       for p in prepare_file(str(f), DEFAULT_HASH_EVERY, False, ()).pulkas)
    assert len(reference) == len(set(reference)) == 40
    rng = random.Random(13)
    killed = 0
    for n, (point, k, compact) in enumerate(TRIALS):
        root = tmp_path / f"trial{n}"
        marker = tmp_path / f"compacted{n}"
        cfg = {"point": point, "k": k, "compact": compact, "root": str(root), "records": str(records),
               "marker": str(marker)}
        proc = subprocess.Popen([sys.executable, "-c", _VICTIM, json.dumps(cfg)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            if point == "random":
                deadline = time.monotonic() + 60
                # kill during the import (a random time after the store appears), or (compact) after the
                # import's last refresh, during compaction
                delay = rng.uniform(0.0, 1.5)
                start: float | None = None
                while proc.poll() is None and time.monotonic() < deadline:
                    if start is None and (root / "events" / "_delta_log").exists():
                        start = time.monotonic()
                    if not compact and start is not None and time.monotonic() - start >= delay:
                        break
                    if compact and (root / "projections" / "manifest.json").exists() and \
                            pstore.events_version(root) is not None:
                        time.sleep(rng.uniform(0.0, 0.3))
                        break
                    time.sleep(0.02)
                if proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
            _out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)
        if proc.returncode == -signal.SIGKILL:
            killed += 1
        else:
            assert proc.returncode == 0, err   # a random kill may come after the victim finished
        if point != "random":
            assert proc.returncode == -signal.SIGKILL, f"hook {point} {k} never fired: {err}"
        stats_first = n % 2 == 0
        if stats_first:    # the next command is a read (stats heals), then a re-import; else a re-import
            Workspace(root).connect().execute("SELECT count(*) FROM pulka_results").fetchone()
            _check(root, tmp_path, reference)
        items = Workspace(root).import_paths([records], workers=1)
        assert {i.status for i in items} <= {"imported", "duplicate"}
        _check(root, tmp_path, reference, clean_build=not stats_first)
        assert _contents(Workspace(root)) == reference, f"trial {n} ({point} {k}): games lost"
    assert killed >= len([t for t in TRIALS if t[0] != "random"])
