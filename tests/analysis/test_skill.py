"""The luck / play split (preflog.analysis.skill): cards + play is the settlement, exactly, on every pulka
of every preset (simulated with every bot level) and of the demo store; a hand-built deal's numbers."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.analysis.skill import Basis
from preflog.analysis.skill import PulkaSplit
from preflog.analysis.skill import split_events
from preflog.engine.replay import audit
from preflog.record.api import read_file_records
from preflog.rules.presets import PRESETS
from preflog.sim import simulate_pulka
from preflog.sim.levels import parse_levels

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"
TABLES = [(name, n) for name, rules in PRESETS.items() for n in rules.players]
LEVELS = ("dd", "heuristic", "careless:0.5", "overbid:1")


def check_sums(split: PulkaSplit, events: list) -> None:  # type: ignore[type-arg]
    """Every deal's cards and play add to its result; the results add to the audited settlement; every
    deal's cards, like its result, sum to zero over the seats (a seat's average value is 0)."""
    settled = audit(events).settlement
    assert settled is not None
    totals = split.totals()
    assert [t[1] for t in totals] == [Fraction(x) for x in settled.exact]
    assert all(res == cards + play for _n, res, cards, play in totals)
    for deal in {r.deal for r in split.rows}:
        rows = [r for r in split.rows if r.deal == deal]
        assert sum(r.cards for r in rows) == 0
        assert sum(r.result for r in rows) == 0
        assert all(r.cards == r.result for r in rows if r.basis != Basis.DOUBLE_DUMMY)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10_000), levels=st.permutations(LEVELS))
def test_cards_plus_play_is_the_settlement_on_every_preset(table: tuple[str, int], seed: int,
                                                           levels: list[str]) -> None:
    spec, n = table
    events = simulate_pulka(spec, n, seed=seed, pool=6, max_deals=25, levels=parse_levels(levels[:n]))
    split = split_events("p", events)
    check_sums(split, events)
    assert any(r.basis == Basis.DOUBLE_DUMMY for r in split.rows) or len(split.rows) < 4 * n


@pytest.mark.parametrize("spec,n", TABLES)
def test_every_preset_has_played_deals_split(spec: str, n: int) -> None:
    events = simulate_pulka(spec, n, seed=3, pool=6, max_deals=30, levels=parse_levels(LEVELS[:n]))
    split = split_events("p", events)
    check_sums(split, events)
    assert any(r.basis == Basis.DOUBLE_DUMMY and r.play != 0 for r in split.rows)


def _demo(first: int | None) -> list[tuple[str, list]]:  # type: ignore[type-arg]
    out = []
    for f in sorted(DEMO.glob("*.pref")) + sorted(DEMO.glob("*.json")):
        recs = read_file_records(f)
        out += [(f"{f.name}#{i}", list(r.events)) for i, r in enumerate(recs[:first])]
    return out


def test_cards_plus_play_is_the_settlement_on_the_first_demo_pulkas() -> None:
    for name, events in _demo(1):
        split_ = split_events(name, events)
        check_sums(split_, events)


@pytest.mark.slow
def test_cards_plus_play_is_the_settlement_on_every_demo_pulka() -> None:
    for name, events in _demo(None):
        check_sums(split_events(name, events), events)


def test_the_hand_worked_deal_of_docs_skill() -> None:
    """docs/skill.md, deal 1 of the first Sochi demo pulka (pool 16, a vist at 1): Gleb plays 7♦, Boris and
    Egor whist. Double dummy from Boris's lead Gleb takes 6, Egor 2, Boris 2: one down, gora 4 for Gleb,
    each whister 2 × 4 + 4 consolation = 12 visty; mean gora 4/3, so Egor and Boris are worth
    12 + 10 × 4/3 = 76/3 and Gleb −24 + 10 × (4/3 − 4) = −152/3. As played Gleb took 7, Egor 1, Boris 2:
    made, pulya 4 (a gora of 4 for each of the others against him: mean 8/3), Egor writes 4, Boris 8, so
    Egor 4 + 10 × (8/3 − 4) = −28/3, Boris 8 − 40/3 = −16/3, Gleb −12 + 80/3 = 44/3."""
    events = list(read_file_records(DEMO / "sochi-3p.pref")[0].events)
    split = split_events("demo-sochi-3p-001", events)
    egor, gleb, boris = [r for r in split.rows if r.deal == 1]
    assert (egor.player, gleb.player, boris.player) == ("Egor", "Gleb", "Boris")
    assert all(r.basis == Basis.DOUBLE_DUMMY for r in (egor, gleb, boris))
    assert (egor.cards, gleb.cards, boris.cards) == (Fraction(76, 3), Fraction(-152, 3), Fraction(76, 3))
    assert (egor.result, gleb.result, boris.result) == (Fraction(-28, 3), Fraction(44, 3), Fraction(-16, 3))
    assert (egor.play, gleb.play, boris.play) == (Fraction(-104, 3), Fraction(196, 3), Fraction(-92, 3))


def test_the_spark_worker_function_packs_the_skill_table() -> None:
    """``spark analyze`` runs analysis_row per pulka: its packed skill rows are skill_rows of the split."""
    from preflog.analysis.skill import skill_rows
    from preflog.spark.tables import analysis_row

    events = simulate_pulka("sochi", 3, seed=4, pool=4, max_deals=8)
    packed = analysis_row("p", [e.to_row() for e in events])
    rows = packed.column("skill").to_pylist()[0]
    assert rows == skill_rows(split_events("p", events)) and len(rows) >= 3 * 2
