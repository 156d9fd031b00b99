"""Regenerate the demo dataset in ``data/demo/``: bot-played pulkas under several presets.

    python data/demo/generate.py            # from the repository root; rewrites data/demo/*.pref|json

Deterministic: pulka ``i`` of a group is :func:`preflog.sim.simulate_pulka` with the seed
``pulka_seed(SEED + group_offset, i)``, so the same preflog version writes the same bytes.
Pools are small (10–20) so the pulkas stay short and the whole ``data/`` folder small.
Seats get names from a club of six players (the simulator's North/East/… are renamed), and each
pulka gets an ``[Id]`` (stable store id), a ``[Date]`` and an ``[Event]`` tag.

Files (several pulkas per file):

* ``sochi-3p.pref``, ``leningrad-3p.pref``, ``rostov-3p.pref`` — card level, 3 players;
* ``sochi-4p.pref`` — card level, 4 players (the dealer sits out);
* ``paper-3p.json`` — paper level (no cards, only contracts and trick counts), the three presets, JSON form;
* ``croatian-3p.pref`` — card level, Croatian and Slovenian (columns start at −30, end at zero).
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from dataclasses import dataclass
from dataclasses import replace
from pathlib import Path

from preflog.model.events import Event
from preflog.model.events import PulkaStarted
from preflog.record.api import write_json
from preflog.record.api import write_text
from preflog.sim import pulka_seed
from preflog.sim import simulate_pulka

SEED = 20240501
CLUB = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor")
POOLS = (10, 12, 14, 16, 20)
START = dt.date(2023, 1, 7)
HERE = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class Group:
    """One output file: ``count`` pulkas under each of ``presets`` (cycled)."""

    file: str
    presets: tuple[str, ...]
    players: int
    count: int
    paper: bool = False


GROUPS = (
    Group("sochi-3p.pref", ("sochi",), 3, 80),
    Group("leningrad-3p.pref", ("leningrad",), 3, 60),
    Group("rostov-3p.pref", ("rostov",), 3, 60),
    Group("sochi-4p.pref", ("sochi",), 4, 40),
    Group("paper-3p.json", ("sochi", "leningrad", "rostov"), 3, 60, paper=True),
    Group("croatian-3p.pref", ("croatian", "slovenian"), 3, 40),
)


def group_pulkas(g: Group, offset: int) -> list[list[Event]]:
    """The pulkas of one group, each with club names, an id, a date and an event tag."""
    out: list[list[Event]] = []
    stem = g.file.split(".")[0]
    for i in range(g.count):
        seed = pulka_seed(SEED + offset, i)
        rng = random.Random(seed)  # names, pool and date only; the play uses the same seed inside the simulator
        preset = g.presets[i % len(g.presets)]
        pool = rng.choice(POOLS)
        events = simulate_pulka(preset, g.players, seed, pool=pool, paper=g.paper)
        start = events[0]
        assert isinstance(start, PulkaStarted)
        date = START + dt.timedelta(days=7 * (i + offset * 3) % 700 + rng.randrange(7))
        meta = (("event", f"demo club night ({preset})"), ("date", date.isoformat()),
                ("id", f"demo-{stem}-{i + 1:03d}"), *start.meta)
        events[0] = replace(start, players=tuple(rng.sample(CLUB, g.players)), meta=meta)
        out.append(events)
    return out


def main(target: Path = HERE) -> int:
    total = 0
    for offset, g in enumerate(GROUPS):
        pulkas = group_pulkas(g, offset)
        flat = [e for p in pulkas for e in p]
        text = write_json(flat) if g.file.endswith(".json") else write_text(flat)
        (target / g.file).write_text(text, encoding="utf-8")
        total += len(pulkas)
        print(f"{g.file}: {len(pulkas)} pulkas, {len(text) // 1024} KiB", file=sys.stderr)
    return total


if __name__ == "__main__":
    print(f"{main()} pulkas written to {HERE}", file=sys.stderr)
