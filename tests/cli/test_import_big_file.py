"""One big record file (or standard input) is read in parts on every worker: the same result as
reading it whole, nothing stored when any part is bad, memory flat in the number of pulkas."""

from __future__ import annotations

import io
import sys
import tracemalloc
from pathlib import Path

import pytest

from preflog.importer import prepare
from preflog.importer import session
from preflog.model.events import PulkaStarted
from preflog.projections.store import SORT_KEYS
from preflog.projections.store import TABLES
from preflog.projections.store import read_table
from preflog.record.api import write_text
from preflog.workspace import Workspace

from ..randomplay import random_pulka

PLAYERS = ("Anna", "Boris", "Vera")


def _big(n: int, seed: int = 0, bad_at: int | None = None) -> str:
    """``n`` pulkas of three random deals, every third tagged with an id; pulka ``bad_at`` (if any)
    plays a card that is no card."""
    out = []
    for i in range(n):
        events = random_pulka("sochi", PLAYERS, 3, seed=seed + i)
        if i % 3 == 0:
            s = events[0]
            assert isinstance(s, PulkaStarted)
            events[0] = PulkaStarted(s.players, s.rules, s.overrides, s.pool, s.whist_price, (("id", f"t{i}"),))
        text = write_text(events)
        if i == bad_at:
            lines = text.splitlines()
            k = next(j for j, line in enumerate(lines) if line.startswith("1: "))
            lines[k] = "1: Xh" + lines[k][lines[k].index(" ", 3):]
            text = "\n".join(lines) + "\n"
        out.append(text)
    return "\n".join(out)


def _snapshot(ws: Workspace) -> tuple[list[tuple[object, ...]], dict[str, list[dict[str, object]]]]:
    rows = [tuple(r) for batch in ws.store().read_rows() for r in batch]
    proj = {t: read_table(ws.root, t).sort_by(SORT_KEYS[t]).to_pylist() for t in TABLES}
    return rows, proj


def _items(ws: Workspace, path: str, workers: int) -> list[tuple[object, ...]]:
    return [(i.source, i.pulka, i.status, i.deals, i.events, i.findings, i.error)
            for i in ws.import_paths([path], workers=workers)]


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prepare, "SPLIT_MIN_BYTES", 0)
    monkeypatch.setattr(prepare, "PART_BYTES", 3000)
    monkeypatch.setattr(prepare, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(prepare, "SPILL_MEMORY_BYTES", 10_000)  # most parts wait on disk


@pytest.mark.slow
def test_a_file_in_parts_on_workers_stores_what_one_reading_stores(tmp_path: Path, small_parts: None,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.pref"
    path.write_text(_big(24), encoding="utf-8")
    parted = Workspace(tmp_path / "parted")
    got = _items(parted, str(path), workers=2)
    monkeypatch.setattr(prepare, "SPLIT_MIN_BYTES", 1 << 40)  # read whole, in this process
    whole = Workspace(tmp_path / "whole")
    assert _items(whole, str(path), workers=1) == got
    assert [g[1] for g in got][:4] == ["t0", "big-2", "big-3", "t3"]
    assert len(got) == 24 and {g[2] for g in got} == {"imported"}
    assert [parted.export(g[1]) for g in got] == [whole.export(g[1]) for g in got]  # type: ignore[arg-type]
    assert _snapshot(parted) == _snapshot(whole)  # stored rows and projection rows alike


def test_a_bad_pulka_in_a_late_part_refuses_the_whole_file(tmp_path: Path, small_parts: None) -> None:
    text = _big(12, bad_at=10)
    path = tmp_path / "big.pref"
    path.write_text(text, encoding="utf-8")
    ws = Workspace(tmp_path / "store")
    items = ws.import_paths([path], workers=1)
    line = text.splitlines().index(next(x for x in text.splitlines() if x.startswith("1: Xh"))) + 1
    assert [(i.status, i.error.split(" '")[0]) for i in items] == [("error", f"{path}:{line}:4:")]
    assert not ws.exists()  # nothing of the file was stored


def test_standard_input_streams_in_parts(tmp_path: Path, small_parts: None, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _big(9)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))
    parts: list[int] = []
    real = prepare.prepare_unit
    monkeypatch.setattr(prepare, "prepare_unit", lambda u, *a: parts.append(u.part) or real(u, *a))
    items = Workspace(tmp_path / "store").import_paths(["-"], workers=2)
    assert [i.pulka for i in items][:3] == ["t0", "stdin-2", "stdin-3"] and len(items) == 9
    assert len(parts) >= 3  # read in parts, not whole


def test_import_memory_stays_flat_in_the_number_of_pulkas(tmp_path: Path, small_parts: None,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Python-level peak (tracemalloc) of importing N and 4N pulkas from one file, in this process,
    without the audit: within a small factor (the whole file's rows held at once would grow 4x)."""
    monkeypatch.setattr(session, "IMPORT_ROWS", 2000)
    peaks = []
    for n in (6, 24):
        path = tmp_path / f"f{n}.pref"
        path.write_text(_big(n), encoding="utf-8")
        ws = Workspace(tmp_path / f"s{n}")
        tracemalloc.start()
        try:
            items = ws.import_paths([path], workers=1, run_audit=False)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert len(items) == n
    assert peaks[1] < 2 * peaks[0], peaks
