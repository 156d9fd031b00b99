"""Property tests: mutated records only ever raise RecordError; generated logs round-trip."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.engine.replay import audit
from preflog.model.bids import HR_LADDER
from preflog.model.bids import IGRA
from preflog.model.bids import RU_LADDER
from preflog.model.cards import cards_of
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import Claimed
from preflog.model.events import ContraCalled
from preflog.model.events import ContractDeclared
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import Event
from preflog.model.events import PaperResult
from preflog.model.events import PlayModeChosen
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import ScoreRecorded
from preflog.model.events import TalonRevealed
from preflog.model.events import TenChecked
from preflog.model.events import WhistCalled
from preflog.record import RecordError
from preflog.record import read_json
from preflog.record import read_records
from preflog.record import read_text
from preflog.record import write_json
from preflog.record import write_text
from tests import mutations

from ..strategies import TABLES
from ..strategies import draw_pulka
from .conftest import doc_blocks

SEEDS = doc_blocks("pref")
def mutate(data: st.DataObject, text: str, n: int) -> str:
    """``n`` drawn edits of ``text`` (the long fuzz run's edits, drawn step by step so that a failure
    shrinks to the fewest, smallest edits)."""
    return mutations.mutate(lambda label, lo, hi: data.draw(st.integers(lo, hi), label=label), text, n)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), which=st.integers(0, len(SEEDS) - 1), n=st.integers(1, 6))
def test_mutated_text_raises_only_record_error(data: st.DataObject, which: int, n: int) -> None:
    text = mutate(data, SEEDS[which], n)
    try:
        recs = read_records(text, "fuzz.pref")
    except RecordError as err:
        assert err.source == "fuzz.pref" and str(err).startswith("fuzz.pref")
    else:  # whatever was read must write and read back the same
        assert [r.events for r in read_records(write_text(recs))] == [r.events for r in recs]


@settings(max_examples=200, deadline=None)
@given(data=st.data(), which=st.integers(0, len(SEEDS) - 1), n=st.integers(1, 4), structural=st.booleans())
def test_mutated_json_raises_only_record_error(data: st.DataObject, which: int, n: int, structural: bool) -> None:
    base = write_json(read_text(SEEDS[which]))
    if not structural:
        doc: object = mutate(data, base, n)
    else:  # structural mutation: replace a drawn node by a drawn value
        doc = json.loads(base)
        for _ in range(n):
            node, key = _drawn_slot(data, doc)
            if node is not None:
                node[key] = data.draw(st.sampled_from(
                    [None, 1.5, -3, True, "Xh", [], {}, ["A", "6s"], {"A": 1}, "all pass"]), label="value")
    try:
        read_json(doc, "fuzz.json")
    except RecordError:
        pass


def _drawn_slot(data: st.DataObject, doc: object) -> tuple:
    """A drawn (container, key) pair some levels down ``doc`` (``(None, None)`` at an empty top)."""
    node, key = None, None
    cur = doc
    for _ in range(data.draw(st.integers(1, 8), label="depth")):
        if isinstance(cur, dict) and cur:
            k = data.draw(st.sampled_from(list(cur)), label="key")
        elif isinstance(cur, list) and cur:
            k = data.draw(st.integers(0, len(cur) - 1), label="index")
        else:
            break
        node, key, cur = cur, k, cur[k]
    return node, key


# ------------------------------------------------------------------------ generated event logs
NAMES = ["Anna", "Boris", "Vera", "Dima", "Ёжик", "O'Neil", "Ann Marie", "a", "c"]


@st.composite
def pulka_logs(draw: st.DrawFn) -> list[Event]:
    n = draw(st.sampled_from([3, 4]))
    croatian = n == 3 and draw(st.booleans())
    names = draw(st.lists(st.sampled_from(NAMES[:7]), min_size=n, max_size=n, unique_by=str.lower))
    if draw(st.booleans()):  # players called by their own seat letters
        names = ["A", "B", "C", "D"][:n]
    rules = "croatian" if croatian else draw(st.sampled_from(["sochi", "leningrad+geometric-raspasy", "rostov"]))
    shared: list[tuple[str, Any]] = [("must_trump", False), ("hold_forbidden_on", ("miser", "6s"))]
    own: list[tuple[str, Any]] = ([("refe_blocked_under_hat", False)] if croatian else [
        ("raspasy_cap", 5), ("min_bid_after_raspasy", ((2, 7), (3, 8))), ("ten_mode", "whisted")])
    # an option of the other family is refused (preflog.rules.config.check_family)
    overrides = tuple(draw(st.lists(st.sampled_from(shared + own), max_size=3)))
    meta = tuple(draw(st.lists(st.tuples(st.sampled_from(["event", "date", "id", "round"]),
                                         st.text(st.characters(blacklist_categories=("Cs", "Cc"),
                                                               blacklist_characters="\ufeff"), max_size=8)),
                               max_size=3, unique_by=lambda kv: kv[0])))
    events: list[Event] = [PulkaStarted(tuple(names), rules, overrides, draw(st.integers(10, 100)),
                                        draw(st.sampled_from(["1", "0.5", "1/2"])), meta)]
    for _ in range(draw(st.integers(0, 3))):
        events += draw(deals(n, croatian))
    if draw(st.booleans()):
        events.append(PulkaEnded(draw(st.sampled_from(["closed", "stopped early", "time"]))))
    return events


@st.composite
def deals(draw: st.DrawFn, n: int, croatian: bool) -> list[Event]:
    dealer = draw(st.integers(0, n - 1))
    seats = [s for s in range(n) if not (n == 4 and s == dealer)]
    card_level = draw(st.booleans())
    out: list[Event] = []
    hands: list[int] = [0] * n
    talon = 0
    if card_level:
        deck = draw(st.permutations(range(32)))
        for i, s in enumerate(seats):
            hands[s] = sum(1 << c for c in deck[i * 10:(i + 1) * 10])
        talon = sum(1 << c for c in deck[30:])
        out.append(DealStarted(dealer, tuple(hands), talon if draw(st.booleans()) else None))
    else:
        out.append(DealStarted(dealer))
    ladder = [0, 2, 3, 4, 5, 6, 7, IGRA] if croatian else [0, 1, *RU_LADDER]
    out += [BidMade(draw(st.sampled_from(seats)), draw(st.sampled_from(ladder)))
            for _ in range(draw(st.integers(0, 5)))]
    declarer = draw(st.sampled_from(seats))
    if draw(st.booleans()):
        out.append(TalonRevealed(talon))
    if card_level and draw(st.booleans()):
        pool = sorted(cards_of(hands[declarer] | talon))
        drop = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=2, unique=True))
        mask = sum(1 << c for c in drop)
        out.append(Discarded(declarer, mask))
        hands[declarer] = (hands[declarer] | talon) & ~mask
    contracts = list(HR_LADDER) if croatian else list(RU_LADDER)
    if draw(st.booleans()):
        out.append(ContractDeclared(declarer, draw(st.sampled_from(contracts))))
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.integers(0, 2))
        who = draw(st.sampled_from(seats))
        out.append(WhistCalled(who, draw(st.integers(0, 3))) if kind == 0 else
                   PlayModeChosen(who, draw(st.integers(0, 1))) if kind == 1 else ContraCalled(who))
    if card_level:
        players = seats if draw(st.booleans()) else draw(st.permutations(seats))[:2]  # two-handed play
        leader = draw(st.sampled_from(players))
        for _ in range(draw(st.integers(0, 10))):
            order = players[players.index(leader):] + players[:players.index(leader)]
            size = draw(st.integers(1, len(order)))  # the last trick may be cut short
            for p in order[:size]:
                if not hands[p]:
                    break
                c = draw(st.sampled_from(sorted(cards_of(hands[p]))))
                hands[p] &= ~(1 << c)
                out.append(CardPlayed(p, c))
            if size < len(order):
                break
            leader = draw(st.sampled_from(players))
    counts = st.lists(st.integers(0, 10), min_size=n, max_size=n).map(tuple)
    for cls in draw(st.lists(st.sampled_from([Claimed, TenChecked, PaperResult]), max_size=2)):
        out.append(cls(draw(counts)))
    for _ in range(draw(st.integers(0, 2))):
        who = draw(st.sampled_from(range(n)))
        visty = tuple(0 if s == who else draw(st.integers(-50, 200)) for s in range(n))
        out.append(ScoreRecorded(who, draw(st.integers(-60, 60)), draw(st.integers(0, 99)), visty))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(pulka_logs(), min_size=1, max_size=2))
def test_generated_logs_round_trip(logs: list[list[Event]]) -> None:
    events = [e for log in logs for e in log]
    text = write_text(events)
    back = [e for r in read_records(text) for e in r.events]
    assert back == events
    assert write_text(back) == text
    assert [e for r in read_records(write_text(events, style="unicode")) for e in r.events] == events
    if len(logs) == 1:
        assert read_json(write_json(events)) == events


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(TABLES))
def test_played_logs_round_trip(data: st.DataObject, table: tuple[str, int]) -> None:
    """Legal pulkas drawn action by action from the engine (card and paper deals, claims, ten checks,
    both families) write and read back the same in text (ASCII and unicode) and JSON, and audit alike."""
    spec, n = table
    events = draw_pulka(data, spec, n, paper=None, max_deals=3)
    text = write_text(events)
    back = [e for r in read_records(text) for e in r.events]
    assert back == events and write_text(back) == text
    assert [e for r in read_records(write_text(events, style="unicode")) for e in r.events] == events
    assert read_json(write_json(events)) == events
    assert audit(back).ok
