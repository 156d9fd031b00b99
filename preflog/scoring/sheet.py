"""The score sheet ("пулька", the paper sheet) and what one deal writes on it.

Russian family: per player the pulya ("пуля", contract points), the gora ("гора",
penalties) and the visty ("висты") he writes on each opponent. Croatian family: the
contract column (starts at −start, ends at 0) in ``pulya``, the juha ("юха") written
on each opponent in ``visty``, and the refe/hat state kept by the Croatian scorer.

Values are ints except where a rule halves an odd number (Rostov raspasy ties,
gentleman's whist): those are :class:`fractions.Fraction`. Settlement is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from .errors import StartSheetError

Number = int | Fraction


@dataclass(init=False, unsafe_hash=True)
class DealScore:
    """What one deal writes on the sheet: per-seat deltas (``visty[i][j]`` = written by i on j).

    A value, built once per deal on the replay's hot path: its ``__init__`` is written out so that the
    compiled kernel builds it natively (see :class:`~preflog.model.outcome.DealOutcome`)."""

    pulya: tuple[Number, ...]
    gora: tuple[Number, ...]
    visty: tuple[tuple[Number, ...], ...]
    note: str = ""  # e.g. "help 4 to C", "refe", "hat"

    # <written out from the fields above by `python -m preflog.generated`: do not edit>
    def __init__(self, pulya: tuple[Number, ...], gora: tuple[Number, ...], visty: tuple[tuple[Number, ...], ...],
                 note: str = "") -> None:
        self.pulya = pulya
        self.gora = gora
        self.visty = visty
        self.note = note

    def __reduce__(self) -> tuple[type[DealScore], tuple[object, ...]]:
        return (DealScore, (self.pulya, self.gora, self.visty, self.note))
    # </written out>

    @staticmethod
    def zero(n: int) -> DealScore:
        return DealScore((0,) * n, (0,) * n, tuple((0,) * n for _ in range(n)))

    def value(self, seat: int, gora_point: int = 10) -> Fraction:
        """This deal's worth in visty to one seat, before settlement's pool/gora balancing:
        net visty written minus received, minus its gora × ``gora_point`` relative to the table mean."""
        n = len(self.gora)
        net = sum(self.visty[seat]) - sum(row[seat] for row in self.visty)
        mean_gora = Fraction(sum(self.gora), n)
        return Fraction(net) + gora_point * (mean_gora - self.gora[seat])


ZERO_ROWS: Final[tuple[tuple[Number, ...], ...]] = tuple((0,) * n for n in range(5))
"""The row of zeros of each table size (up to 4), one shared tuple each: a scorer freezes a row of a deal that
nobody wrote as this very tuple, and :meth:`Sheet.add` skips it by identity, without reading its cells."""


@dataclass(init=False)
class Sheet:
    """Running totals of a pulka's sheet: ``Sheet(n)`` is a blank sheet; given totals are copied."""

    n: int
    pulya: list[Number]
    gora: list[Number]
    visty: list[list[Number]]

    def __init__(self, n: int, pulya: Sequence[Number] = (), gora: Sequence[Number] = (),
                 visty: Sequence[Sequence[Number]] = ()) -> None:
        self.n = n
        if pulya:
            self.pulya = list(pulya)
            self.gora = list(gora)
            self.visty = [list(r) for r in visty]
        else:
            self.pulya = [0] * n
            self.gora = [0] * n
            self.visty = [[0] * n for _ in range(n)]

    def __reduce__(self) -> tuple[type[Sheet], tuple[object, ...]]:
        return (Sheet, (self.n, self.pulya, self.gora, self.visty))

    def add(self, d: DealScore) -> None:
        n = self.n
        pulya, gora, visty = self.pulya, self.gora, self.visty
        zero = ZERO_ROWS[n] if n < len(ZERO_ROWS) else None
        # (most cells of a deal are 0: only the others are added; a deal's rows have n cells, and enumerate
        # walks a tuple natively in the compiled kernel, cheaper than indexing it)
        for i, x in enumerate(d.pulya):
            if x:
                pulya[i] += x
        for i, x in enumerate(d.gora):
            if x:
                gora[i] += x
        for i, drow in enumerate(d.visty):
            if drow is zero:  # the shared row of zeros (a scorer's row nobody wrote): nothing to add
                continue
            row = visty[i]
            for j, x in enumerate(drow):
                if x:
                    row[j] += x

    def copy(self) -> Sheet:
        return Sheet(self.n, self.pulya, self.gora, self.visty)


@dataclass(init=False, unsafe_hash=True)
class Settlement:
    """Final result per seat in visty: exact, and the two paper methods of seed 003 (integers).

    ``money`` is the result the rules show (:func:`~preflog.scoring.settlement.shown_result`) × the whist
    price. Every vector sums to zero.
    """

    exact: tuple[Fraction, ...]
    method1: tuple[int, ...]
    method2: tuple[int, ...]
    money: tuple[Fraction, ...] = ()

    # <written out from the fields above by `python -m preflog.generated`: do not edit>
    def __init__(self, exact: tuple[Fraction, ...], method1: tuple[int, ...], method2: tuple[int, ...],
                 money: tuple[Fraction, ...] = ()) -> None:
        self.exact = exact
        self.method1 = method1
        self.method2 = method2
        self.money = money

    def __reduce__(self) -> tuple[type[Settlement], tuple[object, ...]]:
        return (Settlement, (self.exact, self.method1, self.method2, self.money))
    # </written out>


__all__ = ["ZERO_ROWS", "DealScore", "Number", "Settlement", "Sheet", "StartSheetError"]
