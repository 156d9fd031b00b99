"""Luck and play: each player's result of a pulka split into what his *cards* were worth and what the
*play* added or lost (docs/skill.md).

For every deal the analysis has two values per seat, both in the pulka's own unit (visty; Croatian points)
and both the change the deal makes to the seat's exact settlement (the scorer's
:meth:`~preflog.scoring.base.Scorer.settlement`, which sums to zero over the seats, so a seat's average
value is 0 and a value *is* its difference from the average seat):

* **result** — the deal as it was played: the settlement after it less the settlement before it;
* **cards** — the deal under the contract and the whist calls actually made, played from the opening lead
  to the end double dummy by everyone (the engine plays the cards, the solver chooses them), scored on the
  scorer as it stood before the deal. A deal without card play (all passed, not whisted, a half-whist, a
  concession), a raspasy (each plays for himself: no single perfect line), or one the analysis cannot take
  (paper level, broken) is worth as played: its cards are its result;
* **play** — result less cards: what the players' card play changed.

The results of a pulka's deals sum to its final settlement, so cards + play does too, exactly
(:class:`fractions.Fraction`). Bidding and whisting are inside *cards* (the contract actually played);
:mod:`preflog.analysis.skill_stats` judges those decisions apart.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from fractions import Fraction
from typing import Any

from ..engine.families import family_of
from ..engine.findings import IllegalAction
from ..model.events import Event
from ..model.outcome import NO_SEAT
from ..model.outcome import DealKind
from ..scoring.base import Scorer
from ..solver import Goal
from ..solver import Solver
from ..solver import SolverError
from .deal import _SCORING_ERRORS
from .deal import Options
from .deal import _copy
from .deal import _Deal
from .deal import replay_captures
from .result import number_json
from .skill_passes import PassJudgement
from .skill_passes import judge_passes


class Basis(enum.StrEnum):
    """Where a deal's *cards* value comes from (the ``basis`` column of the skill table)."""

    DOUBLE_DUMMY = "double_dummy"   # the deal played double dummy from its opening lead
    NO_PLAY = "no_play"             # no card play (all passed, not whisted, half-whist, conceded): as played
    RASPASY = "raspasy"             # raspasy: as played (no single perfect line when each plays for himself)
    SKIPPED = "skipped"             # paper level, broken, unscored: as played


@dataclass(frozen=True, slots=True)
class SeatSplit:
    """One seat of one deal: its result, what its cards were worth, and the play (result − cards)."""

    deal: int
    seat: int
    player: str
    result: Fraction
    cards: Fraction
    basis: Basis
    passed_makeable: bool | None = None   # his first pass in the auction: a game open to him was makeable
    passed_game: str = ""                 # (None: he did not pass, or the pass is not judged); the cheapest

    @property
    def play(self) -> Fraction:
        return self.result - self.cards


@dataclass(slots=True)
class PulkaSplit:
    """The split of one pulka: a row per deal and seat, and the final settlement it sums to."""

    pulka: str
    players: tuple[str, ...]
    unit: str
    settlement: tuple[Fraction, ...]
    rows: list[SeatSplit] = field(default_factory=list)

    def totals(self) -> list[tuple[str, Fraction, Fraction, Fraction]]:
        """Per seat: (player, result, cards, play) over the pulka."""
        out = []
        for seat, name in enumerate(self.players):
            mine = [r for r in self.rows if r.seat == seat]
            res = sum((r.result for r in mine), Fraction(0))
            cards = sum((r.cards for r in mine), Fraction(0))
            out.append((name, res, cards, res - cards))
        return out


def _settlement(scorer: Scorer | None, n: int) -> tuple[Fraction, ...]:
    if scorer is None:
        return (Fraction(0),) * n
    return tuple(Fraction(x) for x in scorer.settlement().exact)


PASS_BUDGET = 4
"""Discards tried per contract group when judging a pass (:mod:`preflog.analysis.skill_passes`; None: all)."""


