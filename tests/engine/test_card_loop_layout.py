"""The card loop's packed words follow one table (:data:`preflog.engine.cardloop_layout.LAYOUT`): the
generated C header is the table's, the packer in ``tricks.py`` packs the deal's play state by it and
reads the loop's answer by it, and the C loop reads ``state`` and writes ``out`` by it."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from preflog.engine import tricks
from preflog.engine.cardloop_layout import LAYOUT
from preflog.engine.cardloop_layout import fields
from preflog.engine.cardloop_layout import pack
from preflog.engine.cardloop_layout import unpack
from preflog.engine.deal import Deal
from preflog.engine.families import family_of
from preflog.model.bids import PASS
from preflog.model.columns import RowColumns
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import Claimed
from preflog.model.events import DealStarted
from preflog.model.outcome import NO_SEAT
from preflog.rules import resolve

from ..randomplay import random_layout
from ..strategies import TABLES
from .test_card_loop import card_loop


def test_the_table_packs_and_unpacks_every_field() -> None:
    for word in ("setup", "state", "out"):
        fs = fields(word)
        spans = sorted((f.shift, f.shift + f.width) for f in fs.values())
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False)) and spans[-1][1] <= 63
        low = {n: -f.bias for n, f in fs.items()}
        high = {n: (1 << f.width) - 1 - f.bias for n, f in fs.items()}
        for values in (low, high):
            assert unpack(word, pack(word, **values)) == values
    with pytest.raises(ValueError, match="does not fit"):
        pack("state", **{**{n: 0 for n in fields("state")}, "best": 63})
    assert len({(f.word, f.name) for f in LAYOUT}) == len(LAYOUT)


class _Capture:
    """A card loop that records the words it is handed and answers ``out``."""

    def __init__(self, out: int) -> None:
        self.out = out
        self.got: tuple[int, int] | None = None

    def run(self, codes: Any, players: Any, cards: Any, i: int, end: int, hands: Any, tricks_: Any, winners: Any,
            nxt: Any, card_code: int, setup: int, state: int) -> tuple[int, int, int]:
        self.got = (setup, state)
        return i, i, self.out


def _play_points(seed: int, count: int) -> list[Deal]:
    """Copies of random deals at random points of their play (every table; raspasy with its talon tricks,
    the Croatian stops and two-handed tricks among them)."""
    rng = random.Random(seed)
    out: list[Deal] = []
    k = 0
    while len(out) < count:
        spec, n = TABLES[k % len(TABLES)]
        k += 1
        rules = resolve(spec)
        dealer = rng.randrange(n)
        hands, talon = random_layout(n, dealer, rng)
        d = family_of(rules).deal.from_event(rules, n, DealStarted(dealer, hands, talon), 1, 0)
        bias = rng.choice((0.5, 0.9))
        while not d.done:
            if d.phase == d.PLAYING and d.to_play != NO_SEAT and rng.random() < 0.3:
                out.append(copy.deepcopy(d))
            acts = [a for a in d.legal_actions() if not isinstance(a, Claimed)]
            passes = [a for a in acts if isinstance(a, BidMade) and a.bid == PASS]
            d.apply(passes[0] if passes and rng.random() < bias else rng.choice(acts))
    return out


def _state_of(d: Deal) -> dict[str, int]:
    order = d._talon_order
    return {"to_play": d.to_play, "led": d.suit_led, "best": d.winning[0], "best_seat": d.winning[1],
            "completed": d.completed, "in_trick": len(d.trick_cards),
            "order_first": order[0] if order is not None else -2,
            "order_second": order[1] if order is not None else -2}


def test_the_packer_packs_by_the_table_and_reads_the_answer_by_it() -> None:
    """At random points of random deals: the words ``tricks.py`` hands the loop decode, by the table, to the
    deal's play state; an answer packed by the table (another trick in progress, a talon order) is what
    the deal holds after it."""
    points = _play_points(26, 150)
    talon = caps = 0
    for d in points:
        capture = _Capture(0)
        state = _state_of(d)
        capture.out = pack("out", **{**{k: v for k, v in state.items() if k != "in_trick"}, "done": 0})
        with card_loop(capture):
            d.play_cards(RowColumns([CardPlayed.CODE], [d.to_play], [0], [0], [None]), 0, 1)
        assert capture.got is not None
        setup, st = unpack("setup", capture.got[0]), unpack("state", capture.got[1])
        dcap, scap = d.stop_caps
        stops = (dcap, scap) != (tricks.N_TRICKS + 1, tricks.N_TRICKS + 1)
        assert st == state
        assert setup == {"trump": d.trump, "must_trump": int(d.rules.must_trump and d.trump >= 0),
                         "trick_len": d._trick_len, "talon_tricks": d.talon_tricks, "talon_owner": d.talon_owner,
                         "third_lead_winner": int(d._third_lead_winner), "stops": int(stops),
                         "stop_seat": d._stop_seat if stops else NO_SEAT,
                         "declarer_cap": dcap if stops else tricks.N_TRICKS + 1,
                         "side_cap": scap if stops else tricks.N_TRICKS + 1, "first_hand": d.first_hand,
                         "talon": d._talon or 0}
        talon += d.talon_tricks > 0
        caps += stops
        # the answer, read by the table: another open trick and a talon order
        answer = {**{k: v for k, v in state.items() if k != "in_trick"}, "led": 2, "best": 17, "best_seat": 1,
                  "order_first": 5, "order_second": 30, "done": 0}
        with card_loop(_Capture(pack("out", **answer))):
            d.play_cards(RowColumns([CardPlayed.CODE], [d.to_play], [0], [0], [None]), 0, 1)
        assert (d.suit_led, d.winning, d._talon_order) == (2, (17, 1), (5, 30))
    assert talon and caps


def test_the_c_loop_reads_state_and_writes_out_by_the_table() -> None:
    """Handed no row, the C loop answers the state it was given: every field of ``state`` comes back in
    ``out`` at the table's place (play not over), for values across each field's range."""
    if tricks.BUILT is None:
        pytest.skip("the compiled card loop is not built")
    rng = random.Random(7)
    setup = pack("setup", trump=-1, must_trump=0, trick_len=3, talon_tricks=0, talon_owner=-1, third_lead_winner=0,
                 stops=0, stop_seat=-1, declarer_cap=11, side_cap=11, first_hand=0, talon=0)
    fs = fields("state")
    for _ in range(300):
        values = {n: rng.randrange(1 << f.width) - f.bias for n, f in fs.items()}
        j, start, out = tricks.BUILT.run([], [], [], 0, 0, [0, 0, 0], [0, 0, 0], [], [1, 2, 0], CardPlayed.CODE,
                                         setup, pack("state", **values))
        del values["in_trick"]
        assert (j, start, unpack("out", out)) == (0, 0, {**values, "done": 0})
