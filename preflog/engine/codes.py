"""Every audit finding code, with what it means: the one registry.

A rule check raises :class:`~preflog.engine.findings.IllegalAction` with a :class:`Code`; the audit
turns it into a :class:`~preflog.engine.findings.Finding`. Codes are stable snake_case strings and are
never renamed once published. ``docs/findings.md`` is generated from :data:`SECTIONS`
(:func:`findings_doc`) and a test checks that it is up to date.

>>> Code.MUST_FOLLOW_SUIT == "must_follow_suit"
True
>>> meaning(Code.DEAL_INCOMPLETE)
'A deal that never reached its outcome before the next deal, the end of the pulka or the end of the log.'
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Code(StrEnum):
    """An audit finding code (a ``str``: ``Code.BAD_BID == "bad_bid"``)."""

    # auction, both families
    BAD_BID = "bad_bid"
    AUCTION_OVER = "auction_over"
    SEAT_NOT_IN_AUCTION = "seat_not_in_auction"
    BID_OUT_OF_TURN = "bid_out_of_turn"
    BID_AFTER_PASS = "bid_after_pass"
    BID_NOT_ABOVE_LAST = "bid_not_above_last"
    JUMP_BID = "jump_bid"
    HOLD_NOT_ALLOWED = "hold_not_allowed"
    CONTRACT_BELOW_BID = "contract_below_bid"
    BAD_CONTRACT = "bad_contract"
    # Russian auction
    BELOW_MIN_LEVEL = "below_min_level"
    MISER_NOT_FIRST_CALL = "miser_not_first_call"
    MISER_NOT_BEATEN = "miser_not_beaten"
    MISER_BIDDER_MUST_PASS = "miser_bidder_must_pass"
    TAKE_TALON_NOT_ALLOWED = "take_talon_not_allowed"
    MISER_BY_THIRD_HAND = "miser_by_third_hand"
    CONTRACT_MUST_BE_MISER = "contract_must_be_miser"
    MISER_NOT_BID = "miser_not_bid"
    # Croatian auction
    IGRA_AFTER_NUMBER = "igra_after_number"
    HAND_CONTRACT_NOT_FIRST_CALL = "hand_contract_not_first_call"
    NUMBER_AFTER_IGRA = "number_after_igra"
    IGRA_IN_NAMING = "igra_in_naming"
    NAME_NOT_ABOVE = "name_not_above"
    HAND_BETTEL_NOT_AT_ONCE = "hand_bettel_not_at_once"
    AUCTION_NOT_FINISHED = "auction_not_finished"
    NO_DECLARER = "no_declarer"
    HAND_CONTRACT_CHANGED = "hand_contract_changed"
    # deal, both families
    BAD_DEAL = "bad_deal"
    EVENT_OUT_OF_ORDER = "event_out_of_order"
    DEAL_OVER = "deal_over"
    TALON_MISMATCH = "talon_mismatch"
    NOT_DECLARER = "not_declarer"
    DISCARD_NOT_TWO = "discard_not_two"
    DISCARD_NOT_HELD = "discard_not_held"
    CONTRACT_WITHOUT_AUCTION = "contract_without_auction"
    WHIST_OUT_OF_TURN = "whist_out_of_turn"
    CARD_OUT_OF_TURN = "card_out_of_turn"
    BAD_CARD = "bad_card"
    CARD_NOT_HELD = "card_not_held"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    MUST_TRUMP = "must_trump"
    BAD_CLAIM = "bad_claim"
    BAD_TRICKS = "bad_tricks"
    # Russian deal
    BAD_CALL = "bad_call"
    HALF_WHIST_NOT_ALLOWED = "half_whist_not_allowed"
    HALF_WHISTER_MUST_PASS = "half_whister_must_pass"
    TEN_CHECKED_NO_WHIST = "ten_checked_no_whist"
    MODE_BY_WRONG_SEAT = "mode_by_wrong_seat"
    BAD_MODE = "bad_mode"
    TEN_CHECK_NOT_ALLOWED = "ten_check_not_allowed"
    CONCEDE_NOT_ALLOWED = "concede_not_allowed"
    # Croatian defence and play
    BAD_WHIST_CALL = "bad_whist_call"
    BETTEL_MUST_BE_PLAYED = "bettel_must_be_played"
    INVITE_NOT_ALLOWED = "invite_not_allowed"
    CONTRA_DISABLED = "contra_disabled"
    CONTRA_NOT_ALLOWED = "contra_not_allowed"
    DEFENCE_OVER = "defence_over"
    PLAY_WITHOUT_CONTRA = "play_without_contra"
    PASSER_OUT_OF_PLAY = "passer_out_of_play"
    TRICKS_PAST_STOP = "tricks_past_stop"
    # pulka
    BAD_RULES = "bad_rules"
    BAD_TABLE_SIZE = "bad_table_size"
    MISSING_PULKA_START = "missing_pulka_start"
    DUPLICATE_PULKA_START = "duplicate_pulka_start"
    DEALER_OUT_OF_TURN = "dealer_out_of_turn"
    DEAL_INCOMPLETE = "deal_incomplete"
    EVENT_OUTSIDE_DEAL = "event_outside_deal"
    SCORE_MISMATCH = "score_mismatch"
    STATED_MISMATCH = "stated_mismatch"
    SCORE_LINE_MID_DEAL = "score_line_mid_deal"
    BAD_SCORE_LINE = "bad_score_line"
    PULKA_NOT_FINISHED = "pulka_not_finished"
    PULKA_ALREADY_FINISHED = "pulka_already_finished"
    EVENT_AFTER_END = "event_after_end"
    SCORING_ERROR = "scoring_error"
    BAD_CORRECTION = "bad_correction"
    # replay
    BAD_EVENT = "bad_event"


class Section(NamedTuple):
    """One part of ``docs/findings.md``: a title, prose (Markdown) and the codes with their meaning."""

    title: str
    intro: str
    codes: tuple[tuple[Code, str], ...]
    notes: str = ""


C = Code
SECTIONS: tuple[Section, ...] = (
    Section("Auction, both families — `preflog/engine/auction.py` (shared steps), the families' auctions", "", (
        (C.BAD_BID, "The bid code is not a call of the family (Russian: the 26-step ladder, pass, take-talon; "
                    "Croatian: pass, 2-7, igra 8, hand Bettel 16, hand Sanac 17)."),
        (C.AUCTION_OVER, "A bid after the auction has ended."),
        (C.SEAT_NOT_IN_AUCTION, "A bid by a seat that does not take part (e.g. the sitting-out dealer at four)."),
        (C.BID_OUT_OF_TURN, "A bid by a player whose turn it is not."),
        (C.BID_AFTER_PASS, "A bid by a player who has already passed (a pass is final), or, Croatian, who is out "
                           "because igra overcalled his number."),
        (C.BID_NOT_ABOVE_LAST, "A bid below the current one (an insufficient bid)."),
        (C.JUMP_BID, "A bid that skips a ladder step (a number) while jumps are not allowed."),
        (C.HOLD_NOT_ALLOWED, "A hold (\"здесь\": a bid equal to the current one) that the hold_* options do not "
                             "allow."),
        (C.CONTRACT_BELOW_BID, "The declared contract is below the winning bid (Croatian: a talon contract below "
                               "the winning number)."),
        (C.BAD_CONTRACT, "A contract code that is not a contract of the family (not on the ladder; not 2-7)."),
    )),
    Section("Auction (Russian) — `preflog/engine/russian/auction.py`", "", (
        (C.BELOW_MIN_LEVEL, "An opening below the anti-raspasy minimum level passed in by the pulka, or a paper "
                            "contract written without its auction below it (miser is above every minimum)."),
        (C.MISER_NOT_FIRST_CALL, "Miser by a player who has already bid (\"мизер кабальный\")."),
        (C.MISER_NOT_BEATEN, "A bid over miser below `miser_beaten_by_level`."),
        (C.MISER_BIDDER_MUST_PASS, "The overcalled miser bidder bids again (`miser_bidder_may_continue` is off)."),
        (C.TAKE_TALON_NOT_ALLOWED, "Take-talon outside `third_hand_mode=take_talon_no_miser` or not by the third "
                                   "hand after two passes."),
        (C.MISER_BY_THIRD_HAND, "Miser by a third hand who may take the talon without a bid (then only trick "
                                "games)."),
        (C.CONTRACT_MUST_BE_MISER, "The auction was won with miser but another contract was declared."),
        (C.MISER_NOT_BID, "Miser declared by a player who did not win the auction with miser."),
    )),
    Section("Auction (Croatian) — `preflog/engine/croatian/auction.py`", "", (
        (C.IGRA_AFTER_NUMBER, "Igra by a player who has already bid a number (igra only as a player's first "
                              "call)."),
        (C.HAND_CONTRACT_NOT_FIRST_CALL, "Bettel or Sanac from hand (16/17) by a player who has already bid."),
        (C.NUMBER_AFTER_IGRA, "A number after someone called igra (only another igra beats igra)."),
        (C.IGRA_IN_NAMING, "An igra call while the igra contenders name their contracts (a name 2-7 or pass is "
                           "expected)."),
        (C.NAME_NOT_ABOVE, "A named hand contract that does not beat the best name so far (equal names go to the "
                           "earlier hand)."),
        (C.HAND_BETTEL_NOT_AT_ONCE, "A plain-igra contender names Bettel or Sanac; those had to be called at once "
                                    "(16/17)."),
        (C.AUCTION_NOT_FINISHED, "A contract declared before the auction has ended."),
        (C.NO_DECLARER, "A contract declared after everybody passed (refe, no play)."),
        (C.HAND_CONTRACT_CHANGED, "A hand game declared as another contract than the one named in the auction."),
    )),
    Section("Deal, both families — `preflog/engine/deal.py`, `preflog/engine/tricks.py`", "", (
        (C.BAD_DEAL, "DealStarted with an impossible layout (hands, talon, dealer)."),
        (C.EVENT_OUT_OF_ORDER, "An event that does not belong to the current phase of the deal."),
        (C.DEAL_OVER, "A deal event after the deal has ended."),
        (C.TALON_MISMATCH, "The revealed talon differs from the talon recorded at the deal (or is not two free "
                           "cards)."),
        (C.NOT_DECLARER, "A discard or contract by a player who did not win the auction."),
        (C.DISCARD_NOT_TWO, "The discard (\"снос\") is not exactly two cards."),
        (C.DISCARD_NOT_HELD, "The declarer discards a card he does not hold (hand plus talon)."),
        (C.CONTRACT_WITHOUT_AUCTION, "A card-level deal declares a contract before its auction has ended."),
        (C.WHIST_OUT_OF_TURN, "A whist call by a seat whose turn it is not (left of declarer speaks first)."),
        (C.CARD_OUT_OF_TURN, "A card played by a seat whose turn it is not (Croatian: also a first lead by "
                             "anyone but the first leader)."),
        (C.BAD_CARD, "A card code outside 0..31."),
        (C.CARD_NOT_HELD, "A card the player does not hold (never dealt to him, discarded or already played)."),
        (C.MUST_FOLLOW_SUIT, "A player who holds the suit led (or the raspasy talon suit) did not follow it."),
        (C.MUST_TRUMP, "A player void in the suit led did not trump although he could (must_trump)."),
        (C.BAD_CLAIM, "Claimed tricks that do not add up to the tricks remaining."),
        (C.BAD_TRICKS, "A paper result / ten check whose tricks per seat are impossible (count, sum, sitting-out "
                       "dealer)."),
    )),
    Section("Deal (Russian) — `preflog/engine/russian/deal.py`", "", (
        (C.BAD_CALL, "A whist call code that does not exist in the Russian game here (e.g. invite), or a contra "
                     "in a Russian deal."),
        (C.HALF_WHIST_NOT_ALLOWED, "Half-whist (\"полвиста\") not by the second defender after a pass (nor by "
                                   "the first, under half_whist_by=either), or at a level not in "
                                   "half_whist_levels."),
        (C.HALF_WHISTER_MUST_PASS, "After the whist was returned the half-whister may only pass."),
        (C.TEN_CHECKED_NO_WHIST, "A whist call on a 10-game that is checked (ten_mode=checked)."),
        (C.MODE_BY_WRONG_SEAT, "Open/closed chosen by someone other than the lone whister."),
        (C.BAD_MODE, "A play mode code other than open / closed."),
        (C.TEN_CHECK_NOT_ALLOWED, "TenChecked outside a 10-game under ten_mode=checked, or after play began."),
        (C.CONCEDE_NOT_ALLOWED, "The declarer concedes down three («без трёх») where the rules do not allow it "
                                "(allow_concede_down3 false), on a miser, by another seat, or after play began."),
    )),
    Section(
        "Deal (Croatian / Slovenian) — `preflog/engine/croatian/`",
        "The Croatian deal runs the Croatian auction and the defence phase (whist, invitation, contra chain, "
        "`preflog/engine/croatian/defence.py`), and plays its tricks through the same kernel as the Russian "
        "deal. Shared codes keep their meaning: `card_out_of_turn`, `must_follow_suit` / `must_trump` (per "
        "`must_trump`), `contract_without_auction`, `not_declarer`, `discard_*` (no discard after «igra»: the "
        "contract follows the auction at once), `bad_claim` / `bad_tricks` (count, sum: 10 tricks, fewer only "
        "when play stopped early).",
        (
            (C.BAD_WHIST_CALL, "A whist call that is not whist, pass or invite (half-whist does not exist in the "
                               "Croatian game)."),
            (C.BETTEL_MUST_BE_PLAYED, "A defender passes against Bettel (defenders may not pass Bettel, seed 000)."),
            (C.INVITE_NOT_ALLOWED, "An invitation by anyone but a lone whister whose partner passed, or a second "
                                   "one."),
            (C.CONTRA_DISABLED, "A contra call while `contra_enabled` is off."),
            (C.CONTRA_NOT_ALLOWED, "A contra before the whist calls are over, by a passing or invited defender, or "
                                   "out of the chain's turn."),
            (C.DEFENCE_OVER, "A whist or contra call after play has started (or after a deal with no play)."),
            (C.PLAY_WITHOUT_CONTRA, "Play (a card, claim or result) in a 2♠ deal with the talon and no refe that no "
                                    "defender contra'd: the declarer wins without play (the 2♠ rule)."),
            (C.PASSER_OUT_OF_PLAY, "A card or trick for the defender who passed and was not invited: his cards lie "
                                   "face down (two-handed play)."),
            (C.TRICKS_PAST_STOP, "Claimed or paper tricks that play could never reach: it stops at the defenders' "
                                 "5th trick (`defender_trick_cap`), flat-mode Bettel at the declarer's first "
                                 "trick."),
        ),
        "Croatian engine choices (docs/croatian.md §2):\n\n"
        "- All pass ends the deal at once (`ALL_PASS`); both defenders passing ends it at once (`NOT_WHISTED`).\n"
        "- The defence phase (whist, invitation, contra chain) stays open until the first card or the paper "
        "result.\n  A 2♠ deal that nobody contra'd (`needs_contra` from the scorer) has no closing event: it ends "
        "as\n  `CONCEDED` when the next deal, a score line or the end of the pulka arrives.\n"
        "- The uninvited passer (`out_seat`) never plays; tricks then have two cards and his trick count is 0.\n"
        "- Play stops by `play_over`; `stopped_early` is set when fewer than 10 tricks were played (the "
        "defenders'\n  5th trick, or the Bettel declarer's first under `bettel_fail_mode=flat`). A claim or paper "
        "result may\n  sum to less than 10 only when its totals stop play in the same way.\n"
        "- A paper deal may start with its contract (no auction): it is then a game with the talon.",
    ),
    Section("Pulka — `preflog/engine/pulka.py`", "", (
        (C.BAD_RULES, "PulkaStarted names rules (preset, override) that do not resolve."),
        (C.BAD_TABLE_SIZE, "The number of players is not 3 or 4 or not allowed by the rules (`players`)."),
        (C.MISSING_PULKA_START, "The log does not begin with PulkaStarted."),
        (C.DUPLICATE_PULKA_START, "A second PulkaStarted in one log."),
        (C.DEALER_OUT_OF_TURN, "The dealer is not the previous dealer + 1 (the deal passes clockwise)."),
        (C.DEAL_INCOMPLETE, "A deal that never reached its outcome before the next deal, the end of the pulka or the "
                            "end of the log."),
        (C.EVENT_OUTSIDE_DEAL, "A deal event (bid, card, …) with no deal in progress."),
        (C.SCORE_MISMATCH, "A written score line differs from the replayed sheet (names player, field, recorded "
                           "vs computed)."),
        (C.STATED_MISMATCH, "A fact a PPN deal line states beside its events (a value, refa, a player's tricks, a "
                            "result) differs from the replay (docs/ppn.md)."),
        (C.SCORE_LINE_MID_DEAL, "A score line written while a deal is still in progress."),
        (C.BAD_SCORE_LINE, "A score line for an unknown seat or with the wrong number of visty entries."),
        (C.PULKA_NOT_FINISHED, "PulkaEnded(\"closed\") while the scorer says the pulka is not over."),
        (C.PULKA_ALREADY_FINISHED, "A new deal after the scorer says the pulka is over; every such deal is reported "
                                   "and checked but not scored (the sheet stays that of the end)."),
        (C.EVENT_AFTER_END, "An event after PulkaEnded."),
        (C.SCORING_ERROR, "The scorer rejected a deal outcome."),
        (C.BAD_CORRECTION, "A deal correction that cannot apply: not right after a deal header, naming a deal the "
                           "sheet does not have, or after the end of the pulka."),
    )),
    Section("Replay — `preflog/engine/replay.py`", "", (
        (C.BAD_EVENT, "A row that does not decode into an event."),
    )),
)
del C

_MEANING: dict[Code, str] = {code: text for s in SECTIONS for code, text in s.codes}

HEADER = """\
# Audit finding codes

