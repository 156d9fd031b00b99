"""The double-dummy value of every card a player could play (``DealAnalysis.values``), as the deal viewer
of ``analyze --html`` shows it under each card: checked by hand on tests/analysis's Sochi 6♠ that goes
down one (test_deal.py's docstring works it out)."""

from __future__ import annotations

from preflog.analysis import Options
from preflog.analysis import analyze_events
from preflog.model.cards import parse_card
from preflog.model.cards import parse_cards
from preflog.record.api import read_text
from preflog.views.analysis import analysis_view

from .records import DOWN_ONE

# seq 10 is Anna's opening lead (1 the pulka, 2 the deal, 3-5 the bids, 6 the discard, 7 the contract,
# 8-9 the whists); seq 11 Boris's ruff of it.
LEAD, RUFF = 10, 11


def test_every_card_of_the_opening_lead_has_its_value() -> None:
    """Anna's ten cards at trick 1: a trump or a diamond keeps her 6 tricks (five trumps and ♣A); ♣A
    led into Boris's void gives 5. Her own tricks count, and the best for her is the most: 6."""
    a = analyze_events("down-one", read_text(DOWN_ONE), options=Options(discard=False)).deals[0]
    whose, values, best = a.values[LEAD]
    assert whose == 0 and best == 6
    hand = parse_cards("As Ks Qs Js 10s Ac 10d 9d 8d 7d")
    assert set(values) == {c for c in range(32) if hand >> c & 1}
    assert {c for c, v in values.items() if v == 5} == {parse_card("Ac")}
    assert all(v == 6 for c, v in values.items() if c != parse_card("Ac"))


def test_a_defender_s_values_count_the_declarer_s_tricks() -> None:
    """Boris, void in clubs, answers ♣A with a trump (♠7 ♠8 ♠9 all ruff: Anna ends with her 5 trumps)
    or a discard (Anna keeps ♣A: 6). The values are still Anna's tricks; Boris's best is the fewest: 5."""
    a = analyze_events("down-one", read_text(DOWN_ONE), options=Options(discard=False)).deals[0]
    whose, values, best = a.values[RUFF]
    assert whose == 0 and best == 5
    for card in ("9s", "8s", "7s"):
        assert values[parse_card(card)] == 5
    assert all(v == 6 for c, v in values.items() if c not in parse_cards_set("9s 8s 7s"))
    # the viewer's data: seq → [whose, [[card, tricks], …], best], every analysed card
    view = analysis_view(analyze_events("down-one", read_text(DOWN_ONE), options=Options(discard=False)))
    assert view["values"][str(RUFF)] == [0, sorted([c, v] for c, v in values.items()), 5]
    assert set(view["values"]) == {str(s) for s in range(LEAD, LEAD + 30)}


def parse_cards_set(text: str) -> set[int]:
    mask = parse_cards(text)
    return {c for c in range(32) if mask >> c & 1}
