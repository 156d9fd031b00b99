"""Synthetic pulkas played by bots (sim layer): realistic, legal, deterministic event logs.

Public API: :func:`simulate_pulka`, :func:`simulate_many`, :func:`check_pulka` / :func:`rates`
(an independent checker and deal-kind statistics). Each family's bots are named by its
:class:`preflog.engine.families.Family`.
"""

from .check import CheckedDeal
from .check import SimCheckError
from .check import check_pulka
from .check import rates
from .many import pulka_seed
from .many import simulate_many
from .pulka import SimError
from .pulka import simulate_pulka

__all__ = ["CheckedDeal", "SimCheckError", "SimError", "check_pulka", "pulka_seed", "rates",
           "simulate_many", "simulate_pulka"]
