"""Croatian / Slovenian scoring: contract columns, juha, refe and the hat (seeds 000, 002; docs/rules.md §C).

Sheet mapping (:class:`~preflog.scoring.sheet.Sheet`): ``pulya[i]`` is player *i*'s contract
column, signed — it starts at ``−start`` and a made contract *adds* its value ("списывает" toward
zero and, under the hat, beyond it); a failure or a whister's penalty subtracts ("приписывает").
``visty[i][j]`` is the juha ("юха") player *i* wrote on player *j*. ``gora`` is unused (0).

One deal (contract number *n* 2–7, value ``V = 2n`` with the talon, ``2(n+1)`` from hand, so
Bettel 12/14, Sanac 14/16):

* multipliers — refe ×2 if the declarer has one queued; contra steps ×2 each, *per defender*:
  ``m_d = refe × 2**contra[d]`` for the account declarer ↔ defender *d*; the declarer's column
  uses the highest contra step (``m = refe × 2**max(contra)``; seed: "все результаты удваиваются");
* declarer — made (defenders ≤ 4 tricks; Bettel: 0 declarer tricks): ``+V·m``; failed ``−V·m``;
* trick contracts and Sanac — each scoring defender writes ``tricks × V × m_d`` on the declarer:
  both whisted → own tricks; lone whister who invited the passer → the side's tricks (the invited
  player writes nothing); lone whister without invitation → own tricks (the passer is out).
  Whister penalty, flat ``V·m_d`` to his own column, against the side's quota *q* =
  ``whist_obligation[n]`` (4 for every trick contract and Sanac) and the personal quota ``q // 2``
  (2): both whisted → side < q and own < q // 2; inviter → side < q; lone → own < q // 2
  (``lone_whister_quota=side``: side < q). A contra-er whose side takes ≤ 4 pays ``V·m_d`` when
  ``contra_fail_penalty`` (amount UNVERIFIED; it is *the* penalty — never added to a whist one);
* Bettel — defenders must play; made: declarer ``+V·m``, nothing else; failed: declarer
  ``−V·m`` and each defender writes ``5V·m_d`` (60/70; ``bettel_fail_mode=per_trick``: per declarer
  trick). Contra-er penalty when Bettel is made;
* nobody whists (``_NOT_WHISTED``) → contract made, no juha;
* 2♠ with the talon, no refe, no contra (``_CONCEDED``, or ``_NOT_WHISTED`` under the Slovenian
  option) → ``two_spades_without_contra``: won without play (as made), or nobody writes and
  everybody gets a refe (hat and limit permitting);
* all pass (``_ALL_PASS``) → every player gets one refe, unless someone is under the hat
  (``refe_blocked_under_hat``) or the pulka's refe rounds reached the limit (``refe_max`` by start:
  30 → 1, 50 → 3; a start not in the table uses the entry with the largest start ≤ it, else the
  smallest). The limit counts refe *rounds* (each gives everybody one refe).
  Refes queue per player; each doubles one contract of his and is used up by it
  (also when it fails, ``refe_consumed_on_fail``).
* hat ("шляпа") — a player is under the hat while his column is ≥ 0 (reaching zero counts, seed
  002 "достигает нулевой отметки"); each change is kept in :attr:`CroatianScorer.hat_marks`
  (∩ going under, ∪ coming out).
* end — the pulka ends when the columns sum to 0. A made contract that would take the sum past
  0 is cut to reach exactly 0 and its juha is scaled by the same ratio (``overshoot_mode=
  proportional``, exact Fractions); penalties are written in full. ``overshoot_mode=none`` writes
  everything and ends once the sum is ≥ 0.

Settlement: ``result_i = 10 × (c_i − mean c) + juha written by i − juha written on i`` (exact), by
:func:`preflog.scoring.settlement.settle` with ``gora = −column``; ``method2`` is the paper mean
method there (equal to exact whenever the mean is whole), ``method1`` the exact result rounded by
largest remainder. Both sum to zero.

The constructor's ``pool`` argument is ignored: the start is ``rules.start`` (override ``start=50``
or preset ``croatian+start-50``), or the ``start`` keyword.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from typing import Self

from ..errors import ScoringError
from ..model.bidcodes import HR_BETTEL
from ..model.bidcodes import HR_SANAC
from ..model.calls import CALL_INVITE
from ..model.calls import CALL_WHIST
from ..model.copying import copy_fields
from ..model.outcome import KIND_ALL_PASS as _ALL_PASS
from ..model.outcome import KIND_CONCEDED as _CONCEDED
from ..model.outcome import KIND_GAME as _GAME
from ..model.outcome import KIND_NOT_WHISTED as _NOT_WHISTED
from ..model.outcome import NO_SEAT
from ..model.outcome import DealOutcome
from ..rules.config import Rules
from ..rules.settings import TWO_SPADES_NOBODY_SCORES
from ..rules.settings import TWO_SPADES_PLAYED
from ..rules.settings import TWO_SPADES_REFE_ELSE_WIN
from ..rules.settings import CroatianSettings
from ..rules.settings import croatian_settings
from .base import Scorer
from .settlement import round_zero_sum
from .settlement import settle
from .sheet import DealScore
from .sheet import Number
from .sheet import Settlement
from .sheet import Sheet
from .sheet import StartSheetError
from .terms import ContractTerms
from .terms import DealResult
from .terms import Liability
from .terms import ValueRates

DECLARER_TRICKS = 6  # tricks a trick contract or Sanac needs

# report names of the contract numbers: label and strain
_LABELS = {2: ("2s", "s"), 3: ("3d", "d"), 4: ("4h", "h"), 5: ("5c", "c"), HR_BETTEL: ("bettel", "bettel"),
           HR_SANAC: ("sanac", "sanac")}


def deal_value(contract: int, hand_game: bool) -> int:
    """Value V of a contract: ``2n`` with the talon, ``2(n+1)`` from hand (Bettel 12/14, Sanac 14/16)."""
    if not 2 <= contract <= 7:
        raise ValueError(f"Croatian contract number is 2..7, not {contract}")
    return 2 * (contract + 1) if hand_game else 2 * contract


@dataclass(frozen=True, slots=True)
class HatMark:
    """A hat drawn on the sheet: ``up`` ∩ (column reached zero from below), else ∪ (dropped below)."""

    deal: int
    seat: int
    up: bool

    @property
    def symbol(self) -> str:
        return "∩" if self.up else "∪"

    def __reduce__(self) -> tuple[type[HatMark], tuple[int, int, bool]]:
        # Compiled, a frozen class copies and pickles through mypyc's __setstate__, which assigns each field
        # and so meets the frozen __setattr__; rebuilding through the constructor works on both paths.
        return (HatMark, (self.deal, self.seat, self.up))


def _num(x: Fraction) -> Number:
    return x.numerator if x.denominator == 1 else x


class CroatianScorer(Scorer):
    """Pulka-level Croatian scoring: the :class:`~preflog.scoring.base.Scorer` protocol plus refe/hat state."""

    def __init__(self, rules: Rules, n_players: int = 3, pool: int = 0, *, start: int | None = None) -> None:
        self.rules = rules
        self.settings: CroatianSettings = croatian_settings(rules)
        self.n = n_players
        self.start = self.settings.start if start is None else start
        if self.start <= 0:
            raise ValueError(f"Croatian start must be positive, not {self.start}")
        self.sheet = Sheet(n_players)
        self.sheet.pulya = [-self.start] * n_players
        self.refe: list[int] = [0] * n_players     # queued refes per player
        self.refe_rounds = 0                       # all-pass rounds that granted refes
        self.refe_limit = _refe_limit(self.settings.refe_max, self.start)
        self.hat_marks: list[HatMark] = []
        self.deals: list[DealScore] = []
        self._finished = False

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A copy to score what-ifs on (the play analysis); the rules object is shared when ``memo`` says so."""
        new = type(self)(self.rules, self.n, start=self.start)
        copy_fields(self, new, memo)
        return new

    def start_from(self, start: Sheet) -> None:
        """Refused: a Croatian pulka's state is more than its totals (the queued refes, the hats drawn and
        whether a column went under the hat), so it cannot continue from a written sheet."""
        raise StartSheetError("the Croatian game cannot continue from a written sheet: its refes and hats "
                              "are not among the totals; record the pulka's deals instead")

    # -- state for the engine and reports -------------------------------
    @property
    def columns(self) -> tuple[Number, ...]:
        return tuple(self.sheet.pulya)

    @property
    def under_hat(self) -> tuple[bool, ...]:
        return tuple(c >= 0 for c in self.sheet.pulya)

    def needs_contra(self, declarer: int, contract: int, hand_game: bool) -> bool:
        """Whether the 2♠ rule applies: 2 with the talon, declarer without refe → a defender must contra
        for the deal to be played (else ``_CONCEDED``)."""
        s = self.settings
        return (s.contra_enabled and s.two_spades != TWO_SPADES_PLAYED and contract == 2 and not hand_game
                and self.refe[declarer] == 0)

    def min_bid_level(self) -> int:
        return 0

    def is_finished(self) -> bool:
        return self._finished

    # -- terms (scoring/terms.py) ---------------------------------------
    def contract_terms(self, contract: int, hand_game: bool = False) -> ContractTerms:
        """The number 2–7: its name, strain and value V (:func:`deal_value`; Bettel asks for no trick)."""
        label, strain = _LABELS.get(contract, (str(contract), None))
        return ContractTerms(label, contract, strain, contract == HR_BETTEL, deal_value(contract, hand_game))

    def deal_result(self, outcome: DealOutcome) -> DealResult | None:
        """Made and undertricks as :meth:`score` decides it (defenders ≤ 4 tricks; Bettel: no declarer
        trick, failing by each); a deal won without play (not whisted, 2♠ conceded) counts as made.
        None without a declarer (all pass)."""
        o = outcome
        if o.declarer == NO_SEAT or o.kind == _ALL_PASS:
            return None
        if o.kind in (_NOT_WHISTED, _CONCEDED):
            return DealResult(True, 0)
        taken = o.tricks[o.declarer]
        if o.contract == HR_BETTEL:
            return DealResult(taken == 0, taken)
        under = max(0, DECLARER_TRICKS - taken)
        return DealResult(under == 0, under)

    def whist_liability(self, outcome: DealOutcome) -> dict[int, Liability]:
        """Per whister, what :meth:`score`'s flat whister penalty checks: two whisters and an uninvited
        lone whister answer for their own two tricks (both whisted: only while the side is short of
        four), a lone whister who invited (or contra'd) for the side's four. ``short > 0`` is exactly
        "penalised". Empty for Bettel (no obligation) and deals without play."""
        o = outcome
        if o.kind != _GAME or not 0 <= o.declarer < o.n_players or o.contract == HR_BETTEL or not o.tricks:
            return {}
        decl, calls, t = o.declarer, o.calls, o.tricks
        defenders = [s for s in o.seats if s != decl]
        whisters = [d for d in defenders if calls[d] in (CALL_WHIST, CALL_INVITE)] if calls else list(defenders)
        if not whisters:
            return {}
        side_quota = self.settings.whist_obligation.get(o.contract)  # the side's quota per contract number
        if side_quota is None:
            return {}
        own_quota = side_quota // 2
        side_short = max(0, side_quota - sum(t[d] for d in defenders))
        if len(whisters) >= 2:
            return {d: Liability(own_quota, min(max(0, own_quota - t[d]), side_short)) for d in whisters}
        w = whisters[0]
        contra = o.contra or (0,) * o.n_players
        invited = o.invited != NO_SEAT or (len(defenders) > 1 and (bool(calls) and calls[w] == CALL_INVITE
                                                                   or contra[w] > 0))
        if invited or self.settings.lone_quota_side:
            return {w: Liability(side_quota, side_short)}
        return {w: Liability(own_quota, max(0, own_quota - t[w]))}

    def value_rates(self) -> ValueRates:
        """Gora at ``gora_point_visty`` (unused: always 0) and the contract column at ``pool_point_visty``
        (docs/rules.md §C6: the settlement reads each deal's column change against the mean)."""
        return ValueRates(self.settings.gora_point_visty, self.settings.pool_point_visty)

    # -- scoring -------------------------------------------------------
    def score(self, outcome: DealOutcome) -> DealScore:
        where = f"deal {outcome.deal}"
        if self._finished:
            raise ScoringError(f"{where}: the pulka is over (the contract columns sum to zero)")
        if outcome.n_players != self.n:
            raise ScoringError(f"{where}: {outcome.n_players} players at the table, scorer set up for {self.n}")
        if outcome.kind == _ALL_PASS:
            ds = self._grant_refe(DealScore.zero(self.n), "all pass")
        elif outcome.kind in (_GAME, _CONCEDED, _NOT_WHISTED):
            ds = self._score_contract(outcome, where)
        else:
            raise ScoringError(f"{where}: deal kind {outcome.kind!r} does not exist in the Croatian game")
        self._apply(ds, outcome.deal)
        return ds

    def _no_refe(self) -> str:
        """Why no refe round can be granted now ("" when one can)."""
        if self.settings.refe_blocked_under_hat and any(self.under_hat):
            return "a player is under the hat"
        if self.refe_rounds >= self.refe_limit:
            return f"limit {self.refe_limit} reached"
        return ""

    def _grant_refe(self, ds: DealScore, why: str) -> DealScore:
        blocked = self._no_refe()
        if blocked:
            return _noted(ds, f"{why}: no refe ({blocked})")
        self.refe_rounds += 1
        for i in range(self.n):
            self.refe[i] += 1
        return _noted(ds, f"{why}: refe for everybody ({self.refe_rounds}/{self.refe_limit})")

    def _score_contract(self, o: DealOutcome, where: str) -> DealScore:
        n, settings = self.n, self.settings
        decl, contract = o.declarer, o.contract
        if not 0 <= decl < n:
            raise ScoringError(f"{where}: no declarer for a {o.kind} deal")
        if not 2 <= contract <= 7:
            raise ScoringError(f"{where}: contract {contract} is not a Croatian contract (2..7)")
        defenders = [s for s in o.seats if s != decl]
        contra = list(o.contra) if o.contra else [0] * n
        if len(contra) != n or any(c < 0 for c in contra) or contra[decl]:
            raise ScoringError(f"{where}: contra must give one step count ≥ 0 per seat, 0 for the declarer")
        if not settings.contra_enabled and any(contra):
            raise ScoringError(f"{where}: contra is off in these rules (contra_enabled)")
        if settings.contra_max and max(contra) > settings.contra_max:
            raise ScoringError(f"{where}: a contra chain of {max(contra)} steps; these rules end it at "
                               f"{settings.contra_max} (contra_max)")
        refe = 2 if self.refe[decl] else 1
        v = deal_value(contract, o.hand_game)
        two_spades = self.needs_contra(decl, contract, o.hand_game) and not any(contra)
        pulya: list[Fraction] = [Fraction(0)] * n
        visty = [[Fraction(0)] * n for _ in range(n)]
        notes: list[str] = []

        if two_spades and o.kind == _GAME:
            raise ScoringError(f"{where}: 2♠ with the talon and no refe was played without a contra; "
                               "it is won without play (docs/rules.md §C3) — record it as conceded")
        nobody_scores = settings.two_spades == TWO_SPADES_NOBODY_SCORES or (
            settings.two_spades == TWO_SPADES_REFE_ELSE_WIN and not self._no_refe())
        if two_spades and (o.kind == _CONCEDED or nobody_scores):
            if nobody_scores:
                return self._grant_refe(DealScore.zero(n), "2♠ not contra'd: nobody scores")
            o_kind: str = _NOT_WHISTED  # won without play
            notes.append("2♠ not contra'd: won without play")
        else:
            o_kind = o.kind
        if o_kind == _CONCEDED:
            raise ScoringError(f"{where}: only the 2♠ rule concedes a Croatian deal (2 with the talon, no refe, "
                               "no contra)")

        m_decl = refe * 2 ** max(contra)
        if o_kind == _NOT_WHISTED:
            if any(contra):
                raise ScoringError(f"{where}: contra in a deal nobody whisted")
            made = True
            pulya[decl] += v * m_decl
        else:
            tricks = o.tricks
            if len(tricks) != n or any(t < 0 for t in tricks):
                raise ScoringError(f"{where}: tricks must give one count ≥ 0 per seat, got {tricks!r}")
            side = sum(tricks[d] for d in defenders)
            if tricks[decl] + side > 10:
                raise ScoringError(f"{where}: more than 10 tricks ({tricks!r})")
            m = {d: refe * 2 ** contra[d] for d in defenders}
            if contract == HR_BETTEL:
                made = tricks[decl] == 0
                if not made:
                    per = 5 * v * (tricks[decl] if settings.bettel_per_trick else 1)
                    for d in defenders:
                        visty[d][decl] += per * m[d]
                self._contra_penalties(pulya, defenders, contra, m, v, made, set())
            else:
                cap = settings.defender_trick_cap
                if side > cap:
                    raise ScoringError(f"{where}: the defenders took {side} tricks; play stops at their "
                                       f"{cap}th (defender_trick_cap)")
                if o.stopped_early and side != cap:
                    raise ScoringError(f"{where}: play stopped early but the defenders have {side} tricks, "
                                       f"not {cap}")
                made = side <= 10 - 6  # the declarer needs six tricks
                if side + tricks[decl] != 10 and side != cap:
                    raise ScoringError(f"{where}: {side + tricks[decl]} tricks played without the defenders "
                                       f"reaching {cap}")
                penalised = self._defence(o, decl, defenders, contra, m, v, side, pulya, visty, where)
                self._contra_penalties(pulya, defenders, contra, m, v, made, penalised)
            pulya[decl] += v * m_decl if made else -v * m_decl
            if not made and settings.double_fail_at_end and v * m_decl > -sum(self.sheet.pulya, Fraction(0)):
                pulya[decl] -= v * m_decl   # duplo padanje: worth more than the columns lack, failed twice
                notes.append("failed double at the end")

        if self.refe[decl] and (made or settings.refe_consumed_on_fail):
            self.refe[decl] -= 1
            notes.append("refe used")
        if refe > 1 or max(contra):
            notes.append(f"x{m_decl}")
        notes.insert(0, "made" if made else "failed")
        return self._close(pulya, visty, decl, made, notes)

    def _defence(self, o: DealOutcome, decl: int, defenders: list[int], contra: list[int], m: dict[int, int],
                 v: int, side: int, pulya: list[Fraction], visty: list[list[Fraction]], where: str) -> set[int]:
        """Juha and flat whister penalties for a trick contract or Sanac; returns the penalised seats."""
        calls = o.calls
        if calls:
            whisters = [d for d in defenders if calls[d] in (CALL_WHIST, CALL_INVITE)]
        else:
            whisters = list(defenders)  # paper record without calls: both played
        if not whisters:
            raise ScoringError(f"{where}: a played deal needs a whister (else record it as not whisted)")
        for d in defenders:
            if d not in whisters and contra[d]:
                raise ScoringError(f"{where}: seat {d} did not whist and cannot contra")
        if o.contract not in self.settings.whist_obligation:
            raise ScoringError(f"{where}: whist_obligation names no quota for contract {o.contract}")
        tricks = o.tricks
        if len(whisters) >= 2:
            for d in whisters:
                visty[d][decl] += tricks[d] * v * m[d]
        else:
            w = whisters[0]
            others = [d for d in defenders if d != w]
            invited = o.invited
            if invited == NO_SEAT and others and (calls and calls[w] == CALL_INVITE or contra[w]):
                invited = others[0]  # an invitation, or a lone whister's contra (automatic invitation)
            if invited != NO_SEAT and invited not in others:
                raise ScoringError(f"{where}: seat {invited} cannot be invited (not the passing defender)")
            visty[w][decl] += (side if invited != NO_SEAT else tricks[w]) * v * m[w]
        penalised = {d for d, li in self.whist_liability(o).items() if li.short}
        for d in penalised:
            pulya[d] -= v * m[d]
        return penalised

    def _contra_penalties(self, pulya: list[Fraction], defenders: list[int], contra: list[int], m: dict[int, int],
                          v: int, made: bool, penalised: set[int]) -> None:
        """A contra-er pays V·m_d when the contract is made (once: not on top of a whist penalty)."""
        if not (made and self.settings.contra_fail_penalty):
            return
        for d in defenders:
            if contra[d] >= 1 and d not in penalised:
                pulya[d] -= v * m[d]

    def _close(self, pulya: list[Fraction], visty: list[list[Fraction]], decl: int, made: bool,
               notes: list[str]) -> DealScore:
        """Apply the end-of-pulka rule: cut an overshooting made contract to reach exactly zero."""
        total = sum(self.sheet.pulya, Fraction(0))
        new_total = total + sum(pulya, Fraction(0))
        if new_total > 0 and made and self.settings.overshoot_proportional and pulya[decl] > 0:
            full = pulya[decl]
            pulya[decl] = full - new_total
            ratio = pulya[decl] / full
            for row in visty:
                for j in range(self.n):
                    row[j] *= ratio
            notes.append(f"last deal cut to {pulya[decl]} of {full}")
        ds = DealScore(tuple(_num(x) for x in pulya), (0,) * self.n,
                       tuple(tuple(_num(x) for x in row) for row in visty), "; ".join(notes))
        return ds

    def _apply(self, ds: DealScore, deal: int) -> None:
        before = self.under_hat
        self.sheet.add(ds)
        self.deals.append(ds)
        after = self.under_hat
        for i in range(self.n):
            if before[i] != after[i]:
                self.hat_marks.append(HatMark(deal, i, after[i]))
        if sum(self.sheet.pulya) >= 0:
            self._finished = True

    # -- settlement ----------------------------------------------------
    def settlement(self) -> Settlement:
        """``10 × (column − mean) + juha written − juha received`` per player (exact; sums to zero)."""
        sheet = self.sheet
        gora = [-c for c in sheet.pulya]
        s = settle([0] * self.n, gora, sheet.visty, self.rules)
        return Settlement(exact=s.exact, method1=round_zero_sum(s.exact), method2=s.method2)


def _refe_limit(refe_max: tuple[tuple[int, int], ...], start: int) -> int:
    table = dict(refe_max)
    if not table:
        return 0
    if start in table:
        return table[start]
    lower = [k for k in table if k <= start]
    return table[max(lower)] if lower else table[min(table)]


def _noted(ds: DealScore, note: str) -> DealScore:
    return DealScore(ds.pulya, ds.gora, ds.visty, note)


