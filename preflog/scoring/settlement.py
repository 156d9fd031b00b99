"""Final settlement ("расчёт пульки") of a Russian sheet, exact and by the two paper methods.

Exact (docs/rules.md §B1, closed form)::

    result_i = Σ_j (V_ij − V_ji) + g × (mean(gora) − gora_i) + k × (pulya_i − mean(pulya))

with ``g = rules.gora_point_visty`` (10) and ``k = rules.pool_point_visty`` (10, Leningrad 20).
The pool term vanishes when all pulyas are equal (the normal end of a pulka).

The two paper methods of seed 003 round this to whole visty:

* **Method 1** — amnesty ("амнистия": subtract the smallest gora), then every other player
  writes ``gora_i × g / n`` visty on player *i*, visty are netted pairwise and summed.
* **Method 2** — amnesty, then ``(mean gora − gora_i) × g`` plus the player's net visty.

When a division leaves a remainder the seed adds or removes **one gora point** to a player and the
others compensate with ``round_half_up(g / n)`` visty each on him (3 players: 10/3 → 3; 4 players:
10/4 = 2.5 → 3). Who gets the point (the seed leaves it to the players or the lot):

* method 1 — every player whose own ``gora × g`` does not divide by *n* is adjusted, by the ±1
  that makes it divide (+1 when both do, as at 4 players); this is forced by the method;
* method 2 — one point goes to the player with the **smallest positive gora after amnesty**
  (lowest seat on ties), +1 when that makes the total divide (else −1).

Both rules reproduce the seed's example (docs/rules.md §B1): method 1 З +31, В −30, Ю −1 (В 11 → 12),
method 2 З +31, В −29, Ю −2 (Ю 6 → 7), exact +30⅔ / −29⅓ / −1⅓.

Unequal pulyas enter the methods as extra gora: ``(max pulya − pulya_i) × k / g`` points (none
with ``settle_unequal_pulya=False``).

House rule ``settlement_divisor="others"``: each other player writes ``gora_i × g / (n − 1)`` on
player *i*, so the owner of a gora pays all of it (``g × gora_i``) and the exact form becomes
``Σ_j (V_ij − V_ji) + g × (Σ gora − n × gora_i) / (n − 1)``; the methods fix remainders against
``n − 1`` (at three players ``g / 2`` always divides) and otherwise round at the end.
Fractional sheet entries (gentleman's halves, Rostov ties) keep the methods exact until the end,
where the result is rounded to whole visty by largest remainder, keeping the sum zero.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Final

from mypy_extensions import i64

from ..rules.choices import SettlementDivisor
from ..rules.choices import SettlementRounding
from ..rules.config import Rules
from .sheet import Number
from .sheet import Settlement


def settle(
    pulya: Sequence[Number],
    gora: Sequence[Number],
    visty: Sequence[Sequence[Number]],
    rules: Rules,
    whist_price: Number = 1,
) -> Settlement:
    """Settle a sheet (``visty[i][j]`` = written by *i* on *j*); every result vector sums to zero."""
    n = len(gora)
    if n < 2 or len(pulya) != n or len(visty) != n or not _square(visty, n):
        raise ValueError(f"settlement: sheet shape mismatch (pulya {len(pulya)}, gora {n}, visty {len(visty)} rows)")
    t = _terms(rules)
    if t.ints and n <= _INT_SEATS_MAX:
        counts = _int_counts(_as_list(pulya), _as_list(gora), [_as_list(row) for row in visty], t.gp, t.pp)
        if counts is not None:
            return _priced(_settle_ints(counts[0], counts[1], t.gp), whist_price, t.shown)
    gp = t.gp
    pp = t.pp
    d = n - 1 if t.others else n
    net = [Fraction(sum(visty[i])) - sum(Fraction(visty[j][i]) for j in range(n)) for i in range(n)]
    top = max(pulya)
    # pulya shortfall expressed as gora points, so one gora-based formula covers both terms
    eff = [Fraction(gora[i]) + Fraction((top - pulya[i]) * pp, gp) for i in range(n)]
    total = sum(eff, Fraction(0))
    # Σ_{j≠i} gp·eff_j/d − (n−1)·gp·eff_i/d = gp·(total − n·eff_i)/d (d = n: gp·(mean − eff_i))
    exact = tuple(net[i] + gp * (total - n * eff[i]) / d for i in range(n))

    low = min(eff)
    amnestied = [e - low for e in eff]
    m1 = _method1(amnestied, net, gp, d)
    m2 = _method2(amnestied, net, gp, d)
    return _priced(Settlement(exact=exact, method1=m1, method2=m2), whist_price, t.shown)


# the result settlement_rounding shows (_Terms.shown)
_SHOW_EXACT: Final = 0
_SHOW_METHOD1: Final = 1
_SHOW_METHOD2: Final = 2


class _Terms:
    """What a settlement reads of its rules, read once per :class:`Rules` object (rules are frozen; the
    replay settles every pulka, and an option read from the interpreted ``Rules`` costs a lookup)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules  # (held: the cache is keyed by its id)
        self.gp: int = rules.gora_point_visty
        # settle_unequal_pulya=False: pulyas play no part (a zero price per point drops the term)
        self.pp: int = rules.pool_point_visty if rules.settle_unequal_pulya else 0
        # settlement_divisor: each other player writes gora × gp / d on its owner (d = n, or n − 1)
        self.others = rules.settlement_divisor == SettlementDivisor.OTHERS
        rounding = rules.settlement_rounding
        self.shown = (_SHOW_EXACT if rounding == SettlementRounding.EXACT
                      else _SHOW_METHOD2 if rounding == SettlementRounding.METHOD2 else _SHOW_METHOD1)
        # the integer path: whole prices per gora and pulya point, gora divided by n
        self.ints = (type(self.gp) is int and type(self.pp) is int and not self.others
                     and -_INT_PRICE_MAX < self.gp < _INT_PRICE_MAX and -_INT_PRICE_MAX < self.pp < _INT_PRICE_MAX)


