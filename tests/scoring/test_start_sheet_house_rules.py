"""A starting sheet (``Start:`` lines) holds what the pulka's own rules can produce: house rules that
leave pulyas unbounded or take a gora below zero widen the accepted totals, the presets do not."""

from __future__ import annotations

import pytest

from preflog import audit
from preflog import read_text
from preflog.record import RecordError

HEAD = '[Players "Anna, Boris, Vera"]\n[Pool "10"]\n'
DEAL = "Deal 1: dealer C\nContract: A 6s\nWhist: B pass, C pass\n"


def _record(rules: str, start: str) -> str:
    return HEAD + f'[Rules "{rules}"]\n' + start + "Start: B pulya 0\nStart: C pulya 0\n" + DEAL


def test_pulya_above_the_pool_only_when_pulyas_are_unbounded() -> None:
    """pulka_end=total: pulyas are not closed at the pool, so 12 of 10 is a possible total; the
    deal's 2 (V(6)) then makes Anna's pulya 14."""
    text = _record("sochi+total-pool-end", "Start: A pulya 12\n")
    result = audit(read_text(text))
    assert result.sheet is not None and result.sheet.pulya[0] == 14
    with pytest.raises(RecordError, match="between 0 and the pool 10"):
        read_text(_record("sochi", "Start: A pulya 12\n"))


def test_gora_below_zero_only_when_help_may_take_it_there() -> None:
    """help_overflow=own_gora: American help may take a gora below 0, so −4 is a possible total."""
    result = audit(read_text(_record("sochi+help-off-own-gora", "Start: A pulya 0 gora -4\n")))
    assert result.sheet is not None and result.sheet.gora[0] == -4
    with pytest.raises(RecordError, match="negative"):
        read_text(_record("sochi", "Start: A pulya 0 gora -4\n"))
