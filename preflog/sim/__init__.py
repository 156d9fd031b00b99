"""Synthetic pulkas played by bots (sim layer): realistic, legal, deterministic event logs.

Public API: :func:`simulate_pulka`, :func:`simulate_many`, :func:`check_pulka` / :func:`rates`
(an independent checker and deal-kind statistics) and :data:`FAMILIES` (deal simulators per
rules family).
"""

from .check import DealSummary, SimCheckError, check_pulka, rates
from .many import pulka_seed, simulate_many
from .pulka import FAMILIES, SimError, simulate_pulka

__all__ = ["DealSummary", "FAMILIES", "SimCheckError", "SimError", "check_pulka", "pulka_seed", "rates",
           "simulate_many", "simulate_pulka"]
