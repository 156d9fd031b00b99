"""A damaged file of the Delta log: found, named, read past, and repaired.

Delta keeps a table's state in its commits (``_delta_log/NNN.json``, one per version) and, to spare a
reader the replay of every commit, in checkpoints (``NNN.checkpoint.parquet``, named by
``_last_checkpoint``). A checkpoint holds nothing the commits do not: when one is damaged (cut short,
emptied, changed, replaced) the table is still whole in its commits. A last commit cut short is a commit
that was never whole: it is read as a commit a writer never made (the table ends at the version before
it), as a reader takes a commit file that is not there yet.

* :func:`log_damage` names each damaged file of the log (cheap: run when Delta cannot open the table,
  and by ``verify``).
* :func:`open_from_commits` opens the table from its commits alone, past the damaged files: a shadow of
  the table in a temporary folder whose log holds links to the readable commits (and no checkpoint),
  whose data files are links to the table's. A store so opened reads, and takes no commit.
* :func:`repair` moves the damaged files aside (into ``_preflog.damaged/`` beside the log, never
  deleted) and writes a new checkpoint from the commits.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

from deltalake import DeltaTable

from .base import parquet_damage

DAMAGED_DIR = "_preflog.damaged"   # beside _delta_log ("_": Delta and vacuum leave it alone)
LAST_CHECKPOINT = "_last_checkpoint"


class LogDamage(NamedTuple):
    """A damaged file of the log: its path, what is wrong, and its kind (``checkpoint``, ``hint`` for
    ``_last_checkpoint``, ``last commit``, ``commit``: only the first three can be read past)."""

    path: Path
    problem: str
    kind: str

    def line(self) -> str:
        return f"{self.path}: {self.problem}"


def _version_of(name: str) -> int | None:
    head = name[:20]
    return int(head) if len(head) == 20 and head.isdigit() else None


def _commit_problem(path: Path) -> str | None:
    """What makes a commit file unreadable (not every line a JSON object), None when it reads."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    except UnicodeDecodeError:
        return "is not text (changed or overwritten)"
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return "is empty"
    for n, line in enumerate(lines, 1):
        try:
            if not isinstance(json.loads(line), dict):
                raise ValueError
        except ValueError:
            cut = ", cut short" if n == len(lines) and not text.endswith("\n") else ""
            return f"is not JSON lines (line {n}{cut})"
    return None


def _checkpoint_problem(path: Path) -> str | None:
    """What makes a checkpoint unreadable as Parquet, None when its footer reads."""
    problem = parquet_damage(path)
    if problem is not None:
        return problem.replace("the table lists it as a live data file", "the log names it")
    import pyarrow.parquet as pq

    try:
        with pq.ParquetFile(path) as f:
            names = set(f.schema_arrow.names)
    except Exception as exc:   # pyarrow raises several types for a damaged footer
        return f"is not a readable Parquet file ({str(exc).strip().splitlines()[0] if str(exc).strip() else exc})"
    if not {"add", "metaData", "protocol"} <= names:
        return "is not a Delta checkpoint (replaced by another Parquet file)"
    return None


def log_damage(table: Path) -> list[LogDamage]:
    """Each damaged file of the table's log, in order: a checkpoint that is not a readable Delta
    checkpoint, a ``_last_checkpoint`` that is not JSON or names a checkpoint the log does not hold, a
    commit that is not JSON lines (``last commit`` for the one of the highest version)."""
    log = table / "_delta_log"
    try:
        names = sorted(os.listdir(log))
    except OSError:
        return []
    commits = [n for n in names if n.endswith(".json") and _version_of(n) is not None]
    out: list[LogDamage] = []
    checkpoints = [n for n in names if n.endswith(".checkpoint.parquet") and _version_of(n) is not None]
    for name in checkpoints:
        problem = _checkpoint_problem(log / name)
        if problem is not None:
            out.append(LogDamage(log / name, problem, "checkpoint"))
    if LAST_CHECKPOINT in names:
        hint = log / LAST_CHECKPOINT
        try:
            got = json.loads(hint.read_bytes())
            version = got["version"] if isinstance(got, dict) else None
            if not isinstance(version, int):
                raise ValueError
            if f"{version:020d}.checkpoint.parquet" not in checkpoints:
                out.append(LogDamage(hint, f"names the checkpoint of version {version}, which the log does not hold",
                                     "hint"))
        except (OSError, ValueError, KeyError):
            out.append(LogDamage(hint, "is not a checkpoint hint (damaged)", "hint"))
    for k, name in enumerate(commits):
        problem = _commit_problem(log / name)
        if problem is not None:
            out.append(LogDamage(log / name, problem, "last commit" if k == len(commits) - 1 else "commit"))
    return out


