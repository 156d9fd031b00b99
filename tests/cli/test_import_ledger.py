"""The import ledger (issue 40): every import reports, and keeps in the store (``<store>/ledger``), how many
deals replayed clean, how many were stored with findings (by finding code, counted in deals) and how many
files were refused; ``preflog ledger`` reads it back, ``--json`` for scripts; an import that fails after a
commit still leaves its row (``complete`` false), a run into no store leaves none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.errors import FileError
from preflog.importer import session
from preflog.importer.prepare import tally_findings
from preflog.store.ledger import LedgerEntry
from preflog.store.ledger import totals
from preflog.workspace import Workspace

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
runner = CliRunner()


def _corpus(root: Path) -> Path:
    """Three files:

    * ``settlement.pref``: seed003-settlement, 12 deals, clean;
    * ``series.pref``: seed003-raspasy-series (4 deals) with two Score lines miswritten — deal 2's
      A gora 10 written 11, deal 4's B gora 25 written 26: ``score_mismatch`` on deals 2 and 4, deals
      1 and 3 clean;
    * ``illegal.pref``: seed001-bidding-illegal, six one-deal pulkas each with one illegal auction:
      jump_bid, miser_not_first_call, bid_not_above_last (an eight over miser), hold_not_allowed,
      miser_not_bid, miser_not_beaten (a nine over miser under miser-by-10): tests/cli/test_seed_examples.py;
    * ``broken.pref``: a deal line the reader cannot read: refused, nothing of it stored.

    So: 12 + 2 = 14 deals clean, 2 + 6 = 8 with findings (score_mismatch 2, the other six 1 each), 1 file
    refused."""
    folder = root / "corpus"
    folder.mkdir()
    (folder / "settlement.pref").write_text((EXAMPLES / "seed003-settlement.pref").read_text("utf-8"), "utf-8")
    series = (EXAMPLES / "seed003-raspasy-series.pref").read_text("utf-8")
    assert series.count("Score: A pulya 0 gora 10\n") == 1 and series.count("Score: B pulya 0 gora 25 ") == 1
    series = series.replace("Score: A pulya 0 gora 10\n", "Score: A pulya 0 gora 11\n")
    series = series.replace("Score: B pulya 0 gora 25 ", "Score: B pulya 0 gora 26 ")
    (folder / "series.pref").write_text(series, "utf-8")
    (folder / "illegal.pref").write_text((EXAMPLES / "seed001-bidding-illegal.pref").read_text("utf-8"), "utf-8")
    (folder / "broken.pref").write_text('[Players "A, B, C"]\nDeal one: dealer C\n', "utf-8")
    return folder


EXPECTED_FINDINGS = {"score_mismatch": 2, "jump_bid": 1, "miser_not_first_call": 1, "bid_not_above_last": 1,
                     "hold_not_allowed": 1, "miser_not_bid": 1, "miser_not_beaten": 1}


def test_import_reports_the_ledger_and_keeps_it(tmp_path: Path) -> None:
    folder = _corpus(tmp_path)
    store = tmp_path / "store"
    r = runner.invoke(app, ["import", "--store", str(store), str(folder)])
    assert r.exit_code == 2  # the broken file's error line
    line = next(s for s in r.stdout.splitlines() if s.startswith("ledger:"))
    assert line.startswith("ledger: 14 deals clean, 8 with findings: score_mismatch 2, bid_not_above_last 1, "
                           "hold_not_allowed 1,"), line  # (the most deals first, then by name; folded)
    assert "1 file refused" in r.stdout

    entries = Workspace(store).ledger()
    assert len(entries) == 1
    e = entries[0]
    assert (e.files, e.pulkas_imported, e.pulkas_duplicate, e.files_refused) == (4, 8, 0, 1)
    assert (e.deals_clean, e.deals_with_findings, e.deals_unaudited, e.deals_duplicate) == (14, 8, 0, 0)
    assert dict(e.findings) == EXPECTED_FINDINGS
    assert e.complete and e.events_version == 1 and e.sources == [str(folder)]
    assert [s for s, _err in e.refused] == [str(folder / "broken.pref")]

    # the same files again: every pulka already stored, the refused file refused again
    r = runner.invoke(app, ["import", "--json", "--store", str(store), str(folder)])
    got = json.loads(r.stdout)["ledger"]
    assert (got["pulkas_imported"], got["pulkas_duplicate"], got["deals_clean"], got["deals_duplicate"],
            got["files_refused"]) == (0, 8, 0, 22, 1)
    assert got["headline"] == "0 deals clean, 0 with findings; 22 already stored; 1 file refused"

    r = runner.invoke(app, ["ledger", "--json", "--store", str(store)])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["kind"] == "ledger" and len(doc["imports"]) == 2
    assert doc["total"]["deals_clean"] == 14 and doc["total"]["findings"] == EXPECTED_FINDINGS
    assert doc["total"]["files_refused"] == 2
    r = runner.invoke(app, ["ledger", "--store", str(store)])
    assert r.exit_code == 0 and "2 imports: 14 deals clean, 8 with findings" in r.stdout.replace("\n", " ")

    # a backup carries the ledger (it is not derived from the events: it could not be rebuilt)
    r = runner.invoke(app, ["backup", str(tmp_path / "copy"), "--store", str(store)])
    assert r.exit_code == 0, r.output
    assert Workspace(tmp_path / "copy").ledger() == Workspace(store).ledger()


def test_a_run_of_bad_files_into_no_store_leaves_no_ledger(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pref"
    bad.write_text("nonsense\n", "utf-8")
    store = tmp_path / "store"
    r = runner.invoke(app, ["import", "--store", str(store), str(bad)])
    assert r.exit_code == 2 and "ledger:" not in r.stdout
    assert not (store / "ledger").exists()
    r = runner.invoke(app, ["ledger", "--store", str(store)])
    assert r.exit_code == 2 and "no preflog store" in r.output


def test_an_import_that_fails_after_a_commit_keeps_what_it_stored(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """One commit per file (IMPORT_CHUNK 1); the second commit fails: the first file's 12 deals are stored
    and the ledger says so, marked incomplete; the failure itself reaches the caller."""
    folder = tmp_path / "two"
    folder.mkdir()
    (folder / "a.pref").write_text((EXAMPLES / "seed003-settlement.pref").read_text("utf-8"), "utf-8")
    (folder / "b.pref").write_text((EXAMPLES / "seed003-raspasy-series.pref").read_text("utf-8"), "utf-8")
    monkeypatch.setattr(session, "IMPORT_CHUNK", 1)
    commit = session.ImportSession._commit
    calls: list[int] = []

    def failing(self: session.ImportSession, last: bool) -> None:
        calls.append(1)
        if self.stored and self.pending:
            raise OSError("disk full")
        commit(self, last)

    monkeypatch.setattr(session.ImportSession, "_commit", failing)
    ws = Workspace(tmp_path / "store")
    with pytest.raises(FileError, match="disk full"):
        ws.import_each([folder], workers=1)
    (entry,) = ws.ledger()
    assert not entry.complete and entry.pulkas_imported == 1 and entry.deals_clean == 12
    assert entry.headline() == "12 deals clean, 0 with findings (import interrupted: what it committed)"


def test_tally_counts_deals_not_findings() -> None:
    """Two findings on one deal count it once under each code and once among the deals with findings; a
    finding on no deal (deal 0: the rules, the table) touches every deal of its pulka."""
    assert tally_findings([("must_follow_suit", 3), ("must_follow_suit", 3), ("score_mismatch", 3)], 5) == (
        1, (("must_follow_suit", 1), ("score_mismatch", 1)))
    assert tally_findings([("bad_table_size", 0), ("score_mismatch", 2)], 3) == (
        3, (("bad_table_size", 3), ("score_mismatch", 1)))
    assert tally_findings([], 4) == (0, ())


def test_totals_and_headline_in_thousands() -> None:
    from datetime import UTC
    from datetime import datetime

    at = datetime(2026, 1, 2, tzinfo=UTC)
    a = LedgerEntry("a", at, deals_clean=1200, deals_with_findings=2, findings={"must_follow_suit": 2})
    b = LedgerEntry("b", at, deals_clean=4, deals_with_findings=1, findings={"score_mismatch": 1})
    t = totals([a, b])
    assert t.headline() == "1,204 deals clean, 3 with findings: must_follow_suit 2, score_mismatch 1"
