"""The seed examples of data/examples/ (seed 001 and 003) asserted through the CLI.

Each record file is read by ``preflog sheet FILE --json`` / ``preflog audit FILE --json`` (typer's
CliRunner on :data:`preflog.cli.app.app`; one real subprocess checks the installed script). The
expected numbers are the seed's own, quoted in each test's docstring.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
runner = CliRunner()


def run(*args: str) -> tuple[int, dict[str, Any]]:
    res = runner.invoke(app, list(args))
    return res.exit_code, json.loads(res.stdout)


def sheets(name: str) -> dict[str, dict[str, Any]]:
    code, out = run("sheet", str(EXAMPLES / name), "--json")
    assert code == 0
    return {p["id"]: p for p in out["pulkas"]}


def audits(name: str) -> tuple[int, dict[str, list[tuple[str, int]]]]:
    code, out = run("audit", str(EXAMPLES / name), "--json")
    return code, {p["id"]: [(f["code"], f["deal"]) for f in p["findings"]] for p in out["pulkas"]}


LEGAL = ["seed003-consolation.pref", "seed003-whister-shortfall.pref", "seed003-ten-check-miser-remiz.pref",
         "seed003-raspasy-series.pref", "seed003-raspasy-variant.pref", "seed003-settlement.pref",
         "seed003-american-help.pref", "seed001-bidding.pref", "seed001-leningrad-four.pref",
         "seed001-rostov-raspasy.pref"]


@pytest.mark.parametrize("name", LEGAL)
def test_legal_examples_audit_clean(name: str) -> None:
    """Every written Score line equals the replayed sheet and every auction is legal: exit 0."""
    code, found = audits(name)
    assert all(f == [] for f in found.values()), found
    assert code == 0


def test_every_example_file_is_covered() -> None:
    names = {p.name for p in EXAMPLES.glob("seed00[13]-*.pref")}
    assert names == set(LEGAL) | {"seed001-bidding-illegal.pref"}


# --- seed 003 ----------------------------------------------------------------------------------
def test_visty_and_consolation() -> None:
    """Seed 003: 6-level 3 and 1 → 6 and 2; 7-level 2 and 0 → 8 and 0; open play, both hands 4 → 8
    and the passer nothing; consolation: (4, 1) at a six down one → 10 and 4; a seven, whister 5,
    passer → 28 and 8; the returner after half-whist, 4 tricks → 24 (the half-whister nothing)."""
    s = sheets("seed003-consolation.pref")

    def on_a(pid: str) -> tuple[int, int]:
        v = s[pid]["totals"]["visty"]
        return v["B"]["A"], v["C"]["A"]

    assert on_a("seed003-visty-6-three-and-one") == (6, 2)
    assert on_a("seed003-visty-7-two-and-none") == (8, 0)
    assert on_a("seed003-visty-6-open-both-hands") == (8, 0)
    assert on_a("seed003-consolation-1") == (10, 4)
    assert on_a("seed003-consolation-2") == (28, 8)
    assert on_a("seed003-consolation-3") == (24, 0)


def test_whister_shortfall() -> None:
    """Seed 003: lone whister at a seven with 1 trick → 4 gora + 4 visty; a six, 3 and 0 → the 0-taker
    2 gora; a six, 1 and 0 → 2 gora + 2 visty and 4 gora; an eight, 0 and 0 → the second whister 6."""
    s = sheets("seed003-whister-shortfall.pref")
    t = {pid: p["totals"] for pid, p in s.items()}
    assert (t["seed003-shortfall-1"]["gora"]["B"], t["seed003-shortfall-1"]["visty"]["B"]["A"]) == (4, 4)
    assert t["seed003-shortfall-2"]["gora"] == {"A": 0, "B": 0, "C": 2}
    assert t["seed003-shortfall-3"]["gora"] == {"A": 0, "B": 2, "C": 4}
    assert t["seed003-shortfall-3"]["visty"]["B"]["A"] == 2
    assert t["seed003-shortfall-4"]["gora"] == {"A": 0, "B": 0, "C": 6}


def test_ten_check_miser_and_remiz() -> None:
    """Seed 003: a ten checked, one trick lost to B → B 20 visty, C 10, A gora 10; miser with 3 tricks →
    30 gora and no visty; a seven with 5 tricks → 4 × 2 = 8 gora."""
    s = sheets("seed003-ten-check-miser-remiz.pref")
    ten = s["seed003-ten-check"]["totals"]
    assert (ten["visty"]["B"]["A"], ten["visty"]["C"]["A"], ten["gora"]["A"]) == (20, 10, 10)
    miser = s["seed003-miser-three-tricks"]["totals"]
    assert miser["gora"]["A"] == 30
    assert all(v == 0 for row in miser["visty"].values() for v in row.values())
    assert s["seed003-seven-down-two"]["totals"]["gora"]["A"] == 8


def _prices(sheet: dict[str, Any]) -> list[int]:
    """Raspasy price of each raspasy deal = gora written ÷ tricks, for a player who took tricks."""
    out, prev = [], {p: 0 for p in sheet["players"]}
    for d in sheet["deals"]:
        if d["kind"] == "raspasy":
            p = next(p for p in sheet["players"] if d["tricks"][p])
            out.append((d["gora"][p] - prev[p]) // d["tricks"][p])
        prev = d["gora"]
    return out


def test_raspasy_series() -> None:
    """Seed 003: raspasy at 1, again at 2, a six is played, then raspasy at 1 again."""
    (s,) = sheets("seed003-raspasy-series.pref").values()
    assert _prices(s) == [1, 2, 1]
    assert s["deals"][1]["pulya"]["C"] == 3  # zero tricks: the price (1, then 2) to the pulya


def test_raspasy_variant_min_bid_and_failed_game() -> None:
    """Seed 003 house rules: raspasy 1; a failed six does not break the series; raspasy 2; bidding
    from 7 (miser, failed); raspasy 3; an eight made (nothing lower allowed); raspasy 1."""
    (s,) = sheets("seed003-raspasy-variant.pref").values()
    assert [d["kind"] for d in s["deals"]] == ["raspasy", "game", "raspasy", "miser", "raspasy", "game",
                                               "raspasy"]
    assert _prices(s) == [1, 2, 3, 1]


@pytest.mark.parametrize(("line", "low"), [
    ("Auction: A pass, B pass, C miser", "Auction: A pass, B pass, C 6s"),  # deal 4: after double raspasy, from 7
    ("Auction: C pass, A pass, B 8s", "Auction: C pass, A pass, B 7s"),    # deal 6: after triple raspasy, from 8
])
def test_raspasy_variant_rejects_low_openings(tmp_path: Path, line: str, low: str) -> None:
    """The same record with an opening below the anti-raspasy minimum: the audit says below_min_level."""
    text = (EXAMPLES / "seed003-raspasy-variant.pref").read_text(encoding="utf-8")
    assert line in text
    bad = tmp_path / "low.pref"
    bad.write_text(text.replace(line, low), encoding="utf-8")
    rc, out = run("audit", str(bad), "--json")
    assert rc == 1
    assert out["pulkas"][0]["findings"][0]["code"] == "below_min_level"


def test_final_settlement() -> None:
    """Seed 003 final settlement. Construction (see the file): raspasy З 1 / В 9 / Ю 0; З 6♠ down 3
    with В alone (В 20, Ю 6 on З); З 6♠ made, both 1 trick (2 each on З, both 1 short → 2 gora);
    Ю 6♠ made, З 2 / В 1 (4 and 2 on Ю, В 1 short → 2 gora); Ю miser 1 trick (10); raspasy 1/6/3;
    misers and unwhisted games close every pulya at 14, the last point of Ю's six comes off his gora.
    Goras З 1+6+1 = 8, В 9+2+2+6 = 19, Ю 2+10+3−1 = 14; net visty З 4 − 30 = −26, В 24, Ю 8 − 6 = 2.
    Seed: method 1 З +31, В −30, Ю −1; method 2 +31, −29, −2; exact +30⅔, −29⅓, −1⅓."""
    (s,) = sheets("seed003-settlement.pref").values()
    assert s["totals"]["gora"] == {"Запад": 8, "Восток": 19, "Юг": 14}
    assert set(s["totals"]["pulya"].values()) == {14}
    st = s["settlement"]
    assert st["method1"] == {"Запад": 31, "Восток": -30, "Юг": -1}
    assert st["method2"] == {"Запад": 31, "Восток": -29, "Юг": -2}
    assert st["exact"] == {"Запад": "92/3", "Восток": "-88/3", "Юг": "-4/3"}
    assert s["finished"] is True


def test_american_help() -> None:
    """docs/rules.md §B1: pulya 20, A 18, B 20, C 12; A makes an eight (6): A → 20, C +4 → 16, 40 visty on C."""
    (s,) = sheets("seed003-american-help.pref").values()
    last = s["deals"][-1]
    assert last["pulya"] == {"A": 20, "B": 20, "C": 16}
    assert last["visty"]["A"]["C"] == 40


# --- seed 001 ----------------------------------------------------------------------------------
def test_legal_bidding() -> None:
    """Seed 001: the ladder, «трефы здесь», miser as a first call, 9♠ over miser: all legal, and the
    declarers are who the auctions say."""
    (s,) = sheets("seed001-bidding.pref").values()
    assert [(d["declarer"], d["contract"]) for d in s["deals"]] == [
        ("A", "7h"), ("A", "6h"), ("C", "miser"), ("B", "9s")]


def test_illegal_bidding_codes() -> None:
    """Each illegal auction gives exactly one finding with the rule's code; audit exits 1."""
    code, found = audits("seed001-bidding-illegal.pref")
    assert code == 1
    assert found == {
        "seed001-illegal-jump": [("jump_bid", 1)],
        "seed001-illegal-miser-after-bid": [("miser_not_first_call", 1)],
        "seed001-illegal-eight-over-miser": [("bid_not_above_last", 1)],
        "seed001-illegal-hold-by-junior": [("hold_not_allowed", 1)],
        "seed001-illegal-miser-as-contract": [("miser_not_bid", 1)],
        "seed001-illegal-nine-over-miser-by-ten": [("miser_not_beaten", 1)],
    }


