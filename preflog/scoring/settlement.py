"""Final settlement ("расчёт пульки") of a Russian sheet, exact and by the two paper methods.

Exact (RULES.md B1.7, closed form)::

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

Both rules reproduce the seed's example (RULES.md B1.8): method 1 З +31, В −30, Ю −1 (В 11 → 12),
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
from typing import Any
from typing import TypeGuard

from ..rules.choices import SettlementDivisor
from ..rules.choices import SettlementRounding
from ..rules.config import Rules
from .sheet import Number
from .sheet import Settlement


# gora and visty counts of one computation: all ints (the fast path) or all Fractions
def settle(
    pulya: Sequence[Number],
    gora: Sequence[Number],
    visty: Sequence[Sequence[Number]],
    rules: Rules,
    whist_price: Number = 1,
) -> Settlement:
    """Settle a sheet (``visty[i][j]`` = written by *i* on *j*); every result vector sums to zero."""
    n = len(gora)
    if n < 2 or len(pulya) != n or len(visty) != n or any(len(row) != n for row in visty):
        raise ValueError(f"settlement: sheet shape mismatch (pulya {len(pulya)}, gora {n}, visty {len(visty)} rows)")
    gp = rules.gora_point_visty
    # settle_unequal_pulya=False: pulyas play no part (a zero price per point drops the term)
    pp = rules.pool_point_visty if rules.settle_unequal_pulya else 0
    # settlement_divisor: each other player writes gora × gp / d on its owner (d = n, or n − 1)
    d = n - 1 if rules.settlement_divisor == SettlementDivisor.OTHERS else n
    sheet = (pulya, gora, visty)
    if type(gp) is int and type(pp) is int and d == n and _all_ints(sheet):
        return priced(_settle_ints(list(sheet[0]), list(sheet[1]), [list(r) for r in sheet[2]], gp, pp),
                      whist_price, rules)
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
    return priced(Settlement(exact=exact, method1=m1, method2=m2), whist_price, rules)


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
    price = whist_price if type(whist_price) is Fraction else Fraction(whist_price)
    shown = shown_result(settlement, rules)
    if price.denominator == 1:  # a whole price (the common case): one Fraction per seat, no products of Fractions
        p = price.numerator
        money = tuple(_ratio(x * p, 1) if type(x) is int else Fraction(x) * price for x in shown)
    else:
        money = tuple(Fraction(x) * price for x in shown)
    return Settlement(settlement.exact, settlement.method1, settlement.method2, money)


def shown_result(settlement: Settlement, rules: Rules) -> tuple[Number, ...]:
    """The settlement shown as *the* result, by ``rules.settlement_rounding``: the exact fractions
    (``exact``, Croatian), the amnesty-and-share method (``method1``, the Russian presets) or the
    paper mean method (``method2``). All three stay in the :class:`Settlement`.

    Seed 003 (RULES.md B1.8) under Sochi (``method1``): З +31, В −30, Ю −1; with ``method2``
    З +31, В −29, Ю −2; with ``exact`` З +30⅔, В −29⅓, Ю −1⅓.
    """
    if rules.settlement_rounding == SettlementRounding.EXACT:
        return tuple(_exact_number(x) for x in settlement.exact)
    if rules.settlement_rounding == SettlementRounding.METHOD2:
        return settlement.method2
    return settlement.method1


def _exact_number(x: Fraction) -> Number:
    return x.numerator if x.denominator == 1 else x


_Sheet = tuple[Sequence[Number], Sequence[Number], Sequence[Sequence[Number]]]
_IntSheet = tuple[Sequence[int], Sequence[int], Sequence[Sequence[int]]]


def _all_ints(sheet: _Sheet) -> TypeGuard[_IntSheet]:
    """Whether every entry of the sheet (pulya, gora, visty) is a plain int (no Fraction, no bool)."""
    pulya, gora, visty = sheet
    return (all(type(x) is int for x in pulya) and all(type(x) is int for x in gora)
            and all(type(x) is int for row in visty for x in row))


def _settle_ints(pulya: list[int], gora: list[int], visty: list[list[int]], gp: int, pp: int) -> Settlement:
    """:func:`settle` for a sheet of ints, in integers (the replay settles every pulka; Fractions cost
    ≈ 10× more). Gora points are counted in ``1/gp`` (``E`` = eff × gp, ``A`` = amnestied × gp); the
    two methods end as ``(n × (net − A) + ΣA) / n`` and are rounded like :func:`_round_zero_sum`.
    (Loops over lists written out: the compiled kernel runs them on machine ints.)"""
    n = len(gora)
    net: list[int] = []
    top = pulya[0]
    for i in range(n):
        written = received = 0
        for j in range(n):
            written += visty[i][j]
            received += visty[j][i]
        net.append(written - received)
        if pulya[i] > top:
            top = pulya[i]
    e: list[int] = []
    total_e = 0
    low = 0
    for i in range(n):
        x = gora[i] * gp + (top - pulya[i]) * pp
        e.append(x)
        total_e += x
        if i == 0 or x < low:
            low = x
    exact = tuple([_ratio(n * (net[i] - e[i]) + total_e, n) for i in range(n)])
    a = [x - low for x in e]
    comp = (2 * gp + n) // (2 * n)  # compensation(gp, n) without Fractions
    # method 1: every player whose gora × gp does not divide by n moves one point
    g1, net1 = list(a), list(net)
    for i in range(n):
        d = _fix_direction_ints(g1[i], gp, n)
        if d:
            _move_point(g1, net1, i, d * gp, comp, d)
    s1 = 0
    for x in g1:
        s1 += x
    m1 = _round_ints([n * (net1[i] - g1[i]) + s1 for i in range(n)], n)
    # method 2: one point to the smallest positive gora (lowest seat on ties) when the total does not divide
    g2, net2 = list(a), list(net)
    s2 = 0
    for x in g2:
        s2 += x
    d = _fix_direction_ints(s2, gp, n)
    if d:
        who = -1
        for i in range(n):
            if g2[i] > 0 and (d > 0 or g2[i] >= gp) and (who < 0 or g2[i] < g2[who]):
                who = i
        if who >= 0:
            _move_point(g2, net2, who, d * gp, comp, d)
            s2 += d * gp
    m2 = _round_ints([n * (net2[i] - g2[i]) + s2 for i in range(n)], n)
    return Settlement(exact=exact, method1=m1, method2=m2)


# Fractions made from ints, remembered: a settlement's columns hold few distinct small values, and the
# Fraction constructor runs in Python (≈ 0.5 µs, against a dict lookup) — the replay settles every pulka
_RATIOS: dict[int, Fraction] = {}
_RATIOS_KEPT = 8192


def _ratio(num: int, den: int) -> Fraction:
    """``Fraction(num, den)`` for ints, remembered while ``0 < den < 16`` and ``|num|`` is below 2⁴⁰."""
    if not (0 < den < 16 and -(1 << 40) < num < 1 << 40):
        return Fraction(num, den)
    key = num * 16 + den
    f = _RATIOS.get(key)
    if f is None:
        f = Fraction(num, den)
        if len(_RATIOS) < _RATIOS_KEPT:
            _RATIOS[key] = f
    return f


def _fix_direction_ints(a: int, gp: int, n: int) -> int:
    """:func:`_fix_direction` of the gora ``a / gp``."""
    if a % gp or a % n == 0:
        return 0
    if (a + gp) % n == 0:
        return 1
    if a >= gp and (a - gp) % n == 0:
        return -1
    return 0


def _round_ints(numerators: list[int], n: int) -> tuple[int, ...]:
    """:func:`_round_zero_sum` of ``numerators[i] / n``: the missing units to the largest remainders,
    the lower seat first on ties."""
    floors = [x // n for x in numerators]
    missing = 0
    for x in floors:
        missing -= x
    taken = [False] * len(floors)
    for _ in range(missing):
        best = -1
        for i in range(len(floors)):
            if not taken[i] and (best < 0 or numerators[i] % n > numerators[best] % n):
                best = i
        if best < 0:
            break
        taken[best] = True
        floors[best] += 1
    return tuple(floors)


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
    return _round_zero_sum(res)


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
    return _round_zero_sum([net[i] + gp * (total - n * g[i]) / dv for i in range(n)])


def _move_point(g: list[Any], net: list[Any], who: int, d: int, comp: int, sign: int | None = None) -> None:
    """Add (d=+1) or remove (d=−1) a gora point; the others remove (add) ``comp`` visty on him.
    (In gora counted in 1/gp, ``d`` is ±gp and ``sign`` ±1.)"""
    g[who] += d
    step = (d if sign is None else sign) * comp
    for j in range(len(g)):
        if j != who:
            net[j] -= step
            net[who] += step


def _round_zero_sum(values: list[Fraction]) -> tuple[int, ...]:
    """Whole visty summing to zero: floor everything, hand the missing units to the largest remainders."""
    floors = [math.floor(v) for v in values]
    missing = -sum(floors)  # sum(values) == 0, so this is the number of units to hand out
    order = sorted(range(len(values)), key=lambda i: (-(values[i] - floors[i]), i))
    for i in order[:missing]:
        floors[i] += 1
    return tuple(floors)
