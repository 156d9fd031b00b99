"""Bots of known strength: a level per seat, so a simulated club has players whose true order is known.

* ``double_dummy`` — every card is the solver's best for the seat's side (:mod:`preflog.solver`, every hand
  visible): the declarer's side plays for its aim (most tricks; fewest at miser / Bettel), the defenders
  against it; at raspasy each plays for his paranoid bound (the fewest tricks he can hold himself to);
* ``heuristic`` — today's bots (:mod:`preflog.sim.cardplay`), the default;
* ``careless:P`` — the heuristic bot that plays a random legal card a share ``P`` of the time;
* ``overbid:T`` — the heuristic bot that values its hand ``T`` tricks higher when it bids.

A level only chooses among what the engine allows (``legal_cards``); the position for the solver is read
off the engine's deal in play, never rebuilt from the rules.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.deal import Deal
from ..engine.tricks import N_TRICKS
from ..errors import PreflogError
from ..model.cards import cards_of
from ..model.outcome import NO_SEAT
from ..solver import Goal
from ..solver import Position
from ..solver import Solver

_OPEN = 99   # a solver cap that never stops play


class LevelError(PreflogError, ValueError):
    """A bot level the simulator does not know (the message lists the known ones)."""


class Kind(enum.Enum):
    """The kinds of bot level."""

    DOUBLE_DUMMY = "double_dummy"
    HEURISTIC = "heuristic"
    CARELESS = "careless"
    OVERBID = "overbid"


@dataclass(frozen=True, slots=True)
class BotLevel:
    """A seat's level: its kind and its parameter (the careless share; the overbid in tricks)."""

    kind: Kind = Kind.HEURISTIC
    share: float = 0.0      # careless: the share of cards chosen at random among the legal ones
    overbid: float = 0.0    # overbid: tricks added to the hand's value when bidding

    @classmethod
    def parse(cls, text: str) -> BotLevel:
        """``double_dummy`` (or ``dd``), ``heuristic``, ``careless:0.3``, ``overbid:1.5``."""
        name, _, arg = text.strip().partition(":")
        name = {"dd": Kind.DOUBLE_DUMMY.value}.get(name, name)
        try:
            kind = Kind(name)
        except ValueError:
            known = ", ".join(k.value for k in Kind)
            raise LevelError(f"unknown bot level {text!r} (known: {known}, dd; careless:P, overbid:T)") from None
        if kind in (Kind.CARELESS, Kind.OVERBID):
            try:
                x = float(arg) if arg else (0.3 if kind == Kind.CARELESS else 1.0)
            except ValueError:
                raise LevelError(f"bot level {text!r}: {arg!r} is not a number") from None
            if kind == Kind.CARELESS and not 0.0 <= x <= 1.0:
                raise LevelError(f"bot level {text!r}: the careless share is between 0 and 1")
            return cls(kind, share=x) if kind == Kind.CARELESS else cls(kind, overbid=x)
        if arg:
            raise LevelError(f"bot level {text!r}: {name} takes no parameter")
        return cls(kind)

    def __str__(self) -> str:
        if self.kind == Kind.CARELESS:
            return f"careless:{self.share:g}"
        if self.kind == Kind.OVERBID:
            return f"overbid:{self.overbid:g}"
        return str(self.kind.value)


HEURISTIC = BotLevel()


def solver_position(d: Deal, declarer: int, goal: Goal) -> Position:
    """The solver's position of an engine deal in play (``declarer``: whose tricks count; the Croatian
    stops become the solver's caps)."""
    to_play = d.to_play
    lead = d.trick_seats[0] if d.trick_cards else to_play
    order = [lead]
    s = d.next_seat(lead)
    while s != lead and s != NO_SEAT and len(order) < d.n:
        order.append(s)
        s = d.next_seat(s)
    hands = tuple(d.hands[i] if i in order else 0 for i in range(d.n))
    dcap, scap = d.stop_caps
    taken = d.tricks[declarer] if declarer != NO_SEAT else 0
    side = d.completed - taken
    return Position(hands, tuple(order), declarer, d.trump, to_play, tuple(d.trick_cards), goal,
                    d.rules.must_trump, dcap - taken if dcap <= N_TRICKS else _OPEN,
                    scap - side if scap <= N_TRICKS else _OPEN)


class Seats:
    """The levels of a pulka's seats and what they need while playing (a solver, a random stream)."""

    def __init__(self, levels: Sequence[BotLevel], rng: random.Random) -> None:
        self.levels = tuple(levels)
        self.rng = rng
        self.solver: Solver | None = Solver() if any(lv.kind == Kind.DOUBLE_DUMMY for lv in levels) else None

    def level(self, seat: int) -> BotLevel:
        return self.levels[seat] if 0 <= seat < len(self.levels) else HEURISTIC

    def overbid(self, seat: int) -> float:
        return self.level(seat).overbid

    @property
    def plain(self) -> bool:
        """Every seat plays today's heuristic cards (no card needs changing)."""
        return all(lv.kind in (Kind.HEURISTIC, Kind.OVERBID) for lv in self.levels)

    def card(self, deal: Deal, seat: int, heuristic: int, miser: bool, raspasy: bool) -> int:
        """The card ``seat`` plays: the heuristic's choice, or his level's (only while the engine's deal
        is in play and its position is one the solver knows: not a trick the talon leads)."""
        lv = self.level(seat)
        if lv.kind in (Kind.HEURISTIC, Kind.OVERBID) or deal.phase != deal.PLAYING or seat != deal.to_play:
            return heuristic
        if lv.kind == Kind.CARELESS:
            if self.rng.random() >= lv.share:
                return heuristic
            return self.rng.choice(list(cards_of(deal.legal_cards(seat))))
        if raspasy and deal.talon_tricks > deal.completed:
            return heuristic
        assert self.solver is not None
        declarer = seat if raspasy else deal.declarer
        goal = Goal.FEWEST if raspasy or miser else Goal.MOST
        vals = self.solver.card_values(solver_position(deal, declarer, goal))
        most = (goal == Goal.MOST) == (seat == declarer)
        best = max(vals.values()) if most else min(vals.values())
        return min(c for c, v in vals.items() if v == best)


def parse_levels(texts: Sequence[str]) -> tuple[BotLevel, ...]:
    """Levels from their names (one per seat)."""
    return tuple(BotLevel.parse(t) for t in texts)


__all__ = ["HEURISTIC", "BotLevel", "Kind", "LevelError", "Seats", "parse_levels", "solver_position"]
