"""Bulk import on worker processes gives exactly what an import in one process gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from preflog.importer import prepare
from preflog.model.events import PulkaStarted
from preflog.projections.store import SORT_KEYS
from preflog.projections.store import TABLES
from preflog.projections.store import each_member
from preflog.projections.store import read_table
from preflog.record.api import write_text
from preflog.workspace import Workspace

from ..randomplay import random_pulka

PLAYERS = ("Anna", "Boris", "Vera")


def _pulka(spec: str, seed: int, deals: int = 3, pid: str | None = None) -> str:
    events = random_pulka(spec, PLAYERS, deals, seed=seed)
    if pid is not None:
        s = events[0]
        assert isinstance(s, PulkaStarted)
        events[0] = PulkaStarted(s.players, s.rules, s.overrides, s.pool, s.whist_price, (("id", pid), *s.meta))
    return write_text(events)


def _folder(root: Path) -> dict[str, int]:
    """Seven record files in name order, and the pulkas each should import:

    * a.pref — two untagged pulkas (ids ``a``, ``a-2``);
    * b.pref — tagged ``shared`` and ``b1``;
    * c.pref — a misspelt card: refused whole (0);
    * d.pref — the same content as a.pref's first pulka, then the same pulka twice: all duplicates (0);
    * e.pref — another pulka tagged ``shared``: its id gets the content-hash suffix (1);
    * f.pref, g.pref — Leningrad and Rostov, untagged (1 each).
    """
    root.mkdir()
    a1, a2 = _pulka("sochi", 1), _pulka("sochi", 2)
    (root / "a.pref").write_text(a1 + "\n" + a2, encoding="utf-8")
    (root / "b.pref").write_text(_pulka("sochi", 3, pid="shared") + "\n" + _pulka("sochi", 4, pid="b1"),
                                 encoding="utf-8")
    bad = _pulka("sochi", 5).splitlines()
    i = next(k for k, line in enumerate(bad) if line.startswith("1: "))
    bad[i] = "1: Xh" + bad[i][bad[i].index(" ", 3):]
    (root / "c.pref").write_text("\n".join(bad) + "\n", encoding="utf-8")
    (root / "d.pref").write_text(a1 + "\n" + _pulka("sochi", 6) + "\n" + _pulka("sochi", 6), encoding="utf-8")
    (root / "e.pref").write_text(_pulka("sochi", 7, pid="shared"), encoding="utf-8")
    (root / "f.pref").write_text(_pulka("leningrad", 8), encoding="utf-8")
    (root / "g.pref").write_text(_pulka("rostov", 9), encoding="utf-8")
    return {"a": 2, "b": 2, "c": 0, "d": 1, "e": 1, "f": 1, "g": 1}


def _snapshot(ws: Workspace) -> tuple[list[tuple[object, ...]], dict[str, list[dict[str, object]]]]:
    rows = [tuple(r) for batch in ws.store().read_rows() for r in batch]
    proj = {t: read_table(ws.root, t).sort_by(SORT_KEYS[t]).to_pylist() for t in TABLES}
    return rows, proj


@pytest.mark.slow
def test_workers_store_the_same_as_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder of :func:`_folder` imported by 2 worker processes and in this process: the same
    items (ids, statuses, findings, errors), the same stored rows (pulka ids, seq, events, hashes)
    and the same projection rows. The misspelt file alone is refused; d.pref's first pulka (a.pref's
    content) and its repeated pulka are duplicates, its middle one is new (hence ``d: 1``)."""
    folder = tmp_path / "records"
    expected = _folder(folder)
    monkeypatch.setattr(prepare, "PARALLEL_MIN_BYTES", 0)  # the folder is small: force the pool
    used: list[bool] = []
    real = prepare.use_pool
    monkeypatch.setattr(prepare, "use_pool", lambda files, workers: used.append(real(files, workers)) or used[-1])

    one, two = Workspace(tmp_path / "one"), Workspace(tmp_path / "two")
    seen: list[tuple[int, int]] = []
    items1 = one.import_paths([folder], workers=1)
    items2 = two.import_paths([folder], workers=2, progress=lambda d, t: seen.append((d, t)))
    assert used == [False, True]
    assert seen == [(k, 7) for k in range(1, 8)]
    assert items1 == items2

    imported = {Path(i.source).stem: 0 for i in items2}
    for i in items2:
        imported[Path(i.source).stem] += i.status == "imported"
    assert imported == expected
    [err] = [i for i in items2 if i.status == "error"]
    assert Path(err.source).name == "c.pref" and "'Xh'" in err.error
    assert [i.status for i in items2 if Path(i.source).stem == "d"] == ["duplicate", "imported", "duplicate"]
    ids = sorted(i.pulka for i in items2 if i.status == "imported")
    assert ids[:5] == ["a", "a-2", "b1", "d-2", "f"] and ids[5] == "g" and len(ids) == 8
    assert "shared" in ids[6:] and any(p.startswith("shared-") and len(p) == 13 for p in ids[6:])
    assert sum(i.deals for i in items2 if i.status == "imported") == 8 * 3

    rows1, proj1 = _snapshot(one)
    rows2, proj2 = _snapshot(two)
    assert rows1 == rows2 and len({r[0] for r in rows2}) == 8
    assert proj1 == proj2
    assert sorted({r["pulka"] for r in proj2["pulka_results"]}) == ids
    assert len(proj2["deals"]) == 8 * 3


