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

    def needs_contra(self, declarer: int, contract: int, hand_game: bool) -> bool:
        """Whether the deal is won without play unless a defender contras (the Croatian 2♠ rule)."""
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