def _verified_checkpoints(table: Path, shadow: DeltaTable) -> list[LogDamage]:
    """The checkpoints that read but disagree with the commits (replaced by another table's, or an older
    one's): the files the table has at each checkpoint's version, by the checkpoint and by the commits."""
    log = table / "_delta_log"
    out: list[LogDamage] = []
    for name in sorted(os.listdir(log)):
        version = _version_of(name)
        if version is None or not name.endswith(".checkpoint.parquet"):
            continue
        import pyarrow.parquet as pq

        try:
            adds = pq.read_table(log / name, columns=["add"]).column("add").to_pylist()
            by_checkpoint = {Path(unquote(a["path"])).name for a in adds if a is not None}
            by_commits = {Path(u).name for u in DeltaTable(_shadow_root(shadow), version=version).file_uris()}
        except Exception:   # unreadable (log_damage names it), or its commits cleaned up by Delta: not comparable
            continue
        if by_checkpoint != by_commits:
            out.append(LogDamage(log / name, f"lists other data files than the commits up to version {version} "
                                 "(replaced or changed)", "checkpoint"))
    return out


def _shadow_root(dt: DeltaTable) -> str:
    return str(dt.table_uri).removeprefix("file://")


_SHADOWS: list[str] = []


@atexit.register
def _remove_shadows() -> None:
    for folder in _SHADOWS:
        shutil.rmtree(folder, ignore_errors=True)


def open_from_commits(table: Path, version: int | None = None, skip: set[Path] | None = None) -> DeltaTable:
    """The table opened from its commits alone (no checkpoint, none of the commit files in ``skip``): a
    read-only shadow in a temporary folder (removed when the process ends) of links to the log's commit
    files and to the table's data files."""
    folder = tempfile.mkdtemp(prefix="preflog-log-")
    _SHADOWS.append(folder)
    shadow = Path(folder)
    (shadow / "_delta_log").mkdir()
    skip = skip or set()
    for entry in os.scandir(table / "_delta_log"):
        if entry.name.endswith(".json") and _version_of(entry.name) is not None and Path(entry.path) not in skip:
            os.symlink(entry.path, shadow / "_delta_log" / entry.name)
    for entry in os.scandir(table):
        if not entry.name.startswith(("_", ".")):
            os.symlink(entry.path, shadow / entry.name)
    return DeltaTable(folder, version=version)


_SAID: set[str] = set()


def say(line: str) -> None:
    """The one line that says a table was read past its damage, on standard error (once a process: a
    command may open its store more than once)."""
    if line not in _SAID:
        _SAID.add(line)
        sys.stderr.write(f"warning: {line}\n")
        sys.stderr.flush()


class Fallback(NamedTuple):
    """A table opened past damaged log files: the table, and the one line that says so."""

    table: DeltaTable
    damage: list[LogDamage]
    line: str


def open_past_damage(table: Path, version: int | None = None) -> Fallback | None:
    """The table read from its commits when Delta cannot open it because of a damaged checkpoint, hint or
    last commit (None when no such file is damaged, or another commit is: nothing to read past)."""
    damage = log_damage(table)
    if not damage or any(d.kind == "commit" for d in damage):
        return None
    skip = {d.path for d in damage if d.kind == "last commit"}
    try:
        dt = open_from_commits(table, version, skip)
    except Exception:   # deltalake's several errors: the caller's own error names the damage
        return None
    said = "; ".join(d.line() for d in damage)
    cut = " (the cut last commit is read as not written)" if skip else ""
    return Fallback(dt, damage, f"{said}: read from the commits instead{cut}; `preflog repair` rebuilds it")


