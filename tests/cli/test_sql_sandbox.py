"""``preflog sql`` reads the views and nothing else unless ``--allow-files`` is given: a query can
neither overwrite the store's own Parquet files (which once made a pulka vanish while ``verify``
stayed clean), nor read another file, nor attach a database, nor switch the sandbox off."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from preflog.cli.app import app
from preflog.workspace import Workspace

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sql-store") / "st"
    items = Workspace(root).import_paths([EXAMPLES / "seed003-settlement.pref", EXAMPLES / "seed001-bidding.pref"],
                                         workers=1)
    assert {i.status for i in items} == {"imported"}
    return root


def sql(store: Path, query: str, *extra: str) -> Result:
    return runner.invoke(app, ["sql", query, "--format", "csv", "--store", str(store), *extra])


def digests(root: Path) -> dict[str, str]:
    return {str(f.relative_to(root)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(root.rglob("*.parquet"))}


def test_the_views_are_queried_as_before(store: Path) -> None:
    res = sql(store, "SELECT (SELECT count(DISTINCT pulka) FROM events) AS pulkas, "
                     "(SELECT count(DISTINCT pulka) FROM deals) AS projected")
    assert (res.exit_code, res.output) == (0, "pulkas,projected\n2,2\n")
    # a query may still build in-memory tables: they vanish with the connection
    res = sql(store, "CREATE TABLE t AS SELECT * FROM deals; SELECT count(*) > 0 AS rows FROM t")
    assert (res.exit_code, res.output) == (0, "rows\nTrue\n")


def test_a_query_cannot_write_over_the_stores_files(store: Path) -> None:
    before = digests(store)
    targets = [Path(f) for f in Workspace(store).store().files()] + sorted((store / "projections").rglob("*.parquet"))
    assert len(targets) >= 2
    for target in targets:
        for options in ("", " (USE_TMP_FILE false)", " (FORMAT csv)"):
            res = sql(store, f"COPY (SELECT 1 AS x) TO '{target}'{options}")
            assert res.exit_code == 2, (target, res.output)
            assert res.output.startswith(f'error: SQL error: Permission Error: Cannot access file "{target.parent}')
            assert "preflog sql reads the views only; --allow-files lets a query use files" in res.output
    res = sql(store, f"COPY (SELECT 1 AS x) TO '{store / 'new.parquet'}'")
    assert res.exit_code == 2 and not (store / "new.parquet").exists()
    assert digests(store) == before
    res = sql(store, "SELECT count(DISTINCT pulka) AS pulkas FROM events")
    assert (res.exit_code, res.output) == (0, "pulkas\n2\n")


@pytest.mark.parametrize("query", [
    "SELECT * FROM read_csv('/etc/hostname')",
    "SELECT * FROM read_text('/etc/hostname')",
    "SELECT * FROM glob('/etc/*')",
    "ATTACH '{store}/other.duckdb' AS other",
    "SET enable_external_access = true",
    "RESET lock_configuration",
    "INSTALL httpfs",
])
def test_a_query_cannot_reach_past_the_views(store: Path, query: str) -> None:
    res = sql(store, query.format(store=store))
    assert res.exit_code == 2, res.output
    assert res.output.startswith("error: SQL error:")
    assert not (store / "other.duckdb").exists()


def test_allow_files_is_the_explicit_way_to_files(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "deals.csv"
    res = sql(store, f"COPY (SELECT DISTINCT pulka FROM deals ORDER BY 1) TO '{out}' (HEADER false)",
              "--allow-files")
    assert res.exit_code == 0, res.output
    assert out.read_text(encoding="utf-8").split() == ["seed001-bidding", "seed003-settlement"]
