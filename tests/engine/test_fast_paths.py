"""The replay's fast paths give exactly what the careful paths give.

* :meth:`Deal.play_cards` (runs of card rows with the state in local variables) against
  :meth:`Deal.play` card by card, stopped at every point of a deal;
* :func:`audit_rows` (deal rows straight to the open deal, packed layouts without an event,
  card runs) against :func:`audit` over event objects (the general dispatch, one card at a time),
  on whole simulated pulkas with one event corrupted: same findings (code, deal, seq, message,
  event), outcomes, scores, sheet and settlement.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from preflog.engine.deal import Deal
from preflog.engine.families import open_deal
from preflog.engine.replay import AuditResult, audit, audit_rows, rows_of
from preflog.model.events import BidMade, CardPlayed, DealStarted, Event, PulkaStarted, WhistCalled
from preflog.rules import resolve
from preflog.sim import simulate_pulka

SPECS = (("sochi", 3), ("leningrad", 3), ("rostov", 3), ("sochi", 4), ("croatian", 3))
CORRUPTIONS = ("value", "own", "own", "seat", "swap", "drop", "repeat")
STATE = ("phase", "hands", "tricks", "trick_cards", "trick_seats", "trick_winners", "completed", "to_play",
         "_led", "_best", "_best_seat", "outcome")


def _snapshot(d: Deal) -> tuple[object, ...]:
    return tuple(getattr(d, name) for name in STATE)


def _summary(res: AuditResult) -> tuple[object, ...]:
    return ([(f.code, f.deal, f.seq, f.message, f.event) for f in res.findings],
            [(d.deal, d.dealer, d.seq, d.outcome, d.score, d.broken, [f.seq for f in d.findings]) for d in res.deals],
            res.sheet, res.settlement, res.events, res.ended, res.players)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SPECS[:4]), st.integers(0, 2**31))
def test_play_cards_matches_play_at_every_stop(spec: tuple[str, int], seed: int) -> None:
    """Each deal's card rows played as one run up to every cut point, and card by card, leave the
    same state (hands, trick in progress, winners, leader, outcome); a run stops at the cut."""
    name, n = spec
    log = simulate_pulka(name, n, seed, max_deals=3)
    rules = resolve(name)
    rows = rows_of(log)
    starts = [i for i, e in enumerate(log) if isinstance(e, DealStarted)]
    for s, e in zip(starts, [*starts[1:], len(log)], strict=True):
        cards = [i for i in range(s, e) if isinstance(log[i], CardPlayed)]
        if not cards:
            continue
        first, last = cards[0], cards[-1] + 1
        ev = log[s]
        assert isinstance(ev, DealStarted)
        base = open_deal(rules, n, ev.dealer, ev.hands, ev.talon)
        for x in log[s + 1:first]:
            base.apply(x)
        for cut in range(first, last + 1):
            fast = open_deal(rules, n, ev.dealer, ev.hands, ev.talon)
            slow = open_deal(rules, n, ev.dealer, ev.hands, ev.talon)
            for x in log[s + 1:first]:
                fast.apply(x)
                slow.apply(x)
            i = first
            while i < cut:               # the replay's loop: a run, else one card through play()
                j = fast.play_cards(rows, i, cut)
                if j == i:
                    fast.play(rows[i][1], rows[i][2])
                    j = i + 1
                i = j
            for x in log[first:cut]:
                slow.apply(x)
            assert _snapshot(fast) == _snapshot(slow), (name, seed, s, cut)
        assert base.phase != Deal.phase  # (sanity: the auction moved the deal on)


def _corrupt(log: list[Event], how: str, pick: int, value: int, n: int) -> list[Event]:
    idx = [i for i, e in enumerate(log) if isinstance(e, (CardPlayed, BidMade, WhistCalled))]
    i = idx[pick % len(idx)]
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


@settings(max_examples=250, deadline=None)
@given(st.sampled_from(SPECS), st.integers(0, 2**31), st.sampled_from(CORRUPTIONS), st.integers(0, 10**6),
       st.integers(0, 40))
def test_audit_rows_matches_audit_on_corrupted_pulkas(spec: tuple[str, int], seed: int, how: str, pick: int,
                                                      value: int) -> None:
    """One corrupted card, bid or whist call anywhere in a simulated pulka: the row fast path and
    the event path report the same findings and score the same deals."""
    name, n = spec
    log = simulate_pulka(name, n, seed, max_deals=4)
    assert isinstance(log[0], PulkaStarted)
    bad = _corrupt(log, how, pick, value, n)
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
