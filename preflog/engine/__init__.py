"""engine layer: the game families, their auctions and deal state machines, the trick kernel, the pulka,
replay and audit."""

from .codes import Code
from .deal import Deal
from .deal import Phase
from .families import FAMILIES
from .families import Family
from .families import family_of
from .families import open_deal
from .findings import AuditFailed
from .findings import Finding
from .findings import IllegalAction
from .pulka import PulkaState
from .replay import Auditor
from .replay import AuditResult
from .replay import DealSummary
from .replay import ReplayStep
from .replay import audit
from .replay import audit_rows
from .replay import replay
from .replay import rows_of
from .replay import state_at

__all__ = ["FAMILIES", "AuditFailed", "AuditResult", "Auditor", "Code", "Deal", "DealSummary", "Family", "Finding",
           "IllegalAction", "Phase", "PulkaState", "ReplayStep", "audit", "audit_rows", "family_of", "open_deal",
           "replay", "rows_of", "state_at"]
