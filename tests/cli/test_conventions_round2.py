"""Issue 25, conventions: ``compare`` labels with whole specs, a spec that starts with an option is
explained, enumerated options are choices, help reads like click's (TEXT, INTEGER, no ``<bool>``) and
flows at the terminal's width, shell completion installs, and counts agree with their nouns."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from preflog.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
SEED003 = str(ROOT / "data" / "examples" / "seed003-settlement.pref")
runner = CliRunner()


def commands() -> list[list[str]]:
    """Every command path of the CLI, ``[]`` for the top level."""
    found: list[list[str]] = []

    def walk(cmd: object, path: list[str]) -> None:
        found.append(path)
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            walk(sub, [*path, name])
    walk(typer.main.get_command(app), [])
    return found


def test_compare_labels_each_alternative_with_its_whole_spec(tmp_path: Path) -> None:
    """Two alternatives on one preset (sochi with a raspasy cap, sochi with geometric raspasy) were both
    labelled ``sochi``; each row now names the spec it was scored under, in the table and in JSON."""
    specs = ["sochi+raspasy_cap=4", "sochi+geometric-raspasy"]
    args = ["compare", SEED003, "--rules", specs[0], "--rules", specs[1], "--store", str(tmp_path)]
    doc = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert [r["alt_rules"] for r in doc["rows"]] == [specs[0]] * 3 + [specs[1]] * 3
    table = runner.invoke(app, args, env={"COLUMNS": "120"}).stdout
    assert table.count(specs[0]) == 3 and table.count(specs[1]) == 3


@pytest.mark.parametrize("command", [["compare", SEED003], ["simulate"]])
@pytest.mark.parametrize("spec", ["raspasy_cap=4", "geometric-raspasy"])
def test_a_spec_without_a_preset_says_how_a_spec_starts(tmp_path: Path, command: list[str], spec: str) -> None:
    res = runner.invoke(app, [*command, "--rules", spec, "--store", str(tmp_path)])
    assert res.exit_code == 2 and res.stdout == ""
    [line] = res.stderr.strip().splitlines()
    assert f"a spec starts with a preset, e.g. sochi+{spec}" in line


@pytest.mark.parametrize("path, option, choices", [
    (["spark", "audit", "out"], "--format", "parquet|delta"), (["spark", "project", "out"], "--read", "files|delta"),
    (["spark", "report", "out"], "--format", "parquet|delta"), (["spark", "analyze", "out"], "--read", "files|delta"),
])
def test_spark_options_are_choices(path: list[str], option: str, choices: str) -> None:
    """A wrong value is a usage error naming the choices, before the job (or pyspark) is touched."""
    res = runner.invoke(app, [*path, option, "orc"])
    assert res.exit_code == 2 and "'orc' is not one of" in res.stderr
    assert f"[{choices}]" in runner.invoke(app, [*path[:2], "--help"], env={"COLUMNS": "120"}).stdout


@pytest.mark.parametrize("path", commands(), ids=lambda p: " ".join(p) or "preflog")
def test_help_shows_click_metavars(path: list[str]) -> None:
    """TEXT, INTEGER, PATH, ``[a|b]`` — never typer's ``<str>``, ``<bool>`` (on a flag) or ``<list[str]>``."""
    res = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    assert not re.search(r"<(str|bool|int|path|list\[|[a-z]+\|)", res.stdout), res.stdout


def test_help_texts_flow_at_the_terminal_width() -> None:
    """A docstring's line breaks are the source's: at 200 columns each command's summary is one line."""
    res = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert ("Double-dummy analysis: makeable or not, the cards that lost tricks and what each cost on the sheet, "
            "the whist decisions, the best discard (docs/analysis.md).") in res.stdout
    assert "projections against the events; exit 1 on damage." in res.stdout
    res = runner.invoke(app, ["spark", "analyze", "--help"], env={"COLUMNS": "200"})
    assert "on Spark (what analyze --all computes): the deals, seats, cards and skill tables" in res.stdout


def test_install_completion_works(tmp_path: Path) -> None:
    """``--install-completion`` writes the shell's completion script (here bash, into a scratch home), and
    the script's protocol completes a command and an option's choices."""
    env = {"HOME": str(tmp_path), "SHELL": "/bin/bash"}
    res = runner.invoke(app, ["--install-completion"], env=env, prog_name="preflog")
    assert res.exit_code == 0, res.output
    script = (tmp_path / ".bash_completions" / "preflog.sh").read_text(encoding="utf-8")
    assert "_PREFLOG_COMPLETE=complete_bash" in script
    assert "preflog.sh" in (tmp_path / ".bashrc").read_text(encoding="utf-8")
    done = runner.invoke(app, [], prog_name="preflog", env={**os.environ, "_PREFLOG_COMPLETE": "complete_bash",
                                                             "COMP_WORDS": "preflog stats players --format ",
                                                             "COMP_CWORD": "4"})
    assert done.stdout.split() == ["table", "csv", "json", "parquet", "markdown"]


def test_counts_agree_with_their_nouns(tmp_path: Path) -> None:
    res = runner.invoke(app, ["simulate", "--pulkas", "1", "-o", str(tmp_path / "sim")])
    assert res.exit_code == 0 and "simulated 1 pulka\n" in res.stderr
    (tmp_path / "bad.pref").write_text('[Players "A, B, C"]\n\nnonsense\n', encoding="utf-8")
    res = runner.invoke(app, ["import", str(tmp_path / "bad.pref"), str(tmp_path / "sim"),
                              "--store", str(tmp_path / "st")])
    assert "2 files: 1 imported, 0 already stored, 1 file with errors" in res.stdout
    res = runner.invoke(app, ["replay", SEED003, "--deal", "1", "--trick", "1", "--store", str(tmp_path / "st")])
    assert "has no point after 1 trick (" in res.stderr
