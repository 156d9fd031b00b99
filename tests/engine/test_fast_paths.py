"""The replay's fast paths give exactly what the careful paths give, compared on public results only.

:func:`audit_rows` (deal rows straight to the open deal, packed layouts without an event, runs of
card rows played in local variables) against :func:`audit` over event objects (the general dispatch,
one card at a time), on legal pulkas drawn action by action (tests/strategies.py): cut at every card
of a deal, with one of the player's own later cards played instead at the cut, and with one event
corrupted anywhere. Both must give the same findings (code, deal, seq, message, event), outcomes,
scores, sheet and settlement.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import assume
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.engine.replay import AuditResult
from preflog.engine.replay import audit
from preflog.engine.replay import audit_rows
from preflog.engine.replay import rows_of
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import DealStarted
from preflog.model.events import Event
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import WhistCalled
from preflog.sim import simulate_pulka

from ..strategies import TABLES
from ..strategies import draw_pulka

SPECS = (("sochi", 3), ("leningrad", 3), ("rostov", 3), ("sochi", 4), ("croatian", 3))
CORRUPTIONS = ("value", "own", "own", "seat", "swap", "drop", "repeat")


def _summary(res: AuditResult) -> tuple[object, ...]:
    return ([(f.code, f.deal, f.seq, f.message, f.event) for f in res.findings],
            [(d.deal, d.dealer, d.seq, d.outcome, d.score, d.broken, [f.seq for f in d.findings]) for d in res.deals],
            res.sheet, res.settlement, res.events, res.ended, res.players)


def _same_both_ways(log: list[Event]) -> AuditResult:
    slow, fast = audit(log), audit_rows(rows_of(log))
    assert _summary(fast) == _summary(slow)
    return slow


def _later_own_card(log: list[Event], i: int) -> int | None:
    """Index of a later card of the same deal played by the player of card ``log[i]``."""
    ev = log[i]
    assert isinstance(ev, CardPlayed)
    for j in range(i + 1, len(log)):
        e = log[j]
        if isinstance(e, (DealStarted, PulkaEnded)):
            return None
        if isinstance(e, CardPlayed) and e.player == ev.player:
            return j
    return None


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from(TABLES))
def test_row_path_matches_event_path_at_every_cut(data: st.DataObject, table: tuple[str, int]) -> None:
    """One drawn deal of a legal pulka, cut before each of its cards: the row path's card run stops
    there and the rest goes card by card. The log ended at the cut (the deal left incomplete, which
    names the seat to play), and the player's own later card played at the cut instead (held, maybe
    not following suit or trumping), audit the same both ways."""
    spec, n = table
    log = draw_pulka(data, spec, n, max_deals=3, claims=False)
    assert _same_both_ways(log).ok
    deals: list[list[int]] = []   # the card positions of each deal
    for i, e in enumerate(log):
        if isinstance(e, DealStarted):
            deals.append([])
        elif isinstance(e, CardPlayed):
            deals[-1].append(i)
    played = [cards for cards in deals if cards]
    if not played:
        return
    for cut in data.draw(st.sampled_from(played), label="deal"):
        res = _same_both_ways([*log[:cut], PulkaEnded("stopped")])
        assert res.codes() == ["deal_incomplete"]
        j = _later_own_card(log, cut)
        if j is not None:
            swapped = list(log)
            swapped[cut], swapped[j] = swapped[j], swapped[cut]
            _same_both_ways(swapped)


def _corrupt(log: list[Event], how: str, i: int, value: int, n: int) -> list[Event]:
    """``log`` with its card, bid or whist call at ``i`` corrupted in the way ``how``."""
    ev = log[i]
    out = list(log)
    if how == "value":
        if isinstance(ev, CardPlayed):
            out[i] = CardPlayed(ev.player, value)
        elif isinstance(ev, BidMade):
            out[i] = BidMade(ev.player, (0, 61, 62, 63, 71, 81, 90, 101)[value % 8])
        else:
            out[i] = WhistCalled(ev.player, value % 4)
    elif how == "seat":
        out[i] = replace(ev, player=(ev.player + 1 + value % (n - 1)) % n)  # type: ignore[attr-defined]
    elif how == "own" and isinstance(ev, CardPlayed):
        # the player plays one of his later cards of the deal now: held, but maybe not following
        # suit or not trumping
        later = []
        for j in range(i + 1, len(log)):
            if isinstance(log[j], DealStarted):
                break
            if isinstance(log[j], CardPlayed) and log[j].player == ev.player:  # type: ignore[attr-defined]
                later.append(j)
        if later:
            j = later[value % len(later)]
            out[i], out[j] = out[j], out[i]
    elif how == "swap" and i + 1 < len(log):
        out[i], out[i + 1] = out[i + 1], out[i]
    elif how == "drop":
        del out[i]
    elif how == "repeat":
        out.insert(i, ev)
    return out


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(TABLES), st.sampled_from(CORRUPTIONS))
def test_audit_rows_matches_audit_on_corrupted_pulkas(data: st.DataObject, table: tuple[str, int],
                                                      how: str) -> None:
    """One corrupted card, bid or whist call anywhere in a legal pulka (card and paper deals): the row
    fast path and the event path report the same findings and score the same deals."""
    spec, n = table
    log = draw_pulka(data, spec, n, paper=None, max_deals=4)
    assert isinstance(log[0], PulkaStarted)
    idx = [i for i, e in enumerate(log) if isinstance(e, (CardPlayed, BidMade, WhistCalled))]
    assume(idx)  # (a pulka of paper deals written without a single call has nothing to corrupt)
    i = data.draw(st.sampled_from(idx), label="event")
    # (card codes past 31, negative, and past any machine word: the compiled kernel reads cards as 64-bit ints)
    value = data.draw(st.one_of(st.integers(0, 40), st.sampled_from([-1, -129, 2**40, 2**63, 2**70])), label="value")
    bad = _corrupt(log, how, i, value, n)
    slow, fast = audit(bad), audit_rows(rows_of(bad))
    assert _summary(fast) == _summary(slow)
    assert audit_rows(iter(rows_of(bad))).codes() == slow.codes()  # any iterable of rows


def test_clean_pulkas_audit_the_same_both_ways() -> None:
    """Legal simulated pulkas of every spec: no findings either way, identical sheets and settlements."""
    for k, (name, n) in enumerate(SPECS):
        log = simulate_pulka(name, n, 1000 + k, max_deals=12)
        slow, fast = audit(log), audit_rows(rows_of(log))
        assert fast.ok and slow.ok, (name, fast.codes())
        assert _summary(fast) == _summary(slow)
        assert len(fast.deals) == sum(isinstance(e, DealStarted) for e in log)
