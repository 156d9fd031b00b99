"""The double-dummy solver's benchmark: full-deal solves, misère solves and per-card deal analysis.

Deals come from the bots (``preflog.sim`` plays Sochi, Leningrad and Rostov pulkas at 3 players and
Sochi at 4): every trick contract and misère that was played out card by card (30 cards, no claim)
gives its hands at the opening lead (the cards each seat played), the seats in play order, the
declarer, the trump and the leader.

Stages (the compiled search and the pure-Python one; the Python one on the first deals only):

* ``full_deal_solve``: ``solve`` of each trick contract at the opening lead (10 tricks), one
  :class:`Solver` for the whole stage (as an analysis of many deals uses it);
* ``misere_solve``: the same for the misères (``Goal.FEWEST``);
* ``deal_analysis``: ``card_values`` at every card of the actual play of a trick contract (30
  positions), one solver per deal: the work ``preflog analyze`` does per deal;
* ``search_size``: nodes searched on the first deals with the table and the equivalent-card
  reduction on and off (each deal a fresh solver, the compiled search), and the ratio.

    python benchmarks/solver.py                    # ≈ 1–2 minutes on one core
    python benchmarks/solver.py --quick            # tiny (tests/benchmarks/test_solver_quick.py)
    python benchmarks/solver.py --out benchmarks/results-solver.json
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.output import emit  # noqa: E402
from preflog.model.bids import MISER  # noqa: E402
from preflog.model.bids import is_trick_contract  # noqa: E402
from preflog.model.bids import ru_trump  # noqa: E402
from preflog.model.events import CardPlayed  # noqa: E402
from preflog.model.events import ContractDeclared  # noqa: E402
from preflog.model.events import DealStarted  # noqa: E402
from preflog.model.events import Event  # noqa: E402
from preflog.sim import simulate_pulka  # noqa: E402
from preflog.solver import NATIVE  # noqa: E402
from preflog.solver import Goal  # noqa: E402
from preflog.solver import Position  # noqa: E402
from preflog.solver import Solver  # noqa: E402
from preflog.solver import play  # noqa: E402

TABLES: list[tuple[str, int]] = [("sochi", 3), ("leningrad", 3), ("rostov", 3), ("sochi", 4)]
TARGET_SOLVE_MS = 20.0
MOONSHOT_SOLVE_MS = 2.0
TARGET_DEAL_ANALYSIS_S = 0.5
TARGET_MISERE_MEAN_MS = 2.0  # a misère's solve at the opening lead: mean and worst (issue 29: 100 k deals/hour)
TARGET_MISERE_MAX_MS = 50.0


@dataclass(frozen=True)
class PlayedDeal:
    position: Position  # at the opening lead
    plays: tuple[int, ...]  # the cards in the order played
    misere: bool


def played_deals(events: Sequence[Event]) -> list[PlayedDeal]:
    """The trick contracts and misères of a pulka that were played out card by card."""
    out: list[PlayedDeal] = []
    contract: tuple[int, int] | None = None
    plays: list[tuple[int, int]] = []
    n_seats = 3

    def flush() -> None:
        if contract is None or len(plays) != 30:
            return
        declarer, code = contract
        if not (is_trick_contract(code) or code == MISER):
            return
        hands = [0] * n_seats
        for seat, card in plays:
            hands[seat] |= 1 << card
        order = tuple(seat for seat, _ in plays[:3])
        if len(set(order)) != 3 or declarer not in order:
            return
        goal = Goal.FEWEST if code == MISER else Goal.MOST
        pos = Position(tuple(hands), order, declarer, ru_trump(code), order[0], goal=goal)
        out.append(PlayedDeal(pos, tuple(card for _, card in plays), code == MISER))

    for e in events:
        if isinstance(e, DealStarted):
            flush()
            contract, plays = None, []
            if e.hands is not None:
                n_seats = len(e.hands)
        elif isinstance(e, ContractDeclared):
            contract = (e.player, e.contract)
        elif isinstance(e, CardPlayed):
            plays.append((e.player, e.card))
    flush()
    return out


def collect(pulkas: int, seed: int) -> list[PlayedDeal]:
    deals: list[PlayedDeal] = []
    for k in range(pulkas):
        rules, players = TABLES[k % len(TABLES)]
        deals.extend(played_deals(simulate_pulka(rules, players, seed + k)))
    return deals


def _ms(values: list[float]) -> dict[str, float]:
    if not values:
        return {"mean_ms": 0.0, "median_ms": 0.0, "p90_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(values)
    return {"mean_ms": 1000 * statistics.fmean(values), "median_ms": 1000 * statistics.median(values),
            "p90_ms": 1000 * ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
            "max_ms": 1000 * ordered[-1]}


def solve_stage(deals: list[PlayedDeal], native: bool) -> dict[str, Any]:
    """``solve`` at the opening lead of each deal with one solver; times per solve."""
    solver = Solver(native=native)
    times: list[float] = []
    tricks = 0
    start = time.perf_counter()
    for d in deals:
        t = time.perf_counter()
        tricks += solver.solve(d.position)
        times.append(time.perf_counter() - t)
    seconds = time.perf_counter() - start
    return {"deals": len(deals), "seconds": seconds, "solves_per_s": len(deals) / seconds if seconds else 0.0,
            **_ms(times), "nodes": solver.nodes, "nodes_per_solve": solver.nodes / max(1, len(deals)),
            "declarer_tricks": tricks}


def analysis_stage(deals: list[PlayedDeal], native: bool) -> dict[str, Any]:
    """``card_values`` at every card of the actual play, one solver per deal; seconds per deal."""
    times: list[float] = []
    positions = nodes = 0
    for d in deals:
        solver = Solver(native=native)
        pos = d.position
        t = time.perf_counter()
        for card in d.plays:
            solver.card_values(pos)
            pos = play(pos, card)
            positions += 1
        times.append(time.perf_counter() - t)
        nodes += solver.nodes
    total = sum(times)
    return {"deals": len(deals), "positions": positions, "seconds": total,
            "mean_s_per_deal": statistics.fmean(times) if times else 0.0,
            "max_s_per_deal": max(times) if times else 0.0,
            "ms_per_position": 1000 * total / positions if positions else 0.0, "nodes": nodes}


def size_stage(deals: list[PlayedDeal]) -> dict[str, Any]:
    """Nodes of the compiled search with each of the table and the reduction on and off."""
    out: dict[str, Any] = {"deals": len(deals)}
    for name, tt, eq in (("full", True, True), ("no_table", False, True), ("no_equivalence", True, False),
                         ("plain", False, False)):
        nodes = 0
        t = time.perf_counter()
        values = []
        for d in deals:
            solver = Solver(native=NATIVE, transposition=tt, equivalence=eq)
            values.append(solver.solve(d.position))
            nodes += solver.nodes
        out[name] = {"nodes": nodes, "seconds": time.perf_counter() - t, "values": values}
    same = all(out[k]["values"] == out["full"]["values"] for k in ("no_table", "no_equivalence", "plain"))
    for k in ("full", "no_table", "no_equivalence", "plain"):
        del out[k]["values"]
    out["same_values"] = same
    out["ratio_plain_to_full"] = out["plain"]["nodes"] / max(1, out["full"]["nodes"])
    out["ratio_no_table_to_full"] = out["no_table"]["nodes"] / max(1, out["full"]["nodes"])
    out["ratio_no_equivalence_to_full"] = out["no_equivalence"]["nodes"] / max(1, out["full"]["nodes"])
    return out


def run(pulkas: int, seed: int, python_deals: int, python_miseres: int, size_deals: int,
        analysis_deals: int) -> dict[str, Any]:
    t = time.perf_counter()
    deals = collect(pulkas, seed)
    tricks = [d for d in deals if not d.misere]
    miseres = [d for d in deals if d.misere]
    result: dict[str, Any] = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "native": NATIVE,
        "input": {"pulkas": pulkas, "seed": seed, "tables": [f"{r}/{p}" for r, p in TABLES],
                  "trick_contracts": len(tricks), "miseres": len(miseres),
                  "simulate_s": time.perf_counter() - t},
        "full_deal_solve": {}, "misere_solve": {}, "deal_analysis": {},
    }
    engines = [("native", True)] if NATIVE else []
    engines.append(("python", False))
    for name, native in engines:
        result["full_deal_solve"][name] = solve_stage(tricks[:None if native else python_deals], native)
        result["misere_solve"][name] = solve_stage(miseres[:None if native else python_miseres], native)
        n = analysis_deals if native else max(1, min(analysis_deals, python_deals // 4))
        result["deal_analysis"][name] = analysis_stage(tricks[:n], native)
    result["search_size"] = size_stage(tricks[:size_deals])
    best = result["full_deal_solve"]["native" if NATIVE else "python"]
    analysis = result["deal_analysis"]["native" if NATIVE else "python"]
    misere = result["misere_solve"]["native" if NATIVE else "python"]
    result["targets"] = {"full_deal_solve_mean_ms": TARGET_SOLVE_MS, "moonshot_mean_ms": MOONSHOT_SOLVE_MS,
                         "deal_analysis_s": TARGET_DEAL_ANALYSIS_S, "misere_solve_mean_ms": TARGET_MISERE_MEAN_MS,
                         "misere_solve_max_ms": TARGET_MISERE_MAX_MS}
    result["targets_met"] = {
        "full_deal_solve_le_20ms": best["mean_ms"] <= TARGET_SOLVE_MS,
        "full_deal_solve_le_2ms": best["mean_ms"] <= MOONSHOT_SOLVE_MS,
        "deal_analysis_le_0_5s": analysis["max_s_per_deal"] <= TARGET_DEAL_ANALYSIS_S,
        # not met when no misère was solved (a quick run may have none)
        "misere_solve_le_2ms_mean": misere["deals"] > 0 and misere["mean_ms"] <= TARGET_MISERE_MEAN_MS,
        "misere_solve_le_50ms_max": misere["deals"] > 0 and misere["max_ms"] <= TARGET_MISERE_MAX_MS,
    }
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pulkas", type=int, default=24, help="bot pulkas to take the deals from")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--python-deals", type=int, default=40, help="trick contracts for the pure-Python search")
    ap.add_argument("--python-miseres", type=int, default=5, help="misères for the pure-Python search")
    ap.add_argument("--size-deals", type=int, default=10, help="deals for the search-size comparison")
    ap.add_argument("--analysis-deals", type=int, default=60, help="deals for the per-card analysis")
    ap.add_argument("--quick", action="store_true", help="tiny: 2 pulkas, a few deals per stage")
    ap.add_argument("--out", default=None, help="write the JSON here")
    args = ap.parse_args(argv)
    if args.quick:
        args.pulkas, args.python_deals, args.python_miseres, args.size_deals, args.analysis_deals = 1, 2, 0, 2, 2
    result = run(args.pulkas, args.seed, args.python_deals, args.python_miseres, args.size_deals,
                 args.analysis_deals)
    emit(result, args.out)
    return result


if __name__ == "__main__":
    main()
