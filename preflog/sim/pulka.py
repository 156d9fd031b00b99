"""A whole synthetic pulka ("пулька"): deals by bots until every pulya is closed.

The bots are the family's (:meth:`preflog.engine.families.Family.bots`), so the Croatian
family plays with its own bidding and whist policy.
The pulka ends when the family scorer says so (``is_finished()``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.families import family_of
from ..errors import PreflogError
from ..model.events import Event
from ..model.events import PulkaEnded
from ..model.events import PulkaStarted
from ..model.outcome import DealOutcome
from ..rules.presets import resolve
from .levels import BotLevel
from .levels import Seats

PLAYER_NAMES = ("North", "East", "South", "West")


class SimError(PreflogError, ValueError):
    """Bad simulator arguments (unknown family, table size)."""


def simulate_pulka(rules_spec: str, players: int, seed: int, pool: int = 20, max_deals: int = 200,
                   paper: bool = False, outcomes: list[DealOutcome] | None = None,
                   levels: Sequence[BotLevel] | None = None, names: Sequence[str] | None = None) -> list[Event]:
    """A full legal pulka played by bots, deterministic for ``seed``.

    Starts with :class:`PulkaStarted`, then one block of events per deal, and ends with
    :class:`PulkaEnded` (``"closed"`` when the scorer reports every pulya closed,
    ``"max_deals"`` when ``max_deals`` deals were played first). ``paper=True`` records
    no cards: deals carry no hands, no auction and no card plays, played deals end in
    :class:`PaperResult`. ``outcomes``, if given, receives each deal's :class:`DealOutcome`.
    ``levels`` gives each seat a bot level (:mod:`preflog.sim.levels`; default: today's heuristic bots,
    the same events as without it), ``names`` the players' names (default North, East, South, West).
    """
    if players not in (3, 4):
        raise SimError(f"players must be 3 or 4, not {players!r}")
    rules = resolve(rules_spec)
    if players not in rules.players:
        raise SimError(f"rules {rules_spec!r} allow {rules.players} players, not {players}")
    family = family_of(rules)
    rng = random.Random(seed)
    scorer = family.scorer(rules, players, pool)
    sim = family.bots()(rules, players, rng, scorer)
    if levels is not None:
        if len(levels) != players:
            raise SimError(f"{len(levels)} bot levels for {players} players")
        sim.seats = Seats(levels, random.Random(seed ^ 0x5EED5EED))
    if names is not None and len(names) != players:
        raise SimError(f"{len(names)} names for {players} players")
    seat_names = tuple(names) if names is not None else PLAYER_NAMES[:players]
    events: list[Event] = [PulkaStarted(players=seat_names, rules=rules_spec, pool=pool,
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
