"""Games passed that were makeable (preflog.analysis.skill_passes) on a hand-built Sochi deal whose answer
is worked out by hand.

Dealer Anna, so Boris is first hand, then Vera, then Anna. The twenty cards from the ten to the ace are
Boris's and Vera's; Anna holds every seven, eight and nine but the two in the talon (9♦ 9♥).

* Boris passes first, nothing bid: every contract is open to him. With the talon he holds the five spade
  honours, A♣ K♣, A♥ K♥ 9♥, A♦ 9♦: discarding 9♦ 9♥ and leading spades (Anna follows three times with
  7♠ 8♠ 9♠, Vera has none) he takes all ten tricks, so 6♠, the first step of the ladder, was makeable:
  he passed a makeable game, and the cheapest is 6♠.
* Anna passes after Vera's 6♦, having bid 6♣ (misère is only a first call): every contract open to her
  needs at least six tricks. Each of her twelve cards is lower than every card of its suit the others
  hold, so at no trumps she takes nothing, and with trumps she wins a trick only with one of her three
  trumps: at most three. No game open to her was makeable.
* Vera never passes: not judged.
"""

from __future__ import annotations

from preflog.analysis.skill import split_events
from preflog.record.api import read_text

from .records import HEAD

PASSED = HEAD.format(id="passed") + """
Deal 1: dealer A
A: 7s 8s 9s 7c 8c 9c 7d 8d 7h 8h
B: As Ks Qs Js 10s Ac Kc Ah Kh Ad
C: Qc Jc 10c Qh Jh 10h Kd Qd Jd 10d
Talon: 9d 9h
Auction: B pass, C 6s, A 6c, C 6d, A pass
Discard: C 9d 9h
Contract: C 6d
Whist: A pass, B pass
"""


def events() -> list:  # type: ignore[type-arg]
    return list(read_text(PASSED))


def test_a_pass_with_a_makeable_game_and_one_without() -> None:
    for budget in (None, 1):   # the whole search, and the cheapest bound (one discard a contract group)
        rows = {r.player: r for r in split_events("passed", events(), passes=True, budget=budget).rows}
        assert (rows["Boris"].passed_makeable, rows["Boris"].passed_game) == (True, "6s")
        assert (rows["Anna"].passed_makeable, rows["Anna"].passed_game) == (False, "")
        assert (rows["Vera"].passed_makeable, rows["Vera"].passed_game) == (None, "")


def test_passes_are_not_judged_when_not_asked_and_reach_the_table() -> None:
    from preflog.analysis.skill import skill_rows

    rows = split_events("passed", events()).rows   # not judged unless asked (analyze --all --passes)
    assert all(r.passed_makeable is None for r in rows)
    table = {r["player"]: r for r in skill_rows(split_events("passed", events(), passes=True))}
    assert (table["Boris"]["passed_makeable"], table["Boris"]["passed_game"]) == (True, "6s")
    assert (table["Anna"]["passed_makeable"], table["Anna"]["passed_game"]) == (False, None)
    assert table["Vera"]["passed_makeable"] is None
