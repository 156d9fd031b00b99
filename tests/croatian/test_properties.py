"""Property tests: random Croatian pulkas settle to zero; random legal auctions end and stay legal."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from preflog.engine.codes import codes_of
from preflog.engine.croatian.auction import CroatianAuction
from preflog.engine.findings import IllegalAction
from preflog.model.outcome import ALL_PASS, CONCEDED, GAME, NOT_WHISTED, DealOutcome
from preflog.rules.presets import resolve
from preflog.scoring.croatian import CroatianScorer

W, P, I = 1, 0, 3
RULES = resolve("croatian")


@st.composite
def outcomes(draw: st.DrawFn, deal: int, scorer: CroatianScorer) -> DealOutcome:
    dealer = deal % 3
    kind = draw(st.sampled_from([ALL_PASS, GAME, GAME, GAME, NOT_WHISTED]))
    if kind == ALL_PASS:
        return DealOutcome(deal, dealer, 3, ALL_PASS)
    decl = draw(st.integers(0, 2))
    contract = draw(st.integers(2, 7))
    hand = draw(st.booleans())
    d1, d2 = (decl + 1) % 3, (decl + 2) % 3
    if kind == NOT_WHISTED:
        return DealOutcome(deal, dealer, 3, NOT_WHISTED, declarer=decl, contract=contract, hand_game=hand)
    mode = "both" if contract == 6 else draw(st.sampled_from(["both", "lone", "invite"]))
    contra = [0, 0, 0]
    if draw(st.booleans()):
        contra[d1] = draw(st.integers(1, 5))
    if mode == "both" and draw(st.booleans()):
        contra[d2] = draw(st.integers(1, 5))
    if scorer.needs_contra(decl, contract, hand) and not any(contra):
        return DealOutcome(deal, dealer, 3, CONCEDED, declarer=decl, contract=contract)
    calls = [-1, -1, -1]
    calls[d1] = W if mode != "invite" else I
    calls[d2] = W if mode == "both" else P
    tricks = [0, 0, 0]
    stopped = draw(st.booleans())
    if contract == 6:
        decl_t = draw(st.integers(0, 3))
        a = draw(st.integers(0, 10 - decl_t))
        tricks[decl], tricks[d1], tricks[d2] = decl_t, a, 10 - decl_t - a
    elif mode == "lone":
        side = 5 if stopped else draw(st.integers(0, 4))
        decl_t = draw(st.integers(0, 5)) if stopped else 10 - side
        tricks[decl], tricks[d1] = decl_t, side
    else:
        side = 5 if stopped else draw(st.integers(0, 4))
        a = draw(st.integers(0, side))
        decl_t = draw(st.integers(0, 5)) if stopped else 10 - side
        tricks[decl], tricks[d1], tricks[d2] = decl_t, a, side - a
    return DealOutcome(deal, dealer, 3, GAME, declarer=decl, contract=contract, hand_game=hand,
                       tricks=tuple(tricks), calls=tuple(calls), contra=tuple(contra),
                       stopped_early=stopped and contract != 6)


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from([30, 50]), st.sampled_from(["croatian", "slovenian"]),
       st.sampled_from(["proportional", "none"]))
def test_random_pulka_settles_to_zero(data: st.DataObject, start: int, preset: str, overshoot: str) -> None:
    rules = resolve(preset).replace(start=start, overshoot_mode=overshoot)
    scorer = CroatianScorer(rules, 3, 0)
    for deal in range(1, 40):
        if scorer.is_finished():
            break
        scorer.score(data.draw(outcomes(deal, scorer)))
        s = scorer.settlement()
        assert sum(s.exact) == 0 and sum(s.method1) == 0 and sum(s.method2) == 0
        assert all(abs(Fraction(m) - e) < 1 for m, e in zip(s.method1, s.exact, strict=True))
        assert sum(scorer.columns) <= 0 or overshoot == "none"
        assert scorer.under_hat == tuple(c >= 0 for c in scorer.columns)
        assert all(0 <= r <= scorer.refe_limit for r in scorer.refe)
    if scorer.is_finished() and overshoot == "proportional":
        assert sum(scorer.columns) == 0


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_random_legal_auction_ends(data: st.DataObject) -> None:
    """Playing only ``legal_bids`` always ends within 30 calls; every other call is refused with a listed
    code; the winner may declare exactly ``allowed_contracts``."""
    a = CroatianAuction(RULES, (0, 1, 2))
    for _ in range(30):
        if a.done:
            break
        seat = a.to_move
        legal = a.legal_bids(seat)
        assert 0 in legal
        for code in (0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 17):
            if code not in legal:
                try:
                    a.verify_bid(seat, code)
                except IllegalAction as exc:
                    assert exc.code in codes_of("Auction")
                else:
                    raise AssertionError(f"{code} verified but not in legal_bids")
        a.bid(seat, data.draw(st.sampled_from(legal)))
    assert a.done
    for contract in range(2, 8):
        assert a.can_bid(a.winner, contract) is False
        ok = contract in a.allowed_contracts()
        try:
            a.verify_contract(contract)
        except IllegalAction:
            assert not ok
        else:
            assert ok and a.winner >= 0
