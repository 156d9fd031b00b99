"""House rule «без трёх» (``allow_concede_down3``): the declarer concedes down three instead of
playing. Record syntax: the declarer's call ``concede`` (or ``без трёх``) on the ``Whist:`` line,
after a trick contract and before the first card or the paper result.

Golden numbers: the declarer writes gora ``remiz_mult × V × 3`` and nobody writes visty (no
consolation either): a 7 (V = 4) costs 4 × 3 = 12 in Sochi and 2 × 4 × 3 = 24 in Leningrad.
"""

from __future__ import annotations

import pytest

from preflog.engine.replay import audit
from preflog.model.calls import CALL_CONCEDE
from preflog.model.events import WhistCalled
from preflog.model.outcome import DealKind
from preflog.record.api import read_text
from preflog.record.api import write_text
from tests.deals import SEVEN_SPADES

HEAD = """[Players "A, B, C"]
[Rules "{rules}"]
[Option "allow_concede_down3={allow}"]
[Pool "20"]

"""

PAPER = """Deal 1: dealer C
Contract: A 7s
Whist: B whist, C whist, A {word}
Score: A pulya 0 gora {gora} visty B=0 C=0
Score: B pulya 0 gora 0 visty A=0 C=0

Deal 2: dealer A
Contract: B 6h
Whist: C whist, A pass
Tricks: A 2, B 6, C 2
"""

CARDS = "Deal 1: dealer C\n" + SEVEN_SPADES + """Whist: B whist, C pass
{play}
"""


def record(body: str, allow: str = "true", rules: str = "sochi") -> str:
    return HEAD.format(rules=rules, allow=allow) + body


@pytest.mark.parametrize(("rules", "word", "gora"), [
    ("sochi", "concede", 12),      # V = 4, remiz_mult 1: 4 × 3
    ("leningrad", "без трёх", 24),  # remiz_mult 2: 2 × 4 × 3
])
def test_paper_concession_writes_three_undertricks_and_no_visty(rules: str, word: str, gora: int) -> None:
    """Deal 1: A declares 7♠, B and C whist, A concedes: gora 12 (Sochi) / 24 (Leningrad), B and C write
    nothing; the Score lines (checked by the audit) say so. The deal reads back as the same events."""
    events = read_text(record(PAPER.format(word=word, gora=gora), rules=rules))
    assert WhistCalled(0, CALL_CONCEDE) in events
    res = audit(events)
    assert res.ok, [(f.code, f.message) for f in res.findings]
    first = res.deals[0].outcome
    assert first is not None and first.kind == DealKind.CONCEDED and first.tricks == ()
    assert res.sheet is not None and res.sheet.gora[0] == gora and res.sheet.visty[1][0] == res.sheet.visty[2][0] == 0
    text = write_text(events)
    assert "Whist: B whist, C whist, A concede" in text and read_text(text) == events


def test_concession_is_a_finding_when_the_rules_do_not_allow_it() -> None:
    """allow_concede_down3=false (every preset): the concession is `concede_not_allowed`, naming the option."""
    res = audit(read_text(record(PAPER.format(word="concede", gora=12), allow="false")))
    assert "concede_not_allowed" in res.codes()
    f = next(f for f in res.findings if f.code == "concede_not_allowed")
    assert f.deal == 1 and "allow_concede_down3" in f.message


@pytest.mark.parametrize(("play", "why"), [
    ("Whist: A concede", None),                                       # before the first card: allowed
    ("1: As 9s 7s\nWhist: A concede", "play has begun"),             # after a trick
    ("Whist: B concede", "only the declarer"),                        # a defender
])
def test_card_level_concession_before_play_only(play: str, why: str | None) -> None:
    """At card level the declarer may concede after the whist calls and before the first card; after a
    trick, or by a defender, it is `concede_not_allowed` with the reason."""
    res = audit(read_text(record(CARDS.format(play=play))))
    if why is None:
        assert "concede_not_allowed" not in res.codes()
        first = res.deals[0].outcome
        assert first is not None and first.kind == DealKind.CONCEDED
        assert res.sheet is not None and res.sheet.gora == [12, 0, 0]
    else:
        msgs = [f.message for f in res.findings if f.code == "concede_not_allowed"]
        assert msgs and why in msgs[0]


def test_a_miser_cannot_be_conceded() -> None:
    """Miser is not a trick contract: no concession down three."""
    body = """Deal 1: dealer C
Contract: A miser
Whist: A concede
Tricks: A 0, B 5, C 5
"""
    res = audit(read_text(record(body)))
    msgs = [f.message for f in res.findings if f.code == "concede_not_allowed"]
    assert msgs and "miser" in msgs[0]