_TERMS: Final[dict[int, _Terms]] = {}
_TERMS_KEPT: Final = 64


def _terms(rules: Rules) -> _Terms:
    """The :class:`_Terms` of ``rules``, remembered by the object's id (the entry holds the object, so
    the id is not reused while it is kept)."""
    t = _TERMS.get(id(rules))
    if t is None or t.rules is not rules:
        if len(_TERMS) >= _TERMS_KEPT:
            _TERMS.clear()
        t = _Terms(rules)
        _TERMS[id(rules)] = t
    return t


def _square(visty: Sequence[Sequence[Number]], n: int) -> bool:
    for row in visty:
        if len(row) != n:
            return False
    return True


_PRICE = re.compile(r"[0-9]+(?:[.,][0-9]+)?(?:/[0-9]+)?")


def whist_price_value(text: str) -> Fraction:
    """The value of a whist price ("цена виста") as a record writes it: a non-negative number, whole,
    decimal (point or comma) or a fraction: ``1``, ``0.5``, ``0,5``, ``1/2``, ``100``. Anything else
    (a sign, a currency, a zero denominator) is a ``ValueError``.

    >>> whist_price_value("0,5"), whist_price_value("100"), whist_price_value("1/4")
    (Fraction(1, 2), Fraction(100, 1), Fraction(1, 4))
    """
    return _price_of(text)


@lru_cache(maxsize=256)
def _price_of(text: str) -> Fraction:
    """:func:`whist_price_value`, remembered (every pulka reads its price; a store holds a handful)."""
    t = text.strip()
    if len(t) > 40 or not _PRICE.fullmatch(t):
        raise ValueError(f"{text!r} is not a whist price (a number such as 1, 0.5 or 1/2)")
    try:
        return Fraction(t.replace(",", "."))
    except ZeroDivisionError:
        raise ValueError(f"{text!r} is not a whist price (a zero denominator)") from None


