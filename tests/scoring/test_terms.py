"""The scorers' deal terms (scoring/terms.py) agree with what the same scorers write on the sheet.

Projections read made/failed, the whist liability and the contract price from these methods, so each
is checked against the scorer's own entries over bot-played pulkas of every preset.
"""

from __future__ import annotations

import pytest

from preflog.engine.families import family_of
from preflog.model.bids import HR_BETTEL
from preflog.model.bids import MISER
from preflog.model.bids import trick_bid
from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules.presets import resolve
from preflog.scoring.croatian import CroatianScorer
from preflog.scoring.russian import RussianScorer
from preflog.scoring.terms import Liability
from preflog.sim import simulate_pulka

N = -1


def outcomes(spec: str, players: int, seeds: range) -> list[DealOutcome]:
    out: list[DealOutcome] = []
    for seed in seeds:
        simulate_pulka(spec, players, seed, pool=10, outcomes=out)
    return out


RUSSIAN = [("sochi", 3), ("sochi", 4), ("leningrad", 3), ("rostov", 4)]
LIABILITY_VARIANTS = [{}, {"lone_whister_quota": "personal"}, {"high_level_liability": "split"},
                      {"whisters_share_penalty": True}]


@pytest.mark.parametrize("spec,players", RUSSIAN)
@pytest.mark.parametrize("variant", LIABILITY_VARIANTS)
def test_russian_liability_is_the_whister_gora(spec: str, players: int, variant: dict) -> None:
    """Each whister's gora on a played game is his missing tricks × ``whister_fail_mult`` × V; a
    split or a shared penalty divides the whisters' total in two."""
    rules = resolve(spec).replace(american_help=False, **variant)
    checked = 0
    for o in outcomes(spec, players, range(12)):
        scorer = RussianScorer(rules, players, 10)
        ds = scorer.score(o)
        liability = scorer.whist_liability(o)
        if o.kind != DealKind.GAME or o.checked:
            assert liability == {}
            continue
        terms = scorer.contract_terms(o.contract)
        rate = rules.whister_fail_mult * terms.price
        gora = {s: ds.gora[s] for s in liability}
        if len(liability) == 2 and (variant.get("whisters_share_penalty") or (
                variant.get("high_level_liability") == "split" and terms.level >= 8)):
            shorts = [x.short for x in liability.values()]
            total = shorts[0] if variant.get("high_level_liability") == "split" and terms.level >= 8 else sum(shorts)
            assert sum(gora.values()) == total * rate, o
        else:
            assert gora == {s: x.short * rate for s, x in liability.items()}, o
        checked += bool(liability)
    assert checked > 20


@pytest.mark.parametrize("spec,players", RUSSIAN)
def test_russian_result_is_the_declarer_entry(spec: str, players: int) -> None:
    """Made → the declarer writes no gora; failed → remiz_mult × V per undertrick (miser: per trick)."""
    rules = resolve(spec).replace(american_help=False)
    failed = 0
    for o in outcomes(spec, players, range(12)):
        scorer = RussianScorer(rules, players, 10)
        ds = scorer.score(o)
        result = scorer.deal_result(o)
        if o.declarer == N:
            assert result is None
            continue
        assert result is not None
        d = o.declarer
        if result.made:
            assert result.undertricks == 0 and ds.gora[d] == 0
        elif o.kind == DealKind.GAME:
            failed += 1
            assert ds.gora[d] == rules.remiz_mult * scorer.contract_terms(o.contract).price * result.undertricks
        else:
            assert ds.gora[d] == rules.miser_fail_per_trick * result.undertricks
    assert failed > 3


