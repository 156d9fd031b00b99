"""The game families, listed once: what differs between Russian preferans and the Croatian game.

A :class:`Family` names everything a family brings: its deal state machine (with its auction and its
ladder of contracts), its bid codec (text ↔ call codes), its scorer and its bots. Presets pick a
family by name (:attr:`preflog.rules.config.Rules.family`); everything else asks
:func:`family_of` instead of comparing names.

>>> family_of("croatian").bids.format(16)
'igra-bettel'
>>> [f.name for f in FAMILIES]
['russian', 'croatian']
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from ..model.bids import CROATIAN_BIDS
from ..model.bids import RUSSIAN_BIDS
from ..model.bids import BidCodec
from ..rules.config import Rules
from ..scoring.base import Scorer
from ..scoring.croatian import CroatianScorer
from ..scoring.russian import RussianScorer
from .croatian.deal import CroatianDeal
from .deal import Deal
from .findings import IllegalAction
from .russian.deal import RussianDeal


@dataclass(frozen=True)
class SheetTerms:
    """How a family's score sheet reads: its words in text tables and on the drawn paper sheet, and how
    it settles on paper."""

    pulya: str
    """The pool column in text tables ("pulya"; Croatian: the contract "column")."""
    gora: str | None
    """The gora column, or ``None`` for a family that keeps none (Croatian)."""
    visty: str
    """What a player writes on another ("visty"; Croatian: "juha")."""
    paper: Mapping[str, str]
    """The drawn sheet's zone labels: ``pulya``, ``gora``, ``visty`` (``{}`` = the opponent), ``unit``."""
    paper_methods: bool
    """Whether the two paper methods of rounding the gora apply (else the sheet settles exactly)."""
    marks: bool
    """Whether the drawn sheet shows refe and hat marks where the gora would be (Croatian)."""


RUSSIAN_SHEET = SheetTerms("pulya", "gora", "visty",
                           {"pulya": "пуля", "gora": "гора", "visty": "висты на {}", "unit": "visty"},
                           paper_methods=True, marks=False)
CROATIAN_SHEET = SheetTerms("column", None, "juha",
                            {"pulya": "stupac", "gora": "refe · šešir", "visty": "juha na {}", "unit": "points"},
                            paper_methods=False, marks=True)


@dataclass(frozen=True)
class Family:
    """One game family."""

    name: str
    """The name presets use (``Rules.family``)."""
    deal: type[Deal]
    """The deal state machine (its ``AUCTION`` is the family's auction)."""
    bids: BidCodec
    """How the family writes calls and contracts."""
    scorer: Callable[[Rules, int, int], Scorer]
    """``scorer(rules, n_players, pool)``: a fresh scorer for a pulka."""
    sheet: SheetTerms
    """How the family's score sheet reads and settles on paper."""
    bots_path: str
    """``module:class`` of the family's bots. The simulator sits above the engine, so the family names
    it instead of importing it (see :meth:`bots`)."""

    def bots(self) -> Any:
        """The family's bot class (``rules, n_players, rng`` → ``play_deal(...)``)."""
        module, _, name = self.bots_path.partition(":")
        return getattr(import_module(module), name)

    def open_deal(self, rules: Rules, n_players: int, dealer: int, hands: tuple[int, ...] | None,
                  talon: int | None, deal: int = 1, scorer: Scorer | None = None,
                  names: Sequence[str] | None = None) -> Deal:
        """A new deal of this family, consulting the pulka's ``scorer`` where the family's rules need it;
        findings name the seats by ``names`` when given."""
        return self.deal.for_pulka(rules, n_players, dealer, hands, talon, deal, scorer, names)


FAMILIES: tuple[Family, ...] = (
    Family("russian", RussianDeal, RUSSIAN_BIDS, RussianScorer, RUSSIAN_SHEET,
           "preflog.sim.russian:RussianBots"),
    Family("croatian", CroatianDeal, CROATIAN_BIDS, CroatianScorer, CROATIAN_SHEET,
           "preflog.sim.croatian:CroatianBots"),
)
"""Every game family preflog knows."""

_BY_NAME = {f.name: f for f in FAMILIES}


def family_of(rules: Rules | str) -> Family:
    """The family of ``rules`` (or of a family name); ``IllegalAction(bad_rules)`` for an unknown one."""
    name = rules if isinstance(rules, str) else rules.family
    try:
        return _BY_NAME[str(name)]
    except KeyError:
        from .codes import Code
        raise IllegalAction(Code.BAD_RULES, f"rules family {name!r} is not one of "
                            f"{', '.join(f.name for f in FAMILIES)}") from None


def family_named(name: str | None) -> Family:
    """The family of a sheet's ``family`` field; the first family when the pulka named none (its rules
    could not be read)."""
    return _BY_NAME.get(name or "", FAMILIES[0])


def open_deal(rules: Rules, n_players: int, dealer: int, hands: tuple[int, ...] | None = None,
              talon: int | None = None, deal: int = 1, scorer: Scorer | None = None,
              names: Sequence[str] | None = None) -> Deal:
    """A new deal under ``rules`` (its family's state machine)."""
    return family_of(rules).open_deal(rules, n_players, dealer, hands, talon, deal, scorer, names)


__all__ = ["FAMILIES", "Family", "SheetTerms", "family_named", "family_of", "open_deal"]
