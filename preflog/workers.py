"""One runner for work spread over worker processes: results in the order of the jobs, a bounded
look-ahead, and a worker that dies reported as an error naming the jobs it held — never a hang.

The simulator (:func:`preflog.sim.simulate_many`), the double-dummy analysis of a store
(:func:`preflog.analysis.table.analyze_many`) and the bulk import (:mod:`preflog.importer`, whose workers
get the store's known content hashes once, through ``initializer``) all run through :func:`run_ordered`.

Workers start from a fork server that has imported only the modules named in ``preload`` (the module of
the job's function): a plain fork would copy the caller's threads (the Delta reader's runtime, DuckDB's
pool) with whatever locks they hold, and the child could hang on one; ``spawn`` would re-import the
caller's ``__main__``.

>>> list(run_ordered(abs, [-3, 1, -2], workers=1))
[3, 1, 2]

Imports nothing from preflog but :mod:`preflog.errors` (layer 1, beside the model).
"""

from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Callable
from collections.abc import Generator
from collections.abc import Iterable
from collections.abc import Sequence
from concurrent.futures import Future
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from multiprocessing import get_all_start_methods
from multiprocessing import get_context
from multiprocessing.context import BaseContext
from typing import Any
from typing import TypeVar

from .errors import PreflogError

J = TypeVar("J")
R = TypeVar("R")


class WorkerDied(PreflogError, RuntimeError):
    """A worker process ended without finishing its jobs (killed, out of memory, a crash in C code).

    ``first`` and ``count``: the position (0-based, in the order the jobs were given) of the first job
    of the first batch not done and how many jobs that batch had (one worker's death stops the pool: the
    batch may have been another worker's); ``job``: that batch in words (the caller's ``describe``), else
    empty."""

    def __init__(self, first: int, count: int, cause: str = "", job: str = "") -> None:
        self.first, self.count, self.job = first, count, job
        what = job or (f"job {first + 1}" if count == 1 else f"jobs {first + 1}-{first + count}")
        # when one worker dies the pool stops them all: the batch named is the first one not done, whichever
        # worker held it
        super().__init__(f"a worker process died ({cause or 'killed, out of memory or a crash'}) "
                         f"before {what} {'was' if job or count == 1 else 'were'} done")

    def __reduce__(self) -> tuple[type[WorkerDied], tuple[int, int, str, str]]:
        return (WorkerDied, (self.first, self.count, "", self.job))


_MAIN_ENV = "PREFLOG_WORKERS_MAIN"
"""Set only while :func:`context` starts the fork server: the path of the caller's main script."""

if os.environ.get(_MAIN_ENV) and getattr(sys.modules.get("__main__"), "__file__", None) is None:
    # This is the fork server importing its preload: its workers are to take the caller's script as loaded
    # already (multiprocessing skips a main module whose file is the caller's), not run it again.
    sys.modules["__main__"].__file__ = os.environ.pop(_MAIN_ENV)


def context(preload: Sequence[str] = ()) -> BaseContext:
    """The start method of the workers: a fork server preloading ``preload``, else ``spawn``.

    The workers do not run the caller's main script again, as multiprocessing otherwise does before their
    first job (an unguarded script would start the work over in every worker, and fail): the fork server is
    started here, told the script's path, and takes it as its own main module (see above)."""
    if "forkserver" not in get_all_start_methods():
        return get_context("spawn")
    from multiprocessing import forkserver
    from multiprocessing import spawn

    ctx = get_context("forkserver")
    ctx.set_forkserver_preload([__name__, *preload])
    main = spawn.get_preparation_data("preflog").get("init_main_from_path")
    if main:
        os.environ[_MAIN_ENV] = main
        try:
            forkserver.ensure_running()
        finally:
            os.environ.pop(_MAIN_ENV, None)
    return ctx


def _batch(fn: Callable[[J], R], jobs: list[J]) -> list[R]:
    return [fn(job) for job in jobs]


def run_ordered(fn: Callable[[J], R], jobs: Iterable[J], workers: int, chunksize: int = 1,
                preload: Sequence[str] = (), ahead: int = 4, initializer: Callable[..., object] | None = None,
                initargs: tuple[Any, ...] = (), describe: Callable[[list[J]], str] | None = None
                ) -> Generator[R, None, None]:
    """``fn(job)`` for every job, in the order of ``jobs``: in this process when ``workers`` <= 1, else
    on ``workers`` processes, ``chunksize`` jobs a task and at most ``ahead`` tasks a worker queued ahead
    of the one whose results come next (``jobs`` is read lazily, so a long stream is never held whole).
    ``fn`` must be a module-level function (it is pickled by name), of a module listed in ``preload``.
    ``initializer(*initargs)`` runs once in each worker before its first job (state every job shares, sent
    once a worker rather than once a job); in this process it is not run.

    A caller that stops early (closes the iterator) cancels what is queued. A worker that dies raises
    :class:`WorkerDied` at the first batch not done, after the results before it (``describe(batch)``, when
    given, names the batch in it)."""
    if workers <= 1:
        for job in jobs:
            yield fn(job)
        return
    it = iter(jobs)
    batches = iter(lambda: list(islice(it, chunksize)), [])
    pool = ProcessPoolExecutor(workers, mp_context=context(preload), initializer=initializer, initargs=initargs)
    window: deque[tuple[int, int, str, Future[list[R]]]] = deque()
    start = 0

    def results(first: int, count: int, job: str, fut: Future[list[R]]) -> list[R]:
        try:
            return fut.result()
        except BrokenProcessPool:
            raise WorkerDied(first, count, job=job) from None

    try:
        for batch in batches:
            name = describe(batch) if describe is not None else ""
            try:
                fut = pool.submit(_batch, fn, batch)
            except BrokenProcessPool:  # a worker died since the last result was taken
                while window:  # the results done before it, then the first batch not done
                    yield from results(*window.popleft())
                raise WorkerDied(start, len(batch), job=name) from None
            window.append((start, len(batch), name, fut))
            start += len(batch)
            if len(window) >= ahead * workers:
                yield from results(*window.popleft())
        while window:
            yield from results(*window.popleft())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["WorkerDied", "context", "run_ordered"]
