"""The input of projections and reports: :class:`PulkaFacts`, one replayed pulka as plain data.

The coordinator adapts the engine's replay result to this type, so projections and
reports never import the engine. Everything here is immutable and built from
foundation types only (:class:`DealOutcome`, :class:`DealScore`, :class:`Settlement`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..errors import PreflogError
from ..model.outcome import DealOutcome
from ..rules.config import Rules, RulesError
from ..rules.presets import resolve
from ..scoring.sheet import DealScore, Settlement

# Bump when the projection of the same facts changes, so every pulka is rebuilt once.
PROJECTION_VERSION = 1


class FactsError(PreflogError, ValueError):
    """Facts that cannot be projected (names the pulka and the deal)."""


@dataclass(frozen=True, slots=True)
class PulkaFacts:
    """One pulka ("пулька") as replayed: who sat where, under which rules, and each deal's
    outcome with what it wrote on the sheet.

    ``players`` are names in seat order (seat 0 first). ``rules_spec`` is a preset name with
    optional named overrides and ``key=value`` parts joined by ``+`` (``"sochi+gentleman"``,
    ``"sochi+raspasy_cap=4"``). ``date`` is ISO text (``2024-05-01`` or a timestamp whose first
    ten characters are the date) or ``None``. ``pool`` is the agreed pulya size (Croatian: the
    start) — needed only to re-score the deals under other rules (counterfactual reports).
    """

    pulka: str
    preset: str
    rules_spec: str
    players: tuple[str, ...]
    date: str | None
    n_players: int
    deals: tuple[tuple[DealOutcome, DealScore], ...]
    settlement: Settlement | None = None
    pool: int | None = None

    def __post_init__(self) -> None:
        if len(self.players) != self.n_players:
            raise FactsError(f"pulka {self.pulka!r}: {len(self.players)} player names for n_players={self.n_players}")
        for outcome, score in self.deals:
            if outcome.n_players != self.n_players or len(score.gora) != self.n_players:
                raise FactsError(f"pulka {self.pulka!r} deal {outcome.deal}: table size differs from the pulka's "
                                 f"n_players={self.n_players}")

    def rules(self) -> Rules:
        """The rules this pulka was played under (from ``rules_spec``)."""
        return resolve_spec(self.rules_spec)

    def fingerprint(self) -> str:
        """A digest of everything projected, so an unchanged pulka is never rebuilt."""
        text = repr((PROJECTION_VERSION, self.pulka, self.preset, self.rules_spec, self.players, self.date,
                     self.n_players, self.deals, self.settlement, self.pool))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def resolve_spec(spec: str) -> Rules:
    """Rules from ``preset[+named-override][+key=value]…``; :func:`preflog.rules.presets.resolve`
    plus ``key=value`` parts (values as text, coerced by :meth:`Rules.replace`)."""
    named: list[str] = []
    overrides: dict[str, Any] = {}
    for part in spec.split("+"):
        if "=" in part:
            key, _, value = part.partition("=")
            overrides[key.strip()] = value.strip()
        else:
            named.append(part)
    try:
        return resolve("+".join(named), overrides or None)
    except RulesError as e:
        raise RulesError(f"rules spec {spec!r}: {e}") from None
