"""``preflog stats players|contracts|variants``: every output format and every filter, through typer's
CliRunner, on the two hand-built pulkas of ``tests/stats/conftest.py`` (projected into a temp store).

Numbers used below, read off that conftest's docstring:

* p1 (Sochi, 2024-03-01): Ann, Bob, Cid; p2 (Leningrad, 2024-04-10): Ann, Bob, Dan.
* Ann declared 3 (p1 D1 7♥ down, p1 D2 6♠ made, p2 D1 7♥ down), made 1 → success 1/3, Wilson 95 %
  interval [0.0615, 0.7923] (reference values in tests/stats/test_reports.py) → "0.33 [0.06–0.79]".
* Bob declared 1 (p1 D4 miser, made) → 1/1, interval [0.2065, 1] → "1.00 [0.21–1.00]".
* Contracts declared: p1 7♥, 6♠, miser, 6♦ (not whisted); p2 7♥, 8♠ → 6 declared, 4 made
  (6♠, miser, 6♦, 8♠); 7♥ is declared twice and made 0 times.
"""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from preflog import reports
from preflog.cli.app import app
from preflog.projections.store import rebuild

runner = CliRunner()
_CONFTEST = Path(__file__).resolve().parents[1] / "stats" / "conftest.py"


def _facts() -> list:
    spec = importlib.util.spec_from_file_location("_stats_conftest", _CONFTEST)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return [mod.make_p1(), mod.make_p2()]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("stats-store")
    rebuild(root, _facts())
    return root


def run(store: Path, *args: str) -> tuple[int, str]:
    res = runner.invoke(app, ["stats", *args, "--store", str(store)])
    return res.exit_code, res.output


def csv_of(store: Path, *args: str) -> pd.DataFrame:
    code, text = run(store, *args, "--format", "csv")
    assert code == 0, text
    return pd.read_csv(io.StringIO(text))


def test_players_table_is_a_readable_selection(store: Path) -> None:
    """The terminal table folds each rate with its interval into one cell and leaves out the
    ``_lo``/``_hi`` and raw count columns: at most 12 columns instead of ~30."""
    code, text = run(store, "players")
    assert code == 0, text
    assert "0.33 [0.06–0.79]" in text          # Ann's declarer success 1/3
    assert "1.00 [0.21–1.00]" in text          # Bob's miser 1/1
    assert "declarer_success_lo" not in text and "whist_obliged" not in text
    header = next(line for line in text.splitlines() if "player" in line and "pulkas" in line)
    assert 8 <= header.count("┃") - 1 <= 12


def test_players_csv_json_markdown_parquet_keep_all_columns(store: Path, tmp_path: Path) -> None:
    """csv, json, markdown and parquet carry every column of the report (the API's DataFrame),
    with Ann's declared = 3 and declared_made = 1 in each."""
    full = list(reports.players(reports.connect(store)).columns)
    assert len(full) > 25
    df = csv_of(store, "players")
    assert list(df.columns) == full
    assert df.set_index("player").loc["Ann", ["declared", "declared_made"]].tolist() == [3, 1]

    code, text = run(store, "players", "--format", "json")
    assert code == 0, text
    rows = json.loads(text)["rows"]  # the --json document
    assert list(rows[0]) == full
    assert {r["player"]: r["declared"] for r in rows}["Ann"] == 3

    code, text = run(store, "players", "--format", "markdown")
    assert code == 0, text
    lines = text.strip().splitlines()
    assert lines[0] == "| " + " | ".join(full) + " |"
    assert len(lines) == 2 + 4                 # header, rule, Ann Bob Cid Dan

    out = tmp_path / "players.parquet"
    code, text = run(store, "players", "--format", "parquet", "--output", str(out))
    assert code == 0, text
    pq = pd.read_parquet(out)
    assert list(pq.columns) == full and len(pq) == 4


def test_parquet_needs_output_and_unknown_format_fails(store: Path) -> None:
    """Parquet is binary, so it needs --output; an unknown format names the known ones. Both exit 2."""
    code, text = run(store, "players", "--format", "parquet")
    assert code == 2 and "--output" in text
    code, text = run(store, "players", "--format", "xlsx")
    assert code == 2 and "markdown" in text


