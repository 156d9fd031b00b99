"""docs/cli.md's table of commands names every command the CLI has (it never mentioned `spark`)."""

from pathlib import Path

import typer.main

from preflog.cli.app import app

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def test_every_command_is_in_the_commands_table() -> None:
    table = DOC.read_text(encoding="utf-8").split("## Commands", 1)[1].split("\n## ", 1)[0]
    group = typer.main.get_command(app)
    names = list(group.commands)  # type: ignore[attr-defined]
    assert "spark" in names and "import" in names
    missing = [n for n in names if f"`preflog {n}" not in table]
    assert missing == []
    spark = group.commands["spark"]  # type: ignore[attr-defined]
    assert all(sub in table.split("preflog spark", 1)[1].split(" OUT_DIR", 1)[0] for sub in spark.commands)
