"""Layout 4 of the projections: a member file per segment, an index of pulka → segment, and a manifest
without per-pulka entries (so a refresh's memory and I/O do not grow with the store's pulkas)."""

from __future__ import annotations

import json
import math
import shutil
import tracemalloc
from dataclasses import replace
from pathlib import Path

import pytest

from preflog.projections import store
from preflog.projections.facts import PulkaFacts
from preflog.reports.db import connect

QUERY = ("SELECT d.pulka, d.deal, count(*), sum(pd.tricks) FROM deals d JOIN player_deals pd USING (pulka, deal) "
         "GROUP BY ALL ORDER BY ALL")


def _copies(p1: PulkaFacts, p2: PulkaFacts, lo: int, hi: int) -> dict[str, PulkaFacts]:
    """Pulkas q<lo>…q<hi-1>: copies of p1 (odd) and p2 (even) under new ids (5 and 3 deals)."""
    return {f"q{i:02d}": replace(p1 if i % 2 else p2, pulka=f"q{i:02d}") for i in range(lo, hi)}


def _rows(root: Path) -> list[tuple[object, ...]]:
    con = connect(root)
    try:
        return con.execute(QUERY).fetchall()
    finally:
        con.close()


def _manifest(root: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((store.projections_dir(root) / store.MANIFEST).read_text())
    return data


def test_manifest_lists_segments_not_pulkas(tmp_path: Path, p1: PulkaFacts, p2: PulkaFacts,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Two pulkas a segment, q01…q05: the manifest names three segments with their counts [pulkas,
    pending, without head] and four files each (three tables and the member file) but no pulka id; the
    member files hold the fingerprints and heads, read back by read_manifest and segment_of."""
    monkeypatch.setattr(store, "SEGMENT_PULKAS", 2)
    facts = _copies(p1, p2, 1, 6)
    heads = {pid: 100 + i for i, pid in enumerate(facts)}
    store.refresh(tmp_path, facts, heads=heads)
    data = _manifest(tmp_path)
    assert data["layout"] == 4 and data["segments"] == {"0": [2, 0, 0], "1": [2, 0, 0], "2": [1, 0, 0]}
    assert data["pending"] == [] and "pulkas" not in data
    assert not any(pid in json.dumps(data) for pid in facts)
    assert store.read_manifest(tmp_path) == {pid: f.fingerprint() for pid, f in facts.items()}
    assert store.segment_of(tmp_path) == {"q01": 0, "q02": 0, "q03": 1, "q04": 1, "q05": 2}
    assert {pid: head for _seg, pid, _fp, head in store.each_member(tmp_path)} == heads


def test_layout_3_store_reads_and_converts(tmp_path: Path, p1: PulkaFacts, p2: PulkaFacts,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A store in the format before member files (layout 3: every pulka ``[fingerprint, segment, head]``
    in manifest.json, written here by hand over the data files) reads as it is: the same fingerprints,
    segments, query rows, a current lag and a clean check. The next refresh converts it (member files,
    an index, no pulka in the manifest) without rewriting the untouched segments' data files, and the
    query rows then equal those of a store built in layout 4 from the start."""
    monkeypatch.setattr(store, "SEGMENT_PULKAS", 2)
    facts = _copies(p1, p2, 1, 6)
    heads = {pid: 100 + i for i, pid in enumerate(facts)}
    store.refresh(tmp_path, facts, heads=heads, events_version=3)
    rows = _rows(tmp_path)
    new = _manifest(tmp_path)
    old = {"version": new["version"], "layout": 3, "next": new["next"], "gen": new["gen"], "events_version": 3,
           "pulkas": {pid: [fp, seg, head] for seg, pid, fp, head in store.each_member(tmp_path)},
           "files": {t: new["files"][t] for t in store.TABLES},  # type: ignore[index]
           "retired": []}
    pdir = store.projections_dir(tmp_path)
    (pdir / store.MANIFEST).write_text(json.dumps(old))
    shutil.rmtree(pdir / store.MEMBERS)

    assert store.read_manifest(tmp_path) == {pid: f.fingerprint() for pid, f in facts.items()}
    assert store.segment_of(tmp_path) == {"q01": 0, "q02": 0, "q03": 1, "q04": 1, "q05": 2}
    assert _rows(tmp_path) == rows
    assert store.lag(tmp_path, 3, lambda: pytest.fail("heads read although current")).current
    got = store.lag(tmp_path, 4, lambda: heads)
    assert (got.stale, got.gone, got.current) == ((), (), False)
    assert store.check(tmp_path, heads) == []
    data_files = {t: [f.name for f in store.table_files(tmp_path, t)] for t in store.TABLES}

    more = _copies(p1, p2, 6, 7)
    res = store.refresh(tmp_path, {**facts, **more}, heads={**heads, "q06": 106})
    assert (res.rebuilt, res.unchanged, res.segments) == (("q06",), tuple(facts), (2,))
    data = _manifest(tmp_path)
    assert data["layout"] == 4 and "pulkas" not in data and (pdir / store.MEMBERS).is_dir()
    for t in store.TABLES:   # segments 0 and 1 kept their data files; segment 2 was rewritten
        assert [f.name for f in store.table_files(tmp_path, t)][:2] == data_files[t][:2]
    assert store.check(tmp_path, {**heads, "q06": 106}) == []
    fresh = tmp_path / "fresh"
    store.refresh(fresh, facts)
    store.refresh(fresh, more)
    assert _rows(tmp_path) == _rows(fresh) and len(_rows(tmp_path)) == 5 + 3 + 5 + 3 + 5 + 3


def test_index_runs_stay_few_and_find_every_pulka(tmp_path: Path, p1: PulkaFacts, p2: PulkaFacts,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Thirty refreshes of one new pulka each: the index runs merge so that each is more than twice the
    size of the next newer one (so at most 1 + log2(30) ≈ 5.9 runs), their entries add up to the 30
    pulkas, and a refresh of all thirty unchanged facts finds every one (rebuilds nothing)."""
    monkeypatch.setattr(store, "SEGMENT_PULKAS", 4)
    facts = _copies(p1, p2, 0, 30)
    for pid, f in facts.items():
        store.refresh(tmp_path, {pid: f})
    runs = _manifest(tmp_path)["index"]
    sizes = [n for _name, _sha, n in runs]  # type: ignore[attr-defined]
    assert sum(sizes) == 30 and len(sizes) <= 1 + math.log2(30)
    assert all(sizes[i] > 2 * sizes[i + 1] for i in range(len(sizes) - 1))
    res = store.refresh(tmp_path, facts)
    assert (res.rebuilt, len(res.unchanged)) == ((), 30)


def test_colliding_hashes_are_confirmed_by_member_files(tmp_path: Path, p1: PulkaFacts, p2: PulkaFacts,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """With every id hashing alike, each lookup has every segment as candidate: the member files still
    decide — an unchanged pulka is skipped, a changed one rebuilt in its own segment only, a new one
    goes to the tail, and each pulka's rows are there once."""
    monkeypatch.setattr(store, "SEGMENT_PULKAS", 2)
    monkeypatch.setattr(store, "_key", lambda pid: 0)
    facts = _copies(p1, p2, 1, 6)
    store.refresh(tmp_path, facts)
    cut = replace(facts["q03"], deals=facts["q03"].deals[:2])
    res = store.refresh(tmp_path, {"q01": facts["q01"], "q03": cut, **_copies(p1, p2, 6, 7)})
    assert (res.rebuilt, res.unchanged, res.segments) == (("q03", "q06"), ("q01",), (1, 2))
    assert store.segment_of(tmp_path)["q06"] == 2
    deals = store.read_table(tmp_path, "deals")["pulka"].to_pylist()
    assert {pid: deals.count(pid) for pid in sorted(set(deals))} == {
        "q01": 5, "q02": 3, "q03": 2, "q04": 3, "q05": 5, "q06": 3}


def test_removed_then_added_again(tmp_path: Path, p1: PulkaFacts, p2: PulkaFacts,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A removed pulka's index entry stays (it points to a segment that no longer holds it); added again,
    the pulka goes to the tail segment and is found there afterwards (an unchanged refresh skips it)."""
    monkeypatch.setattr(store, "SEGMENT_PULKAS", 2)
    facts = _copies(p1, p2, 1, 4)
    store.refresh(tmp_path, facts)
    assert store.refresh(tmp_path, {}, removed=["q01"]).removed == ("q01",)
    assert store.refresh(tmp_path, {}, removed=["q01"]).removed == ()
    res = store.refresh(tmp_path, {"q01": facts["q01"]})
    assert (res.rebuilt, res.segments) == (("q01",), (1,))
    assert store.refresh(tmp_path, facts).rebuilt == ()
    assert store.segment_of(tmp_path) == {"q01": 1, "q02": 0, "q03": 1}


def test_lost_index_run_is_reported_and_rebuilt(tmp_path: Path, p1: PulkaFacts, p2: PulkaFacts) -> None:
    """A deleted index run: check names it, lag is no longer current (so a read heals), and the next
    write rebuilds the index from the member files — after which check is clean and lookups work."""
    facts = _copies(p1, p2, 1, 4)
    heads = dict.fromkeys(facts, 5)
    store.refresh(tmp_path, facts, heads=heads, events_version=1)
    [(name, _sha, _n)] = _manifest(tmp_path)["index"]  # type: ignore[misc]
    (store.projections_dir(tmp_path) / store.MEMBERS / name).unlink()
    problems = store.check(tmp_path, heads)
    assert len(problems) == 1 and name in problems[0][1] and "missing" in problems[0][1]
    assert not store.lag(tmp_path, 1, lambda: heads).current
    res = store.refresh(tmp_path, {}, events_version=1)
    assert not res.wrote
    assert store.check(tmp_path, heads) == [] and store.lag(tmp_path, 1, dict).current
    assert store.refresh(tmp_path, facts).unchanged == tuple(facts)


@pytest.mark.parametrize("damage", ["lost", "unreadable"])
def test_a_damaged_member_file_rebuilds_its_pulkas_once(tmp_path: Path, p1: PulkaFacts, p2: PulkaFacts,
                                                        monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    """Segment 0's member file deleted (``lost``) or overwritten with garbage (``unreadable``: check names
    it by its SHA-256): lag calls its two pulkas stale (their segment is unknown now); the heal's refresh
    drops the segment and projects them again — each pulka's rows then appear once (5, 3 and 5 deals)
    and check is clean."""
    monkeypatch.setattr(store, "SEGMENT_PULKAS", 2)
    facts = _copies(p1, p2, 1, 4)
    heads = dict.fromkeys(facts, 9)
    store.refresh(tmp_path, facts, heads=heads)
    member = store.projections_dir(tmp_path) / store.MEMBERS / store.table_files(tmp_path, "deals")[0].name
    if damage == "lost":
        member.unlink()
    else:
        member.write_bytes(b"x")
        assert any("SHA-256" in detail for _pid, detail in store.check(tmp_path, heads))
    need = store.lag(tmp_path, 2, lambda: heads)
    assert (need.stale, need.gone) == (("q01", "q02"), ())
    res = store.refresh(tmp_path, {pid: facts[pid] for pid in need.stale}, heads=heads, force=need.stale)
    assert res.rebuilt == ("q01", "q02")
    deals = store.read_table(tmp_path, "deals")["pulka"].to_pylist()
    assert {pid: deals.count(pid) for pid in sorted(set(deals))} == {"q01": 5, "q02": 3, "q03": 5}
    assert store.check(tmp_path, heads) == []


def test_crash_keeps_the_pending_list_and_the_old_files(tmp_path: Path, p1: PulkaFacts, p2: PulkaFacts,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A refresh dying after its first file: the manifest lists the pulka as pending and still names the
    previous files (member file included); a refresh of other pulkas keeps it pending; the next one with
    its facts rebuilds it and empties the list."""
    store.refresh(tmp_path, {"p1": p1, "p2": p2})
    before = _manifest(tmp_path)["files"]
    real = store._write_atomic

    def dies(path: Path, table: object) -> str:
        raise OSError("disk full")

    monkeypatch.setattr(store, "_write_atomic", dies)
    with pytest.raises(OSError):
        store.refresh(tmp_path, {"p2": replace(p2, deals=p2.deals[:1])})
    monkeypatch.setattr(store, "_write_atomic", real)
    assert _manifest(tmp_path)["pending"] == ["p2"] and _manifest(tmp_path)["files"] == before
    assert store.read_manifest(tmp_path)["p2"] == store.PENDING
    store.refresh(tmp_path, {"p3": replace(p1, pulka="p3")})
    assert _manifest(tmp_path)["pending"] == ["p2"]
    assert store.refresh(tmp_path, {"p2": p2}).rebuilt == ("p2",)
    assert _manifest(tmp_path)["pending"] == []


def _one_new_pulka_peak(root: Path, p1: PulkaFacts, n: int) -> int:
    """tracemalloc's peak (bytes) while a refresh adds one pulka to a store of ``n`` projected pulkas."""
    def batch(lo: int, hi: int) -> dict[str, PulkaFacts]:
        return {f"pulka-{i:07d}": replace(p1, pulka=f"pulka-{i:07d}") for i in range(lo, hi)}

    for lo in range(0, n, 2000):
        chunk = batch(lo, min(n, lo + 2000))
        store.refresh(root, chunk, heads=dict.fromkeys(chunk, lo))
    one = batch(n, n + 1)
    tracemalloc.start()
    try:
        store.refresh(root, one, heads=dict.fromkeys(one, 1))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_refresh_memory_is_flat_in_the_pulkas(tmp_path: Path, p1: PulkaFacts) -> None:
    """One new pulka into a store of 1 000 and of 3 000 pulkas (the tail segment holding 1 000 pulkas
    both times, as SEGMENT_PULKAS is 2 000): the refresh's peak of Python memory may differ by at most
    100 kB, 50 bytes a pulka more. The layout-3 manifest cost ≈ 830 bytes a pulka more (the whole
    manifest parsed into three dicts and written twice): 1.6 MB between these two stores."""
    assert store.SEGMENT_PULKAS == 2000
    _one_new_pulka_peak(tmp_path / "warm", p1, 3)   # first-call costs (imports, caches) out of the figures
    small = _one_new_pulka_peak(tmp_path / "small", p1, 1000)
    big = _one_new_pulka_peak(tmp_path / "big", p1, 3000)
    assert big - small < 100_000, (small, big)
