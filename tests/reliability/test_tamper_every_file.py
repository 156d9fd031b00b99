"""Every file kind of a store, tampered: nothing changes silently.

The store: three imports (1 + 3 + 3 pulkas), a compaction (a commit that removes and adds files), a Delta
checkpoint, the projections, the witness; signed with the club's key. Each case damages one file in one
way on its own copy, then runs ``preflog verify --deep --json`` with the key. The property, for every
case: verify says so (exit 1 with findings, or exit 2 with a JSON ``error``), or the store still holds
exactly what it held (the same pulkas with the same content hashes, and the projections what the events
give): never a traceback, never a clean verify over changed content.

Kinds: each ``_delta_log`` commit deleted, truncated, emptied, replaced by another commit, swapped with the
one before it; the checkpoint and ``_last_checkpoint`` deleted, truncated, overwritten, a byte flipped,
emptied, the checkpoint replaced by a data file; each data file truncated, deleted, overwritten at its
size, a byte flipped, rewritten with one value changed, a column renamed in its footer; each projection file and
member file changed, deleted; the manifest truncated, an SHA-256 in it changed; the witness deleted,
truncated, its digest changed; each heads record damaged; each table setting dropped or changed; the key
wrong, or a key file that is no key. The short run takes the first and last file of each kind; the long
run (``PREFLOG_RELIABILITY=long``) every file, on an unkeyed store too.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from deltalake import DeltaTable
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.workspace import KEY_FILE_ENV
from preflog.workspace import Workspace

from .conftest import COUNTS
from .conftest import LONG
from .tampering import KEY
from .tampering import THIRD
from .tampering import build_store
from .tampering import commit_file
from .tampering import commit_lines
from .tampering import key_env
from .tampering import last_version
from .tampering import set_heads_record
from .tampering import write_commit

runner = CliRunner()
Tamper = Callable[[Path], dict[str, str] | None]  # damages the store at the path; extra env for verify, or None


def _base(root: Path, key: str | None) -> Path:
    build_store(root, key)
    with key_env(key):
        ws = Workspace(root)
        assert {i.status for i in ws.import_paths([THIRD], workers=1)} == {"imported"}
        ws.store().compact(vacuum_retention_hours=None)  # type: ignore[call-arg]
    DeltaTable(str(root / "events")).create_checkpoint()
    return root


def _content(root: Path, key: str | None) -> list[tuple[str, int]]:
    with key_env(key):
        return sorted((i.pulka, i.content_hash) for i in Workspace(root).store().pulkas())


# --- the tamperings -------------------------------------------------------------------------------------
def _truncate(f: Path) -> None:
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])


def _overwrite(f: Path) -> None:
    f.write_bytes(b"x" * f.stat().st_size)


def _flip(f: Path) -> None:
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0x5A
    f.write_bytes(bytes(data))


def _empty(f: Path) -> None:
    f.write_bytes(b"")


def _rename_column(f: Path) -> None:
    """One flipped byte in the footer: the column ``code`` named ``codE`` (issue 38: SQL read NULLs)."""
    data = bytearray(f.read_bytes())
    data[data.index(b"code") + 3] ^= 0x20
    f.write_bytes(bytes(data))


def _edit_value(f: Path) -> None:
    """The file rewritten whole with one event's ``value`` changed (a valid Parquet file, same columns)."""
    t = pq.read_table(f)
    values = t["value"].to_pylist()
    values[len(values) // 2] += 1
    pq.write_table(t.set_column(t.schema.get_field_index("value"), "value", pa.array(values, pa.int64())), f)


def _swap(a: Path, b: Path, both: bool) -> Tamper:
    """File ``a`` given ``b``'s bytes (and, ``both``, ``b`` given ``a``'s)."""
    def run(r: Path) -> None:
        da, db = (r / a).read_bytes(), (r / b).read_bytes()
        (r / a).write_bytes(db)
        if both:
            (r / b).write_bytes(da)
    return run  # type: ignore[return-value]


def _files(root: Path, pattern: str) -> list[Path]:
    return sorted(p for p in root.glob(pattern) if p.is_file())


def _pick(files: list[Path]) -> list[Path]:
    return files if LONG or len(files) <= 2 else [files[0], files[-1]]


def cases(root: Path) -> dict[str, Tamper]:
    """Name → tampering, for the store at ``root`` (built already: the files are listed from it)."""
    out: dict[str, Tamper] = {}
    ev, pr = root / "events", root / "projections"

    def rel(p: Path) -> Path:
        return p.relative_to(root)

    def on(path: Path, how: Callable[[Path], None]) -> Tamper:
        def run(r: Path) -> None:
            how(r / path)
        return run  # type: ignore[return-value]

    commits = sorted(p for p in (ev / "_delta_log").glob("*.json"))
    for c in _pick(commits):
        v = int(c.stem)
        out[f"commit {v} deleted"] = on(rel(c), Path.unlink)
        out[f"commit {v} truncated"] = on(rel(c), _truncate)
        out[f"commit {v} emptied"] = on(rel(c), _empty)
        other = commits[v - 1 if v else 1]
        out[f"commit {v} replaced by commit {int(other.stem)}"] = _swap(rel(c), rel(other), both=False)
        if v:
            out[f"commit {v} swapped with commit {v - 1}"] = _swap(rel(c), rel(commits[v - 1]), both=True)
    for f in _files(ev / "_delta_log", "*.checkpoint.parquet") + [ev / "_delta_log" / "_last_checkpoint"]:
        for how in (Path.unlink, _truncate, _overwrite, _flip, _empty):
            out[f"{f.name} {how.__name__.strip('_')}"] = on(rel(f), how)
    live = [Path(u.removeprefix("file://")) for u in DeltaTable(str(ev)).file_uris()]
    for f in _files(ev / "_delta_log", "*.checkpoint.parquet"):
        out[f"{f.name} replaced by data file"] = _swap(rel(f), rel(live[0]), both=False)
    for f in _pick(sorted(set(_files(ev, "*.parquet")) | set(live))):
        for how in (Path.unlink, _truncate, _overwrite, _flip, _edit_value, _rename_column):
            out[f"data file {f.name[:14]} {'live' if f in live else 'removed'} {how.__name__.strip('_')}"] = \
                on(rel(f), how)
    for kind in ("deals", "player_deals", "pulka_results", "members"):
        for f in _pick(_files(pr / kind, "*")):
            for how in (Path.unlink, _flip):
                out[f"projection {kind}/{f.name} {how.__name__.strip('_')}"] = on(rel(f), how)
    out["manifest truncated"] = on(rel(pr / "manifest.json"), _truncate)
    out["manifest deleted"] = on(rel(pr / "manifest.json"), Path.unlink)

    def manifest_sha(r: Path) -> None:
        m = json.loads((r / "projections" / "manifest.json").read_text())
        seg = next(iter(m["files"]["deals"]))
        m["files"]["deals"][seg][1] = "0" * 64
        (r / "projections" / "manifest.json").write_text(json.dumps(m))
    out["manifest SHA-256 changed"] = manifest_sha  # type: ignore[assignment]
    witness = rel(ev / "_preflog.witness")
    out["witness deleted"] = on(witness, Path.unlink)
    out["witness truncated"] = on(witness, _truncate)

    def witness_digest(r: Path) -> None:
        w = json.loads((r / witness).read_text())
        w["digest"] = "0" * 16
        (r / witness).write_text(json.dumps(w))
    out["witness digest changed"] = witness_digest  # type: ignore[assignment]
    appends = [int(c.stem) for c in commits if '"preflog.heads"' in c.read_text()]
    for v in _pick([Path(str(a)) for a in appends]):
        for bad in ('{"x": 5}', "[]", "{", '{"x": [1, 2, 3]}'):
            out[f"heads record of commit {v} = {bad}"] = \
                lambda r, v=int(str(v)), bad=bad: set_heads_record(r, v, bad)  # type: ignore[misc]

    def setting(name: str, value: str | None) -> Tamper:
        def run(r: Path) -> None:
            v = last_version(r)
            meta = next(a["metaData"] for a in commit_lines(r, 0) if "metaData" in a)
            assert isinstance(meta, dict)
            conf = dict(meta["configuration"])
            if value is None:
                conf.pop(name)
            else:
                conf[name] = value
            write_commit(r, v + 1, [{"commitInfo": {"timestamp": 1, "operation": "SET TBLPROPERTIES"}},
                                    {"metaData": {**meta, "configuration": conf}}])
        return run  # type: ignore[return-value]
    for name in ("preflog.headsLog", "preflog.hashEvery", "preflog.schemaVersion"):
        out[f"setting {name} dropped"] = setting(name, None)
    out["setting preflog.headsLog = 0"] = setting("preflog.headsLog", "0")
    out["setting preflog.hashEvery = 1"] = setting("preflog.hashEvery", "1")
    out["key wrong"] = lambda r: {"PREFLOG_KEY": "another key"}
    out["key file a folder"] = lambda r: {"PREFLOG_KEY": "", KEY_FILE_ENV: str(r)}
    out["key file /dev/zero"] = lambda r: {"PREFLOG_KEY": "", KEY_FILE_ENV: "/dev/zero"}
    return out


STORES = [KEY, None] if LONG else [KEY]
KINDS = ("commit 0 deleted", "swapped", "emptied", "checkpoint.parquet", "_last_checkpoint", "replaced by data file",
         "data file", "rename_column", "projection deals", "projection members", "manifest", "witness",
         "heads record", "setting", "key wrong", "key file")


def _short(all_cases: dict[str, Tamper]) -> dict[str, Tamper]:
    """The short run's sample: of each group of cases (by first word: commits, data files, …) the first,
    middle and last, and every way of damage (by first and last word) once."""
    groups: dict[str, list[str]] = {}
    ways: dict[tuple[str, str], str] = {}
    for name in all_cases:
        groups.setdefault(name.split()[0], []).append(name)
        ways.setdefault((name.split()[0], name.split()[-1]), name)
    keep = {g[i] for g in groups.values() for i in {0, len(g) // 2, len(g) - 1}} | set(ways.values())
    return {name: t for name, t in all_cases.items() if name in keep}


@pytest.mark.parametrize("key", STORES, ids=lambda k: "keyed" if k else "unkeyed")
def test_every_file_kind_tampered_is_reported_or_harmless(key: str | None, tmp_path: Path) -> None:
    base = _base(tmp_path / "base", key)
    assert commit_file(base, last_version(base)).exists()
    before = _content(base, key)
    all_cases = cases(base)
    names = " | ".join(all_cases)
    assert all(kind in names for kind in KINDS), [kind for kind in KINDS if kind not in names]
    run = all_cases if LONG else _short(all_cases)
    silent: list[str] = []
    for n, (name, tamper) in enumerate(run.items()):
        root = tmp_path / f"c{n}"
        shutil.copytree(base, root)
        got = tamper(root)
        env = dict(got) if isinstance(got, dict) else {}
        with key_env(env.pop("PREFLOG_KEY", key) or None):
            res = runner.invoke(app, ["verify", "--deep", "--json", "--store", str(root)], env={"COLUMNS": "80", **env})
        assert isinstance(res.exception, SystemExit) or res.exception is None, f"{name}: {res.exception!r}"
        doc = json.loads(res.stdout)  # JSON on every exit path
        COUNTS["tamper"] += 1
        if res.exit_code == 2:
            assert doc["error"], name
        elif res.exit_code == 1:
            assert doc["problems"], name
        else:
            assert res.exit_code == 0 and doc["clean"], name
            if _content(root, key) != before:
                silent.append(name)
        shutil.rmtree(root)
    assert not silent, f"changed without a finding: {silent}"
