"""A settlement keyed by player name: what :attr:`AuditResult.settlement_by_player
<preflog.engine.replay.AuditResult.settlement_by_player>` and :meth:`PulkaState.settlement_by_player
<preflog.engine.pulka.PulkaState.settlement_by_player>` hand out.

The scorer's :class:`~preflog.scoring.sheet.Settlement` is by seat (tuples in the players' seating order,
what the projections and views index); this is the same numbers under the players' names, one
:class:`PlayerSettlement` each, with the result the rules show (``shown``). Interpreted on purpose: it
runs once per pulka, off the replay's path.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from ..rules.config import Rules
from ..scoring.settlement import shown_result
from ..scoring.sheet import Number
from ..scoring.sheet import Settlement


class PlayerSettlement(NamedTuple):
    """One player's final result in visty: ``exact``, the two paper methods, ``shown`` (the one the rules
    show, ``settlement_rounding``) and ``money`` (``shown`` × the whist price; None when the pulka's
    price does not read as a number)."""

    exact: Fraction
    method1: int
    method2: int
    shown: Number
    money: Fraction | None


def settlement_by_player(players: Sequence[str], settlement: Settlement, rules: Rules) -> dict[str, PlayerSettlement]:
    """``settlement`` keyed by the names of ``players`` (seat order), each seat's numbers together."""
    shown = shown_result(settlement, rules)
    money = settlement.money
    return {name: PlayerSettlement(settlement.exact[i], settlement.method1[i], settlement.method2[i], shown[i],
                                   money[i] if money else None)
            for i, name in enumerate(players)}


__all__ = ["PlayerSettlement", "settlement_by_player"]
