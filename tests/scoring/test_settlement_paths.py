"""The integer fast path of ``settle`` gives exactly what the Fraction path gives."""

from fractions import Fraction

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.rules import PRESETS
from preflog.scoring.settlement import priced
from preflog.scoring.settlement import settle
from preflog.scoring.settlement import shown_result
from preflog.scoring.sheet import Number
from preflog.scoring.sheet import Settlement


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([3, 4]), st.data(), st.sampled_from(["sochi", "leningrad", "rostov"]))
def test_int_path_equals_fraction_path(n: int, data: st.DataObject, preset: str) -> None:
    """Ints take the fast path; the same sheet with one Fraction(x, 1) cell takes the general path."""
    pulya = data.draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
    gora = data.draw(st.lists(st.integers(0, 300), min_size=n, max_size=n))
    visty = [[0 if i == j else data.draw(st.integers(0, 500)) for j in range(n)] for i in range(n)]
    rules = PRESETS[preset]
    fast = settle(pulya, gora, visty, rules, 3)
    slow = settle(pulya, [Fraction(gora[0])] + gora[1:], visty, rules, 3)
    assert fast == slow
    assert sum(fast.exact) == 0 and sum(fast.method1) == 0 and sum(fast.method2) == 0


def _exact_types(s: Settlement) -> bool:
    return (all(type(x) is Fraction for x in s.exact) and all(type(x) is int for x in s.method1 + s.method2)
            and all(type(x) is Fraction for x in s.money))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([2, 3, 4, 5]), st.data(), st.sampled_from(["sochi", "leningrad", "rostov"]),
       st.sampled_from(["method1", "method2", "exact"]), st.booleans(),
       st.sampled_from([1, 3, Fraction(1), Fraction(100), Fraction(1, 2), Fraction(7, 4)]),
       st.sampled_from([30, 34]))
def test_int_path_equals_fraction_path_everywhere(n: int, data: st.DataObject, preset: str, rounding: str,
                                                  unequal: bool, price: int | Fraction, bits: int) -> None:
    """The integer path (machine ints in the compiled kernel) against the Fraction path, value for value
    and type for type, under every rounding shown, with and without the pulya term, at whole and
    fractional prices, on sheets with negative entries and with entries on both sides of the integer
    path's bound (2³²: the larger sheets go the Fraction path; a wrapped machine word would differ)."""
    big = 1 << bits
    cell = st.integers(-big, big)
    pulya = data.draw(st.lists(cell, min_size=n, max_size=n))
    gora = data.draw(st.lists(cell, min_size=n, max_size=n))
    visty = [[data.draw(cell) for _ in range(n)] for _ in range(n)]
    rules = PRESETS[preset].replace(settlement_rounding=rounding, settle_unequal_pulya=unequal)
    fast = settle(pulya, gora, visty, rules, price)
    one_fraction: list[list[Number]] = [list(row) for row in visty]
    one_fraction[0][0] = Fraction(visty[0][0])
    slow = settle(pulya, gora, one_fraction, rules, price)
    assert fast == slow
    assert _exact_types(fast) and _exact_types(slow)
    assert sum(fast.exact) == 0 and sum(fast.method1) == 0 and sum(fast.method2) == 0
    assert fast.money == tuple(Fraction(x) * price for x in shown_result(fast, rules))
    assert priced(fast, price, rules) == fast


def test_each_rules_object_shows_its_own_rounding() -> None:
    """What settle reads of its rules is kept per rules object: another rules object (the same options
    but the rounding) shows its own result, however the calls alternate. Seed 003 (B1.8): method 1
    shows З +31, В −30, Ю −1; method 2 З +31, В −29, Ю −2."""
    sheet = ([50, 50, 50], [8, 19, 14], [[0, 0, 0], [24, 0, 0], [2, 0, 0]])
    for _ in range(3):
        m1 = settle(*sheet, PRESETS["sochi"])
        m2 = settle(*sheet, PRESETS["sochi"].replace(settlement_rounding="method2"))
        assert m1.money == tuple(map(Fraction, (31, -30, -1))) and m2.money == tuple(map(Fraction, (31, -29, -2)))
