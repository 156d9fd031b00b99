"""Many synthetic pulkas in parallel, deterministic per pulka whatever the worker count."""

from __future__ import annotations

import os
from collections.abc import Generator
from collections.abc import Sequence
from typing import Any

from ..model.events import Event
from ..model.events import Row
from ..workers import run_ordered
from .pulka import simulate_pulka

Spec = str | tuple[str, int] | dict[str, Any]


def pulka_seed(seed: int, index: int) -> int:
    """The seed of pulka ``index`` of a run: a fixed mix, independent of scheduling."""
    return (seed * 0x9E3779B1 + index * 0x85EBCA77 + 0x165667B1) & 0xFFFFFFFFFFFF


def _kwargs(spec: Spec) -> dict[str, Any]:
    if isinstance(spec, str):
        return {"rules_spec": spec, "players": 3}
    if isinstance(spec, tuple):
        return {"rules_spec": spec[0], "players": spec[1]}
    return dict(spec)


def _job(args: tuple[int, dict[str, Any], bool]) -> tuple[int, list[Event] | list[Row]]:
    index, kw, rows = args
    events = simulate_pulka(**kw)
    return index, [e.to_row() for e in events] if rows else events


def simulate_many(specs: Sequence[Spec], n_pulkas: int, seed: int, workers: int | None = None,
                  chunksize: int = 4, rows: bool = False) -> Generator[tuple[int, list[Any]], None, None]:
    """Yield ``(pulka_id, events)`` for ``n_pulkas`` pulkas in id order.

    Pulka ``i`` uses ``specs[i % len(specs)]`` — a rules spec (3 players), a
    ``(rules_spec, players)`` pair, or a dict of :func:`simulate_pulka` keyword arguments
    (``seed`` is always set here) — and the seed :func:`pulka_seed` (``seed``, ``i``), so the
    output does not depend on ``workers`` (default: all cores; 1 = in this process).
    ``rows=True`` yields the row form of the events (:meth:`Event.to_row`), about 8x cheaper to
    pass between processes than event objects. A worker that dies raises
    :class:`~preflog.workers.WorkerDied` (:func:`preflog.workers.run_ordered`).
    """
    if not specs:
        raise ValueError("simulate_many needs at least one rules spec")
    jobs = ((i, {**_kwargs(specs[i % len(specs)]), "seed": pulka_seed(seed, i)}, rows) for i in range(n_pulkas))
    return run_ordered(_job, jobs, workers or os.cpu_count() or 1, chunksize, preload=[__name__])
