"""The input of projections and reports: :class:`PulkaFacts`, one replayed pulka as plain data.

The coordinator adapts the engine's replay result to this type, so projections and
reports never import the engine. Everything here is immutable and built from
foundation types only (:class:`DealOutcome`, :class:`DealScore`, :class:`Settlement`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import Any

from ..errors import PreflogError
from ..model.events import Event
from ..model.events import PulkaStarted
from ..model.outcome import DealOutcome
from ..rules.config import Rules
from ..rules.spec import RulesSpec
from ..scoring.sheet import DealScore
from ..scoring.sheet import Number
from ..scoring.sheet import Settlement

if TYPE_CHECKING:
    from ..engine.replay import AuditResult

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
    start: tuple[tuple[Number, ...], ...] = ()
    """The starting sheet the deals continue from (``PulkaStarted.start``; ``()`` = blank)."""

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
        return fingerprint_of(self.pulka, self.content_print())

    def content_print(self) -> str:
        """The digest of everything projected but the pulka id: an import worker computes it, and the
        parent the fingerprint once it knows the id (:func:`fingerprint_of`)."""
        text = repr((PROJECTION_VERSION, self.preset, self.rules_spec, self.players, self.date,
                     self.n_players, self.deals, self.settlement, self.pool))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def fingerprint_of(pulka: str, content_print: str) -> str:
    """:meth:`PulkaFacts.fingerprint` from the pulka id and :meth:`PulkaFacts.content_print`."""
    return hashlib.sha256(f"{pulka}\x00{content_print}".encode()).hexdigest()[:32]


def resolve_spec(spec: str) -> Rules:
    """Rules from ``preset[+named-override][+key=value]…``: :meth:`RulesSpec.parse` and its
    :meth:`~preflog.rules.spec.RulesSpec.rules` (values as text, coerced by :meth:`Rules.replace`)."""
    return RulesSpec.parse(spec).rules()


# --- from an audited log to facts ---------------------------------------------------------
def started_event(events: Sequence[Event]) -> PulkaStarted | None:
    """The log's opening ``PulkaStarted``, if it has one."""
    return events[0] if events and isinstance(events[0], PulkaStarted) else None


def rules_spec(started: PulkaStarted) -> str:
    """The rules spec a pulka was started with: ``preset+key=value…`` (values as JSON unless text)."""
    parts = [started.rules] + [f"{k}={_spec_value(v)}" for k, v in started.overrides]
    return "+".join(parts)


def _spec_value(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v)


def date_iso(text: str | None) -> str | None:
    """A recorded date as ``YYYY-MM-DD`` (``2024.3.1``, ``2024/03/01`` …), or ``None`` if it is not one."""
    if not text:
        return None
    t = text.strip().replace(".", "-").replace("/", "-")
    parts = t.split("-")
    if len(parts) >= 3 and all(p.isdigit() for p in parts[:3]) and len(parts[0]) == 4:
        return f"{int(parts[0]):04d}-{int(parts[1]):02d}-{int(parts[2]):02d}"
    return None


def facts_of(pid: str, events: Sequence[Event], result: AuditResult) -> PulkaFacts:
    """The projection input of one audited pulka (broken deals are left out)."""
    started = started_event(events)
    players = result.players or (started.players if started else ())
    deals = tuple((d.outcome, d.score) for d in result.deals if d.outcome is not None and d.score is not None)
    meta = dict(started.meta) if started else {}
    return PulkaFacts(
        pulka=pid,
        preset=result.rules.name if result.rules else (RulesSpec.preset_of(started.rules) if started else "?"),
        rules_spec=rules_spec(started) if started else "sochi",
        players=tuple(players),
        date=date_iso(meta.get("date")),
        n_players=len(players),
        deals=deals,
        settlement=result.settlement,
        pool=started.pool if started else None,
        start=started.start if started else (),
    )
