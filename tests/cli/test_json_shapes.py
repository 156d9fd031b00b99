"""The ``--json`` shapes documented in docs/cli.md are the shapes the commands print.

Each example block under "``--json`` of ``ls``, ``import``, …" is parsed and compared with the real
output of the same command on a store holding seed003-settlement: the same keys at every level, the
same JSON types (``null`` stands for "absent or a value"), the same ``kind`` and ``version``. For a
list the first element is compared. ``verify`` on a clean store has no problem to show, so its
problem entry is compared with :func:`preflog.views.json.verify_json` of a made-up problem.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.store.base import IntegrityProblem
from preflog.views.json import AUDIT_JSON_VERSION
from preflog.views.json import CLI_JSON_VERSION
from preflog.views.json import verify_json

from ..analysis.records import DOWN_ONE

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "cli.md"
runner = CliRunner()


def documented() -> dict[str, Any]:
    """The JSON example after each ``## `… --json``` or ``### `… --json``` heading of docs/cli.md, by
    command."""
    text = DOC.read_text(encoding="utf-8")
    found = {}
    for m in re.finditer(r"^###? `([a-z |-]+?) --json`\n(.*?)^```json\n(.*?)^```", text, re.M | re.S):
        found[m.group(1)] = json.loads(m.group(3))
    return found


def totals_record() -> tuple[str, list[str]]:
    """The record of totals ``cat totals.pref`` shows under "## `settle`", and the lines ``preflog settle
    totals.pref`` prints after it there."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"^## `settle`\n.*?^```sh\n\$ cat totals.pref\n(.*?)^\$ preflog settle totals.pref\n(.*?)^```",
                  text, re.M | re.S)
    assert m is not None
    return m.group(1), m.group(2).splitlines()


def shape(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: shape(x) for k, x in v.items()}
    if isinstance(v, list):
        return [shape(v[0])] if v else []
    if v is None:
        return None
    return "number" if isinstance(v, (int, float)) and not isinstance(v, bool) else type(v).__name__


def same_shape(doc: Any, real: Any, where: str = "$") -> None:
    if doc is None or real is None:
        return
    if isinstance(doc, dict):
        assert isinstance(real, dict), where
        assert list(doc) == list(real), f"{where}: documented keys {list(doc)}, printed {list(real)}"
        for k in doc:
            same_shape(doc[k], real[k], f"{where}.{k}")
    elif isinstance(doc, list):
        assert isinstance(real, list), where
        if doc and real:
            same_shape(doc[0], real[0], f"{where}[0]")
    else:
        assert doc == real, f"{where}: documented {doc}, printed {real}"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("shapes")
    shutil.copy(ROOT / "data" / "examples" / "seed003-settlement.pref", tmp / "seed003-settlement.pref")
    (tmp / "bad.pref").write_text('[Players "A, B, C"]\n\nnonsense\n', encoding="utf-8")
    return tmp


def cli_json(store: Path, *args: str, code: int = 0) -> Any:
    res = runner.invoke(app, [*args, "--json", "--store", str(store / "st")])
    assert res.exit_code == code, res.output
    return json.loads(res.stdout)


def test_every_documented_shape_is_printed(store: Path) -> None:
    docs = documented()
    assert set(docs) == {"ls", "import", "ledger", "verify", "compare", "stats players|contracts|variants", "analyze",
                         "analyze --all", "sheet", "settle", "audit"}
    docs.pop("audit")  # its own test below, at its own version
    (store / "down-one.pref").write_text(DOWN_ONE, encoding="utf-8")
    imported = cli_json(store, "import", str(store / "bad.pref"), str(store / "seed003-settlement.pref"), code=2)
    printed = {
        "import": imported,
        "ledger": cli_json(store, "ledger"),
        "ls": cli_json(store, "ls"),
        "verify": cli_json(store, "verify"),
        "compare": cli_json(store, "compare", "seed003-settlement", "--rules", "leningrad"),
        "stats players|contracts|variants": cli_json(store, "stats", "variants", "--preset", "sochi"),
        "analyze": cli_json(store, "analyze", str(store / "down-one.pref")),
    }
    cli_json(store, "import", str(store / "down-one.pref"))
    printed["analyze --all"] = cli_json(store, "analyze", "--all", "--workers", "1")
    printed["sheet"] = cli_json(store, "sheet", str(store / "seed003-settlement.pref"))
    (store / "totals.pref").write_text(totals_record()[0], encoding="utf-8")
    printed["settle"] = cli_json(store, "settle", str(store / "totals.pref"))
    for name, doc in docs.items():
        assert doc["version"] == CLI_JSON_VERSION == printed[name]["version"]
        same_shape(shape(doc), shape(printed[name]), name)
    # the sheet and settle examples are the real documents, value for value (the sheet's deals cut to the first)
    sheet = printed["sheet"]
    assert {**sheet, "pulkas": [{**sheet["pulkas"][0], "deals": sheet["pulkas"][0]["deals"][:1]}]} == docs["sheet"]
    assert printed["settle"] == docs["settle"]
    assert [i["status"] for i in imported["items"]] == ["error", "imported"]
    assert printed["verify"]["clean"] is True and printed["verify"]["problems"] == []
    problem = verify_json("club", 1, [IntegrityProblem("friday", 7, "hash", "chain broken", 5)])
    same_shape(shape(docs["verify"]), shape(problem), "verify problem")