class Repaired(NamedTuple):
    """What :func:`repair` did: each damaged file moved aside (from, to, what was wrong), the version of
    the checkpoint it wrote (None: the table was not opened), and the version the witness named before it
    was moved back to the last whole append commit (None: the witness was left as it was)."""

    moved: list[tuple[Path, Path, str]]
    checkpoint: int | None
    witness_was: int | None = None
    dropped: int | None = None
    """The version of the cut last commit moved aside (the table now ends before it), else None."""


def _witness_back(table: Path, key: bytes | None) -> int | None:
    """After a cut last commit was moved aside: the witness named it, so it is moved back to the last
    append commit the log holds (the version it named is returned; None when it named one the log holds).
    Writers would otherwise refuse for good (commits missing); what the cut commit added is lost, and the
    caller says so."""
    from . import keyed
    from .delta_log import Tip
    from .delta_log import link_of

    try:
        witness = keyed.read_witness(table, None)
    except ValueError:
        return None   # a damaged witness is verify's to name
    dt = DeltaTable(str(table))
    if witness is None or witness.version <= dt.version():
        return None
    tip = Tip(-1, 0, "")
    for c in sorted(dt.history(), key=lambda c: int(c.get("version", -1))):
        try:
            tip = link_of(c, tip) or tip
        except ValueError:
            continue
    keyed.write_witness(table, keyed.Witness(max(tip.version, 0), tip.n, tip.digest), key)
    return witness.version


def repair(table: Path, key: bytes | None = None) -> Repaired:
    """Move each damaged checkpoint, hint and cut last commit of the log into :data:`DAMAGED_DIR` (a cut
    last commit held no whole commit: the table ends at the version before it), a checkpoint that lists
    other files than the commits too, then write a checkpoint of the table from its commits. A damaged
    commit before the last is left in place (it cannot be repaired here: restore the log from a backup)."""
    damage = [d for d in log_damage(table) if d.kind != "commit"]
    if any(d.kind == "last commit" for d in damage):   # the witness is written again: with the store's key only
        from .keyed import KeyMismatchError
        from .keyed import fingerprint
        from .keyed import store_seal

        sealed, given = store_seal(table, lambda: []), fingerprint(key) if key is not None else ""
        if sealed is not None and sealed != given:
            raise KeyMismatchError(table, given, sealed)
    try:
        shadow = open_from_commits(table, None, {d.path for d in damage if d.kind == "last commit"})
        damage += [d for d in _verified_checkpoints(table, shadow) if d.path not in {e.path for e in damage}]
    except Exception:
        pass   # the commits themselves do not read: only the damage found so far is moved
    moved: list[tuple[Path, Path, str]] = []
    if damage:
        aside = table / DAMAGED_DIR / time.strftime("%Y%m%dT%H%M%S")
        aside.mkdir(parents=True, exist_ok=True)
        for d in damage:
            os.replace(d.path, aside / d.path.name)
            moved.append((d.path, aside / d.path.name, d.problem))
        hint = table / "_delta_log" / LAST_CHECKPOINT
        if hint.exists() and not any(d.kind == "hint" for d in damage) and log_damage(table):
            os.replace(hint, aside / LAST_CHECKPOINT)   # it named a checkpoint moved aside
            moved.append((hint, aside / LAST_CHECKPOINT, "named a checkpoint moved aside"))
    cut = next((_version_of(d.path.name) for d in damage if d.kind == "last commit"), None)
    try:
        witness_was = _witness_back(table, key) if cut is not None else None
        dt = DeltaTable(str(table))
        dt.create_checkpoint()
        return Repaired(moved, dt.version(), witness_was, cut)
    except Exception:   # deltalake's several errors: the log still does not read (a damaged commit before the last)
        return Repaired(moved, None, None, cut)


def checkpoint_disagreements(table: Path) -> list[LogDamage]:
    """The checkpoints of the log that read but list other data files than its commits (``verify``)."""
    log = table / "_delta_log"
    if not any(n.endswith(".checkpoint.parquet") for n in os.listdir(log)):
        return []
    try:
        shadow = open_from_commits(table)
    except Exception:
        return []
    return _verified_checkpoints(table, shadow)
