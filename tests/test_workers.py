"""The one worker-process runner (preflog.workers.run_ordered): results in job order whatever the worker
count, a lazy bounded read of the jobs, and a worker that dies is an error naming its jobs, never a hang."""

from __future__ import annotations

import doctest
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from preflog import workers
from preflog.workers import WorkerDied
from preflog.workers import run_ordered


def square_slowly_first(n: int) -> int:
    """Early jobs take longest, so results would come back out of order if the runner did not reorder them."""
    import time

    time.sleep(0.02 * max(0, 5 - n))
    return n * n


def die_on_seven(n: int) -> int:
    if n == 7:
        os._exit(3)  # the worker process ends at once, as a crash or the OOM killer would end it
    return n


def test_doctest() -> None:
    assert doctest.testmod(workers).failed == 0


@pytest.mark.parametrize("n_workers", [1, 2])
def test_results_come_in_job_order(n_workers: int) -> None:
    got = list(run_ordered(square_slowly_first, range(12), workers=n_workers, chunksize=2,
                           preload=[__name__]))
    assert got == [n * n for n in range(12)]


def test_jobs_are_read_lazily_and_an_early_stop_cancels_the_rest() -> None:
    seen: list[int] = []

    def jobs() -> itertools.count[int]:
        for n in itertools.count():
            seen.append(n)
            yield n  # type: ignore[misc]

    it = run_ordered(square_slowly_first, jobs(), workers=2, chunksize=1, preload=[__name__], ahead=2)
    assert [next(it) for _ in range(3)] == [0, 1, 4]
    it.close()  # type: ignore[attr-defined]
    assert len(seen) <= 3 + 2 * 2 + 1  # at most the look-ahead was read from an endless stream


def test_a_dying_worker_is_an_error_naming_its_jobs() -> None:
    got: list[int] = []
    with pytest.raises(WorkerDied) as err:
        for r in run_ordered(die_on_seven, range(20), workers=2, chunksize=3, preload=[__name__]):
            got.append(r)
    # every result before the reported batch came back, in order; the reported batch is the one that held
    # job 7 (0-based 7: jobs 7-9 1-based) or, when the dying pool took a batch still running beside it, an
    # earlier one: never a later one, and never silence
    first, count = err.value.first, err.value.count
    assert got == list(range(first)) and count == 3 and first % 3 == 0 and first <= 6
    assert f"jobs {first + 1}-{first + 3}" in str(err.value)


def test_a_worker_dying_while_the_caller_is_busy_is_an_error_too() -> None:
    """The caller takes its time over each result: the pool breaks between two of its reads, and the next
    job is handed out to a broken pool. That too is a WorkerDied after the results before it (it was a
    BrokenProcessPool traceback)."""
    import time

    got: list[int] = []
    with pytest.raises(WorkerDied) as err:
        for r in run_ordered(die_on_seven, range(20), workers=2, chunksize=1, preload=[__name__], ahead=1):
            got.append(r)
            time.sleep(0.3)
    assert got == list(range(err.value.first)) and err.value.first <= 7 and err.value.count == 1


UNGUARDED = """
import sys
with open(sys.argv[1], "a") as fh:
    fh.write("ran\\n")
from preflog.workers import run_ordered
print(list(run_ordered(abs, [-1, -2, -3], workers=2)))
"""


def test_an_unguarded_script_is_not_run_again_in_the_workers(tmp_path: Path) -> None:
    """A script without ``if __name__ == "__main__"`` that starts workers: they do not run it again (it would
    start the work over in each of them, and fail), so it runs once and gets its results."""
    script, marker = tmp_path / "unguarded.py", tmp_path / "ran.txt"
    script.write_text(UNGUARDED, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script), str(marker)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "[1, 2, 3]", proc.stderr
    assert marker.read_text() == "ran\n"
