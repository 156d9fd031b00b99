"""Croatian auction: the seven examples of seed 000 (legal vectors) and their near misses.

Seats: A = 0 (first hand), B = 1, C = 2; the dealer is C, so the bidding order is A, B, C.
Codes: pass 0, numbers 2–7, igra 8, Bettel from hand 16, Sanac from hand 17 (module doc).
"""

from __future__ import annotations

import pytest

from preflog.engine.codes import Code
from preflog.engine.codes import codes_of
from preflog.engine.croatian.auction import CroatianAuction
from preflog.engine.croatian.auction import parse_hr_call
from preflog.engine.families import family_of
from preflog.engine.findings import IllegalAction
from preflog.model.bids import IGRA
from preflog.model.bids import IGRA_BETTEL
from preflog.model.bids import IGRA_SANAC
from preflog.model.bids import PASS
from preflog.model.bids import BidError
from preflog.model.bids import format_hr_bid
from preflog.model.outcome import NO_SEAT
from preflog.rules.presets import resolve

A, B, C = 0, 1, 2
RULES = resolve("croatian")


def play(calls: list[tuple[int, int]], rules=RULES) -> CroatianAuction:
    auction = family_of(rules).deal.AUCTION_TYPE(rules, (A, B, C))
    assert isinstance(auction, CroatianAuction)
    for seat, code in calls:
        auction.bid(seat, code)
    return auction


def illegal(calls: list[tuple[int, int]], seat: int, code: int, rules=RULES) -> str:
    auction = play(calls, rules)
    assert not auction.can_bid(seat, code)
    with pytest.raises(IllegalAction) as exc:
        auction.bid(seat, code)
    assert exc.value.code in codes_of("Auction")
    return exc.value.code


def test_registered_for_the_family() -> None:
    assert family_of("croatian").deal.AUCTION_TYPE is CroatianAuction


def test_example_1_numbers_then_two_passes() -> None:
    """Seed 000 ex. 1: A 2, B 3, C 4, A pass, B pass → C declarer with the talon, may order 4, 5, 6, 7."""
    a = play([(A, 2), (B, 3), (C, 4), (A, PASS), (B, PASS)])
    assert (a.done, a.winner, a.final_bid, a.hand_game) == (True, C, 4, False)
    assert a.allowed_contracts() == (4, 5, 6, 7)
    with pytest.raises(IllegalAction) as exc:
        a.verify_contract(3)
    assert exc.value.code == Code.CONTRACT_BELOW_BID


def test_example_2_holds() -> None:
    """Seed 000 ex. 2: A pass, B 2, C 3, B «здесь» (3), C 4, B «здесь» (4), C pass → B with the talon, 4..7."""
    a = play([(A, PASS), (B, 2), (C, 3), (B, 3), (C, 4), (B, 4), (C, PASS)])
    assert (a.winner, a.final_bid, a.hand_game) == (B, 4, False)
    assert a.allowed_contracts() == (4, 5, 6, 7)


def test_example_3_hold_then_raise() -> None:
    """Seed 000 ex. 3: A 2, B 3, C 4, A pass, B здесь, C 5, B pass → C with the talon, may order 5, 6, 7."""
    a = play([(A, 2), (B, 3), (C, 4), (A, PASS), (B, 4), (C, 5), (B, PASS)])
    assert (a.winner, a.final_bid, a.hand_game) == (C, 5, False)
    assert a.allowed_contracts() == (5, 6, 7)


def test_example_4_two_igra_name_contracts() -> None:
    """Seed 000 ex. 4: A 2, B igra, C igra; B names hearts (4), C clubs (5) → C plays clubs from hand only.
    A bid a number, so igra knocks him out: he makes no further call ("-" in the seed's table)."""
    a = play([(A, 2), (B, IGRA), (C, IGRA)])
    assert a.naming and a.to_move == B
    assert not a.can_bid(A, PASS)
    a.bid(B, 4)
    assert a.to_move == C and a.legal_bids(C) == [PASS, 5]
    a.bid(C, 5)
    assert (a.done, a.winner, a.final_bid, a.hand_game, a.named_contract) == (True, C, 5, True, 5)
    assert a.allowed_contracts() == (5,)
    with pytest.raises(IllegalAction) as exc:
        a.verify_contract(7)
    assert exc.value.code == Code.HAND_CONTRACT_CHANGED


