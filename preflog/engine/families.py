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
from dataclasses import replace
from importlib import import_module
from typing import Any

from ..model.bids import CROATIAN_BIDS
from ..model.bids import RUSSIAN_BIDS
from ..model.bids import BidCodec
from ..rules.config import Rules
from ..rules.settings import TableSettings
from ..rules.settings import croatian_settings
from ..rules.settings import russian_settings
from ..scoring.base import Scorer
from ..scoring.croatian import CroatianScorer
from ..scoring.russian import RussianScorer
from .croatian.deal import CroatianDeal
from .deal import Deal
from .findings import IllegalAction
from .russian.deal import RussianDeal


@dataclass(frozen=True)
class SheetWords:
    """A family's words on its pictures (the drawn sheet, the HTML sheet, the viewer), in its own language."""

    pool: str
    """The pool column ("пуля"; Croatian: "stupac", the contract column)."""
    pool_table: str
    """The pool column in a table header ("pulya"; Croatian: "stupac")."""
    gora: str | None
    """The gora ("гора"), or ``None`` where the family keeps none."""
    gora_table: str | None
    """The gora in a table header ("gora")."""
    visty: str
    """What one writes on another, ``{}`` the other: "висты на {}" / "juha na {}"."""
    visty_short: str
    """The same, short, for a narrow zone: "на {}"."""
    visty_table: str
    """A table header of what one wrote on ``{}``: "visty on {}" / "juha na {}"."""
    written_short: str
    """The same in one word, for a line of the record: "visty" / "juha"."""
    all_pass: str
    """What a deal that everybody passed becomes: "raspasy" / "refe for everybody"."""
    written: str
    """A table header of what one wrote on the others: "visty written" / "juha written"."""
    points: str
    """What the scores count: "bule" (Croatian points) or "visty"."""
    refe: str | None
    """The refe ("refe"; Slovenian: "radlc"), ``None`` where there is none."""
    hat: str | None
    """The hat on a column that reached zero ("šešir"), ``None`` where there is none."""
    centre_is_start: bool
    """The centre of the sheet shows the columns' start (Croatian: −30), not the pool."""
    paper_methods: bool
    """The sheet settles by the two paper methods of rounding the gora (Russian) besides exactly."""

    @property
    def marks(self) -> str:
        """The label of the zone of refe and hat marks (where a Russian sheet has its gora)."""
        return " · ".join(w for w in (self.refe, self.hat) if w)

    @property
    def gora_zone(self) -> str:
        """The label of the zone next to the centre: the gora, or the refe and hat marks."""
        return self.gora if self.gora is not None else self.marks


@dataclass(frozen=True)
class SheetTerms:
    """How a family's score sheet reads: its words in the terminal's text tables, on its pictures, and
    how it settles on paper."""

    pulya: str
    """The pool column in text tables ("pulya"; Croatian: the contract "column")."""
    gora: str | None
    """The gora column, or ``None`` for a family that keeps none (Croatian)."""
    visty: str
    """What a player writes on another ("visty"; Croatian: "juha")."""
    unit: str
    """What a result counts in: "visty" (Russian) or "points" (Croatian)."""
    drawn: SheetWords
    """The words of the pictures, in the family's own language."""
    preset_words: Mapping[str, Mapping[str, Any]]
    """Words a preset of the family says its own way, by preset name (Slovenian: "radlc" for the refe)."""

    @property
    def paper_methods(self) -> bool:
        """Whether the two paper methods of rounding the gora apply (else the sheet settles exactly)."""
        return self.drawn.paper_methods

    def words(self, rules: str | None = None) -> SheetWords:
        """The pictures' words as the preset of ``rules`` (a spec such as ``slovenian+key=value``) says them."""
        preset = (rules or "").split("+")[0].split(":")[0]
        own = self.preset_words.get(preset)
        return replace(self.drawn, **own) if own else self.drawn


RUSSIAN_SHEET = SheetTerms(
    "pulya", "gora", "visty", "visty",
    SheetWords(pool="пуля", pool_table="pulya", gora="гора", gora_table="gora", visty="висты на {}",
               visty_short="на {}", visty_table="on {}", written="visty written", written_short="visty",
               all_pass="raspasy", points="visty", refe=None, hat=None, centre_is_start=False,
               paper_methods=True),
    {})
CROATIAN_SHEET = SheetTerms(
    "column", None, "juha", "points",
    SheetWords(pool="stupac", pool_table="stupac", gora=None, gora_table=None, visty="juha na {}",
               visty_short="na {}", visty_table="juha na {}", written="juha written", written_short="juha",
               all_pass="refe for everybody", points="bule", refe="refe", hat="šešir", centre_is_start=True,
               paper_methods=False),
    {"slovenian": {"refe": "radlc", "all_pass": "radlc for everybody"}})


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
    settings: Callable[[Rules], TableSettings]
    """``settings(rules)``: the options the family's deal and scorer read, resolved once per rules object
    (:mod:`preflog.rules.settings`)."""
    sheet: SheetTerms
    """How the family's score sheet reads and settles on paper."""
    bots_path: str
    """``module:class`` of the family's bots. The simulator sits above the engine, so the family names
    it instead of importing it (see :meth:`bots`)."""
    live_entry: bool = False
    """Whether ``preflog serve`` takes this family's deals at the table (paper level, a few taps each)."""

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
    Family("russian", RussianDeal, RUSSIAN_BIDS, RussianScorer, russian_settings, RUSSIAN_SHEET,
           "preflog.sim.russian:RussianBots", live_entry=True),
    Family("croatian", CroatianDeal, CROATIAN_BIDS, CroatianScorer, croatian_settings, CROATIAN_SHEET,
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


__all__ = ["FAMILIES", "Family", "SheetTerms", "SheetWords", "family_named", "family_of", "open_deal"]
