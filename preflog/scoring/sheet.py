"""The score sheet ("пулька", the paper sheet) and what one deal writes on it.

Russian family: per player the pulya ("пуля", contract points), the gora ("гора",
penalties) and the visty ("висты") he writes on each opponent. Croatian family: the
contract column (starts at −start, ends at 0) in ``pulya``, the juha ("юха") written
on each opponent in ``visty``, and the refe/hat state kept by the Croatian scorer.

Values are ints except where a rule halves an odd number (Rostov raspasy ties,
gentleman's whist): those are :class:`fractions.Fraction`. Settlement is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from fractions import Fraction

from ..errors import ScoringError

Number = int | Fraction


class StartSheetError(ScoringError):
    """A starting sheet (totals a pulka continues from) with a value the rules cannot produce, or a
    family that cannot start from totals. Names where: ``seat`` (None = the sheet as a whole),
    ``area`` (``pulya``, ``gora`` or ``visty``) and, for visty, ``on`` (the seat written on)."""

    def __init__(self, message: str, seat: int | None = None, area: str | None = None,
                 on: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.area = area
        self.on = on


@dataclass(frozen=True, slots=True)
class DealScore:
    """What one deal writes on the sheet: per-seat deltas (``visty[i][j]`` = written by i on j)."""

    pulya: tuple[Number, ...]
    gora: tuple[Number, ...]
    visty: tuple[tuple[Number, ...], ...]
    note: str = ""  # e.g. "help 4 to C", "refe", "hat"

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


@dataclass(slots=True)
class Sheet:
    """Running totals of a pulka's sheet."""

    n: int
    pulya: list[Number] = field(default_factory=list)
    gora: list[Number] = field(default_factory=list)
    visty: list[list[Number]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.pulya:
            self.pulya = [0] * self.n
            self.gora = [0] * self.n
            self.visty = [[0] * self.n for _ in range(self.n)]

    def add(self, d: DealScore) -> None:
        for i in range(self.n):
            self.pulya[i] += d.pulya[i]
            self.gora[i] += d.gora[i]
            row, drow = self.visty[i], d.visty[i]
            for j in range(self.n):
                row[j] += drow[j]

    def copy(self) -> Sheet:
        return Sheet(self.n, list(self.pulya), list(self.gora), [list(r) for r in self.visty])


@dataclass(frozen=True, slots=True)
class Settlement:
    """Final result per seat in visty: exact, and the two paper methods of seed 003 (integers).

    ``money`` is the result the rules show (:func:`~preflog.scoring.settlement.shown_result`) × the whist
    price. Every vector sums to zero.
    """

    exact: tuple[Fraction, ...]
    method1: tuple[int, ...]
    method2: tuple[int, ...]
    money: tuple[Fraction, ...] = ()
