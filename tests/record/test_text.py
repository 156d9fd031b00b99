"""Text form: the documented example, canonical round trips and every syntax element."""

from __future__ import annotations

import re

import pytest

from preflog.model.bids import IGRA
from preflog.model.bids import MISER
from preflog.model.bids import PASS
from preflog.model.calls import CALL_HALF
from preflog.model.calls import CALL_INVITE
from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.calls import PLAY_CLOSED
from preflog.model.calls import PLAY_OPEN
from preflog.model.cards import parse_card
from preflog.model.cards import parse_cards
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import Claimed
from preflog.model.events import ContraCalled
from preflog.model.events import ContractDeclared
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import PaperResult
from preflog.model.events import PlayModeChosen
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import ScoreRecorded
from preflog.model.events import TalonRevealed
from preflog.model.events import TenChecked
from preflog.model.events import WhistCalled
from preflog.record import RecordError
from preflog.record import read_file
from preflog.record import read_records
from preflog.record import read_text
from preflog.record import write_file
from preflog.record import write_text

HEAD = '[Players "Anna, Boris, Vera"]\n'
HANDS = """Deal 1: dealer C
A: As Ks Qs Js 10s Ac Kc Ad Kd 7h
B: 9s 8s Qc Jc 10c Qd Jd 10d Ah Kh
C: 7s 9c 8c 7c 9d 8d 7d Qh Jh 10h
Talon: 9h 8h
"""


def deal_events(text: str, head: str = HEAD) -> list:
    """Events of the first deal of ``head + text`` after its DealStarted."""
    ev = read_text(head + text)
    return ev[2:]


def test_doc_example_events(sochi_text: str) -> None:
    """The documented Sochi pulka: hand-derived values.

    Hold of 6♣ is code 62 (level 6 × 10 + clubs 2); 7♠ is 71, 6♥ 64, 10NT 105.
    Trick 1 'As 9s 7s' is Anna (seat 0), Boris (1), Vera (2) by their hands; trick 7 is led
    with 9♥, which Anna took from the talon.
    """
    ev = read_text(sochi_text, "example.pref")
    start = ev[0]
    assert start == PulkaStarted(("Anna", "Boris", "Vera"), "sochi+geometric-raspasy", (("raspasy_cap", 4),), 50,
                                 "1", (("event", "Friday club"), ("date", "2024.05.17"), ("place", "Sochi"),
                                       ("id", "club-2024-05-17-1")))
    deal = ev[1]
    assert isinstance(deal, DealStarted) and deal.dealer == 2
    assert deal.hands == (parse_cards("As Ks Qs Js 10s Ac Kc Ad Kd 7h"), parse_cards("9s 8s Qc Jc 10c Qd Jd 10d Ah Kh"),
                          parse_cards("7s 9c 8c 7c 9d 8d 7d Qh Jh 10h"))
    assert deal.talon == parse_cards("9h 8h")
    assert ev[2:7] == [BidMade(0, 61), BidMade(1, 62), BidMade(2, PASS), BidMade(0, 62), BidMade(1, PASS)]
    assert ev[7:12] == [Discarded(0, parse_cards("8h 7h")), ContractDeclared(0, 71), WhistCalled(1, CALL_WHIST),
                        WhistCalled(2, CALL_PASS), PlayModeChosen(1, PLAY_OPEN)]
    cards = [e for e in ev if isinstance(e, CardPlayed)]
    assert len(cards) == 24
    assert cards[:3] == [CardPlayed(0, parse_card("As")), CardPlayed(1, parse_card("9s")),
                         CardPlayed(2, parse_card("7s"))]
    assert cards[18] == CardPlayed(0, parse_card("9h"))
    assert Claimed((2, 0, 0)) in ev
    assert ScoreRecorded(1, 0, 4, (4, 0, 0)) in ev
    assert [e for e in ev if isinstance(e, PaperResult)] == [PaperResult((2, 6, 2)), PaperResult((4, 2, 4))]
    assert TenChecked((1, 9, 0)) in ev and ContractDeclared(1, 105) in ev
    assert ev[-1] == PulkaEnded("stopped")


def test_canonical_text_round_trip(sochi_text: str, croatian_text: str) -> None:
    """text → events → text is canonical and stable; canonical text → events → text is identical."""
    for text in (sochi_text, croatian_text):
        ev = read_text(text)
        canon = write_text(ev)
        assert read_text(canon) == ev
        assert write_text(read_text(canon)) == canon


def test_doc_example_is_canonical_apart_from_comments(sochi_text: str) -> None:
    """The documented example only differs from canonical text by blank lines and how its comments are
    spelt and placed: without their comments the lines are the same, and the canonical text keeps
    every comment (since comments round-trip; before, they were dropped)."""
    def bare(text: str) -> list[str]:
        kept = [ln.split(";")[0].split("{")[0].rstrip() for ln in text.splitlines()]
        return [ln for ln in kept if ln]

    def comments(text: str) -> list[str]:
        return [m.strip() for m in re.findall(r";([^\n]*)|\{([^}]*)\}", text) for m in m if m.strip()]

    events = read_text(sochi_text)
    written = write_text(events)
    assert bare(sochi_text) == bare(written)
    assert comments(written) == comments(sochi_text)
    start = events[0]
    assert isinstance(start, PulkaStarted) and len(start.notes) == 5


