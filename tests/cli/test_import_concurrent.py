"""Concurrent imports (issue 13, item 9): duplicates and ids are decided inside the commit's critical
section, so two importers never store one game twice, and the one that loses a race still imports its
other pulkas.

Before, the importer read the stored content hashes once at its start: a game another import stored
meanwhile under another file name was stored a second time, and an id another import took meanwhile
made the whole commit fail with "expected last seq 0 … reload the pulka and retry".

The deterministic tests let the "other" import run inside the first one's progress callback, i.e.
after the first has read its files and before it commits. Records: seed examples from data/examples
with their ``[Id]`` lines removed (ids then come from file names) or replaced.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from preflog.workspace import Workspace

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def _write(path: Path, example: str, new_id: str | None = None) -> Path:
    """``example`` from data/examples at ``path``, its ``[Id]`` line dropped (or set to ``new_id``)."""
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    text = re.sub(r'^\[Id "[^"]*"\]\n', "" if new_id is None else f'[Id "{new_id}"]\n', text, flags=re.M)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _contents(ws: Workspace) -> list[int]:
    return [i.content_hash for i in ws.store().pulkas()]


def test_same_game_stored_meanwhile_is_a_duplicate(tmp_path: Path) -> None:
    """Import A reads a1 (the settlement example) and a2 (the bidding example); before it commits,
    import B stores the settlement example as b1. A then reports a1 as a duplicate of b1 and stores a2:
    the store holds b1 and a2, each content once, and verifies clean (projections included)."""
    root = tmp_path / "store"
    a1 = _write(tmp_path / "a" / "a1.pref", "seed003-settlement.pref")
    a2 = _write(tmp_path / "a" / "a2.pref", "seed001-bidding.pref")
    b1 = _write(tmp_path / "b" / "b1.pref", "seed003-settlement.pref")

    def other_import(done: int, total: int) -> None:
        if done == total:
            assert [i.status for i in Workspace(root).import_paths([b1], workers=1)] == ["imported"]

    items = Workspace(root).import_paths([a1, a2], progress=other_import, workers=1)
    assert [(i.pulka, i.status) for i in items] == [("b1", "duplicate"), ("a2", "imported")]
    ws = Workspace(root)
    assert ws.ids() == ["a2", "b1"]
    assert len(set(_contents(ws))) == 2
    assert ws.verify() == []


def test_id_taken_meanwhile_gives_way_and_the_rest_is_imported(tmp_path: Path) -> None:
    """Import A reads "club" (the settlement example under [Id "club"]) and a2; before it commits,
    import B stores the bidding example under [Id "club"]. A no longer fails whole: its "club" is stored
    as club-<6 hex of its content hash> and a2 as a2; three pulkas in all, verify clean."""
    root = tmp_path / "store"
    club = _write(tmp_path / "a" / "club.pref", "seed003-settlement.pref", new_id="club")
    a2 = _write(tmp_path / "a" / "a2.pref", "seed000-worked-deals.pref")
    other = _write(tmp_path / "b" / "club.pref", "seed001-bidding.pref", new_id="club")

    def other_import(done: int, total: int) -> None:
        if done == total:
            assert [i.pulka for i in Workspace(root).import_paths([other], workers=1)] == ["club"]

    items = Workspace(root).import_paths([club, a2], progress=other_import, workers=1)
    assert [i.status for i in items] == ["imported"] * 4   # club + the worked-deals file's 3 pulkas
    renamed = items[0].pulka
    assert re.fullmatch(r"club-[0-9a-f]{6}", renamed)
    ws = Workspace(root)
    assert sorted(ws.ids()) == sorted(["club", renamed, "a2", "a2-2", "a2-3"])
    assert len(set(_contents(ws))) == 5
    assert ws.verify() == []


_IMPORT = "import sys; from preflog.cli.app import main; sys.argv[0] = 'preflog'; main()"


@pytest.mark.slow
def test_two_importer_processes_store_each_game_once(tmp_path: Path) -> None:
    """Two processes import, at the same moment, the same five example files under other names
    (p-* and q-*) plus one file of their own. Both exit 0; every game is stored exactly once (each
    content hash once, 5 shared files + 2 own); both own files are stored; verify is clean."""
    shared = ["seed003-settlement.pref", "seed001-bidding.pref", "seed003-consolation.pref",
              "seed000-worked-deals.pref", "seed003-raspasy-series.pref"]
    for name in shared:
        _write(tmp_path / "p" / f"p-{name}", name)
        _write(tmp_path / "q" / f"q-{name}", name)
    _write(tmp_path / "p" / "own-p.pref", "seed003-american-help.pref")
    _write(tmp_path / "q" / "own-q.pref", "seed003-whister-shortfall.pref")
    root = tmp_path / "store"
    Workspace(root).import_paths([_write(tmp_path / "seed.pref", "seed001-leningrad-four.pref")], workers=1)
    procs = [subprocess.Popen([sys.executable, "-c", _IMPORT, "import", str(tmp_path / d), "--store", str(root)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for d in ("p", "q")]
    try:
        outs = [p.communicate(timeout=120) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, out + err
    ws = Workspace(root)
    contents = _contents(ws)
    assert len(contents) == len(set(contents))
    alone = Workspace(tmp_path / "alone")
    alone.import_paths([tmp_path / "p", tmp_path / "q", tmp_path / "seed.pref"], workers=1)
    assert sorted(contents) == sorted(_contents(alone))
    assert {"own-p", "own-q"} <= set(ws.ids())
    assert ws.verify() == []
