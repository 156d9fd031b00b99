"""The options a family's deal, auction and scorer read, resolved once from :class:`~preflog.rules.config.Rules`.

``Rules`` is the edge: options there are enums (:mod:`preflog.rules.choices`), words and tuples, as
players write them. The compiled kernel reads the options of a pulka on every deal, so each family gets
one settings object built from its rules in one place, here: :func:`russian_settings` and
:func:`croatian_settings` (:attr:`preflog.engine.families.Family.settings` names the family's). Inside it an option
of two values is a ``bool`` (``ten_checked``), a closed set of more is an ``int`` named by the
``Final`` constants below (``raspasy_mode == RASPASY_VISTY``), a table is a ``dict``; the kernel
compares them natively and never compares an option with a word.

A settings object is a value: it never changes, copies as itself and pickles as its rules. The builder
keeps the settings of the rules objects it saw (``Rules`` is frozen), so a deal or a scorer asking for
the settings of its pulka's rules gets the same object back: built once per rules object.
``tests/rules/test_settings.py`` changes every option a family reads and checks that its settings change.

>>> from preflog.rules.presets import resolve
>>> s = russian_settings(resolve("rostov"))
>>> s.raspasy_mode == RASPASY_VISTY, s.ten_checked, s.game_values[6], russian_settings(s.rules) is s
(True, False, 2, True)
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import Any
from typing import Final

from ..model.bidcodes import HR_BETTEL
from ..model.bidcodes import HR_SANAC
from ..model.bidcodes import MISER
from ..model.bids import parse_ru_bid
from ..model.copying import field_names
from .choices import BettelFailMode
from .choices import BettelLead
from .choices import DealerWhistConsolation
from .choices import FirstLead
from .choices import HalfWhistBy
from .choices import HelpOverflow
from .choices import HelpTie
from .choices import HighLevelLiability
from .choices import HoldWho
from .choices import LoneWhisterQuota
from .choices import OpenPlayChoice
from .choices import OvershootMode
from .choices import PulkaEnd
from .choices import RaspasyAmnesty
from .choices import RaspasyExit
from .choices import RaspasyMode
from .choices import RaspasyProgression
from .choices import RaspasyTalonMode
from .choices import RaspasyThirdLead
from .choices import RaspasyZeroPremium
from .choices import SanacLead
from .choices import ShortfallSplit
from .choices import TenMode
from .choices import ThirdHandMode
from .choices import TwoSpadesWithoutContra
from .config import Rules

# the closed sets of more than two words, as the ints the settings hold (each the member's position in its
# enum: tests/rules/test_settings.py checks that they stay so)
HOLD_SENIOR: Final = 0
HOLD_FIRST_HAND: Final = 1
HOLD_ANY_OVERCALLED: Final = 2

OPEN_LONE_WHISTER: Final = 0
OPEN_INVITATION: Final = 1
OPEN_NEVER: Final = 2

RASPASY_GORA: Final = 0
RASPASY_VISTY: Final = 1
RASPASY_VISTY_ABOVE_MIN: Final = 2

PROGRESSION_NONE: Final = 0
PROGRESSION_ARITHMETIC: Final = 1
PROGRESSION_GEOMETRIC: Final = 2

EXIT_ANY_GAME: Final = 0
EXIT_MADE_GAME: Final = 1
EXIT_PLAYED_GAME: Final = 2
EXIT_MADE_PLAYED_GAME: Final = 3
EXIT_WHISTED_GAME: Final = 4
EXIT_ANY_BUT_BOTH_PASS: Final = 5

ZERO_PREMIUM_PRICE: Final = 0
ZERO_PREMIUM_ONE: Final = 1
ZERO_PREMIUM_NONE: Final = 2

AMNESTY_NONE: Final = 0
AMNESTY_PLAYERS: Final = 1
AMNESTY_WITH_DEALER: Final = 2

OVERFLOW_OPPONENTS_GORA: Final = 0
OVERFLOW_OWN_GORA: Final = 1
OVERFLOW_OWN_GORA_TO_ZERO: Final = 2

SPLIT_CAPPED: Final = 0
SPLIT_PROPORTIONAL: Final = 1
SPLIT_PERSONAL_WHEN_SHORT: Final = 2
SPLIT_PERSONAL_ALWAYS: Final = 3

FIRST_LEAD_ELDEST: Final = 0
FIRST_LEAD_ELDEST_SKIP_OUT: Final = 1
FIRST_LEAD_LEFT_WHISTER: Final = 2

SANAC_FIRST_LEAD: Final = 0
SANAC_NOT_DECLARER: Final = 1
SANAC_RIGHT_OF_DECLARER: Final = 2

CODES: Final[dict[type[Any], tuple[int, ...]]] = {
    HoldWho: (HOLD_SENIOR, HOLD_FIRST_HAND, HOLD_ANY_OVERCALLED),
    OpenPlayChoice: (OPEN_LONE_WHISTER, OPEN_INVITATION, OPEN_NEVER),
    RaspasyMode: (RASPASY_GORA, RASPASY_VISTY, RASPASY_VISTY_ABOVE_MIN),
    RaspasyProgression: (PROGRESSION_NONE, PROGRESSION_ARITHMETIC, PROGRESSION_GEOMETRIC),
    RaspasyExit: (EXIT_ANY_GAME, EXIT_MADE_GAME, EXIT_PLAYED_GAME, EXIT_MADE_PLAYED_GAME, EXIT_WHISTED_GAME,
                  EXIT_ANY_BUT_BOTH_PASS),
    RaspasyZeroPremium: (ZERO_PREMIUM_PRICE, ZERO_PREMIUM_ONE, ZERO_PREMIUM_NONE),
    RaspasyAmnesty: (AMNESTY_NONE, AMNESTY_PLAYERS, AMNESTY_WITH_DEALER),
    HelpOverflow: (OVERFLOW_OPPONENTS_GORA, OVERFLOW_OWN_GORA, OVERFLOW_OWN_GORA_TO_ZERO),
    ShortfallSplit: (SPLIT_CAPPED, SPLIT_PROPORTIONAL, SPLIT_PERSONAL_WHEN_SHORT, SPLIT_PERSONAL_ALWAYS),
    FirstLead: (FIRST_LEAD_ELDEST, FIRST_LEAD_ELDEST_SKIP_OUT, FIRST_LEAD_LEFT_WHISTER),
    SanacLead: (SANAC_FIRST_LEAD, SANAC_NOT_DECLARER, SANAC_RIGHT_OF_DECLARER),
}
"""Each enum the settings hold as an int, with the ints of its members in the enum's order."""

