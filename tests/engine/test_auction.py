"""Russian auction ("торговля"): legal and illegal cases from seed 001 and docs/rules.md §A5."""

from __future__ import annotations

import pytest

from preflog.engine.families import family_of
from preflog.engine.findings import IllegalAction
from preflog.engine.russian.auction import RussianAuction
from preflog.model.bids import MISER
from preflog.model.bids import PASS
from preflog.model.bids import TAKE_TALON
from preflog.model.bids import parse_ru_bid
from preflog.model.outcome import NO_SEAT
from preflog.rules import SOCHI
from preflog.rules import resolve

A, B, C = 0, 1, 2  # bidding order: first, second, third hand


def run(calls: list[tuple[int, str]], rules=SOCHI, min_level: int = 0) -> RussianAuction:
    a = RussianAuction(rules, (A, B, C), min_level)
    for seat, text in calls:
        a.bid(seat, parse_ru_bid(text))
    return a


def code_of(calls: list[tuple[int, str]], last: tuple[int, str], rules=SOCHI, min_level: int = 0) -> str:
    a = run(calls, rules, min_level)
    with pytest.raises(IllegalAction) as exc:
        a.bid(last[0], parse_ru_bid(last[1]))
    assert not a.can_bid(last[0], parse_ru_bid(last[1]))
    return exc.value.code


def test_registry_and_factory() -> None:
    assert family_of(SOCHI).deal.AUCTION_TYPE is RussianAuction
    assert isinstance(family_of(SOCHI).open_deal(SOCHI, 3, 0, None, None).auction, RussianAuction)


def test_ladder_step_by_step() -> None:
    """Seed 001: «6 пик», then only «6 треф», then «6 бубен» …; two passes end it, the last bidder wins."""
    a = run([(A, "6s"), (B, "6c"), (C, "6d"), (A, "6h"), (B, "pass"), (C, "6NT"), (A, "pass")])
    assert a.done and a.winner == C and a.final_bid == 65


def test_jump_is_illegal_and_allowed_by_option() -> None:
    """«не прыгая через ступеньки»: 6♠ then 6♦ skips 6♣."""
    assert code_of([(A, "6s")], (B, "6d")) == "jump_bid"
    assert code_of([], (A, "7s")) == "jump_bid"  # the opening is 6♠
    a = run([(A, "6s"), (B, "7h")], resolve("sochi+jumps"))
    assert a.to_move == C and a.high_bid == 74


def test_hold_seed_example() -> None:
    """Seed 001: 1st «пики», 2nd pass, 3rd «трефы», 1st «трефы здесь»; later «бубны здесь»."""
    a = run([(A, "6s"), (B, "pass"), (C, "6c"), (A, "6c")])
    assert a.to_move == C and a.high_bid == 62
    a.bid(C, parse_ru_bid("6d"))
    a.bid(A, parse_ru_bid("6d"))  # «бубны здесь»
    a.bid(C, parse_ru_bid("6h"))
    a.bid(A, PASS)
    assert a.done and a.winner == C and a.final_bid == 64


def test_hold_not_allowed_cases() -> None:
    # the player between the two bidders (B) has not passed
    assert code_of([(A, "6s"), (B, "6c"), (C, "6d")], (A, "6d")) == "hold_not_allowed"
    # the junior bidder may not hold
    assert code_of([(A, "pass"), (B, "6s")], (C, "6s")) == "hold_not_allowed"
    # holds switched off
    off = SOCHI.replace(hold_enabled=False)
    assert code_of([(A, "6s"), (B, "pass"), (C, "6c")], (A, "6c"), off) == "hold_not_allowed"
    # a held bid must be raised, not held again (any_overcalled would otherwise loop)
    anyo = SOCHI.replace(hold_who="any_overcalled", hold_requires_intermediate_pass=False)
    assert code_of([(A, "6s"), (B, "pass"), (C, "6c"), (A, "6c")], (C, "6c"), anyo) == "hold_not_allowed"


def test_pass_is_final_and_turns() -> None:
    assert code_of([(A, "pass"), (B, "6s"), (C, "6c")], (A, "6d")) == "bid_after_pass"
    assert code_of([], (B, "6s")) == "bid_out_of_turn"
    assert code_of([(A, "6s"), (B, "pass"), (C, "pass")], (A, "6c")) == "auction_over"
    assert code_of([(A, "6s")], (B, "6s")) == "hold_not_allowed"  # equal bid by the junior = hold
    assert code_of([(A, "6s"), (B, "6c")], (C, "6s")) == "bid_not_above_last"


def test_all_pass_is_raspasy() -> None:
    a = run([(A, "pass"), (B, "pass"), (C, "pass")])
    assert a.done and a.winner == NO_SEAT and a.final_bid == PASS


