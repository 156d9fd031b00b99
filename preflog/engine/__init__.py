"""engine layer: auction, deal and pulka state machines, replay and audit."""

from .auction import AUCTIONS, Auction, RussianAuction, make_auction
from .deal import DealState
from .findings import AuditFailed, Finding, IllegalAction
from .pulka import PulkaState
from .replay import AuditResult, DealSummary, ReplayStep, audit, audit_rows, replay, rows_of, state_at

__all__ = ["AUCTIONS", "Auction", "AuditFailed", "AuditResult", "DealState", "DealSummary", "Finding",
           "IllegalAction", "PulkaState", "ReplayStep", "RussianAuction", "audit", "audit_rows", "make_auction",
           "replay", "rows_of", "state_at"]
