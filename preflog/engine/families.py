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
from dataclasses import field
from dataclasses import replace
from enum import StrEnum
from importlib import import_module
from typing import Any

from ..model.bidcodes import HR_BETTEL
from ..model.bidcodes import HR_SANAC
from ..model.bidcodes import IGRA
from ..model.bidcodes import IGRA_BETTEL
from ..model.bidcodes import IGRA_SANAC
from ..model.bidcodes import is_trick_contract
from ..model.bids import CROATIAN_BIDS
from ..model.bids import RUSSIAN_BIDS
from ..model.bids import BidCodec
from ..model.bids import BidError
from ..model.bids import call_words
from ..model.calls import CALL_HALF
from ..model.calls import CALL_INVITE
from ..model.calls import CALL_NAMES
from ..model.calls import CALL_PASS
from ..model.calls import CALL_WHIST
from ..model.calls import parse_call
from ..rules.config import Rules
from ..rules.settings import TableSettings
from ..rules.settings import croatian_settings
from ..rules.settings import russian_settings
from ..rules.spec import RulesSpec
from ..scoring.base import Scorer
from ..scoring.croatian import CroatianScorer
from ..scoring.russian import RussianScorer
from .croatian.deal import CroatianDeal
from .deal import Deal
from .findings import IllegalAction
from .russian.deal import RussianDeal


class Lang(StrEnum):
    """The language of a sheet's words (``preflog sheet --lang``): one language per sheet."""

    EN = "en"
    """English: the Russian game's terms as English books write them (pulya, gora, visty)."""
    RU = "ru"
    """Russian: the Russian game's terms as a Russian sheet writes them (пуля, гора, висты, Расчёт)."""


class SheetLayout(StrEnum):
    """How a family rules its paper sheet."""

    CROSS = "cross"
    """Each player's side runs from the edge towards the pool in the centre (the Russian sheet)."""
    LIST = "list"
    """A column per player, a row per deal (the Croatian list: the refe a stroke, crossed when used)."""


@dataclass(frozen=True)
class SheetWords:
    """A family's words on its pictures (the drawn sheet, the HTML sheet, the viewer), in one language."""

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
    whole_money: bool = False
    """The money is shown in whole units, as the players pay it (a sheet without paper methods, the
    Croatian one, settles exactly: its money comes in thirds, −41⅓). The exact money stays in JSON and
    CSV; :func:`preflog.render.numbers.money_shown` rounds it."""
    lang: Lang = Lang.EN
    """The language these words are in."""
    layout: SheetLayout = SheetLayout.CROSS
    """How the family rules its paper sheet."""
    settlement: str = "Settlement"
    """The heading of the settlement ("Расчёт")."""
    exact: str = "exact"
    """The exact result ("точно")."""
    method1: str = "method 1"
    """The first paper method ("способ 1")."""
    method1_long: str = "method 1 (gora written as visty)"
    """The same, explained where there is room."""
    method2: str = "method 2"
    """The second paper method ("способ 2")."""
    method2_long: str = "method 2 (gora against the mean)"
    """The same, explained where there is room."""
    money: str = "money"
    """The result in money ("в деньгах")."""
    player: str = "player"
    """A table's player column ("игрок")."""
    centre: str = "pool"
    """The caption of the figure in the centre: the pool ("пуля"), or a Croatian column's start."""
    whist: str = "whist {}"
    """The price of a whist, ``{}`` the price ("вист {}")."""
    deals: str = "{} deals"
    """The number of deals, ``{}`` the number ("сдач: {}")."""
    closed: str = "closed at deal {}"
    """Where a player's pulya reached the pool, ``{}`` the deal ("закрыта на сдаче {}")."""
    written_on: str = "{} on {}"
    """A text table's column of what one wrote on ``{1}`` (``{0}``: :attr:`written_short`)."""
    running: str = "running totals, deal by deal:"
    """The heading of the terminal sheet's running totals."""
    paper_view: str = "Paper layout"
    """The link of the HTML sheet on a phone that shows the sheet as on paper, at its own size."""
    fit_view: str = "Fit the screen"
    """The link back to the sheet that fits the screen."""

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
    """The words of the pictures, in English (the game's own terms where English has none)."""
    preset_words: Mapping[str, Mapping[str, Any]]
    """Words a preset of the family says its own way, by preset name (Slovenian: "radlc" for the refe)."""
    translated: Mapping[Lang, Mapping[str, Any]] = field(default_factory=dict)
    """The words that change in another language (Russian: the Russian game's terms in Russian). A
    language the family lacks leaves its words as :attr:`drawn` says them (a Croatian sheet keeps its own
    terms and English for the rest)."""

    @property
    def paper_methods(self) -> bool:
        """Whether the two paper methods of rounding the gora apply (else the sheet settles exactly)."""
        return self.drawn.paper_methods

    def words(self, rules: str | None = None, lang: Lang = Lang.EN) -> SheetWords:
        """The pictures' words in ``lang`` (where the family has them), as the preset of ``rules`` (a spec
        such as ``Slovenian+key=value``: the preset's name in any case) says them."""
        preset = RulesSpec.preset_of(rules)
        own = dict(self.translated.get(lang, {}))
        if own:
            own["lang"] = lang
        own.update(self.preset_words.get(preset, {}))
        return replace(self.drawn, **own) if own else self.drawn


