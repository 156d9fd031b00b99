"""preflog: record, replay, audit and analyse games of preferans (преферанс).

The names a user needs, importable from the top (``from preflog import Workspace, read_text, audit``):

* the workspace: :class:`Workspace` (a store folder: import, load, audit, projections, reports);
* records: ``read_text``/``read_json``/``read_file`` (one pulka's events), ``read_records``/
  ``read_json_records``/``read_file_records``/``read_any`` (every pulka, as :class:`Record`),
  ``write_text``/``write_json``/``write_file``;
* replay and audit: :func:`audit`, :func:`audit_rows`, :func:`replay`, :func:`state_at`,
  :class:`AuditResult`, :class:`Finding`;
* JSON views: :func:`sheet_json`, :func:`audit_json`;
* rules: :class:`Rules`, the presets (``SOCHI`` … ``SLOVENIAN``, ``PRESETS``), :func:`resolve`
  (a preset plus named overrides) and :func:`resolve_spec` (the ``preset+key=value`` parser);
* the events of a log (:class:`PulkaStarted`, :class:`BidMade`, :class:`CardPlayed`, …);
* double-dummy play analysis: the solver (:class:`Position`, :class:`Goal`, :func:`solve`,
  :func:`card_values`, :class:`Solver`) and :func:`analyze_events` (docs/analysis.md, docs/solver.md);
* the error tree under :class:`PreflogError`.

Names are loaded on first use (PEP 562), so ``import preflog.model.cards`` stays light: a worker
that needs the reader never loads pyarrow, DuckDB or deltalake. docs/api.md is the guide.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING
from typing import Any

from . import _native

# before any kernel module loads: the compiled kernel, or the pure-Python one (PREFLOG_PURE=1, not built, stale)
_native.select()

__version__ = "0.1.0"

# name → the module that defines it today (one table; the names are what users rely on)
_EXPORTS: dict[str, str] = {
    # workspace and views
    "Workspace": "preflog.workspace", "Loaded": "preflog.workspace", "Audited": "preflog.workspace",
    "ImportItem": "preflog.workspace", "ImportCounts": "preflog.workspace", "LedgerEntry": "preflog.store.ledger",
    "sheet_json": "preflog.views.json", "audit_json": "preflog.views.json",
    # records
    "Record": "preflog.record.reader",
    **dict.fromkeys(("read_text", "read_json", "read_file", "read_records", "read_json_records",
                     "read_file_records", "read_any", "record_files", "write_text", "write_json", "write_file"),
                    "preflog.record.api"),
    # replay and audit
    **dict.fromkeys(("audit", "audit_rows", "audit_columns", "replay", "state_at", "AuditResult"),
                    "preflog.engine.replay"),
    "RowColumns": "preflog.model.columns",
    **dict.fromkeys(("Finding", "IllegalAction", "AuditFailed"), "preflog.engine.findings"),
    # the game families and their deals
    **dict.fromkeys(("FAMILIES", "Family", "family_of", "open_deal"), "preflog.engine.families"),
    "Deal": "preflog.engine.deal", "Phase": "preflog.engine.deal", "Code": "preflog.engine.codes",
    "DealKind": "preflog.model.outcome", "DealOutcome": "preflog.model.outcome",
    # rules
    "Rules": "preflog.rules.config", "RulesError": "preflog.rules.config",
    **dict.fromkeys(("SOCHI", "LENINGRAD", "ROSTOV", "CROATIAN", "SLOVENIAN", "PRESETS", "NAMED_OVERRIDES",
                     "resolve"), "preflog.rules.presets"),
    "resolve_spec": "preflog.projections.facts",
    # events
    **dict.fromkeys(("Event", "PulkaStarted", "DealStarted", "BidMade", "TalonRevealed", "Discarded",
                     "ContractDeclared", "WhistCalled", "PlayModeChosen", "ContraCalled", "CardPlayed", "Claimed",
                     "TenChecked", "PaperResult", "ScoreRecorded", "PulkaEnded", "EventError"),
                    "preflog.model.events"),
    # double-dummy play analysis
    **dict.fromkeys(("Goal", "Position", "Solver", "SolverError", "solve", "card_values"), "preflog.solver"),
    **dict.fromkeys(("analyze_events", "PulkaAnalysis", "DealAnalysis", "AnalysisError"), "preflog.analysis"),
    # the error tree (the classes of one layer live beside their code)
    **dict.fromkeys(("PreflogError", "ScoringError", "WorkspaceError", "NoStoreError", "NotStoredError", "FileError"),
                    "preflog.errors"),
    "CardError": "preflog.model.cards", "BidError": "preflog.model.bids", "CallError": "preflog.model.calls",
    "RecordError": "preflog.record.errors", "RecordWriteError": "preflog.record.errors",
    "StoreError": "preflog.store.base", "ConcurrencyError": "preflog.store.base",
    "FactsError": "preflog.projections.facts", "CounterfactualError": "preflog.reports.counterfactual",
    "SimError": "preflog.sim.pulka", "SimCheckError": "preflog.sim.check",
}

__all__ = [
    "FAMILIES", "Code", "Deal", "DealKind", "DealOutcome", "Family", "Phase", "family_of", "open_deal",
    "AuditFailed", "AuditResult", "Audited", "BidError", "BidMade", "CROATIAN", "CallError", "CardError",
    "CardPlayed", "Claimed", "ConcurrencyError", "ContraCalled", "ContractDeclared", "CounterfactualError",
    "DealStarted", "Discarded", "Event", "EventError", "FactsError", "FileError", "Finding", "IllegalAction",
    "ImportCounts", "ImportItem", "LENINGRAD", "LedgerEntry", "Loaded", "NAMED_OVERRIDES", "NoStoreError",
    "NotStoredError", "PRESETS",
    "PaperResult", "PlayModeChosen",
    "PreflogError", "PulkaEnded", "PulkaStarted", "ROSTOV", "Record", "RecordError", "RecordWriteError", "RowColumns",
    "Rules",
    "RulesError", "SLOVENIAN", "SOCHI", "ScoreRecorded", "ScoringError", "SimCheckError", "SimError", "StoreError",
    "TalonRevealed", "TenChecked", "WhistCalled", "Workspace", "WorkspaceError", "audit", "audit_json",
    "audit_columns", "audit_rows", "read_any", "read_file", "read_file_records", "read_json", "read_json_records",
    "read_records", "read_text", "record_files", "replay", "resolve", "resolve_spec", "sheet_json", "state_at",
    "write_file", "write_json", "write_text",
    "AnalysisError", "DealAnalysis", "Goal", "Position", "PulkaAnalysis", "Solver", "SolverError",
    "analyze_events", "card_values", "solve",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'preflog' has no attribute {name!r}")
    # the compiled kernel's classes and functions get their docstrings back (see _native.documented)
    value = _native.documented(getattr(importlib.import_module(module), name), module, name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # what type checkers and IDEs see: the same names, imported eagerly
    from .analysis import AnalysisError
    from .analysis import DealAnalysis
    from .analysis import PulkaAnalysis
    from .analysis import analyze_events
    from .engine.codes import Code
    from .engine.deal import Deal
    from .engine.deal import Phase
    from .engine.families import FAMILIES
    from .engine.families import Family
    from .engine.families import family_of
    from .engine.families import open_deal
    from .engine.findings import AuditFailed
    from .engine.findings import Finding
    from .engine.findings import IllegalAction
    from .engine.replay import AuditResult
    from .engine.replay import audit
    from .engine.replay import audit_rows
    from .engine.replay import replay
    from .engine.replay import state_at
    from .errors import FileError
    from .errors import NoStoreError
    from .errors import NotStoredError
    from .errors import PreflogError
    from .errors import ScoringError
    from .errors import WorkspaceError
    from .model.bids import BidError
    from .model.calls import CallError
    from .model.cards import CardError
    from .model.events import BidMade
    from .model.events import CardPlayed
    from .model.events import Claimed
    from .model.events import ContraCalled
    from .model.events import ContractDeclared
    from .model.events import DealStarted
    from .model.events import Discarded
    from .model.events import Event
    from .model.events import EventError
    from .model.events import PaperResult
    from .model.events import PlayModeChosen
    from .model.events import PulkaEnded
    from .model.events import PulkaStarted
    from .model.events import ScoreRecorded
    from .model.events import TalonRevealed
    from .model.events import TenChecked
    from .model.events import WhistCalled
    from .model.outcome import DealKind
    from .model.outcome import DealOutcome
    from .projections.facts import FactsError
    from .projections.facts import resolve_spec
    from .record.api import read_any
    from .record.api import read_file
    from .record.api import read_file_records
    from .record.api import read_json
    from .record.api import read_json_records
    from .record.api import read_records
    from .record.api import read_text
    from .record.api import record_files
    from .record.api import write_file
    from .record.api import write_json
    from .record.api import write_text
    from .record.errors import RecordError
    from .record.errors import RecordWriteError
    from .record.reader import Record
    from .reports.counterfactual import CounterfactualError
    from .rules.config import Rules
    from .rules.config import RulesError
    from .rules.presets import CROATIAN
    from .rules.presets import LENINGRAD
    from .rules.presets import NAMED_OVERRIDES
    from .rules.presets import PRESETS
    from .rules.presets import ROSTOV
    from .rules.presets import SLOVENIAN
    from .rules.presets import SOCHI
    from .rules.presets import resolve
    from .sim.check import SimCheckError
    from .sim.pulka import SimError
    from .solver import Goal
    from .solver import Position
    from .solver import Solver
    from .solver import SolverError
    from .solver import card_values
    from .solver import solve
    from .store.base import ConcurrencyError
    from .store.base import StoreError
    from .store.ledger import LedgerEntry
    from .views.json import audit_json
    from .views.json import sheet_json
    from .workspace import Audited
    from .workspace import ImportCounts
    from .workspace import ImportItem
    from .workspace import Loaded
    from .workspace import Workspace