def test_miser_first_call_only() -> None:
    """«Мизер кабальный»: only as the first call; seed 001."""
    assert code_of([(A, "6s"), (B, "6c"), (C, "pass")], (A, "miser")) == "miser_not_first_call"
    a = run([(A, "6s"), (B, "miser")])  # a first call may go straight to miser
    assert a.high_bid == MISER and a.to_move == C


def test_miser_beaten_by_nine_and_bidder_must_pass() -> None:
    """«мизер перебивается девятерной»: 8NT is below miser, 9♠ beats it; the overcalled miser bidder only passes."""
    assert code_of([(A, "6s"), (B, "miser")], (C, "8NT")) == "bid_not_above_last"
    a = run([(A, "6s"), (B, "miser"), (C, "9s")])
    assert code_of([(A, "6s"), (B, "miser"), (C, "9s"), (A, "pass")], (B, "9c")) == "miser_bidder_must_pass"
    a.bid(A, PASS)
    a.bid(B, PASS)
    assert a.done and a.winner == C and a.final_bid == 91
    cont = SOCHI.replace(miser_bidder_may_continue=True)
    a = run([(A, "6s"), (B, "miser"), (C, "9s"), (A, "pass"), (B, "9c")], cont)
    assert a.high_bid == 92


def test_miser_beaten_by_ten_option() -> None:
    by10 = resolve("sochi+miser-by-10")
    assert code_of([(A, "pass"), (B, "miser")], (C, "9s"), by10) == "miser_not_beaten"
    a = run([(A, "pass"), (B, "miser"), (C, "10s")], by10)
    assert a.high_bid == 101


def test_after_8nt_next_trick_step_is_9s() -> None:
    """Miser sits between 8NT and 9♠; a player who has bid raises 8NT to 9♠ (not a jump)."""
    calls = [(A, "6s"), (B, "6c"), (C, "6d"), (A, "6h"), (B, "6NT"), (C, "7s"), (A, "7c"), (B, "7d"), (C, "7h"),
             (A, "7NT"), (B, "8s"), (C, "8c"), (A, "8d"), (B, "8h"), (C, "8NT")]
    a = run(calls)
    a.bid(A, parse_ru_bid("9s"))
    assert a.high_bid == 91


def test_min_level_after_raspasy() -> None:
    """Anti-raspasy rule (seed 003): after a double raspasy the auction opens at 7; miser stays legal."""
    assert code_of([], (A, "6s"), min_level=7) == "below_min_level"
    a = run([(A, "7s")], min_level=7)
    assert a.high_bid == 71
    a = run([(A, "miser")], min_level=8)
    assert a.high_bid == MISER


def test_third_hand_takes_talon() -> None:
    """Seed 001: after two passes the third hand may take the talon without a bid, then any game but miser."""
    r = resolve("sochi+third-hand-takes-talon")
    a = run([(A, "pass"), (B, "pass")], r)
    a.bid(C, TAKE_TALON)
    assert a.done and a.winner == C and a.took_talon
    a.verify_contract(61)
    with pytest.raises(IllegalAction) as exc:
        a.verify_contract(MISER)
    assert exc.value.code == "contract_below_bid"
    assert code_of([(A, "pass"), (B, "pass")], (C, "miser"), r) == "miser_by_third_hand"
    assert code_of([], (A, "take"), r) == "take_talon_not_allowed"
    assert code_of([(A, "pass"), (B, "pass")], (C, "take")) == "take_talon_not_allowed"  # normal mode


def test_verify_contract() -> None:
    """Seed 001: the contract is not below the bid; miser only if bid as miser."""
    a = run([(A, "6s"), (B, "6c"), (C, "pass"), (A, "6d"), (B, "pass")])
    a.verify_contract(63)
    a.verify_contract(105)
    for contract, code in ((62, "contract_below_bid"), (MISER, "miser_not_bid"), (7, "bad_contract")):
        with pytest.raises(IllegalAction) as exc:
            a.verify_contract(contract)
        assert exc.value.code == code
    m = run([(A, "miser"), (B, "pass"), (C, "pass")])
    m.verify_contract(MISER)
    with pytest.raises(IllegalAction) as exc:
        m.verify_contract(91)
    assert exc.value.code == "contract_must_be_miser"


def test_legal_bids_lists_exactly_the_legal_calls() -> None:
    a = run([(A, "6s"), (B, "pass"), (C, "6c")])
    assert a.legal_bids(A) == [PASS, 62, 63]  # pass, hold 6♣, raise to 6♦ (miser is not a first call)
    assert run([]).legal_bids(A) == [PASS, 61, MISER]


def test_bad_codes() -> None:
    a = run([])
    with pytest.raises(IllegalAction) as exc:
        a.bid(A, 66)
    assert exc.value.code == "bad_bid"
    with pytest.raises(IllegalAction) as exc:
        a.bid(3, 61)
    assert exc.value.code == "seat_not_in_auction"