def priced(settlement: Settlement, whist_price: Number, rules: Rules) -> Settlement:
    """``settlement`` with its money column at ``whist_price`` per vist: the result the rules show
    (:func:`shown_result`: method 1 under the Russian presets, exact under the Croatian) × the price.
    Seed 003: "the final result in visty … multiplied by the price of a vist gives the win or loss
    in money", З +31 visty at 100 a vist = 3100."""
    return _priced(settlement, whist_price, _terms(rules).shown)


def _priced(settlement: Settlement, whist_price: Number, shown: int) -> Settlement:
    """:func:`priced`, the shown result given as a ``_SHOW_*`` value."""
    return Settlement(settlement.exact, settlement.method1, settlement.method2,
                      _money(_shown(settlement, shown), whist_price))


def _money(shown: tuple[Number, ...], whist_price: Number) -> tuple[Fraction, ...]:
    if type(whist_price) is int:
        p = whist_price
    else:
        price = whist_price if type(whist_price) is Fraction else Fraction(whist_price)
        if price.denominator != 1:
            return tuple([Fraction(x) * price for x in shown])
        p = price.numerator
    # a whole price (the common case): one Fraction per seat, no products of Fractions
    out: list[Fraction] = []
    for x in shown:
        out.append(_ratio(x * p, 1) if type(x) is int else Fraction(x) * p)
    return tuple(out)


def shown_result(settlement: Settlement, rules: Rules) -> tuple[Number, ...]:
    """The settlement shown as *the* result, by ``rules.settlement_rounding``: the exact fractions
    (``exact``, Croatian), the amnesty-and-share method (``method1``, the Russian presets) or the
    paper mean method (``method2``). All three stay in the :class:`Settlement`.

    Seed 003 (docs/rules.md §B1) under Sochi (``method1``): З +31, В −30, Ю −1; with ``method2``
    З +31, В −29, Ю −2; with ``exact`` З +30⅔, В −29⅓, Ю −1⅓.
    """
    return _shown(settlement, _terms(rules).shown)


def _shown(settlement: Settlement, shown: int) -> tuple[Number, ...]:
    if shown == _SHOW_EXACT:
        return tuple([_exact_number(x) for x in settlement.exact])
    if shown == _SHOW_METHOD2:
        return settlement.method2
    return settlement.method1


def _exact_number(x: Fraction) -> Number:
    return x.numerator if x.denominator == 1 else x


_INT_MAX: Final = 1 << 32
_INT_PRICE_MAX: Final = 1 << 12
_INT_SEATS_MAX: Final = 16
"""The integer path takes sheets of at most 16 seats with entries below 2³² and gora and pulya point
prices below 2¹² in magnitude: every sum and product it forms then stays below 2⁵⁵ and fits a machine
word (the compiled kernel's ``i64``); any other sheet takes the Fraction path, which gives the same
results, in both kernels alike."""


def _int_counts(pulya: list[Number], gora: list[Number], visty: list[list[Number]], gp: i64,
                pp: i64) -> tuple[list[i64], list[i64]] | None:
    """For a sheet of plain ints (no Fraction, no bool) below :data:`_INT_MAX`: per seat the net visty
    (written − received) and the gora counted in visty (``gora × gp + (max pulya − pulya) × pp``); None
    when an entry is not one. (Sums kept in locals: the compiled kernel adds machine ints.)"""
    n = len(gora)
    net: list[i64] = []
    for row in visty:
        written: i64 = 0
        for v in row:
            if type(v) is not int or not -_INT_MAX < v < _INT_MAX:
                return None
            x: i64 = v
            written += x
        net.append(written)
    for j in range(n):
        received: i64 = 0
        for row in visty:
            v = row[j]
            if type(v) is not int:  # (checked above: tells the type)
                return None
            y: i64 = v
            received += y
        net[j] = net[j] - received
    top: i64 = 0
    for i in range(n):
        p = pulya[i]
        if type(p) is not int or not -_INT_MAX < p < _INT_MAX:
            return None
        if i == 0 or p > top:
            top = p
    e: list[i64] = []
    for i in range(n):
        g = gora[i]
        p = pulya[i]
        if type(g) is not int or not -_INT_MAX < g < _INT_MAX or type(p) is not int:
            return None
        z: i64 = g
        w: i64 = p
        e.append(z * gp + (top - w) * pp)
    return net, e