NOT_IN_SETTINGS: Final[dict[str, str]] = {
    "name": "display only",
    "family": "chooses the settings class itself",
    "players": "checked once by the pulka when it starts",
    "settlement_rounding": "read by scoring/settlement.py, once per settlement",
    "settlement_divisor": "read by scoring/settlement.py, once per settlement",
    "settle_unequal_pulya": "read by scoring/settlement.py, once per settlement",
}
"""The options of a family that its settings leave out, and why (no deal or scorer reads them per deal)."""


def _code(member: Enum) -> int:
    """The int of an enum member (:data:`CODES`)."""
    kind = type(member)
    return CODES[kind][[m for m in kind].index(member)]


class TableSettings:
    """What both families read: trick play, the hold rules of the auction, the whist obligation, the rates.

    ``forbidden_holds`` is ``hold_forbidden_on`` as the family's call codes (each family names its
    contracts its own way: :meth:`_hold_code`)."""

    rules: Rules
    must_trump: bool
    allow_jump_bids: bool
    hold_enabled: bool
    hold_who: int
    hold_requires_intermediate_pass: bool
    _forbidden: frozenset[int] | None
    whist_obligation: dict[int, int]
    lone_quota_side: bool
    gora_point_visty: int
    pool_point_visty: int

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.must_trump = rules.must_trump
        self.allow_jump_bids = rules.allow_jump_bids
        self.hold_enabled = rules.hold_enabled
        self.hold_who = _code(rules.hold_who)
        self.hold_requires_intermediate_pass = rules.hold_requires_intermediate_pass
        self._forbidden = None
        self.whist_obligation = dict(rules.whist_obligation)
        self.lone_quota_side = rules.lone_whister_quota == LoneWhisterQuota.SIDE
        self.gora_point_visty = rules.gora_point_visty
        self.pool_point_visty = rules.pool_point_visty

    def forbidden_holds(self) -> frozenset[int]:
        """``hold_forbidden_on`` as the family's call codes, worked out when an auction first asks (a name
        that is no call of the family raises then, as the auction's check of its options)."""
        out = self._forbidden
        if out is None:
            codes: set[int] = set()
            for name in self.rules.hold_forbidden_on:
                code = self._hold_code(str(name).strip().lower())
                if code >= 0:
                    codes.add(code)
            out = self._forbidden = frozenset(codes)
        return out

    def _hold_code(self, name: str) -> int:
        """The family's call code of a ``hold_forbidden_on`` name (stripped, lower case); -1 for a name the
        family ignores."""
        raise NotImplementedError

    def values(self) -> dict[str, object]:
        """Every setting by name, the rules left out (the test of the settings compares them)."""
        out: dict[str, object] = {name: getattr(self, name) for name in field_names(self)
                                  if name not in ("rules", "_forbidden")}
        out["forbidden_holds"] = self.forbidden_holds()
        return out

    def __copy__(self) -> TableSettings:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> TableSettings:
        return self      # a value: copies share it

    def __reduce__(self) -> tuple[Any, tuple[Rules]]:
        return (type(self), (self.rules,))