RUSSIAN_SHEET = SheetTerms(
    "pulya", "gora", "visty", "visty",
    SheetWords(pool="pulya", pool_table="pulya", gora="gora", gora_table="gora", visty="visty on {}",
               visty_short="on {}", visty_table="on {}", written="visty written", written_short="visty",
               all_pass="raspasy", points="visty", refe=None, hat=None, centre_is_start=False,
               paper_methods=True),
    {},
    {Lang.RU: {"pool": "пуля", "pool_table": "пуля", "gora": "гора", "gora_table": "гора", "visty": "висты на {}",
               "visty_short": "на {}", "visty_table": "на {}", "written": "висты", "written_short": "висты",
               "all_pass": "распасы", "points": "висты", "settlement": "Расчёт", "exact": "точно",
               "method1": "способ 1", "method1_long": "способ 1 (гора вистами)", "method2": "способ 2",
               "method2_long": "способ 2 (гора от средней)", "money": "в деньгах", "player": "игрок",
               "centre": "пуля", "whist": "вист {}", "deals": "сдач: {}", "closed": "закрыта на сдаче {}",
               "written_on": "{} на {}", "running": "записи по сдачам:", "paper_view": "Как на бумаге",
               "fit_view": "По ширине экрана"}})
CROATIAN_SHEET = SheetTerms(
    "column", None, "juha", "points",
    SheetWords(pool="stupac", pool_table="stupac", gora=None, gora_table=None, visty="juha na {}",
               visty_short="na {}", visty_table="juha na {}", written="juha written", written_short="juha",
               all_pass="refe for everybody", points="bule", refe="refe", hat="šešir", centre_is_start=True,
               paper_methods=False, whole_money=True, layout=SheetLayout.LIST, centre="start"),
    {"slovenian": {"refe": "radlc", "all_pass": "radlc for everybody"}})


@dataclass(frozen=True)
class EntryContract:
    """One contract a live entry offers (``preflog serve``), as the family's sheet writes it."""

    text: str
    """What the page shows and sends back ("6s", "4", "igra 4", "igra-bettel")."""
    contract: int
    """The contract code (:attr:`Family.bids` ``contracts``)."""
    hand_call: int | None
    """The auction call that makes it a game from hand (Croatian «igra»: ``IGRA``, ``IGRA_BETTEL``,
    ``IGRA_SANAC``), written as the declarer's call with everybody else passing; None: a contract written
    without an auction (with the talon, or any Russian contract)."""
    calls: tuple[int, ...]
    """The defenders' calls on it (call codes, in the order the page shows them); none: nobody defends
    by calling (a misère)."""


def _russian_calls(contract: int) -> tuple[int, ...]:
    """Russian defenders call on a trick game (whist, pass, half-whist), never on a misère."""
    return (CALL_WHIST, CALL_PASS, CALL_HALF) if is_trick_contract(contract) else ()


def _croatian_calls(contract: int) -> tuple[int, ...]:
    """Croatian defenders call on every contract (whist, pass, or the invitation; the audit refuses a
    pass on a Bettel)."""
    return (CALL_WHIST, CALL_PASS, CALL_INVITE)


def _croatian_hand_call(contract: int) -> int:
    """The auction call that plays ``contract`` from hand: «igra», or Bettel / Sanac named at once."""
    return {HR_BETTEL: IGRA_BETTEL, HR_SANAC: IGRA_SANAC}.get(contract, IGRA)


