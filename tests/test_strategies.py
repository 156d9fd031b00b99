"""The log strategies of tests/strategies.py reach every kind of deal and ending, so the property tests
built on them cover the whole game (a change to ``legal_actions()`` that starves a branch fails here)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.engine.replay import audit
from preflog.model.events import Claimed
from preflog.model.events import Event
from preflog.model.events import PaperResult
from preflog.model.events import PulkaEnded
from preflog.model.events import TenChecked

from .strategies import CROATIAN_TABLES
from .strategies import RUSSIAN_TABLES
from .strategies import TABLES
from .strategies import draw_deal
from .strategies import draw_pulka


def _features(log: list[Event]) -> set[str]:
    res = audit(log)
    assert res.ok, res.codes()
    seen = {type(e).__name__ for e in log if isinstance(e, (Claimed, TenChecked, PaperResult))}
    if log[-1] == PulkaEnded("closed"):
        seen.add("closed")
    for d in res.deals:
        o = d.outcome
        assert o is not None
        seen.add(o.kind)
        if o.paper:
            seen.add("paper")
        if any(o.contra):
            seen.add("contra")
        if o.invited >= 0:
            seen.add("invite")
        if o.stopped_early:
            seen.add("stopped")
        if o.hand_game:
            seen.add("hand")
    return seen


def _reached(tables: tuple[tuple[str, int], ...], examples: int, pulkas: bool, pool: int = 6) -> set[str]:
    seen: set[str] = set()

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None)
    @given(st.data(), st.sampled_from(tables), st.booleans())
    def collect(data: st.DataObject, table: tuple[str, int], paper: bool) -> None:
        if pulkas:
            log = draw_pulka(data, *table, paper=None, max_deals=10 if pool < 6 else 4, pool=pool)
        else:
            log, _ = draw_deal(data, *table, paper=paper)
        seen.update(_features(log))

    collect()
    return seen


def test_tables_cover_every_preset_and_table_size() -> None:
    assert {spec for spec, _ in TABLES} >= {"sochi", "leningrad", "rostov", "croatian", "slovenian"}
    assert {n for _, n in RUSSIAN_TABLES} == {3, 4} and {n for _, n in CROATIAN_TABLES} == {3}


def test_russian_deals_reach_every_kind_and_ending() -> None:
    seen = _reached(RUSSIAN_TABLES, 150, pulkas=False)
    assert {"game", "miser", "raspasy", "not_whisted", "half_whist", "paper", "Claimed", "TenChecked",
            "PaperResult"} <= seen, seen


def test_croatian_pulkas_reach_every_kind_and_ending() -> None:
    seen = _reached(CROATIAN_TABLES, 60, pulkas=True)
    assert {"game", "all_pass", "not_whisted", "conceded", "contra", "invite", "stopped", "hand", "paper",
            "Claimed", "PaperResult"} <= seen, seen


def test_russian_pulkas_close() -> None:
    """With a pool of 2 most drawn pulkas close (every pulya reached) and end ``closed``."""
    assert "closed" in _reached(RUSSIAN_TABLES, 30, pulkas=True, pool=2)
