"""Audit findings and the exception raised for an illegal action.

Every rule check raises :class:`IllegalAction` with a stable ``code``; replay turns
it into a :class:`Finding` located by deal number and event sequence number.
Codes are snake_case, never renamed once published (docs/findings.md lists them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import PreflogError
from ..model.events import Event


def seat_name(names: Sequence[str] | None, seat: int) -> str:
    """How findings name a seat: ``Anna (seat 0)`` when the players are known, else ``seat 0``.

    >>> seat_name(("Anna", "Boris", "Vera"), 1), seat_name(None, 1), seat_name(("Anna",), 5)
    ('Boris (seat 1)', 'seat 1', 'seat 5')
    """
    if names is not None and 0 <= seat < len(names):
        return f"{names[seat]} (seat {seat})"
    return f"seat {seat}"


class IllegalAction(PreflogError):
    """An action that breaks a rule: ``code`` names the rule, ``message`` says what was expected.

    The optional keyword fields say who acted (``seat``), when (``phase``) and with what (``event``),
    so a caller can name the player without reading the message."""

    def __init__(self, code: str, message: str, *, seat: int | None = None, phase: str | None = None,
                 event: Event | None = None) -> None:
        Exception.__init__(self, f"{code}: {message}")  # raised in the engine's inner loops: kept lean
        self.code = code
        self.message = message
        self.seat = seat
        self.phase = phase
        self.event = event


@dataclass(frozen=True, slots=True)
class Finding:
    """One audit finding: where (deal, seq, event), which rule (code, message) and, when known, whose
    action it was (``seat``). ``seq`` is the event's number as the store keeps it (1 = the first event
    of the log; ``preflog sql "… WHERE seq = …"`` selects it)."""

    code: str
    deal: int
    seq: int
    message: str
    event: Event | None = None
    seat: int | None = None
    line: int | None = None
    """Where the record states what the finding is about, when that is not the event's own place (a PPN
    deal line's value or summary: :func:`preflog.record.ppn.stated_findings`); with ``column``."""
    column: int | None = None

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "deal": self.deal, "seq": self.seq, "message": self.message}


class AuditFailed(PreflogError):
    """Raised by a strict replay on the first finding; ``code`` is the finding's code."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(f"deal {finding.deal}, event {finding.seq}: {finding.code}: {finding.message}",
                         code=finding.code)
        self.finding = finding
