"""What the analysis of a deal finds, as frozen dataclasses with a ``to_json()``.

Numbers are exact: tricks are ints, sheet values :class:`fractions.Fraction` (JSON: an int, or a string
``"8/3"`` when not whole). Seats are the table's 0-based seats; cards preflog's ints (JSON: ``"9c"``).
The definitions of every figure are in docs/analysis.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from fractions import Fraction
from typing import Any

from ..model.cards import cards_of
from ..model.cards import format_card
from ..model.cards import format_cards

ANALYSIS_VERSION = 1
"""The analysis's definitions and figures; raised when one changes, so that stored ``play_analysis``
tables are built again (:mod:`preflog.analysis.table`)."""


def number_json(x: Fraction | int | None) -> int | str | None:
    """An exact number for JSON: an int when whole, else ``"p/q"``."""
    if x is None:
        return None
    f = Fraction(x)
    return int(f) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _cards(mask: int) -> list[str]:
    return [format_card(c) for c in cards_of(mask)]


@dataclass(frozen=True, slots=True)
class CardLoss:
    """A card that lost tricks against the best card of its position (double dummy).

    ``seat`` is who answers for the card: its holder, or the lone whister who plays the passer's cards
    in open play. ``lost`` is in tricks of the deal's goal (the declarer's tricks for a contract, the
    player's own paranoid bound at raspasy). ``cost`` is what the card cost that player on the sheet
    (visty, or points in the Croatian game) and ``money`` the same at the pulka's whist price; both
    ``None`` at raspasy (a bound is not a line of play) or when the pulka has no price.
    """

    seq: int
    trick: int               # 1-based
    seat: int
    player: str
    holder: int              # the seat whose hand the card came from
    card: int
    best: tuple[int, ...]    # the best cards of the position (every one of equal value)
    lost: int
    role: str                # "declarer", "defender", "raspasy"
    cost: Fraction | None = None
    money: Fraction | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "trick": self.trick, "seat": self.seat, "player": self.player,
                "holder": self.holder, "card": format_card(self.card),
                "best": [format_card(c) for c in self.best], "lost": self.lost, "role": self.role,
                "cost": number_json(self.cost), "money": number_json(self.money)}


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """A claim (or the ten check) against the double-dummy value of its position."""

    seq: int
    trick: int
    claimed: int             # the declarer's tricks from the claim on, as claimed (the player's, at raspasy)
    best: int                # the same with perfect play (for the declarer's side)

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "trick": self.trick, "claimed": self.claimed, "double_dummy": self.best}


@dataclass(frozen=True, slots=True)
class WhistJudgement:
    """One defender's whist decision, judged by what each choice would have written for him with
    double-dummy play (the other calls as made)."""

    seat: int
    player: str
    call: str                # the call he made ("whist", "pass")
    alternative: str         # the call he did not make
    value: Fraction | None   # his worth on the sheet with his call (None: not judged)
    alternative_value: Fraction | None
    right: bool | None       # value >= alternative_value; None when not judged
    reason: str = ""         # why it was not judged

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "call": self.call, "alternative": self.alternative,
                "value": number_json(self.value), "alternative_value": number_json(self.alternative_value),
                "right": self.right, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class DiscardResult:
    """The best discard from the declarer's twelve cards, for the contract played."""

    actual: int              # the discard made (mask)
    actual_tricks: int       # the declarer's double-dummy tricks after it
    best: int                # a best discard (mask; the lowest of the equivalent ones)
    best_tricks: int
    discards: int            # distinct discards solved (66 less the equivalent ones)

    def to_json(self) -> dict[str, Any]:
        return {"actual": _cards(self.actual), "actual_tricks": self.actual_tricks, "best": _cards(self.best),
                "best_tricks": self.best_tricks, "discards_solved": self.discards}


