"""``preflog backup``: a copy of the store taken while writers append is the table as of one of its
commits — every backup, taken between the commits of a writer, reads back exactly as the source did at
the version it names, and verifies clean — and a writer that holds the store makes the backup give up in
one line, leaving nothing."""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

import pytest
from deltalake import DeltaTable
from filelock import FileLock
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.errors import FileError
from preflog.record.api import write_text
from preflog.store import backup as backup_mod
from preflog.store.backup import backup_table
from preflog.store.delta import LOCK_NAME
from preflog.store.delta import DeltaStore
from preflog.store.problems import StoreError
from preflog.workspace import Workspace

from ..randomplay import random_pulka


def _records(tmp: Path, n: int) -> list[Path]:
    out = []
    for k in range(n):
        path = tmp / f"r{k}.pref"
        path.write_text(write_text(random_pulka("sochi", (f"A{k}", f"B{k}", f"C{k}"), 3, seed=k)),
                        encoding="utf-8")
        out.append(path)
    return out


def test_backups_taken_while_a_writer_imports_are_each_one_whole_version(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    first, *rest = _records(tmp_path, 7)
    assert ws.import_paths([first])[0].status == "imported"
    done = threading.Event()

    def write() -> None:  # one commit per record, as phones and imports write
        try:
            for path in rest:
                assert ws.import_paths([path])[0].status == "imported"
        finally:
            done.set()

    writer = threading.Thread(target=write)
    writer.start()
    taken = []
    while not done.is_set() or not taken:
        taken.append(backup_table(ws.events_dir, tmp_path / f"b{len(taken)}" / "events"))
    writer.join()
    taken.append(backup_table(ws.events_dir, tmp_path / "last" / "events"))
    assert taken[-1].version == DeltaTable(ws.events_dir).version()
    for got in taken:
        copy = DeltaStore(got.dest)
        then = DeltaStore(ws.events_dir, version=got.version)
        assert DeltaTable(got.dest).version() == got.version
        assert copy.pulkas() == then.pulkas() and copy.pulkas()   # the source as of that commit, whole
        assert copy.verify() == []
    assert len(DeltaStore(taken[-1].dest).pulkas()) == 7
    assert not list(tmp_path.glob(".*partial*")) and not list(tmp_path.glob("*/.*partial*"))


def test_a_writer_holding_the_store_makes_the_backup_give_up_leaving_nothing(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    ws.import_paths(_records(tmp_path, 1))
    with FileLock(ws.events_dir / LOCK_NAME):   # a writer of this process; the backup runs in another
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            message = pool.apply(_backup_message, (str(ws.events_dir), str(tmp_path / "b" / "events")))
    assert "a writer held the store for 0.2 s; nothing was backed up" in message
    assert not (tmp_path / "b" / "events").exists() and not list((tmp_path / "b").glob(".*"))


def _backup_message(table: str, dest: str) -> str:
    backup_mod.WAIT = 0.2
    try:
        backup_table(Path(table), Path(dest))
    except StoreError as exc:
        return str(exc)
    return "backed up"


def test_the_command_makes_a_whole_store_and_refuses_a_folder_in_use(tmp_path: Path) -> None:
    store = tmp_path / "store"
    Workspace(store).import_paths(_records(tmp_path, 2))
    run = CliRunner()
    res = run.invoke(app, ["backup", str(tmp_path / "copy"), "--store", str(store)])
    assert res.exit_code == 0, res.output
    assert res.output.startswith(f"backed up {store} at version ") and "(4 files" in res.output
    res = run.invoke(app, ["verify", "--store", str(tmp_path / "copy")])   # its projections rebuilt too
    assert res.exit_code == 0 and "store verifies clean" in res.output, res.output
    res = run.invoke(app, ["backup", str(tmp_path / "copy"), "--store", str(store)])
    assert res.exit_code == 2 and "exists already: a backup goes into a new folder" in res.output
    assert "Traceback" not in res.output
    res = run.invoke(app, ["backup", str(tmp_path / "x"), "--store", str(tmp_path / "none")])
    assert res.exit_code == 2 and "no preflog store at" in res.output and not (tmp_path / "x").exists()
    with pytest.raises(FileError):
        backup_table(Workspace(store).events_dir, tmp_path / "copy" / "events")
