"""Deal engine: discard, contract, whist phase, play rules, raspasy talon tricks, claims, paper deals."""

from __future__ import annotations

import pytest

from preflog.engine.findings import IllegalAction
from preflog.engine.russian.deal import RussianDeal
from preflog.model.bids import MISER
from preflog.model.bids import PASS
from preflog.model.bids import parse_ru_bid
from preflog.model.calls import CALL_HALF
from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.calls import PLAY_OPEN
from preflog.model.cards import parse_card
from preflog.model.cards import parse_cards
from preflog.model.outcome import NO_SEAT
from preflog.model.outcome import DealKind
from preflog.rules import LENINGRAD
from preflog.rules import ROSTOV
from preflog.rules import SOCHI

# Layout G (dealer 2, first hand 0): seat 0 strong in spades, seat 1 void in diamonds, seat 2 void in spades.
G = (parse_cards("As Ks Qs Js 10s Ac Kc Ad Kd Qd"),
     parse_cards("9s 8s 7s Qc Jc 10c Ah Kh Qh Jh"),
     parse_cards("9c 8c 7c Jd 10d 9d 8d 7d 10h 9h"))
G_TALON = parse_cards("8h 7h")

# Layout R for raspasy (dealer 2): talon 7♥ 7♦; seat 0 void in diamonds.
R = (parse_cards("As Ks Qs Js Ah Kh Qh Ac Kc Qc"),
     parse_cards("10s 9s 8s Jh 10h 9h Jc 10c Ad Kd"),
     parse_cards("Qd Jd 10d 9d 8d 8h 9c 8c 7c 7s"))
R_TALON = parse_cards("7h 7d")


def c(text: str) -> int:
    return parse_card(text)


def expect(code: str, fn, *args) -> None:
    with pytest.raises(IllegalAction) as exc:
        fn(*args)
    assert exc.value.code == code, exc.value.message


def game(contract: str = "6s", rules=SOCHI, calls=(CALL_WHIST, CALL_WHIST)) -> RussianDeal:
    """Seat 0 wins 6♠ (everybody else passes), discards the talon, declares ``contract``."""
    d = RussianDeal(rules, 3, 2, 1, G, G_TALON)
    for seat, bid in ((0, 61), (1, PASS), (2, PASS)):
        d.bid(seat, bid)
    d.discard(0, G_TALON)
    d.declare(0, parse_ru_bid(contract))
    for seat, call in zip((1, 2), calls, strict=False):
        d.whist(seat, call)
    return d


def test_layout_checks() -> None:
    expect("bad_deal", RussianDeal, SOCHI, 3, 2, 1, (G[0], G[1], G[1]), G_TALON)
    expect("bad_deal", RussianDeal, SOCHI, 3, 2, 1, G, parse_cards("8h"))
    expect("bad_deal", RussianDeal, SOCHI, 3, 5, 1, G, G_TALON)


def test_discard_and_contract() -> None:
    d = RussianDeal(SOCHI, 3, 2, 1, G, G_TALON)
    for seat, bid in ((0, 61), (1, PASS), (2, PASS)):
        d.bid(seat, bid)
    expect("not_declarer", d.discard, 1, G_TALON)
    expect("discard_not_two", d.discard, 0, parse_cards("8h"))
    expect("discard_not_held", d.discard, 0, parse_cards("8h Ah"))
    expect("event_out_of_order", d.declare, 0, 61)  # contract before the discard
    expect("talon_mismatch", d.reveal_talon, parse_cards("8h 9h"))
    d.reveal_talon(G_TALON)
    d.discard(0, parse_cards("Ac 8h"))  # a hand card may be discarded; the talon card 7♥ stays
    assert d.hands[0] >> c("7h") & 1 and not d.hands[0] >> c("Ac") & 1 and d.hands[0].bit_count() == 10
    expect("miser_not_bid", d.declare, 0, MISER)
    d.declare(0, 62)
    assert d.phase_name == "whist" and d.to_move == 1


def test_follow_suit_must_trump_and_trick_winner() -> None:
    """Seed 001: follow suit; if void, trump; the highest trump, else highest card of the suit led, wins."""
    d = game()
    assert d.phase_name == "play" and d.to_play == 0  # first hand = dealer's left leads
    expect("card_out_of_turn", d.play, 1, c("Ah"))
    expect("card_not_held", d.play, 0, c("Ah"))
    d.play(0, c("Ad"))
    expect("must_trump", d.play, 1, c("Ah"))  # void in ♦, holds ♠ trumps
    assert d.legal_cards(1) == parse_cards("9s 8s 7s")
    d.play(1, c("7s"))
    expect("must_follow_suit", d.play, 2, c("9c"))
    d.play(2, c("7d"))
    assert d.trick_winners == [1] and d.tricks == [0, 1, 0] and d.to_play == 1  # the winner leads
    d.play(1, c("Ah"))
    d.play(2, c("10h"))
    d.play(0, c("As"))  # void in ♥: trumps
    assert d.trick_winners[-1] == 0


