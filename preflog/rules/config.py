"""Rule variants ("конвенции") as data: one frozen :class:`Rules` object per pulka.

Every option of docs/rules-options.md is a field here, documented by its ``doc``
metadata and tagged with the game family it applies to (``family`` metadata: ``None`` for
both families, else :class:`GameFamily`); presets live in :mod:`preflog.rules.presets`. The engine
and the scoring read options, never a preset's name: a new convention is a new ``Rules`` value.

Option values are typed: booleans, whole numbers, words of a closed set (a :class:`~enum.StrEnum` of
:mod:`preflog.rules.choices`) and tuples of those. Every ``Rules`` is checked when it is built, so a
float or a list where a whole number is meant is a :class:`RulesError` naming the option. Changing an
option of the other family (a Russian-only option on Croatian rules, or the reverse) is refused by
:meth:`Rules.replace` and so by :func:`preflog.rules.presets.resolve`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import types
import typing
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any

from ..errors import PreflogError
from .choices import BettelFailMode
from .choices import BettelLead
from .choices import DealerWhistConsolation
from .choices import FirstLead
from .choices import GameFamily
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
from .choices import SettlementDivisor
from .choices import SettlementRounding
from .choices import ShortfallSplit
from .choices import TenMode
from .choices import ThirdHandMode
from .choices import TwoSpadesWithoutContra


class RulesError(PreflogError, ValueError):
    """An unknown preset, option or option value, or an option of the other game family."""


RU = GameFamily.RUSSIAN
HR = GameFamily.CROATIAN


def _opt(default: Any, doc: str, family: GameFamily | None = None, choices: tuple[Any, ...] | None = None) -> Any:
    """An option field: its default, its doc, the family it applies to (``None``: both) and, for a
    whole number with a fixed set of values, the choices (a StrEnum default brings its own)."""
    if isinstance(default, (dict, list)):
        raise TypeError("use tuples for option defaults")
    if isinstance(default, Enum):
        choices = tuple(type(default))
    meta = {"doc": doc, "choices": choices, "family": family}
    return field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class Rules:
    """All options players agree on before a pulka (docs/rules-options.md)."""

    name: str = _opt("custom", "Name of the preset these rules came from (display only).")
    family: GameFamily = _opt(RU, "Game family: the Russian ladder game or the Croatian/Slovenian one.")
    players: tuple[int, ...] = _opt((3, 4), "Table sizes allowed; at 4 the dealer sits out.")

    # --- auction (A5) ---
    allow_jump_bids: bool = _opt(False, "Bids may skip steps of the ladder (forbidden by the Codex).")
    hold_enabled: bool = _opt(True, "A bidder may hold ('здесь'/'мои') the current bid instead of raising.")
    hold_who: HoldWho = _opt(HoldWho.SENIOR, "Who may hold: the senior of the two bidders, only first hand, or "
                             "any overcalled bidder.")
    hold_requires_intermediate_pass: bool = _opt(
        True, "A hold is allowed only when the player between the two bidders has passed.")
    hold_forbidden_on: tuple[str, ...] = _opt(("miser",), "Bids that can never be held ('miser', '6s').")
    miser_first_call_only: bool = _opt(True, "Miser ('кабальный') may only be a player's first call.", RU)
    miser_beaten_by_level: int = _opt(9, "Lowest trick level that overcalls miser.", RU, (9, 10))
    miser_bidder_may_continue: bool = _opt(
        False, "After his miser is overcalled the miser bidder may bid on (else he may only pass).", RU)
    third_hand_mode: ThirdHandMode = _opt(
        ThirdHandMode.NORMAL, "After two passes the third hand bids normally, or takes the talon without a bid "
        "and must order a trick game.", RU)
    min_bid_after_raspasy: tuple[tuple[int, int], ...] = _opt(
        (), "Minimum opening level after a raspasy series: pairs (series length, level), e.g. "
        "((2, 7), (3, 8)) for 'after double raspasy from 7, after triple from 8'.", RU)

    # --- whist (A8, A9) ---
    whist_obligation: tuple[tuple[int, int], ...] = _opt(
        ((6, 4), (7, 2), (8, 1), (9, 1), (10, 1)), "Tricks the defending side must take, per level (Croatian: per "
        "contract number); each of two whisters answers for half of it.")
    high_level_liability: HighLevelLiability = _opt(
        HighLevelLiability.SECOND, "At 8-10 with two whisters, who answers for a shortfall.", RU)
    lone_whister_quota: LoneWhisterQuota = _opt(
        LoneWhisterQuota.SIDE, "A lone whister answers for the whole side's obligation or for his personal share "
        "(Croatian: a lone whister who invited answers for the side's).")
    half_whist_levels: tuple[int, ...] = _opt((6, 7), "Levels where half-whist ('полвиста') is allowed.", RU)
    half_whist_by: HalfWhistBy = _opt(
        HalfWhistBy.SECOND, "Who may say half-whist: the second defender after the first passed, or either "
        "defender (a first-defender half-whist may be returned by the second, and at four by the dealer).", RU)
    dealer_whists_after_passes: bool = _opt(
        False, "At a 4-player table the sitting-out dealer may whist for the side when both defenders pass "
        "(on one passer's cards); he then whists alone, like a dealer who returns a half-whist.", RU)
    dealer_whist_consolation: DealerWhistConsolation = _opt(
        DealerWhistConsolation.PASSERS, "When the 4-player dealer whists after both defenders passed "
        "(dealer_whists_after_passes) and the declarer fails: each passer writes his own consolation, or the "
        "dealer writes both passers' consolations himself (the total written is the same).", RU)
    half_whist_tricks: tuple[tuple[int, int | Fraction], ...] = _opt(
        ((6, 2), (7, 1)), "Tricks a half-whister is credited with, per level; a fraction is allowed (7:3/2 "
        "credits the 7-level half-whist with 1½ tricks, half of the 3 tricks the declarer may lose).", RU)
    open_play_choice: OpenPlayChoice = _opt(
        OpenPlayChoice.LONE_WHISTER, "Who chooses open or closed play with one whister (Croatian: invitation).", RU)
    ten_mode: TenMode = _opt(
        TenMode.WHISTED, "A 10-level game is whisted and played, or checked ('проверка', Sochi) by laying "
        "the cards open.", RU)

    # --- Russian scoring (Part B) ---
    game_values: tuple[tuple[int, int], ...] = _opt(
        ((6, 2), (7, 4), (8, 6), (9, 8), (10, 10)), "Pulya points V for a made contract, per level.", RU)
    miser_value: int = _opt(10, "Pulya points for a made miser.", RU)
    whist_mult: int = _opt(1, "Visty per defender trick, as a multiple of V.", RU)
    remiz_mult: int = _opt(1, "Declarer's gora per undertrick, as a multiple of V.", RU)
    whister_fail_mult: int | Fraction = _opt(
        1, "Whister's gora per missing trick, as a multiple of V (responsible whist; Leningrad's "
        "half-responsible whist is V too, half of its doubled value); a fraction is allowed: 1/2 charges "
        "V/2 per missing trick (half-responsible whist at single values).", RU)
    consolation_mult: int = _opt(1, "Consolation ('консоляция') per undertrick, as a multiple of V; 0 = none.", RU)
    consolation_passer: bool = _opt(True, "The passer writes consolation too.", RU)
    consolation_half_to_returner: bool = _opt(
        True, "A half-whister's consolation is written by the player who returned the whist.", RU)
    consolation_dealer: bool = _opt(True, "At a 4-player table the dealer writes consolation.", RU)
    split_with_passer_on_remiz: bool = _opt(
        False, "Gentleman's whist: when the declarer fails, the lone whister and the passer split "
        "all visty in half (else greedy: the whister keeps the trick visty).", RU)
    whisters_share_penalty: bool = _opt(False, "Two whisters share a whist penalty equally.", RU)
    miser_fail_per_trick: int = _opt(10, "Declarer's gora per trick taken on a failed miser.", RU)
    raspasy_mode: RaspasyMode = _opt(
        RaspasyMode.GORA, "How raspasy ('распасы') are scored: tricks to gora, or Rostov-style visty from the "
        "player with fewest tricks (ties split), or 'visty_above_min': each player with fewest writes "
        "(tricks - fewest) x raspasy_visty_per_trick on every other (ties not split).", RU)
    raspasy_base: int = _opt(1, "Price of a raspasy trick in the first raspasy of a series.", RU)
    raspasy_progression: RaspasyProgression = _opt(
        RaspasyProgression.ARITHMETIC, "Growth of the price over consecutive raspasy.", RU)
    raspasy_cap: int = _opt(3, "Highest price multiple the progression reaches (base × cap).", RU)
    raspasy_exit: RaspasyExit = _opt(
        RaspasyExit.ANY_GAME, "What ends a raspasy series: any declared game, only a made one, a played one "
        "made or not (a miser too; not a both-pass game or a standing half-whist), a made and played one, a "
        "made, whisted one with no whist shortfall, or any game but a both-pass one (a standing half-whist "
        "ends it).", RU)
    raspasy_zero_premium: RaspasyZeroPremium = _opt(
        RaspasyZeroPremium.PRICE, "Pulya for a player with no raspasy trick: the current price, always 1, or "
        "none.", RU)
    raspasy_visty_per_trick: int = _opt(5, "Rostov: visty per trick written by the player with fewest (k; the "
                                        "price progression does not apply to visty).", RU)
    raspasy_talon_mode: RaspasyTalonMode = _opt(
        RaspasyTalonMode.OPEN, "Raspasy talon: turned up to fix the suit of the first two leads, or left closed.", RU)
    raspasy_third_lead: RaspasyThirdLead = _opt(
        RaspasyThirdLead.FIRST_HAND, "Who leads the third raspasy trick at a 3-player table.", RU)
    american_help: bool = _opt(True, "'Американская помощь' when the declarer's pulya is closed.", RU)
    pool_point_visty: int = _opt(10, "Visty per pulya point at settlement if pulyas end unequal.", RU)
    gora_point_visty: int = _opt(10, "Visty per gora point at settlement (Croatian: per point of the contract "
                                 "column).")
    settlement_rounding: SettlementRounding = _opt(
        SettlementRounding.METHOD1, "Which settlement is shown as the result (exact fractions, or one of the "
        "two whole-visty methods); all three are always kept.")
    allow_concede_down3: bool = _opt(
        False, "House rule «без трёх»: before play the declarer may concede a trick contract down three (his "
        "call 'concede'): gora remiz_mult × V × 3, nobody writes visty; else the call is the finding "
        "concede_not_allowed.", RU)

    # --- American help, whist liability, settlement (issue 10: the "liability" options) ---
    help_overflow: HelpOverflow = _opt(
        HelpOverflow.OPPONENTS_GORA, "American help when no other pulya is open: the rest comes off the writer's "
        "gora down to 0 and what is left goes onto every opponent's gora; or all of it comes off his gora, "
        "which may go below 0; or off his gora down to 0 and the rest is dropped.", RU)
    help_tie: HelpTie = _opt(
        HelpTie.CLOCKWISE, "American help between equal open pulyas: the writer's left first (clockwise), or "
        "the lowest seat first.", RU)
    help_point_visty: int | None = _opt(
        None, "Visty the helper writes per pulya point given in American help; none = pool_point_visty.", RU)
    whist_shortfall_split: ShortfallSplit = _opt(
        ShortfallSplit.CAPPED, "Two whisters short of the obligation: each answers for his own deficit (quota − "
        "own tricks) capped by the side's shortfall; or the side's shortfall is spread in proportion to the "
        "deficits against equal halves of the obligation (at 8-10 both share); or each answers for his whole "
        "deficit whenever the side is short; or always.", RU)
    settlement_divisor: SettlementDivisor = _opt(
        SettlementDivisor.PLAYERS, "Settlement: each other player writes gora × gora_point_visty divided by the "
        "number of players (players) or by the number of the others (others: the owner pays his whole gora).", RU)
    settle_unequal_pulya: bool = _opt(
        True, "Settlement counts unequal pulyas (pool_point_visty per point); false: pulyas are ignored.", RU)

    # --- house rules: raspasy, ten check, gora first, end of pulka (issue 10; docs/house-rules.md) ---
    raspasy_amnesty: RaspasyAmnesty = _opt(
        RaspasyAmnesty.NONE, "Raspasy in gora: the common minimum of tricks is amnestied, each player writes "
        "(tricks - fewest) x price; 'with_dealer': at 4 players the dealer's talon tricks count among the "
        "minimum and he gets the zero-trick premium too.", RU)
    raspasy_prices: tuple[int, ...] = _opt(
        (), "Raspasy price table for the 1st, 2nd, ... raspasy of a series, the last repeating (2|4|8 plays "
        "2-4-8-8...); when given it replaces raspasy_base, raspasy_progression and raspasy_cap.", RU)
    raspasy_exit_level: int = _opt(
        6, "Lowest level of a trick game that can end a raspasy series (a lower game keeps it open).", RU,
        (6, 7, 8, 9, 10))
    raspasy_exit_miser: bool = _opt(
        True, "A miser can end a raspasy series (by the exit rule: any miser under any_game and played_game, "
        "a made one under the others).", RU)
    ten_check_visty: bool = _opt(
        True, "In the ten-game check the opponents write visty as if both had whisted; false: nobody writes "
        "visty, only the declarer's pulya or gora.", RU)
    gora_first: bool = _opt(
        False, "Rostov 'mountain first': a made contract (played or not, miser too) first writes off the "
        "declarer's own gora, the rest goes to his pulya.", RU)
    pulka_end: PulkaEnd = _opt(
        PulkaEnd.EVERY_PULYA, "When the pulka ends: every pulya closed (with American help), or 'total': the sum "
        "of the pulyas reaches players x pool and no raspasy series is open (pulyas unbounded, no help).", RU)

    # --- play (A10) ---
    must_trump: bool = _opt(True, "A player void in the suit led must trump if he can.")
    first_lead: FirstLead = _opt(
        FirstLead.ELDEST, "Who leads first: first hand; first hand skipping a player who is out (the same: a player "
        "who is out never leads, the lead passes clockwise, as Fundak writes); the short Croatian description: "
        "nearest whister to the declarer's left.", HR)
    sanac_lead: SanacLead = _opt(
        SanacLead.FIRST_LEAD, "Who leads in Sanac: as other contracts; the next player if first lead would be the "
        "declarer's (Fundak); or the player on the declarer's right (Slovenian «под разыгрывающего»).", HR)
    bettel_lead: BettelLead = _opt(BettelLead.FIRST_LEAD, "Who leads in Bettel: as other contracts, or the player "
                                   "on the declarer's right.", HR)

    # --- Croatian / Slovenian (Part C) ---
    start: int = _opt(30, "Croatian: contract columns start at minus this value.", HR)
    refe_max: tuple[tuple[int, int], ...] = _opt(((30, 1), (50, 3)), "Croatian: most refes per pulka, by start.",
                                                 HR)
    refe_blocked_under_hat: bool = _opt(True, "Croatian: no refe once anyone is under the hat.", HR)
    refe_consumed_on_fail: bool = _opt(True, "Croatian: a refe is used up by a failed contract too.", HR)
    two_spades_without_contra: TwoSpadesWithoutContra = _opt(
        TwoSpadesWithoutContra.WIN_WITHOUT_PLAY, "Croatian 2♠ with talon and no refe that nobody contras: the "
        "declarer wins without play, or (Slovenian) nobody writes and everyone gets a refe.", HR)
    contra_enabled: bool = _opt(True, "Croatian: contra, recontra, subcontra … (×2 per step).", HR)
    contra_fail_penalty: bool = _opt(
        True, "Croatian: a contra-er whose side takes at most 4 tricks is penalised V×m (UNVERIFIED).", HR)
    defender_trick_cap: int = _opt(5, "Croatian: play stops when the defenders take this many tricks.", HR)
    bettel_fail_mode: BettelFailMode = _opt(
        BettelFailMode.FLAT, "Croatian failed Bettel: defenders write 60/70 flat or per trick.", HR)
    overshoot_mode: OvershootMode = _opt(
        OvershootMode.PROPORTIONAL, "Croatian last deal overshooting zero: truncate and scale the defenders' juha.",
        HR)

    def __post_init__(self) -> None:
        for f, hint in _typed_fields():
            value = getattr(self, f.name)
            checked = _check(f.name, hint, value, f.metadata.get("choices"))
            if checked is not value:
                object.__setattr__(self, f.name, checked)
        _check_house_rules(self)

    # ------------------------------------------------------------------
    def option(self, name: str) -> Any:
        return getattr(self, name)

    def value(self, level: int) -> int:
        return dict(self.game_values)[level]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; unknown names, ill-typed values and options of the other
        family (see :func:`option_family`) are :class:`RulesError`."""
        known = {f.name: f for f in fields(self)}
        clean: dict[str, Any] = {}
        for key, value in changes.items():
            if key not in known:
                raise RulesError(f"unknown rules option {key!r}")
            clean[key] = _coerce(known[key], value)
        family = clean.get("family", self.family)
        for key in clean:
            check_family(key, family)
        return dataclasses.replace(self, **clean)

    def to_dict(self) -> dict[str, Any]:
        """Every option as plain JSON values (words for the closed sets, lists for tuples)."""
        return {f.name: plain_value(getattr(self, f.name)) for f in fields(self)}


