"""Croatian defence phase (whist / invite / contra), first lead and the early stop (docs/rules.md §A8, §A10, §C3).

Seats A = 0, B = 1, C = 2, clockwise to seat + 1 (the player on X's right is X − 1).
"""

from __future__ import annotations

import pytest

from preflog.engine.codes import Code
from preflog.engine.codes import codes_of
from preflog.engine.croatian.defence import CroatianDefence
from preflog.engine.croatian.defence import first_leader
from preflog.engine.croatian.defence import play_over
from preflog.engine.findings import IllegalAction
from preflog.model.calls import CALL_INVITE
from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import NO_SEAT
from preflog.model.outcome import DealKind
from preflog.rules.presets import resolve
from preflog.rules.settings import croatian_settings

A, B, C = 0, 1, 2
RULES = resolve("croatian")


def defence(contract: int = 4, needs_contra: bool = False, rules=RULES) -> CroatianDefence:
    """C declares; A (left of C) speaks first, then B."""
    return CroatianDefence(rules, C, (A, B), contract, needs_contra)


def refused(fn, *args) -> str:
    with pytest.raises(IllegalAction) as exc:
        fn(*args)
    assert exc.value.code in codes_of("Deal (Croatian") | {Code.WHIST_OUT_OF_TURN}
    return exc.value.code


def test_both_whist_contra_chain() -> None:
    """A and B whist; A contra, C recontra, A subcontra, C mortcontra → A's chain 4 steps (×16), B's 0."""
    d = defence()
    d.whist(A, CALL_WHIST)
    d.whist(B, CALL_WHIST)
    d.call_contra(A)
    assert refused(d.call_contra, A) == Code.CONTRA_NOT_ALLOWED  # the declarer must answer first
    for seat in (C, A, C):
        d.call_contra(seat)
    assert d.contra == (4, 0, 0) and d.calls == (CALL_WHIST, CALL_WHIST, -1)
    assert d.close() == DealKind.GAME
    assert refused(d.call_contra, B) == Code.DEFENCE_OVER


def test_recontra_answers_both_contras() -> None:
    """A and B both contra; C's recontra doubles both chains (seed 000: «с защитником или защитниками»)."""
    d = defence()
    d.whist(A, CALL_WHIST)
    d.whist(B, CALL_WHIST)
    d.call_contra(A)
    d.call_contra(B)
    d.call_contra(C)
    assert d.contra == (2, 2, 0)


def test_invitations() -> None:
    """A passes, B whists and invites at once → A invited; A whists, B passes, A invites afterwards → B.
    A whists, B passes, no invitation → B is out (his cards take no part); A's contra invites B."""
    d = defence()
    d.whist(A, CALL_PASS)
    d.whist(B, CALL_INVITE)
    assert d.invited == A and d.out_seat == NO_SEAT and d.whisters == (B,)

    d = defence()
    d.whist(A, CALL_WHIST)
    d.whist(B, CALL_PASS)
    assert d.out_seat == B
    d.whist(A, CALL_INVITE)
    assert d.invited == B and d.out_seat == NO_SEAT
    assert refused(d.whist, A, CALL_INVITE) == Code.INVITE_NOT_ALLOWED

    d = defence()
    d.whist(A, CALL_WHIST)
    d.whist(B, CALL_PASS)
    assert refused(d.call_contra, B) == Code.CONTRA_NOT_ALLOWED
    d.call_contra(A)
    assert d.invited == B and d.contra == (1, 0, 0)


def test_whist_errors_and_kinds() -> None:
    d = defence()
    assert refused(d.whist, B, CALL_WHIST) == Code.WHIST_OUT_OF_TURN
    assert refused(d.whist, A, CALL_INVITE) == Code.INVITE_NOT_ALLOWED
    assert refused(d.whist, A, 2) == Code.BAD_WHIST_CALL  # half-whist
    assert refused(d.call_contra, A) == Code.CONTRA_NOT_ALLOWED
    assert refused(d.close) == Code.DEFENCE_OVER
    d.whist(A, CALL_PASS)
    d.whist(B, CALL_PASS)
    assert d.close() == DealKind.NOT_WHISTED

    assert refused(defence(6).whist, A, CALL_PASS) == Code.BETTEL_MUST_BE_PLAYED
    assert refused(defence(rules=RULES.replace(contra_enabled=False)).call_contra, A) == Code.CONTRA_DISABLED


def test_two_spades_needs_contra() -> None:
    """2♠ with the talon and no refe: whisted but not contra'd → DealKind.CONCEDED; contra'd → DealKind.GAME."""
    d = defence(2, needs_contra=True)
    d.whist(A, CALL_WHIST)
    d.whist(B, CALL_WHIST)
    assert d.kind == DealKind.CONCEDED
    d.call_contra(B)
    assert d.close() == DealKind.GAME


@pytest.mark.parametrize("rules, declarer, contract, out, leader", [
    (RULES, B, 4, NO_SEAT, A),                   # first hand (dealer C's left) leads
    (RULES, B, 4, A, B),                         # first hand is out → next clockwise (the declarer)
    (RULES, A, 7, NO_SEAT, B),                   # Sanac: the declarer may not lead first (Fundak)
    (RULES, A, 7, B, C),                         # … and the out passer is skipped too
    (RULES, B, 6, NO_SEAT, A),                   # Bettel: right of the declarer (the short Croatian text)
    (RULES, A, 6, NO_SEAT, C),
    (resolve("slovenian"), A, 7, NO_SEAT, C),    # Slovenian sans: «под разыгрывающего» (right of declarer)
    (RULES.replace(first_lead="left_whister"), A, 4, B, C),  # short Croatian text: nearest whister left
    (RULES.replace(first_lead="eldest"), B, 4, A, B),  # a player who is out never leads, whatever the option
])
def test_first_leader(rules, declarer: int, contract: int, out: int, leader: int) -> None:
    assert first_leader(croatian_settings(rules), C, declarer, contract, out) == leader


def test_play_over() -> None:
    """Play stops at the defenders' 5th trick; flat Bettel at the declarer's first trick; else after 10."""
    s = croatian_settings(RULES)
    assert play_over(s, 4, 4, 5) and not play_over(s, 4, 5, 4) and play_over(s, 4, 6, 4)
    assert play_over(s, 6, 1, 0) and not play_over(s, 6, 0, 9)
    assert not play_over(croatian_settings(RULES.replace(bettel_fail_mode="per_trick")), 6, 1, 0)
