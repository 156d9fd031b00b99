"""The solver refuses what it cannot mean, the same way on both paths, and its compiled type never
leaves its arrays.

Every bad position (a goal outside :class:`Goal`, a seat, trump suit or cap out of range or of the
wrong type, an impossible deal) raises :class:`SolverError` from :func:`check`, before either search
sees it, for ``solve``, ``card_values``, ``legal_cards`` and ``play`` alike. A refused position leaves
the solver's table as it was: a ``goal=2`` used to be packed into the compiled table's key over the
``must_trump`` bit (``goal=-1`` over every bit above it), and later valid solves on the same
:class:`Solver` read the wrong entries. The compiled type's private entry (``_dd.Search``) checks its
own arguments too: a 32-card hand or an index off its arrays is a ``ValueError``, never a crash (the
probes run in a subprocess, so that a crash fails this test instead of killing the run).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from preflog.model.cards import parse_cards
from preflog.solver import NATIVE
from preflog.solver import Goal
from preflog.solver import Position
from preflog.solver import Solver
from preflog.solver import SolverError
from preflog.solver import legal_cards
from preflog.solver import play

ROOT = Path(__file__).resolve().parents[2]
SPADES = 0
# docs/solver.md's example: no trump, seat 2 on lead → the declarer takes 4; spades trumps → 10
HANDS = (parse_cards("As Ks Qs Js 10s 9s 8s 7s Ac Ad"),
         parse_cards("Kc Qc Jc 10c 9c 8c 7c Kd Qd Jd"),
         parse_cards("10d 9d 8d 7d Ah Kh Qh Jh 10h 9h"))
NO_TRUMP = Position(HANDS, (0, 1, 2), 0, -1, 2)
TRUMPS = Position(HANDS, (0, 1, 2), 0, SPADES, 1)
SOLVERS = [pytest.param(False, id="python"), pytest.param(True, id="native",
                                                           marks=pytest.mark.skipif(not NATIVE, reason="not built"))]

ALL = (1 << 32) - 1


def _bad() -> list[tuple[str, Position]]:
    p = NO_TRUMP
    led = replace(p, hands=(HANDS[0], HANDS[1], HANDS[2] & ~(1 << 31)), trick=(31,), to_play=0)  # ♥A led by 2
    assert legal_cards(led)   # (a good position with a trick in progress)
    x: Any = None
    return [
        ("goal 2", replace(p, goal=x or 2)), ("goal -1", replace(p, goal=x or -1)),
        ("goal True", replace(p, goal=x or True)), ("goal 1.0", replace(p, goal=x or 1.0)),
        ("goal 'most'", replace(p, goal=x or "most")),
        ("trump 4", replace(p, trump=4)), ("trump -2", replace(p, trump=-2)), ("trump 0.0", replace(p, trump=x or 0.0)),
        ("trump True", replace(p, trump=x or True)),
        ("declarer 3", replace(p, declarer=3)), ("declarer -1", replace(p, declarer=-1)),
        ("declarer '0'", replace(p, declarer=x or "0")),
        ("to_play 5", replace(p, to_play=5)), ("to_play 1.0", replace(p, to_play=x or 1.0)),
        ("order with seat 7", replace(p, order=(0, 1, 7))), ("order repeated", replace(p, order=(0, 1, 1))),
        ("order of one", replace(p, order=(0,), to_play=0)),
        ("order of bools", replace(p, order=x or (False, True, 2))),
        ("order a list", replace(p, order=x or [0, 1, 2])),
        ("two hands", replace(p, hands=HANDS[:2], order=(0, 1), to_play=0)),
        ("a negative hand", replace(p, hands=(-1, *HANDS[1:]))),
        ("a 33-bit hand", replace(p, hands=(HANDS[0] | 1 << 32, *HANDS[1:]))),
        ("a float hand", replace(p, hands=x or (float(HANDS[0]), *HANDS[1:]))),
        ("a 32-card hand", replace(p, hands=(ALL, 0, 0), order=(0, 1, 2))),
        ("16 cards each", replace(p, hands=(0xFFFF, 0xFFFF0000, 0), order=(0, 1), to_play=0, declarer=0)),
        ("a card held twice", replace(p, hands=(HANDS[0], HANDS[0], HANDS[2]))),
        ("declarer cap -1", replace(p, declarer_cap=-1)), ("side cap -3", replace(p, side_cap=-3)),
        ("cap 2.5", replace(p, side_cap=x or 2.5)), ("cap True", replace(p, declarer_cap=x or True)),
        ("must_trump 1", replace(p, must_trump=x or 1)), ("must_trump None", replace(p, must_trump=x)),
        ("trick card 32", replace(led, trick=(32,))), ("trick card -1", replace(led, trick=(-1,))),
        ("trick card '31'", replace(led, trick=x or ("31",))), ("trick too long", replace(led, trick=(31, 30, 29))),
        ("trick card in a hand", replace(led, trick=(0,))),
    ]


BAD = _bad()


def test_the_bad_positions_are_bad_for_one_reason_each() -> None:
    """(The list is the test's own: each position is the good one with one field changed.)"""
    assert len(BAD) >= 35 and len({name for name, _ in BAD}) == len(BAD)


@pytest.mark.parametrize("native", SOLVERS)
@pytest.mark.parametrize(("name", "pos"), BAD, ids=[name for name, _ in BAD])
def test_every_bad_position_is_a_solver_error_on_both_paths(native: bool, name: str, pos: Position) -> None:
    solver = Solver(native=native)
    for call in (solver.solve, solver.card_values, legal_cards):
        with pytest.raises(SolverError) as err:
            call(pos)
        assert "\n" not in str(err.value) and str(err.value).startswith("solver: ")
    with pytest.raises(SolverError):
        play(pos, 0)


@pytest.mark.parametrize("native", SOLVERS)
def test_a_refused_goal_leaves_the_table_right(native: bool) -> None:
    """The documented example is 4 without trumps and 10 with spades; after ``goal=2`` and ``goal=-1``
    were offered to the same solver, it still says so, for the position and every card (before the check
    the compiled table answered 10 for the first), and each of them was refused."""
    solver = Solver(native=native)
    offered = refused = 0
    for goal in (2, -1, 2, 3, -1):
        for pos in (TRUMPS, NO_TRUMP):
            for call in (solver.solve, solver.card_values):
                offered += 1
                try:
                    call(replace(pos, goal=goal))  # type: ignore[arg-type]
                except SolverError as exc:
                    refused += "goal" in str(exc)
        assert solver.solve(NO_TRUMP) == 4
        assert solver.solve(TRUMPS) == 10
        assert solver.card_values(NO_TRUMP) == Solver(native=native).card_values(NO_TRUMP)
        assert solver.solve(replace(NO_TRUMP, goal=Goal.FEWEST)) == Solver(native=native).solve(
            replace(NO_TRUMP, goal=Goal.FEWEST))
    assert refused == offered == 20


# The probes of the private entry: (name, method, arguments). ``solve(hands, decl, trump, goal, must_trump,
# i, led, best, bi, t, tcards, dc, sc)``; ``card_values`` takes the same and the cards to value.
H = [HANDS[0], HANDS[1], HANDS[2]]
GOOD = (H, 0, -1, 0, True, 2, -1, -1, -1, 0, 0, 15, 15)
HT = [H[0], H[1], H[2] & ~(1 << 31)]
TRICK = (HT, 0, -1, 0, True, 0, 3, 31, 2, 1, 1 << 31, 15, 15)   # seat 2 led the ♥A, the declarer on turn
PROBES: list[tuple[str, str, tuple[Any, ...]]] = [
    ("32-card hand", "solve", ([ALL, 0, 0], *GOOD[1:])),
    ("32-card hand on turn", "solve", ([0, 0, ALL], *GOOD[1:])),
    ("two 16-card hands", "solve", ([0xFFFF, 0xFFFF0000], 0, -1, 0, True, 0, -1, -1, -1, 0, 0, 15, 15)),
    ("16-card hands, all low", "solve", ([0x0F0F0F0F, 0xF0F0F0F0], 0, 0, 0, True, 1, -1, -1, -1, 0, 0, 15, 15)),
    ("a 40-bit hand", "solve", ([1 << 39, *H[1:]], *GOOD[1:])),
    ("a negative hand", "solve", ([-5, *H[1:]], *GOOD[1:])),
    ("one hand", "solve", ([H[0]], *GOOD[1:])),
    ("four hands", "solve", ([*H, 0], *GOOD[1:])),
    ("declarer 7", "solve", (H, 7, *GOOD[2:])),
    ("declarer -3", "solve", (H, -3, *GOOD[2:])),
    ("trump 9", "solve", (H, 0, 9, *GOOD[3:])),
    ("trump -5", "solve", (H, 0, -5, *GOOD[3:])),
    ("goal 2", "solve", (H, 0, -1, 2, *GOOD[4:])),
    ("goal -1", "solve", (H, 0, -1, -1, *GOOD[4:])),
    ("seat on turn 5", "solve", (H, 0, -1, 0, True, 5, *GOOD[6:])),
    ("seat on turn -1", "solve", (H, 0, -1, 0, True, -1, *GOOD[6:])),
    ("suit led 11", "solve", (HT, *TRICK[1:6], 11, *TRICK[7:])),
    ("suit led 0, not the trick's", "solve", (HT, *TRICK[1:6], 0, *TRICK[7:])),
    ("best card 40", "solve", (HT, *TRICK[1:7], 40, *TRICK[8:])),
    ("best card not in the trick", "solve", (HT, *TRICK[1:7], 30, *TRICK[8:])),
    ("winner seat 9", "solve", (HT, *TRICK[1:8], 9, *TRICK[9:])),
    ("winner seat did not play", "solve", (HT, *TRICK[1:8], 1, *TRICK[9:])),
    ("trick of 5", "solve", (HT, *TRICK[1:9], 5, *TRICK[10:])),
    ("trick of -1", "solve", (H, 0, -1, 0, True, 0, -1, -1, -1, -1, 0, 15, 15)),
    ("trick of 0 with a suit led", "solve", (HT, *TRICK[1:9], 0, 0, *TRICK[11:])),
    ("trick cards past 32 bits", "solve", (HT, *TRICK[1:10], 1 << 31 | 1 << 40, *TRICK[11:])),
    ("trick card in a hand", "solve", (H, *TRICK[1:])),
    ("hands of unequal size", "solve", ([H[0], H[1], H[2] & ~(1 << 31)], *GOOD[1:])),
    ("caps negative", "solve", (*GOOD[:11], -1, -1)),
    ("cards to value: 40", "card_values", (*GOOD, [40])),
    ("cards to value: 33 of them", "card_values", (*GOOD, list(range(33)))),
    ("cards to value: not held", "card_values", (*GOOD, [0])),
]


def test_the_compiled_type_refuses_bad_arguments_without_crashing() -> None:
    """Each probe in a fresh subprocess would be slow; one subprocess runs them all and reports, for each,
    the exception's type, then solves the documented example on the same object (4). A crash (a read or
    write off an array) ends it with a signal, and the test fails naming the last probe begun."""
    if not NATIVE:
        pytest.skip("the compiled search is not built")
    code = (
        "import json, sys\n"
        "from preflog.solver import _dd\n"
        "from tests.solver.test_refusals import GOOD, PROBES, TRICK\n"
        "s = _dd.Search()\n"
        "out = {}\n"
        "for name, method, args in PROBES:\n"
        "    print(name, file=sys.stderr, flush=True)\n"
        "    try:\n"
        "        out[name] = 'returned ' + repr(getattr(s, method)(*args))\n"
        "    except Exception as e:\n"
        "        out[name] = type(e).__name__\n"
        "out['good'] = s.solve(*GOOD)\n"
        "out['trick'] = s.solve(*TRICK)\n"
        "json.dump(out, sys.stdout)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    last = done.stderr.strip().splitlines()[-1:] if done.stderr.strip() else []
    assert done.returncode == 0, f"the compiled search crashed (exit {done.returncode}) at probe {last}"
    got = json.loads(done.stdout)
    assert got.pop("good") == 4
    assert got.pop("trick") == Solver(native=False).solve(Position(tuple(HT), (0, 1, 2), 0, -1, 0, trick=(31,)))
    assert got == {name: got[name] for name, _, _ in PROBES}
    wrong = {name: what for name, what in got.items() if what not in ("ValueError", "OverflowError", "TypeError")}
    assert wrong == {}