OPTION_SECTIONS: tuple[tuple[str, str], ...] = (
    ("name", "The table"),
    ("allow_jump_bids", "Auction (A5)"),
    ("whist_obligation", "Whist (A8, A9)"),
    ("game_values", "Russian scoring (B)"),
    ("help_overflow", "American help, whist liability, settlement"),
    ("raspasy_amnesty", "House rules: raspasy, ten check, gora first, end of pulka"),
    ("must_trump", "Play (A10)"),
    ("start", "Croatian and Slovenian scoring (C)"),
)
"""The sections of :class:`Rules`' options as docs/rules.md groups them: each section's first option (the
options follow in the order :class:`Rules` declares them) and its title."""


def option_sections() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every option's name in its section, in the order :class:`Rules` declares them: ``(title, names)``."""
    starts = dict(OPTION_SECTIONS)
    out: list[tuple[str, list[str]]] = []
    for f in fields(Rules):
        if f.name in starts:
            out.append((starts[f.name], []))
        out[-1][1].append(f.name)
    return tuple((title, tuple(names)) for title, names in out)


def option_family(name: str) -> GameFamily | None:
    """The family option ``name`` applies to (``None``: both); unknown names are :class:`RulesError`."""
    f = _FIELDS.get(name)
    if f is None:
        raise RulesError(f"unknown rules option {name!r}")
    family: GameFamily | None = f.metadata.get("family")
    return family


