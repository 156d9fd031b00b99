"""``preflog repair``: a damaged checkpoint or cut last commit of the event table's log moved aside, and
the checkpoint rebuilt from the commits (:func:`preflog.store.logdamage.repair`; docs/security.md)."""

from __future__ import annotations

import typer

from .app import StoreOpt
from .app import _guard
from .app import _ws
from .app import app
from .app import out


@app.command()
@_guard
def repair(store: StoreOpt = None) -> None:
    """Move damaged checkpoints (or a cut last commit) of the event table's log aside into
    events/_preflog.damaged/, and rebuild the checkpoint from the commits; `preflog verify` names them."""
    done = _ws(store).repair()

    def say(line: str) -> None:
        out.print(line, markup=False, highlight=False)

    for src, dst, problem in done.moved:
        say(f"moved {src.name} aside to {dst}: it {problem}")
    if done.dropped is not None:
        say(f"the cut commit of version {done.dropped} held no whole commit: the table now ends before it, and "
            "what that commit added is not in it (import those records again)")
    if done.witness_was is not None:
        say(f"the witness named version {done.witness_was}; it now names the last whole append commit")
    if done.checkpoint is None:
        say("the log still cannot be read: a commit before the last is damaged (`preflog verify` names it); "
            "restore _delta_log from a backup")
        raise typer.Exit(2)
    say(f"wrote a checkpoint of version {done.checkpoint}" if done.moved else
        f"nothing damaged in the log; wrote a checkpoint of version {done.checkpoint}")
