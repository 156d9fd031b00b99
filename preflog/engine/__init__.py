"""engine layer: the game families, their auctions and deal state machines, the trick kernel, the pulka,
replay and audit."""

from .codes import Code
from .deal import Deal, Phase
from .families import FAMILIES, Family, family_of, open_deal
from .findings import AuditFailed, Finding, IllegalAction
from .pulka import PulkaState
from .replay import Auditor, AuditResult, DealSummary, ReplayStep, audit, audit_rows, replay, rows_of, state_at

__all__ = ["FAMILIES", "AuditFailed", "AuditResult", "Auditor", "Code", "Deal", "DealSummary", "Family", "Finding",
           "IllegalAction", "Phase", "PulkaState", "ReplayStep", "audit", "audit_rows", "family_of", "open_deal",
           "replay", "rows_of", "state_at"]