def check_family(name: str, family: GameFamily | str) -> None:
    """Refuse option ``name`` for rules of ``family`` when it belongs to the other family."""
    own = option_family(name)
    if own is not None and own != family:
        raise RulesError(f"option {name!r} applies to the {own} family only, not to {family} rules")


def plain_value(v: Any) -> Any:
    """An option value as plain JSON: words for enum members, lists for tuples, text for fractions (``"3/2"``)."""
    if isinstance(v, tuple):
        return [plain_value(x) for x in v]
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, Fraction):
        return str(v)
    return v


def stored_value(v: Any) -> Any:
    """An option value as a record's event stores it (JSON): as typed, but a fraction as the decimal
    that reads back as exactly it (``1.5``), else as text (``"1/3"``); a scalar fraction as text
    (``"1/2"``), so ``key=value`` stays readable."""
    if isinstance(v, tuple):
        return tuple(_stored_item(x) for x in v)
    if isinstance(v, Fraction):
        return str(v)
    return v


def _stored_item(v: Any) -> Any:
    if isinstance(v, tuple):
        return tuple(_stored_item(x) for x in v)
    if isinstance(v, Fraction):
        f = float(v)
        return f if Fraction(repr(f)) == v else str(v)
    return v


def _tuplify(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_tuplify(x) for x in v)
    if isinstance(v, dict):
        return tuple((_key(k), _tuplify(x)) for k, x in v.items())
    return v


