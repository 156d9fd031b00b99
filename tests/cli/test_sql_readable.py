"""``preflog sql``: NULLs print as empty cells in every format, the schema lists the documented views
only, and ``events_readable`` shows the events with names and words instead of codes.

The store holds three record files of data/:

* ``demo/croatian-3p.pref`` — its first pulka ``demo-croatian-3p-001`` (Boris, Gleb, Egor = A, B, C),
  deal 1 as the record writes it::

      Deal 1: dealer C
      A: As Qs 9s Ad Jd 10d 8d 7d 10h 9h
      B: Js 10s 8s Jc 10c 9c 7c Kh 8h 7h
      C: Ks Ac Kc Qc Kd Qd 9d Ah Qh Jh
      Talon: 7s 8c
      Auction: A 2, B pass, C 3, A hold, C 4, A pass
      Discard: C Ks 7s
      Contract: C 5
      Whist: A whist, B pass
      1: Ad 9d

* ``examples/seed003-settlement.pref`` — paper level (no cards): deal 2 is
  ``Contract: Запад 6s`` / ``Whist: Восток whist, Юг pass`` / ``Tricks: Запад 3, Восток 5, Юг 2``;
* ``examples/seed003-ten-check-miser-remiz.pref`` — its pulka ``seed003-miser-three-tricks``:
  ``Auction: A miser, B pass, C pass`` / ``Contract: A miser``.

Events of a paper-level deal have no hash (``events.hash`` is NULL): the NULLs of an integer column.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from preflog.cli import app as cli
from preflog.workspace import Workspace

DATA = Path(__file__).resolve().parents[2] / "data"
DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
runner = CliRunner()
VIEWS = ["deals", "events", "events_readable", "player_deals", "pulka_results"]


pytestmark = pytest.mark.usefixtures("narrow")  # an 80-column terminal (tests/cli/conftest.py)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sql-readable") / "st"
    items = Workspace(root).import_paths([DATA / "demo" / "croatian-3p.pref",
                                          DATA / "examples" / "seed003-settlement.pref",
                                          DATA / "examples" / "seed003-ten-check-miser-remiz.pref"], workers=1)
    assert {i.status for i in items} == {"imported"}
    return root


def sql(store: Path, query: str, *extra: str) -> tuple[int, str]:
    res = runner.invoke(cli.app, ["sql", query, "--store", str(store), *extra])
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res.exit_code, res.output


NULLS = ("SELECT seq, hash, deal FROM events WHERE pulka = 'seed003-settlement' AND seq <= 2 "
         "UNION ALL SELECT 99, 7, CAST(NULL AS INTEGER) ORDER BY seq")


def test_the_docs_first_query_prints_a_table(store: Path) -> None:
    """``SELECT * FROM events LIMIT 5`` (its integer column ``hash`` holds NULLs) prints a table that fits
    80 columns, not a traceback."""
    code, text = sql(store, "SELECT * FROM events WHERE hash IS NULL LIMIT 5")
    assert code == 0, text
    assert "Traceback" not in text and "NAType" not in text
    assert "pulka" in text and all(len(line) <= 80 for line in text.splitlines())


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown"])
def test_nulls_are_empty_cells_in_every_format(store: Path, fmt: str) -> None:
    """Rows (seq, hash, deal): (1, NULL, 0), (2, NULL, 1), (99, 7, NULL) — a NULL in two integer columns."""
    code, text = sql(store, NULLS, "--format", fmt)
    assert code == 0, text
    if fmt == "csv":
        assert text.splitlines() == ["seq,hash,deal", "1,,0", "2,,1", "99,7,"]
    elif fmt == "json":
        assert json.loads(text) == [{"seq": 1, "hash": None, "deal": 0}, {"seq": 2, "hash": None, "deal": 1},
                                    {"seq": 99, "hash": 7, "deal": None}]
    elif fmt == "markdown":
        rows = [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()[2:]]
        assert rows == [["1", "", "0"], ["2", "", "1"], ["99", "7", ""]]
    else:
        rows = [[c.strip() for c in line.strip("│").split("│")] for line in text.splitlines() if line.startswith("│")]
        assert rows == [["1", "", "0"], ["2", "", "1"], ["99", "7", ""]]


@pytest.mark.parametrize("extra", [(), ("--allow-files",)])
def test_the_schema_lists_the_documented_views_only(store: Path, extra: tuple[str, ...]) -> None:
    """SHOW TABLES and information_schema name the five views, no helper of ours (``_files_deals``,
    ``_empty_…``); docs/cli.md's table of them names the same five."""
    code, text = sql(store, "SHOW TABLES", "--format", "csv", *extra)
    assert code == 0, text
    assert text.splitlines() == ["name", *VIEWS]
    code, text = sql(store, "SELECT table_name FROM information_schema.tables ORDER BY 1", "--format", "csv", *extra)
    assert text.splitlines() == ["table_name", *VIEWS]
    section = re.search(r"^## The views of `sql`\n(.*?)^## ", DOC.read_text(encoding="utf-8"), re.M | re.S)
    assert section is not None
    documented = re.findall(r"^\| `(\w+)` \|", section.group(1), re.M)
    assert sorted(documented) == VIEWS