def _as_list(values: Sequence[Number]) -> list[Number]:
    return values if isinstance(values, list) else list(values)


def _settle_ints(net: list[i64], e: list[i64], gp: i64) -> Settlement:
    """:func:`settle` for a sheet of ints (:func:`_int_counts`: net visty ``net`` and gora in visty ``e``),
    in integers (the replay settles every pulka; Fractions cost ≈ 10× more). Gora points are counted in
    ``1/gp`` (``e`` = eff × gp, ``a`` = amnestied × gp); the two methods end as ``(n × (net − a) + Σa) / n``
    and are rounded like :func:`round_zero_sum`. (Machine ints in the compiled kernel: :data:`_INT_MAX`
    bounds every value.)"""
    n: i64 = len(e)
    total_e: i64 = 0
    low: i64 = e[0]
    for x in e:
        total_e += x
        if x < low:
            low = x
    exact = tuple([_ratio(n * (net[i] - e[i]) + total_e, n) for i in range(n)])
    comp: i64 = (2 * gp + n) // (2 * n)  # compensation(gp, n) without Fractions
    # method 1: every player whose gora × gp does not divide by n moves one point
    g1: list[i64] = [x - low for x in e]
    net1 = list(net)
    s1: i64 = 0
    for i in range(n):
        d = _fix_direction_ints(g1[i], gp, n)
        if d:
            _move_point_ints(g1, net1, i, d * gp, d * comp)
        s1 += g1[i]
    m1 = _round_ints([n * (net1[i] - g1[i]) + s1 for i in range(n)], n)
    # method 2: one point to the smallest positive gora (lowest seat on ties) when the total does not divide
    g2: list[i64] = [x - low for x in e]
    net2 = list(net)
    s2: i64 = 0
    for x in g2:
        s2 += x
    d = _fix_direction_ints(s2, gp, n)
    if d:
        who: i64 = -1
        for i in range(n):
            if g2[i] > 0 and (d > 0 or g2[i] >= gp) and (who < 0 or g2[i] < g2[who]):
                who = i
        if who >= 0:
            _move_point_ints(g2, net2, who, d * gp, d * comp)
            s2 += d * gp
    m2 = _round_ints([n * (net2[i] - g2[i]) + s2 for i in range(n)], n)
    return Settlement(exact, m1, m2)


# Fractions made from ints, remembered: a settlement's columns hold few distinct small values, and the
# Fraction constructor runs in Python (≈ 0.5 µs, against a dict lookup) — the replay settles every pulka
_RATIOS: Final[dict[int, Fraction]] = {}
_RATIOS_KEPT: Final = 8192


def _ratio(num: int, den: int) -> Fraction:
    """``Fraction(num, den)`` for ints, remembered while ``0 < den < 16`` and ``|num|`` is below 2³²."""
    if not (0 < den < 16 and -_INT_MAX < num < _INT_MAX):
        return Fraction(num, den)
    key = num * 16 + den
    f = _RATIOS.get(key)
    if f is None:
        f = Fraction(num) if den == 1 else Fraction(num, den)
        if len(_RATIOS) < _RATIOS_KEPT:
            _RATIOS[key] = f
    return f


def _fix_direction_ints(a: i64, gp: i64, n: i64) -> i64:
    """:func:`_fix_direction` of the gora ``a / gp``."""
    if a % gp or a % n == 0:
        return 0
    if (a + gp) % n == 0:
        return 1
    if a >= gp and (a - gp) % n == 0:
        return -1
    return 0


