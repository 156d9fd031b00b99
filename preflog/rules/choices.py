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


class RaspasyProgression(StrEnum):
    NONE = "none"
    ARITHMETIC = "arithmetic"
    GEOMETRIC = "geometric"


class RaspasyExit(StrEnum):
    ANY_GAME = "any_game"
    MADE_GAME = "made_game"


class RaspasyZeroPremium(StrEnum):
    PRICE = "price"
    ONE = "one"


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
