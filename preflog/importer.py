"""Bulk import of record files, on every core.

Per file, a worker process reads and validates the text, seals each pulka's rows with the store's
hash chain (the chain's last value is the pulka's content hash), and audits the pulkas that are
not already stored, deriving their projection facts. The parent takes the files' results strictly
in file order and alone decides ids and duplicates, commits to the store and refreshes the
projections, so what is stored does not depend on the number of workers.

Small imports stay in the calling process: a pool's start-up (a fresh interpreter per worker,
importing the reader, the engine and the store) costs about as much as reading a megabyte.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Collection
from collections.abc import Container
from collections.abc import Generator
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from typing import NamedTuple

from .errors import FileError
from .model.events import DealStarted
from .record.api import gc_paused
from .record.api import read_any
from .record.errors import RecordError
from .store.chain import GENESIS
from .store.chain import StoredRow
from .store.chain import seal

if TYPE_CHECKING:
    from .projections.facts import PulkaFacts

# A pool pays off from about this much record text (≈ 6 k deals) spread over at least two files.
PARALLEL_MIN_BYTES = 2_000_000
# Files handed out ahead of the one the parent waits for, per worker: keeps every worker busy
# while bounding the results held in memory when the parent falls behind.
AHEAD_PER_WORKER = 2


class Prepared(NamedTuple):
    """One pulka of a file, ready for the parent (a plain tuple: cheap to pass between processes).

    ``facts`` is ``None`` when the audit was not run, or when the content was already stored
    before this import started (a duplicate: nothing to audit)."""

    record_id: str | None
    content_hash: int
    deals: int
    events: int
    findings: int
    rows: list[StoredRow]
    facts: PulkaFacts | None


class FileResult(NamedTuple):
    """A file's pulkas in file order, or the error that refuses the whole file."""

    source: str
    pulkas: list[Prepared]
    error: str = ""


def file_pulka_id(stem: str, index: int, record_id: str | None) -> str:
    """The id a pulka asks for: its ``[Id]`` tag, else the file stem (``-2``, ``-3`` … after the first)."""
    return record_id or (stem if index == 0 else f"{stem}-{index + 1}")


def source_stem(source: str) -> str:
    return "stdin" if source == "-" else Path(source).stem


def prepare_file(source: str, hash_every: int, run_audit: bool, known: Container[int]) -> FileResult:
    """Read, seal and audit one record file. ``known``: content hashes already stored, whose
    pulkas are duplicates and need no audit. Bad input is returned as the file's error, and so is
    any other failure inside the file's import: one file never aborts the others."""
    try:
        return _prepare_file(source, hash_every, run_audit, known)
    except Exception as exc:  # not bad input the reader caught, but still this file's problem alone
        return FileResult(source, [], unexpected_failure(source, exc))


def unexpected_failure(source: str, exc: BaseException) -> str:
    """The error row of a file whose import failed in a way the reader did not foresee."""
    return f"{source}: could not be imported ({type(exc).__name__}: {exc}); please report this record"


def _prepare_file(source: str, hash_every: int, run_audit: bool, known: Container[int]) -> FileResult:
    from .projections.facts import facts_of

    try:
        records = read_any(source)
    except (RecordError, FileError) as exc:  # bad text; not a regular file, or over a size limit
        return FileResult(source, [], str(exc))
    except OSError as exc:
        return FileResult(source, [], f"{source}: {exc.strerror or exc}")
    if not records:
        return FileResult(source, [], f"{source}: holds no pulka (expected tag pairs such as "
                                      '[Players "…"] followed by deals)')
    stem = source_stem(source)
    out: list[Prepared] = []
    seen: set[int] = set()
    with gc_paused():  # acyclic bulk work: see gc_paused
        for i, rec in enumerate(records):
            events = rec.events
            # the chain sealed once: its last value is the content hash, its rows are stored
            rows = seal([e.to_row() for e in events], 0, GENESIS, 0, hash_every)
            h = rows[-1][7] if rows else GENESIS
            assert h is not None, "seal stores the chain value of the last row"
            deals = sum(1 for e in events if type(e) is DealStarted)
            facts: PulkaFacts | None = None
            findings = 0
            # a hash stored before, or met earlier in this file, is a duplicate whatever the parent
            # decides about the files in between: no audit needed
            if run_audit and h not in known and h not in seen:
                from .engine.replay import audit

                result = audit(events)
                findings = len(result.findings)
                facts = facts_of(file_pulka_id(stem, i, rec.id), events, result)
            seen.add(h)
            out.append(Prepared(rec.id, h, deals, len(events), findings, rows, facts))
    return FileResult(source, out)