def test_leningrad_four_players() -> None:
    """Skuratov, docs/rules.md §B2: at four, a six down one costs the declarer 62 visty, down two 108."""
    s = sheets("seed001-leningrad-four.pref")
    assert s["seed001-leningrad-six-down-one"]["settlement"]["exact"]["A"] == -62
    assert s["seed001-leningrad-six-down-two"]["settlement"]["exact"]["A"] == -108


def test_rostov_raspasy() -> None:
    """Seed 001 / Кодекс 3.7.2.2: 0/3/7 → A pulya 1, 15 on B, 35 on C; 2/2/6 → A and B 15 each on C."""
    (s,) = sheets("seed001-rostov-raspasy.pref").values()
    d1, d2 = s["deals"]
    assert d1["pulya"]["A"] == 1 and d1["visty"]["A"] == {"B": 15, "C": 35}
    assert d2["visty"]["A"]["C"] - d1["visty"]["A"]["C"] == 15
    assert d2["visty"]["B"]["C"] == 15


def test_installed_script_prints_the_same_json() -> None:
    """The console script (a real process) gives the same sheet JSON as the in-process runner."""
    path = EXAMPLES / "seed003-settlement.pref"
    exe = Path(sys.executable).with_name("preflog")
    proc = subprocess.run([str(exe), "sheet", str(path), "--json"], capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout) == run("sheet", str(path), "--json")[1]
