"""Property tests: random legal deals under each Russian preset at 3 and 4 players."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from preflog.engine.codes import Code
from preflog.engine.randomplay import random_deal
from preflog.engine.replay import audit, audit_rows, rows_of
from preflog.engine.russian.deal import RussianDeal
from preflog.model.cards import FULL_DECK
from preflog.model.events import BidMade, CardPlayed, Discarded, PulkaStarted
from preflog.rules import resolve

PRESETS = ("sochi", "leningrad", "rostov")
CARD_CODES = {Code.CARD_NOT_HELD, Code.MUST_FOLLOW_SUIT, Code.MUST_TRUMP}
BID_CODES = {Code.BAD_BID, Code.BELOW_MIN_LEVEL, Code.BID_AFTER_PASS, Code.BID_NOT_ABOVE_LAST, Code.BID_OUT_OF_TURN,
             Code.HOLD_NOT_ALLOWED,
             Code.JUMP_BID, Code.MISER_BIDDER_MUST_PASS, Code.MISER_NOT_BEATEN, Code.MISER_NOT_FIRST_CALL}

cases = st.tuples(st.sampled_from(PRESETS), st.sampled_from((3, 4)), st.integers(0, 2**32 - 1))


def make(spec: str, n: int, seed: int):
    rng = random.Random(seed)
    rules = resolve(spec)
    dealer = rng.randrange(n)
    events, d = random_deal(rules, n, dealer, rng)
    start = PulkaStarted(tuple("ABCD"[:n]), spec)
    return rules, [start, *events], d


@settings(max_examples=300, deadline=None)
@given(cases)
def test_random_deal_invariants(case: tuple[str, int, int]) -> None:
    spec, n, seed = case
    rules, log, d = make(spec, n, seed)
    o = d.outcome
    assert o is not None
    played = sum(1 << e.card for e in log if isinstance(e, CardPlayed))
    if o.kind in ("game", "miser", "raspasy"):
        assert sum(o.tricks) == 10 and len(o.tricks) == n
        assert d.completed == 10 and not any(d.hands)          # every card in hand was played
        assert played.bit_count() == 30
        discard = next((e.cards for e in log if isinstance(e, Discarded)), 0)
        talon = log[1].talon
        # 32 cards conserved: played + discard (+ the unused raspasy talon) is the whole pack
        rest = discard if o.kind != "raspasy" else talon
        assert played | rest == FULL_DECK and not played & rest
    res = audit(log)
    assert res.ok, res.codes()
    again = audit(log)
    assert again.deals[0].outcome == res.deals[0].outcome == o   # replay is deterministic
    assert audit_rows(rows_of(log)).deals[0].outcome == o


@settings(max_examples=300, deadline=None)
@given(cases, st.integers(0, 10**6), st.integers(0, 31))
def test_single_corruption_is_legal_or_reported(case: tuple[str, int, int], pick: int, value: int) -> None:
    """Corrupt one card or bid: either the log stays legal, or audit reports the right code at that event."""
    spec, n, seed = case
    rules, log, _ = make(spec, n, seed)
    idx = [i for i, e in enumerate(log) if isinstance(e, (CardPlayed, BidMade))]
    i = idx[pick % len(idx)]
    ev = log[i]
    # replay the prefix to know whether the corrupted event is legal where it stands
    d = RussianDeal.from_event(rules, n, log[1])
    for e in log[2:i]:
        d.apply(e)
    if isinstance(ev, CardPlayed):
        bad = CardPlayed(ev.player, value)
        legal_here = d.can_play(bad.player, bad.card)
        codes = CARD_CODES
    else:
        bad = BidMade(ev.player, (0, 61, 62, 63, 64, 65, 71, 72, 81, 90, 91, 101)[value % 12])
        legal_here = d.can_bid(bad.player, bad.bid)
        codes = BID_CODES
    corrupted = log[:i] + [bad] + log[i + 1:]
    res = audit(corrupted)
    if legal_here:
        assert all(f.seq > i for f in res.findings) or res.ok
    else:
        assert res.findings and res.findings[0].seq == i and res.findings[0].code in codes, res.codes()
