"""The interface every family's scorer implements; the engine sees only this.

A scorer owns the pulka-level scoring state: the :class:`Sheet`, the raspasy
series (Russian) or refe queue and hat (Croatian), and whether the pulka is over.

:class:`Scorer` is a base class, not a protocol: each family's scorer derives from it, so the compiled
kernel calls a scorer's methods through its method table rather than looking them up by name per deal.
"""

from __future__ import annotations

from ..model.outcome import DealOutcome
from ..rules.config import Rules
from .sheet import DealScore
from .sheet import Settlement
from .sheet import Sheet
from .terms import ContractTerms
from .terms import DealResult
from .terms import Liability
from .terms import ValueRates


class Scorer:
    """A family's pulka-level scorer (the Russian and the Croatian derive from it); every method is the
    family's own."""

    rules: Rules
    sheet: Sheet

    def score(self, outcome: DealOutcome) -> DealScore:
        """Score one finished deal, add it to the sheet, advance the pulka-level state."""
        raise NotImplementedError

    def start_from(self, start: Sheet) -> None:
        """Continue from a starting sheet (a paper sheet's totals entered as written) instead of a blank
        one; :class:`~preflog.scoring.sheet.StartSheetError` for a value the rules cannot produce (naming
        seat and area) or a family that cannot start from totals."""
        raise NotImplementedError

    def needs_contra(self, declarer: int, contract: int, hand_game: bool) -> bool:
        """Whether the deal is won without play unless a defender contras (the Croatian 2♠ rule)."""
        raise NotImplementedError

    def min_bid_level(self) -> int:
        """Lowest level the next auction may open at (docs/rules.md §A5 anti-raspasy option); 0 = no limit."""
        raise NotImplementedError

    def is_finished(self) -> bool:
        """Whether the pulka has reached its end (all pulyas closed / columns sum to zero)."""
        raise NotImplementedError

    def settlement(self) -> Settlement:
        """Settlement at this moment (final, or early stop)."""
        raise NotImplementedError

    # what the scorer says about a deal besides its entries (scoring/terms.py): functions of the rules
    # and the deal only, so projections and reports read them instead of deriving the rules again
    def contract_terms(self, contract: int, hand_game: bool = False) -> ContractTerms:
        """Name, level, strain and price of a declared contract."""
        raise NotImplementedError

    def deal_result(self, outcome: DealOutcome) -> DealResult | None:
        """Whether the declarer made the contract and by how many tricks he failed; None without one."""
        raise NotImplementedError

    def whist_liability(self, outcome: DealOutcome) -> dict[int, Liability]:
        """Per whister: the tricks he answers for and how many are missing (docs/rules.md §A9)."""
        raise NotImplementedError

    def value_rates(self) -> ValueRates:
        """Visty per gora and per pulya point in a deal's value."""
        raise NotImplementedError

