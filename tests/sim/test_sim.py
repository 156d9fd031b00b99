"""Synthetic pulkas: determinism, card conservation, legality, realistic rates, paper mode, engine audit."""

from __future__ import annotations

import dataclasses

import pytest

from preflog.engine.families import family_of
from preflog.engine.replay import audit
from preflog.model.cards import FULL_DECK
from preflog.model.events import CardPlayed
from preflog.model.events import DealStarted
from preflog.model.events import PaperResult
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.rules.presets import resolve
from preflog.sim import SimCheckError
from preflog.sim import SimError
from preflog.sim import check_pulka
from preflog.sim import rates
from preflog.sim import simulate_many
from preflog.sim import simulate_pulka

SPECS = [("sochi", 3), ("leningrad", 3), ("rostov", 3), ("sochi", 4), ("leningrad", 4), ("rostov", 4)]


def test_same_seed_same_events_other_seed_other_events() -> None:
    a = simulate_pulka("sochi", 3, seed=7)
    b = simulate_pulka("sochi", 3, seed=7)
    c = simulate_pulka("sochi", 3, seed=8)
    assert a == b
    assert a != c
    assert isinstance(a[0], PulkaStarted) and isinstance(a[-1], PulkaEnded)


@pytest.mark.parametrize("spec,players", SPECS)
def test_cards_conserved_and_every_play_legal(spec: str, players: int) -> None:
    """Each deal: the hands and the talon are 32 distinct cards (the 4-player dealer holds none), and the
    independent checker replays every trick (follow suit, trump when void, turn order)."""
    for seed in range(8):
        events = simulate_pulka(spec, players, seed)
        for ev in events:
            if isinstance(ev, DealStarted):
                assert ev.hands is not None and ev.talon is not None
                union = ev.talon
                total = ev.talon.bit_count()
                for h in ev.hands:
                    union |= h
                    total += h.bit_count()
                assert total == 32 and union == FULL_DECK
                if players == 4:
                    assert ev.hands[ev.dealer] == 0
        summaries = check_pulka(events)
        assert len(summaries) == sum(isinstance(e, DealStarted) for e in events)


def test_checker_catches_an_illegal_card() -> None:
    """Swap the second card of the first played trick for a card of another suit held by the same
    player while he still holds the suit led: the checker must refuse it."""
    for seed in range(50):
        events = simulate_pulka("sochi", 3, seed, max_deals=3)
        for i, ev in enumerate(events):
            if isinstance(ev, CardPlayed) and isinstance(events[i - 1], CardPlayed) \
                    and not isinstance(events[i - 2], CardPlayed) and ev.card >> 3 == events[i - 1].card >> 3:
                # find the deal's hands to pick an off-suit card of this player
                start = max(j for j in range(i) if isinstance(events[j], DealStarted))
                ds = events[start]
                assert isinstance(ds, DealStarted) and ds.hands is not None
                hand = ds.hands[ev.player]
                off = [c for c in range(32) if hand >> c & 1 and c >> 3 != ev.card >> 3]
                if not off:
                    continue
                bad = list(events)
                bad[i] = dataclasses.replace(ev, card=off[0])
                with pytest.raises(SimCheckError):
                    check_pulka(bad)
                return
    raise AssertionError("no suitable trick found")


