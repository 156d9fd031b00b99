"""Corrections of a pulka's log: which events count once every :class:`~preflog.model.events.DealCorrected`
is applied (the log itself is append-only: a correction is a new event, nothing is edited in place).

A log is read as a head (its PulkaStarted and anything before the first deal), its deals (each from a
DealStarted to the next DealStarted or PulkaEnded, its score lines with it) and a tail (PulkaEnded and
anything after it). A ``DealCorrected(deal=N)`` right after a DealStarted takes deal ``N`` — numbered as
the deals stood just before it — out of the sheet: the deal it follows takes that place, or, when
``struck``, nothing does and the marking DealStarted goes with it. The effective log is the head, the
deals in sheet order, the tail; :meth:`preflog.engine.replay.Auditor.run` replays that and reports every
finding at the event's seq in the log as stored.

A correction that cannot apply (no DealStarted just before it, a deal number the sheet does not have,
after the end, a payload that does not decode) stays where it is, and the replay reports it
(``bad_correction``).

>>> from preflog.model.events import DealStarted, DealCorrected, PaperResult, PulkaStarted
>>> log = [PulkaStarted(("A", "B", "C")), DealStarted(2), PaperResult((4, 3, 3)),
...        DealStarted(0), PaperResult((1, 2, 7)), DealStarted(2), DealCorrected(1), PaperResult((3, 3, 4))]
>>> effective_positions([ev.to_row() for ev in log])
[0, 5, 7, 3, 4]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..model.events import DealCorrected
from ..model.events import DealStarted
from ..model.events import EventError
from ..model.events import PulkaEnded
from ..model.events import Row
from ..model.events import from_row

CORRECTED = DealCorrected.CODE
_DEAL = DealStarted.CODE
_ENDED = PulkaEnded.CODE


def _correction(row: Row) -> DealCorrected | None:
    try:
        ev = from_row(*row)
    except EventError:
        return None
    return ev if isinstance(ev, DealCorrected) else None


@dataclass(slots=True)
class DealFate:
    """What became of the deal block that starts at a DealStarted (positions are 0-based in the log)."""

    number: int
    """The deal number it took on the sheet when it was entered (a correction: the deal it corrects)."""
    correction: int | None = None
    """The position of its own DealCorrected, when the block is a correction (or a strike)."""
    struck: bool = False
    """The block only strikes deal :attr:`number` out."""
    removed_by: int | None = None
    """The position of the DealCorrected that took this block off the sheet, if one did."""


def effective_positions(rows: Sequence[Row], fates: dict[int, DealFate] | None = None) -> list[int]:
    """The 0-based positions in ``rows`` of the events that count, in the order the replay applies them;
    ``fates`` (when given) gets each DealStarted position's :class:`DealFate` (the history of the sheet)."""
    fate = fates if fates is not None else {}
    head: list[int] = []
    deals: list[list[int]] = []
    tail: list[int] = []
    current = head
    for i, row in enumerate(rows):
        code = row[0]
        if current is tail:
            tail.append(i)
        elif code == _DEAL:
            current = [i]
            deals.append(current)
            fate[i] = DealFate(len(deals))
        elif code == _ENDED:
            current = tail
            tail.append(i)
        elif code == CORRECTED:
            ev = _correction(row)
            if ev is None or current is head or current != [i - 1] or not 1 <= ev.deal < len(deals):
                current.append(i)   # it cannot apply: the replay reports it where it stands
                continue
            marker = deals.pop()
            fate[i - 1] = DealFate(ev.deal, i, ev.struck)
            fate[deals[ev.deal - 1][0]].removed_by = i
            if ev.struck:
                del deals[ev.deal - 1]
                current = deals[-1] if deals else head   # anything more in this block: reported there
            else:
                deals[ev.deal - 1] = marker
                current = marker
        else:
            current.append(i)
    out = head
    for d in deals:
        out += d
    return out + tail


def applied(rows: Sequence[Row]) -> tuple[list[int], bool]:
    """``(positions, corrected)``: :func:`effective_positions`, and whether any correction applied (when
    none did, the positions are ``0 … len(rows) − 1``)."""
    positions = effective_positions(rows)
    return positions, positions != list(range(len(rows)))


def sheet_deals(rows: Sequence[Row]) -> int:
    """How many deals the sheet holds once the corrections apply: a replaced deal counts once, a struck deal
    and a strike's own marking DealStarted not at all (``import`` and ``ls`` count deals so).

    >>> from preflog.model.events import DealStarted, DealCorrected, PaperResult, PulkaStarted
    >>> log = [PulkaStarted(("A", "B", "C")), DealStarted(2), PaperResult((4, 3, 3)),
    ...        DealStarted(0), PaperResult((1, 2, 7)), DealStarted(1), DealCorrected(1, struck=True)]
    >>> sheet_deals([ev.to_row() for ev in log])
    1
    """
    if not any(row[0] == CORRECTED for row in rows):
        return sum(1 for row in rows if row[0] == _DEAL)
    return sum(1 for i in effective_positions(rows) if rows[i][0] == _DEAL)


__all__ = ["CORRECTED", "DealFate", "applied", "effective_positions", "sheet_deals"]
