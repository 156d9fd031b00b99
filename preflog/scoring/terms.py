"""What a family's scorer says about one deal besides its sheet entries, for projections and reports.

Every scorer (:class:`~preflog.scoring.base.Scorer`) answers the same four questions, each a pure
function of the rules and the deal (never of the pulka so far), so a projection reads the rules
from the scorer instead of deriving them again:

* ``contract_terms`` — the contract's name, level, strain, whether it asks for no trick, its price;
* ``deal_result`` — whether the contract was made and by how many tricks it failed;
* ``whist_liability`` — per whister, the tricks he answers for and how many of them are missing;
* ``value_rates`` — what a point of gora and of pulya is worth in visty in a deal's value.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ContractTerms:
    """A declared contract as its family scores it.

    ``label`` is the report name (``"7h"``, ``"miser"``, ``"bettel"``); ``level`` the trick level
    (Russian 6–10, miser 0) or the Croatian number (2–7); ``strain`` ``s c d h NT`` or the name of a
    no-trump game without a ladder strain (``miser``, ``bettel``, ``sanac``); ``no_tricks`` whether
    the declarer must take no trick (miser, Bettel); ``price`` the game value V (None where the
    rules give none for the level).
    """

    label: str
    level: int
    strain: str | None
    no_tricks: bool
    price: int | None


@dataclass(frozen=True, slots=True)
class DealResult:
    """Whether the declarer made his contract, and by how many tricks he failed (0 if made)."""

    made: bool
    undertricks: int


@dataclass(frozen=True, slots=True)
class Liability:
    """One whister's obligation (docs/rules.md §A9): the tricks he answers for (``quota``) and how many
    of them are missing (``short``), before any rule shares the penalty between two whisters."""

    quota: int
    short: int


@dataclass(frozen=True, slots=True)
class ValueRates:
    """Visty per point in a deal's value (:meth:`preflog.scoring.sheet.DealScore.value`): ``gora`` is
    paid per gora point above the table mean, ``pulya`` earned per pulya point above the mean (0
    where pulya counts only at settlement, as in the Russian game)."""

    gora: int
    pulya: int