# --- worker processes --------------------------------------------------------------------------
# Workers are fresh interpreters (``python -c``) talking over two pipes, not ``multiprocessing``
# pools: a spawned pool re-imports the caller's ``__main__``, which costs start-up time and hangs
# an unguarded script; a fork would copy the Delta / DuckDB runtimes' threads of this process.
_BOOT = "import sys; sys.path[:] = {path!r}; from preflog.importer import serve; serve({rfd}, {wfd})"


def serve(rfd: int, wfd: int) -> None:
    """A worker's loop: ``(hash_every, run_audit, known)`` first, then one source path per
    request, answered in order with its :class:`FileResult` (``None`` ends the loop). A sender
    thread pickles and writes answers, so the next file is read while the parent is busy."""
    import queue
    import threading
    from multiprocessing.connection import Connection

    inp, out = Connection(rfd, writable=False), Connection(wfd, readable=False)
    answers: queue.SimpleQueue[object] = queue.SimpleQueue()

    def send() -> None:
        while (answer := answers.get()) is not None:
            try:
                out.send(answer)
            except (BrokenPipeError, OSError):
                return

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    hash_every, run_audit, known = inp.recv()
    try:
        while (source := inp.recv()) is not None:
            try:
                answers.put(prepare_file(source, hash_every, run_audit, known))
            except Exception as exc:  # a bug, not bad input: the parent reports it as the file's error
                import traceback

                answers.put(_WorkerFailure(source, "".join(traceback.format_exception(exc))))
    except EOFError:
        pass  # the parent went away
    answers.put(None)
    sender.join()


class _WorkerFailure(NamedTuple):
    source: str
    trace: str


class _Worker:
    """One worker process and its two pipe ends; ``busy`` counts files sent and not yet answered."""

    def __init__(self, init: tuple[int, bool, frozenset[int]]) -> None:
        import subprocess
        import sys
        from multiprocessing.connection import Connection

        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        code = _BOOT.format(path=list(sys.path), rfd=to_r, wfd=from_w)
        try:
            self.proc = subprocess.Popen([sys.executable, "-c", code], pass_fds=(to_r, from_w),
                                         stdin=subprocess.DEVNULL, close_fds=True)
        finally:
            os.close(to_r)
            os.close(from_w)
        self.out = Connection(to_w, readable=False)
        self.inp = Connection(from_r, writable=False)
        self.busy = 0
        self.out.send(init)

    def submit(self, source: str) -> None:
        self.out.send(source)
        self.busy += 1

    def result(self) -> FileResult:
        try:
            got: FileResult | _WorkerFailure = self.inp.recv()
        except EOFError:
            raise RuntimeError(f"import worker {self.proc.pid} stopped (exit code {self.proc.poll()})") from None
        self.busy -= 1
        if isinstance(got, _WorkerFailure):  # the file's error row, not the batch's
            return FileResult(got.source, [], f"{got.source}: could not be imported; please report this record:\n"
                                              f"{got.trace}")
        return got

    def close(self) -> None:
        """Stop the worker: politely when it has nothing left to answer, else (the import was
        abandoned) at once."""
        if self.busy == 0:
            try:
                self.out.send(None)
            except OSError:
                pass
        self.out.close()
        try:
            self.proc.wait(timeout=0 if self.busy else 10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        self.inp.close()


def use_pool(files: Sequence[Path | str], workers: int) -> bool:
    """Whether workers pay off: several cores, several files, and enough text to read."""
    if workers < 2 or len(files) < 2 or any(str(f) == "-" for f in files):
        return False
    total = 0
    for f in files:
        try:
            total += os.path.getsize(f)
        except OSError:
            continue  # reported as the file's error when it is read
        if total >= PARALLEL_MIN_BYTES:
            return True
    return False


def prepared_files(files: Sequence[Path | str], hash_every: int, run_audit: bool, known: Collection[int],
                   workers: int) -> Generator[FileResult, None, None]:
    """Each file's :class:`FileResult`, in file order; on ``workers`` processes when
    :func:`use_pool` says so, else here (where ``known`` may grow as the caller imports)."""
    if not use_pool(files, workers):
        for f in files:
            yield prepare_file(str(f), hash_every, run_audit, known)
        return
    n = min(workers, len(files))
    init = (hash_every, run_audit, frozenset(known))
    pool: list[_Worker] = []
    try:
        pool.extend(_Worker(init) for _ in range(n))
        order: deque[_Worker] = deque()   # the worker holding each outstanding file, in file order
        todo = iter(files)

        def hand_out() -> None:
            while len(order) < n * AHEAD_PER_WORKER:
                f = next(todo, None)
                if f is None:
                    return
                w = min(pool, key=lambda w: w.busy)
                w.submit(str(f))
                order.append(w)

        hand_out()
        while order:
            result = order.popleft().result()
            hand_out()
            yield result
    finally:
        for w in pool:
            w.close()