def readable(store: Path, where: str) -> pd.DataFrame:
    code, text = sql(store, f"SELECT * FROM events_readable WHERE {where} ORDER BY pulka, seq", "--format", "csv")
    assert code == 0, text
    return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)


def test_events_readable_says_what_the_record_says(store: Path) -> None:
    """Deal 1 of demo-croatian-3p-001, row for row as the record writes it (module docstring): names for
    seats, the Croatian bid words, Unicode cards; the hold of A is the bid he holds (3)."""
    df = readable(store, "pulka = 'demo-croatian-3p-001' AND seq <= 13")
    assert list(df.columns) == ["pulka", "seq", "deal", "event", "player", "text"]
    rows = [tuple(r) for r in df[["seq", "deal", "event", "player", "text"]].itertuples(index=False)]
    assert rows == [
        ("1", "0", "pulka_started", "", "Boris, Gleb, Egor · croatian · pool 20"),
        ("2", "1", "deal_started", "Egor", "Boris: A♠ Q♠ 9♠ A♦ J♦ 10♦ 8♦ 7♦ 10♥ 9♥; "
                                           "Gleb: J♠ 10♠ 8♠ J♣ 10♣ 9♣ 7♣ K♥ 8♥ 7♥; "
                                           "Egor: K♠ A♣ K♣ Q♣ K♦ Q♦ 9♦ A♥ Q♥ J♥; talon: 7♠ 8♣"),
        ("3", "1", "bid", "Boris", "2"),
        ("4", "1", "bid", "Gleb", "pass"),
        ("5", "1", "bid", "Egor", "3"),
        ("6", "1", "bid", "Boris", "3"),
        ("7", "1", "bid", "Egor", "4"),
        ("8", "1", "bid", "Boris", "pass"),
        ("9", "1", "discard", "Egor", "K♠ 7♠"),
        ("10", "1", "contract", "Egor", "5"),
        ("11", "1", "whist", "Boris", "whist"),
        ("12", "1", "whist", "Gleb", "pass"),
        ("13", "1", "card", "Boris", "A♦"),
    ]


def test_events_readable_of_a_paper_level_pulka_and_a_miser(store: Path) -> None:
    """seed003-settlement deal 2 (module docstring): no cards, so the deal row has no text; the tricks
    named per player. The miser reads ``miser`` as the record writes it."""
    df = readable(store, "pulka = 'seed003-settlement' AND deal IN (0, 2)")
    rows = [tuple(r) for r in df[["event", "player", "text"]].itertuples(index=False)]
    assert rows == [("pulka_started", "", "Запад, Восток, Юг · sochi · pool 14"),
                    ("deal_started", "Запад", ""),
                    ("contract", "Запад", "6s"),
                    ("whist", "Восток", "whist"), ("whist", "Юг", "pass"),
                    ("paper_result", "", "Запад 3, Восток 5, Юг 2")]
    code, text = sql(store, "SELECT event, player, text FROM events_readable WHERE pulka = "
                            "'seed003-miser-three-tricks' AND event IN ('bid', 'contract') ORDER BY seq",
                     "--format", "csv")
    assert (code, text.splitlines()[1:]) == (0, ["bid,A,miser", "bid,B,pass", "bid,C,pass", "contract,A,miser"])


def test_events_readable_has_a_row_for_every_event_and_no_code_left(store: Path) -> None:
    """One row per event; every bid, contract, card, talon/discard and whist row has its text, and no
    card or bid text is a bare number outside the Croatian numbers 2–7."""
    code, text = sql(store, "SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM events_readable) "
                            "AS readable, (SELECT count(*) FROM events_readable WHERE event IN ('bid', 'contract', "
                            "'card', 'discard', 'whist') AND text IS NULL) AS missing", "--format", "csv")
    events, rows, missing = map(int, text.splitlines()[1].split(","))
    assert (code, rows, missing) == (0, events, 0)
    df = readable(store, "event IN ('card', 'bid', 'contract')")
    numbers = df[df["text"].str.fullmatch(r"\d+")]
    assert set(numbers["text"]) <= {"2", "3", "4", "5", "6", "7"}
    assert set(numbers["pulka"].str.startswith("demo-croatian")) == {True}


def test_events_readable_folds_its_text_at_80_columns(store: Path) -> None:
    """The terminal table keeps the text column, folded onto further lines, rather than leaving it out."""
    code, text = sql(store, "SELECT * FROM events_readable WHERE pulka = 'demo-croatian-3p-001' AND seq <= 3")
    assert code == 0, text
    assert "left out" not in text and all(len(line) <= 80 for line in text.splitlines())
    assert "Boris: A♠" in text and "talon:" in text


def test_help_shows_the_views_and_examples() -> None:
    res = runner.invoke(cli.app, ["sql", "--help"], terminal_width=80)
    assert res.exit_code == 0
    text = " ".join(res.output.split())
    assert "events_readable" in text and "SELECT * FROM events_readable" in text
    assert "Examples" in text