def test_output_file_for_text_formats(store: Path, tmp_path: Path) -> None:
    """--output writes the csv to a file instead of stdout."""
    out = tmp_path / "v.csv"
    code, text = run(store, "variants", "--format", "csv", "--output", str(out))
    assert code == 0 and "preset" not in text
    assert sorted(pd.read_csv(out)["preset"]) == ["leningrad", "sochi"]


@pytest.mark.parametrize(("args", "players"), [
    (("--player", "Ann"), ["Ann"]),
    (("--preset", "leningrad"), ["Ann", "Bob", "Dan"]),
    (("--pulka", "p1"), ["Ann", "Bob", "Cid"]),
    (("--pulka", "p1", "--pulka", "p2"), ["Ann", "Bob", "Cid", "Dan"]),
    (("--from", "2024-04-01"), ["Ann", "Bob", "Dan"]),        # p2 only (2024-04-10)
    (("--to", "2024-03-31"), ["Ann", "Bob", "Cid"]),          # p1 only (2024-03-01)
    (("--from", "2024-03-01", "--to", "2024-03-01"), ["Ann", "Bob", "Cid"]),  # inclusive bounds
])
def test_player_filters(store: Path, args: tuple[str, ...], players: list[str]) -> None:
    """Each filter keeps the players of the pulkas it selects (p1: Ann Bob Cid; p2: Ann Bob Dan)."""
    assert sorted(csv_of(store, "players", *args)["player"]) == players


def test_player_filter_changes_the_numbers(store: Path) -> None:
    """Ann in Leningrad only (p2): declared 1 (7♥ down) → made 0; in Sochi only (p1): declared 2, made 1."""
    ann = csv_of(store, "players", "--preset", "leningrad", "--player", "Ann").iloc[0]
    assert (ann["declared"], ann["declared_made"]) == (1, 0)
    ann = csv_of(store, "players", "--preset", "sochi", "--player", "Ann").iloc[0]
    assert (ann["declared"], ann["declared_made"]) == (2, 1)


def test_contracts_formats_and_filters(store: Path) -> None:
    """All pulkas: 6 declared contracts, 4 made; 7♥ twice, made 0. Declarer Ann: 3 declared
    (7♥ ×2, 6♠), made 1. The table shows the footer total 6 / 4 and folds the interval:
    7♥ 0/2 → Wilson [0, 0.6576] → "0.00 [0.00–0.66]"."""
    df = csv_of(store, "contracts")
    assert (int(df["n"].sum()), int(df["made"].sum())) == (6, 4)
    h7 = df.set_index("contract_label").loc["7h"]
    assert (h7["n"], h7["made"]) == (2, 0)
    ann = csv_of(store, "contracts", "--player", "Ann")
    assert (int(ann["n"].sum()), int(ann["made"].sum())) == (3, 1)
    assert "success_lo" in df.columns

    code, text = run(store, "contracts")
    assert code == 0, text
    assert "0.00 [0.00–0.66]" in text
    total = next(line for line in text.splitlines() if "total" in line)
    assert [c.strip() for c in total.split("│")[1:4]] == ["total", "6", "4"]
    assert "success_hi" not in text


def test_variants_table_and_json(store: Path) -> None:
    """One row per preset, one pulka each: Sochi 5 deals, Leningrad 3. No Croatian pulka, so the
    table leaves out the refe rate (always 0 here) while the json keeps it."""
    code, text = run(store, "variants", "--format", "json")
    assert code == 0, text
    rows = {r["preset"]: r for r in json.loads(text)["rows"]}
    assert (rows["sochi"]["deals"], rows["leningrad"]["deals"]) == (5, 3)
    assert "refe_rate" in rows["sochi"]
    code, text = run(store, "variants")
    assert code == 0, text
    assert "sochi" in text and "leningrad" in text and "refe" not in text
    code, text = run(store, "variants", "--preset", "sochi", "--format", "csv")
    assert list(pd.read_csv(io.StringIO(text))["preset"]) == ["sochi"]