def test_rates_look_like_real_play() -> None:
    """Bands on ~900 Sochi/Leningrad deals (3 players): raspasy 5–20 % of deals, miser 1–8 %,
    declared trick games made (unwhisted count as made) 70–92 %, played ones 65–90 %, misers
    made 40–95 %, and all levels 6–8 present with 6 the most frequent."""
    summaries = []
    for seed in range(15):
        for spec in ("sochi", "leningrad"):
            summaries += check_pulka(simulate_pulka(spec, 3, 1000 + seed))
    r = rates(summaries)
    assert r["deals"] >= 600
    assert 0.05 <= r["share_raspasy"] <= 0.20
    assert 0.01 <= r["share_miser"] <= 0.08
    assert 0.70 <= r["declared_games_made"] <= 0.92
    assert 0.65 <= r["played_games_made"] <= 0.90
    assert 0.40 <= r["misers_made"] <= 0.95
    levels = [s.contract // 10 for s in summaries if s.kind in ("game", "not_whisted", "half_whist")]
    counts = {lvl: levels.count(lvl) for lvl in (6, 7, 8)}
    assert all(counts.values()) and counts[6] > counts[7] > counts[8]


@pytest.mark.parametrize("spec,players", [("sochi", 3), ("rostov", 4)])
def test_paper_mode(spec: str, players: int) -> None:
    """Paper deals carry no hands and no cards; every played deal ends with PaperResult of 10 tricks."""
    events = simulate_pulka(spec, players, seed=3, paper=True)
    assert not any(isinstance(e, CardPlayed) for e in events)
    deals = [e for e in events if isinstance(e, DealStarted)]
    results = [e for e in events if isinstance(e, PaperResult)]
    assert deals and all(d.hands is None and d.talon is None for d in deals)
    assert results and all(sum(r.tricks) == 10 and len(r.tricks) == players for r in results)
    assert len(results) <= len(deals)


@pytest.mark.parametrize("spec,players", SPECS)
@pytest.mark.parametrize("paper", [False, True])
def test_engine_audit_has_no_findings(spec: str, players: int, paper: bool) -> None:
    for seed in range(6):
        events = simulate_pulka(spec, players, 500 + seed, paper=paper)
        result = audit(events)
        assert result.findings == [], result.findings[:3]
        assert result.ended


AUCTION_OPTIONS = ["sochi+third-hand-takes-talon", "sochi+jumps", "leningrad+miser-by-10",
                   "leningrad+third-hand-takes-talon+min-bid-after-raspasy+jumps"]


@pytest.mark.parametrize("spec", AUCTION_OPTIONS)
@pytest.mark.parametrize("players", [3, 4])
def test_bots_bid_legally_under_every_auction_option(spec: str, players: int) -> None:
    """The Russian bots bid through the engine's auction, so its options (take-talon, jumps, miser
    beaten from 10, the anti-raspasy minimum, also after a take-talon) never make an illegal log."""
    for seed in range(10):
        result = audit(simulate_pulka(spec, players, 300 + seed))
        assert result.findings == [], result.findings[:3]


@pytest.mark.parametrize("spec,players", [("sochi", 3), ("leningrad", 4), ("rostov", 3)])
def test_outcomes_agree_with_engine_and_pulka_closes(spec: str, players: int) -> None:
    """The outcomes the simulator hands its scorer equal the ones the engine derives by replay, and a
    pulka that says 'closed' is finished by the scorer's own judgement."""
    for seed in range(5):
        outcomes: list = []
        events = simulate_pulka(spec, players, 900 + seed, outcomes=outcomes)
        result = audit(events)
        assert [d.outcome for d in result.deals] == outcomes
        end = events[-1]
        assert isinstance(end, PulkaEnded) and end.reason == "closed"
        scorer = family_of(resolve(spec)).scorer(resolve(spec), players, 20)
        for i, o in enumerate(outcomes):
            assert not scorer.is_finished(), f"finished before deal {i + 1}"
            scorer.score(o)
        assert scorer.is_finished()


def test_max_deals_stops_the_pulka() -> None:
    events = simulate_pulka("sochi", 3, seed=1, pool=500, max_deals=5)
    assert sum(isinstance(e, DealStarted) for e in events) == 5
    assert events[-1] == PulkaEnded("max_deals")


def test_bad_arguments() -> None:
    with pytest.raises(SimError):
        simulate_pulka("sochi", 5, seed=1)
    with pytest.raises(SimError):
        simulate_pulka("croatian", 4, seed=1)


def test_simulate_many_is_independent_of_workers() -> None:
    specs = [("sochi", 3), ("rostov", 4)]
    one = list(simulate_many(specs, 6, seed=42, workers=1))
    two = list(simulate_many(specs, 6, seed=42, workers=2))
    assert [i for i, _ in one] == list(range(6))
    assert one == two
    assert one[0][1][0].rules == "sochi" and len(one[1][1][0].players) == 4
    assert one[0][1] != one[2][1]  # same spec, different pulka seeds


def test_simulate_many_rows_are_the_event_rows() -> None:
    events = list(simulate_many(["leningrad"], 2, seed=5, workers=1))
    rows = list(simulate_many(["leningrad"], 2, seed=5, workers=2, rows=True))
    assert [(i, [e.to_row() for e in ev]) for i, ev in events] == rows
