"""Many synthetic pulkas in parallel, deterministic per pulka whatever the worker count."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from collections.abc import Sequence
from concurrent.futures import Future
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from multiprocessing import get_all_start_methods
from multiprocessing import get_context
from multiprocessing.context import BaseContext
from typing import Any

from ..model.events import Event
from ..model.events import Row
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
                  chunksize: int = 4, rows: bool = False) -> Iterator[tuple[int, list[Any]]]:
    """Yield ``(pulka_id, events)`` for ``n_pulkas`` pulkas in id order.

    Pulka ``i`` uses ``specs[i % len(specs)]`` — a rules spec (3 players), a
    ``(rules_spec, players)`` pair, or a dict of :func:`simulate_pulka` keyword arguments
    (``seed`` is always set here) — and the seed :func:`pulka_seed` (``seed``, ``i``), so the
    output does not depend on ``workers`` (default: all cores; 1 = in this process).
    ``rows=True`` yields the row form of the events (:meth:`Event.to_row`), about 8x cheaper to
    pass between processes than event objects.
    """
    if not specs:
        raise ValueError("simulate_many needs at least one rules spec")
    jobs = ((i, {**_kwargs(specs[i % len(specs)]), "seed": pulka_seed(seed, i)}, rows) for i in range(n_pulkas))
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        for job in jobs:
            yield _job(job)
        return
    batches = iter(lambda: list(islice(jobs, chunksize)), [])
    # An executor, not a Pool: a worker that dies fails the run (BrokenProcessPool) instead of
    # leaving the caller waiting for its lost batch. The window bounds what is queued ahead.
    # A caller that stops early (closes this generator) cancels what is queued.
    pool = ProcessPoolExecutor(workers, mp_context=_context())
    try:
        window: deque[Future[list[tuple[int, list[Any]]]]] = deque()
        for batch in batches:
            window.append(pool.submit(_batch, batch))
            if len(window) >= 4 * workers:
                yield from window.popleft().result()
        while window:
            yield from window.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _batch(jobs: list[tuple[int, dict[str, Any], bool]]) -> list[tuple[int, list[Any]]]:
    return [_job(job) for job in jobs]


def _context() -> BaseContext:
    """Workers fork from a fork server that has imported only this module: a plain fork would copy
    the caller's threads (the Delta reader's runtime, DuckDB's pool) with whatever locks they hold,
    and the child can hang on one; ``spawn`` would re-import the caller's ``__main__``."""
    if "forkserver" not in get_all_start_methods():
        return get_context("spawn")
    ctx = get_context("forkserver")
    ctx.set_forkserver_preload([__name__])
    return ctx