@pytest.mark.slow
def test_workers_second_import_is_all_duplicates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing the folder again on workers stores nothing new: every readable pulka is a
    duplicate of a stored one (10 readable pulkas: 2 + 2 + 3 + 1 + 1 + 1), c.pref still errs."""
    folder = tmp_path / "records"
    _folder(folder)
    monkeypatch.setattr(prepare, "PARALLEL_MIN_BYTES", 0)
    ws = Workspace(tmp_path / "st")
    ws.import_paths([folder], workers=2)
    before = _snapshot(ws)
    again = Workspace(tmp_path / "st").import_paths([folder], workers=2)
    assert [i.status for i in again].count("duplicate") == 10
    assert [i.status for i in again].count("error") == 1
    assert _snapshot(Workspace(tmp_path / "st")) == before


def test_small_imports_stay_in_process(tmp_path: Path) -> None:
    """Below the size threshold, or with one file, no worker is started."""
    folder = tmp_path / "records"
    _folder(folder)
    files = sorted(folder.iterdir())
    assert sum(f.stat().st_size for f in files) < prepare.PARALLEL_MIN_BYTES
    assert not prepare.use_pool(files, 2)
    assert not prepare.use_pool(files[:1], 2)
    assert not prepare.use_pool(files, 1)


def test_worker_projection_rows_equal_a_rebuild(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The projection rows the workers build (under their provisional ids, renamed by the parent: ``a-2``,
    the ``shared-…`` suffix) are exactly those a rebuild from the stored events writes, and so are the
    manifest's fingerprints and heads; a big file read in parts (``part1`` provisional ids) too."""
    import shutil

    folder = tmp_path / "records"
    _folder(folder)
    monkeypatch.setattr(prepare, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(prepare, "SPLIT_MIN_BYTES", 1)  # every file read in parts of one pulka
    monkeypatch.setattr(prepare, "PART_BYTES", 1)
    ws = Workspace(tmp_path / "st")
    ws.import_paths([folder], workers=2)
    shutil.copytree(tmp_path / "st" / "events", tmp_path / "clean" / "events")
    clean = Workspace(tmp_path / "clean")
    assert clean.rebuild_projections() == 8
    _rows, got = _snapshot(ws)
    _rows, want = _snapshot(clean)
    assert got == want and len(got["deals"]) == 8 * 3

    def manifest(root: Path) -> dict[str, list[object]]:
        return {pid: [fp, head] for _seg, pid, fp, head in each_member(root)}

    assert manifest(tmp_path / "st") == manifest(tmp_path / "clean")
    assert ws.verify() == []
