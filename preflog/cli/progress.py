"""Progress bars on standard error for the steps that can take a while (import, simulate, audit --all,
verify, projection rebuilds), drawn with ``rich.progress``.

Only where someone watches: standard error is a terminal (a bar in a pipe, a CI log or a test's captured
output would only leave noise), never with ``--json``. ``PREFLOG_PROGRESS=1`` draws them anyway (a
terminal that does not say it is one; the tests), ``PREFLOG_PROGRESS=0`` never. The bars are transient:
they vanish when the command ends, leaving the output as it is without them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager

ENV = "PREFLOG_PROGRESS"

Report = Callable[[str, int, int | None], None]
"""``report(stage, done, total)``: one bar per stage (``total`` None while unknown: a pulsing bar)."""


def wanted(as_json: bool = False) -> bool:
    """Whether to draw bars: never for ``--json``; ``$PREFLOG_PROGRESS`` 1 / 0 if set; else when standard
    error is a terminal (``isatty`` itself: ``FORCE_COLOR`` or ``TTY_COMPATIBLE`` in a CI log is no viewer)."""
    if as_json:
        return False
    forced = os.environ.get(ENV, "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty is not None and isatty())


@contextmanager
def bars(as_json: bool = False) -> Iterator[Report | None]:
    """A :data:`Report` drawing one bar per stage on standard error while the block runs, or ``None`` when
    :func:`wanted` says no (callers then pass no progress at all)."""
    if not wanted(as_json):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn
    from rich.progress import Progress
    from rich.progress import ProgressColumn
    from rich.progress import SpinnerColumn
    from rich.progress import Task
    from rich.progress import TaskID
    from rich.progress import TextColumn
    from rich.progress import TimeElapsedColumn
    from rich.text import Text

    from ..workspace import READING

    def megabytes(n: float) -> str:
        return f"{n / (1 << 20):.1f}"

    class Count(ProgressColumn):
        """``done/total``; while the total is unknown (the bar pulses) ``done`` alone, if any. The import's
        bytes read (:data:`~preflog.workspace.READING`) in MB."""

        def render(self, task: Task) -> Text:
            if task.description == READING:
                done = megabytes(task.completed)
                return Text(f"{done} MB" if task.total is None else f"{done}/{megabytes(task.total)} MB",
                            style="green")
            if task.total is None:
                return Text(str(int(task.completed)) if task.completed else "", style="green")
            return Text(f"{int(task.completed)}/{int(task.total)}", style="green")

    console = Console(file=sys.stderr, force_terminal=True, emoji=False, highlight=False)
    # standard output is left alone (no redirection): what a command prints there is byte for byte the same
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), Count(),
                  TimeElapsedColumn(), console=console, transient=True, redirect_stdout=False,
                  redirect_stderr=False) as progress:
        tasks: dict[str, TaskID] = {}

        def report(stage: str, done: int, total: int | None) -> None:
            task = tasks.get(stage)
            if task is None:
                task = tasks[stage] = progress.add_task(stage, total=total)
            progress.update(task, completed=done, total=total)

        yield report
