"""Located errors: file, line, column, offending text and what was expected; never other exceptions."""

from __future__ import annotations

import pytest

from preflog.model.events import CardPlayed
from preflog.model.events import ContractDeclared
from preflog.model.events import DealStarted
from preflog.model.events import PulkaStarted
from preflog.record import RecordError
from preflog.record import RecordWriteError
from preflog.record import read_json
from preflog.record import read_text
from preflog.record import write_text

GOOD = """[Players "Anna, Boris, Vera"]
Deal 1: dealer C
A: As Ks Qs Js 10s Ac Kc Ad Kd 7h
B: 9s 8s Qc Jc 10c Qd Jd 10d Ah Kh
C: 7s 9c 8c 7c 9d 8d 7d Qh Jh 10h
Talon: 9h 8h
Auction: A 6s, B pass, C pass
Discard: A 8h 7h
Contract: A 6s
Whist: B whist, C pass
1: As 9s 7s
"""


def swap(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


# (text, line, column, offending text, words of the problem); columns counted by hand, 1-based.
CASES = [
    (swap("1: As 9s 7s", "1: As 9s Xh"), 11, 10, "Xh", "is not a card"),
    (swap("1: As 9s 7s", "1: As 9s 8h"), 11, 10, "8h", "was discarded"),
    (swap("1: As 9s 7s", "1: As Ks 7s"), 11, 7, "Ks", "already played to trick 1"),
    (swap("1: As 9s 7s", "1: As 9s 7s\n2: Ks 8s\n3: 9c"), 13, 4, "9c", "has not played to trick 2"),
    (swap("1: As 9s 7s", "2: As 9s 7s"), 11, 1, "2", "is not the next trick number"),
    (swap("Auction: A 6s", "Auction: A 6z"), 7, 12, "6z", "is not a bid"),
    (swap("Auction: A 6s, B pass", "Auction: A 6s, Dima pass"), 7, 16, "Dima", "is not a player"),
    (swap("Auction: A 6s", "Auction: A hold"), 7, 12, "hold", "holds no bid"),
    (swap("Whist: B whist", "Whist: B wist"), 10, 10, "wist", "is not a whist call"),
    (swap("Discard: A 8h 7h", "Discard: A 8h 9s"), 8, 15, "9s", "neither in Anna's hand nor in the talon"),
    (swap("Contract: A 6s", "Contract: A pass"), 9, 13, "pass", "is not a contract"),
    (swap("B: 9s 8s", "B: As 8s"), 4, 4, "As", "already in Anna's hand"),
    (swap("Talon: 9h 8h", "Talon: 9h 7h"), 6, 11, "7h", "in Anna's hand, not in the talon"),
    (swap("Talon: 9h 8h", "Talon: 9h 9h"), 6, 11, "9h", "listed twice"),
    (swap("Deal 1: dealer C", "Deal 2: dealer C"), 2, 6, "2", "is not the next deal number"),
    (swap("Deal 1: dealer C", "Deal 1: dealer Q"), 2, 16, "Q", "is not a player"),
    (swap("Contract: A 6s", "Contract: A 6s {open"), 9, 16, "{", "never closed"),
    (swap("Contract: A 6s", "Contract: A 6s }"), 9, 16, "}", "never opened"),
    (swap("Contract: A 6s", "Bogus line here"), 9, 1, "Bogus", "is not a record line"),
    (swap("Contract: A 6s", "A: 7h"), 9, 1, "A", "gives a hand after the auction"),
    (swap('[Players "Anna, Boris, Vera"]', '[Players "Anna, Boris"]'), 1, 11, "Anna, Boris", "3 or 4 players"),
    (swap('[Players "Anna, Boris, Vera"]', '[Players "Anna, Vera, B"]'), 1, 23, "B", "seat letter of seat 2"),
    (swap('[Players "Anna, Boris, Vera"]', '[Players "Anna, Boris, Vera"]\n[Rules "sochy"]'), 2, 9, "sochy",
     "is not a rules spec"),
    (swap('[Players "Anna, Boris, Vera"]', '[Players "Anna, Boris, Vera"]\n[Option "raspasy_cap=x"]'), 2, 10,
     "raspasy_cap=x", "is not a valid option"),
    (swap('[Players "Anna, Boris, Vera"]', '[Players "Anna, Boris, Vera"]\n[Option "nonsense=1"]'), 2, 10,
     "nonsense=1", "is not a valid option"),
    (swap('[Players "Anna, Boris, Vera"]', '[Players "Anna, Boris, Vera"]\n[Rules "sochi"]\n[rules "rostov"]'), 3, 2,
     "rules", "repeated tag"),
    (swap('[Players "Anna, Boris, Vera"]', '[Players Anna]'), 1, 1, "[Players Anna]", "is not a tag pair"),
    (swap('[Players "Anna, Boris, Vera"]\n', ''), 1, 1, "Deal 1: dealer C", "comes before the tags"),
    (GOOD + "Claim: A 1, B 1, A 0\n", 12, 18, "A", "is listed twice"),
    (GOOD + "Claim: 1 2\n", 12, 1, "", "lists 2 trick counts for 3 players"),
    (GOOD + "Claim: A -1\n", 12, 10, "-1", "is not a trick count"),
    (GOOD + "Score: A pulya x\n", 12, 16, "x", "is not a score"),
    (GOOD + "Score: A visty B=1 junk\n", 12, 20, "junk", "is not a visty entry"),
    (GOOD + "End: closed\nDeal 2: dealer A\n", 13, 1, "Deal 2: dealer A", "after the End line"),
]


@pytest.mark.parametrize(("text", "line", "column", "bad", "problem"), CASES)
def test_error_location(text: str, line: int, column: int, bad: str, problem: str) -> None:
    with pytest.raises(RecordError) as info:
        read_text(text, "game.pref")
    err = info.value
    assert (err.source, err.line, err.column, err.text) == ("game.pref", line, column, bad), str(err)
    assert problem in str(err)
    assert str(err).startswith(f"game.pref:{line}:{column}: ")


def test_message_shape() -> None:
    """The message reads 'file:line:col: 'text' problem (expected …)'."""
    with pytest.raises(RecordError) as info:
        read_text(swap("1: As 9s 7s", "1: As 9s Xh"), "game.pref")
    assert str(info.value) == "game.pref:11:10: 'Xh' is not a card (expected rank then suit, e.g. Qh, 10♥, Дч)"
    assert info.value.expected == "rank then suit, e.g. Qh, 10♥, Дч"


def test_play_without_hands_is_located() -> None:
    with pytest.raises(RecordError, match=r"game.pref:3:1: card play needs the hands"):
        read_text('[Players "A, B, C"]\nDeal 1: dealer C\n1: As Ks Qs\n', "game.pref")


def test_json_errors_name_the_path() -> None:
    doc = {"players": ["A", "B", "C"], "deals": [{"dealer": "C", "steps": [{"contract": ["A", "6x"]}]}]}
    with pytest.raises(RecordError) as info:
        read_json(doc, "game.json")
    assert info.value.path == "$.deals[0].steps[0].contract[1]" and info.value.text == "6x"
    assert str(info.value).startswith("game.json: $.deals[0].steps[0].contract[1]: '6x' is not a bid")
    with pytest.raises(RecordError) as info:
        read_json('{"pulkas": [\n  {"players": ]}', "game.json")
    assert (info.value.line, info.value.column) == (2, 15)
    with pytest.raises(RecordError, match=r"\$\.deals\[0\]\.steps\[0\]\.bogus: 'bogus' is not a known field"):
        read_json({"players": ["A", "B", "C"], "deals": [{"dealer": "C", "steps": [{"bogus": 1}]}]}, "game.json")


START = PulkaStarted(("Anna", "Boris", "Vera"))


@pytest.mark.parametrize(("events", "problem"), [
    ([DealStarted(0)], "before a pulka_started"),
    ([START, ContractDeclared(0, 61)], "outside a deal"),
    ([START, DealStarted(0), ContractDeclared(0, 66)], "66 is not a contract code"),
    ([START, DealStarted(0), CardPlayed(0, 3)], "needs the hands"),
    ([START, DealStarted(0, (1, 2, 4), 8), CardPlayed(1, 0)], "not in the hand of seat 1"),
    ([START, DealStarted(5)], "seat 5"),
    ([PulkaStarted(("Anna", "B", "Vera", "Dima", "Eva"))], "3 or 4 players"),
    ([PulkaStarted(("B", "Anna", "Vera"))], "seat letter"),
    ([PulkaStarted(("Anna", "Boris", "Vera"), meta=(("Date", "x"),))], "lower-case tag name"),
])
def test_unwritable_events(events: list, problem: str) -> None:
    with pytest.raises(RecordWriteError, match=problem):
        write_text(events)
