"""Property tests of Croatian / Slovenian deals through the engine: pulkas drawn action by action from
``legal_actions()`` (tests/strategies.py; card level and paper level, so a failure shrinks to a short
pulka) and simulated pulkas (preflog.sim.croatian).

Checked: cards are conserved (every card played once, by the seat that holds it, the out passer none),
tricks add up, the settlement is zero-sum, replay is deterministic (events and rows agree), and every
simulated pulka audits clean with the simulator's own outcomes.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.engine.croatian.deal import CroatianDeal
from preflog.engine.families import family_of
from preflog.engine.pulka import PulkaState
from preflog.engine.replay import audit
from preflog.engine.replay import audit_rows
from preflog.engine.replay import rows_of
from preflog.model.cards import FULL_DECK
from preflog.model.events import CardPlayed
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import Event
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.outcome import NO_SEAT
from preflog.model.outcome import DealKind
from preflog.sim import simulate_pulka

from ..strategies import CROATIAN_TABLES
from ..strategies import draw_pulka

SPECS = ("croatian", "slovenian", "croatian+start-50")


def _check_cards(log: list[Event]) -> None:
    """Per deal: each card is played at most once, by a seat holding it (the declarer's hand includes the
    talon after his discard); the uninvited passer plays nothing."""
    res = audit(log)
    deals = iter(res.deals)
    held: list[int] = []
    played = 0
    summary = None
    for e in log:
        if isinstance(e, DealStarted):
            summary = next(deals)
            held, played = list(e.hands or ()), 0
            if e.hands is None:      # a paper deal: no cards recorded
                assert e.talon is None
                continue
            assert e.talon is not None
            assert sum(h.bit_count() for h in e.hands) + 2 == 32
            assert (e.hands[0] | e.hands[1] | e.hands[2] | e.talon) == FULL_DECK
        elif isinstance(e, Discarded):
            assert summary is not None
            talon = FULL_DECK & ~(held[0] | held[1] | held[2]) & ~played
            held[e.player] = (held[e.player] | talon) & ~e.cards
        elif isinstance(e, CardPlayed):
            bit = 1 << e.card
            assert held[e.player] & bit and not played & bit
            held[e.player] &= ~bit
            played |= bit
            o = summary.outcome if summary else None
            assert o is None or o.kind != DealKind.GAME or e.player != _out_seat(o)


def _out_seat(o) -> int:  # type: ignore[no-untyped-def]
    whisters = [s for s in range(3) if o.calls[s] in (1, 3)]
    if len(whisters) == 1 and o.invited == NO_SEAT:
        return next(s for s in range(3) if s not in whisters and s != o.declarer)
    return NO_SEAT


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(CROATIAN_TABLES))
def test_random_legal_deals(data: st.DataObject, table: tuple[str, int]) -> None:
    spec, n = table
    log = draw_pulka(data, spec, n, paper=None, max_deals=12)
    res = audit(log)
    assert res.ok, res.findings[:3]
    _check_cards(log)
    assert res.settlement is not None and sum(res.settlement.exact) == Fraction(0)
    assert sum(res.settlement.method1) == 0
    for d in res.deals:
        o = d.outcome
        assert o is not None
        if o.kind == DealKind.GAME:
            side = sum(o.tricks) - o.tricks[o.declarer]
            assert sum(o.tricks) == 10 or o.stopped_early
            assert o.contract == 6 or side <= 5
    rows = audit_rows(rows_of(log))
    assert rows.ok and rows.sheet == res.sheet and rows.settlement == res.settlement
    assert [d.outcome for d in rows.deals] == [d.outcome for d in res.deals]
    again = audit(log)   # replay is deterministic
    assert again.sheet == res.sheet and [d.outcome for d in again.deals] == [d.outcome for d in res.deals]


@settings(max_examples=10, deadline=None)
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 2**32), paper=st.booleans())
def test_simulated_pulkas_audit_clean(spec: str, seed: int, paper: bool) -> None:
    outcomes: list = []
    events = simulate_pulka(spec, 3, seed=seed, paper=paper, outcomes=outcomes)
    res = audit(events)
    assert res.ok, res.findings[:3]
    assert [d.outcome for d in res.deals] == outcomes
    assert res.ended and events[-1] == PulkaEnded("closed")
    assert res.settlement is not None and sum(res.settlement.exact) == 0
    assert simulate_pulka(spec, 3, seed=seed, paper=paper) == events  # deterministic
    if not paper:
        _check_cards(events)


def test_simulator_is_registered_and_plays_every_kind() -> None:
    """The Croatian family names its bots; 40 pulkas show all-pass, unwhisted, played and stopped deals,
    hand games, contras, invitations and two-handed play."""
    assert family_of("croatian").bots().__name__ == "CroatianBots"
    seen: set[str] = set()
    for seed in range(40):
        outcomes: list = []
        simulate_pulka(SPECS[seed % 3], 3, seed=seed, outcomes=outcomes)
        for o in outcomes:
            seen.add(o.kind)
            if o.hand_game:
                seen.add("hand")
            if any(o.contra):
                seen.add("contra")
            if o.invited != NO_SEAT:
                seen.add("invite")
            if o.stopped_early:
                seen.add("stopped")
            if o.kind == DealKind.GAME and _out_seat(o) != NO_SEAT:
                seen.add("two-handed")
    assert {"all_pass", "not_whisted", "game", "conceded", "hand", "contra", "invite", "stopped",
            "two-handed"} <= seen


def test_deal_state_class() -> None:
    p = PulkaState(PulkaStarted(("A", "B", "C"), "slovenian"))
    assert isinstance(p.start_deal(DealStarted(0)), CroatianDeal)