def test_lenient_spellings_match_canonical() -> None:
    """Russian keywords, Unicode and Russian cards, names instead of letters, case, spacing and comments
    read to the same events as the canonical Latin record."""
    canonical = HEAD + HANDS + "Auction: A 6s, B pass, C pass\nDiscard: A 8h 7h\nContract: A 6s\n" \
        "Whist: B whist, C pass, B closed\n1: As 9s 7s\n"
    lenient = """[players   "Anna, Boris, Vera"]   ; who sits where
  сдача 1 : сдаёт vera
  anna:  A♠ K♠ Д♠ В♠ 10♠ Тт Кт Тб Кб 7ч
  BORIS: 9s,8s,QC,jc,Tc,Qd,Jd,10d,Ah,Kh
  c:     7♤ 9♧ 8c 7c 9d 8d 7d Qh Jh 10h
  Прикуп: 9h 8h
  Торговля: Anna 6п , Boris пас, Vera PASS  {multi
  line comment}
  снос: 8ч 7ч
  ЗАКАЗ: a 6♠
  вист: boris вист, vera пас, boris втёмную
  Trick 1. As 9s 7s
"""
    assert read_text(lenient) == read_text(canonical)


def test_hold_words_and_miser() -> None:
    """'здесь' repeats the current bid (6♠ = 61); miser is 90."""
    ev = deal_events(HANDS + "Auction: A 6s, B здесь, C miser, A pass, B pass\n")
    assert ev[:5] == [BidMade(0, 61), BidMade(1, 61), BidMade(2, MISER), BidMade(0, PASS), BidMade(1, PASS)]


def test_all_pass_expands_in_bidding_order() -> None:
    """Dealer C (seat 2): first hand is A, so passes come A, B, C; written back as 'all pass'."""
    ev = read_text(HEAD + "Deal 1: dealer C\nAuction: all pass\nTricks: 3 4 3\n")
    assert ev[2:] == [BidMade(0, 0), BidMade(1, 0), BidMade(2, 0), PaperResult((3, 4, 3))]
    assert "Auction: all pass\nTricks: A 3, B 4, C 3\n" in write_text(ev)


def test_four_players_dealer_sits_out() -> None:
    """At 4 the dealer D passes no bid: all pass = A, B, C; D's empty hand is left out."""
    text = '[Players "A, B, C, D"]\nDeal 1: dealer D\nA: As Ks Qs Js 10s 9s 8s 7s Ac Kc\n' \
           "B: Qc Jc 10c 9c 8c 7c Ad Kd Qd Jd\nC: 10d 9d 8d 7d Ah Kh Qh Jh 10h 9h\nTalon: 8h 7h\nAuction: all pass\n"
    ev = read_text(text)
    assert ev[1].hands[3] == 0 and ev[2:] == [BidMade(0, 0), BidMade(1, 0), BidMade(2, 0)]
    assert "D:" not in write_text(ev)
    assert read_text(write_text(ev)) == ev


def test_raspasy_talon_marks_make_no_event() -> None:
    """'(9h)' marks the turned talon card: checked against the talon, no CardPlayed for it."""
    ev = deal_events(HANDS + "Auction: all pass\n1: (9h) 7h Ah Qh\n")
    assert ev[3:] == [CardPlayed(0, parse_card("7h")), CardPlayed(1, parse_card("Ah")), CardPlayed(2, parse_card("Qh"))]
    with pytest.raises(RecordError, match="is not a card of the talon"):
        read_text(HEAD + HANDS + "Auction: all pass\n1: (7h) Ah Qh\n")


def test_talon_derived_from_hands_and_talon_shown() -> None:
    """No Talon line: the talon is the two cards in nobody's hand (9h 8h), so the declarer may
    discard one and play the other; 'Talon shown' records TalonRevealed."""
    text = HANDS.replace("Talon: 9h 8h\n", "") + "Auction: A 6s, B pass, C pass\nTalon shown: 9h 8h\n" \
        "Discard: 8h 7h\nContract: A 6s\n1: 9h Ah 10h\n"
    ev = deal_events(text)
    assert ev[2:5] == [BidMade(2, 0), TalonRevealed(parse_cards("9h 8h")), Discarded(0, parse_cards("8h 7h"))]
    assert ev[-3] == CardPlayed(0, parse_card("9h"))
    assert "Discard: A 8h 7h" in write_text(read_text(HEAD + text))


