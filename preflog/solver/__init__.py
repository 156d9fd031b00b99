"""A double-dummy solver for preferans card play: every hand visible, perfect play by both sides.

It answers how many tricks the declarer takes from a position (:func:`solve`) and what each legal
card is worth (:func:`card_values`), for trick contracts (:attr:`Goal.MOST`), misère and Bettel
(:attr:`Goal.FEWEST`), with the Croatian stops as caps. A raspasy player's *paranoid bound* (the
tricks he can hold himself to whatever the other two do, as if both played against him; a guarantee,
not a prediction, since at raspasy each plays for himself) is ``solve`` of the position with him as
declarer and ``goal=Goal.FEWEST``. docs/solver.md describes the search and its speed.
"""

from __future__ import annotations

from .position import Goal
from .position import Position
from .position import SolverError
from .position import legal_cards
from .position import play
from .solver import NATIVE
from .solver import Solver
from .solver import card_values
from .solver import solve

__all__ = ["NATIVE", "Goal", "Position", "Solver", "SolverError", "card_values", "legal_cards", "play", "solve"]