def split_events(pulka: str, events: Sequence[Event], native: bool | None = None, passes: bool = False,
                 budget: int | None = PASS_BUDGET) -> PulkaSplit:
    """The luck / play split of every deal of a pulka's log (module docstring); with ``passes``, each first
    pass in an auction judged too (:func:`~preflog.analysis.skill_passes.judge_pass`, ``budget`` discards
    a contract group)."""
    aud, caps = replay_captures(events, lambda n: True, lead_only=True, passes=passes)
    res = aud.result()
    p = aud.pulka
    players = res.players
    n = len(players)
    rules = res.rules
    final = tuple(Fraction(x) for x in res.settlement.exact) if res.settlement is not None else (Fraction(0),) * n
    unit = family_of(rules).sheet.unit if rules is not None else ""
    out = PulkaSplit(pulka, players, unit, final)
    if rules is None or p is None:
        return out
    solver = Solver(native=native)
    opts = Options(discard=False, par=False, cost=False, native=native)
    numbers = [s.deal for s in res.deals]
    for i, summary in enumerate(res.deals):
        cap = caps.get(summary.deal)
        before = _settlement(cap.scorer if cap is not None else None, n)
        nxt = caps.get(numbers[i + 1]) if i + 1 < len(numbers) else None
        after = _settlement(nxt.scorer, n) if nxt is not None else final
        result = tuple(a - b for a, b in zip(after, before, strict=True))
        cards, basis = result, Basis.SKIPPED
        o = summary.outcome
        judged: dict[int, PassJudgement] = {}
        if passes and cap is not None and cap.scorer is not None and cap.at_pass and not summary.broken:
            judged = judge_passes(cap.at_pass, cap.scorer, solver, budget)
        if cap is not None and cap.scorer is not None and o is not None and not o.paper and not summary.broken:
            ctx = _Deal(summary, cap, o, rules, players, p.whist_price, opts, solver)
            if o.kind == DealKind.RASPASY:
                basis = Basis.RASPASY
            elif o.declarer == NO_SEAT or cap.at_lead is None:
                basis = Basis.NO_PLAY
            else:
                dd = _double_dummy(ctx, n)
                if dd is not None:
                    cards, basis = dd, Basis.DOUBLE_DUMMY
                else:
                    basis = Basis.NO_PLAY
        for seat in range(n):
            j = judged.get(seat)
            out.rows.append(SeatSplit(summary.deal, seat, players[seat], result[seat], cards[seat], basis,
                                      j.makeable if j is not None else None, j.game if j is not None else ""))
    return out


def _double_dummy(ctx: _Deal, n: int) -> tuple[Fraction, ...] | None:
    """Each seat's worth of the deal played double dummy from its opening lead (None: no such position,
    or the solver, the engine or the scorer refuses it)."""
    cap = ctx.cap
    assert cap.at_lead is not None
    d = _copy(cap.at_lead)
    try:
        d.begin_play()
        if d.done or d.phase != d.PLAYING or d.completed or d.trick_cards:
            return None
        decl = ctx.o.declarer
        terms = ctx.scorer.contract_terms(ctx.o.contract, ctx.o.hand_game)
        goal = Goal.FEWEST if terms.no_tricks else Goal.MOST
        outcome = ctx.playout(d, decl, goal)
    except (SolverError, IllegalAction, *_SCORING_ERRORS):
        return None
    worths = ctx.worths(outcome)
    return worths if worths is not None and len(worths) == n else None


# --------------------------------------------------------------------------- the table
def skill_rows(split: PulkaSplit) -> list[dict[str, Any]]:
    """The rows of the ``skill`` table (one per deal and seat) for one pulka."""
    return [{"pulka": split.pulka, "deal": r.deal, "seat": r.seat, "player": r.player,
             "result": float(r.result), "cards": float(r.cards), "play": float(r.play),
             "result_text": str(number_json(r.result)), "cards_text": str(number_json(r.cards)),
             "play_text": str(number_json(r.play)), "basis": str(r.basis), "unit": split.unit,
             "passed_makeable": r.passed_makeable, "passed_game": r.passed_game or None}
            for r in split.rows]


__all__ = ["PASS_BUDGET", "Basis", "PulkaSplit", "SeatSplit", "skill_rows", "split_events"]