@dataclass(frozen=True, slots=True)
class ParResult:
    """The highest contract on the family's ladder the declarer's twelve cards make double dummy
    after their best discard for it, and the tricks per contract kind tried."""

    contract: int | None     # bid code; None: nothing makes
    label: str
    discard: int             # the discard that makes it (mask; 0 when none)
    tricks: dict[str, int]   # contract label → the declarer's best tricks over every discard

    def to_json(self) -> dict[str, Any]:
        return {"contract": self.label or None, "discard": _cards(self.discard), "tricks": dict(self.tricks)}


@dataclass(frozen=True, slots=True)
class Bound:
    """A raspasy player's paranoid bound: the fewest tricks he can hold himself to from the first analysed
    trick, whatever the other two do (a guarantee against both, not a prediction: each plays for himself)."""

    seat: int
    player: str
    bound: int               # tricks, counting those he had already taken
    actual: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "bound": self.bound, "actual": self.actual}


@dataclass(slots=True)
class DealAnalysis:
    """The analysis of one deal. ``skipped`` names why a deal was not analysed (then little else is set)."""

    pulka: str
    deal: int
    kind: str
    skipped: str = ""
    declarer: int = -1
    declarer_name: str = ""
    contract: str = ""
    goal: str = ""                      # "most" (trick contract), "fewest" (miser, Bettel), "" (raspasy)
    unit: str = "visty"
    double_dummy: int | None = None     # the declarer's tricks at the opening lead with perfect play
    needed: int | None = None           # fewest tricks that make (most) / most that make (fewest)
    makeable: bool | None = None
    margin: int | None = None           # double_dummy - needed (most) or needed - double_dummy (fewest)
    actual: int | None = None           # the declarer's tricks as played
    made: bool | None = None
    first_trick: int = 1                # the first trick analysed (open raspasy: after the talon tricks)
    losses: list[CardLoss] = field(default_factory=list)
    claim: ClaimCheck | None = None
    whist: list[WhistJudgement] = field(default_factory=list)
    discard: DiscardResult | None = None
    par: ParResult | None = None
    bounds: list[Bound] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cards: dict[int, int] = field(default_factory=dict)   # seat → cards analysed that he answered for
    # seq of a card played → (whose tricks count, {every legal card of that position: his tricks in the
    # deal with perfect play after it}, the value of the best card for the player to move): the
    # double-dummy value of each card he could have played (the deal viewer of ``analyze --html`` shows
    # them); not part of the JSON
    values: dict[int, tuple[int, dict[int, int], int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal, "kind": self.kind, "skipped": self.skipped or None,
            "declarer": self.declarer_name or None, "declarer_seat": self.declarer if self.declarer >= 0 else None,
            "contract": self.contract or None, "goal": self.goal or None, "unit": self.unit,
            "double_dummy": self.double_dummy, "needed": self.needed, "makeable": self.makeable,
            "margin": self.margin, "actual": self.actual, "made": self.made, "first_trick": self.first_trick,
            "losses": [x.to_json() for x in self.losses],
            "claim": self.claim.to_json() if self.claim else None,
            "whist": [w.to_json() for w in self.whist],
            "discard": self.discard.to_json() if self.discard else None,
            "par": self.par.to_json() if self.par else None,
            "bounds": [b.to_json() for b in self.bounds],
            "notes": list(self.notes),
        }


@dataclass(slots=True)
class PulkaAnalysis:
    """The analysis of a pulka's deals (all, or the one asked for)."""

    pulka: str
    players: tuple[str, ...]
    rules: str
    whist_price: Fraction | None
    solver: str                          # "native" or "python": which search produced the numbers
    deals: list[DealAnalysis] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"pulka": self.pulka, "players": list(self.players),
                "rules": self.rules, "whist_price": number_json(self.whist_price), "solver": self.solver,
                "deals": [d.to_json() for d in self.deals]}


def cards_text(mask: int) -> str:
    """Cards of a mask, unicode suits."""
    return format_cards(mask, "unicode") or "-"