def test_no_must_trump_option() -> None:
    d = game(rules=SOCHI.replace(must_trump=False))
    d.play(0, c("Ad"))
    d.play(1, c("Ah"))  # legal discard without trumping
    d.play(2, c("7d"))
    assert d.trick_winners == [0]


def test_miser_has_no_trumps() -> None:
    d = RussianDeal(SOCHI, 3, 2, 1, G, G_TALON)
    for seat, bid in ((0, MISER), (1, PASS), (2, PASS)):
        d.bid(seat, bid)
    d.discard(0, G_TALON)
    expect("contract_must_be_miser", d.declare, 0, 91)
    d.declare(0, MISER)
    assert d.phase_name == "play" and d.trump == -1  # miser is not whisted
    d.play(0, c("Ad"))
    d.play(1, c("Ah"))  # void in ♦: any card, no trumps on miser
    d.play(2, c("7d"))
    assert d.trick_winners == [0]
    d.claim((9, 0, 0))
    o = d.outcome
    assert o is not None and o.kind == DealKind.MISER and o.tricks == (10, 0, 0) and o.contract == MISER


def test_whist_both_pass_and_lone_whister() -> None:
    d = game(calls=(CALL_PASS, CALL_PASS))
    o = d.outcome
    assert d.done and o is not None and o.kind == DealKind.NOT_WHISTED and o.calls == (-1, CALL_PASS, CALL_PASS)
    d = game(calls=(CALL_WHIST, CALL_PASS))
    assert d.phase_name == "play_mode" and d.to_move == 1
    expect("mode_by_wrong_seat", d.choose_mode, 2, PLAY_OPEN)
    d.choose_mode(1, PLAY_OPEN)
    assert d.open_play and d.phase_name == "play"


def test_whist_order_and_half_whist() -> None:
    """Seed 001: defender on the declarer's left first; half-whist only on 6/7 after the first passed."""
    d = game(calls=())
    expect("whist_out_of_turn", d.whist, 2, CALL_WHIST)
    expect("half_whist_not_allowed", d.whist, 1, CALL_HALF)
    d.whist(1, CALL_WHIST)
    expect("half_whist_not_allowed", d.whist, 2, CALL_HALF)  # «вист, пас, полвиста» is not allowed
    d = game("8s", calls=(CALL_PASS,))
    expect("half_whist_not_allowed", d.whist, 2, CALL_HALF)
    d = game(calls=(CALL_PASS, CALL_HALF))
    d.whist(1, CALL_PASS)
    o = d.outcome
    assert o is not None and o.kind == DealKind.HALF_WHIST and o.half_whister == 2 and o.returner == NO_SEAT


def test_half_whist_returned() -> None:
    d = game(calls=(CALL_PASS, CALL_HALF))
    d.whist(1, CALL_WHIST)  # «вернуть вист»
    expect("half_whister_must_pass", d.whist, 2, CALL_WHIST)
    d.whist(2, CALL_PASS)  # optional closing pass
    d.choose_mode(1, 0)
    d.claim((7, 3, 0))
    o = d.outcome
    assert o is not None and o.kind == DealKind.GAME and o.returner == 1 and o.half_whister == 2
    assert o.calls == (-1, CALL_WHIST, CALL_PASS) and o.whist_order == (1,)


def test_four_players_dealer_returns_whist() -> None:
    """Seed 001: at four the dealer may return the whist after the first passer passes again."""
    hands = (0, G[0], G[1], G[2])  # dealer 0 sits out; first hand is seat 1
    d = RussianDeal(SOCHI, 4, 0, 1, hands, G_TALON)
    assert d.active == (1, 2, 3)
    for seat, bid in ((1, 61), (2, PASS), (3, PASS)):
        d.bid(seat, bid)
    d.discard(1, G_TALON)
    d.declare(1, 61)
    d.whist(2, CALL_PASS)
    d.whist(3, CALL_HALF)
    d.whist(2, CALL_PASS)
    assert d.to_move == 0
    d.whist(0, CALL_WHIST)
    d.choose_mode(0, 1)
    assert d.to_play == 1
    d.claim((0, 6, 4, 0))
    o = d.outcome
    assert o is not None and o.returner == 0 and o.tricks == (0, 6, 4, 0)


