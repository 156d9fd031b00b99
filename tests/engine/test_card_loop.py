"""The compiled card loop (``preflog/engine/_tricks.c``) plays exactly as the ``.py`` loop of
:meth:`~preflog.engine.tricks.TrickPlay.play_cards`, its reference.

With the compiled kernel the card loop is C; :data:`preflog.engine.tricks.CARD_LOOP` set to None runs the
``.py`` loop in the same process. Compared on legal pulkas drawn action by action (tests/strategies.py)
of every family and table (talon-led raspasy tricks, the Croatian stop caps, two-handed tricks), cut and
corrupted (card codes past 31, negative and past any machine word, wrong seats, swaps): the same
findings and scores from :func:`audit_rows`, and the same deal state after every run of cards.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog import _native
from preflog.engine import tricks
from preflog.engine.deal import Deal
from preflog.engine.replay import audit_rows
from preflog.engine.replay import rows_of
from preflog.engine.replay import state_at
from preflog.model.columns import RowColumns
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import WhistCalled

from ..strategies import TABLES
from ..strategies import draw_pulka
from .test_fast_paths import CORRUPTIONS
from .test_fast_paths import _corrupt
from .test_fast_paths import _summary


@contextmanager
def card_loop(loop: Any) -> Iterator[None]:
    """Inside the block :meth:`TrickPlay.play_cards` runs ``loop`` (None: the ``.py`` loop)."""
    was = tricks.CARD_LOOP
    tricks.CARD_LOOP = loop
    try:
        yield
    finally:
        tricks.CARD_LOOP = was


def _both(rows: list[Any]) -> tuple[object, object]:
    with card_loop(tricks.BUILT):
        c = _summary(audit_rows(rows))
    with card_loop(None):
        py = _summary(audit_rows(rows))
    return c, py


def _play_state(d: Deal) -> tuple[object, ...]:
    return (d.phase, list(d.hands), list(d.tricks), list(d.trick_winners), list(d.trick_cards), list(d.trick_seats),
            d.to_play, d.completed, d.suit_led, d.winning, d._talon_order, d.outcome)


@settings(max_examples=120, deadline=None)
@given(st.data(), st.sampled_from(TABLES), st.sampled_from((*CORRUPTIONS, "none")))
def test_the_compiled_loop_audits_as_the_py_loop(data: st.DataObject, table: tuple[str, int], how: str) -> None:
    """A drawn pulka (card and paper deals), clean or with one card, bid or whist call corrupted: the same
    findings (code, deal, seq, message, event), outcomes, scores, sheet and settlement with either loop."""
    spec, n = table
    log = draw_pulka(data, spec, n, paper=None, max_deals=4)
    idx = [i for i, e in enumerate(log) if isinstance(e, (CardPlayed, BidMade, WhistCalled))]
    if how != "none" and idx:
        i = data.draw(st.sampled_from(idx), label="event")
        value = data.draw(st.one_of(st.integers(0, 40), st.sampled_from([-1, -129, 2**40, 2**63, 2**70])),
                          label="value")
        log = _corrupt(log, how, i, value, n)
    c, py = _both(rows_of(log))
    assert c == py


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(TABLES))
def test_the_compiled_loop_leaves_the_deal_as_the_py_loop(data: st.DataObject, table: tuple[str, int]) -> None:
    """The open deal before a drawn card of a drawn pulka, handed the card rows from there to a drawn end
    (sometimes with a row changed: another seat, a card code off the pack, another code): both loops stop
    at the same row and leave the same hands, trick counts, winners, trick in progress, turn, talon order
    and outcome."""
    spec, n = table
    log = draw_pulka(data, spec, n, max_deals=3, claims=False)
    cards = [i for i, e in enumerate(log) if isinstance(e, CardPlayed)]
    if not cards:
        return
    at = data.draw(st.sampled_from(cards), label="cut")
    p = state_at(log, at)   # (the state after the event before the cut: seqs are 1-based)
    assert p.deal is not None
    rows = rows_of(log)[at:]
    end = data.draw(st.integers(0, len(rows)), label="end")
    cols = RowColumns.of_rows(rows)
    if rows and data.draw(st.booleans(), label="change a row"):
        k = data.draw(st.integers(0, len(rows) - 1), label="row")
        field = data.draw(st.sampled_from(["player", "card", "code"]), label="field")
        getattr(cols, field)[k] = data.draw(st.sampled_from([-1, 3, 32, 2**62, 2**64]), label="to")
    states = []
    for loop in (tricks.BUILT, None):
        d = copy.deepcopy(p.deal)
        with card_loop(loop):
            j = d.play_cards(cols, 0, end)
        states.append((j, _play_state(d)))
    assert states[0] == states[1]


def test_the_compiled_loop_refuses_what_is_not_a_list_of_ints() -> None:
    """Called wrongly (it is internal), the C loop raises instead of reading garbage."""
    if tricks.BUILT is None:
        pytest.skip("the compiled card loop is not built")
    run = tricks.BUILT.run
    with pytest.raises(TypeError):
        run()
    # no trump, tricks of 3, no talon tricks, no stops (caps 11), first hand seat 0; seat 0 to lead the first trick
    setup = 3 << 4 | 11 << 16 | 11 << 20 | (0 + 1) << 24
    state = 0 + 1
    args: list[Any] = [[8], [0], [3], 0, 1, [1 << 3, 0, 0], [0, 0, 0], [], [1, 2, 0], 8, setup, state]
    j, start, out = run(*args)
    assert j == 1 and start == 0   # the seat to play holds the card: it is played, the trick stays open
    assert (out & 7) - 1 == 1 and (out >> 3 & 7) - 1 == 0 and (out >> 6 & 63) - 1 == 3   # seat 1 next; ♠ led, 3 best
    for k, bad in ((2, ["x"]), (5, (1, 2, 3))):
        wrong = list(args)
        wrong[k] = bad
        with pytest.raises(TypeError):
            run(*wrong)


def test_the_compiled_loop_runs_with_the_compiled_kernel() -> None:
    """The C loop runs exactly when the compiled kernel does; CI (``PREFLOG_REQUIRE_NATIVE=1``) requires it."""
    assert (tricks.CARD_LOOP is not None) == (_native.NATIVE and tricks.BUILT is not None)
    if os.environ.get("PREFLOG_REQUIRE_NATIVE", "") not in ("", "0"):
        assert tricks.BUILT is not None and tricks.CARD_LOOP is tricks.BUILT
