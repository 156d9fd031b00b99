"""A whole synthetic pulka ("пулька"): deals by bots until every pulya is closed.

The deal simulator is chosen by ``rules.family`` from :data:`FAMILIES` (a lookup,
not a fork), so the Croatian family plugs in with its own bidding and whist policy.
The pulka ends when the family scorer says so (``is_finished()``); while no scorer
module exists a small pulya tracker stands in (see :class:`_PulyaTracker`).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..model.events import Event, PulkaEnded, PulkaStarted
from ..model.outcome import GAME, HALF_WHIST, MISER, NOT_WHISTED, RASPASY, DealOutcome
from ..rules.config import Rules
from ..rules.presets import resolve
from .croatian import CroatianDeal
from .russian import RussianDeal

PLAYER_NAMES = ("North", "East", "South", "West")


class DealSim(Protocol):
    def __init__(self, rules: Rules, n_players: int, rng: random.Random) -> None: ...

    def play_deal(self, deal_no: int, dealer: int, min_level: int, paper: bool,
                  out: list[Event]) -> DealOutcome: ...


FAMILIES: dict[str, type] = {"russian": RussianDeal, "croatian": CroatianDeal}


class SimError(ValueError):
    """Bad simulator arguments (unknown family, table size)."""


class _PulyaTracker:
    """Stand-in for the Russian scorer: pulya only, enough to end a pulka realistically.

    A made game writes V (miser 10) to the declarer's pulya, a raspasy zero-taker the
    current price; what does not fit goes to the opponent with the larger open pulya
    (American help, RULES.md B1.4). Remizes and visty are not tracked.
    """

    def __init__(self, rules: Rules, n: int, pool: int) -> None:
        self.rules, self.n, self.pool = rules, n, pool
        self.pulya = [0] * n
        self.series = 0

    def _write(self, seat: int, pts: int, dealer: int) -> None:
        room = self.pool - self.pulya[seat]
        take = min(room, pts)
        self.pulya[seat] += take
        pts -= take
        others = [(seat + k) % self.n for k in range(1, self.n)]
        others.sort(key=lambda s: -self.pulya[s])
        for o in others:
            if pts <= 0:
                break
            take = min(self.pool - self.pulya[o], pts)
            self.pulya[o] += take
            pts -= take

    def score(self, o: DealOutcome) -> None:
        r = self.rules
        if o.kind == RASPASY:
            self.series += 1
            mult = {"none": 1, "arithmetic": self.series, "geometric": 2 ** (self.series - 1)}[r.raspasy_progression]
            price = r.raspasy_base * min(mult, r.raspasy_cap)
            for s in o.seats:
                if o.tricks[s] == 0:
                    self._write(s, price if r.raspasy_zero_premium == "price" else 1, o.dealer)
            return
        made = True
        if o.kind == MISER:
            made = o.tricks[o.declarer] == 0
            value = r.miser_value
        else:
            level = o.contract // 10
            value = r.value(level)
            if o.kind == GAME:
                made = o.tricks[o.declarer] >= level
            else:
                made = o.kind in (NOT_WHISTED, HALF_WHIST)
        if made or r.raspasy_exit == "any_game":
            self.series = 0
        if made:
            self._write(o.declarer, value, o.dealer)

    def min_bid_level(self) -> int:
        level = 0
        for length, lvl in self.rules.min_bid_after_raspasy:
            if self.series >= length:
                level = max(level, lvl)
        return level

    def is_finished(self) -> bool:
        return all(p >= self.pool for p in self.pulya)


def _scorer(rules: Rules, n: int, pool: int) -> Any:
    try:
        from ..scoring.base import make_scorer

        return make_scorer(rules, n, pool)
    except (ImportError, ValueError):
        return _PulyaTracker(rules, n, pool)


def simulate_pulka(rules_spec: str, players: int, seed: int, pool: int = 20, max_deals: int = 200,
                   paper: bool = False, outcomes: list[DealOutcome] | None = None) -> list[Event]:
    """A full legal pulka played by bots, deterministic for ``seed``.

    Starts with :class:`PulkaStarted`, then one block of events per deal, and ends with
    :class:`PulkaEnded` (``"closed"`` when the scorer reports every pulya closed,
    ``"max_deals"`` when ``max_deals`` deals were played first). ``paper=True`` records
    no cards: deals carry no hands, no auction and no card plays, played deals end in
    :class:`PaperResult`. ``outcomes``, if given, receives each deal's :class:`DealOutcome`.
    """
    if players not in (3, 4):
        raise SimError(f"players must be 3 or 4, not {players!r}")
    rules = resolve(rules_spec)
    if players not in rules.players:
        raise SimError(f"rules {rules_spec!r} allow {rules.players} players, not {players}")
    family = FAMILIES.get(rules.family)
    if family is None:
        raise SimError(f"no simulator for rules family {rules.family!r} (have: {', '.join(FAMILIES)})")
    rng = random.Random(seed)
    sim = family(rules, players, rng)
    scorer = _scorer(rules, players, pool)
    if hasattr(sim, "bind_scorer"):  # a family whose play depends on scoring state (Croatian refe)
        sim.bind_scorer(scorer)
    events: list[Event] = [PulkaStarted(players=PLAYER_NAMES[:players], rules=rules_spec, pool=pool,
                                        meta=(("generator", "preflog.sim"), ("seed", str(seed))))]
    dealer = rng.randrange(players)
    reason = "max_deals"
    for deal_no in range(1, max_deals + 1):
        outcome = sim.play_deal(deal_no, dealer, scorer.min_bid_level(), paper, events)
        scorer.score(outcome)
        if outcomes is not None:
            outcomes.append(outcome)
        if scorer.is_finished():
            reason = "closed"
            break
        dealer = (dealer + 1) % players
    events.append(PulkaEnded(reason))
    return events
