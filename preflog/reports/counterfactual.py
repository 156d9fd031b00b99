"""Counterfactual comparison: the same recorded deals scored under another convention.

The recorded :class:`DealOutcome` s of each pulka are re-scored with
``family_of(rules).scorer(rules, n, pool)`` under the alternative rules (and under the pulka's own rules
when no settlement was recorded), and per player the two settlements and their difference
are returned. Only conventions of the same family are comparable (a Croatian deal is not
a Russian one). The auction is not replayed: a raspasy series or a minimum-bid rule that
would have changed what was bid is ignored — only the scoring of what happened changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import pandas as pd

from ..engine.families import family_of
from ..errors import PreflogError
from ..errors import ScoringError
from ..projections.build import frac_text
from ..projections.facts import PulkaFacts
from ..projections.facts import resolve_spec
from ..rules.config import Rules
from ..scoring.sheet import Settlement
from ..scoring.sheet import Sheet


class _Row(NamedTuple):
    """One player of one pulka: the settlement as played (``base``) and under the alternative rules."""

    pulka: str
    player: str
    base: Fraction
    alternative: Fraction


@dataclass
class _Total:
    """The running sum of one output row (per player, or per pulka and player)."""

    label: dict[str, str]  # the key columns: ``player``, with ``pulka`` first when per pulka
    pulkas: int = 0
    base: Fraction = Fraction(0)
    alternative: Fraction = Fraction(0)


class CounterfactualError(PreflogError, ValueError):
    """Rules that cannot be compared, or a pulka that cannot be re-scored."""


def rescore(facts: PulkaFacts, rules: Rules, pool: int | None = None) -> Settlement:
    """The settlement of ``facts``' recorded deals under ``rules``."""
    size = pool if pool is not None else facts.pool
    if size is None:
        raise CounterfactualError(f"pulka {facts.pulka!r}: no pool size recorded; pass pool=…")
    scorer = family_of(rules).scorer(rules, facts.n_players, size)
    if facts.start:  # the deals continue from a starting sheet: so do they under the other rules
        n = facts.n_players
        try:
            scorer.start_from(Sheet(n, [r[0] for r in facts.start], [r[1] for r in facts.start],
                                    [list(r[2:]) for r in facts.start]))
        except ScoringError as e:
            raise CounterfactualError(f"pulka {facts.pulka!r}: its starting sheet cannot start under "
                                      f"{rules.name!r}: {e}") from e
    for outcome, _ in facts.deals:
        try:
            scorer.score(outcome)
        except Exception as e:  # the scorer's own error, named with the pulka and deal
            raise CounterfactualError(f"pulka {facts.pulka!r} deal {outcome.deal}: cannot score under "
                                      f"{rules.name!r}: {e}") from e
    return scorer.settlement()


def compare(facts: Iterable[PulkaFacts], alternative: Rules | str, *, pool: int | None = None,
            per_pulka: bool = False) -> pd.DataFrame:
    """Per player (or per pulka and player): settlement as played vs under ``alternative``.

    Columns: ``player`` (``pulka`` first when ``per_pulka``), ``pulkas``, ``base`` and
    ``alternative`` (exact, float), ``diff`` = alternative − base, and the exact texts
    ``base_text``, ``alternative_text``, ``diff_text``. ``base`` is the recorded settlement, or the
    re-scoring under the pulka's own rules when none was recorded.
    """
    alt = resolve_spec(alternative) if isinstance(alternative, str) else alternative
    rows: list[_Row] = []
    for f in facts:
        own = f.rules()
        if own.family != alt.family:
            raise CounterfactualError(f"pulka {f.pulka!r} is {own.family} ({f.rules_spec!r}); rules "
                                      f"{alt.name!r} are {alt.family}: only the same family can be compared")
        base = f.settlement if f.settlement is not None else rescore(f, own, pool)
        other = rescore(f, alt, pool)
        for seat, name in enumerate(f.players):
            rows.append(_Row(f.pulka, name, Fraction(base.exact[seat]), Fraction(other.exact[seat])))
    keys = ["pulka", "player"] if per_pulka else ["player"]
    groups: dict[tuple[str, ...], _Total] = {}
    for r in rows:
        label = {"pulka": r.pulka, "player": r.player} if per_pulka else {"player": r.player}
        g = groups.setdefault(tuple(label.values()), _Total(label))
        g.pulkas += 1
        g.base += r.base
        g.alternative += r.alternative
    out: list[dict[str, object]] = []
    for g in groups.values():
        b, a = g.base, g.alternative
        out.append({**g.label, "pulkas": g.pulkas, "alt_rules": alt.name,
                    "base": float(b), "alternative": float(a), "diff": float(a - b),
                    "base_text": frac_text(b), "alternative_text": frac_text(a), "diff_text": frac_text(a - b)})
    cols = keys + ["pulkas", "alt_rules", "base", "alternative", "diff", "base_text", "alternative_text", "diff_text"]
    return pd.DataFrame(out, columns=cols).sort_values(keys, kind="stable").reset_index(drop=True)
