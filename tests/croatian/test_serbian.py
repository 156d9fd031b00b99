"""Serbian preferans (the ``serbian`` preset of the Croatian family; docs/rules.md §C7): hand-worked deals.

Seats A = 0, B = 1, C = 2. preflog keeps each player's bula as a signed column: a bula of 60 is the
column −60, a made game brings it toward zero (``+V·m``), a failure pushes it away (``−V·m``); the supe one
player writes on another are ``sheet.visty[writer][on]``. V = 2n with the talon, 2(n+1) from hand (igra):
pik 4, karo 6, herc 8, tref 10, betl 12, sans 14; igra herc 10 … igra sans 16 (the PPN example deals: a
herc is worth 8, a contract of pik under refa 8). Calls per seat: 1 dođem (whist), 0 dalje (pass),
−1 the declarer.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.engine.codes import Code
from preflog.engine.croatian.defence import CroatianDefence
from preflog.engine.croatian.defence import first_leader
from preflog.engine.families import family_of
from preflog.engine.findings import IllegalAction
from preflog.engine.replay import audit
from preflog.model.bidcodes import HR_BETTEL
from preflog.model.bidcodes import HR_SANAC
from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.events import ContraCalled
from preflog.model.events import DealStarted
from preflog.model.events import PulkaEnded
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules.presets import resolve
from preflog.rules.settings import croatian_settings
from preflog.scoring.croatian import CroatianScorer
from preflog.scoring.errors import ScoringError
from preflog.sim import simulate_pulka

A, B, C = 0, 1, 2
W, P, D = 1, 0, -1
SERBIAN = resolve("serbian")


def game(deal: int, decl: int, contract: int, tricks: tuple[int, int, int], calls: tuple[int, ...] = (),
         hand: bool = False, contra: tuple[int, ...] = (), stopped: bool = False,
         kind: str = DealKind.GAME) -> DealOutcome:
    if not calls:
        calls = tuple(D if s == decl else W for s in range(3))
    return DealOutcome(deal, (deal + 2) % 3, 3, kind, declarer=decl, contract=contract, tricks=tricks,
                       calls=calls, hand_game=hand, contra=contra, stopped_early=stopped)


def all_pass(deal: int) -> DealOutcome:
    return DealOutcome(deal, (deal + 2) % 3, 3, DealKind.ALL_PASS)


def scorer(spec: str = "serbian", **changes: object) -> CroatianScorer:
    rules = resolve(spec, changes or None)
    s = family_of(rules).scorer(rules, 3, 0)
    assert isinstance(s, CroatianScorer)
    return s


def test_the_preset() -> None:
    """A bula of 60 and two refe (the PPN example's tags), the chain to mortkontra, the pik rule of the
    central Serbian clubs, duplo padanje; Sans led by the declarer's right-hand player, Betl by first hand."""
    r = SERBIAN
    assert (r.family, r.start, r.refe_max, r.contra_max) == ("croatian", 60, ((60, 2), (400, 8)), 4)
    assert (r.two_spades_without_contra, r.double_fail_at_end, r.contra_fail_penalty) == ("refe_else_win", True,
                                                                                           False)
    assert resolve("serbian+no-subkontra").contra_max == 2
    assert resolve("serbian+pik-without-kontra").two_spades_without_contra == "played"
    assert resolve("serbian+bula-400").start == 400
    s = scorer()
    assert s.columns == (-60, -60, -60) and s.refe_limit == 2
    assert scorer("serbian+bula-400").refe_limit == 8
    settings = croatian_settings(r)
    # dealer A: first hand is B; Sans by C is led from C's right (B), Betl by C from first hand (B),
    # Sans by B from B's right (A), while first hand would be B himself
    assert first_leader(settings, A, C, HR_SANAC) == B and first_leader(settings, A, C, HR_BETTEL) == B
    assert first_leader(settings, A, B, HR_SANAC) == A and first_leader(settings, A, B, HR_BETTEL) == B


def test_a_pulka_sheet_by_hand() -> None:
    """Bula 60 each (columns −60). Each deal as a Serbian sheet writes it:

    1. dalje, dalje, dalje → a refa for everybody (1 of 2).
    2. A herc with the talon on his refa (V 8 × 2 = 16); B and C dođu; A 7, B 2, C 1 → made: A's bula
       60 − 16 = 44. Supe: B 2 × 16 = 32 on A, C 1 × 16 = 16 on A. The side took 3 < 4 and C 1 < 2:
       C's bula goes up by 16 (76).
    3. B tref on his refa (V 10 × 2 = 20); A dođe alone, C dalje (not called); B 5, A 5 → failed: B's bula
       60 + 20 = 80; A 5 × 20 = 100 supe on B.
    4. C karo on his refa, A kontra: A's account ×2 × 2 = 4, B's ×2, C's bula ×4. C 6, A 2, B 2 → made:
       C 76 − 24 = 52; A 2 × 6 × 4 = 48 on C, B 2 × 6 × 2 = 24 on C; no penalty for the kontra.
    5. A pik, no refa left: B kontra, A rekontra, B subkontra, A mortkontra (B's account ×16). A 6, B 2,
       C 2 → made: A 44 − 64 = −20 (under the šešir); B 2 × 4 × 16 = 128 on A, C 2 × 4 = 8 on A.
    6. All pass: no refa (A is under the šešir).
    7. B pik, both dođu, nobody kontras: no refa can be written (the šešir), so B goes down by 4 without
       play: 80 − 4 = 76.
    8. C betl with the talon (V 12), C takes a trick → failed: C 52 + 12 = 64; A and B 5 × 12 = 60 each.
    9. B igra sans (from hand, V 16); A 2, B 6, C 2 → made: B 76 − 16 = 60; A and C 2 × 16 = 32 on B.

    Bulas 60 − 80 … end at A −20, B 60, C 64 (columns 20, −60, −64). Supe: A on B 100 + 32 = 132, A on C
    48 + 60 = 108, B on A 32 + 128 = 160, B on C 24 + 60 = 84, C on A 16 + 8 = 24, C on B 32.
    Settlement now (before the end): mean column −104/3; 10 × (column − mean) = 1640/3, −760/3, −880/3;
    supe written − received: A 240 − 184 = 56, B 244 − 164 = 80, C 56 − 192 = −136 →
    A 1808/3, B −520/3, C −1288/3 (sum 0)."""
    s = scorer()
    s.score(all_pass(1))
    assert s.refe == [1, 1, 1] and s.refe_rounds == 1
    d = s.score(game(2, A, 4, (7, 2, 1)))
    assert d.pulya == (16, 0, -16) and d.visty[B][A] == 32 and d.visty[C][A] == 16
    assert s.columns == (-44, -60, -76) and s.refe == [0, 1, 1]
    d = s.score(game(3, B, 5, (5, 5, 0), calls=(W, D, P)))
    assert d.pulya == (0, -20, 0) and d.visty[A][B] == 100 and s.refe == [0, 0, 1]
    d = s.score(game(4, C, 3, (2, 2, 6), contra=(1, 0, 0)))
    assert d.pulya == (0, 0, 24) and d.visty[A][C] == 48 and d.visty[B][C] == 24 and s.refe == [0, 0, 0]
    d = s.score(game(5, A, 2, (6, 2, 2), contra=(0, 4, 0)))
    assert d.pulya == (64, 0, 0) and d.visty[B][A] == 128 and d.visty[C][A] == 8
    assert s.columns == (20, -80, -52) and s.under_hat == (True, False, False)
    d = s.score(all_pass(6))
    assert d.pulya == (0, 0, 0) and s.refe == [0, 0, 0] and "under the hat" in d.note
    d = s.score(game(7, B, 2, (0, 0, 0), kind=DealKind.CONCEDED))
    assert d.pulya == (0, 4, 0) and "won without play" in d.note
    d = s.score(game(8, C, HR_BETTEL, (2, 1, 1), stopped=True))
    assert d.pulya == (0, 0, -12) and d.visty[A][C] == 60 and d.visty[B][C] == 60
    d = s.score(game(9, B, HR_SANAC, (2, 6, 2), hand=True))
    assert d.pulya == (0, 16, 0) and d.visty[A][B] == 32 and d.visty[C][B] == 32
    assert s.columns == (20, -60, -64) and not s.is_finished()
    assert s.sheet.visty == [[0, 132, 108], [160, 0, 84], [24, 32, 0]]
    assert s.settlement().exact == (Fraction(1808, 3), Fraction(-520, 3), Fraction(-1288, 3))


def test_the_ppn_example_deal_with_subkontra() -> None:
    """The PPN README's fourth example deal: a herc (value 8) with the talon; one follower, who calls the
    other in by his kontra, the chain to subkontra (×8: the deal's value 64); the declarer takes 7, the
    side 3. Its summary ``M7:-64,F3:L192:64``: the declarer's bula down 64; the follower writes 3 × 64 = 192
    supe and, short of the side's four, goes up by 64."""
    s = scorer()
    d = s.score(game(1, B, 4, (0, 7, 3), calls=(P, D, W), contra=(0, 0, 3)))
    assert d.pulya == (0, 64, -64) and d.visty[C][B] == 192 and d.visty[A][B] == 0


def test_pik_without_kontra_is_a_refa_while_one_is_left() -> None:
    """Central Serbian clubs: a pik with the talon that nobody kontras is not played; a refa for everybody
    while any is left (2 with a bula of 60), else the declarer goes down by 4. A declarer with a refa plays
    his pik as any game (no kontra needed: the family's rule). Vojvodina's clubs play every pik.

    1. A pik, no kontra → refa for everybody (1 of 2).  2. A pik on his refa, made: 60 − 2 × 4 = 52.
    3. A pik, no kontra → refa (2 of 2).  4. A herc on his refa, made: 52 − 16 = 36.
    5. A pik, no kontra, no refa left → A goes down by 4: 32."""
    s = scorer()
    assert s.score(game(1, A, 2, (0, 0, 0), kind=DealKind.CONCEDED)).pulya == (0, 0, 0)
    assert s.refe == [1, 1, 1] and s.needs_contra(A, 2, False) is False
    assert s.score(game(2, A, 2, (6, 2, 2))).pulya == (8, 0, 0)
    assert s.needs_contra(A, 2, False) is True
    assert s.score(game(3, A, 2, (0, 0, 0), kind=DealKind.CONCEDED)).pulya == (0, 0, 0)
    assert s.refe == [1, 2, 2] and s.refe_rounds == 2
    assert s.score(game(4, A, 4, (6, 2, 2))).pulya == (16, 0, 0)
    d = s.score(game(5, A, 2, (0, 0, 0), kind=DealKind.CONCEDED))
    assert d.pulya == (4, 0, 0) and "won without play" in d.note and s.refe == [0, 2, 2]
    assert s.columns == (-32, -60, -60)
    assert scorer("serbian+pik-without-kontra").needs_contra(A, 2, False) is False
    with pytest.raises(ScoringError, match="contra"):
        scorer().score(game(1, A, 2, (6, 2, 2)))          # a pik played without a kontra: not these rules


def test_duplo_padanje_at_the_end_and_the_settlement() -> None:
    """A bula of 8 (columns −8; the sum must reach 0).

    1. A tref with the talon (V 10), A 6, B 2, C 2 → A 8 − 10 = −2 (šešir); B and C 2 × 10 = 20 on A.
       The bulas left: −2 + 8 + 8 = 14.
    2. B igra sans (V 16 > 14 left) fails: A 3, C 2 → duplo padanje: B 8 + 2 × 16 = 40; the supe as usual,
       A 3 × 16 = 48, C 2 × 16 = 32 on B (the Internet Preferans Klub's example: 6 left, a herc fails with
       5 tricks against it: down 16, 40 supe).
    3. C igra sans, A kontra, C rekontra (×4 = 64) with 46 left (−2 + 40 + 8): made, C 6, A 2, B 2. The
       bula closes: C writes 46 of 64 and the supe shrink by 46/64: A 2 × 16 × 4 = 128 → 92, B 32 → 23.
    Columns 2, −40, 38 (sum 0): 10 × column = 20, −400, 380; supe A 48 + 92 − 40 = 100, B 20 + 23 − 80
    = −37, C 20 + 32 − 115 = −63 → A 120, B −437, C 317."""
    s = scorer(start=8)
    s.score(game(1, A, 5, (6, 2, 2)))
    assert s.columns == (2, -8, -8)
    d = s.score(game(2, B, HR_SANAC, (3, 5, 2), hand=True))
    assert d.pulya == (0, -32, 0) and d.visty[A][B] == 48 and d.visty[C][B] == 32 and "double" in d.note
    d = s.score(game(3, C, HR_SANAC, (2, 2, 6), hand=True, contra=(2, 0, 0)))
    assert d.pulya == (0, 0, 46) and d.visty[A][C] == 92 and d.visty[B][C] == 23
    assert s.columns == (2, -40, 38) and s.is_finished()
    st = s.settlement()
    assert st.exact == (120, -437, 317) and st.method1 == (120, -437, 317)


def test_duplo_padanje_only_above_what_is_left() -> None:
    """Worth exactly what is left (herc 8 with 8 left) is a plain failure; the option off, never double."""
    s = scorer(start=8)
    s.score(game(1, A, 4, (6, 2, 2)))   # A 8 − 8 = 0: left 0 + 8 + 8 = 16
    s.score(game(2, B, 4, (2, 6, 2)))   # B 0: left 8
    d = s.score(game(3, C, 4, (3, 2, 5)))
    assert d.pulya == (0, 0, -8) and "double" not in d.note
    off = scorer("serbian+no-double-fail", start=8)
    off.score(game(1, A, 5, (6, 2, 2)))
    assert off.score(game(2, B, HR_SANAC, (3, 5, 2), hand=True)).pulya == (0, -16, 0)


def test_the_kontra_chain_ends_at_mortkontra() -> None:
    """The defence takes kontra, rekontra, subkontra, mortkontra and no fifth step; the Internet Preferans
    Klub's rules (no-subkontra) stop at rekontra; a recorded chain longer than the rules is refused."""
    d = CroatianDefence(SERBIAN, C, (A, B), 4)
    d.whist(A, CALL_WHIST)
    d.whist(B, CALL_PASS)
    for seat in (A, C, A, C):
        d.call_contra(seat)
    assert d.contra == (4, 0, 0)
    with pytest.raises(IllegalAction) as exc:
        d.call_contra(A)
    assert exc.value.code == Code.CONTRA_NOT_ALLOWED and "contra_max" in str(exc.value)
    iklub = CroatianDefence(resolve("serbian+no-subkontra"), C, (A, B), 4)
    iklub.whist(A, CALL_WHIST)
    iklub.whist(B, CALL_WHIST)
    iklub.call_contra(A)
    iklub.call_contra(C)
    with pytest.raises(IllegalAction):
        iklub.call_contra(A)
    with pytest.raises(ScoringError, match="contra_max"):
        scorer().score(game(1, A, 4, (6, 2, 2), contra=(0, 5, 0)))


@pytest.mark.parametrize("paper", [False, True])
def test_the_bots_play_serbian_pulkas_to_the_end(paper: bool) -> None:
    """``simulate --rules serbian``: pulkas close (the bulas sum to zero), replay and audit clean (the audit
    replays every call and card through the deal engine), and some deals see a kontra."""
    contras = 0
    for seed in range(3):
        events = simulate_pulka("serbian", 3, seed, paper=paper)
        end = events[-1]
        assert isinstance(end, PulkaEnded) and end.reason == "closed"
        result = audit(events)
        assert result.ok and sum(result.settlement.exact) == 0
        assert sum(isinstance(e, DealStarted) for e in events) > 10
        contras += sum(isinstance(e, ContraCalled) for e in events)
    assert paper or contras > 0


def test_simulate_rules_serbian_from_the_command_line(tmp_path: Path) -> None:
    """``preflog simulate --rules serbian`` writes pulkas played to the end; ``preflog audit`` finds nothing."""
    store, out = tmp_path / "store", tmp_path / "out"
    res = CliRunner().invoke(app, ["simulate", "--rules", "serbian", "--pulkas", "2", "--seed", "5", "--workers", "1",
                                   "-o", str(out), "--store", str(store)])
    assert res.exit_code == 0, res.output
    files = sorted(out.iterdir())
    assert files and all('[Rules "serbian"]' in f.read_text(encoding="utf-8") for f in files)
    pulkas = []
    for f in files:
        res = CliRunner().invoke(app, ["audit", str(f), "--json", "--store", str(store)])
        assert res.exit_code == 0, res.output
        pulkas += json.loads(res.output)["pulkas"]
    assert len(pulkas) == 2 and all(p["findings"] == [] for p in pulkas)
