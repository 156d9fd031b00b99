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


# Every word a Croatian call can be written with, in the forms people type (case and spacing varied), and
# words that are no call: the record reader and the engine read them from one table, so they agree.
CALL_WORDS = ["pass", "Пас", "dalje", "igra", "ИГРА", "hand", "bettel", "betl", "Беттель", "sanac", "sans", "бк",
              "igra-bettel", "hand-bettel", "bettel-hand", "igra  bettel", "Беттель с руки", "berac",
              "igra-sanac", "hand-sanac", "sanac-hand", "igra sanac", "санац  с руки",
              "2", "3", "4", "5", "6", "7", "1", "8", "miser", "6s", "igrabettel", "", "-", "p"]
HOLDS = ["hold", "здесь", "мои", "moje", "MOJE", "i ja", "i  ja", "И я", "держу", "here", "mine"]


def _reader(word: str, current: int) -> int | str:
    """What the record reader makes of an auction word: its bid code, the held number, or refused."""
    from preflog.model.bids import CROATIAN_BIDS
    from preflog.model.bids import HOLD_WORDS
    from preflog.model.bids import BidError
    from preflog.model.bids import call_words
    if call_words(word) in HOLD_WORDS:
        return current if 2 <= current <= 7 else "refused"
    try:
        return CROATIAN_BIDS.parse(word)
    except BidError:
        return "refused"


def _engine(word: str, current: int) -> int | str:
    from preflog.engine.croatian.auction import parse_hr_call
    from preflog.model.bids import BidError
    try:
        return parse_hr_call(word, current)
    except BidError:
        return "refused"


def test_reader_and_engine_read_the_same_croatian_words() -> None:
    """Before, the engine alone knew «беттель с руки», «berac», «и я», «держу» and spaced forms, and the
    reader alone «here» and «mine»: one record's auction read differently on the two paths."""
    for word in CALL_WORDS + HOLDS:
        for current in (0, 4):
            assert _reader(word, current) == _engine(word, current), (word, current)
    assert _reader("Беттель с руки", 0) == IGRA_BETTEL and _reader("и я", 4) == 4 and _engine("mine", 3) == 3


def test_a_record_with_spoken_hand_calls_and_holds_reads() -> None:
    text = TEXT.replace("B igra-bettel, C igra-sanac", "B Беттель с руки, C санац с руки")
    assert read_text(text) == read_text(TEXT)
    held = """[Players "A, B, C"]
[Rules "croatian"]

Deal 1: dealer C
Auction: A 2, B pass, C 3, A и я, C 4, A держу, C pass
"""
    bids = [e for e in read_text(held) if isinstance(e, BidMade)]
    assert [b.bid for b in bids] == [2, 0, 3, 3, 4, 4, 0]
