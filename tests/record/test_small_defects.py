"""Issue 13, item 14 in the record layer: a pool of 0 or less is refused; a hand of 11 (or 9) cards and
a discard of 3 (or 1) cards are reported at the line that holds them, not at the trick where a card
later turns up; a bid after the auction is ``auction_over``, as docs/findings.md says."""

from __future__ import annotations

import pytest

from preflog.engine.replay import audit
from preflog.record import RecordError
from preflog.record import read_json
from preflog.record import read_text

from .conftest import doc_blocks

HAND_A = "A: As Ks Qs Js 10s Ac Kc Ad Kd 7h"  # line 13 of the Sochi example
DISCARD = "Discard: A 8h 7h"                 # line 18


def located(text: str) -> RecordError:
    with pytest.raises(RecordError) as exc:
        read_text(text, "x.pref")
    return exc.value


def line_of(text: str, line: str) -> int:
    return text.splitlines().index(line) + 1


@pytest.mark.parametrize("pool", ["0", "-5", "-0"])
def test_a_pool_below_one_is_refused(pool: str) -> None:
    text = doc_blocks("pref")[0]
    err = located(text.replace('[Pool "50"]', f'[Pool "{pool}"]'))
    assert str(err) == f"x.pref:4:8: {pool!r} is not a pool size (expected a whole number of at least 1, e.g. 50)"
    with pytest.raises(RecordError, match=r"\$\.pool: .* is not a pool size"):
        read_json({"players": ["Anna", "Boris", "Vera"], "pool": int(pool)})


@pytest.mark.parametrize("extra, count", [(" 9h", 11), ("", 9)])
def test_a_hand_of_the_wrong_size_is_reported_at_its_line(extra: str, count: int) -> None:
    """9h is a talon card (an 11-card hand); dropping 7h leaves nine (7h then turns up in nobody's hand)."""
    text = doc_blocks("pref")[0]
    hand = HAND_A + extra if extra else HAND_A.removesuffix(" 7h")
    err = located(text.replace(HAND_A, hand))
    assert (err.line, err.column) == (line_of(text, HAND_A), 4)
    assert err.problem == f"is a hand of {count} cards" and err.expected == "10 cards in a hand"


@pytest.mark.parametrize("discard, count", [("8h 7h Kd", 3), ("8h", 1)])
def test_a_discard_of_the_wrong_size_is_reported_at_its_line(discard: str, count: int) -> None:
    """Kd, discarded as a third card, would otherwise be reported at trick 6 where Anna plays it."""
    text = doc_blocks("pref")[0]
    err = located(text.replace(DISCARD, f"Discard: A {discard}"))
    assert (err.line, err.column) == (line_of(text, DISCARD), 12)
    assert err.problem == f"is a discard of {count} card{'' if count == 1 else 's'}"


def test_a_paper_discard_of_the_wrong_size_is_still_the_audits_finding() -> None:
    """Without hands the reader has nothing to keep track of: the audit names the rule."""
    text = '[Players "Anna, Boris, Vera"]\nDeal 1: dealer C\nAuction: A 6s, B pass, C pass\nDiscard: A 8h 7h Kd\n'
    findings = audit(read_text(text)).findings
    assert [(f.code, f.deal, f.seq) for f in findings][:1] == [("discard_not_two", 1, 6)]


def test_a_bid_after_the_auction_is_auction_over() -> None:
    text = doc_blocks("pref")[0]
    auction = "Auction: A 6s, B 6c, C pass, A hold, B pass"
    findings = audit(read_text(text.replace(auction, auction + ", A 7s"))).findings
    assert [(f.code, f.deal, f.seq) for f in findings] == [("auction_over", 1, 8)]
    assert findings[0].message == ("bid 7s by Anna (seat 0) after the auction of deal 1 has ended; expected the "
                                   "discard of Anna (seat 0)")


def test_a_call_after_a_croatian_auction_is_auction_over() -> None:
    text = doc_blocks("pref")[1]
    auction = "Auction: A 2, B igra, C pass"
    assert auction in text
    findings = audit(read_text(text.replace(auction, auction + ", B 3"))).findings
    assert [(f.code, f.deal, f.seq) for f in findings] == [("auction_over", 1, 6)]
    assert findings[0].message.startswith("call 3 by Branko (seat 1) after the auction of deal 1 has ended")
