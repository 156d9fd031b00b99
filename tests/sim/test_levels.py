"""Bot levels (preflog.sim.levels): legal play at every level, the double-dummy bot never loses a trick
against perfect play, the careless and overbidding bots differ from the heuristic one as asked."""

from __future__ import annotations

import pytest

from preflog.analysis import Options
from preflog.analysis import analyze_events
from preflog.engine.replay import audit
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import ContractDeclared
from preflog.sim import SimError
from preflog.sim import simulate_pulka
from preflog.sim.levels import BotLevel
from preflog.sim.levels import Kind
from preflog.sim.levels import LevelError
from preflog.sim.levels import parse_levels

MIXED = ("dd", "heuristic", "careless:0.5")


def test_parse_and_name_levels() -> None:
    assert BotLevel.parse("dd") == BotLevel(Kind.DOUBLE_DUMMY)
    assert BotLevel.parse("careless:0.25") == BotLevel(Kind.CARELESS, share=0.25)
    assert str(BotLevel.parse("overbid:1.5")) == "overbid:1.5"
    for bad in ("genius", "careless:x", "careless:2", "heuristic:1"):
        with pytest.raises(LevelError):
            BotLevel.parse(bad)


def test_heuristic_levels_are_todays_bots_and_levels_must_fit_the_table() -> None:
    plain = simulate_pulka("sochi", 3, seed=5, pool=10)
    assert simulate_pulka("sochi", 3, seed=5, pool=10, levels=parse_levels(["heuristic"] * 3)) == plain
    assert simulate_pulka("sochi", 3, seed=5, pool=10, levels=parse_levels(MIXED)) != plain
    with pytest.raises(SimError):
        simulate_pulka("sochi", 3, seed=5, levels=parse_levels(["dd"] * 4))
    named = simulate_pulka("sochi", 3, seed=5, pool=10, names=("Ann", "Bob", "Cid"))
    assert named[0].players == ("Ann", "Bob", "Cid")  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec,players", [("sochi", 3), ("leningrad", 4), ("rostov", 3), ("croatian", 3)])
def test_every_level_plays_a_pulka_the_auditor_accepts(spec: str, players: int) -> None:
    levels = parse_levels((MIXED + ("overbid:1",))[:players])
    events = simulate_pulka(spec, players, seed=11, pool=10, levels=levels)
    assert audit(events).findings == []


def test_the_double_dummy_bot_loses_no_trick_in_a_trick_contract_or_misere() -> None:
    """Every seat double dummy: the analysis (the same solver, judged card by card) finds no card of a
    contract that lost a trick; the heuristic bots, on the same seeds, lose some."""
    def losses(levels: tuple[str, ...]) -> int:
        n = 0
        for seed in (1, 2):
            events = simulate_pulka("sochi", 3, seed=seed, pool=6, levels=parse_levels(levels))
            a = analyze_events("p", events, options=Options(discard=False, cost=False))
            n += sum(len([x for x in d.losses if x.role != "raspasy"]) for d in a.deals)
        return n
    assert losses(("dd",) * 3) == 0
    assert losses(("heuristic",) * 3) > 0


def test_careless_plays_other_cards_and_overbid_declares_more() -> None:
    def cards(levels: tuple[str, ...]) -> list[int]:
        evs = simulate_pulka("sochi", 3, seed=3, pool=10, max_deals=20, levels=parse_levels(levels))
        return [e.card for e in evs if isinstance(e, CardPlayed)]
    assert cards(("careless:1",) * 3) != cards(("heuristic",) * 3)

    def bids(levels: tuple[str, ...]) -> int:
        n = 0
        for seed in range(4):
            evs = simulate_pulka("sochi", 3, seed=seed, pool=10, max_deals=20, levels=parse_levels(levels))
            n += sum(1 for e in evs if isinstance(e, (BidMade, ContractDeclared)))
        return n
    assert bids(("overbid:2",) * 3) > bids(("heuristic",) * 3)