def _key(k: Any) -> Any:
    try:
        return int(k)
    except (TypeError, ValueError):
        return k


@cache
def _typed_fields() -> tuple[tuple[dataclasses.Field[Any], Any], ...]:
    hints = typing.get_type_hints(Rules)
    return tuple((f, hints[f.name]) for f in fields(Rules))


@cache
def _hints() -> dict[str, Any]:
    return {f.name: h for f, h in _typed_fields()}


def _describe(hint: Any) -> str:
    if hint is bool:
        return "true or false"
    if hint is int:
        return "a whole number"
    if hint is Fraction:
        return "a fraction such as 3/2"
    if hint is type(None):
        return "none"
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(_describe(a) for a in typing.get_args(hint))
    if hint is str:
        return "text"
    if isinstance(hint, type) and issubclass(hint, Enum):
        return "one of " + ", ".join(m.value for m in hint)
    args = typing.get_args(hint)
    if len(args) == 2 and args[1] is Ellipsis:
        return f"a list of ({_describe(args[0])})"
    return "a tuple of (" + ", ".join(_describe(a) for a in args) + ")"


def _check(name: str, hint: Any, value: Any, choices: tuple[Any, ...] | None = None) -> Any:
    """``value`` as the option's type (words → enum members, lists → tuples), else :class:`RulesError`."""
    ok, typed = _typed(hint, value)
    if not ok and isinstance(hint, type) and issubclass(hint, Enum):
        raise RulesError(f"option {name!r} is one of {', '.join(m.value for m in hint)}, not {value!r}")
    if not ok:
        raise RulesError(f"option {name!r} takes {_describe(hint)}, not {value!r}")
    if choices and typed not in choices:
        raise RulesError(f"option {name!r} is one of {', '.join(map(str, choices))}, not {value!r}")
    return typed


