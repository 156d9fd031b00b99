"""Small things of issue 37 a new user meets: a mistyped store folder is said, not an empty list; every
option of ``simulate`` says what it does."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.application import Archive
from preflog.cli.app import app
from preflog.errors import NoStoreError
from preflog.workspace import Workspace


def test_a_folder_without_a_store_is_no_store_not_an_empty_list(tmp_path: Path) -> None:
    for call in (Workspace(tmp_path / "typo").ids, Archive(Workspace(tmp_path / "typo")).summaries):
        with pytest.raises(NoStoreError) as info:
            call()
        assert info.value.message == f"no preflog store at {tmp_path / 'typo'} (import record files into it first)"
        assert info.value.root == str(tmp_path / "typo")
    assert not (tmp_path / "typo").exists()   # asking made nothing


def test_every_option_of_simulate_has_help() -> None:
    res = CliRunner().invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    assert "--seed" in res.stdout and "Seed of the deals' shuffles" in res.stdout
