"""Rule variants ("конвенции") as data: one frozen :class:`Rules` object per pulka.

Every option of RULES.md Part E is a field here, documented by its ``doc``
metadata; presets live in :mod:`preflog.rules.presets`. The engine and the scoring
read options, never a preset's name: a new convention is a new ``Rules`` value.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from typing import Any

from ..errors import PreflogError


class RulesError(PreflogError, ValueError):
    """An unknown preset, option or option value."""


def _opt(default: Any, doc: str, choices: tuple[Any, ...] | None = None) -> Any:
    meta = {"doc": doc, "choices": choices}
    if isinstance(default, (dict, list)):
        raise TypeError("use tuples for option defaults")
    return field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class Rules:
    """All options players agree on before a pulka (RULES.md Part E)."""

    name: str = _opt("custom", "Name of the preset these rules came from (display only).")
    family: str = _opt("russian", "Game family: the Russian ladder game or the Croatian/Slovenian one.",
                       ("russian", "croatian"))
    players: tuple[int, ...] = _opt((3, 4), "Table sizes allowed; at 4 the dealer sits out.")
    deal_pattern: str = _opt("2s", "How cards are dealt (2 at a time, or 5-2-5 with the talon in the middle).",
                             ("2s", "5-2-5"))

    # --- auction (A5) ---
    allow_jump_bids: bool = _opt(False, "Bids may skip steps of the ladder (forbidden by the Codex).")
    hold_enabled: bool = _opt(True, "A bidder may hold ('здесь'/'мои') the current bid instead of raising.")
    hold_who: str = _opt("senior", "Who may hold: the senior of the two bidders, only first hand, or any "
                         "overcalled bidder.", ("senior", "first_hand", "any_overcalled"))
    hold_requires_intermediate_pass: bool = _opt(
        True, "A hold is allowed only when the player between the two bidders has passed.")
    hold_forbidden_on: tuple[str, ...] = _opt(("miser",), "Bids that can never be held ('miser', '6s').")
    miser_first_call_only: bool = _opt(True, "Miser ('кабальный') may only be a player's first call.")
    miser_beaten_by_level: int = _opt(9, "Lowest trick level that overcalls miser.", (9, 10))
    miser_bidder_may_continue: bool = _opt(
        False, "After his miser is overcalled the miser bidder may bid on (else he may only pass).")
    third_hand_mode: str = _opt(
        "normal", "After two passes the third hand bids normally, or takes the talon without a bid "
        "and must order a trick game.", ("normal", "take_talon_no_miser"))
    min_bid_after_raspasy: tuple[tuple[int, int], ...] = _opt(
        (), "Minimum opening level after a raspasy series: pairs (series length, level), e.g. "
        "((2, 7), (3, 8)) for 'after double raspasy from 7, after triple from 8'.")

    # --- whist (A8, A9) ---
    whist_obligation: tuple[tuple[int, int], ...] = _opt(
        ((6, 4), (7, 2), (8, 1), (9, 1), (10, 1)), "Tricks the defending side must take, per level.")
    high_level_liability: str = _opt(
        "second", "At 8-10 with two whisters, who answers for a shortfall.", ("second", "split"))
    lone_whister_quota: str = _opt(
        "side", "A lone whister answers for the whole side's obligation or for his personal share.",
        ("side", "personal"))
    half_whist_levels: tuple[int, ...] = _opt((6, 7), "Levels where half-whist ('полвиста') is allowed.")
    half_whist_tricks: tuple[tuple[int, int], ...] = _opt(
        ((6, 2), (7, 1)), "Tricks a half-whister is credited with, per level.")
    open_play_choice: str = _opt(
        "lone_whister", "Who chooses open or closed play with one whister (Croatian: invitation).",
        ("lone_whister", "invitation", "never"))
    ten_mode: str = _opt(
        "whisted", "A 10-level game is whisted and played, or checked ('проверка', Sochi) by laying "
        "the cards open.", ("whisted", "checked"))

    # --- Russian scoring (Part B) ---
    game_values: tuple[tuple[int, int], ...] = _opt(
        ((6, 2), (7, 4), (8, 6), (9, 8), (10, 10)), "Pulya points V for a made contract, per level.")
    miser_value: int = _opt(10, "Pulya points for a made miser.")
    whist_mult: int = _opt(1, "Visty per defender trick, as a multiple of V.")
    remiz_mult: int = _opt(1, "Declarer's gora per undertrick, as a multiple of V.")
    whister_fail_mult: int = _opt(
        1, "Whister's gora per missing trick, as a multiple of V (responsible whist; Leningrad's "
        "half-responsible whist is V too, half of its doubled value).")
    consolation_mult: int = _opt(1, "Consolation ('консоляция') per undertrick, as a multiple of V; 0 = none.")
    consolation_passer: bool = _opt(True, "The passer writes consolation too.")
    consolation_half_to_returner: bool = _opt(
        True, "A half-whister's consolation is written by the player who returned the whist.")
    consolation_dealer: bool = _opt(True, "At a 4-player table the dealer writes consolation.")
    split_with_passer_on_remiz: bool = _opt(
        False, "Gentleman's whist: when the declarer fails, the lone whister and the passer split "
        "all visty in half (else greedy: the whister keeps the trick visty).")
    whisters_share_penalty: bool = _opt(False, "Two whisters share a whist penalty equally.")
    miser_fail_per_trick: int = _opt(10, "Declarer's gora per trick taken on a failed miser.")
    raspasy_mode: str = _opt(
        "gora", "How raspasy ('распасы') are scored: tricks to gora, or Rostov-style visty from the "
        "player with fewest tricks.", ("gora", "visty"))
    raspasy_base: int = _opt(1, "Price of a raspasy trick in the first raspasy of a series.")
    raspasy_progression: str = _opt(
        "arithmetic", "Growth of the price over consecutive raspasy.", ("none", "arithmetic", "geometric"))
    raspasy_cap: int = _opt(3, "Highest price multiple the progression reaches (base × cap).")
    raspasy_exit: str = _opt(
        "any_game", "What ends a raspasy series: any declared game, or only a made one.",
        ("any_game", "made_game"))
    raspasy_zero_premium: str = _opt(
        "price", "Pulya for a player with no raspasy trick: the current price or always 1.", ("price", "one"))
    raspasy_visty_per_trick: int = _opt(5, "Rostov: visty per trick written by the player with fewest.")
    raspasy_talon_mode: str = _opt(
        "open", "Raspasy talon: turned up to fix the suit of the first two leads, or left closed.",
        ("open", "closed"))
    raspasy_third_lead: str = _opt(
        "first_hand", "Who leads the third raspasy trick at a 3-player table.", ("first_hand", "last_winner"))
    american_help: bool = _opt(True, "'Американская помощь' when the declarer's pulya is closed.")
    pool_point_visty: int = _opt(10, "Visty per pulya point at settlement if pulyas end unequal.")
    gora_point_visty: int = _opt(10, "Visty per gora point at settlement.")
    settlement_rounding: str = _opt(
        "method1", "Which integer settlement is shown as the result; exact fractions are always kept.",
        ("exact", "method1", "method2"))
    allow_concede_down3: bool = _opt(False, "House rule: the declarer may concede down three.")

    # --- play (A10) ---
    must_trump: bool = _opt(True, "A player void in the suit led must trump if he can.")
    first_lead: str = _opt(
        "eldest", "Who leads first: first hand; first hand skipping a player who is out; Croatian "
        "[S002]: nearest whister to the declarer's left.", ("eldest", "eldest_skip_out", "left_whister"))
    sanac_lead: str = _opt(
        "first_lead", "Who leads in Sanac: as other contracts; the next player if first lead would be the "
        "declarer's [S000]; or the player on the declarer's right (Slovenian «под разыгрывающего»).",
        ("first_lead", "not_declarer", "right_of_declarer"))
    bettel_lead: str = _opt("first_lead", "Who leads in Bettel: as other contracts, or the player on "
                            "the declarer's right.", ("first_lead", "right_of_declarer"))

    # --- Croatian / Slovenian (Part C) ---
    start: int = _opt(30, "Croatian: contract columns start at minus this value.")
    refe_max: tuple[tuple[int, int], ...] = _opt(((30, 1), (50, 3)), "Croatian: most refes per pulka, by start.")
    refe_blocked_under_hat: bool = _opt(True, "Croatian: no refe once anyone is under the hat.")
    refe_consumed_on_fail: bool = _opt(True, "Croatian: a refe is used up by a failed contract too.")
    two_spades_without_contra: str = _opt(
        "win_without_play", "Croatian 2♠ with talon and no refe that nobody contras: the declarer wins "
        "without play, or (Slovenian) nobody writes and everyone gets a refe.",
        ("win_without_play", "nobody_scores_refe"))
    contra_enabled: bool = _opt(True, "Croatian: contra, recontra, subcontra … (×2 per step).")
    contra_fail_penalty: bool = _opt(
        True, "Croatian: a contra-er whose side takes at most 4 tricks is penalised V×m (UNVERIFIED).")
    defender_trick_cap: int = _opt(5, "Croatian: play stops when the defenders take this many tricks.")
    bettel_fail_mode: str = _opt("flat", "Croatian failed Bettel: defenders write 60/70 flat or per trick.",
                                 ("flat", "per_trick"))
    overshoot_mode: str = _opt(
        "proportional", "Croatian last deal overshooting zero: truncate and scale the defenders' juha.",
        ("proportional", "none"))
    talon_shown: bool = _opt(True, "The talon is shown to everyone before the declarer takes it.")

    # ------------------------------------------------------------------
    def option(self, name: str) -> Any:
        return getattr(self, name)

    def obligation(self, level: int) -> int:
        return dict(self.whist_obligation)[level]

    def value(self, level: int) -> int:
        return dict(self.game_values)[level]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; unknown names and values are :class:`RulesError`."""
        known = {f.name: f for f in fields(self)}
        clean: dict[str, Any] = {}
        for key, value in changes.items():
            if key not in known:
                raise RulesError(f"unknown rules option {key!r}")
            clean[key] = _coerce(known[key], value)
        return dataclasses.replace(self, **clean)

    def overrides_from(self, base: Rules) -> dict[str, Any]:
        """The options in which these rules differ from ``base`` (for records and docs)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)}

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def _tuplify(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_tuplify(x) for x in v)
    if isinstance(v, dict):
        return tuple((int(k), _tuplify(x)) for k, x in v.items())
    return v


def _coerce(f: dataclasses.Field[Any], value: Any) -> Any:
    """Accept options written as text (``key=value`` in a record) or as JSON values."""
    default = f.default
    if isinstance(value, str) and not isinstance(default, str):
        text = value.strip()
        if isinstance(default, bool):
            if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise RulesError(f"option {f.name!r} takes true or false, not {value!r}")
            value = text.lower() in ("true", "yes", "1")
        elif isinstance(default, int):
            try:
                value = int(text)
            except ValueError:
                raise RulesError(f"option {f.name!r} takes a whole number, not {value!r}") from None
        elif isinstance(default, tuple):
            import json

            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                value = [x.strip() for x in text.split("|") if x.strip()]
    if isinstance(default, tuple):
        value = _tuplify(value)
    elif isinstance(default, bool):
        if not isinstance(value, bool):
            raise RulesError(f"option {f.name!r} takes true or false, not {value!r}")
    elif isinstance(default, int) and (isinstance(value, bool) or not isinstance(value, int)):
        raise RulesError(f"option {f.name!r} takes a whole number, not {value!r}")
    elif isinstance(default, str) and not isinstance(value, str):
        raise RulesError(f"option {f.name!r} takes text, not {value!r}")
    choices = f.metadata.get("choices")
    if choices and value not in choices:
        raise RulesError(f"option {f.name!r} is one of {', '.join(map(str, choices))}, not {value!r}")
    return value
