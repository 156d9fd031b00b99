"""The store's own upkeep: ``preflog repair`` (a damaged checkpoint or cut last commit of the event table's
log moved aside, and the checkpoint rebuilt from the commits: :func:`preflog.store.logdamage.repair`) and
``preflog rekey`` (the seal moved to a new key: :meth:`preflog.workspace.Workspace.rekey`); docs/security.md."""

from __future__ import annotations

from typing import Annotated

import typer

from ..errors import WorkspaceError
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


@app.command()
@_guard
def rekey(no_key: Annotated[bool, typer.Option("--no-key", help="Un-key the store: move its seal to no key "
                                               "(PREFLOG_NEW_KEY and PREFLOG_NEW_KEY_FILE unset).")] = False,
          store: StoreOpt = None) -> None:
    """Move the store's seal to a new key: the old key from PREFLOG_KEY or PREFLOG_KEY_FILE (none for an
    unkeyed store, which this keys), the new from PREFLOG_NEW_KEY or PREFLOG_NEW_KEY_FILE; the store must
    verify clean under the old one first (docs/security.md)."""
    from ..workspace import new_club_key

    new = new_club_key()
    if new is not None and no_key:
        raise WorkspaceError("--no-key un-keys the store, but a new key is given (PREFLOG_NEW_KEY or "
                             "PREFLOG_NEW_KEY_FILE): give one or the other")
    if new is None and not no_key:
        raise WorkspaceError("no new key: set PREFLOG_NEW_KEY or PREFLOG_NEW_KEY_FILE to the key the seal "
                             "moves to (or pass --no-key to un-key the store)")
    move = _ws(store).rekey(new)

    def name(fp: str) -> str:
        return f"key {fp}" if fp else "no key"

    out.print(f"{'finished the re-key' if move.finished else 're-keyed'} (version {move.version}): "
              f"{name(move.old)} → {name(move.new)}", markup=False, highlight=False)
