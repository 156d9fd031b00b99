"""Incremental refresh: only changed pulkas are rebuilt; files are replaced atomically."""

from __future__ import annotations

from dataclasses import replace

import pyarrow.compute as pc

from preflog.projections import build, store


def _rows(tmp, table, pulka):
    t = store.read_table(tmp, table)
    return t.filter(pc.equal(t["pulka"], pulka)).to_pylist()


def test_refresh_touches_only_changed_pulka(tmp_path, p1, p2, monkeypatch):
    """After both pulkas are projected, importing p2 again with one deal fewer rebuilds p2 only:
    the builder sees p2 alone, p1's rows are identical, p2 has 2 deals (6 player rows)."""
    first = store.refresh(tmp_path, {"p1": p1, "p2": p2})
    assert first.rebuilt == ("p1", "p2")
    p1_before = {t: _rows(tmp_path, t, "p1") for t in store.TABLES}

    seen: list[str] = []
    real = build.project_many

    def spy(facts):
        facts = list(facts)
        seen.extend(f.pulka for f in facts)
        return real(facts)

    monkeypatch.setattr(build, "project_many", spy)
    p2b = replace(p2, deals=p2.deals[:2])
    res = store.refresh(tmp_path, {"p1": p1, "p2": p2b})
    assert (res.rebuilt, res.unchanged) == (("p2",), ("p1",))
    assert seen == ["p2"]
    assert {t: _rows(tmp_path, t, "p1") for t in store.TABLES} == p1_before
    assert len(_rows(tmp_path, "deals", "p2")) == 2
    assert len(_rows(tmp_path, "player_deals", "p2")) == 6
    assert store.read_manifest(tmp_path)["p2"] == p2b.fingerprint()


def test_unchanged_refresh_writes_nothing(tmp_path, p1, p2):
    """Same facts again: nothing rebuilt, the files are not replaced (same inode and mtime)."""
    store.refresh(tmp_path, {"p1": p1, "p2": p2})
    path = store.table_path(tmp_path, "deals")
    before = path.stat()
    res = store.refresh(tmp_path, {"p1": p1})
    assert not res.wrote and res.unchanged == ("p1",)
    after = path.stat()
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)


def test_remove_and_no_temp_files_left(tmp_path, p1, p2):
    """Removing p1 leaves only p2's rows and manifest entry; no temp file remains, and no file in
    projections/ other than the three tables ends in .parquet."""
    store.rebuild(tmp_path, [p1, p2])
    res = store.refresh(tmp_path, {}, removed=["p1"])
    assert res.removed == ("p1",)
    assert set(store.read_table(tmp_path, "player_deals")["pulka"].to_pylist()) == {"p2"}
    assert list(store.read_manifest(tmp_path)) == ["p2"]
    names = sorted(p.name for p in store.projections_dir(tmp_path).iterdir())
    assert names == [".lock", "deals.parquet", "manifest.json", "player_deals.parquet", "pulka_results.parquet"]


def test_tables_sorted_by_pulka(tmp_path, p1, p2):
    """Refreshing p2 then p1 still stores rows sorted by (pulka, deal, seat)."""
    store.refresh(tmp_path, {"p2": p2})
    store.refresh(tmp_path, {"p1": p1})
    t = store.read_table(tmp_path, "player_deals")
    keys = list(zip(t["pulka"].to_pylist(), t["deal"].to_pylist(), t["seat"].to_pylist(), strict=True))
    assert keys == sorted(keys) and keys[0] == ("p1", 1, 0)