class RussianSettings(TableSettings):
    """Every option of the Russian family that its deal, auction and scorer read (docs/rules-options.md)."""

    # auction
    miser_first_call_only: bool
    miser_beaten_by_level: int
    miser_bidder_may_continue: bool
    third_hand_takes_talon: bool         # third_hand_mode take_talon_no_miser
    min_bid_after_raspasy: tuple[tuple[int, int], ...]
    # whist and play
    high_level_split: bool               # high_level_liability split
    half_whist_levels: tuple[int, ...]
    half_whist_by_either: bool
    dealer_whists_after_passes: bool
    dealer_writes_consolation: bool      # dealer_whist_consolation dealer
    half_whist_tricks: dict[int, int | Fraction]
    open_play_choice: int                # OPEN_*
    ten_checked: bool                    # ten_mode checked
    raspasy_open_talon: bool             # raspasy_talon_mode open
    raspasy_last_winner_leads: bool      # raspasy_third_lead last_winner
    allow_concede_down3: bool
    # scoring
    game_values: dict[int, int]
    miser_value: int
    whist_mult: int
    remiz_mult: int
    whister_fail_mult: int | Fraction
    consolation_mult: int
    consolation_passer: bool
    consolation_half_to_returner: bool
    consolation_dealer: bool
    split_with_passer_on_remiz: bool
    whisters_share_penalty: bool
    miser_fail_per_trick: int
    raspasy_mode: int                    # RASPASY_*
    raspasy_base: int
    raspasy_progression: int             # PROGRESSION_*
    raspasy_cap: int
    raspasy_prices: tuple[int, ...]
    raspasy_exit: int                    # EXIT_*
    raspasy_exit_level: int
    raspasy_exit_miser: bool
    raspasy_zero_premium: int            # ZERO_PREMIUM_*
    raspasy_visty_per_trick: int
    raspasy_amnesty: int                 # AMNESTY_*
    american_help: bool
    help: bool                           # american_help, and the pulka ends on every pulya (pulyas bounded)
    help_overflow: int                   # OVERFLOW_*
    help_lowest_seat: bool               # help_tie lowest_seat
    help_price: int                      # help_point_visty, else pool_point_visty
    shortfall_split: int                 # SPLIT_*
    ten_check_visty: bool
    gora_first: bool
    end_on_total: bool                   # pulka_end total
    whole: bool                          # every number a deal is scored with is an int (no Fraction)

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.miser_first_call_only = rules.miser_first_call_only
        self.miser_beaten_by_level = rules.miser_beaten_by_level
        self.miser_bidder_may_continue = rules.miser_bidder_may_continue
        self.third_hand_takes_talon = rules.third_hand_mode == ThirdHandMode.TAKE_TALON_NO_MISER
        self.min_bid_after_raspasy = rules.min_bid_after_raspasy
        self.high_level_split = rules.high_level_liability == HighLevelLiability.SPLIT
        self.half_whist_levels = rules.half_whist_levels
        self.half_whist_by_either = rules.half_whist_by == HalfWhistBy.EITHER
        self.dealer_whists_after_passes = rules.dealer_whists_after_passes
        self.dealer_writes_consolation = rules.dealer_whist_consolation == DealerWhistConsolation.DEALER
        self.half_whist_tricks = dict(rules.half_whist_tricks)
        self.open_play_choice = _code(rules.open_play_choice)
        self.ten_checked = rules.ten_mode == TenMode.CHECKED
        self.raspasy_open_talon = rules.raspasy_talon_mode == RaspasyTalonMode.OPEN
        self.raspasy_last_winner_leads = rules.raspasy_third_lead == RaspasyThirdLead.LAST_WINNER
        self.allow_concede_down3 = rules.allow_concede_down3
        self.game_values = dict(rules.game_values)
        self.miser_value = rules.miser_value
        self.whist_mult = rules.whist_mult
        self.remiz_mult = rules.remiz_mult
        self.whister_fail_mult = rules.whister_fail_mult
        self.consolation_mult = rules.consolation_mult
        self.consolation_passer = rules.consolation_passer
        self.consolation_half_to_returner = rules.consolation_half_to_returner
        self.consolation_dealer = rules.consolation_dealer
        self.split_with_passer_on_remiz = rules.split_with_passer_on_remiz
        self.whisters_share_penalty = rules.whisters_share_penalty
        self.miser_fail_per_trick = rules.miser_fail_per_trick
        self.raspasy_mode = _code(rules.raspasy_mode)
        self.raspasy_base = rules.raspasy_base
        self.raspasy_progression = _code(rules.raspasy_progression)
        self.raspasy_cap = rules.raspasy_cap
        self.raspasy_prices = rules.raspasy_prices
        self.raspasy_exit = _code(rules.raspasy_exit)
        self.raspasy_exit_level = rules.raspasy_exit_level
        self.raspasy_exit_miser = rules.raspasy_exit_miser
        self.raspasy_zero_premium = _code(rules.raspasy_zero_premium)
        self.raspasy_visty_per_trick = rules.raspasy_visty_per_trick
        self.raspasy_amnesty = _code(rules.raspasy_amnesty)
        self.end_on_total = rules.pulka_end == PulkaEnd.TOTAL
        self.american_help = rules.american_help
        self.help = rules.american_help and not self.end_on_total
        self.help_overflow = _code(rules.help_overflow)
        self.help_lowest_seat = rules.help_tie == HelpTie.LOWEST_SEAT
        self.help_price = rules.pool_point_visty if rules.help_point_visty is None else rules.help_point_visty
        self.shortfall_split = _code(rules.whist_shortfall_split)
        self.ten_check_visty = rules.ten_check_visty
        self.gora_first = rules.gora_first
        # while every option is an int, a deal's cells are ints: the scorer need not normalise them
        self.whole = all(type(x) is int for x in (
            rules.miser_value, rules.whist_mult, rules.remiz_mult, rules.whister_fail_mult, rules.consolation_mult,
            rules.miser_fail_per_trick, rules.raspasy_base, rules.raspasy_cap, rules.raspasy_visty_per_trick,
            rules.pool_point_visty, *self.game_values.values(), *self.half_whist_tricks.values()))

    def _hold_code(self, name: str) -> int:
        """'miser' (or 'мизер'), else a contract of the ladder ('6s')."""
        return MISER if name in ("miser", "мизер") else parse_ru_bid(name)

    def raspasy_price(self, k: int) -> int:
        """Price of a raspasy trick in the *k*-th (1-based) consecutive raspasy of a series (docs/rules.md §B1);
        a ``raspasy_prices`` table gives the prices outright, its last one repeating."""
        table = self.raspasy_prices
        if table:
            return table[min(k, len(table)) - 1]
        prog = self.raspasy_progression
        if prog == PROGRESSION_ARITHMETIC:
            mult = min(k, self.raspasy_cap)
        elif prog == PROGRESSION_GEOMETRIC:
            mult = min(2 ** (k - 1), self.raspasy_cap)
        else:
            mult = 1
        return self.raspasy_base * mult