@pytest.mark.parametrize("spec", ["croatian", "slovenian"])
def test_croatian_terms_agree_with_the_columns(spec: str) -> None:
    """A whister's flat penalty (his column goes down) exactly when ``whist_liability`` finds him
    short; made/failed as the scorer's note says; the declarer's column moves by V × multiplier."""
    rules = resolve(spec)
    short = made = 0
    scored = []
    for seed in range(25):
        scorer = CroatianScorer(rules, 3)  # one per pulka: refe and the 2♠ rule depend on the deals before
        scored += [(scorer, o, scorer.score(o)) for o in outcomes(spec, 3, range(seed, seed + 1))]
    for scorer, o, ds in scored:
        result = scorer.deal_result(o)
        if o.kind != DealKind.GAME:
            continue
        assert result is not None
        assert ds.note.startswith("made" if result.made else "failed"), (o, ds.note)
        made += result.made
        if "cut" not in ds.note:
            assert abs(ds.pulya[o.declarer]) % scorer.contract_terms(o.contract, o.hand_game).price == 0
        liability = scorer.whist_liability(o)
        if o.contract == HR_BETTEL or any(o.contra):
            continue  # Bettel has no whist penalty; a contra-er's penalty is another rule
        for s in o.seats:
            if s != o.declarer:
                assert (ds.pulya[s] < 0) == (s in liability and liability[s].short > 0), (o, ds)
        short += sum(x.short > 0 for x in liability.values())
    assert short > 3 and made > 10


def test_contract_terms() -> None:
    sochi = family_of("russian").scorer(resolve("sochi"), 3, 20)
    t = sochi.contract_terms(trick_bid(7, 4))
    assert (t.label, t.level, t.strain, t.no_tricks, t.price) == ("7h", 7, "h", False, 4)
    m = sochi.contract_terms(MISER)
    assert (m.label, m.level, m.strain, m.no_tricks, m.price) == ("miser", 0, "miser", True, 10)
    hr = family_of("croatian").scorer(resolve("croatian"), 3, 0)
    assert hr.contract_terms(4, hand_game=True).price == 10 and hr.contract_terms(4).price == 8
    b = hr.contract_terms(HR_BETTEL)
    assert (b.label, b.strain, b.no_tricks, b.price) == ("bettel", "bettel", True, 12)
    assert sochi.value_rates().pulya == 0 and hr.value_rates().pulya == resolve("croatian").pool_point_visty


def test_liability_edge_cases() -> None:
    """No play, a level without obligation, the 4-player dealer who returned the whist (he answers for
    the side, seed 001), the lone whister's contra as an invitation (Croatian), the second whister at 8."""
    sochi = RussianScorer(resolve("sochi"), 4, 20)
    base = DealOutcome(1, 0, 4, DealKind.GAME, declarer=1, contract=trick_bid(6, 1), tricks=(0, 7, 2, 1),
                       calls=(N, N, CALL_PASS, CALL_PASS), half_whister=3, returner=0)
    assert sochi.whist_liability(base) == {0: Liability(4, 1)}
    for kind in (DealKind.NOT_WHISTED, DealKind.HALF_WHIST):
        assert sochi.whist_liability(DealOutcome(1, 0, 3, kind, declarer=1, contract=trick_bid(6, 1))) == {}
    eight = DealOutcome(1, 0, 3, DealKind.GAME, declarer=1, contract=trick_bid(8, 5), tricks=(0, 10, 0),
                        calls=(CALL_WHIST, N, CALL_WHIST), whist_order=(2, 0))
    assert RussianScorer(resolve("sochi"), 3, 20).whist_liability(eight) == {0: Liability(1, 1), 2: Liability(0, 0)}
    conceded = DealOutcome(1, 0, 3, DealKind.CONCEDED, declarer=1, contract=trick_bid(7, 1))
    down = sochi.deal_result(conceded)
    assert down is not None and (down.made, down.undertricks) == (False, 3)
    hr = CroatianScorer(resolve("croatian"), 3)
    lone = DealOutcome(1, 0, 3, DealKind.GAME, declarer=1, contract=4, tricks=(3, 6, 1),
                       calls=(CALL_WHIST, N, CALL_PASS),
                       contra=(1, 0, 0))
    assert hr.whist_liability(lone) == {0: Liability(4, 0)}
    uninvited = DealOutcome(1, 0, 3, DealKind.GAME, declarer=1, contract=4, tricks=(1, 6, 3),
                            calls=(CALL_WHIST, N, CALL_PASS))
    assert hr.whist_liability(uninvited) == {0: Liability(2, 1)}
    result = hr.deal_result(uninvited)
    assert result is not None and (result.made, result.undertricks) == (True, 0)
