"""A deal object reopened for the next deal (:meth:`Deal.reopen`, what the whole-log audit does to open each
deal without allocating) is in every field what a new deal object would be.

Two auditors step through the same log, one opening each deal in a new object, the other reopening the one
it has (``reuse_deals``); after every event the two open deals must agree field by field — the deal's, its
trick state's, its auction's and the Croatian defence's — and at the end the two audits must agree in every
finding, deal summary, sheet and settlement. Logs are drawn action by action (tests/strategies.py) for every
preset and variant at both table sizes; corrupted logs (an event dropped or repeated) bring in broken deals,
refused layouts and deals left unfinished.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.engine.auction import AuctionBase
from preflog.engine.deal import Deal
from preflog.engine.replay import Auditor
from preflog.engine.replay import AuditResult
from preflog.engine.replay import audit
from preflog.model.copying import field_names
from preflog.model.events import DealStarted
from preflog.model.events import Event
from preflog.model.events import PulkaStarted
from preflog.rules import resolve

from ..randomplay import random_deal
from ..strategies import PLAYERS
from ..strategies import TABLES
from ..strategies import draw_pulka

_UNSET = object()


def _value(v: Any) -> Any:
    """A field's value in a form two independent objects can be compared by: engine objects as their fields,
    a bound method (the Croatian 2♠ rule, bound to each auditor's own scorer) as its function's name."""
    if isinstance(v, (Deal, AuctionBase)) or type(v).__name__ == "CroatianDefence":
        return fields(v)
    if callable(v) and hasattr(v, "__self__"):
        return ("bound", getattr(v, "__name__", repr(v)))
    return v


def fields(obj: object) -> dict[str, Any]:
    """Every instance field of ``obj`` (compiled or interpreted), unset ones marked."""
    out: dict[str, Any] = {}
    for name in field_names(obj):
        try:
            out[name] = _value(getattr(obj, name))
        except AttributeError:
            out[name] = _UNSET
    return out


def _summary(res: AuditResult) -> tuple[object, ...]:
    return ([(f.code, f.deal, f.seq, f.message) for f in res.findings],
            [(d.deal, d.dealer, d.seq, d.outcome, d.score, d.broken) for d in res.deals],
            res.sheet, res.settlement, res.ended)


def _twin_replay(log: list[Event]) -> None:
    fresh, reused = Auditor(), Auditor()
    reused.reuse_deals = True
    for i, ev in enumerate(log):
        before = reused.pulka.deal if reused.pulka is not None else None
        fresh.step(i, ev.to_row(), ev)
        reused.step(i, ev.to_row(), ev)
        a = fresh.pulka.deal if fresh.pulka is not None else None
        b = reused.pulka.deal if reused.pulka is not None else None
        assert (a is None) == (b is None), f"event {i + 1} ({ev.KIND}): one auditor has no open deal"
        if isinstance(ev, DealStarted) and b is not None and before is not None:
            assert b is before, "the reusing auditor opened a new deal object"
        if a is not None and b is not None:
            fa, fb = fields(a), fields(b)
            diff = sorted(k for k in fa if fa[k] != fb.get(k, _UNSET))
            assert not diff, f"after event {i + 1} ({ev.KIND}) the reopened deal differs in {diff}"
    fresh.close_log(len(log))
    reused.close_log(len(log))
    assert _summary(fresh.result()) == _summary(reused.result())
    # the whole-log audit (which reuses) agrees with the step-by-step one that does not
    assert _summary(audit(log)) == _summary(fresh.result())


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(TABLES))
def test_a_reopened_deal_equals_a_new_one(data: st.DataObject, table: tuple[str, int]) -> None:
    log = draw_pulka(data, *table, paper=None, max_deals=4)
    _twin_replay(log)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(TABLES))
def test_a_reopened_deal_equals_a_new_one_in_a_corrupted_log(data: st.DataObject, table: tuple[str, int]) -> None:
    """An event dropped or repeated: deals broken midway, refused, left open — then the next one reopened."""
    log = draw_pulka(data, *table, paper=None, max_deals=4)
    i = data.draw(st.integers(1, len(log) - 1), label="where")
    if data.draw(st.booleans(), label="drop"):
        del log[i]
    else:
        log.insert(i, log[i])
    _twin_replay(log)


def test_a_refused_layout_leaves_no_deal_and_the_next_is_new() -> None:
    """A DealStarted whose hands are refused leaves the reusing pulka without a deal (as a new object would
    have been refused); the next valid deal is opened in a new object and audited like the other path."""
    rules = resolve("sochi")
    rng = random.Random(7)
    first, _ = random_deal(rules, 3, 0, rng)
    second, _ = random_deal(rules, 3, 1, rng, deal=2)
    start = first[0]
    assert isinstance(start, DealStarted) and start.hands is not None
    bad = DealStarted(2, (start.hands[0], start.hands[0], start.hands[2]), start.talon)   # a hand dealt twice
    third, _ = random_deal(rules, 3, 0, rng, deal=3)
    log: list[Event] = [PulkaStarted(PLAYERS[:3], "sochi"), *first, *second, bad, *third]
    reused = Auditor()
    reused.reuse_deals = True
    for i, ev in enumerate(log):
        reused.step(i, ev.to_row(), ev)
        if ev is bad:
            assert reused.pulka is not None and reused.pulka.deal is None
    _twin_replay(log)
    assert "bad_deal" in audit(log).codes()
