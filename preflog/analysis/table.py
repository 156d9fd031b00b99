"""The ``play_analysis`` projection: the analysis of every stored deal as Parquet tables, and the report
per player built from them.

Running the solver over a store is slow, so these tables are built only by ``preflog analyze --all``
(never on import or before a read, unlike the other projections) and kept incremental by pulka head:

    <store>/analysis/manifest.json        version, solver, pulka → (content hash it was built from, part)
    <store>/analysis/{deals,seats,cards}-NNNNNN.parquet   one part per run, rows sorted by pulka, deal

A run analyses the pulkas that are new or whose head changed (and drops the ones the store no longer
holds) on worker processes (forkserver, as :mod:`preflog.sim.many`: never a plain fork of a process with
DuckDB or Delta threads), writes their rows as a new part and rewrites only the parts that held changed
or dropped pulkas. Files are written under a temporary name and moved into place; the manifest is
written last. A manifest of another :data:`TABLE_VERSION` (or of another ``ANALYSIS_VERSION``: the
definitions changed) makes the next run start again from nothing.

Tables (docs/analysis.md):

* ``deals`` — one row per deal: kind, declarer, contract, goal, double-dummy tricks at the lead, tricks
  needed, makeable, tricks taken, made, skipped (the reason), unit;
* ``seats`` — one row per deal and seat in play: role (declarer, defender, raspasy), the cards he answered
  for, the tricks they lost, their sheet cost, his whist call and whether it was right;
* ``cards`` — one row per card that lost tricks: trick, seat, card, best cards, tricks lost, cost;
* ``skill`` — one row per deal and seat: the deal's result, what the cards were worth double dummy and the
  play (result − cards), exact and as floats (:mod:`preflog.analysis.skill`, docs/skill.md); and whether
  his first pass in the auction passed a makeable game (:mod:`preflog.analysis.skill_passes`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ..model.cards import format_card
from ..model.events import Row
from ..model.events import from_row
from ..store.duck import read_parquet
from ..workers import run_ordered
from .deal import Options
from .deal import analyze_events
from .deal import solver_name
from .result import ANALYSIS_VERSION
from .result import PulkaAnalysis
from .result import WhistJudgement
from .result import number_json
from .skill import skill_rows
from .skill import split_events

TABLE_VERSION = 3   # 2: the skill table, the seats' whist_cost; 3: the skill table's passes judged
"""The layout of the tables; a stored manifest of another version is rebuilt."""
FOLDER = "analysis"
MANIFEST = "manifest.json"
TABLES = ("deals", "seats", "cards", "skill")

SCHEMAS: dict[str, pa.Schema] = {
    "deals": pa.schema([
        ("pulka", pa.string()), ("deal", pa.int32()), ("kind", pa.string()), ("skipped", pa.string()),
        ("declarer", pa.int32()), ("player", pa.string()), ("contract", pa.string()), ("goal", pa.string()),
        ("double_dummy", pa.int32()), ("needed", pa.int32()), ("makeable", pa.bool_()), ("actual", pa.int32()),
        ("made", pa.bool_()), ("unit", pa.string()), ("solver", pa.string())]),
    "seats": pa.schema([
        ("pulka", pa.string()), ("deal", pa.int32()), ("seat", pa.int32()), ("player", pa.string()),
        ("role", pa.string()), ("goal", pa.string()), ("cards", pa.int32()), ("lost", pa.int32()),
        ("cost", pa.float64()), ("cost_text", pa.string()), ("whist", pa.string()), ("whist_right", pa.bool_()),
        ("unit", pa.string()), ("whist_cost", pa.float64())]),
    "cards": pa.schema([
        ("pulka", pa.string()), ("deal", pa.int32()), ("seq", pa.int32()), ("trick", pa.int32()),
        ("seat", pa.int32()), ("player", pa.string()), ("card", pa.string()), ("best", pa.string()),
        ("lost", pa.int32()), ("role", pa.string()), ("cost", pa.float64()), ("cost_text", pa.string()),
        ("unit", pa.string())]),
    "skill": pa.schema([
        ("pulka", pa.string()), ("deal", pa.int32()), ("seat", pa.int32()), ("player", pa.string()),
        ("result", pa.float64()), ("cards", pa.float64()), ("play", pa.float64()), ("result_text", pa.string()),
        ("cards_text", pa.string()), ("play_text", pa.string()), ("basis", pa.string()), ("unit", pa.string()),
        ("passed_makeable", pa.bool_()), ("passed_game", pa.string())]),
}


def rows_of(a: PulkaAnalysis) -> dict[str, list[dict[str, Any]]]:
    """The rows of the deals, seats and cards tables for one pulka's analysis (the skill table's are
    :func:`preflog.analysis.skill.skill_rows`; empty here)."""
    out: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
    for d in a.deals:
        out["deals"].append({
            "pulka": a.pulka, "deal": d.deal, "kind": d.kind, "skipped": d.skipped or None,
            "declarer": d.declarer if d.declarer >= 0 else None, "player": d.declarer_name or None,
            "contract": d.contract or None, "goal": d.goal or None, "double_dummy": d.double_dummy,
            "needed": d.needed, "makeable": d.makeable, "actual": d.actual, "made": d.made, "unit": d.unit,
            "solver": a.solver})
        if d.skipped:
            continue
        lost: dict[int, int] = {}
        cost: dict[int, Fraction] = {}
        for x in d.losses:
            lost[x.seat] = lost.get(x.seat, 0) + x.lost
            if x.cost is not None:
                cost[x.seat] = cost.get(x.seat, Fraction(0)) + x.cost
            out["cards"].append({
                "pulka": a.pulka, "deal": d.deal, "seq": x.seq, "trick": x.trick, "seat": x.seat,
                "player": x.player, "card": format_card(x.card), "best": " ".join(format_card(c) for c in x.best),
                "lost": x.lost, "role": x.role, "cost": float(x.cost) if x.cost is not None else None,
                "cost_text": str(number_json(x.cost)) if x.cost is not None else None, "unit": d.unit})
        whist = {w.seat: w for w in d.whist}
        seats = sorted(set(d.cards) | set(lost) | set(whist) | ({d.declarer} if d.declarer >= 0 else set()))
        for s in seats:
            role = "raspasy" if not d.declarer_name else ("declarer" if s == d.declarer else "defender")
            w = whist.get(s)
            c = cost.get(s, Fraction(0))
            out["seats"].append({
                "pulka": a.pulka, "deal": d.deal, "seat": s, "player": a.players[s] if s < len(a.players) else None,
                "role": role, "goal": d.goal or None, "cards": d.cards.get(s, 0), "lost": lost.get(s, 0),
                "cost": float(c), "cost_text": str(number_json(c)), "whist": w.call if w else None,
                "whist_right": w.right if w else None, "unit": d.unit, "whist_cost": _whist_cost(w)})
    return out


def _whist_cost(w: WhistJudgement | None) -> float | None:
    """What a judged whist call cost against the other call (0 when it was right; None: not judged)."""
    if w is None or w.right is None or w.value is None or w.alternative_value is None:
        return None
    return float(max(Fraction(0), w.alternative_value - w.value))


# --------------------------------------------------------------------------- workers
_OPTIONS = Options(discard=False, par=False, cost=True)


def analyze_rows(job: tuple[str, list[Row]] | tuple[str, list[Row], bool]
                 ) -> tuple[str, dict[str, list[dict[str, Any]]]]:
    """One stored pulka (its id, engine rows and, optionally, whether to judge the passes in its auctions:
    :mod:`preflog.analysis.skill_passes`, off by default for its cost) → its table rows (a worker's job)."""
    pulka, rows = job[0], job[1]
    passes = bool(job[2]) if len(job) > 2 else False
    events = [from_row(*r) for r in rows]
    out = rows_of(analyze_events(pulka, events, options=_OPTIONS))
    out["skill"] = skill_rows(split_events(pulka, events, passes=passes))
    return pulka, out


def analyze_many(jobs: Iterator[tuple[str, list[Row]]], workers: int, chunksize: int = 2,
                 passes: bool = False) -> Iterator[tuple[str, dict[str, list[dict[str, Any]]]]]:
    """Analyse pulkas on ``workers`` processes (1: in this process), in the order given
    (:func:`preflog.workers.run_ordered`); ``passes``: judge the passes too."""
    return run_ordered(analyze_rows, ((p, r, passes) for p, r in jobs), workers, chunksize, preload=[__name__])


# --------------------------------------------------------------------------- storage
@dataclass(slots=True)
class Manifest:
    version: int = TABLE_VERSION
    analysis: int = ANALYSIS_VERSION
    solver: str = ""
    pulkas: dict[str, tuple[int, int]] | None = None   # pulka → (head, part)
    next: int = 0
    passes: bool = False   # the skill table's passes are judged (analyze --all --passes)


def _folder(root: Path) -> Path:
    return root / FOLDER


def read_manifest(root: Path) -> Manifest:
    """The manifest of the tables; an empty one when there is none or it is of another version."""
    path = _folder(root) / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Manifest(pulkas={})
    if data.get("version") != TABLE_VERSION or data.get("analysis") != ANALYSIS_VERSION:
        return Manifest(pulkas={})
    return Manifest(TABLE_VERSION, ANALYSIS_VERSION, str(data.get("solver", "")),
                    {k: (int(v[0]), int(v[1])) for k, v in data.get("pulkas", {}).items()}, int(data.get("next", 0)),
                    bool(data.get("passes", False)))


def _write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    write(tmp)
    os.replace(tmp, path)


def part_file(root: Path, table: str, part: int) -> Path:
    return _folder(root) / f"{table}-{part:06d}.parquet"


def table_files(root: Path, table: str) -> list[Path]:
    """The files of one table the manifest lists (what readers read)."""
    m = read_manifest(root)
    parts = sorted({p for _h, p in (m.pulkas or {}).values()})
    return [f for p in parts if (f := part_file(root, table, p)).exists()]


def _write_part(root: Path, part: int, rows: dict[str, list[dict[str, Any]]]) -> None:
    for t in TABLES:
        rs = sorted(rows[t], key=lambda r: (r["pulka"], r["deal"], r.get("seat", 0), r.get("seq", 0)))
        table = pa.Table.from_pylist(rs, schema=SCHEMAS[t])

        def write(p: Path, tb: Any = table) -> None:
            pq.write_table(tb, p, compression="zstd")
        _write_atomic(part_file(root, t, part), write)


@dataclass(frozen=True, slots=True)
class BuildResult:
    """What a run did: pulkas analysed, dropped, already current; deals analysed."""

    analysed: int
    dropped: int
    current: int
    deals: int


def update(root: Path, heads: dict[str, int], read: Callable[[list[str]], Iterator[tuple[str, list[Row]]]],
           workers: int, progress: Callable[[int, int], None] | None = None, passes: bool = False) -> BuildResult:
    """Bring the tables level with the store's ``heads`` (pulka → content hash): analyse the new and changed
    pulkas (``read`` yields their rows), drop the gone ones. ``passes``: judge the passes in the auctions
    too; tables built the other way are built again from nothing."""
    folder = _folder(root)
    folder.mkdir(parents=True, exist_ok=True)
    m = read_manifest(root)
    if not m.pulkas or m.passes != passes:   # nothing usable: start again
        for f in folder.glob("*.parquet"):
            f.unlink()
        m = Manifest(pulkas={})
    assert m.pulkas is not None
    stale = sorted(p for p, h in heads.items() if m.pulkas.get(p, (None, 0))[0] != h)
    gone = sorted(p for p in m.pulkas if p not in heads)
    current = len(heads) - len(stale)
    if not stale and not gone:
        return BuildResult(0, 0, current, 0)
    new: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
    done = 0
    for _pulka, rows in analyze_many(read(stale), workers, passes=passes):
        for t in TABLES:
            new[t].extend(rows[t])
        done += 1
        if progress is not None:
            progress(done, len(stale))
    part = m.next
    _write_part(root, part, new)
    # rewrite the older parts that held changed or dropped pulkas
    moved = set(stale) | set(gone)
    touched = sorted({m.pulkas[p][1] for p in moved if p in m.pulkas})
    for old in touched:
        keep = {p for p, (_h, q) in m.pulkas.items() if q == old and p not in moved}
        kept: dict[str, list[dict[str, Any]]] = {}
        for t in TABLES:
            f = part_file(root, t, old)
            rs = pq.read_table(f).to_pylist() if f.exists() else []
            kept[t] = [r for r in rs if r["pulka"] in keep]
        if keep:
            _write_part(root, old, kept)
    for p in gone:
        del m.pulkas[p]
    for p in stale:
        m.pulkas[p] = (heads[p], part)
    m.next = part + 1
    m.solver = solver_name()
    data = {"version": TABLE_VERSION, "analysis": ANALYSIS_VERSION, "solver": m.solver, "next": m.next,
            "passes": passes, "pulkas": {p: [h, q] for p, (h, q) in sorted(m.pulkas.items())}}
    _write_atomic(folder / MANIFEST, lambda p: p.write_text(json.dumps(data), encoding="utf-8"))
    live = {q for _h, q in m.pulkas.values()}
    for f in folder.glob("*.parquet"):   # parts no pulka is listed in any more
        stem = f.stem.rpartition("-")[2]
        if stem.isdigit() and int(stem) not in live:
            f.unlink()
    return BuildResult(len(stale), len(gone), current, len(new["deals"]))


# --------------------------------------------------------------------------- the report
REPORT_SQL = """
WITH s AS (SELECT * FROM seats), d AS (SELECT * FROM deals WHERE skipped IS NULL),
per_seat AS (
  SELECT player, unit,
    sum(CASE WHEN role = 'declarer' THEN cards ELSE 0 END) AS declarer_cards,
    sum(CASE WHEN role = 'declarer' THEN lost ELSE 0 END) AS declarer_lost,
    sum(CASE WHEN role = 'defender' THEN cards ELSE 0 END) AS defender_cards,
    sum(CASE WHEN role = 'defender' THEN lost ELSE 0 END) AS defender_lost,
    count(*) FILTER (WHERE whist_right) AS whists_right,
    count(*) FILTER (WHERE whist_right = false) AS whists_wrong,
    sum(cost) AS cost
  FROM s GROUP BY player, unit),
declared AS (
  SELECT player, unit,
    count(*) FILTER (WHERE makeable) AS contracts_makeable,
    count(*) FILTER (WHERE makeable AND made) AS contracts_made_of_makeable,
    count(*) FILTER (WHERE made) AS contracts_made
  FROM d WHERE goal = 'most' GROUP BY player, unit),
misers AS (
  SELECT x.player, d.unit,
    count(*) AS misers_catchable,
    count(*) FILTER (WHERE d.actual > 0) AS misers_caught
  FROM d JOIN s x ON x.pulka = d.pulka AND x.deal = d.deal
  WHERE x.role = 'defender' AND d.goal = 'fewest' AND NOT d.makeable
  GROUP BY x.player, d.unit)
SELECT p.player, p.unit, p.declarer_cards, p.declarer_lost, p.defender_cards, p.defender_lost,
  coalesce(c.contracts_makeable, 0) AS contracts_makeable,
  coalesce(c.contracts_made_of_makeable, 0) AS contracts_made_of_makeable,
  coalesce(c.contracts_made, 0) AS contracts_made,
  coalesce(m.misers_catchable, 0) AS misers_catchable,
  coalesce(m.misers_caught, 0) AS misers_caught,
  p.whists_right, p.whists_wrong, p.cost
FROM per_seat p
LEFT JOIN declared c ON c.player = p.player AND c.unit = p.unit
LEFT JOIN misers m ON m.player = p.player AND m.unit = p.unit
ORDER BY p.unit DESC NULLS LAST, p.player NULLS LAST
"""
# One query for DuckDB (preflog analyze --all) and Spark SQL (preflog spark analyze): joins of per-group
# counts, no correlated subqueries (Spark takes none inside an aggregate), the null order spelled out.

REPORT_COLUMNS = ("player", "unit", "declarer_cards", "declarer_lost", "declarer_lost_per_100", "defender_cards",
                  "defender_lost", "defender_lost_per_100", "contracts_makeable", "contracts_made_of_makeable",
                  "contracts_made", "misers_catchable", "misers_caught", "whists_right", "whists_wrong", "cost")


def report_rows(root: Path) -> list[dict[str, Any]]:
    """Per player (and unit: visty or Croatian points): the figures of docs/analysis.md "Statistics"."""
    return report_rows_of({t: table_files(root, t) for t in TABLES})


def report_rows_of(files_of: dict[str, list[Path]]) -> list[dict[str, Any]]:
    """:func:`report_rows` over the given Parquet files of each table (the Spark job's output, too)."""
    import duckdb

    con = duckdb.connect()
    try:
        for t in TABLES:
            files = files_of.get(t, [])
            if files:
                con.execute(f"CREATE VIEW {t} AS SELECT * FROM {read_parquet(files)}")
            else:
                cols = ", ".join(f"CAST(NULL AS {_duck(f.type)}) AS {f.name}" for f in SCHEMAS[t])
                con.execute(f"CREATE VIEW {t} AS SELECT {cols} WHERE false")
        cur = con.execute(REPORT_SQL)
        names = [c[0] for c in cur.description]
        rows = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    finally:
        con.close()
    return finish_report_rows(rows)


def finish_report_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """:data:`REPORT_SQL`'s rows (by DuckDB, or Spark in ``preflog spark analyze``) as the report gives them:
    the rates per 100 cards, the cost to two decimals, the columns of :data:`REPORT_COLUMNS`."""
    out = []
    for r in rows:
        def per100(lost: int, cards: int) -> float | None:
            return round(100 * lost / cards, 2) if cards else None
        r["declarer_lost_per_100"] = per100(r["declarer_lost"], r["declarer_cards"])
        r["defender_lost_per_100"] = per100(r["defender_lost"], r["defender_cards"])
        r["cost"] = round(float(r["cost"] or 0), 2)
        out.append({k: (int(r[k]) if isinstance(r[k], int) else r[k]) for k in REPORT_COLUMNS})
    return out


def _duck(t: pa.DataType) -> str:
    if pa.types.is_string(t):
        return "VARCHAR"
    if pa.types.is_boolean(t):
        return "BOOLEAN"
    if pa.types.is_floating(t):
        return "DOUBLE"
    return "INTEGER"


__all__ = ["REPORT_COLUMNS", "TABLES", "TABLE_VERSION", "BuildResult", "analyze_many", "finish_report_rows",
           "read_manifest", "report_rows", "report_rows_of", "rows_of", "table_files", "update"]
