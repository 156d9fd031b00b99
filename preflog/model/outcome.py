"""What a finished deal hands to scoring: :class:`DealOutcome`.

The deal engine derives it (trick winners, who whisted, whether play happened);
scoring turns it into score-sheet entries. Paper-level deals produce the same
outcome from recorded trick counts, so scoring never knows whether cards were
recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class DealKind(StrEnum):
    """How a deal ended: the ``kind`` of a :class:`DealOutcome`, also the projections' value (a ``str``)."""

    GAME = "game"                # a trick contract that was played (or checked)
    MISER = "miser"              # miser ("мизер") played
    RASPASY = "raspasy"          # Russian all-pass: raspasy ("распасы") played
    ALL_PASS = "all_pass"        # Croatian all-pass: no play, refe for everyone
    NOT_WHISTED = "not_whisted"  # both defenders passed: no play, contract made
    HALF_WHIST = "half_whist"    # half-whist ("полвиста") stood: no play, contract made
    CONCEDED = "conceded"        # Croatian 2♠ won without play, or declarer conceded


NO_SEAT: Final = -1

# the kinds as module constants, bound once and typed ``str`` (a DealKind is a str; ``DealOutcome.kind`` is
# typed str): the compiled kernel reads them as C statics, where an enum member looked up on its class would
# cost an attribute lookup each time, and compares ``o.kind`` with them as strings (an identity test first),
# where an enum-typed constant would cost a generic comparison; ``kind in (...)`` of a tuple display compiles
# to a chain of such comparisons, cheaper than hashing into a frozenset. The one home of these aliases:
# every compiled module imports them from here.
KIND_GAME: Final[str] = DealKind.GAME
KIND_MISER: Final[str] = DealKind.MISER
KIND_RASPASY: Final[str] = DealKind.RASPASY
KIND_ALL_PASS: Final[str] = DealKind.ALL_PASS
KIND_NOT_WHISTED: Final[str] = DealKind.NOT_WHISTED
KIND_HALF_WHIST: Final[str] = DealKind.HALF_WHIST
KIND_CONCEDED: Final[str] = DealKind.CONCEDED


def playing_seats(n: int, dealer: int) -> tuple[int, ...]:
    """The seats that take part in a deal, in seat order: all three, or at four all but the dealer, who
    sits the deal out (docs/rules.md §A14)."""
    return tuple(s for s in range(n) if n == 3 or s != dealer)


def bidding_order(n: int, dealer: int) -> tuple[int, ...]:
    """The seats that take part in a deal clockwise from first hand, the dealer's left (who bids and, in
    the Russian game, leads first; docs/rules.md §A3): the order of the auction and of the deal."""
    return tuple(s for s in ((dealer + 1 + i) % n for i in range(n)) if n == 3 or s != dealer)


@dataclass(init=False, unsafe_hash=True)
class DealOutcome:
    """The facts of one finished deal that scoring needs, with seats 0-based.

    ``tricks`` has one entry per seat of the table; at a 4-player table the sitting-out
    dealer's entry counts raspasy talon tricks credited to him (docs/rules.md §A12), else 0.
    ``calls`` holds each seat's final whist call (``-1`` for the declarer and the
    sitting-out dealer); ``whist_order`` lists whisters in the order they said "whist"
    (the second one answers for 8–10, docs/rules.md §A9).

    A value: compare, hash and copy it, never change it. (It is built once per deal on the replay's hot
    path, so the compiled kernel builds it natively: its ``__init__`` is written out, not generated,
    and the class is not a frozen dataclass, whose generated ``__init__`` would run interpreted.)
    ``kind`` is a :class:`DealKind`; a plain string of one of its values compares equal to it.
    """

    deal: int                       # 1-based deal number in the pulka
    dealer: int
    n_players: int                  # 3 or 4 at the table
    kind: str                       # a DealKind
    declarer: int = NO_SEAT
    contract: int = 0               # bid code (:mod:`preflog.model.bids`); 0 for raspasy / all-pass
    tricks: tuple[int, ...] = ()
    calls: tuple[int, ...] = ()
    whist_order: tuple[int, ...] = ()
    half_whister: int = NO_SEAT     # seat that said half-whist (whether it stood or was returned)
    returner: int = NO_SEAT         # seat that returned the whist after a half-whist
    open_play: bool = False
    checked: bool = False           # Sochi ten-game check instead of play
    paper: bool = False             # cards were not recorded
    # Croatian family
    hand_game: bool = False         # "igra": played without the talon
    contra: tuple[int, ...] = ()    # per seat: contra steps between that defender and the declarer
    invited: int = NO_SEAT          # seat invited by a lone whister (writes nothing)
    stopped_early: bool = False     # play stopped at the defenders' 5th trick

    def __init__(self, deal: int, dealer: int, n_players: int, kind: str, declarer: int = NO_SEAT,
                 contract: int = 0, tricks: tuple[int, ...] = (), calls: tuple[int, ...] = (),
                 whist_order: tuple[int, ...] = (), half_whister: int = NO_SEAT, returner: int = NO_SEAT,
                 open_play: bool = False, checked: bool = False, paper: bool = False, hand_game: bool = False,
                 contra: tuple[int, ...] = (), invited: int = NO_SEAT, stopped_early: bool = False) -> None:
        self.deal = deal
        self.dealer = dealer
        self.n_players = n_players
        self.kind = kind
        self.declarer = declarer
        self.contract = contract
        self.tricks = tricks
        self.calls = calls
        self.whist_order = whist_order
        self.half_whister = half_whister
        self.returner = returner
        self.open_play = open_play
        self.checked = checked
        self.paper = paper
        self.hand_game = hand_game
        self.contra = contra
        self.invited = invited
        self.stopped_early = stopped_early

    def __reduce__(self) -> tuple[type[DealOutcome], tuple[object, ...]]:
        return (DealOutcome, (self.deal, self.dealer, self.n_players, self.kind, self.declarer, self.contract,
                              self.tricks, self.calls, self.whist_order, self.half_whister, self.returner,
                              self.open_play, self.checked, self.paper, self.hand_game, self.contra, self.invited,
                              self.stopped_early))

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats that took part in the deal (the 4-player dealer sits out)."""
        return playing_seats(self.n_players, self.dealer)