def test_whist_calls_half_return_contra_invite() -> None:
    """A passer's later whist is written 'return'; contras are named by their order."""
    ev = deal_events("Deal 1: dealer C\nContract: A 6s\nWhist: B pass, C half, B return, C open\n"
                     "Whist: B kontra, A реконтра, B contra, A contra, B invite\n")
    assert ev == [ContractDeclared(0, 61), WhistCalled(1, CALL_PASS), WhistCalled(2, CALL_HALF),
                  WhistCalled(1, CALL_WHIST), PlayModeChosen(2, PLAY_OPEN), ContraCalled(1), ContraCalled(0),
                  ContraCalled(1), ContraCalled(0), WhistCalled(1, CALL_INVITE)]
    out = write_text(read_text(HEAD + "Deal 1: dealer C\nContract: A 6s\nWhist: B pass, C half, B return, C open\n"))
    assert "Whist: B pass, C half, B return, C open" in out
    ev2 = read_text(HEAD + "Deal 1: dealer C\nContract: A 6s\nWhist: B whist, C whist, B contra, A contra, B contra,"
                    " A contra, B contra\n")
    assert "B contra, A recontra, B subcontra, A mortcontra, B contra" in write_text(ev2)
    assert PLAY_CLOSED in [e.mode for e in deal_events("Deal 1: dealer C\nWhist: B c\n")]


def test_croatian_bids_and_igra(croatian_text: str) -> None:
    """Croatian: '2' is bid 2, 'igra' 8, contract '4' (hearts) is 4; 'bettel' reads as 6."""
    ev = read_text(croatian_text)
    assert ev[2:5] == [BidMade(0, 2), BidMade(1, IGRA), BidMade(2, 0)]
    assert ev[5] == ContractDeclared(1, 4)
    assert ContractDeclared(1, 6) in read_text(croatian_text.replace("Contract: B 4", "Contract: B bettel"))
    with pytest.raises(RecordError, match="is not a contract"):
        read_text(croatian_text.replace("Contract: B 4", "Contract: B igra"))


def test_counts_and_scores() -> None:
    """Positional counts, missing seats as 0, and score parts in any order with missing parts 0."""
    ev = deal_events("Deal 1: dealer C\nClaim: B 3\nCheck: 0 10 0\nTricks: A 1, C 2\n"
                     "Score: B gora 6 pulya -2\nScore: C visty A=10, B=4\nЗапись: A пуля 2 гора 0 висты B=1 C=2\n")
    assert ev == [Claimed((0, 3, 0)), TenChecked((0, 10, 0)), PaperResult((1, 0, 2)),
                  ScoreRecorded(1, -2, 6, (0, 0, 0)), ScoreRecorded(2, 0, 0, (10, 4, 0)),
                  ScoreRecorded(0, 2, 0, (0, 1, 2))]


def test_dealer_line_and_numbers() -> None:
    """'Deal' without number plus a 'Dealer:' line; trick numbers optional; bare card lines are tricks."""
    text = HANDS.replace("Deal 1: dealer C", "Deal\nDealer: Vera") + "Auction: all pass\nAs 9s 7s\n2) Ks 8s 9c\n"
    ev = read_text(HEAD + text)
    assert ev[1].dealer == 2 and len([e for e in ev if isinstance(e, CardPlayed)]) == 6


def test_multiple_pulkas(sochi_text: str, croatian_text: str) -> None:
    """Two pulkas in one file: read_records gives both; read_text refuses; write_text writes both."""
    recs = read_records(sochi_text + "\n" + croatian_text)
    assert [r.pulka.rules for r in recs] == ["sochi+geometric-raspasy", "croatian"]
    assert recs[0].id == "club-2024-05-17-1" and recs[1].id is None
    with pytest.raises(RecordError, match="holds 2 pulkas"):
        read_text(sochi_text + croatian_text)
    both = write_text(recs)
    assert [r.events for r in read_records(both)] == [r.events for r in recs]


def test_options_are_typed_and_escaped() -> None:
    """Option values are stored as Rules holds them: int, bool, tuple; quotes escape with backslash."""
    text = HEAD + '[Option "raspasy_cap=4"]\n[Option "must-trump=false"]\n' \
        '[Option "hold_forbidden_on=[\\"miser\\", \\"6s\\"]"]\n[Event "The \\"big\\" game"]\n'
    ev = read_text(text)
    assert ev[0].overrides == (("raspasy_cap", 4), ("must_trump", False), ("hold_forbidden_on", ("miser", "6s")))
    assert ev[0].meta == (("event", 'The "big" game'),)
    assert read_text(write_text(ev)) == ev


def test_unicode_style_reads_back(sochi_text: str) -> None:
    ev = read_text(sochi_text)
    uni = write_text(ev, style="unicode")
    assert "A: A♠ K♠" in uni and "Contract: A 7♠" in uni
    assert read_text(uni) == ev


def test_files(tmp_path, sochi_text: str) -> None:
    ev = read_text(sochi_text)
    write_file(tmp_path / "p.pref", ev)
    write_file(tmp_path / "p.json", ev)
    assert read_file(tmp_path / "p.pref") == ev == read_file(tmp_path / "p.json")
    (tmp_path / "bad.pref").write_bytes(b"\xff\xfe[")
    with pytest.raises(RecordError, match="UTF-8"):
        read_file(tmp_path / "bad.pref")