def test_example_5_single_igra_any_contract() -> None:
    """Seed 000 ex. 5: A igra, B pass, C pass → A from hand, may order 2..7 (any suit, Bettel, Sanac)."""
    a = play([(A, IGRA), (B, PASS), (C, PASS)])
    assert (a.winner, a.final_bid, a.hand_game, a.named_contract) == (A, IGRA, True, 0)
    assert a.allowed_contracts() == (2, 3, 4, 5, 6, 7)


def test_example_6_bettel_from_hand() -> None:
    """Seed 000 ex. 6: A 2, B Bettel (from hand), C pass → B plays Bettel without the talon."""
    a = play([(A, 2), (B, IGRA_BETTEL), (C, PASS)])
    assert (a.winner, a.final_bid, a.hand_game) == (B, 6, True)
    assert a.allowed_contracts() == (6,)


def test_example_7_sanac_beats_bettel() -> None:
    """Seed 000 ex. 7: A 2, B Bettel, C Sanac → C plays Sanac without the talon (both named at once:
    no naming turns)."""
    a = play([(A, 2), (B, IGRA_BETTEL), (C, IGRA_SANAC)])
    assert (a.done, a.winner, a.final_bid, a.hand_game) == (True, C, 7, True)
    assert a.allowed_contracts() == (7,)


def test_all_pass() -> None:
    """Everybody passes → no declarer, final bid PASS, no contract may be declared (refe)."""
    a = play([(A, PASS), (B, PASS), (C, PASS)])
    assert (a.done, a.winner, a.final_bid, a.to_move) == (True, NO_SEAT, PASS, NO_SEAT)
    assert a.allowed_contracts() == ()
    with pytest.raises(IllegalAction) as exc:
        a.verify_contract(2)
    assert exc.value.code == Code.NO_DECLARER


def test_third_hand_opens_after_two_passes() -> None:
    """A pass, B pass: C still speaks; C 2 wins at once with the talon."""
    a = play([(A, PASS), (B, PASS)])
    assert a.to_move == C and not a.done
    a.bid(C, 2)
    assert (a.winner, a.final_bid) == (C, 2)


@pytest.mark.parametrize("calls, seat, code, expected", [
    ([(A, 2)], B, 4, Code.JUMP_BID),                                       # ex. 1 with a jump 2 → 4
    ([], A, 3, Code.JUMP_BID),                                             # the first number is 2
    ([(A, 2), (B, 3), (C, PASS)], A, IGRA, Code.IGRA_AFTER_NUMBER),        # ex. 4 with igra after a number
    ([(A, 2), (B, 3), (C, PASS)], A, IGRA_BETTEL, Code.HAND_CONTRACT_NOT_FIRST_CALL),  # ex. 6, Bettel late
    ([(A, IGRA)], B, 2, Code.NUMBER_AFTER_IGRA),                           # ex. 5 with a number after igra
    ([(A, 2)], B, 2, Code.HOLD_NOT_ALLOWED),                               # "здесь" without an own number
    ([(A, PASS), (B, 2), (C, 3), (B, 3)], C, 3, Code.HOLD_NOT_ALLOWED),    # ex. 2: C may not hold back
    ([(A, 2), (B, 3)], C, 2, Code.BID_NOT_ABOVE_LAST),
    ([(A, 2)], C, 3, Code.BID_OUT_OF_TURN),
    ([(A, PASS), (B, 2), (C, 3)], A, 4, Code.BID_AFTER_PASS),
    ([(A, 2), (B, IGRA), (C, IGRA)], A, PASS, Code.BID_AFTER_PASS),        # knocked out by igra
    ([(A, 2)], B, 1, Code.BAD_BID),
    ([(A, 2)], 3, 3, Code.SEAT_NOT_IN_AUCTION),
    ([(A, 2), (B, PASS), (C, PASS)], A, 3, Code.AUCTION_OVER),
    ([(A, IGRA), (B, IGRA), (C, PASS)], A, IGRA, Code.IGRA_IN_NAMING),
    ([(A, IGRA), (B, IGRA), (C, PASS)], A, 6, Code.HAND_BETTEL_NOT_AT_ONCE),
    ([(A, IGRA), (B, IGRA), (C, PASS), (A, 4)], B, 3, Code.NAME_NOT_ABOVE),
    ([(A, IGRA), (B, IGRA), (C, PASS), (A, 4)], B, 4, Code.NAME_NOT_ABOVE),  # equal → earlier hand
])
def test_near_misses(calls: list[tuple[int, int]], seat: int, code: int, expected: str) -> None:
    assert illegal(calls, seat, code) == expected


