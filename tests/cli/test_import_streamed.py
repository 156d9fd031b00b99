"""The streamed import (``Workspace.import_each``) decides duplicates and ids as the list form did, now
from the store's compact head index and the run's uncommitted pulkas: a duplicate inside one run
(before and after its first copy is committed), a duplicate of a stored pulka, an id that a stored
pulka holds, the file-name ids ``-2``, ``-3`` of one file, a refused file between others; on one
process and on two workers, with a commit after every file or one for the whole run. It hands the
items out in file order, the same as ``import_paths`` returns them, and its counts add them up."""

from __future__ import annotations

from pathlib import Path

import pytest

from preflog.importer import prepare
from preflog.importer import session
from preflog.model.events import PulkaStarted
from preflog.record.api import write_text
from preflog.workspace import ImportItem
from preflog.workspace import Workspace

from ..randomplay import random_pulka


def _text(seed: int, pid: str | None = None) -> str:
    events = random_pulka("sochi", ("Anna", "Boris", "Vera"), 2, seed=seed)
    if pid is not None:
        s = events[0]
        assert isinstance(s, PulkaStarted)
        events[0] = PulkaStarted(s.players, s.rules, s.overrides, s.pool, s.whist_price, (("id", pid), *s.meta))
    return write_text(events)


def _stored_first(root: Path) -> Path:
    """The first run's folder: ``club`` (tagged, seed 1) and ``game`` (untagged file game.pref, seed 2)."""
    first = root / "first"
    first.mkdir()
    (first / "club.pref").write_text(_text(1, "club"), encoding="utf-8")
    (first / "game.pref").write_text(_text(2), encoding="utf-8")
    return first


def _second(root: Path) -> Path:
    """The second run's folder, in name order:

    * a.pref: seed 1 tagged ``club`` (a duplicate of the stored ``club``), then seed 10 tagged ``club`` (the id
      is stored: it becomes ``club-<its content hash's low 24 bits>``);
    * b.pref: a misspelt card, refused whole;
    * game.pref: three untagged pulkas, seeds 11, 12, 13: ``game`` is stored (``game-<hash>``), then
      ``game-2``, ``game-3``;
    * h.pref: seed 11 again (a duplicate inside this run of ``game-<hash>``), then seed 14 twice (the
      second a duplicate of the first, inside the file).
    """
    second = root / "second"
    second.mkdir()
    (second / "a.pref").write_text(_text(1, "club") + "\n" + _text(10, "club"), encoding="utf-8")
    bad = _text(5).splitlines()
    i = next(k for k, line in enumerate(bad) if line.startswith("1: "))
    bad[i] = "1: Xh" + bad[i][bad[i].index(" ", 3):]
    (second / "b.pref").write_text("\n".join(bad) + "\n", encoding="utf-8")
    (second / "game.pref").write_text("\n".join(_text(s) for s in (11, 12, 13)), encoding="utf-8")
    (second / "h.pref").write_text("\n".join(_text(s) for s in (11, 14, 14)), encoding="utf-8")
    return second