def test_ten_checked_in_sochi() -> None:
    """Seed 003: a Sochi 10-game is checked, not whisted."""
    d = game("10s", calls=())
    expect("ten_checked_no_whist", d.whist, 1, CALL_WHIST)
    expect("bad_tricks", d.ten_check, (9, 1, 1))
    d.ten_check((9, 1, 0))
    o = d.outcome
    assert o is not None and o.checked and o.kind == DealKind.GAME and o.whist_order == (1, 2)
    d = game("10s", rules=LENINGRAD, calls=(CALL_WHIST, CALL_PASS))  # whisted under ten_mode=whisted
    expect("ten_check_not_allowed", d.ten_check, (10, 0, 0))


def test_claims() -> None:
    d = game()
    d.play(0, c("As"))
    d.play(1, c("7s"))
    d.play(2, c("7d"))
    expect("bad_claim", d.claim, (9, 1, 0))  # only 9 tricks remain
    d.claim((8, 1, 0))
    assert d.outcome is not None and d.outcome.tricks == (9, 1, 0)
    expect("deal_over", d.play, 0, c("Ks"))


def test_raspasy_open_talon_three_players() -> None:
    """Seed 001: talon cards fix the suit of tricks 1 and 2; the highest card of that suit wins; then first hand."""
    d = RussianDeal(SOCHI, 3, 2, 1, R, R_TALON)
    for seat in (0, 1, 2):
        d.bid(seat, PASS)
    assert d.phase_name == "play" and d.to_play == 0
    d.play(0, c("Ah"))  # 7♥ is the first talon card
    expect("must_follow_suit", d.play, 1, c("Ad"))
    d.play(1, c("Jh"))
    d.play(2, c("8h"))
    assert d.trick_winners == [0] and d.to_play == 0  # trick 2 starts again from first hand
    d.play(0, c("Qc"))  # void in ♦ (talon suit of trick 2)
    expect("must_follow_suit", d.play, 1, c("10s"))
    d.play(1, c("Kd"))
    d.play(2, c("Qd"))
    assert d.trick_winners == [0, 1] and d.to_play == 0  # raspasy_third_lead = first_hand
    d2 = RussianDeal(SOCHI.replace(raspasy_third_lead="last_winner"), 3, 2, 1, R, R_TALON)
    for seat in (0, 1, 2):
        d2.bid(seat, PASS)
    for seat, card in ((0, "Ah"), (1, "Jh"), (2, "8h"), (0, "Qc"), (1, "Kd"), (2, "Qd")):
        d2.play(seat, c(card))
    assert d2.to_play == 1


def test_raspasy_four_players_dealer_takes_talon_trick() -> None:
    """Seed 001: at four the talon card is the dealer's; if it is highest, the dealer takes the trick."""
    hands = (parse_cards("As Ks Qs Js Ah Kh Qh Ac Kc Qc"), parse_cards("10s 9s 8s Jh 10h 9h Jc 10c Kd 7d"),
             parse_cards("Qd Jd 10d 9d 8d 8h 9c 8c 7c 7s"), 0)
    d = RussianDeal(SOCHI, 4, 3, 1, hands, parse_cards("Ad 7h"))
    for seat in (0, 1, 2):
        d.bid(seat, PASS)
    for seat, card in ((0, "Ah"), (1, "Jh"), (2, "8h"), (0, "Qc"), (1, "Kd"), (2, "Qd")):
        d.play(seat, c(card))
    assert d.trick_winners == [0, 3] and d.tricks[3] == 1 and d.to_play == 0
    d.claim((4, 2, 2, 0))
    o = d.outcome
    assert o is not None and o.kind == DealKind.RASPASY and o.tricks == (5, 2, 2, 1) and sum(o.tricks) == 10


def test_raspasy_closed_talon_rostov() -> None:
    d = RussianDeal(ROSTOV, 3, 2, 1, R, R_TALON)
    for seat in (0, 1, 2):
        d.bid(seat, PASS)
    d.play(0, c("As"))
    d.play(1, c("10s"))  # normal play: follow the suit led
    expect("must_follow_suit", d.play, 2, c("Qd"))


def test_paper_deal_without_auction() -> None:
    d = RussianDeal(SOCHI, 3, 2, 1)
    d.declare(1, 62)
    d.whist(2, CALL_WHIST)
    d.whist(0, CALL_PASS)
    d.choose_mode(2, 0)
    expect("bad_tricks", d.paper_result, (6, 2, 1))
    d.paper_result((2, 6, 2))
    o = d.outcome
    assert o is not None and o.paper and o.kind == DealKind.GAME and o.declarer == 1 and o.tricks == (2, 6, 2)


