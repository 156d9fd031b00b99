"""The scoring layer's errors (interpreted: an error crosses process boundaries and keeps its fields
when pickled; the compiled value modules import it from here)."""

from __future__ import annotations

from ..errors import ScoringError


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

    def __reduce__(self) -> tuple[type[StartSheetError], tuple[object, ...]]:
        return (StartSheetError, (str(self), self.seat, self.area, self.on))


__all__ = ["StartSheetError"]