<!-- generated from preflog/engine/codes.py by `python -m preflog.generated`; do not edit -->

Every rule check raises `IllegalAction(code, message)`; `audit()` turns it into a `Finding` with the
deal number (1-based), `seq` (the event's number in the store: 1 for the first event), the event and a one-sentence
message naming the rule and what was expected. Codes are stable snake_case and never renamed; the
registry is the `Code` enum of `preflog/engine/codes.py`.
After a finding inside a deal the audit skips to the next `DealStarted`; the next written score line of
each player then becomes the new baseline for `score_mismatch` (later lines are compared by difference).

Engine choices where the spec is silent:

- Open raspasy talon: the talon is stored as a mask, so the card turned first is the one whose suit the
  first card of trick 1 matches (else the lower card). Players play to a talon trick from first hand.
  At 3 players a talon trick always has a taker (all other cards of the suit are in hands).
- Trick 3 of raspasy is led per `raspasy_third_lead` (3 players); at 4 players by first hand (left of dealer);
  `last_winner` falls back to first hand if the dealer's talon card won trick 2.
- A Sochi 10-game (`ten_mode=checked`) has no whist calls: it is checked (`TenChecked`) or played out, and
  both defenders count as whisters (`checked=True`, `whist_order` = both).
- A missing `PlayModeChosen` means closed play; the half-whister's closing pass after a return is optional.
- Miser won in the auction must be declared as miser (not 9+).
- At 4 players the dealer may return a half-whist; the outcome then has `returner = whist_order[0] = dealer`.
- Paper deals: the contract may come without an auction (`ContractDeclared` first), a raspasy may be written
  as a bare `PaperResult`; discard and talon are optional. A paper half-whist may stop at the half-whist
  (the sheet form): it ends as a half-whist when the next deal, a score line or the end arrives.
- The end of the log closes an open deal as the next deal would (`deal_incomplete` with seq = the log's
  length + 1, where that event would be).
"""


def codes_of(*titles: str) -> frozenset[Code]:
    """The codes of the sections whose title starts with one of ``titles`` (e.g. ``"Auction"``)."""
    return frozenset(c for s in SECTIONS if s.title.startswith(titles) for c, _ in s.codes)


def meaning(code: Code | str) -> str:
    """The one-sentence meaning of a finding code."""
    return _MEANING[Code(code)]


def findings_doc() -> str:
    """The text of ``docs/findings.md``."""
    parts = [HEADER]
    for s in SECTIONS:
        parts.append(f"\n## {s.title}\n")
        if s.intro:
            parts.append(f"\n{s.intro}\n")
        parts.append("\n| Code | Meaning |\n|---|---|\n")
        parts.extend(f"| `{code.value}` | {text} |\n" for code, text in s.codes)
        if s.notes:
            parts.append(f"\n{s.notes}\n")
    return "".join(parts)
