"""Double-dummy analysis of recorded deals on top of the solver (:mod:`preflog.solver`): the result at
the opening lead, the cards that lost tricks and what each cost on the sheet, the best discard, the
par contract, the whist decisions, and the raspasy bounds. Definitions: docs/analysis.md."""

from .deal import AnalysisError
from .deal import Options
from .deal import analyze_events
from .deal import distinct_discards
from .deal import solver_name
from .result import ANALYSIS_VERSION
from .result import Bound
from .result import CardLoss
from .result import ClaimCheck
from .result import DealAnalysis
from .result import DiscardResult
from .result import ParResult
from .result import PulkaAnalysis
from .result import WhistJudgement

__all__ = ["ANALYSIS_VERSION", "AnalysisError", "Bound", "CardLoss", "ClaimCheck", "DealAnalysis", "DiscardResult",
           "Options", "ParResult", "PulkaAnalysis", "WhistJudgement", "analyze_events", "distinct_discards",
           "solver_name"]
