"""Bettel and Sanac from hand, named at once in the auction (seed 000 examples 6 and 7)."""

from preflog.model.bids import IGRA_BETTEL
from preflog.model.bids import IGRA_SANAC
from preflog.model.bids import format_hr_bid
from preflog.model.bids import parse_hr_bid
from preflog.model.events import BidMade
from preflog.record.api import read_text
from preflog.record.api import write_text

TEXT = """[Players "A, B, C"]
[Rules "croatian"]

Deal 1: dealer C
Auction: A 2, B igra-bettel, C igra-sanac
Contract: C sanac
Whist: A pass, B pass
"""


def test_hand_calls_read_and_write_back() -> None:
    assert parse_hr_bid("hand-bettel") == IGRA_BETTEL == 16 and parse_hr_bid("Igra-Sanac") == IGRA_SANAC == 17
    assert format_hr_bid(16) == "igra-bettel" and format_hr_bid(17) == "igra-sanac"
    ev = read_text(TEXT)
    assert [e for e in ev if isinstance(e, BidMade)] == [BidMade(0, 2), BidMade(1, 16), BidMade(2, 17)]
    assert read_text(write_text(ev)) == ev
    assert "Auction: A 2, B igra-bettel, C igra-sanac" in write_text(ev)
