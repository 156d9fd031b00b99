"""Where a bot-played deal's events go: the engine's deal the bots play, and the log.

The bots always play with the cards, on a card-level deal. A paper pulka records no cards: its
log has the paper events only (no hands, no discard, no cards; the Russian one no bids either),
and a paper-level deal of the engine checks exactly those and gives the outcome.
"""

from __future__ import annotations

from typing import Generic
from typing import TypeVar

from ..engine.deal import Deal
from ..model.events import Event
from ..model.outcome import DealOutcome

D = TypeVar("D", bound=Deal)


class Table(Generic[D]):
    """A card-level ``deal`` the bots play, the paper-level ``paper`` deal of a paper log (or None), and the log."""

    __slots__ = ("deal", "paper", "out", "cards")

    def __init__(self, deal: D, paper: D | None, out: list[Event]) -> None:
        self.deal = deal
        self.paper = paper
        self.out = out
        self.cards: list[Event] | None = out if paper is None else None
        """The log for the card-level events (None on paper: they are not recorded)."""

    def card_event(self, ev: Event) -> None:
        """An event recorded only with the cards (a discard; a Russian bid)."""
        self.deal.apply(ev)
        if self.paper is None:
            self.out.append(ev)

    def event(self, ev: Event) -> None:
        """An event recorded at both levels (contract, whist calls, contra, play mode, ten check …)."""
        self.deal.apply(ev)
        if self.paper is not None:
            self.paper.apply(ev)
        self.out.append(ev)

    def finish_without_play(self) -> bool:
        """End a deal that needs no play (the Croatian 2♠ rule) at both levels; False if it cannot end now."""
        if not self.deal.finish_without_play():
            return False
        if self.paper is not None and not self.paper.finish_without_play():
            raise AssertionError("the paper deal does not end where the card deal does")
        return True

    def played(self) -> None:
        """Play is over: a paper log records its result (the tricks per seat)."""
        if self.paper is not None:
            self.out.append(self.paper.paper_result(tuple(self.deal.tricks)))

    def outcome(self) -> DealOutcome:
        """The finished deal's outcome (the paper deal's on paper)."""
        d = self.paper if self.paper is not None else self.deal
        if d.outcome is None:
            raise AssertionError(f"deal {d.deal} has not ended (phase {d.phase_name})")
        return d.outcome
