"""Named presets (Sochi, Leningrad, Rostov, Croatian, Slovenian) and named overrides.

A rules *spec* is a preset name optionally followed by named overrides joined
with ``+``: ``"sochi"``, ``"sochi+geometric-raspasy+miser-by-10"``. Single options
are changed with :meth:`Rules.replace` or ``key=value`` pairs in :func:`resolve`.
Defaults and their sources are those of docs/rules-options.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .choices import BettelLead
from .choices import FirstLead
from .choices import GameFamily
from .choices import HoldWho
from .choices import LoneWhisterQuota
from .choices import OpenPlayChoice
from .choices import RaspasyExit
from .choices import RaspasyMode
from .choices import RaspasyProgression
from .choices import RaspasyTalonMode
from .choices import RaspasyZeroPremium
from .choices import SanacLead
from .choices import SettlementRounding
from .choices import TenMode
from .config import Rules
from .config import RulesError
from .config import option_family

SOCHI = Rules(name="sochi", ten_mode=TenMode.CHECKED)

LENINGRAD = Rules(
    name="leningrad",
    whist_mult=2, remiz_mult=2, whister_fail_mult=1, consolation_mult=2,
    split_with_passer_on_remiz=True, miser_fail_per_trick=20,
    raspasy_base=2, raspasy_progression=RaspasyProgression.ARITHMETIC, raspasy_cap=3,
    raspasy_exit=RaspasyExit.MADE_GAME,
    pool_point_visty=20,
)

ROSTOV = Rules(
    name="rostov",
    raspasy_mode=RaspasyMode.VISTY, raspasy_progression=RaspasyProgression.NONE,
    raspasy_zero_premium=RaspasyZeroPremium.ONE,
    raspasy_talon_mode=RaspasyTalonMode.CLOSED,
)

CROATIAN = Rules(
    name="croatian", family=GameFamily.CROATIAN, players=(3,),
    hold_who=HoldWho.ANY_OVERCALLED, hold_requires_intermediate_pass=False, hold_forbidden_on=(),
    miser_first_call_only=False,
    whist_obligation=((2, 4), (3, 4), (4, 4), (5, 4), (6, 0), (7, 4)),
    lone_whister_quota=LoneWhisterQuota.PERSONAL, half_whist_levels=(), half_whist_tricks=(),
    open_play_choice=OpenPlayChoice.INVITATION, consolation_mult=0, american_help=False,
    raspasy_progression=RaspasyProgression.NONE,
    first_lead=FirstLead.ELDEST_SKIP_OUT, sanac_lead=SanacLead.NOT_DECLARER,
    bettel_lead=BettelLead.RIGHT_OF_DECLARER,
    settlement_rounding=SettlementRounding.EXACT,
)

SLOVENIAN = CROATIAN.replace(
    name="slovenian", two_spades_without_contra="nobody_scores_refe", sanac_lead="right_of_declarer")

PRESETS: dict[str, Rules] = {}

NAMED_OVERRIDES: dict[str, dict[str, Any]] = {
    "geometric-raspasy": {"raspasy_progression": "geometric", "raspasy_cap": 4},
    "flat-raspasy": {"raspasy_progression": "none"},
    "made-game-exit": {"raspasy_exit": "made_game"},
    "min-bid-after-raspasy": {"min_bid_after_raspasy": ((2, 7), (3, 8))},
    "miser-by-10": {"miser_beaten_by_level": 10},
    "gentleman": {"split_with_passer_on_remiz": True},
    "third-hand-takes-talon": {"third_hand_mode": "take_talon_no_miser"},
    "ten-whisted": {"ten_mode": "whisted"},
    "ten-checked": {"ten_mode": "checked"},
    "jumps": {"allow_jump_bids": True},
    "no-must-trump": {"must_trump": False},
    "start-50": {"start": 50},
    "half-whist-either": {"half_whist_by": "either"},
    "dealer-whists": {"dealer_whists_after_passes": True},
    "dealer-consolation": {"dealer_whist_consolation": "dealer"},
    # American help, whist liability, settlement (issue 10; docs/house-rules-liability.md)
    "help-off-own-gora": {"help_overflow": "own_gora"},
    "help-to-zero": {"help_overflow": "own_gora_to_zero"},
    "help-lowest-seat": {"help_tie": "lowest_seat"},
    "half-v-shortfall": {"whister_fail_mult": "1/2"},
    "shortfall-by-deficit": {"whist_shortfall_split": "proportional"},
    "personal-shortfall": {"whist_shortfall_split": "personal_when_short"},
    "half-whist-1.5": {"half_whist_tricks": ((6, 2), (7, "3/2"))},
    "gora-by-others": {"settlement_divisor": "others"},
    "no-pulya-at-settlement": {"settle_unequal_pulya": False},
}

# --- house rules of issue 10 (docs/house-rules.md): raspasy, ten check, gora first, end of pulka ---
NAMED_OVERRIDES.update({
    "raspasy-amnesty": {"raspasy_amnesty": "players"},
    "raspasy-amnesty-with-dealer": {"raspasy_amnesty": "with_dealer"},
    "no-raspasy-premium": {"raspasy_zero_premium": "none"},
    "raspasy-2-4-6": {"raspasy_prices": (2, 4, 6)},
    "raspasy-2-4-8": {"raspasy_prices": (2, 4, 8)},
    "rostov-min-visty": {"raspasy_mode": "visty_above_min"},
    "played-game-exit": {"raspasy_exit": "made_played_game"},
    "any-played-exit": {"raspasy_exit": "played_game"},
    "whisted-game-exit": {"raspasy_exit": "whisted_game"},
    "both-pass-keeps-raspasy": {"raspasy_exit": "any_but_both_pass"},
    "miser-keeps-raspasy": {"raspasy_exit_miser": False},
    "ten-check-no-visty": {"ten_mode": "checked", "ten_check_visty": False},
    "mountain-first": {"gora_first": True},
    "total-pool-end": {"pulka_end": "total"},
    # common combinations
    "amnesty-flat-premium": {"raspasy_amnesty": "players", "raspasy_zero_premium": "one"},
    "rostov-house": {"raspasy_mode": "visty_above_min", "raspasy_zero_premium": "none", "gora_first": True},
})


for _r in (SOCHI, LENINGRAD, ROSTOV, CROATIAN, SLOVENIAN):
    PRESETS[_r.name] = _r


def resolve(spec: str = "sochi", overrides: Mapping[str, Any] | None = None) -> Rules:
    """Rules from a spec (``preset[+named-override…]``) and ``option=value`` overrides.

    An option of the other family than the preset's (a Russian-only option on ``croatian``, or
    ``start`` on ``sochi``), named or given as an override, is a :class:`RulesError` naming it.
    """
    return resolve_with(spec, overrides, PRESETS, NAMED_OVERRIDES)


def resolve_with(spec: str, overrides: Mapping[str, Any] | None, presets: Mapping[str, Rules],
                 named: Mapping[str, Mapping[str, Any]]) -> Rules:
    """:func:`resolve` with the given preset and named-override tables (those of a rules version:
    :func:`preflog.rules.versions.rules_of`)."""
    parts = [p.strip() for p in spec.strip().lower().split("+")]
    base = presets.get(parts[0])
    if base is None:
        if "=" in parts[0] or parts[0] in named:  # an option or a named override where the preset goes
            raise RulesError(f"{parts[0]!r} is not a rules preset: a spec starts with a preset, e.g. "
                             f"sochi+{parts[0]} (presets: {', '.join(presets)})")
        raise RulesError(f"unknown rules preset {parts[0]!r} (known: {', '.join(presets)})")
    changes: dict[str, Any] = {}
    for p in parts[1:]:
        if p not in named:
            raise RulesError(f"unknown named override {p!r} (known: {', '.join(named)})")
        for key in named[p]:
            own = option_family(key)
            if own is not None and own != base.family:
                raise RulesError(f"named override {p!r} sets {key!r}, an option of the {own} family only; "
                                 f"preset {parts[0]!r} is {base.family}")
        changes.update(named[p])
    if overrides:
        changes.update(overrides)
    try:
        rules = base.replace(**changes) if changes else base
    except RulesError as exc:
        raise RulesError(f"{exc} (preset {parts[0]!r})") from None
    return rules
