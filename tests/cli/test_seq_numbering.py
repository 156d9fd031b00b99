"""One event numbering across ``audit``, ``preflog sql``, ``ls`` and the store (issue 11): ``seq`` is the
store's, 1 for ``PulkaStarted``. Findings once counted from 0 (the log's list index), so ``WHERE seq = …``
with a finding's seq selected the event before it.

The record: Anna declares 6♠, Boris whists; in trick 2 Boris plays Q♣ on K♠ although he holds 8♠
(``must_follow_suit``). Its events: PulkaStarted, DealStarted, 3 calls, the discard, the contract, 2 whist
calls (9 so far), trick 1's three cards (10-12), K♠ (13), then Boris's Q♣: seq 14; 9♣ ends the log at 15.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.model.cards import parse_card
from preflog.model.events import CardPlayed
from preflog.workspace import Workspace

GAME = ('[Players "Anna, Boris, Vera"]\nDeal 1: dealer C\n'
        "A: As Ks Qs Js 10s Ac Kc Ad Kd 7h\nB: 9s 8s Qc Jc 10c Qd Jd 10d Ah Kh\n"
        "C: 7s 9c 8c 7c 9d 8d 7d Qh Jh 10h\nTalon: 9h 8h\nAuction: A 6s, B pass, C pass\n"
        "Discard: A 9h 8h\nContract: A 6s\nWhist: B whist, C pass\n1: As 9s 7s\n2: Ks Qc 9c\n")


def _run(*args: str) -> str:
    res = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert res.exit_code in (0, 1), res.output
    return res.stdout


def test_a_findings_seq_selects_its_event_in_sql_ls_and_the_store(tmp_path: Path) -> None:
    record = tmp_path / "game.pref"
    record.write_text(GAME, encoding="utf-8")
    store = str(tmp_path / "st")
    _run("import", str(record), "--store", store)

    [finding] = json.loads(_run("audit", "game", "--json", "--store", store))["pulkas"][0]["findings"]
    seq = finding["seq"]
    assert (finding["code"], seq) == ("must_follow_suit", 14)
    # the text output, of the stored pulka and of the file, names the same number
    assert re.search(r"deal 1, event (\d+): must_follow_suit", _run("audit", "game", "--store", store))[1] == "14"
    assert f"{record}:12: deal 1, event 14: must_follow_suit" in _run("audit", str(record), "--store", store)

    # preflog sql: WHERE seq = <the finding's seq> is Boris's Q♣
    rows = json.loads(_run("sql", f"SELECT seq, player, card FROM events WHERE pulka = 'game' AND seq = {seq}",
                           "--format", "json", "--store", store))
    assert rows == [{"seq": 14, "player": 1, "card": parse_card("Qc")}]
    # the store read: event seq is at list position seq - 1
    events = Workspace(tmp_path / "st").store().read("game")
    assert events[seq - 1] == CardPlayed(1, parse_card("Qc"))
    # ls: the event count is the last seq (the 9♣ that ends the log)
    [listed] = json.loads(_run("ls", "--json", "--store", store))["pulkas"]
    assert listed["events"] == listed["last_seq"] == len(events) == 15
    last = json.loads(_run("sql", "SELECT max(seq) AS m, min(seq) AS f FROM events", "--format", "json",
                           "--store", store))
    assert last == [{"m": 15, "f": 1}]
