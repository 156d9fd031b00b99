"""Property tests of the deal engine on logs drawn action by action from ``legal_actions()``
(tests/strategies.py): every Russian preset and variant at 3 and 4 players, card level and paper level;
the corruption test runs both families. A failure shrinks to a short deal, not to a seed.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.engine.replay import audit
from preflog.engine.replay import audit_rows
from preflog.engine.replay import rows_of
from preflog.model.cards import FULL_DECK
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import Claimed
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import Event
from preflog.model.events import TenChecked
from preflog.model.outcome import DealKind

from ..strategies import RUSSIAN_TABLES
from ..strategies import TABLES
from ..strategies import draw_deal
from ..strategies import opened_deal

# finding codes (docs/findings.md) a corrupted card or bid may be refused with
CARD_CODES = {"card_not_held", "must_follow_suit", "must_trump"}
BID_CODES = {"bad_bid", "below_min_level", "bid_after_pass", "bid_not_above_last", "bid_out_of_turn",
             "hold_not_allowed", "take_talon_not_allowed", "miser_by_third_hand", "jump_bid",
             "miser_bidder_must_pass", "miser_not_beaten", "miser_not_first_call",
             # Croatian auction
             "igra_after_number", "hand_contract_not_first_call", "number_after_igra", "igra_in_naming",
             "name_not_above", "hand_bettel_not_at_once"}
PLAYED = (DealKind.GAME, DealKind.MISER, DealKind.RASPASY)


def _check_replay(log: list[Event], outcome: object) -> None:
    """The log audits clean to the outcome the live deal reached; replay is deterministic and the row
    path agrees."""
    res = audit(log)
    assert res.ok, res.codes()
    again = audit(log)
    assert again.deals[0].outcome == res.deals[0].outcome == outcome   # replay is deterministic
    rows = audit_rows(rows_of(log))
    assert rows.ok and rows.deals[0].outcome == outcome
    assert rows.sheet == res.sheet and rows.settlement == res.settlement


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(RUSSIAN_TABLES), st.booleans())
def test_card_level_deal_invariants(data: st.DataObject, table: tuple[str, int], claims: bool) -> None:
    """Cards are conserved (each played once, by the seat holding it; played + discard, or + the unused
    raspasy talon, is the pack), a played deal has 10 tricks, and the log audits clean both ways."""
    spec, n = table
    log, deal = draw_deal(data, spec, n, claims=claims)
    o = deal.outcome
    assert o is not None and not o.paper
    start = log[1]
    assert isinstance(start, DealStarted) and start.hands is not None and start.talon is not None
    held = list(start.hands)
    discard = next((e.cards for e in log if isinstance(e, Discarded)), 0)
    played = 0
    for e in log:
        if isinstance(e, Discarded):
            held[e.player] = (held[e.player] | start.talon) & ~e.cards
        elif isinstance(e, CardPlayed):
            bit = 1 << e.card
            assert held[e.player] & bit and not played & bit, e   # a held card, never played twice
            held[e.player] &= ~bit
            played |= bit
    claimed = any(isinstance(e, (Claimed, TenChecked)) for e in log)   # play ended before the last card
    if o.kind in PLAYED:
        assert sum(o.tricks) == 10 and len(o.tricks) == n
        if not claimed:
            assert played.bit_count() == 30 and not any(held)            # every card in hand was played
            rest = discard if o.kind != DealKind.RASPASY else start.talon
            assert played | rest == FULL_DECK and not played & rest       # the 32 cards are conserved
    else:
        assert not played
    _check_replay(log, o)


@settings(max_examples=100, deadline=None)
@given(st.data(), st.sampled_from(RUSSIAN_TABLES))
def test_paper_level_deal_invariants(data: st.DataObject, table: tuple[str, int]) -> None:
    """A paper deal (no cards recorded) ends in a paper outcome with 10 tricks when played, and audits
    clean both ways."""
    spec, n = table
    log, deal = draw_deal(data, spec, n, paper=True)
    o = deal.outcome
    assert o is not None and o.paper
    assert not any(isinstance(e, (CardPlayed, Discarded)) for e in log)
    if o.kind in PLAYED:
        assert sum(o.tricks) == 10 and len(o.tricks) == n
    _check_replay(log, o)


@settings(max_examples=200, deadline=None)
@given(st.data(), st.sampled_from(TABLES))
def test_single_corruption_is_legal_or_reported(data: st.DataObject, table: tuple[str, int]) -> None:
    """Corrupt one card or bid: either the log stays legal where it stands, or audit reports the right
    code at that event."""
    spec, n = table
    log, _ = draw_deal(data, spec, n)
    idx = [i for i, e in enumerate(log) if isinstance(e, (CardPlayed, BidMade))]
    i = data.draw(st.sampled_from(idx), label="corrupted event")
    ev = log[i]
    # replay the prefix to know whether the corrupted event is legal where it stands
    d = opened_deal(log[:2])
    for e in log[2:i]:
        d.apply(e)
    if isinstance(ev, CardPlayed):
        card = data.draw(st.integers(0, 31), label="card")
        bad: Event = CardPlayed(ev.player, card)
        legal_here = d.can_play(ev.player, card)
        codes = CARD_CODES
    else:
        assert isinstance(ev, BidMade)
        bid = data.draw(st.sampled_from((0, 1, 2, 3, 5, 7, 8, 16, 17, 61, 62, 63, 64, 65, 71, 72, 81, 90, 91, 101)),
                        label="bid")
        bad = BidMade(ev.player, bid)
        legal_here = d.can_bid(ev.player, bid)
        codes = BID_CODES
    corrupted = log[:i] + [bad] + log[i + 1:]
    res = audit(corrupted)
    if legal_here:
        assert all(f.seq > i + 1 for f in res.findings) or res.ok  # log[i] is seq i + 1
    else:
        assert res.findings and res.findings[0].seq == i + 1 and res.findings[0].code in codes, res.codes()
    assert audit_rows(rows_of(corrupted)).codes() == res.codes()
