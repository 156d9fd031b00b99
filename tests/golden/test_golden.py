"""The golden corpus: hand-written card-level deals whose Score lines were computed by hand.

Every deal of ``tests/golden/*.pref`` records the hands and the play (or a claim / ten check) and
after it one ``Score:`` line per player with the running totals worked out in the ``;`` comment
above the deal. ``preflog audit FILE --json`` must find nothing: a finding would mean the engine
rejected the play or a hand-computed total differs from the replayed sheet.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.model.events import DealStarted
from preflog.model.events import ScoreRecorded
from preflog.record.api import read_file

GOLDEN = Path(__file__).resolve().parent
FILES = sorted(GOLDEN.glob("*.pref"))
runner = CliRunner()


def cli_json(*args: str) -> tuple[int, dict[str, Any]]:
    res = runner.invoke(app, list(args))
    return res.exit_code, json.loads(res.stdout)


def sheet(path: Path) -> dict[str, Any]:
    code, out = cli_json("sheet", str(path), "--json")
    assert code == 0
    (pulka,) = out["pulkas"]
    return pulka


def test_corpus_has_twenty_card_level_deals_each_with_score_lines() -> None:
    """At least 20 deals, every one with hands recorded and a Score line for every seat after it."""
    deals = 0
    for path in FILES:
        events = read_file(path)
        n = len(events[0].players)
        starts = [i for i, e in enumerate(events) if isinstance(e, DealStarted)] + [len(events)]
        for a, b in zip(starts, starts[1:], strict=False):
            assert events[a].hands is not None, f"{path.name}: deal at event {a} is not card level"
            seats = {e.player for e in events[a:b] if isinstance(e, ScoreRecorded)}
            assert seats == set(range(n)), f"{path.name}: deal at event {a} lacks score lines"
            deals += 1
    assert deals >= 20


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_audit_finds_nothing(path: Path) -> None:
    """Every played card is legal and every hand-computed Score line equals the replayed sheet."""
    code, out = cli_json("audit", str(path), "--json")
    (pulka,) = out["pulkas"]
    assert pulka["findings"] == []
    assert code == 0


def test_corpus_covers_every_contract_type_and_whist_situation() -> None:
    """Levels 6–10 in suits and no-trump, made and down, miser both ways, raspasy at 3 and 4,
    no-play deals (both pass, half-whist), a returned half-whist, a ten check, a claim."""
    seen: set[str] = set()
    for path in FILES:
        s = sheet(path)
        n = len(s["players"])
        text = path.read_text(encoding="utf-8")
        for d in s["deals"]:
            kind, c = d["kind"], d["contract"]
            if kind in ("game", "not_whisted", "half_whist") and c:
                level = int(c[:-2] if c.endswith("NT") else c[:-1])
                seen.add(f"level{level}")
                seen.add("nt" if c.endswith("NT") else "suit")
                if kind == "game":
                    seen.add("made" if d["tricks"][d["declarer"]] >= level else "down")
            if kind == "miser":
                seen.add("miser made" if d["tricks"][d["declarer"]] == 0 else "miser failed")
            seen.add(f"{kind}/{n}p")
        for word in ("Claim:", "Check:", " open", " closed", " half", "rules \"leningrad\"", "rules \"rostov\""):
            if word.lower() in text.lower():
                seen.add(word.strip())
    want = {"level6", "level7", "level8", "level9", "level10", "nt", "suit", "made", "down",
            "miser made", "miser failed", "raspasy/3p", "raspasy/4p", "not_whisted/3p", "half_whist/3p",
            "game/4p", "Claim:", "Check:", "open", "closed", "half", 'rules "leningrad"', 'rules "rostov"'}
    assert want <= seen, want - seen


def test_sochi_final_sheet_and_settlement() -> None:
    """Final totals of tests/golden/sochi.pref (from its last Score lines) and the exact settlement.

    Pulya A 8, B 10, C 17; gora A 32, B 18, C 16; visty A→B 40, A→C 28, B→A 56, B→C 20, C→A 8, C→B 16.
    Net visty: A 68 − 64 = 4, B 76 − 56 = 20, C 24 − 48 = −24. Pulyas are unequal, so each point short
    of the top pulya (17) counts as a gora point (10 visty each): effective gora A 41, B 25, C 16,
    mean 82/3. Exact = net + 10 × (mean − gora): A 4 − 410/3 = −398/3, B 20 + 70/3 = 130/3,
    C −24 + 340/3 = 268/3 (sum 0).
    """
    s = sheet(GOLDEN / "sochi.pref")
    t = s["totals"]
    assert t["pulya"] == {"Anna": 8, "Boris": 10, "Vera": 17}
    assert t["gora"] == {"Anna": 32, "Boris": 18, "Vera": 16}
    assert t["visty"]["Boris"] == {"Anna": 56, "Vera": 20}
    assert s["settlement"]["exact"] == {"Anna": "-398/3", "Boris": "130/3", "Vera": "268/3"}
    assert sum(s["settlement"]["method1"].values()) == 0


def test_four_players_dealer_writes_consolation_and_takes_talon_tricks() -> None:
    """Deal 1: the sitting-out dealer Gleb writes the consolation 2 × 1 = 2 on Anna (6♠ down one).
    Deal 2: raspasy with Anna dealing: her talon aces win both talon tricks → her gora 2 + 2 = 4.
    Exact: net A −16, B +12, C 2 − 8 = −6, D 2 + 8 = +10; effective gora (top pulya 11) A 4 + 11 = 15,
    B 15, C 4 + 7 = 11, D 0; mean 41/4 → A −16 − 190/4 = −127/2, D 10 + 410/4 = 225/2.
    """
    s = sheet(GOLDEN / "four-players.pref")
    d1, d2 = s["deals"][0], s["deals"][1]
    assert d1["visty"]["Gleb"]["Anna"] == 2
    assert d2["kind"] == "raspasy" and d2["tricks"]["Anna"] == 2 and d2["gora"]["Anna"] == 4
    assert s["settlement"]["exact"]["Anna"] == "-127/2"
    assert s["settlement"]["exact"]["Gleb"] == "225/2"


def test_leningrad_gentleman_split_and_rostov_tie() -> None:
    """Leningrad deal 1: 24 + 4 visty split 14 / 14. Rostov deal 3: A and C tie with no trick and
    write 5 × 10 / 2 = 25 each on B (A's running total 8 + 25 = 33)."""
    len_ = sheet(GOLDEN / "leningrad.pref")["deals"][0]
    assert len_["visty"]["Boris"]["Anna"] == len_["visty"]["Vera"]["Anna"] == 14
    ros = sheet(GOLDEN / "rostov.pref")["deals"][2]
    assert ros["visty"]["Anna"]["Boris"] == 33
    assert ros["visty"]["Vera"]["Boris"] == 70
    assert Fraction(ros["pulya"]["Anna"]) == 1


def test_a_wrong_score_line_is_reported(tmp_path: Path) -> None:
    """Sanity of the whole approach: one visty figure changed by 1 gives exactly one score_mismatch."""
    text = (GOLDEN / "sochi.pref").read_text(encoding="utf-8")
    line = "Score: C pulya 17 gora 16 visty A=8 B=16"
    assert line in text
    bad = tmp_path / "bad.pref"
    bad.write_text(text.replace(line, "Score: C pulya 17 gora 16 visty A=8 B=17"), encoding="utf-8")
    code, out = cli_json("audit", str(bad), "--json")
    assert code == 1
    assert [(f["code"], f["deal"]) for f in out["pulkas"][0]["findings"]] == [("score_mismatch", 14)]