@pytest.mark.parametrize("kind", ["players", "contracts", "variants"])
def test_stats_rows_carry_every_column_of_the_report(store: Path, kind: str) -> None:
    """The envelope is the documented one for each report; the rows' keys are the csv's columns."""
    doc = documented()["stats players|contracts|variants"]
    cli_json(store, "import", str(store / "seed003-settlement.pref"))
    got = cli_json(store, "stats", kind, "--pulka", "seed003-settlement")
    assert list(got) == list(doc) and got["kind"] == f"stats {kind}"
    assert got["filters"] == {"pulka": ["seed003-settlement"]}
    res = runner.invoke(app, ["stats", kind, "--format", "csv", "--pulka", "seed003-settlement",
                              "--store", str(store / "st")])
    assert list(got["rows"][0]) == res.stdout.splitlines()[0].split(",")


def test_audit_json_is_the_documented_shape_and_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The example under "## `audit --json`" is, key for key and value for value, the first pulka of
    ``preflog audit data/examples/seed001-bidding-illegal.pref --json`` (run in a folder holding data/examples,
    so the file is named as documented): version 2, the store's seq (4: PulkaStarted, DealStarted, 6s, then 7s) and
    the record line of the event (line 8 of the file holds the auction). A stored copy of the same pulka
    has the same findings with ``file`` and ``line`` null. ``--strict`` prints the same envelope."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"^## `audit --json`\n.*?^```json\n(.*?)^```", text, re.M | re.S)
    assert m is not None
    doc = json.loads(m.group(1))
    assert doc["version"] == AUDIT_JSON_VERSION == 2
    rel = "data/examples/seed001-bidding-illegal.pref"
    assert (ROOT / rel).read_text(encoding="utf-8").splitlines()[7].startswith("Auction:")
    monkeypatch.chdir(tmp_path)  # the file is named as the doc names it, relative to the folder
    shutil.copytree(ROOT / "data" / "examples", tmp_path / "data" / "examples")
    store = str(tmp_path / "st")
    res = runner.invoke(app, ["audit", rel, "--json", "--store", store])
    assert res.exit_code == 1, res.output
    printed = json.loads(res.stdout)
    assert {k: v for k, v in printed.items() if k != "pulkas"} == {"kind": "audit", "version": 2}
    assert printed["pulkas"][0] == doc["pulkas"][0]
    same_shape(shape(doc), shape(printed))
    strict = json.loads(runner.invoke(app, ["audit", rel, "--json", "--strict", "--store", store]).stdout)
    assert strict == {**doc, "pulkas": [{**doc["pulkas"][0], "settlement": None}]}
    assert runner.invoke(app, ["import", rel, "--store", store]).exit_code == 0
    stored = json.loads(runner.invoke(app, ["audit", "seed001-illegal-jump", "--json", "--store", store]).stdout)
    [finding] = stored["pulkas"][0]["findings"]
    assert finding == {**doc["pulkas"][0]["findings"][0], "file": None, "line": None}


def test_sql_format_json_is_the_documented_example(store: Path) -> None:
    """The block under "### `sql --format json`" is, row for row and value for value, what the query quoted
    above it prints on a store holding seed003-settlement: names and words, not codes (deal 2:
    ``Contract: Запад 6s``, ``Whist: Восток whist, Юг pass``, ``Tricks: Запад 3, Восток 5, Юг 2``), and the
    paper-level deal's missing text as null."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r'^### `sql --format json`\n.*?`preflog sql "(.*?)" --format json`.*?^```json\n(.*?)^```', text,
                  re.M | re.S)
    assert m is not None
    query, doc = m.group(1), json.loads(m.group(2))
    res = runner.invoke(app, ["import", str(store / "seed003-settlement.pref"), "--store", str(store / "st")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["sql", query, "--format", "json", "--store", str(store / "st")])
    assert res.exit_code == 0, res.output
    printed = json.loads(res.stdout)
    same_shape(shape(doc), shape(printed), "sql --format json")
    assert printed == doc


def test_settle_text_is_the_documented_one(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``preflog settle totals.pref`` at 80 columns prints the lines docs/cli.md shows (trailing blanks aside):
    the sheet table, then the settlement in a table of its own, the money at 100 a vist."""
    from preflog.cli import app as cli

    monkeypatch.setattr(cli.out, "width", 80)
    record, lines = totals_record()
    (store / "totals.pref").write_text(record, encoding="utf-8")
    res = runner.invoke(app, ["settle", str(store / "totals.pref"), "--store", str(store / "st")])
    assert res.exit_code == 0, res.output
    assert [line.rstrip() for line in res.stdout.splitlines()] == lines