def _typed(hint: Any, value: Any) -> tuple[bool, Any]:
    if hint is bool:
        return isinstance(value, bool), value
    if hint is int:
        return type(value) is int, value
    if hint is Fraction:
        return _fraction(value)
    if hint is type(None):
        return value is None, value
    if hint is str:
        return isinstance(value, str) and not isinstance(value, Enum), value
    if isinstance(hint, type) and issubclass(hint, Enum):
        if type(value) is hint:
            return True, value
        if not isinstance(value, str):
            return False, value
        try:
            return True, hint(value)
        except ValueError:
            return False, value
    origin = typing.get_origin(hint)
    if origin is tuple:
        if not isinstance(value, (tuple, list)):
            return False, value
        args = typing.get_args(hint)
        items = args[:1] * len(value) if len(args) == 2 and args[1] is Ellipsis else args
        if len(items) != len(value):
            return False, value
        out = []
        changed = isinstance(value, list)
        for h, x in zip(items, value, strict=True):
            ok, y = _typed(h, x)
            if not ok:
                return False, value
            changed = changed or y is not x
            out.append(y)
        return True, (tuple(out) if changed else value)
    if origin in (typing.Union, types.UnionType):
        for h in typing.get_args(hint):
            ok, y = _typed(h, value)
            if ok:
                return True, y
        return False, value
    raise TypeError(f"no check for option type {hint!r}")


