"""Whole bot-played pulkas under the issue-10 house rules: the engine, the scorer and the audit agree.

The golden numbers are in test_house_raspasy.py / test_house_ten_gora_end.py; here every option is run
through complete pulkas (card level, 3 and 4 players), which must audit without a finding, close by the
scorer's own end rule, and settle to zero.
"""

from __future__ import annotations

import pytest

from preflog.engine.families import family_of
from preflog.engine.replay import audit
from preflog.model.events import PulkaEnded
from preflog.rules import resolve
from preflog.sim.pulka import simulate_pulka

HOUSE_SPECS = [
    ("sochi+raspasy-amnesty+whisted-game-exit+mountain-first", 3),
    ("sochi+raspasy-amnesty-with-dealer+raspasy-2-4-8+played-game-exit+miser-keeps-raspasy", 4),
    ("rostov+rostov-house+ten-check-no-visty+total-pool-end", 3),
    ("leningrad+no-raspasy-premium+ten-check-no-visty+total-pool-end", 4),
]


@pytest.mark.parametrize("spec,players", HOUSE_SPECS)
def test_house_rule_pulkas_audit_clean_and_close(spec: str, players: int) -> None:
    """Each simulated pulka audits without a finding; a fresh scorer fed the audited outcomes is never
    finished before the last deal, and finished after it exactly when the pulka ended 'closed' (the
    scorer's end rule; "mountain first" can make a pulka long, so a pulka may stop at max_deals); the
    exact settlement sums to 0."""
    rules = resolve(spec)
    closed = 0
    for seed in range(3):
        events = simulate_pulka(spec, players, 1200 + seed, pool=10, max_deals=300)
        assert isinstance(events[-1], PulkaEnded)
        closed += events[-1].reason == "closed"
        result = audit(events)
        assert result.findings == [], result.findings[:3]
        scorer = family_of(rules).scorer(rules, players, 10)
        for i, deal in enumerate(result.deals):
            assert not scorer.is_finished(), f"finished before deal {i + 1}"
            assert deal.outcome is not None
            scorer.score(deal.outcome)
        assert scorer.is_finished() == (events[-1].reason == "closed")
        assert result.settlement is not None and sum(result.settlement.exact) == 0
        if rules.pulka_end == "total" and scorer.is_finished():
            assert sum(scorer.sheet.pulya) >= players * 10 and scorer.series == 0
    assert closed >= 2