class CroatianSettings(TableSettings):
    """Every option of the Croatian family that its deal, defence and scorer read (docs/rules-options.md)."""

    first_lead: int                      # FIRST_LEAD_*
    sanac_lead: int                      # SANAC_*
    bettel_lead_right: bool              # bettel_lead right_of_declarer
    start: int
    refe_max: tuple[tuple[int, int], ...]
    refe_blocked_under_hat: bool
    refe_consumed_on_fail: bool
    two_spades_nobody_scores: bool       # two_spades_without_contra nobody_scores_refe
    contra_enabled: bool
    contra_fail_penalty: bool
    defender_trick_cap: int
    bettel_per_trick: bool               # bettel_fail_mode per_trick
    overshoot_proportional: bool         # overshoot_mode proportional

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.first_lead = _code(rules.first_lead)
        self.sanac_lead = _code(rules.sanac_lead)
        self.bettel_lead_right = rules.bettel_lead == BettelLead.RIGHT_OF_DECLARER
        self.start = rules.start
        self.refe_max = rules.refe_max
        self.refe_blocked_under_hat = rules.refe_blocked_under_hat
        self.refe_consumed_on_fail = rules.refe_consumed_on_fail
        self.two_spades_nobody_scores = rules.two_spades_without_contra == TwoSpadesWithoutContra.NOBODY_SCORES_REFE
        self.contra_enabled = rules.contra_enabled
        self.contra_fail_penalty = rules.contra_fail_penalty
        self.defender_trick_cap = rules.defender_trick_cap
        self.bettel_per_trick = rules.bettel_fail_mode == BettelFailMode.PER_TRICK
        self.overshoot_proportional = rules.overshoot_mode == OvershootMode.PROPORTIONAL

    def _hold_code(self, name: str) -> int:
        """'miser'/'bettel' → Bettel (6), 'sanac' → 7, '6s' → 2, a number 2–7 as itself."""
        code = _HR_HOLD_NAMES.get(name, -1)
        if code < 0 and name.isdigit() and 2 <= int(name) <= 7:
            code = int(name)
        return code


