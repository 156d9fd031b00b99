"""Readers racing the projection refresh see a consistent snapshot (issue 13, item 11).

About 1 in 40 ``stats`` runs during imports crashed (``TProtocolException``): segment files were
rewritten in place and emptied ones deleted while a reader's views still named them, and each table's
file list came from a separate manifest read. Now segment files are immutable (a rewrite writes a new
name, the manifest swap publishes it, the old file is retired for ``RETAIN_SECONDS``) and a connection
takes all three tables from one manifest.

Row counts (from ``tests/stats/conftest.py``): p1 has 5 deals and 3 players (15 player rows, 3 result
rows), p2 has 3 deals (9, 3); p2 cut to its first deal has 1 deal (3 player rows, 3 result rows).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from preflog.projections import store
from preflog.reports.db import connect

COUNTS = ("SELECT (SELECT count(*) FROM deals), (SELECT count(*) FROM player_deals), "
          "(SELECT count(*) FROM pulka_results)")


def test_open_connection_keeps_its_snapshot(tmp_path: Path, p1, p2) -> None:
    """A connection opened on {p1, p2} still reads 8 deals / 24 player rows / 6 results after a refresh
    cut p2 to one deal, and after p1 was removed; a new connection sees 1 / 3 / 3."""
    store.refresh(tmp_path, {"p1": p1, "p2": p2})
    con = connect(tmp_path)
    assert con.execute(COUNTS).fetchone() == (8, 24, 6)
    store.refresh(tmp_path, {"p2": replace(p2, deals=p2.deals[:1])})
    assert con.execute(COUNTS).fetchone() == (8, 24, 6)
    store.refresh(tmp_path, {}, removed=["p1"])
    assert con.execute(COUNTS).fetchone() == (8, 24, 6)
    assert connect(tmp_path).execute(COUNTS).fetchone() == (1, 3, 3)


def test_rebuild_is_one_swap(tmp_path: Path, p1, p2) -> None:
    """A rebuild never shows an empty or partial state to a reader that connected before it finished."""
    store.rebuild(tmp_path, [p1, p2])
    con = connect(tmp_path)
    store.rebuild(tmp_path, [p2])
    assert con.execute(COUNTS).fetchone() == (8, 24, 6)
    assert connect(tmp_path).execute(COUNTS).fetchone() == (3, 9, 3)


_WRITER = """
import importlib.util, os, sys, time
from dataclasses import replace
from preflog.projections import store
spec = importlib.util.spec_from_file_location("c", {conftest!r})
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
store.SEGMENT_PULKAS = 1          # every pulka its own segment: removals delete segments
p1, p2 = mod.make_p1(), mod.make_p2()
p2b = replace(p2, deals=p2.deals[:1])
root = {root!r}
# cycle at least twice, and on until the reader says it has raced enough (or a generous limit passes)
end = time.monotonic() + 120
n = 0
while n < 8 or (not os.path.exists({enough!r}) and time.monotonic() < end):
    store.refresh(root, {{"p1": p1, "p2": p2}})
    store.refresh(root, {{"p2": p2b}})
    store.refresh(root, {{}}, removed=["p1"])
    store.rebuild(root, [p1, p2])
    n += 4
print(n)
"""


def test_readers_racing_refreshes_never_fail(tmp_path: Path, p1, p2) -> None:
    """A writer process cycles the projections through four states while this process connects and
    counts again and again: every query succeeds and sees one of the states whole —
    {p1, p2}: (8, 24, 6); {p1, p2 cut}: (6, 18, 6); {p2 cut}: (1, 3, 3) — never a mixture.

    No clock decides how much racing happens: the writer cycles at least twice and goes on until this
    side has counted 20 times while it ran, however slow or loaded the machine."""
    store.refresh(tmp_path, {"p1": p1, "p2": p2})
    conftest = str(Path(__file__).with_name("conftest.py"))
    enough = tmp_path.parent / f"{tmp_path.name}.enough"
    code = _WRITER.format(conftest=conftest, root=str(tmp_path), enough=str(enough))
    writer = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    seen: dict[tuple[int, int, int], int] = {}
    errors: list[str] = []
    try:
        while writer.poll() is None:
            try:
                got = connect(tmp_path).execute(COUNTS).fetchone()
            except Exception as exc:  # any failure is the defect under test
                errors.append(f"{type(exc).__name__}: {exc}")
                continue
            assert got is not None
            seen[got] = seen.get(got, 0) + 1
            if sum(seen.values()) == 20:
                enough.touch()
    finally:
        if writer.poll() is None:
            writer.kill()
        out, err = writer.communicate(timeout=30)
    assert writer.returncode == 0, err
    assert int(out) >= 8, "the writer should have cycled at least twice"
    assert errors == []
    assert set(seen) <= {(8, 24, 6), (6, 18, 6), (1, 3, 3)}
    assert enough.exists() and sum(seen.values()) >= 20, "the reader should have counted 20 times meanwhile"
