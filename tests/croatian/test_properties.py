"""Property tests: random Croatian pulkas settle to zero; random legal auctions end and stay legal."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.engine.replay import audit
from preflog.model.events import BidMade
from preflog.model.events import ContractDeclared
from preflog.model.events import Event
from preflog.model.events import PulkaStarted
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules.presets import resolve
from preflog.scoring.croatian import CroatianScorer

from ..strategies import CROATIAN_TABLES
from ..strategies import PLAYERS
from ..strategies import deal_started
from ..strategies import opened_deal

W, P, I = 1, 0, 3


@st.composite
def outcomes(draw: st.DrawFn, deal: int, scorer: CroatianScorer) -> DealOutcome:
    dealer = deal % 3
    kind = draw(st.sampled_from([DealKind.ALL_PASS, DealKind.GAME, DealKind.GAME, DealKind.GAME, DealKind.NOT_WHISTED]))
    if kind == DealKind.ALL_PASS:
        return DealOutcome(deal, dealer, 3, DealKind.ALL_PASS)
    decl = draw(st.integers(0, 2))
    contract = draw(st.integers(2, 7))
    hand = draw(st.booleans())
    d1, d2 = (decl + 1) % 3, (decl + 2) % 3
    if kind == DealKind.NOT_WHISTED:
        return DealOutcome(deal, dealer, 3, DealKind.NOT_WHISTED, declarer=decl, contract=contract, hand_game=hand)
    mode = "both" if contract == 6 else draw(st.sampled_from(["both", "lone", "invite"]))
    contra = [0, 0, 0]
    if draw(st.booleans()):
        contra[d1] = draw(st.integers(1, 5))
    if mode == "both" and draw(st.booleans()):
        contra[d2] = draw(st.integers(1, 5))
    if scorer.needs_contra(decl, contract, hand) and not any(contra):
        return DealOutcome(deal, dealer, 3, DealKind.CONCEDED, declarer=decl, contract=contract)
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
    return DealOutcome(deal, dealer, 3, DealKind.GAME, declarer=decl, contract=contract, hand_game=hand,
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


# finding codes (docs/findings.md) of the Croatian auction: a refused call, a refused contract
AUCTION_CODES = {"bad_bid", "auction_over", "seat_not_in_auction", "bid_out_of_turn", "bid_after_pass",
                 "bid_not_above_last", "jump_bid", "hold_not_allowed", "igra_after_number",
                 "hand_contract_not_first_call", "number_after_igra", "igra_in_naming", "name_not_above",
                 "hand_bettel_not_at_once"}
CONTRACT_CODES = {"bad_contract", "contract_below_bid", "hand_contract_changed"}
CALLS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 17)


def _first_finding(log: list[Event]) -> tuple[int, str]:
    res = audit(log)
    assert res.findings, "an illegal event audited clean"
    return res.findings[0].seq, res.findings[0].code


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(CROATIAN_TABLES), st.booleans())
def test_random_legal_auction_ends(data: st.DataObject, table: tuple[str, int], paper: bool) -> None:
    """Making only legal calls (drawn from ``legal_actions()``) ends the auction within 30 calls; every
    other call is refused at its place in the log with an auction code; the winner may declare exactly
    the contracts ``legal_actions()`` offers, any other is refused with a contract code."""
    spec, n = table
    dealer = data.draw(st.integers(0, n - 1), label="dealer")
    log: list[Event] = [PulkaStarted(PLAYERS[:n], spec), deal_started(data, n, dealer, paper)]
    deal = opened_deal(log)
    for _ in range(30):
        acts = deal.legal_actions()
        if not acts or not isinstance(acts[0], BidMade):
            break
        seat = acts[0].player
        legal = {a.bid for a in acts if isinstance(a, BidMade)}
        assert 0 in legal
        for call in CALLS:
            assert deal.can_bid(seat, call) == (call in legal)
            if call not in legal:
                assert _first_finding([*log, BidMade(seat, call)]) in {(len(log) + 1, c) for c in AUCTION_CODES}
        ev = data.draw(st.sampled_from(acts), label="call")
        deal.apply(ev)
        log.append(ev)
    else:
        raise AssertionError("auction not over after 30 calls")
    if deal.done:                                   # all passed
        assert deal.outcome is not None and deal.outcome.kind == DealKind.ALL_PASS
        return
    while not any(isinstance(a, ContractDeclared) for a in acts):   # the discard, unless a hand game
        ev = data.draw(st.sampled_from(acts), label="discard")
        deal.apply(ev)
        log.append(ev)
        acts = deal.legal_actions()
    declarer = acts[0].player  # type: ignore[attr-defined]
    offered = {a.contract for a in acts if isinstance(a, ContractDeclared)}
    assert offered and offered <= set(range(2, 8))
    for contract in range(2, 8):
        declared = [*log, ContractDeclared(declarer, contract)]
        if contract in offered:
            res = audit(declared)   # accepted: the deal is only left open where the log ends
            at_end = len(declared) + 1   # the seq the next event would have
            assert [(f.seq, f.code) for f in res.findings] in ([], [(at_end, "deal_incomplete")]), res.codes()
        else:
            assert _first_finding(declared) in {(len(log) + 1, c) for c in CONTRACT_CODES}  # seq of declared[-1]