def _suffixed(ws: Workspace, pid: str, like: str) -> str:
    """``pid`` as stored under ``like-<low 24 bits of its content hash>``."""
    (info,) = [i for i in ws.store().pulkas() if i.pulka.startswith(like + "-") and len(i.pulka) == len(like) + 7
               and i.pulka != pid]
    assert info.pulka == f"{like}-{info.content_hash & 0xFFFFFF:06x}"
    return info.pulka


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("chunk", [1, 2000])
def test_duplicates_and_ids_streamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int,
                                     chunk: int) -> None:
    monkeypatch.setattr(session, "IMPORT_CHUNK", chunk)  # 1: a commit after every file
    monkeypatch.setattr(prepare, "PARALLEL_MIN_BYTES", 0)  # small files: the pool all the same
    ws = Workspace(tmp_path / "st")
    first = ws.import_paths([_stored_first(tmp_path)], workers=workers)
    assert [(i.pulka, i.status) for i in first] == [("club", "imported"), ("game", "imported")]

    got: list[ImportItem] = []
    counts = Workspace(tmp_path / "st").import_each([_second(tmp_path)], got.append, workers=workers)
    ws = Workspace(tmp_path / "st")
    club2, game1 = _suffixed(ws, "", "club"), _suffixed(ws, "", "game")
    second = tmp_path / "second"
    assert [(Path(i.source).name, i.pulka, i.status) for i in got] == [
        ("a.pref", "club", "duplicate"),
        ("a.pref", club2, "imported"),
        ("b.pref", "", "error"),
        ("game.pref", game1, "imported"),
        ("game.pref", "game-2", "imported"),
        ("game.pref", "game-3", "imported"),
        ("h.pref", game1, "duplicate"),
        ("h.pref", "h-2", "imported"),
        ("h.pref", "h-2", "duplicate"),
    ]
    assert "b.pref" in got[2].error and got[2].source == str(second / "b.pref")
    assert (counts.files, counts.imported, counts.duplicate, counts.errors) == (4, 5, 3, 1)
    assert counts.deals == sum(i.deals for i in got if i.status == "imported") == 10
    assert sorted(i.pulka for i in ws.store().pulkas()) == sorted(["club", "game", club2, game1, "game-2", "game-3",
                                                                   "h-2"])
    # the same run again: every pulka a duplicate of what holds it, the bad file refused again
    again = Workspace(tmp_path / "st").import_paths([second], workers=workers)
    assert [(i.pulka, i.status) for i in again] == [
        ("club", "duplicate"), (club2, "duplicate"), ("", "error"), (game1, "duplicate"), ("game-2", "duplicate"),
        ("game-3", "duplicate"), (game1, "duplicate"), ("h-2", "duplicate"), ("h-2", "duplicate")]


def test_import_paths_is_the_stream_collected(tmp_path: Path) -> None:
    """The list form returns exactly the streamed items, in the same order (a fresh store each)."""
    second = _second(tmp_path)
    streamed: list[ImportItem] = []
    Workspace(tmp_path / "one").import_each([second], streamed.append, workers=1)
    listed = Workspace(tmp_path / "two").import_paths([second], workers=1)
    assert listed == streamed and len(listed) == 9


def _many(root: Path, good: int, bad: int) -> Path:
    """``good`` files of one pulka each (g00.pref …) and ``bad`` files holding no pulka (x00.pref …)."""
    root.mkdir()
    for k in range(good):
        (root / f"g{k:02d}.pref").write_text(_text(100 + k), encoding="utf-8")
    for k in range(bad):
        (root / f"x{k:02d}.pref").write_text("no tags here\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("details", [False, True])
def test_the_command_prints_what_it_printed_before(tmp_path: Path, details: bool) -> None:
    """``preflog import`` streams and keeps only what it prints. 22 good files and 22 without a pulka: 44
    items, more than the 20 rows a table shows, so the counts alone and the first 20 errors, then a line
    for the 2 more; with ``--details`` every row and all 22 errors (what the list form printed). With
    ``--json`` every item, counted."""
    from typer.testing import CliRunner

    from preflog.cli.app import app

    folder = _many(tmp_path / "in", 22, 22)
    runner = CliRunner()
    res = runner.invoke(app, ["import", str(folder), "--store", str(tmp_path / "st"), "--workers", "1",
                              *(["--details"] if details else [])])
    assert res.exit_code == 2
    out = res.output
    assert "44 files: 22 imported, 0 already stored, 22 files with errors" in out.replace("\n", " ")
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    if details:
        assert "(one row per pulka: --details)" not in out and out.count("imported") >= 22
        assert len(errors) == 22 and "more files with errors" not in out
    else:
        assert "(one row per pulka: --details)" in out and "g00" not in out
        assert len(errors) == 21 and errors[-1].endswith("… and 2 more files with errors (--details lists them all)")
        assert all("x" in e and ".pref" in e for e in errors[:20]), errors[:2]
    res = runner.invoke(app, ["import", str(folder), "--store", str(tmp_path / "st2"), "--workers", "1", "--json"])
    import json

    doc = json.loads(res.stdout)
    assert (doc["files"], doc["imported"], doc["errors"], len(doc["items"])) == (44, 22, 22, 44)