def test_paper_deal_with_auction_and_raspasy() -> None:
    d = RussianDeal(SOCHI, 3, 2, 1)
    for seat, bid in ((0, 61), (1, 62), (2, PASS), (0, PASS)):
        d.bid(seat, bid)
    expect("contract_below_bid", d.declare, 1, 61)
    expect("not_declarer", d.declare, 0, 62)
    d.declare(1, 71)
    assert d.phase_name == "whist"
    r = RussianDeal(SOCHI, 3, 2, 1)
    for seat in (0, 1, 2):
        r.bid(seat, PASS)
    r.paper_result((3, 3, 4))
    assert r.outcome is not None and r.outcome.kind == DealKind.RASPASY
    card_level = RussianDeal(SOCHI, 3, 2, 1, G, G_TALON)
    expect("contract_without_auction", card_level.declare, 0, 61)


def test_legal_actions_cover_all_phases() -> None:
    d = RussianDeal(SOCHI, 3, 2, 1, G, G_TALON)
    assert [e.bid for e in d.legal_actions()] == [PASS, 61, MISER]
    for seat, bid in ((0, 61), (1, PASS), (2, PASS)):
        d.bid(seat, bid)
    assert len(d.legal_actions()) == 66  # C(12, 2) discards


def test_first_defender_half_whist_needs_the_option() -> None:
    """half_whist_by=second (the rule texts): the first defender may not say half-whist; with
    half_whist_by=either he may, the second may return the whist, else the game counts as made."""
    expect("half_whist_not_allowed", game(calls=()).whist, 1, CALL_HALF)
    either = SOCHI.replace(half_whist_by="either")
    d = game(rules=either, calls=(CALL_HALF,))
    assert d.to_move == 2  # the second defender now decides: return the whist or pass
    expect("half_whist_not_allowed", d.whist, 2, CALL_HALF)
    d.whist(2, CALL_PASS)
    o = d.outcome
    assert o is not None and o.kind == DealKind.HALF_WHIST and o.half_whister == 1 and o.returner == NO_SEAT
    d = game(rules=either, calls=(CALL_HALF, CALL_WHIST))  # the second defender returns the whist
    expect("half_whister_must_pass", d.whist, 1, CALL_WHIST)
    d.choose_mode(2, 0)
    d.claim((7, 0, 3))
    o = d.outcome
    assert o is not None and o.kind == DealKind.GAME and o.returner == 2 and o.half_whister == 1
    assert o.whist_order == (2,)


def _four_handed(rules, calls) -> RussianDeal:
    """Dealer 0 sits out; seat 1 wins 6♠ and declares ``8s``; the defenders (2, 3) call ``calls``."""
    d = RussianDeal(rules, 4, 0, 1, (0, G[0], G[1], G[2]), G_TALON)
    for seat, bid in ((1, 61), (2, PASS), (3, PASS)):
        d.bid(seat, bid)
    d.discard(1, G_TALON)
    d.declare(1, parse_ru_bid("8s"))
    for seat, call in zip((2, 3), calls, strict=False):
        d.whist(seat, call)
    return d


def test_dealer_whists_after_two_passes() -> None:
    """dealer_whists_after_passes (seed 001: the fourth player may whist on the cards of one of the
    passers): after both defenders pass the sitting-out dealer is asked; his whist makes him the lone
    whister, like a dealer who returns a half-whist. Off (the default), two passes end the deal."""
    d = _four_handed(SOCHI, (CALL_PASS, CALL_PASS))
    assert d.outcome is not None and d.outcome.kind == DealKind.NOT_WHISTED
    rules = SOCHI.replace(dealer_whists_after_passes=True)
    d = _four_handed(rules, (CALL_PASS, CALL_PASS))
    assert d.outcome is None and d.to_move == 0
    d.whist(0, CALL_PASS)
    assert d.outcome is not None and d.outcome.kind == DealKind.NOT_WHISTED
    d = _four_handed(rules, (CALL_PASS, CALL_PASS))
    d.whist(0, CALL_WHIST)
    d.choose_mode(0, 1)
    d.claim((0, 7, 2, 1))
    o = d.outcome
    assert o is not None and o.kind == DealKind.GAME and o.returner == 0 and o.whist_order == (0,)
    assert o.half_whister == NO_SEAT and o.tricks == (0, 7, 2, 1)
    d = _four_handed(rules, (CALL_WHIST, CALL_PASS))  # a defender whisted: the dealer is not asked
    assert d.to_move == 2 and d.phase_name != "whist"
