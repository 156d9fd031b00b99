"""Property tests: settlement is zero-sum for any sheet, and scoring random valid deals keeps it so."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.engine.replay import audit
from preflog.model.bids import MISER
from preflog.model.bids import RU_LADDER
from preflog.model.bids import is_trick_contract
from preflog.model.bids import level_of
from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.events import PulkaEnded
from preflog.model.outcome import NO_SEAT
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules import LENINGRAD
from preflog.rules import ROSTOV
from preflog.rules import SOCHI
from preflog.rules import Rules
from preflog.scoring.russian import RussianScorer
from preflog.scoring.settlement import settle
from preflog.scoring.settlement import shown_result

from ..strategies import RUSSIAN_TABLES
from ..strategies import draw_pulka

RULESETS = [
    SOCHI, LENINGRAD, ROSTOV,
    SOCHI.replace(raspasy_progression="geometric", raspasy_cap=4, raspasy_exit="made_game",
                  high_level_liability="split", whisters_share_penalty=True),
    SOCHI.replace(split_with_passer_on_remiz=True, consolation_half_to_returner=False, american_help=False),
]

values = st.one_of(st.integers(0, 200), st.fractions(0, 200, max_denominator=2))


@st.composite
def sheets(draw: st.DrawFn) -> tuple[list, list, list]:
    n = draw(st.sampled_from([3, 4]))
    pulya = draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
    gora = draw(st.lists(values, min_size=n, max_size=n))
    visty = [[0 if i == j else draw(values) for j in range(n)] for i in range(n)]
    return pulya, gora, visty


@given(sheets(), st.sampled_from(RULESETS), st.integers(1, 100))
@settings(max_examples=300, deadline=None)
def test_settlement_zero_sum(sheet: tuple[list, list, list], rules, price: int) -> None:
    """Every result vector sums to zero; paper methods stay within n visty of the exact value
    (each ±1-point move shifts a player by < 2 visty, plus < 1 of final rounding); money = the result the
    rules show × price."""
    pulya, gora, visty = sheet
    s = settle(pulya, gora, visty, rules, whist_price=price)
    n = len(gora)
    assert sum(s.exact) == 0 and sum(s.method1) == 0 and sum(s.method2) == 0
    assert all(abs(m - e) <= n for m, e in zip(s.method1, s.exact, strict=True))
    assert all(abs(m - e) <= n for m, e in zip(s.method2, s.exact, strict=True))
    assert s.money == tuple(e * price for e in shown_result(s, rules))


def _split(draw: st.DrawFn, total: int, parts: int) -> list[int]:
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    edges = [0, *cuts, total]
    return [edges[k + 1] - edges[k] for k in range(parts)]


@st.composite
def outcomes(draw: st.DrawFn, n: int) -> DealOutcome:
    dealer = draw(st.integers(0, n - 1))
    seats = [s for s in range(n) if not (n == 4 and s == dealer)]
    kind = draw(st.sampled_from([DealKind.GAME, DealKind.GAME, DealKind.GAME, DealKind.MISER, DealKind.RASPASY,
                DealKind.NOT_WHISTED, DealKind.HALF_WHIST]))
    if kind == DealKind.RASPASY:
        talon = draw(st.integers(0, 2)) if n == 4 else 0
        parts = _split(draw, 10 - talon, len(seats))
        tricks = [0] * n
        for s, t in zip(seats, parts, strict=True):
            tricks[s] = t
        if n == 4:
            tricks[dealer] = talon
        return DealOutcome(deal=1, dealer=dealer, n_players=n, kind=DealKind.RASPASY, tricks=tuple(tricks))
    declarer = draw(st.sampled_from(seats))
    defenders = [(declarer + k) % n for k in range(1, n) if (declarer + k) % n in seats]
    tricks = [0] * n
    for s, t in zip([declarer, *defenders], _split(draw, 10, 3), strict=True):
        tricks[s] = t
    calls = [-1] * n
    if kind == DealKind.MISER:
        return DealOutcome(deal=1, dealer=dealer, n_players=n, kind=kind, declarer=declarer, contract=MISER,
                           tricks=tuple(tricks), calls=tuple(calls))
    levels = [6, 7] if kind == DealKind.HALF_WHIST else [6, 7, 8, 9, 10]
    contract = draw(st.sampled_from([c for c in RU_LADDER if is_trick_contract(c) and level_of(c) in levels]))
    if kind in (DealKind.NOT_WHISTED, DealKind.HALF_WHIST):
        return DealOutcome(deal=1, dealer=dealer, n_players=n, kind=kind, declarer=declarer, contract=contract,
                           calls=tuple(calls), half_whister=defenders[1] if kind == DealKind.HALF_WHIST else NO_SEAT)
    checked = level_of(contract) == 10 and draw(st.booleans())
    first, second = defenders
    pattern = draw(st.sampled_from(["both", "first", "second", "returned"]))
    half, returner = NO_SEAT, NO_SEAT
    if pattern == "returned" and level_of(contract) in (6, 7):
        half, returner, pattern = second, first, "first"
    elif pattern == "returned":
        pattern = "both"
    whisters = {"both": [first, second], "first": [first], "second": [second]}[pattern]
    for s in defenders:
        calls[s] = CALL_WHIST if s in whisters else CALL_PASS
    order = tuple(whisters) if draw(st.booleans()) else tuple(reversed(whisters))
    return DealOutcome(deal=1, dealer=dealer, n_players=n, kind=DealKind.GAME, declarer=declarer, contract=contract,
                       tricks=tuple(tricks), calls=tuple(calls), whist_order=order, half_whister=half,
                       returner=returner, checked=checked, open_play=draw(st.booleans()))


@st.composite
def pulkas(draw: st.DrawFn) -> tuple[int, list[DealOutcome]]:
    n = draw(st.sampled_from([3, 4]))
    return n, draw(st.lists(outcomes(n), min_size=1, max_size=25))


@given(pulkas(), st.sampled_from(RULESETS), st.sampled_from([6, 20, 50]))
@settings(max_examples=200, deadline=None)
def test_scoring_random_deals_zero_sum(pulka: tuple[int, list[DealOutcome]], rules, pool: int) -> None:
    """Scoring any valid deals: settlement stays zero-sum; the sheet is the sum of the deal scores; and
    exact settlement minus the pool term equals the sum of per-deal values (settlement is linear)."""
    n, deals = pulka
    _check_linear(rules, n, pool, deals)


def _check_linear(rules: Rules, n: int, pool: int, deals: list[DealOutcome]) -> RussianScorer:
    sc = RussianScorer(rules, n, pool)
    total = [Fraction(0)] * n
    for o in deals:
        d = sc.score(o)
        for s in range(n):
            total[s] += d.value(s, rules.gora_point_visty)
    st_ = sc.settlement()
    assert sum(st_.exact) == 0 and sum(st_.method1) == 0 and sum(st_.method2) == 0
    mean_p = Fraction(sum(sc.sheet.pulya), n)
    pool_term = [rules.pool_point_visty * (p - mean_p) for p in sc.sheet.pulya]
    assert [e - t for e, t in zip(st_.exact, pool_term, strict=True)] == total
    if rules.american_help:
        assert all(p <= pool for p in sc.sheet.pulya)
    return sc


@given(st.data(), st.sampled_from(RUSSIAN_TABLES), st.sampled_from([2, 6, 20, 50]))
@settings(max_examples=60, deadline=None)
def test_played_pulkas_zero_sum(data: st.DataObject, table: tuple[str, int], pool: int) -> None:
    """Pulkas drawn action by action from the engine (card and paper deals): the audited sheet and
    settlement are zero-sum, and scoring the audited outcomes again gives the same sheet, linearly."""
    spec, n = table
    log = draw_pulka(data, spec, n, paper=None, max_deals=10 if pool < 6 else 6, pool=pool)
    res = audit(log)
    assert res.ok, res.codes()
    assert res.rules is not None and res.sheet is not None and res.settlement is not None
    outcomes = [d.outcome for d in res.deals if d.outcome is not None]
    assert len(outcomes) == len(res.deals)
    sc = _check_linear(res.rules, n, pool, outcomes)
    assert sc.sheet == res.sheet and sc.settlement() == res.settlement
    assert (log[-1] == PulkaEnded("closed")) == sc.is_finished()
