"""The interface every family's scorer implements; the engine sees only this.

A scorer owns the pulka-level scoring state: the :class:`Sheet`, the raspasy
series (Russian) or refe queue and hat (Croatian), and whether the pulka is over.
"""

from __future__ import annotations

from typing import Protocol

from ..model.outcome import DealOutcome
from ..rules.config import Rules
from .sheet import DealScore, Settlement, Sheet


class Scorer(Protocol):
    rules: Rules
    sheet: Sheet

    def score(self, outcome: DealOutcome) -> DealScore:
        """Score one finished deal, add it to the sheet, advance the pulka-level state."""
        ...

    def min_bid_level(self) -> int:
        """Lowest level the next auction may open at (RULES.md A5 anti-raspasy option); 0 = no limit."""
        ...

    def is_finished(self) -> bool:
        """Whether the pulka has reached its end (all pulyas closed / columns sum to zero)."""
        ...

    def settlement(self) -> Settlement:
        """Settlement at this moment (final, or early stop)."""
        ...


def make_scorer(rules: Rules, n_players: int, pool: int) -> Scorer:
    """The scorer for ``rules.family`` (a lookup by family, not a fork of the engine)."""
    import importlib

    if rules.family not in SCORERS:
        importlib.import_module(f"{__package__}.{rules.family}")  # the module registers its scorer
    factory = SCORERS.get(rules.family)
    if factory is None:
        raise ValueError(f"no scorer for rules family {rules.family!r}")
    return factory(rules, n_players, pool)


SCORERS: dict[str, type] = {}