def test_hold_options() -> None:
    """With Russian-style hold options (senior only, intermediate pass required) B may not hold C's 3
    while A is still in, and junior C may never hold B's number."""
    rules = RULES.replace(hold_who="senior", hold_requires_intermediate_pass=True)
    first = RULES.replace(hold_who="first_hand")
    assert play([(A, 2), (B, 3), (C, 4)], first).can_bid(A, 4)
    assert illegal([(A, 2), (B, 3), (C, 4), (A, PASS)], B, 4, first) == Code.HOLD_NOT_ALLOWED
    assert illegal([(A, PASS), (B, 2), (C, 3), (B, 4)], C, 4, rules) == Code.HOLD_NOT_ALLOWED
    a = play([(A, PASS), (B, 2), (C, 3)], rules)
    assert a.can_bid(B, 3)  # A passed, B is senior
    assert illegal([(A, PASS), (B, 2), (C, 3)], B, 3, RULES.replace(hold_enabled=False)) == Code.HOLD_NOT_ALLOWED
    assert illegal([(A, PASS), (B, 2), (C, 3)], B, 3, RULES.replace(hold_forbidden_on=("3",))) == Code.HOLD_NOT_ALLOWED


def test_jumps_allowed_by_option() -> None:
    a = play([(A, 2), (B, 5)], RULES.replace(allow_jump_bids=True))
    assert a.high_bid == 5 and a.to_move == C


def test_three_igra_contest() -> None:
    """A igra, B Bettel from hand, C igra: naming turns go to A then C (B named already).
    A may only name a suit 2–5, which cannot beat Bettel (6), so A passes; C likewise → B wins."""
    a = play([(A, IGRA), (B, IGRA_BETTEL), (C, IGRA)])
    assert a.naming and a.to_move == A and a.legal_bids(A) == [PASS]
    a.bid(A, PASS)
    assert a.to_move == C and a.legal_bids(C) == [PASS]
    a.bid(C, PASS)
    assert (a.winner, a.final_bid, a.hand_game) == (B, 6, True)


def test_contender_withdraws_leaves_free_igra() -> None:
    """A igra, B igra, C pass; A withdraws without naming → B is the only contender left and, like an
    uncontested igra (ex. 5), may order any contract."""
    a = play([(A, IGRA), (B, IGRA), (C, PASS), (A, PASS)])
    assert (a.winner, a.final_bid, a.named_contract) == (B, IGRA, 0)
    assert a.allowed_contracts() == (2, 3, 4, 5, 6, 7)


def test_equal_names_go_to_earlier_hand() -> None:
    """A igra, B igra, C igra; A names 3, B passes, C names 4 → C. Then A 5, B pass, C pass → A keeps it."""
    a = play([(A, IGRA), (B, IGRA), (C, IGRA), (A, 3), (B, PASS), (C, 4)])
    assert (a.winner, a.final_bid) == (C, 4)
    b = play([(A, IGRA), (B, IGRA), (C, IGRA), (A, 5), (B, PASS)])
    assert b.legal_bids(C) == [PASS]
    b.bid(C, PASS)
    assert (b.winner, b.final_bid) == (A, 5)


def test_number_seven_can_only_be_held_or_passed() -> None:
    a = play([(A, 2), (B, 3), (C, 4), (A, 5), (B, 6), (C, 7)])
    assert a.legal_bids(A) == [PASS, 7]


def test_parse_and_format_calls() -> None:
    assert parse_hr_call("igra-bettel") == IGRA_BETTEL
    assert parse_hr_call("hand-sanac") == IGRA_SANAC
    assert parse_hr_call("здесь", current=4) == 4
    assert parse_hr_call("igra") == IGRA and parse_hr_call("3") == 3
    assert format_hr_bid(IGRA_BETTEL) == "igra-bettel" and format_hr_bid(5) == "5"
    with pytest.raises(BidError):
        parse_hr_call("moje")
