"""The integer fast path of ``settle`` gives exactly what the Fraction path gives."""

from fractions import Fraction

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.rules import PRESETS
from preflog.scoring.settlement import settle


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