def _round_ints(numerators: list[i64], n: i64) -> tuple[int, ...]:
    """:func:`round_zero_sum` of ``numerators[i] / n``: the missing units to the largest remainders,
    the lower seat first on ties."""
    floors: list[i64] = [x // n for x in numerators]
    missing: i64 = 0
    for x in floors:
        missing -= x
    if missing:
        taken = [False] * len(floors)
        for _ in range(missing):
            best: i64 = -1
            for i in range(len(floors)):
                if not taken[i] and (best < 0 or numerators[i] % n > numerators[best] % n):
                    best = i
            if best < 0:
                break
            taken[best] = True
            floors[best] = floors[best] + 1
    return tuple([int(x) for x in floors])


def compensation(gp: int, n: int) -> int:
    """Visty each other player gives back for one gora point moved (round half up: 3p 3, 4p 3)."""
    return math.floor(Fraction(gp, n) + Fraction(1, 2))


def _fix_direction(g: Fraction, gp: int, n: int) -> int:
    """The ±1 gora point making ``g × gp`` divide by *n* (+1 preferred), 0 if none is needed or possible."""
    if g.denominator != 1 or (g * gp) % n == 0:
        return 0
    if ((g + 1) * gp) % n == 0:
        return 1
    if g >= 1 and ((g - 1) * gp) % n == 0:
        return -1
    return 0


def _method1(g0: list[Fraction], net0: list[Fraction], gp: int, divisor: int = 0) -> tuple[int, ...]:
    n = len(g0)
    dv = divisor or n  # what a gora is divided by (settlement_divisor)
    g, net = list(g0), list(net0)
    comp = compensation(gp, dv)
    for i in range(n):
        d = _fix_direction(g[i], gp, dv)
        if d:
            _move_point(g, net, i, d, comp)
    share = [gi * gp / dv for gi in g]  # visty each other player writes on i for his gora
    total = sum(share, Fraction(0))
    res = [net[i] - share[i] * (n - 1) + (total - share[i]) for i in range(n)]
    return round_zero_sum(res)


def _method2(g0: list[Fraction], net0: list[Fraction], gp: int, divisor: int = 0) -> tuple[int, ...]:
    n = len(g0)
    dv = divisor or n  # what a gora is divided by (settlement_divisor)
    g, net = list(g0), list(net0)
    total = sum(g, Fraction(0))
    d = _fix_direction(total, gp, dv)
    if d:
        candidates = [i for i in range(n) if g[i] > 0 and (d > 0 or g[i] >= 1)]
        if candidates:
            who = min(candidates, key=lambda i: (g[i], i))
            _move_point(g, net, who, d, compensation(gp, dv))
    total = sum(g, Fraction(0))
    # divisor n: gp × (mean − g_i); divisor n − 1: gp × (total − n·g_i) / (n − 1)
    return round_zero_sum([net[i] + gp * (total - n * g[i]) / dv for i in range(n)])


def _move_point(g: list[Fraction], net: list[Fraction], who: int, d: int, comp: int) -> None:
    """Add (d=+1) or remove (d=−1) a gora point; the others remove (add) ``comp`` visty on him."""
    g[who] += d
    step = d * comp
    for j in range(len(g)):
        if j != who:
            net[j] -= step
            net[who] += step


def _move_point_ints(g: list[i64], net: list[i64], who: i64, dg: i64, step: i64) -> None:
    """:func:`_move_point` in gora counted in 1/gp: ``dg`` is ±gp, ``step`` ±comp."""
    g[who] = g[who] + dg
    for j in range(len(g)):
        if j != who:
            net[j] = net[j] - step
            net[who] = net[who] + step


def round_zero_sum(values: Sequence[Fraction]) -> tuple[int, ...]:
    """Whole visty summing to zero: floor everything, hand the missing units to the largest remainders
    (both families' paper rounding of an exact settlement)."""
    floors = [math.floor(v) for v in values]
    missing = -sum(floors)  # sum(values) == 0, so this is the number of units to hand out
    order = sorted(range(len(values)), key=lambda i: (-(values[i] - floors[i]), i))
    for i in order[:missing]:
        floors[i] += 1
    return tuple(floors)
