"""Closed sets of rule values: the game family and the words an option may take.

Every enum is a :class:`~enum.StrEnum`, so a value compares equal to its word (``TenMode.CHECKED ==
"checked"``), prints as the word and serialises to JSON as the word: specs, records and stored
payloads keep their text form.
"""

from __future__ import annotations

from enum import StrEnum


class GameFamily(StrEnum):
    """The game family a pulka belongs to: the Russian ladder game or the Croatian/Slovenian one."""

    RUSSIAN = "russian"
    CROATIAN = "croatian"


class HoldWho(StrEnum):
    SENIOR = "senior"
    FIRST_HAND = "first_hand"
    ANY_OVERCALLED = "any_overcalled"


class ThirdHandMode(StrEnum):
    NORMAL = "normal"
    TAKE_TALON_NO_MISER = "take_talon_no_miser"


class HighLevelLiability(StrEnum):
    SECOND = "second"
    SPLIT = "split"


class LoneWhisterQuota(StrEnum):
    SIDE = "side"
    PERSONAL = "personal"


class HalfWhistBy(StrEnum):
    SECOND = "second"   # the second defender, after the first passed (the rule texts)
    EITHER = "either"   # the first defender too; the second may then return the whist


class OpenPlayChoice(StrEnum):
    LONE_WHISTER = "lone_whister"
    INVITATION = "invitation"
    NEVER = "never"


class TenMode(StrEnum):
    WHISTED = "whisted"
    CHECKED = "checked"


class RaspasyMode(StrEnum):
    GORA = "gora"
    VISTY = "visty"
    VISTY_ABOVE_MIN = "visty_above_min"  # house rule: each fewest-tricks player writes (t - min) * k


class RaspasyProgression(StrEnum):
    NONE = "none"
    ARITHMETIC = "arithmetic"
    GEOMETRIC = "geometric"


class RaspasyExit(StrEnum):
    ANY_GAME = "any_game"
    MADE_GAME = "made_game"
    PLAYED_GAME = "played_game"  # house rule: a played game or miser, made or not; a both-pass game keeps it
    MADE_PLAYED_GAME = "made_played_game"  # house rule: a both-pass (unplayed) game keeps the series
    WHISTED_GAME = "whisted_game"  # house rule: made, whisted, no whist shortfall
    ANY_BUT_BOTH_PASS = "any_but_both_pass"  # house rule: any game but a both-pass one (a half-whist ends it)


class RaspasyZeroPremium(StrEnum):
    PRICE = "price"
    ONE = "one"
    NONE = "none"  # house rule: no zero-trick premium


class RaspasyTalonMode(StrEnum):
    OPEN = "open"
    CLOSED = "closed"


class RaspasyThirdLead(StrEnum):
    FIRST_HAND = "first_hand"
    LAST_WINNER = "last_winner"


class SettlementRounding(StrEnum):
    EXACT = "exact"
    METHOD1 = "method1"
    METHOD2 = "method2"


class FirstLead(StrEnum):
    ELDEST = "eldest"
    ELDEST_SKIP_OUT = "eldest_skip_out"
    LEFT_WHISTER = "left_whister"


class SanacLead(StrEnum):
    FIRST_LEAD = "first_lead"
    NOT_DECLARER = "not_declarer"
    RIGHT_OF_DECLARER = "right_of_declarer"


class BettelLead(StrEnum):
    FIRST_LEAD = "first_lead"
    RIGHT_OF_DECLARER = "right_of_declarer"


class TwoSpadesWithoutContra(StrEnum):
    WIN_WITHOUT_PLAY = "win_without_play"
    NOBODY_SCORES_REFE = "nobody_scores_refe"


class BettelFailMode(StrEnum):
    FLAT = "flat"
    PER_TRICK = "per_trick"


class OvershootMode(StrEnum):
    PROPORTIONAL = "proportional"
    NONE = "none"


# --- house rules of issue 10: raspasy amnesty, end of pulka ---------------------------------------------


class RaspasyAmnesty(StrEnum):
    NONE = "none"
    PLAYERS = "players"
    WITH_DEALER = "with_dealer"


class PulkaEnd(StrEnum):
    EVERY_PULYA = "every_pulya"
    TOTAL = "total"


# --- American help, whist liability and settlement conventions (issue 10, "liability" options) ---
class HelpOverflow(StrEnum):
    """American help with every other pulya closed: where the rest of the points go."""

    OPPONENTS_GORA = "opponents_gora"  # off the writer's gora down to 0, the rest onto each opponent's gora
    OWN_GORA = "own_gora"              # all off the writer's gora, which may go below 0
    OWN_GORA_TO_ZERO = "own_gora_to_zero"  # off the writer's gora down to 0, the rest dropped


class HelpTie(StrEnum):
    """American help between equal open pulyas: who is helped first."""

    CLOCKWISE = "clockwise"      # the writer's left first (clockwise from him)
    LOWEST_SEAT = "lowest_seat"  # the lowest seat number first


class ShortfallSplit(StrEnum):
    """Two whisters and a side short of its obligation: how the missing tricks are charged."""

    CAPPED = "capped"                          # each his own deficit, capped by the side's shortfall
    PROPORTIONAL = "proportional"              # the side's shortfall, spread by personal deficits
    PERSONAL_WHEN_SHORT = "personal_when_short"  # each his own deficit in full, when the side is short
    PERSONAL_ALWAYS = "personal_always"        # each his own deficit in full, short side or not


class DealerWhistConsolation(StrEnum):
    """At four, the sitting-out dealer whists after both defenders passed: who writes the passers' consolation."""

    PASSERS = "passers"  # each passer writes his own, as after any lone whist
    DEALER = "dealer"    # the dealer writes both passers' consolations himself (the total is the same)


class SettlementDivisor(StrEnum):
    """Final settlement: what a player's gora is divided by."""

    PLAYERS = "players"  # n: each other player writes gora × g / n on him
    OTHERS = "others"    # n − 1: the others write his whole gora × g between them
