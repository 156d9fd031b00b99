"""An import worker that dies (killed, out of memory, a crash in C code) stops the import with one clear
error line naming the file not done, never a hang and never a traceback; the store holds exactly the files
committed before it, each whole (verify clean, projections equal to a clean build), and importing again
stores the rest.

The worker is killed by an environment hook: a ``sitecustomize`` on the victim's ``PYTHONPATH`` (so every
interpreter of the import loads it: the command's, the workers' and the fork server they come from) wraps
``preflog.importer.prepare.prepare_unit`` to SIGKILL its own process when it is handed the chosen file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from preflog.importer import prepare_file
from preflog.store.chain import DEFAULT_HASH_EVERY
from preflog.workspace import Workspace

from ..store.test_fault_injection import EXAMPLES
from ..store.test_fault_injection import _check
from ..store.test_fault_injection import _contents
from .conftest import COUNTS

DIE_ENV = "PREFLOG_TEST_WORKER_DIES_ON"

SITECUSTOMIZE = r"""
import os, signal
_die_on = os.environ.get("PREFLOG_TEST_WORKER_DIES_ON")
if _die_on:
    from preflog.importer import prepare

    _real = prepare.prepare_unit

    def prepare_unit(unit, *args):
        if os.path.basename(unit.source) == _die_on:
            os.kill(os.getpid(), signal.SIGKILL)
        return _real(unit, *args)

    prepare.prepare_unit = prepare_unit
"""

# the command line's import, on two workers however small the files, a commit after every file
VICTIM = r"""
import json, sys
cfg = json.loads(sys.argv[1])
from preflog.importer import prepare, session
session.IMPORT_CHUNK = 1
prepare.PARALLEL_MIN_BYTES = 0
from preflog.cli.app import main
sys.argv = ["preflog", "import", cfg["records"], "--store", cfg["root"], "--workers", "2"]
main()
"""


def _hashes(files: list[Path]) -> list[int]:
    return sorted(p.content_hash for f in files for p in prepare_file(str(f), DEFAULT_HASH_EVERY, False, ()).pulkas)


def test_a_dying_import_worker_stops_the_import_cleanly(tmp_path: Path) -> None:
    records = tmp_path / "records"
    shutil.copytree(EXAMPLES, records)
    files = sorted(records.iterdir())
    dies = files[3]  # three files before it may be committed
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(hook), *filter(None, [os.environ.get("PYTHONPATH")])]),
               COLUMNS="80", **{DIE_ENV: dies.name})
    root = tmp_path / "st"
    cfg = {"records": str(records), "root": str(root)}
    proc = subprocess.run([sys.executable, "-c", VICTIM, json.dumps(cfg)], env=env, capture_output=True,
                          text=True, timeout=240)  # a hang fails here
    COUNTS["kill"] += 1
    assert "Traceback" not in proc.stderr, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert proc.returncode == 2 and len(errors) == 1, (proc.returncode, proc.stderr)
    assert "a worker process died (killed, out of memory or a crash) before reading " in errors[0], errors[0]
    # the file named is the first not done: the one whose worker died, or one still in flight beside it
    named = [f for f in files if f"reading {f} was done" in errors[0]]
    assert len(named) == 1 and named[0] <= dies, errors[0]
    before = [f for f in files if f < named[0]]
    # not half-written: exactly the files before the one named, each whole, verify clean, projections level
    assert _contents(Workspace(root)) == _hashes(before)
    if before:
        _check(root, tmp_path, _hashes(files))
    else:  # the first file was not done: a run that stored nothing leaves no store behind
        assert not Workspace(root).exists()
    # importing again (no hook) stores the rest
    Workspace(root).import_paths([records], workers=1)
    assert _contents(Workspace(root)) == _hashes(files)
    _check(root, tmp_path, _hashes(files))
