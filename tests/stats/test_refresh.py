"""Incremental refresh: only changed pulkas are rebuilt; files are replaced atomically."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pyarrow.compute as pc

from preflog.projections import build
from preflog.projections import store


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
    [path] = store.table_files(tmp_path, "deals")
    before = path.stat()
    res = store.refresh(tmp_path, {"p1": p1})
    assert not res.wrote and res.unchanged == ("p1",)
    after = path.stat()
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)


def _segs(files):
    """Segment numbers of segment files (``seg-000001-g000004.parquet`` → 1)."""
    return [int(f.name[4:10]) for f in files]


def test_remove_and_no_temp_files_left(tmp_path, p1, p2, monkeypatch):
    """Removing p1 leaves only p2's rows and manifest entry; no temp file remains: projections/ holds
    the manifest, the lock, one folder per table, each with only its segment file, and the members
    folder with the segment's member file and the index run (superseded files are kept for readers for
    RETAIN_SECONDS, here 0)."""
    monkeypatch.setattr(store, "RETAIN_SECONDS", 0.0)
    store.rebuild(tmp_path, [p1, p2])
    res = store.refresh(tmp_path, {}, removed=["p1"])
    assert res.removed == ("p1",)
    assert set(store.read_table(tmp_path, "player_deals")["pulka"].to_pylist()) == {"p2"}
    assert list(store.read_manifest(tmp_path)) == ["p2"]
    names = sorted(p.name for p in store.projections_dir(tmp_path).iterdir())
    assert names == [".lock", "deals", "manifest.json", "members", "player_deals", "pulka_results"]
    members = sorted(f.name for f in (store.projections_dir(tmp_path) / store.MEMBERS).iterdir())
    assert [n.split("-")[0] for n in members] == ["index", "seg"] and _segs([Path(members[1])]) == [0]
    for table in store.TABLES:
        [listed] = store.table_files(tmp_path, table)
        assert _segs([listed]) == [0]
        assert [f.name for f in (store.projections_dir(tmp_path) / table).iterdir()] == [listed.name]


def test_tables_sorted_by_pulka(tmp_path, p1, p2):
    """Refreshing p2 then p1 still stores rows sorted by (pulka, deal, seat)."""
    store.refresh(tmp_path, {"p2": p2})
    store.refresh(tmp_path, {"p1": p1})
    t = store.read_table(tmp_path, "player_deals")
    keys = list(zip(t["pulka"].to_pylist(), t["deal"].to_pylist(), t["seat"].to_pylist(), strict=True))
    assert keys == sorted(keys) and keys[0] == ("p1", 1, 0)


# --- segments: a refresh rewrites only the segments of the pulkas it touches --------------------------
def _copies(p1, p2, n):
    """n pulkas q1…qn: copies of p1 (odd) and p2 (even) under new ids (5 and 3 deals)."""
    return {f"q{i}": replace(p1 if i % 2 else p2, pulka=f"q{i}") for i in range(1, n + 1)}


def _stamps(tmp):
    """(table, segment) → (file name, inode, mtime) of the files the manifest lists."""
    return {(t, _segs([f])[0]): (f.name, f.stat().st_ino, f.stat().st_mtime_ns)
            for t in store.TABLES for f in store.table_files(tmp, t)}


def test_segments_fill_in_order_and_refresh_touches_one(tmp_path, p1, p2, monkeypatch):
    """Two pulkas a segment: q1…q5 go to segments 0,0,1,1,2. Changing q1 rewrites segment 0 only
    (the files of segments 1 and 2 keep inode and mtime); a new q6 fills the tail segment 2; a new
    q7 opens segment 3. Row counts stay 5 per odd and 3 per even pulka: q1…q7 → 4·5 + 3·3 = 29 deals."""
    monkeypatch.setattr(store, "SEGMENT_PULKAS", 2)
    facts = _copies(p1, p2, 5)
    res = store.refresh(tmp_path, facts)
    assert res.segments == (0, 1, 2)
    assert store.segment_of(tmp_path) == {"q1": 0, "q2": 0, "q3": 1, "q4": 1, "q5": 2}
    before = _stamps(tmp_path)

    res = store.refresh(tmp_path, {"q1": replace(facts["q1"], deals=facts["q1"].deals[:4])})
    assert (res.rebuilt, res.segments) == (("q1",), (0,))
    after = _stamps(tmp_path)
    assert {k for k in before if before[k] != after[k]} == {(t, 0) for t in store.TABLES}

    more = _copies(p1, p2, 7)
    res = store.refresh(tmp_path, {"q6": more["q6"]})
    assert res.segments == (2,)
    res = store.refresh(tmp_path, {"q7": more["q7"]})
    assert res.segments == (3,)
    deals = store.read_table(tmp_path, "deals")
    assert deals.num_rows == 4 + 5 + 3 + 5 + 3 + 3 + 5   # q1 now has 4 deals
    assert len(store.table_files(tmp_path, "deals")) == 4


def test_emptied_segment_is_deleted(tmp_path, p1, p2, monkeypatch):
    """Removing both pulkas of segment 1 deletes its three files (once retired for RETAIN_SECONDS, here
    0) and the manifest stops listing it; the reports see the other pulkas only."""
    monkeypatch.setattr(store, "SEGMENT_PULKAS", 2)
    monkeypatch.setattr(store, "RETAIN_SECONDS", 0.0)
    store.refresh(tmp_path, _copies(p1, p2, 4))
    res = store.refresh(tmp_path, {}, removed=["q3", "q4"])
    assert res.segments == (1,)
    assert _segs(store.table_files(tmp_path, "deals")) == [0]
    assert not any(f.name.startswith("seg-000001") for t in store.TABLES
                   for f in (store.projections_dir(tmp_path) / t).iterdir())
    from preflog.reports.db import connect

    got = connect(tmp_path).execute("SELECT DISTINCT pulka FROM pulka_results ORDER BY 1").fetchall()
    assert got == [("q1",), ("q2",)]


def test_unlisted_segment_file_is_not_read(tmp_path, p1, p2):
    """A segment file the manifest does not list (a crash leftover) is not part of the views."""
    store.refresh(tmp_path, {"p1": p1})
    stray = store.projections_dir(tmp_path) / "deals" / "seg-000099.parquet"
    import shutil

    shutil.copy(store.table_files(tmp_path, "deals")[0], stray)
    from preflog.reports.db import connect

    assert connect(tmp_path).execute("SELECT count(*) FROM deals").fetchone() == (5,)
    assert _segs(store.table_files(tmp_path, "deals")) == [0]


def test_crash_mid_refresh_leaves_pulka_pending_and_next_refresh_repairs(tmp_path, p1, p2, monkeypatch):
    """If writing a segment fails, the manifest already marks the pulka pending (empty fingerprint),
    so the next refresh with the same facts rebuilds it instead of skipping it as unchanged."""
    store.refresh(tmp_path, {"p1": p1, "p2": p2})
    p2b = replace(p2, deals=p2.deals[:1])
    real = store._write_atomic
    calls = []

    def failing(path, table):
        calls.append(path)
        if len(calls) == 2:
            raise OSError("disk full")
        real(path, table)

    monkeypatch.setattr(store, "_write_atomic", failing)
    try:
        store.refresh(tmp_path, {"p2": p2b})
    except OSError:
        pass
    assert store.read_manifest(tmp_path)["p2"] == store.PENDING
    monkeypatch.setattr(store, "_write_atomic", real)
    res = store.refresh(tmp_path, {"p1": p1, "p2": p2b})
    assert (res.rebuilt, res.unchanged) == (("p2",), ("p1",))
    assert len(_rows(tmp_path, "deals", "p2")) == 1 and len(_rows(tmp_path, "player_deals", "p2")) == 3


def test_layout_1_store_is_converted(tmp_path, p1, p2):
    """A store written with one file per table (layout 1) is converted on the next refresh: p1's rows
    are kept (5 deals), p2 is added (3 deals), the old single files are gone."""
    import json

    import pyarrow.parquet as pq

    pdir = store.projections_dir(tmp_path)
    pdir.mkdir()
    tables = build.project(p1)
    for t in store.TABLES:
        pq.write_table(tables[t], pdir / f"{t}.parquet")
    (pdir / "manifest.json").write_text(json.dumps({"version": 1, "pulkas": {"p1": p1.fingerprint()}}))
    res = store.refresh(tmp_path, {"p1": p1, "p2": p2})
    assert (res.rebuilt, res.unchanged) == (("p2",), ("p1",))
    assert not any((pdir / f"{t}.parquet").exists() for t in store.TABLES)
    assert len(_rows(tmp_path, "deals", "p1")) == 5 and len(_rows(tmp_path, "deals", "p2")) == 3


def test_layout_1_store_is_readable_before_conversion(tmp_path, p1):
    """Reports on a layout-1 store that no refresh has converted yet still see its rows (5 deals of p1)."""
    import pyarrow.parquet as pq

    from preflog.reports.db import connect

    pdir = store.projections_dir(tmp_path)
    pdir.mkdir()
    for t, data in build.project(p1).items():
        pq.write_table(data, pdir / f"{t}.parquet")
    assert connect(tmp_path).execute("SELECT count(*) FROM deals").fetchone() == (5,)
    assert store.read_table(tmp_path, "player_deals").num_rows == 15


def test_layout_2_store_reads_and_converts(tmp_path, p1, p2):
    """A store written before segment files were immutable (layout 2: ``seg-000000.parquet`` rewritten in
    place, manifest entries ``[fingerprint, segment]``) is read as it is (p1's 5 deals), and the next refresh
    adds p2 (3 deals) in a new file while keeping p1's rows; the old file is retired, not deleted."""
    import json

    import pyarrow.parquet as pq

    from preflog.reports.db import connect

    pdir = store.projections_dir(tmp_path)
    for t, data in build.project(p1).items():
        (pdir / t).mkdir(parents=True)
        pq.write_table(data, pdir / t / "seg-000000.parquet")
    (pdir / "manifest.json").write_text(json.dumps({"version": 1, "layout": 2, "next": 1,
                                                    "pulkas": {"p1": [p1.fingerprint(), 0]}}))
    assert connect(tmp_path).execute("SELECT count(*) FROM deals").fetchone() == (5,)
    res = store.refresh(tmp_path, {"p1": p1, "p2": p2})
    assert (res.rebuilt, res.unchanged) == (("p2",), ("p1",))
    assert len(_rows(tmp_path, "deals", "p1")) == 5 and len(_rows(tmp_path, "deals", "p2")) == 3
    assert [f.name for f in store.table_files(tmp_path, "deals")] != ["seg-000000.parquet"]
    assert (pdir / "deals" / "seg-000000.parquet").exists()