def _fraction(value: Any) -> tuple[bool, Any]:
    """A rational option value: a Fraction, a finite float written as a decimal (``1.5``) or text
    (``"3/2"``, ``"1.5"``); whole values become ints, so a table of whole numbers stays ints."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, float, str)):
        return False, value
    if isinstance(value, float) and not math.isfinite(value):
        return False, value
    try:
        q = Fraction(repr(value) if isinstance(value, float) else value)
    except (ValueError, ZeroDivisionError):
        return False, value
    return True, (q.numerator if q.denominator == 1 else q)


def _from_text(hint: Any, text: str) -> Any:
    """An option value written as text (``key=value`` in a record or a spec)."""
    if hint is bool:
        low = text.lower()
        if low in ("true", "yes", "1"):
            return True
        if low in ("false", "no", "0"):
            return False
        return text
    if hint is int:
        try:
            return int(text)
        except ValueError:
            return text
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        if type(None) in args and text.lower() in ("none", "null", ""):
            return None
        if Fraction in args or int in args:
            ok, q = _fraction(text)
            if ok and (Fraction in args or type(q) is int):
                return q
        return text
    if typing.get_origin(hint) is tuple:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            items: list[Any] = [x.strip() for x in text.split("|") if x.strip()]
            args = typing.get_args(hint)
            if args and args[0] is int:
                items = [_from_text(int, x) for x in items]
            return items
    return text


def _coerce(f: dataclasses.Field[Any], value: Any) -> Any:
    """Accept options written as text (``key=value`` in a record) or as JSON values."""
    hint = _hints()[f.name]
    if isinstance(value, str) and hint is not str and not (isinstance(hint, type) and issubclass(hint, Enum)):
        value = _from_text(hint, value.strip())
    if isinstance(value, dict):
        value = _tuplify(value)
    return _check(f.name, hint, value, f.metadata.get("choices"))


def _check_house_rules(rules: Rules) -> None:
    """Value ranges of the issue-10 raspasy options that their types cannot say."""
    if any(p < 1 for p in rules.raspasy_prices):
        raise RulesError(f"option 'raspasy_prices' takes whole numbers of at least 1, not {rules.raspasy_prices!r}")


_FIELDS: dict[str, dataclasses.Field[Any]] = {f.name: f for f in fields(Rules)}