def _turn_order(calls: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The defenders' calls as spoken: one each, in turn (the Russian family)."""
    return list(calls)


def _croatian_order(calls: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The Croatian defenders' calls as spoken: one each, in turn; a defender who invites after his
    partner passed says so in his turn, one who spoke first whists in his turn and invites after the
    round (docs/croatian.md §2)."""
    out: list[tuple[int, int]] = []
    later: list[tuple[int, int]] = []
    passed = False
    for seat, call in calls:
        if call == CALL_INVITE and not passed:
            out.append((seat, CALL_WHIST))
            later.append((seat, CALL_INVITE))
        else:
            out.append((seat, call))
        passed = passed or call == CALL_PASS
    return out + later


@dataclass(frozen=True)
class EntryTerms:
    """How ``preflog serve`` takes a family's deal at paper level, as its sheets write it: the contracts
    offered, which of them the defenders call on and with which calls, the words of those calls, what
    a deal everybody passed is, and the contra chain where the family has one. The audit still decides
    what is legal: these terms only say what the entry asks for."""

    calls: Callable[[int], tuple[int, ...]]
    """The defended-contract check: the defenders' calls on a contract code (empty: nobody calls)."""
    call_words: Mapping[int, str]
    """The word the page shows for each call code: a word of the one table of call words
    (:func:`preflog.model.calls.parse_call` reads it back as that code)."""
    spoken: Callable[[Sequence[tuple[int, int]]], list[tuple[int, int]]]
    """Each defender's call ``(seat, code)`` in turn → the ``WhistCalled`` calls as spoken."""
    all_pass_tricks: bool
    """A deal everybody passed is played for tricks (raspasy) rather than scored without play (refe)."""
    all_pass_auction: bool
    """A deal everybody passed is written as its auction (``Auction: all pass``), not as its tricks alone."""
    hand_call: Callable[[int], int] | None = None
    """A contract code → the call that plays it from hand, for a family with hand games («igra»)."""
    contra_words: tuple[str, ...] = ()
    """The contra chain's words in order (kontra, rekontra …), empty where the family has none."""

    def __post_init__(self) -> None:
        for code, word in self.call_words.items():
            if parse_call(word) != code:   # the one table of call words reads every word shown
                raise ValueError(f"{word!r} is not the call {CALL_NAMES.get(code, code)} in the call table")


RUSSIAN_ENTRY = EntryTerms(_russian_calls, {CALL_WHIST: "whist", CALL_PASS: "pass", CALL_HALF: "half"},
                           _turn_order, all_pass_tricks=True, all_pass_auction=False)
CROATIAN_ENTRY = EntryTerms(_croatian_calls, {CALL_WHIST: "igram", CALL_PASS: "pass", CALL_INVITE: "zovem"},
                            _croatian_order, all_pass_tricks=False, all_pass_auction=True,
                            hand_call=_croatian_hand_call,
                            contra_words=("kontra", "rekontra", "subkontra", "mortkontra"))


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
    entry: EntryTerms | None = None
    """How ``preflog serve`` takes this family's deals at the table (paper level, a few taps each); None:
    it does not."""
    ppn: bool = False
    """Whether Portable Preferans Notation (docs/ppn.md) writes this family's deals: its auction, defence
    and columns are those PPN records (numbers 2–7, igra, the kontra chain, refe, a bula per player)."""

    @property
    def live_entry(self) -> bool:
        """Whether ``preflog serve`` takes this family's deals at the table."""
        return self.entry is not None

    def entry_contracts(self) -> list[EntryContract]:
        """The contracts a live entry offers, in ladder order (the family's games from hand after them, each
        named by its call: "igra-bettel", or "igra 4" where the call does not name the contract)."""
        terms = self.entry
        if terms is None:
            return []
        out = [EntryContract(self.bids.format(c), c, None, terms.calls(c)) for c in self.bids.contracts]
        if terms.hand_call is not None:
            for c in self.bids.contracts:
                call = terms.hand_call(c)
                text = self.bids.format(call) if call != IGRA else f"{self.bids.format(call)} {self.bids.format(c)}"
                out.append(EntryContract(text, c, call, terms.calls(c)))
        return out

    def entry_contract(self, text: str) -> EntryContract:
        """The contract a live entry named by ``text`` (as :meth:`entry_contracts` write it, or any spelling
        of the bid codec for a contract played without an auction); :class:`BidError` otherwise."""
        wanted = call_words(text)
        for c in self.entry_contracts():
            if call_words(c.text) == wanted:
                return c
        code = self.bids.parse(text)   # another spelling: "betl", "sans", "igra bettel" …
        found = [c for c in self.entry_contracts() if c.contract == code and c.hand_call is None]
        found = found or [c for c in self.entry_contracts() if c.hand_call == code]
        if len(found) == 1:   # (a bare "igra" names no contract)
            return found[0]
        raise BidError(f"not a contract of the live entry: {text!r} (expected one of "
                       f"{', '.join(c.text for c in self.entry_contracts())})")

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
           "preflog.sim.russian:RussianBots", RUSSIAN_ENTRY),
    Family("croatian", CroatianDeal, CROATIAN_BIDS, CroatianScorer, croatian_settings, CROATIAN_SHEET,
           "preflog.sim.croatian:CroatianBots", CROATIAN_ENTRY, ppn=True),
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


__all__ = ["EntryContract", "EntryTerms", "FAMILIES", "Family", "Lang", "SheetLayout", "SheetTerms", "SheetWords",
           "family_named", "family_of", "open_deal"]
