"""Projections are derived state that heals itself (issue 13, item 1).

An import killed after its events commit but before (or while) the projections are refreshed used to
leave them empty or pending for good: a re-import reported every pulka as already stored and repaired
nothing, ``stats`` printed nothing with exit 0 and ``verify`` said clean. Now the manifest records the
event-table version the projections were found complete at and each pulka's head (the content hash of
the events its facts came from); import and every read (stats, report, sql) rebuild what lags, and
``verify`` checks the projections against the events.

The records are four seed example files from ``data/examples`` (11 pulkas); "a clean build" is
:meth:`Workspace.rebuild_projections` of a fresh copy of the same store, so the expected rows are not
hand-written but computed the other way round.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.projections import store as pstore
from preflog.workspace import Workspace

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
FILES = ["seed003-settlement.pref", "seed003-consolation.pref", "seed001-bidding.pref", "seed000-worked-deals.pref"]
PULKAS = 11  # pulkas in those files: settlement 1, consolation 6, bidding 1, worked-deals 3
runner = CliRunner()


def _records(tmp: Path) -> Path:
    d = tmp / "records"
    d.mkdir()
    for name in FILES:
        shutil.copy(EXAMPLES / name, d / name)
    return d


def _tables(root: Path) -> dict[str, pa.Table]:
    """Each projection table's rows, sorted, as read through the manifest."""
    return {t: pstore.read_table(root, t).sort_by(pstore.SORT_KEYS[t]) for t in pstore.TABLES}


def _clean_build(root: Path, tmp: Path) -> dict[str, pa.Table]:
    """The projections a from-scratch rebuild of the same events gives."""
    copy = tmp / "clean"
    shutil.copytree(root / "events", copy / "events")
    Workspace(copy).rebuild_projections()
    return _tables(copy)


def _crashed_import(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """An import whose process dies right after the events commit, before any projection is written."""
    ws = Workspace(tmp / "store")

    def killed(*_a: object, **_k: object) -> None:
        raise SystemExit("killed after the commit")

    monkeypatch.setattr(Workspace, "refresh_projections", killed)
    with pytest.raises(SystemExit):
        ws.import_paths([_records(tmp)])
    monkeypatch.undo()
    assert len(Workspace(ws.root).ids()) == PULKAS           # the events are committed …
    assert pstore.read_table(ws.root, "pulka_results").num_rows == 0   # … the projections are not
    return Workspace(ws.root)


def test_stats_after_killed_import_shows_every_pulka(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``stats players`` after the crash lists the players of all four pulkas (not an empty table), and
    the projections then equal a clean build."""
    ws = _crashed_import(tmp_path, monkeypatch)
    res = runner.invoke(app, ["stats", "players", "--format", "csv", "--store", str(ws.root)])
    assert res.exit_code == 0, res.output
    clean = _clean_build(ws.root, tmp_path)
    players = set(clean["pulka_results"]["player"].to_pylist())
    assert len(players) >= 3
    assert {line.split(",")[0] for line in res.output.splitlines()[1:]} == players
    assert _tables(ws.root) == clean


def test_reimport_after_killed_import_repairs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-importing the same files reports every pulka as a duplicate — and still repairs the projections."""
    ws = _crashed_import(tmp_path, monkeypatch)
    items = ws.import_paths([tmp_path / "records"])
    assert [i.status for i in items] == ["duplicate"] * PULKAS
    assert sorted(pstore.read_manifest(ws.root)) == sorted(ws.ids())
    assert _tables(ws.root) == _clean_build(ws.root, tmp_path)


def test_verify_reports_lagging_projections_then_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``verify`` after the crash exits 1 naming each unprojected pulka; after a read healed them it is clean."""
    ws = _crashed_import(tmp_path, monkeypatch)
    res = runner.invoke(app, ["verify", "--store", str(ws.root)])
    assert res.exit_code == 1
    assert res.output.count("not projected") == PULKAS
    ws.connect()
    res = runner.invoke(app, ["verify", "--store", str(ws.root)])
    assert res.exit_code == 0, res.output


def test_refresh_killed_midway_heals_pending(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refresh killed after its first segment file (pulkas marked pending) is completed by the next read."""
    ws = Workspace(tmp_path / "store")
    real = pstore._write_atomic
    calls: list[Path] = []

    def dies(path: Path, table: pa.Table) -> str:
        calls.append(path)
        if len(calls) == 2:
            raise SystemExit("killed mid-refresh")
        return real(path, table)

    monkeypatch.setattr(pstore, "_write_atomic", dies)
    with pytest.raises(SystemExit):
        ws.import_paths([_records(tmp_path)])
    monkeypatch.undo()
    assert set(pstore.read_manifest(ws.root).values()) == {pstore.PENDING}
    healed = Workspace(ws.root).heal_projections()
    assert healed == sorted(ws.ids())
    assert _tables(ws.root) == _clean_build(ws.root, tmp_path)


def test_current_projections_cost_no_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the manifest names the current table version, a read does not list the store's pulkas."""
    ws = Workspace(tmp_path / "store")
    ws.import_paths([_records(tmp_path)])
    assert pstore.events_version(ws.root) == ws.store().version()  # type: ignore[attr-defined]
    fresh = Workspace(ws.root)

    def no_scan() -> None:
        raise AssertionError("heads scanned although the projections are current")

    monkeypatch.setattr(type(fresh.store()), "pulkas", no_scan)
    assert fresh.heal_projections() == []


def test_lost_projection_file_is_rebuilt(tmp_path: Path) -> None:
    """A deleted projection file is reported by verify and rebuilt (its segment's pulkas) by the next read."""
    ws = Workspace(tmp_path / "store")
    ws.import_paths([_records(tmp_path)])
    before = _tables(ws.root)
    pstore.table_files(ws.root, "player_deals")[0].unlink()
    assert any("is missing" in p.detail for p in Workspace(ws.root).verify())
    assert sorted(Workspace(ws.root).heal_projections()) == sorted(ws.ids())
    assert _tables(ws.root) == before
    assert Workspace(ws.root).verify() == []


def test_edited_projection_file_fails_verify(tmp_path: Path) -> None:
    """A projection file rewritten by hand (one row dropped, valid Parquet) no longer matches the SHA-256
    the manifest recorded: verify names it."""
    import pyarrow.parquet as pq

    ws = Workspace(tmp_path / "store")
    ws.import_paths([_records(tmp_path)])
    assert ws.verify() == []
    [path] = pstore.table_files(ws.root, "pulka_results")
    t = pq.read_table(path)
    pq.write_table(t.slice(1), path)
    problems = ws.verify()
    assert [p.kind for p in problems] == ["projection"]
    assert str(path) in problems[0].detail and "SHA-256" in problems[0].detail


def test_read_during_a_live_import_leaves_its_pulkas_to_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While an import is in progress (its mark held), a read does not replay the pulkas it has committed
    but not yet projected — that import does so when it ends; once the mark is gone (the import ended or
    was killed) the next read heals them."""
    ws = _crashed_import(tmp_path, monkeypatch)
    fd = pstore.import_begins(ws.root)
    try:
        assert pstore.import_running(ws.root)
        assert Workspace(ws.root).heal_projections() == []
        assert pstore.read_table(ws.root, "pulka_results").num_rows == 0
    finally:
        pstore.import_ends(fd)
    assert not pstore.import_running(ws.root)
    assert len(Workspace(ws.root).heal_projections()) == PULKAS
