"""Double-dummy analysis of hand-built Sochi deals (tests/analysis/records.py), checked by hand.

Sochi prices used below (docs/rules-options.md): a 6-game is worth V = 2, a whisted trick w = V = 2 visty,
a missing trick of a failed contract 1 × V gora plus 1 × V consolation visty to each whister; the 6-game's
whisters answer for 4 tricks (2 each, or all 4 for a lone whister), a trick short costs V gora. Miser: 10
pulya made, 10 gora a trick. The exact settlement of a 3-player sheet gives a player his net visty plus
10 × (mean − own) of the "effective gora" (gora plus the pulya he lacks to the top pulya, at 10 visty a
pulya point over 10 a gora point: one for one).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from preflog.analysis import AnalysisError
from preflog.analysis import Options
from preflog.analysis import analyze_events
from preflog.analysis import distinct_discards
from preflog.model.cards import parse_card
from preflog.model.cards import parse_cards
from preflog.record.api import read_text

from .records import CROATIAN_STOP
from .records import DOWN_ONE
from .records import MISER
from .records import OPEN_WHIST
from .records import RASPASY
from .records import RASPASY_OPEN
from .records import WRONG_WHIST


def test_declarer_drops_a_trick_and_goes_down_one() -> None:
    """Anna (♠AKQJ10 ♣A ♦10987) plays 6♠ against Boris (♠987, no club) and Vera.

    Drawing trumps first she takes five trumps and the club ace: 6 tricks (the four diamonds lose to
    Boris's honours; she has no way to rid herself of them), so 6♠ is exactly makeable. She leads the
    club ace at trick 1 instead: Boris ruffs, and she takes only her five trumps: down one. Every trump
    and every diamond keeps the 6; only ♣A loses (1 trick).

    Cost on the sheet, both whisting (Boris takes every defenders' trick: Vera can win none):
    * best line, 6 made: Anna writes 2 pulya; Boris 4 tricks × 2 = 8 visty on her, Vera 0. Effective gora
      0 / 2 / 2, mean 4/3: Anna's worth = −8 + 10 × 4/3 = 16/3.
    * as played, 5 tricks: gora 2; consolation 2 to each whister: Boris 5 × 2 + 2 = 12, Vera 2. Effective
      gora 2 / 0 / 0, mean 2/3: Anna's worth = −14 + 10 × (2/3 − 2) = −82/3.
    The card cost her 16/3 + 82/3 = 98/3 visty; at the whist price 1/2 that is 49/3.
    """
    res = analyze_events("down-one", read_text(DOWN_ONE))
    (d,) = res.deals
    assert (d.double_dummy, d.needed, d.makeable, d.margin, d.actual, d.made) == (6, 6, True, 0, 5, False)
    (loss,) = d.losses
    assert (loss.trick, loss.player, loss.card, loss.lost, loss.role) == (1, "Anna", parse_card("Ac"), 1, "declarer")
    assert set(loss.best) == set(parse_card(c) for c in "As Ks Qs Js 10s 10d 9d 8d 7d".split())
    assert loss.cost == Fraction(98, 3)
    assert loss.money == Fraction(49, 3)


def test_miser_not_caught_by_a_defenders_mistake() -> None:
    """Anna's miser has one hole: a single ♠8, with ♠7 and every other spade in Boris's hand and Vera void
    in spades; her other cards are the three lowest of each suit. Boris leads: ♠7 catches her (Vera
    discards, Anna must follow with the 8), and then no further trick can be forced on her. So the miser is
    catchable (1 trick double dummy). Boris leads ♠9 instead: she plays the 8 under it and is safe.

    Cost for Boris: caught, Anna's 10 gora give Boris 10 × 10/3 = 100/3; made, her 10 pulya cost him
    10 × (0 − 10/3) = −100/3 (no visty on a miser). The card cost him 200/3 visty.
    """
    (d,) = analyze_events("miser", read_text(MISER)).deals
    assert (d.goal, d.double_dummy, d.makeable, d.actual, d.made) == ("fewest", 1, False, 0, True)
    (loss,) = d.losses
    assert (loss.player, loss.card, loss.lost, loss.role) == ("Boris", parse_card("9s"), 1, "defender")
    assert parse_card("7s") in loss.best
    assert loss.cost == Fraction(200, 3)
    assert d.claim is not None and (d.claim.claimed, d.claim.best) == (0, 0)


def test_wrong_whist() -> None:
    """Anna's 6♠ holds nine top tricks (♠AKQJ10 ♥A ♣AKQ); her ♦7 is the side's only trick, Boris's.

    Boris whists alone (Vera passes): Anna writes 2 pulya; Boris writes 1 × 2 = 2 visty and, answering
    alone for 4 tricks, is 3 short: 3 × 2 = 6 gora. Effective gora 0 / 8 / 2, mean 10/3: his worth is
    2 + 10 × (10/3 − 8) = −134/3. Had he passed too, nobody plays: effective gora 0 / 2 / 2, worth
    10 × (4/3 − 2) = −20/3. His whist was wrong by 38 visty.

    Vera's pass: had she whisted too, each answers for 2: Boris 1 short (2 gora), Vera 2 short (4 gora):
    effective gora 0 / 4 / 6, her worth 10 × (10/3 − 6) = −80/3, against 10 × (10/3 − 2) = 40/3 when she
    passed. Her pass was right.
    """
    (d,) = analyze_events("wrong-whist", read_text(WRONG_WHIST)).deals
    assert (d.double_dummy, d.margin, d.losses) == (9, 3, [])
    boris, vera = sorted(d.whist, key=lambda w: w.seat)
    assert (boris.call, boris.value, boris.alternative_value, boris.right) == \
        ("whist", Fraction(-134, 3), Fraction(-20, 3), False)
    assert (vera.call, vera.value, vera.alternative_value, vera.right) == ("pass", Fraction(40, 3), Fraction(-80, 3),
                                                                          True)


def test_best_discard_and_par() -> None:
    """Anna's miser twelve (♠8 ♣A987 ♦A987 ♥987): keeping the ♠8 she can be caught (1 trick); discarding
    it she is void in spades and sheds both aces on Boris's spade leads, so the best discard makes the
    miser (0 tricks), and miser is the par contract (nothing above it on the ladder makes: with spades
    trumps Boris ruffs her aces)."""
    (d,) = analyze_events("miser", read_text(MISER), options=Options(discard=True, par=True)).deals
    assert d.discard is not None
    assert (d.discard.actual, d.discard.actual_tricks, d.discard.best_tricks) == (parse_cards("Ac Ad"), 1, 0)
    assert d.discard.best & parse_cards("8s")
    assert d.par is not None and d.par.label == "miser"


def test_distinct_discards() -> None:
    """♠AK with nobody's card between them are one run; ♠9 is cut off by ♠10 in another hand: the pairs are
    {run, run}, {run, ♠9}, {run, ♥7}, {♠9, ♥7} — 4, against C(4, 2) = 6 plain pairs."""
    twelve = parse_cards("As Ks 9s 7h")
    assert len(distinct_discards(twelve, parse_cards("10s Qs"))) == 4


def test_unknown_deal_and_paper_deal() -> None:
    with pytest.raises(AnalysisError, match="no deal 5"):
        analyze_events("down-one", read_text(DOWN_ONE), deal=5)
    paper = read_text('[Players "A, B, C"]\n[Rules "sochi"]\nDeal 1: dealer C\nContract: A 6s\n'
                      'Whist: B whist, C pass\nTricks: A 6, B 3, C 1\n')
    (d,) = analyze_events("paper", paper).deals
    assert d.skipped.startswith("paper-level deal")


def test_croatian_stop_counts_tricks_up_to_the_defenders_fifth() -> None:
    """Croatian 3 (diamonds) on DOWN_ONE's hands with ♠ and ♦ swapped: drawing trumps Anna takes five
    trumps and ♣A (6, the Croatian contract's six: made), Boris his four spades. Leading ♣A at trick 1,
    Boris ruffs and cashes his four spades: the defenders' fifth trick stops play with Anna at 0. Every
    trump and every spade keeps the 6 (after a spade lead Boris has four spade tricks only, then Anna ruffs
    or draws trumps); ♣A loses all 6 at once."""
    (d,) = analyze_events("croatian-stop", read_text(CROATIAN_STOP)).deals
    assert (d.unit, d.double_dummy, d.needed, d.makeable, d.actual, d.made) == ("points", 6, 6, True, 0, False)
    (loss,) = d.losses
    assert (loss.player, loss.card, loss.lost) == ("Anna", parse_card("Ac"), 6)
    assert set(loss.best) == set(parse_card(c) for c in "Ad Kd Qd Jd 10d As Ks Qs Js".split()) - \
        set(parse_card(c) for c in "As Ks Qs Js".split()) | set(parse_card(c) for c in "10s 9s 8s 7s".split())
    assert loss.cost is not None and loss.cost > 0


def test_raspasy_bounds() -> None:
    """Raspasy: Anna leads and wins every trick (her spades nobody can follow, her ♣AK top Boris's
    clubs): she cannot hold herself below 10, the others take none; no card changes that."""
    (d,) = analyze_events("raspasy", read_text(RASPASY)).deals
    assert d.kind == "raspasy" and d.goal == ""
    assert [(b.player, b.bound, b.actual) for b in d.bounds] == [("Anna", 10, 10), ("Boris", 0, 0), ("Vera", 0, 0)]
    assert d.losses == [] and d.first_trick == 1


def test_open_raspasy_starts_after_the_talon_tricks() -> None:
    """Sochi turns the talon: ♥7 and ♥8 lead tricks 1 and 2, Vera follows with her hearts and takes both.
    The solver knows no talon-led trick, so the analysis starts at trick 3: Anna, on lead with six spades
    and ♣AK, takes the remaining 8; Vera keeps her 2."""
    (d,) = analyze_events("raspasy-open", read_text(RASPASY_OPEN)).deals
    assert d.first_trick == 3
    assert [(b.player, b.bound, b.actual) for b in d.bounds] == [("Anna", 8, 8), ("Boris", 0, 0), ("Vera", 2, 2)]
    assert any("talon" in n for n in d.notes)


def test_the_lone_whister_answers_for_the_passers_cards_in_open_play() -> None:
    """Vera leads to Anna's 6♠. A club beats it: Anna must play her lone ♣A, Boris (void in clubs) ruffs
    and cashes his four diamonds: 5 tricks for the side. A heart lets Anna ruff, draw trumps and make 6.
    Boris whists alone and open, so he plays Vera's ♥9: the lost trick is his.

    Cost for Boris: after a club, 6♠ down one: Anna 2 gora; Boris writes for the side's 5 tricks 5 × 2 and
    2 consolation = 12, Vera her 2 consolation; effective gora 2 / 0 / 0, his worth 12 + 10 × 2/3 = 56/3.
    After the heart, made: Anna 2 pulya, Boris 4 × 2 = 8 visty, worth 8 + 10 × (4/3 − 2) = 4/3. The card
    cost him 52/3."""
    (d,) = analyze_events("open-whist", read_text(OPEN_WHIST)).deals
    (loss,) = d.losses
    assert (loss.holder, loss.seat, loss.player, loss.card, loss.lost) == (2, 1, "Boris", parse_card("9h"), 1)
    assert set(loss.best) == set(parse_card(c) for c in "Kc Qc Jc 10c 9c 8c 7c".split())
    assert loss.cost == Fraction(52, 3)
    assert d.cards == {0: 1, 1: 2}   # Anna's ruff; Boris's ♥Q and Vera's ♥9, both his


@pytest.mark.parametrize("record", [DOWN_ONE, MISER, WRONG_WHIST, CROATIAN_STOP, OPEN_WHIST])
def test_the_python_search_gives_the_same_analysis(record: str) -> None:
    """The numbers do not depend on which search the solver used: the pure-Python one against the default
    (the compiled one where it is built)."""
    events = read_text(record)
    python = analyze_events("x", events, options=Options(native=False))
    assert python.solver == "python"
    default = analyze_events("x", events)
    assert [d.to_json() for d in python.deals] == [d.to_json() for d in default.deals]


def test_a_position_the_solver_refuses_skips_the_deal_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    from preflog.solver import Solver
    from preflog.solver import SolverError

    def refuse(self: Solver, pos: object) -> dict[int, int]:
        raise SolverError("hands of unequal length")

    monkeypatch.setattr(Solver, "card_values", refuse)
    (d,) = analyze_events("down-one", read_text(DOWN_ONE)).deals
    assert d.skipped == "the analysis stopped: hands of unequal length" and d.losses == []
