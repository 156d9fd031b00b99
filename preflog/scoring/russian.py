"""Russian scoring ("запись") for the Sochi, Leningrad and Rostov conventions (docs/rules.md §B).

One :class:`RussianScorer` per pulka turns each :class:`DealOutcome` into sheet entries: pulya
("пуля") for made contracts and raspasy premiums, gora ("гора") for penalties, visty ("висты")
written by one player on another. Every convention difference is a :class:`Rules` option:
``whist_mult``/``remiz_mult``/``consolation_mult`` (Leningrad doubles), ``split_with_passer_on_remiz``
(gentleman's whist), ``raspasy_mode`` (Rostov visty), the raspasy progression and exit, the whist
liability options of docs/rules.md §A9, ``american_help`` (B1.4). House rules (docs/house-rules.md):
``raspasy_amnesty``, ``raspasy_prices``, ``raspasy_mode="visty_above_min"``, the raspasy exits
(``raspasy_exit``, ``raspasy_exit_level``, ``raspasy_exit_miser``), ``ten_check_visty``,
``gora_first`` (Rostov "mountain first") and ``pulka_end``.

Choices where the sources are silent (also in the report / docs):

* American help applies to every pulya write (contracts and raspasy premiums); each point
  given to another player costs him ``help_point_visty`` visty (by default ``pool_point_visty``:
  10 in Sochi, as seed 003 says). Recipients are tried by larger pulya first, ties from the
  writer's left (clockwise) or by lowest seat (``help_tie``); what nobody can take goes by
  ``help_overflow``.
* A returned half-whister ("уходил за полвиста") writes nothing; with
  ``consolation_half_to_returner`` his consolation is written by the returner. Gentleman's split
  applies only between the lone whister and a plain passer.
* In the ten-game check nobody is liable for a whist shortfall (nobody whisted).
* ``whist_shortfall_split`` (two whisters): ``capped`` is docs/rules.md §A9; ``proportional`` charges the
  side's whole shortfall in proportion to the deficits against need/2 each, at every level (so at
  8-10 both share, whatever ``high_level_liability``); the ``personal_*`` modes charge each whister
  his whole deficit against his quota (at 8-10 the quota of ``high_level_liability``: the second
  whister's, or both halved under ``split``), a lone whister with a personal quota too.
  ``whister_fail_mult`` and ``half_whist_tricks`` may be fractions (V/2 a missing trick; 1½ tricks).
* At 4 players a raspasy talon trick credited to the dealer goes to his gora at the current price
  in both raspasy modes; the dealer gets no zero-trick premium (he did not play).
* A conceded deal (``_CONCEDED``) with recorded tricks is scored like a played game; without tricks
  it is the house "down three": gora ``remiz_mult×V×3``, no visty, when ``allow_concede_down3``
  (else a :class:`ScoringError`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any
from typing import Final
from typing import Self

from ..errors import ScoringError
from ..model.bidcodes import MISER as MISER_BID
from ..model.bidcodes import is_trick_contract
from ..model.bidcodes import level_of
from ..model.bidcodes import strain_of
from ..model.bids import format_ru_bid
from ..model.calls import CALL_WHIST
from ..model.copying import copy_fields
from ..model.outcome import KIND_CONCEDED as _CONCEDED
from ..model.outcome import KIND_GAME as _GAME
from ..model.outcome import KIND_HALF_WHIST as _HALF_WHIST
from ..model.outcome import KIND_MISER as _MISER
from ..model.outcome import KIND_NOT_WHISTED as _NOT_WHISTED
from ..model.outcome import KIND_RASPASY as _RASPASY
from ..model.outcome import NO_SEAT
from ..model.outcome import DealOutcome
from ..model.outcome import playing_seats
from ..rules.config import Rules
from ..rules.settings import AMNESTY_NONE
from ..rules.settings import AMNESTY_WITH_DEALER
from ..rules.settings import EXIT_ANY_BUT_BOTH_PASS
from ..rules.settings import EXIT_ANY_GAME
from ..rules.settings import EXIT_MADE_GAME
from ..rules.settings import EXIT_MADE_PLAYED_GAME
from ..rules.settings import EXIT_PLAYED_GAME
from ..rules.settings import OVERFLOW_OWN_GORA
from ..rules.settings import OVERFLOW_OWN_GORA_TO_ZERO
from ..rules.settings import RASPASY_GORA
from ..rules.settings import RASPASY_VISTY
from ..rules.settings import RASPASY_VISTY_ABOVE_MIN
from ..rules.settings import SPLIT_CAPPED
from ..rules.settings import SPLIT_PERSONAL_ALWAYS
from ..rules.settings import SPLIT_PROPORTIONAL
from ..rules.settings import ZERO_PREMIUM_NONE
from ..rules.settings import ZERO_PREMIUM_ONE
from ..rules.settings import RussianSettings
from ..rules.settings import russian_settings
from .base import Scorer
from .settlement import settle
from .sheet import ZERO_ROWS
from .sheet import DealScore
from .sheet import Number
from .sheet import Settlement
from .sheet import Sheet
from .sheet import StartSheetError
from .terms import ContractTerms
from .terms import DealResult
from .terms import Liability
from .terms import ValueRates

TRICKS_PER_DEAL: Final = 10
CONCEDED_UNDERTRICKS: Final = 3  # a deal conceded before play is "down three" (allow_concede_down3)


def _norm(x: Number) -> Number:
    """Fractions with denominator 1 become ints, so sheets stay ints unless a rule halves."""
    if type(x) is int:  # the common case; isinstance(x, Fraction) goes through the numbers ABCs
        return x
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


def _div(x: Number, k: int) -> Number:
    if type(x) is int and x % k == 0:  # whole (a lone fewest in raspasy divides by 1): no Fraction
        return x // k
    return _norm(Fraction(x) / k)


def raspasy_price(rules: Rules, k: int) -> int:
    """Price of a raspasy trick in the *k*-th (1-based) consecutive raspasy of a series (docs/rules.md §B1);
    a ``raspasy_prices`` table gives the prices outright, its last one repeating."""
    return russian_settings(rules).raspasy_price(k)


class _Entries:
    """Mutable per-deal deltas, frozen into a :class:`DealScore`. A scorer keeps one and resets it (:meth:`reset`)
    for each deal (its lists are copied into the deal's tuples by the freeze): on the replay's path that
    saves making and freeing an object and five lists a deal.

    Visty are written through :meth:`add_visty`, which marks the writer's row: a deal writes one or two rows
    of visty, and the rows it did not write are neither reset nor copied; they freeze to the shared row of
    zeros (:data:`~preflog.scoring.sheet.ZERO_ROWS`), which :meth:`Sheet.add` skips."""

    __slots__ = ("frac", "gora", "notes", "pulya", "visty", "written")

    def __init__(self, n: int) -> None:
        if n == 3:  # (list displays: cheaper than [0] * n)
            self.pulya: list[Number] = [0, 0, 0]
            self.gora: list[Number] = [0, 0, 0]
            self.visty: list[list[Number]] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
            self.written: list[bool] = [False, False, False]
        else:
            self.pulya = [0] * n
            self.gora = [0] * n
            self.visty = [[0] * n for _ in range(n)]
            self.written = [False] * n
        self.notes: list[str] = []
        self.frac = False  # a halving happened: cells may hold Fractions

    def reset(self) -> None:
        """Every cell 0, no notes: the entries of a deal not yet scored."""
        pulya, gora, visty, written = self.pulya, self.gora, self.visty, self.written
        for i in range(len(pulya)):
            pulya[i] = 0
            gora[i] = 0
            if written[i]:
                written[i] = False
                row = visty[i]
                for j in range(len(row)):
                    row[j] = 0
        if self.notes:
            self.notes = []
        self.frac = False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Entries:
        """Scratch between deals: a copy starts blank."""
        return _Entries(len(self.pulya))

    def add_visty(self, writer: int, on: int, amount: Number) -> None:
        """Visty written by seat ``writer`` on seat ``on``."""
        self.visty[writer][on] += amount
        self.written[writer] = True

    def div(self, x: Number, k: int) -> Number:
        q = _div(x, k)
        if type(q) is not int:
            self.frac = True
        return q

    def freeze(self) -> DealScore:
        return DealScore(
            tuple(_norm(x) for x in self.pulya),
            tuple(_norm(x) for x in self.gora),
            tuple(tuple(_norm(x) for x in row) for row in self.visty),
            "; ".join(self.notes),
        )

    def freeze_ints(self) -> DealScore:
        """:meth:`freeze` when no cell can be a Fraction (nothing to normalise)."""
        n = len(self.visty)
        zero = ZERO_ROWS[n]
        rows: tuple[tuple[Number, ...], ...]
        if n == 3:  # (tuple displays: no list made)
            rows = (self._frozen_row(0, zero), self._frozen_row(1, zero), self._frozen_row(2, zero))
        else:
            rows = (self._frozen_row(0, zero), self._frozen_row(1, zero), self._frozen_row(2, zero),
                    self._frozen_row(3, zero))
        return DealScore(tuple(self.pulya), tuple(self.gora), rows, "; ".join(self.notes) if self.notes else "")


    def _frozen_row(self, i: int, zero: tuple[Number, ...]) -> tuple[Number, ...]:
        """Row ``i`` of visty as a tuple: the shared row of zeros when nobody wrote it."""
        return tuple(self.visty[i]) if self.written[i] else zero


def _charge(e: _Entries, seat: int, amount: Number) -> None:
    """A whist penalty onto ``seat``'s gora (a fraction of a point when the rules halve one)."""
    amount = _norm(amount)
    if type(amount) is not int:
        e.frac = True
    e.gora[seat] += amount


def _owed(quota: int, taken: int, short: int, capped: bool, charged: bool) -> int:
    """A whister's missing tricks against his quota: capped by the side's shortfall (``whist_shortfall_split``
    capped), else in full when the side is charged."""
    if capped:
        return min(max(0, quota - taken), short)
    return max(0, quota - taken) if charged else 0


def _key(n: int, dealer: int, seat: int = 0) -> int:
    """Index of (table size, dealer, seat) into the tables below; -1 off the tables."""
    if (n == 3 or n == 4) and 0 <= dealer < n and 0 <= seat < n:
        return ((n - 3) * 4 + dealer) * 4 + seat
    return -1


def _tables() -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """The seats of each (table size, dealer) and the defenders of each declarer among them, indexed by
    :func:`_key` (a list index: no tuple key built and hashed per deal)."""
    seats: list[tuple[int, ...]] = [()] * 32
    defenders: list[tuple[int, ...]] = [()] * 32
    for n in (3, 4):
        for dealer in range(n):
            active = playing_seats(n, dealer)
            seats[_key(n, dealer)] = active
            for d in active:
                defenders[_key(n, dealer, d)] = tuple(s for s in active if s != d)
    return seats, defenders


_TABLES: Final = _tables()
_SEATS: Final = _TABLES[0]
_DEFENDERS: Final = _TABLES[1]


def _seats_of(o: DealOutcome) -> tuple[int, ...]:
    """``o.seats`` from a table built once."""
    k = _key(o.n_players, o.dealer)
    return _SEATS[k] if k >= 0 else o.seats


def _defenders_of(o: DealOutcome) -> tuple[int, ...]:
    """The seats of the deal other than the declarer's, from a table built once."""
    k = _key(o.n_players, o.dealer, o.declarer)
    found = _DEFENDERS[k] if k >= 0 else ()
    return found or tuple(s for s in _seats_of(o) if s != o.declarer)


_STRAIN_NAMES = {1: "s", 2: "c", 3: "d", 4: "h", 5: "NT"}


class RussianScorer(Scorer):
    """Pulka-level scoring state of a Russian game: the sheet, the raspasy series, the pool size."""

    def __init__(self, rules: Rules, n_players: int, pool: int, *, whist_price: Number = 1) -> None:
        if n_players not in (3, 4):
            raise ScoringError(f"Russian scoring is for 3 or 4 players, not {n_players}")
        self.rules = rules
        self.n = n_players
        self.pool = pool
        self.whist_price = whist_price
        self.sheet = Sheet(n_players)
        self._entries = _Entries(n_players)   # the deal being scored (reset per deal)
        self.series = 0  # consecutive raspasy in the current series (docs/rules.md §B1)
        # the options, resolved once per rules object into ints and bools (rules/settings.py): the compiled
        # scorer reads them natively, where an attribute of the rules object is a generic lookup each time
        self.settings: RussianSettings = russian_settings(rules)
        self._prices: list[int] = []   # the raspasy prices worked out so far (1st, 2nd, ... of a series)
        self.deals = 0
        # while every option and every sheet total is an int, a deal's cells are ints: no normalising
        self._ints = self.settings.whole and type(pool) is int

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A copy to score what-ifs on (the play analysis); the rules object is shared when ``memo`` says so."""
        new = type(self)(self.rules, self.n, self.pool, whist_price=self.whist_price)
        copy_fields(self, new, memo)
        return new

    # ------------------------------------------------------------------ protocol
    def score(self, outcome: DealOutcome) -> DealScore:
        o = outcome
        self._validate(o)
        e = self._entries
        e.reset()   # (at the start: a deal the rules refused midway may have written some cells)
        if o.kind == _RASPASY:
            self.series += 1
            self._raspasy(o, e, self._raspasy_price(self.series))
        else:
            if o.kind == _MISER:
                made = self._miser(o, e)
            else:
                made = self._game(o, e)
            if self.series and self._ends_series(o, made):
                self.series = 0
        if self._ints and not e.frac:
            ds = e.freeze_ints()
        else:
            self._ints = False  # the sheet may hold Fractions from now on
            ds = e.freeze()
        self.sheet.add(ds)
        self.deals += 1
        return ds

    def start_from(self, start: Sheet) -> None:
        """Continue from the totals of a paper sheet. What the rules can produce: a pulya from 0 to the
        pool (a closed pulya takes no more: the rest is help or visty), a gora of 0 or more (help
        takes gora off down to 0, never below), visty of 0 or more, none on oneself. The raspasy series
        starts afresh (a sheet does not show it)."""
        n = self.n
        if start.n != n or len(start.pulya) != n or len(start.gora) != n or len(start.visty) != n \
                or any(len(row) != n for row in start.visty):
            raise StartSheetError(f"a starting sheet for {start.n} players at a {n}-player table")
        # house rules widen the range: pulka_end=total leaves pulyas unbounded, help_overflow=own_gora
        # may take a gora below 0
        st = self.settings
        bounded = not st.end_on_total
        below_zero = st.help_overflow == OVERFLOW_OWN_GORA and st.american_help
        for i in range(n):
            p, g = start.pulya[i], start.gora[i]
            if p < 0 or (bounded and p > self.pool):
                raise StartSheetError(f"pulya {p} is not between 0 and the pool {self.pool} (a closed pulya "
                                      f"takes no more points)" if bounded else f"pulya {p} is negative", i, "pulya")
            if g < 0 and not below_zero:
                raise StartSheetError(f"gora {g} is negative (gora only grows, and help takes it down to 0 "
                                      f"at most)", i, "gora")
            for j in range(n):
                v = start.visty[i][j]
                if j == i and v:
                    raise StartSheetError(f"{v} visty written on oneself (a player writes visty on his "
                                          f"opponents only)", i, "visty", j)
                if v < 0:
                    raise StartSheetError(f"visty {v} are negative (visty only grow)", i, "visty", j)
        self.sheet = start.copy()
        if not all(type(x) is int for x in (*start.pulya, *start.gora, *(v for r in start.visty for v in r))):
            self._ints = False

    def needs_contra(self, declarer: int, contract: int, hand_game: bool) -> bool:
        """The Russian game has no contra: never."""
        return False

    def min_bid_level(self) -> int:
        """Lowest opening level after the current raspasy series (``min_bid_after_raspasy``); 0 = none."""
        level = 0
        for length, lvl in self.settings.min_bid_after_raspasy:
            if self.series >= length:
                level = max(level, lvl)
        return level

    def is_finished(self) -> bool:
        if self.settings.end_on_total:  # house rule: the pulyas together, no raspasy series open
            return self.series == 0 and sum(self.sheet.pulya) >= self.n * self.pool
        pool = self.pool
        for p in self.sheet.pulya:  # every pulya closed (asked once per deal)
            if p < pool:
                return False
        return True

    def settlement(self) -> Settlement:
        s = self.sheet
        return settle(s.pulya, s.gora, s.visty, self.rules, self.whist_price)

    def current_raspasy_price(self) -> int:
        """Price the next raspasy would be played at."""
        return self._raspasy_price(self.series + 1)

    def _raspasy_price(self, k: int) -> int:
        """:func:`raspasy_price` of the *k*-th raspasy of a series, each price worked out once per pulka."""
        prices = self._prices
        while len(prices) < k:
            prices.append(self.settings.raspasy_price(len(prices) + 1))
        return prices[k - 1]

    # ------------------------------------------------------------------ terms (scoring/terms.py)
    def contract_terms(self, contract: int, hand_game: bool = False) -> ContractTerms:
        """Miser, or a trick contract: its level, strain and price V (``game_values``; miser ``miser_value``)."""
        if contract == MISER_BID:
            return ContractTerms("miser", 0, "miser", True, self.settings.miser_value)
        if not is_trick_contract(contract):
            raise ScoringError(f"contract code {contract} is not a Russian contract")
        level = level_of(contract)
        return ContractTerms(format_ru_bid(contract), level, _STRAIN_NAMES[strain_of(contract)], False,
                             self.settings.game_values.get(level))

    def deal_result(self, outcome: DealOutcome) -> DealResult | None:
        """Made and undertricks as :meth:`score` counts them; None without a declarer (raspasy).

        Not whisted and half-whist count as made; a conceded deal without tricks is "down three".
        """
        o = outcome
        if o.declarer == NO_SEAT or o.kind == _RASPASY:
            return None
        if o.kind in (_NOT_WHISTED, _HALF_WHIST):
            return DealResult(True, 0)
        if o.kind == _CONCEDED and not o.tricks:
            return DealResult(False, CONCEDED_UNDERTRICKS)
        taken = o.tricks[o.declarer]
        if o.kind == _MISER:
            return DealResult(taken == 0, taken)  # a miser fails by each trick taken
        under = max(0, level_of(o.contract) - taken)
        return DealResult(under == 0, under)

    def whist_liability(self, outcome: DealOutcome) -> dict[int, Liability]:
        """Per whister, the A9 allocation that :meth:`score` charges (``whist_obligation``,
        ``lone_whister_quota``, ``high_level_liability``); empty when nobody answers for tricks
        (no play, miser, raspasy, the ten-game check, a level without obligation).

        ``short`` is the whole shortfall a whister answers for: ``whisters_share_penalty`` and
        ``high_level_liability="split"`` share the *penalty*, not the allocation.
        """
        return {s: Liability(quota, short) for s, (quota, short) in self._allocation(outcome).items()}

    def _allocation(self, outcome: DealOutcome) -> dict[int, tuple[int, int]]:
        """:meth:`whist_liability` as ``seat: (quota, short)`` pairs (what :meth:`score` reads: no value
        object per whister on the replay's path)."""
        o = outcome
        if o.kind not in (_GAME, _CONCEDED) or o.checked or not o.tricks:
            return {}
        return self._allocate(o, self._need(o), _defenders_of(o))

    def _allocate(self, o: DealOutcome, need: int, defenders: tuple[int, ...]) -> dict[int, tuple[int, int]]:
        """:meth:`_allocation` of a deal that has one, given its obligation and its defenders."""
        if need <= 0:
            return {}
        if o.n_players == 4 and o.returner == o.dealer != NO_SEAT:
            whisters = [o.dealer]  # seed 001: the sitting-out dealer returned the whist and whists alone
        else:
            whisters = [s for s in defenders if o.calls[s] == CALL_WHIST] if o.calls else []
        if not whisters:
            return {}
        t = o.tricks
        side = 0
        for s in defenders:
            side += t[s]
        short = max(0, need - side)
        capped = self.settings.shortfall_split == SPLIT_CAPPED
        # personal deficits in full (not capped): when the side is short, or always (whist_shortfall_split)
        charged = short > 0 or self.settings.shortfall_split == SPLIT_PERSONAL_ALWAYS
        if len(whisters) == 1:
            wh = whisters[0]
            if self.settings.lone_quota_side:
                return {wh: (need, short)}
            personal = need // 2 if need >= 2 else need
            return {wh: (personal, _owed(personal, t[wh], short, capped, charged))}
        if self.settings.shortfall_split == SPLIT_PROPORTIONAL:
            # the side's shortfall, shared by personal deficits against need/2 each (_whist_liability)
            quota = need // 2 if need >= 2 else need
            return {s: (quota, short if 2 * t[s] < need else 0) for s in whisters}
        if need >= 2:
            quota = need // 2  # 6: 2 + 2, 7: 1 + 1
            return {s: (quota, _owed(quota, t[s], short, capped, charged)) for s in whisters}
        if self.settings.high_level_split:
            return {s: (need, short if capped else _owed(need, t[s], short, capped, charged)) for s in whisters}
        order = [s for s in o.whist_order if s in whisters]
        if len(order) == 2:
            second = order[1]
        else:  # the later of the two clockwise from the declarer
            a, b = whisters[0], whisters[1]
            second = b if (b - o.declarer) % o.n_players > (a - o.declarer) % o.n_players else a
        return {s: (need, short if capped else _owed(need, t[s], short, capped, charged)) if s == second
                else (0, 0) for s in whisters}

    def _need(self, o: DealOutcome) -> int:
        """Tricks the defending side must take on the deal's contract (``whist_obligation``; 0: none)."""
        return self.settings.whist_obligation.get(level_of(o.contract), 0)  # (level 0: not a trick contract)

    def value_rates(self) -> ValueRates:
        """Gora at ``gora_point_visty``; the pulya counts only at settlement (closed pools), so 0 here."""
        return ValueRates(self.settings.gora_point_visty, 0)

    # ------------------------------------------------------------------ checks
    def _validate(self, o: DealOutcome) -> None:
        n = self.n
        kind = o.kind
        if o.n_players != n:
            raise ScoringError(f"deal {o.deal}: outcome for {o.n_players} players at a {n}-player pulka")
        if kind not in (_GAME, _MISER, _RASPASY, _NOT_WHISTED, _HALF_WHIST, _CONCEDED):
            raise ScoringError(f"deal {o.deal}: kind {kind!r} is not a Russian deal")
        if kind != _RASPASY and not 0 <= o.declarer < n:
            raise ScoringError(f"deal {o.deal}: {kind} needs a declarer seat, got {o.declarer}")
        if n == 4 and o.declarer == o.dealer and kind != _RASPASY:
            raise ScoringError(f"deal {o.deal}: the 4-player dealer sits out and cannot declare (docs/rules.md §A14)")
        tricks = o.tricks
        if kind in (_GAME, _MISER, _RASPASY) or tricks:
            if len(tricks) != n:
                raise ScoringError(f"deal {o.deal}: {len(tricks)} trick counts for {n} seats")
            total = 0
            for t in tricks:
                if t < 0:
                    total = -1
                    break
                total += t
            if total != TRICKS_PER_DEAL:
                raise ScoringError(f"deal {o.deal}: trick counts {tricks} do not add up to {TRICKS_PER_DEAL}")
        if kind in (_GAME, _NOT_WHISTED, _HALF_WHIST, _CONCEDED) and level_of(o.contract) == 0:
            raise ScoringError(f"deal {o.deal}: {kind} needs a trick contract, got code {o.contract}")
        if kind == _GAME and not o.checked and len(o.calls) != n:
            raise ScoringError(f"deal {o.deal}: {len(o.calls)} whist calls for {n} seats")

    # ------------------------------------------------------------------ pulya and help
    def _write_pulya(self, seat: int, points: Number, e: _Entries) -> None:
        """Write pulya points, with American help once the pulya is closed (docs/rules.md §B1, seed 003);
        no help when the pulka ends on the sum of the pulyas (``pulka_end="total"``: pulyas unbounded)."""
        if not self.settings.help:
            e.pulya[seat] += points
            return
        room = self.pool - (self.sheet.pulya[seat] + e.pulya[seat])
        if points <= room or points <= 0:  # the common case: the writer's own pulya takes it all
            e.pulya[seat] += points
        else:
            self._help_out(seat, points, room, e)

    def _help_out(self, seat: int, points: Number, room: Number, e: _Entries) -> None:
        """:meth:`_write_pulya` past the writer's closed pulya (``room`` points left in it): the rest goes to
        the others' open pulyas, each point for visty, then as ``help_overflow`` says."""
        own = room if room > 0 else 0
        rest = points - own
        pul = [self.sheet.pulya[i] + e.pulya[i] for i in range(self.n)]
        e.pulya[seat] += own
        # larger pulya first; equal pulyas: the player on the writer's left first (help_tie clockwise),
        # or the lowest seat first (help_tie lowest_seat); the tie keys differ, so the seat itself (last in
        # each tuple) is never compared
        n = self.n
        lowest = self.settings.help_lowest_seat
        others = sorted([(-pul[j], j if lowest else (j - seat) % n, j) for j in range(n) if j != seat])
        price = self.settings.help_price
        for _larger, _tie, j in others:
            room = self.pool - pul[j]
            if rest <= 0 or room <= 0:
                continue
            give = min(rest, room)
            e.pulya[j] += give
            e.add_visty(seat, j, give * price)
            e.notes.append(f"help {give} to seat {j}")
            rest -= give
        if rest <= 0:
            return
        # nobody can take it: off the writer's own gora (help_overflow), then onto every opponent's gora
        own_gora = self.sheet.gora[seat] + e.gora[seat]
        off = rest if self.settings.help_overflow == OVERFLOW_OWN_GORA else min(rest, max(0, own_gora))
        e.gora[seat] -= off
        rest -= off
        if off:
            e.notes.append(f"help {off} off own gora")
        if rest > 0 and self.settings.help_overflow == OVERFLOW_OWN_GORA_TO_ZERO:
            e.notes.append(f"help {rest} dropped")
        elif rest > 0:
            for j in range(self.n):
                if j != seat:
                    e.gora[j] += rest
            e.notes.append(f"help {rest} to every opponent's gora")

    # ------------------------------------------------------------------ deal kinds
    def _miser(self, o: DealOutcome, e: _Entries) -> bool:
        taken = o.tricks[o.declarer]
        if taken == 0:
            self._write_made(o.declarer, self.settings.miser_value, e)
            return True
        e.gora[o.declarer] += self.settings.miser_fail_per_trick * taken  # no visty on miser
        return False

    def _game(self, o: DealOutcome, e: _Entries) -> bool:
        st = self.settings
        d = o.declarer
        level = o.contract // 10  # a trick contract (checked by _validate): level_of without the ladder test
        v = st.game_values[level]
        w = st.whist_mult * v
        if o.kind == _NOT_WHISTED:
            self._write_made(d, v, e)
            return True
        if o.kind == _HALF_WHIST:
            hw_tricks = st.half_whist_tricks
            if level not in st.half_whist_levels or level not in hw_tricks:
                raise ScoringError(f"deal {o.deal}: half-whist is not allowed at level {level} "
                                   f"(half_whist_levels {st.half_whist_levels})")
            if not 0 <= o.half_whister < self.n or o.half_whister == d:
                raise ScoringError(f"deal {o.deal}: half-whist deal without a valid half_whister seat")
            self._write_made(d, v, e)
            e.add_visty(o.half_whister, d, hw_tricks[level] * w)
            return True
        if o.kind == _CONCEDED and not o.tricks:
            if not st.allow_concede_down3:
                raise ScoringError(f"deal {o.deal}: the declarer conceded without tricks, but conceding down "
                                   "three is not allowed in these rules (allow_concede_down3)")
            e.gora[d] += st.remiz_mult * v * CONCEDED_UNDERTRICKS  # house "без трёх": defenders write nothing
            e.notes.append("conceded down 3")
            return False

        t = o.tricks
        under = max(0, level - t[d])
        if under == 0:
            self._write_made(d, v, e)
        else:
            e.gora[d] += self.settings.remiz_mult * v * under
        if o.checked and not self.settings.ten_check_visty:
            return under == 0  # house rule: a checked ten writes no visty, only pulya or gora
        cons = self.settings.consolation_mult * v * under
        defenders = _defenders_of(o)
        if o.n_players == 4 and self.settings.consolation_dealer and cons:
            e.add_visty(o.dealer, d, cons)

        if o.checked:
            # Sochi ten-game check: both opponents write as if both had whisted (seed 003)
            for s in defenders:
                e.add_visty(s, d, w * t[s] + cons)
            return under == 0

        if o.n_players == 4 and o.returner == o.dealer != NO_SEAT:
            self._dealer_return(o, e, defenders, w, cons)
            self._whist_liability(o, e, v, defenders)
            return under == 0
        whisters = [s for s in defenders if o.calls[s] == CALL_WHIST]
        if not whisters:
            if o.kind == _CONCEDED:
                return under == 0
            raise ScoringError(f"deal {o.deal}: a played game needs at least one whister "
                               "(both passing is kind not_whisted)")
        if len(whisters) == 2:
            for s in whisters:
                e.add_visty(s, d, w * t[s] + cons)
        else:
            self._lone_whister_visty(o, e, whisters[0], defenders, w, cons, under)
        self._whist_liability(o, e, v, defenders)
        return under == 0

    def _dealer_return(self, o: DealOutcome, e: _Entries, defenders: tuple[int, ...], w: int, cons: int) -> None:
        """Seed 001: at four the sitting-out dealer may return a half-whist; he then whists alone for
        the defending side (greedy: the side's tricks), the passers write only consolation. A dealer who
        whisted after two passes (no half-whister) writes both passers' consolations himself under
        ``dealer_whist_consolation="dealer"``."""
        e.add_visty(o.dealer, o.declarer, w * sum(o.tricks[s] for s in defenders))
        dealer_writes = self.settings.dealer_writes_consolation and o.half_whister == NO_SEAT
        for s in defenders:
            amt: Number = cons if self.settings.consolation_passer else 0
            if dealer_writes or (s == o.half_whister and self.settings.consolation_half_to_returner):
                e.add_visty(o.dealer, o.declarer, amt)
                amt = 0
            e.add_visty(s, o.declarer, amt)

    def _lone_whister_visty(self, o: DealOutcome, e: _Entries, wh: int, defenders: tuple[int, ...],
                            w: int, cons: int, under: int) -> None:
        """Greedy ("жлобский") whist: the lone whister writes for the whole side, open or closed."""
        p = defenders[1] if defenders[0] == wh else defenders[0]  # the other defender (there are two)
        w_amt = w * (o.tricks[wh] + o.tricks[p]) + cons
        p_amt = cons if self.settings.consolation_passer else 0
        returned_half = o.half_whister == p and o.returner != NO_SEAT
        if returned_half and self.settings.consolation_half_to_returner:
            w_amt += p_amt  # the returner writes the half-whister's consolation too
            p_amt = 0
        elif under > 0 and self.settings.split_with_passer_on_remiz:
            # gentleman's whist: all visty of the side split in half (docs/rules.md §B2)
            half = e.div(w_amt + p_amt, 2)
            e.add_visty(wh, o.declarer, half)
            e.add_visty(p, o.declarer, half)
            return
        e.add_visty(wh, o.declarer, w_amt)
        e.add_visty(p, o.declarer, p_amt)

    def _whist_liability(self, o: DealOutcome, e: _Entries, v: int, defenders: tuple[int, ...]) -> None:
        """Responsible whist: gora per missing trick on the allocation of :meth:`whist_liability`; the
        ``high_level_liability="split"`` and ``whisters_share_penalty`` options share the penalty, and
        ``whist_shortfall_split="proportional"`` spreads the side's shortfall over two whisters in
        proportion to their deficits against half the obligation each (at 8-10 both share)."""
        t = o.tricks
        need = self._need(o)
        side = 0
        for s in defenders:
            side += t[s]
        if side >= need and self.settings.shortfall_split != SPLIT_PERSONAL_ALWAYS:
            return   # the side took what it must: nobody is short (most deals; no allocation to build)
        alloc = self._allocate(o, need, defenders)
        rate = self.settings.whister_fail_mult * v
        st = self.settings
        if len(alloc) == 2 and (st.shortfall_split == SPLIT_PROPORTIONAL or st.whisters_share_penalty
                                or need < 2 and st.high_level_split):
            self._shared_penalty(o, e, alloc, need, side, rate)
            return
        for s, (_quota, short) in alloc.items():   # each whister for his own shortfall
            if short:
                _charge(e, s, short * rate)

    def _shared_penalty(self, o: DealOutcome, e: _Entries, alloc: dict[int, tuple[int, int]], need: int, side: int,
                        rate: Number) -> None:
        """:meth:`_whist_liability` of two whisters under an option that shares the penalty."""
        t = o.tricks
        pen: dict[int, Number] = {s: short for s, (_quota, short) in alloc.items()}
        if not any(pen.values()):
            return
        if self.settings.shortfall_split == SPLIT_PROPORTIONAL:
            deficit = {s: max(Fraction(0), Fraction(need, 2) - t[s]) for s in pen}
            total_deficit = sum(deficit.values())
            pen = {s: _norm((need - side) * deficit[s] / total_deficit) for s in pen}
        elif need < 2 and self.settings.high_level_split:
            pen = {s: e.div(p, 2) for s, p in pen.items()}   # 8-10: both answer for the side, half each
        if self.settings.whisters_share_penalty:
            total = sum(pen.values())
            pen = {s: e.div(total, 2) for s in pen}
        for s, p in pen.items():
            _charge(e, s, p * rate)

    def _raspasy(self, o: DealOutcome, e: _Entries, price: int) -> None:
        t = o.tricks
        players = _seats_of(o)
        mode = self.settings.raspasy_mode
        zero = self.settings.raspasy_zero_premium
        premium = 0 if zero == ZERO_PREMIUM_NONE else 1 if zero == ZERO_PREMIUM_ONE else price
        if o.n_players == 4 and mode == RASPASY_GORA and self.settings.raspasy_amnesty == AMNESTY_WITH_DEALER:
            players = tuple(range(4))  # house rule: the dealer's talon tricks count as a player's
        elif o.n_players == 4 and t[o.dealer]:
            e.gora[o.dealer] += price * t[o.dealer]  # talon tricks won by the dealer's cards
        if mode == RASPASY_VISTY:
            fewest = min(t[s] for s in players)
            low = [s for s in players if t[s] == fewest]
            for j in players:
                if t[j] > fewest:
                    amount = self.settings.raspasy_visty_per_trick * t[j]
                    for i in low:  # a tie for fewest writes in equal parts
                        e.add_visty(i, j, e.div(amount, len(low)))
        elif mode == RASPASY_VISTY_ABOVE_MIN:
            # house rule: each player with fewest writes (t - fewest) x k on every other, ties not split
            fewest = min(t[s] for s in players)
            for i in players:
                if t[i] == fewest:
                    for j in players:
                        if t[j] > fewest:
                            e.add_visty(i, j, self.settings.raspasy_visty_per_trick * (t[j] - fewest))
        else:
            amnesty = min(t[s] for s in players) if self.settings.raspasy_amnesty != AMNESTY_NONE else 0
            for s in players:
                e.gora[s] += price * (t[s] - amnesty)
            if amnesty:
                e.notes.append(f"amnesty {amnesty}")
        if premium:
            for s in players:
                if t[s] == 0:
                    self._write_pulya(s, premium, e)
        e.notes.append(f"raspasy #{self.series} price {price}")

    # ------------------------------------------------------------------ house rules (issue 10)
    def _write_made(self, seat: int, points: Number, e: _Entries) -> None:
        """A made contract's points: with ``gora_first`` (Rostov "mountain first") off the declarer's own
        gora first, down to 0, the rest to his pulya (with American help as usual)."""
        if self.settings.gora_first:
            off = min(points, max(0, self.sheet.gora[seat] + e.gora[seat]))
            if off:
                e.gora[seat] -= off
                points -= off
                e.notes.append(f"{off} off own gora")
            if not points:
                return
        self._write_pulya(seat, points, e)

    def _ends_series(self, o: DealOutcome, made: bool) -> bool:
        """Whether a deal other than raspasy ends the raspasy series (``raspasy_exit``,
        ``raspasy_exit_level``, ``raspasy_exit_miser``)."""
        st = self.settings
        exit_rule = st.raspasy_exit
        if o.kind == _MISER:  # (always played)
            return st.raspasy_exit_miser and (exit_rule == EXIT_ANY_GAME or exit_rule == EXIT_PLAYED_GAME
                                              or exit_rule == EXIT_ANY_BUT_BOTH_PASS or made)
        if o.contract // 10 < st.raspasy_exit_level:
            return False
        if exit_rule == EXIT_ANY_GAME:
            return True
        if exit_rule == EXIT_ANY_BUT_BOTH_PASS:  # made or not, played or a standing half-whist
            return o.kind != _NOT_WHISTED
        played = o.kind == _GAME or (o.kind == _CONCEDED and bool(o.tricks))  # not: both passed, a half-whist stood
        if exit_rule == EXIT_PLAYED_GAME:
            return played
        if not made:
            return False
        if exit_rule == EXIT_MADE_GAME:
            return True
        if not played:
            return False
        if exit_rule == EXIT_MADE_PLAYED_GAME:
            return True
        # whisted_game: somebody whisted (not the ten check) and no whister is short
        whisted = not o.checked and (o.returner == o.dealer != NO_SEAT and o.n_players == 4
                                     or CALL_WHIST in o.calls)
        return whisted and not any(short for _quota, short in self._allocation(o).values())


