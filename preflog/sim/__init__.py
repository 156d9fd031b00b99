"""Synthetic pulkas played by bots (sim layer): realistic, legal, deterministic event logs.

Public API: :func:`simulate_pulka`, :func:`simulate_many`, :func:`check_pulka` / :func:`rates`
(an independent checker and deal-kind statistics). Each family's bots are named by its
:class:`preflog.engine.families.Family`.
"""

from .check import DealSummary, SimCheckError, check_pulka, rates
from .many import pulka_seed, simulate_many
from .pulka import SimError, simulate_pulka

__all__ = ["DealSummary", "SimCheckError", "SimError", "check_pulka", "pulka_seed", "rates",
           "simulate_many", "simulate_pulka"]
