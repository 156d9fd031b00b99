"""The CLI end to end on a temporary store: import, ls, export, replay, audit, sheet, verify, compact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.model.cards import suit_of
from preflog.model.events import CardPlayed
from preflog.model.events import DealStarted
from preflog.record.api import read_text
from preflog.record.api import write_text
from preflog.workspace import Workspace

from ..randomplay import random_pulka

runner = CliRunner()
PLAYERS = ("Anna", "Boris", "Vera")


def run(*args: str, store: Path, input: str | None = None) -> tuple[int, str]:
    res = runner.invoke(app, [*args, "--store", str(store)], input=input)
    return res.exit_code, res.output


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    p = tmp_path / "friday.pref"
    p.write_text(write_text(random_pulka("sochi", PLAYERS, 4, seed=11)), encoding="utf-8")
    return p


def test_import_is_idempotent_and_listed(tmp_path: Path, game: Path) -> None:
    store = tmp_path / "st"
    code, out = run("import", str(game), store=store)
    assert code == 0 and "1 imported" in out
    code, out = run("import", str(game), store=store)
    assert code == 0 and "1 already stored" in out
    code, out = run("ls", store=store)
    assert code == 0 and "friday" in out


def test_bad_file_imports_nothing_and_names_line_and_column(tmp_path: Path, game: Path) -> None:
    """A misspelt card: the file is refused with file:line:column; the good file in the same run imports."""
    bad = tmp_path / "bad.pref"
    lines = game.read_text(encoding="utf-8").splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("1: "))
    lines[i] = "1: Xh" + lines[i][lines[i].index(" ", 3):]
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = tmp_path / "st"
    code, out = run("import", str(bad), str(game), store=store)
    assert code == 2
    assert f"bad.pref:{i + 1}:4" in out.replace("\n", "")
    assert "'Xh'" in out
    assert Workspace(store).ids() == ["friday"]


def test_export_reproduces_the_canonical_text(tmp_path: Path, game: Path) -> None:
    store = tmp_path / "st"
    run("import", str(game), store=store)
    code, out = run("export", "friday", store=store)
    assert code == 0
    # the same text, naming the id the pulka is stored under (the file's name: it had no [Id])
    assert '[Id "friday"]\n' in out
    assert out.replace('[Id "friday"]\n', "") == game.read_text(encoding="utf-8")
    code, out = run("export", "friday", "--format", "json", store=store)
    assert code == 0 and json.loads(out)


def _illegal_copy(game: Path, tmp_path: Path) -> tuple[Path, int]:
    """Swap the second card of the first trick for another card of the same player that does not
    follow suit although he holds the suit led: an illegal play ("must_follow_suit"). Returns the copy and
    the seq of the illegal card (the store's numbering: position + 1)."""
    events = read_text(game.read_text(encoding="utf-8"))
    deal = next(e for e in events if isinstance(e, DealStarted))
    cards = [(k, e) for k, e in enumerate(events) if isinstance(e, CardPlayed)]
    # the lead and second card of each trick (3 cards a trick at this 3-player table, no raspasy)
    for (_, lead), (k2, second) in ((cards[i], cards[i + 1]) for i in range(0, 27, 3)):
        hand = deal.hands[second.player]
        led = suit_of(lead.card)
        if suit_of(second.card) != led:
            continue
        other = next((c for c in range(32) if hand >> c & 1 and suit_of(c) != led), None)
        if other is None:
            continue
        # swap the two cards of that player so the replay stays card-consistent
        k3 = next(k for k, e in cards if e.player == second.player and e.card == other)
        events[k2], events[k3] = CardPlayed(second.player, other), CardPlayed(second.player, second.card)
        out = tmp_path / "illegal.pref"
        out.write_text(write_text(events), encoding="utf-8")
        return out, k2 + 1
    raise AssertionError("no trick to corrupt")


def test_audit_reports_follow_suit_with_exit_1(tmp_path: Path, game: Path) -> None:
    bad, seq = _illegal_copy(game, tmp_path)
    code, out = run("audit", str(bad), "--json", store=tmp_path / "st")
    assert code == 1
    doc = json.loads(out)
    f = doc["pulkas"][0]["findings"][0]
    assert f["code"] == "must_follow_suit" and f["deal"] == 1 and f["seq"] == seq
    code, _ = run("audit", str(game), store=tmp_path / "st")
    assert code == 0


def test_strict_audit_stops_at_first(tmp_path: Path, game: Path) -> None:
    bad, _ = _illegal_copy(game, tmp_path)
    code, out = run("audit", str(bad), "--strict", store=tmp_path / "st")
    assert code == 1 and "must_follow_suit" in out


def test_sheet_json_contract_and_drawings(tmp_path: Path, game: Path) -> None:
    svg, html = tmp_path / "s.svg", tmp_path / "s.html"
    res = runner.invoke(app, ["sheet", str(game), "--json", "--svg", str(svg), "--html", str(html),
                              "--store", str(tmp_path / "st")])
    assert res.exit_code == 0
    pk = json.loads(res.stdout)["pulkas"][0]
    assert pk["players"] == list(PLAYERS)
    assert set(pk["totals"]) == {"pulya", "gora", "visty"}
    assert set(pk["settlement"]) >= {"exact", "method1", "method2"}
    assert sum(pk["settlement"]["method1"].values()) == 0
    assert len(pk["deals"]) == 4
    assert svg.read_text().startswith("<svg") and "<svg" in html.read_text()


def test_replay_shows_the_table_mid_deal(tmp_path: Path, game: Path) -> None:
    code, out = run("replay", str(game), "--deal", "1", "--trick", "3", store=tmp_path / "st")
    assert code == 0
    assert "deal 1" in out and "tricks completed: 3" in out and "Anna" in out


def test_verify_and_compact(tmp_path: Path, game: Path) -> None:
    store = tmp_path / "st"
    run("import", str(game), store=store)
    assert run("verify", store=store) == (0, "store verifies clean\n")
    code, _ = run("compact", store=store)
    assert code == 0
    assert run("verify", store=store)[0] == 0


def test_stdin_and_env_store(tmp_path: Path, game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PREFLOG_STORE", str(tmp_path / "envstore"))
    res = runner.invoke(app, ["import", "-"], input=game.read_text(encoding="utf-8"))
    assert res.exit_code == 0 and "1 imported" in res.output
    assert (tmp_path / "envstore" / "events").is_dir()


def test_unknown_pulka_is_a_one_line_error(tmp_path: Path, game: Path) -> None:
    store = tmp_path / "st"
    run("import", str(game), store=store)
    code, out = run("sheet", "nope", store=store)
    assert code == 2 and "no pulka 'nope'" in out and "Traceback" not in out


def test_empty_file_is_refused_with_its_name(tmp_path: Path, game: Path) -> None:
    empty = tmp_path / "empty.pref"
    empty.write_text("; nothing but a comment\n", encoding="utf-8")
    code, out = run("import", str(empty), str(game), "--workers", "1", store=tmp_path / "st")
    assert code == 2 and "empty.pref: holds no pulka" in out.replace("\n", "")
    assert Workspace(tmp_path / "st").ids() == ["friday"]