_HR_HOLD_NAMES: Final[dict[str, int]] = {"miser": HR_BETTEL, "мизер": HR_BETTEL, "bettel": HR_BETTEL,
                                         "sanac": HR_SANAC, "6s": 2}

_RUSSIAN: dict[int, RussianSettings] = {}
_CROATIAN: dict[int, CroatianSettings] = {}
_KEPT: Final = 64   # rules objects remembered (a process meets a handful; tests build thousands)


def russian_settings(rules: Rules) -> RussianSettings:
    """The Russian settings of ``rules``, built once per rules object."""
    s = _RUSSIAN.get(id(rules))
    if s is None or s.rules is not rules:
        if len(_RUSSIAN) >= _KEPT:
            _RUSSIAN.clear()
        s = RussianSettings(rules)
        _RUSSIAN[id(rules)] = s     # (the settings hold the rules: the id is not reused while kept)
    return s


def croatian_settings(rules: Rules) -> CroatianSettings:
    """The Croatian settings of ``rules``, built once per rules object."""
    s = _CROATIAN.get(id(rules))
    if s is None or s.rules is not rules:
        if len(_CROATIAN) >= _KEPT:
            _CROATIAN.clear()
        s = CroatianSettings(rules)
        _CROATIAN[id(rules)] = s
    return s


__all__ = ["CroatianSettings", "RussianSettings", "TableSettings", "croatian_settings", "russian_settings"]
