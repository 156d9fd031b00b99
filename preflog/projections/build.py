"""Projections: three flat Arrow tables derived from :class:`PulkaFacts`, for SQL reports.

* ``deals`` — one row per deal (kind, declarer, contract, whist pattern, tricks, made …);
* ``player_deals`` — one row per player per deal (role, hand, tricks, whist obligation,
  pulya/gora/visty deltas, the deal's value in visty);
* ``pulka_results`` — one row per player per pulka (totals and settlement).

Small ints are stored as int8/int16 and every table is sorted by (pulka, deal, seat) so
Parquet statistics prune by pulka and scans stay cheap (see ``benchmarks/reports.py``).
Amounts that may be fractions (Rostov halves) are stored as float64; exact settlement
values are also kept as ``"n/d"`` text.

Every rule (contract price, made or failed, the whist liability allocation, what a deal is worth)
is read from the family's scorer (:mod:`preflog.scoring.terms`), never derived here.

Stored next to the events by :func:`preflog.projections.store.refresh`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from collections.abc import Sequence
from fractions import Fraction
from typing import TypeGuard

import pyarrow as pa

from ..engine.families import family_of
from ..model.calls import CALL_HALF
from ..model.calls import CALL_INVITE
from ..model.calls import CALL_PASS
from ..model.calls import CALL_WHIST
from ..model.outcome import NO_SEAT
from ..model.outcome import DealKind
from ..model.outcome import DealOutcome
from ..rules.config import Rules
from ..scoring.base import Scorer
from ..scoring.sheet import DealScore
from ..scoring.sheet import Number
from ..scoring.terms import ContractTerms
from ..scoring.terms import ValueRates
from .facts import FactsError
from .facts import PulkaFacts

# Roles of a player in one deal (``player_deals.role``).
DECLARER = "declarer"
WHISTER = "whister"            # said whist (Croatian: plays, or invites)
PASSER = "passer"              # passed the whist (incl. the invited Croatian partner)
HALF_WHISTER = "half_whister"  # half-whist ("полвиста") that stood
DEFENDER = "defender"          # opponent without a whist decision: miser, Sochi ten-game check
RASPASY_ROLE = "raspasy"       # played raspasy
ALL_PASS_ROLE = "all_pass"     # Croatian all-pass (refe), no play
OUT = "out"                    # the sitting-out dealer at a 4-player table

_CALL_LETTER = {CALL_WHIST: "W", CALL_PASS: "P", CALL_HALF: "H", CALL_INVITE: "I"}

DEALS_SCHEMA = pa.schema([
    ("pulka", pa.string()), ("deal", pa.int16()), ("preset", pa.string()), ("rules_spec", pa.string()),
    ("family", pa.string()), ("date", pa.date32()), ("n_players", pa.int8()),
    ("dealer", pa.int8()), ("dealer_name", pa.string()), ("kind", pa.string()),
    ("declarer", pa.int8()), ("declarer_name", pa.string()),
    ("rel_seat", pa.int8()),            # declarer's hand counted from the dealer: 1 = first hand
    ("contract", pa.int16()), ("contract_label", pa.string()), ("level", pa.int8()), ("strain", pa.string()),
    ("is_miser", pa.bool_()), ("hand_game", pa.bool_()),
    ("whist_pattern", pa.string()), ("half_whist_returned", pa.bool_()), ("open_play", pa.bool_()),
    ("checked", pa.bool_()), ("paper", pa.bool_()), ("stopped_early", pa.bool_()), ("contra", pa.int8()),
    ("tricks", pa.list_(pa.int8())), ("declarer_tricks", pa.int8()), ("defender_tricks", pa.int8()),
    ("made", pa.bool_()), ("undertricks", pa.int8()),
    ("price", pa.int16()),              # game value V (pulya for a made contract), Croatian 2n / 2(n+1)
    ("declarer_value", pa.float64()),   # the deal's value in visty to the declarer
    ("note", pa.string()),
])

PLAYER_DEALS_SCHEMA = pa.schema([
    ("pulka", pa.string()), ("deal", pa.int16()), ("preset", pa.string()), ("family", pa.string()),
    ("date", pa.date32()), ("n_players", pa.int8()),
    ("player", pa.string()), ("seat", pa.int8()),
    ("rel_seat", pa.int8()),            # 1 = first hand … n = dealer (3p: third hand; 4p: sits out)
    ("role", pa.string()), ("kind", pa.string()),
    ("contract", pa.int16()), ("contract_label", pa.string()), ("level", pa.int8()),
    ("is_miser", pa.bool_()), ("hand_game", pa.bool_()), ("made", pa.bool_()),
    ("tricks", pa.int8()),
    ("obligation", pa.int8()),          # tricks this whister answers for (null: no obligation)
    ("shortfall", pa.int8()),           # missing tricks he is penalised for
    ("obligation_met", pa.bool_()),
    ("pulya", pa.float64()), ("gora", pa.float64()),
    ("visty_written", pa.float64()), ("visty_received", pa.float64()),
    ("visty", pa.float64()),            # written minus received
    ("value", pa.float64()),            # the deal's value in visty (DealScore.value, + contract column if HR)
])

PULKA_RESULTS_SCHEMA = pa.schema([
    ("pulka", pa.string()), ("preset", pa.string()), ("rules_spec", pa.string()), ("family", pa.string()),
    ("date", pa.date32()), ("n_players", pa.int8()), ("deals", pa.int16()),
    ("player", pa.string()), ("seat", pa.int8()),
    ("pulya", pa.float64()), ("gora", pa.float64()),
    ("visty_written", pa.float64()), ("visty_received", pa.float64()), ("visty", pa.float64()),
    ("value_total", pa.float64()),      # sum of the deals' values
    ("settled", pa.bool_()),
    ("exact", pa.float64()), ("exact_text", pa.string()),
    ("method1", pa.int32()), ("method2", pa.int32()),
    ("money", pa.float64()), ("money_text", pa.string()),
    ("result", pa.float64()),           # exact if settled, else value_total
])

SCHEMAS: dict[str, pa.Schema] = {
    "deals": DEALS_SCHEMA, "player_deals": PLAYER_DEALS_SCHEMA, "pulka_results": PULKA_RESULTS_SCHEMA,
}


def frac_text(x: Fraction | int) -> str:
    """Exact text of a settlement value: ``"92/3"``, ``"-31"``."""
    return str(Fraction(x))


def _date(facts: PulkaFacts) -> dt.date | None:
    if facts.date is None:
        return None
    try:
        return dt.date.fromisoformat(facts.date[:10])
    except ValueError:
        raise FactsError(f"pulka {facts.pulka!r}: date {facts.date!r} is not ISO (YYYY-MM-DD…)") from None


def _rel_seat(seat: int, dealer: int, n: int) -> int:
    """Hand in bidding order: 1 = first hand (dealer's left) … n = the dealer."""
    return (seat - dealer - 1) % n + 1


def _defenders(o: DealOutcome) -> list[int]:
    """The declarer's opponents in speaking order (left of the declarer first), dealer-out skipped."""
    n = o.n_players
    seats = set(o.seats)
    return [s for s in ((o.declarer + k) % n for k in range(1, n)) if s in seats]


class _Columns:
    """Rows of one table as tuples in schema order, turned into a typed Arrow table at the end
    (one tuple a row and a C-level transpose: far fewer Python objects than a dict per row)."""

    __slots__ = ("schema", "rows")

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self.rows: list[tuple[object, ...]] = []

    def add(self, **row: object) -> None:
        self.rows.append(tuple(row[name] for name in self.schema.names))

    def table(self) -> pa.Table:
        names = self.schema.names
        cols: list[Sequence[object]] = list(zip(*self.rows, strict=True)) if self.rows else [() for _ in names]
        return pa.table({n: pa.array(c, type=self.schema.field(n).type) for n, c in zip(names, cols, strict=True)},
                        schema=self.schema)


def _value(score: DealScore, seat: int, rates: ValueRates) -> Fraction:
    """The deal's value in visty to ``seat``: :meth:`DealScore.value` at the scorer's gora rate, plus
    the pulya's share at its pulya rate (× (Δpulya_i − mean Δpulya); the Croatian contract column, C6)."""
    v = score.value(seat, rates.gora)
    if rates.pulya:
        n = len(score.pulya)
        v += rates.pulya * (Fraction(score.pulya[seat]) - Fraction(sum(score.pulya), n))
    return v


def _ints(values: Sequence[Number]) -> TypeGuard[Sequence[int]]:
    """Whether every amount is a plain int (no Fraction, no bool)."""
    return all(type(x) is int for x in values)


def _scaled_values(score: DealScore, rates: ValueRates, written: list[Number], received: list[Number]
                   ) -> list[int] | None:
    """``n`` × :func:`_value` of every seat as exact ints when every amount is an int (nearly
    always: only Rostov halves and gentleman's whists write fractions), else ``None``.

    The value is (n·net + g·(Σgora − n·gora_i) [+ p·(n·pulya_i − Σpulya)]) / n, so its float is this
    int ÷ n — the same correctly rounded float as ``float(Fraction)``, without any Fraction.
    """
    gp, pp = rates.gora, rates.pulya
    if type(gp) is not int or type(pp) is not int:
        return None
    pulya, gora = score.pulya, score.gora
    if not (_ints(pulya) and _ints(gora) and _ints(written) and _ints(received)):
        return None
    n = len(gora)
    sum_g, sum_p = sum(gora), sum(pulya)
    out = [n * (written[s] - received[s]) + gp * (sum_g - n * gora[s]) for s in range(n)]
    if pp:
        out = [out[s] + pp * (n * pulya[s] - sum_p) for s in range(n)]
    return out


class _PulkaTotals:
    """Per-seat sums over a pulka's deals, exact: ints while every deal is whole, Fractions after."""

    __slots__ = ("pulya", "gora", "written", "received", "value_n", "value_frac")

    def __init__(self, n: int) -> None:
        self.pulya: list[Number] = [0] * n
        self.gora: list[Number] = [0] * n
        self.written: list[Number] = [0] * n
        self.received: list[Number] = [0] * n
        self.value_n: list[int] = [0] * n            # n × the values of the int-path deals
        self.value_frac: list[Number] | None = None  # the values of the other deals, exact

    def value(self, seat: int, n: int) -> float:
        if self.value_frac is None:
            return self.value_n[seat] / n
        return float(Fraction(self.value_n[seat], n) + self.value_frac[seat])


def project(facts: PulkaFacts) -> dict[str, pa.Table]:
    """The three projection tables of one pulka."""
    return project_many([facts])


def project_many(facts: Iterable[PulkaFacts]) -> dict[str, pa.Table]:
    """The projection tables of several pulkas, concatenated (rows in input order)."""
    deals, pds, res = (_Columns(DEALS_SCHEMA), _Columns(PLAYER_DEALS_SCHEMA), _Columns(PULKA_RESULTS_SCHEMA))
    scorers: dict[tuple[str, int], tuple[Rules, Scorer]] = {}  # a bulk import has a handful of distinct specs
    contracts: dict[tuple[object, ...], ContractTerms | None] = {}
    for f in facts:
        key = (f.rules_spec, f.n_players)
        got = scorers.get(key)
        if got is None:
            rules = f.rules()
            try:
                got = scorers[key] = (rules, family_of(rules).scorer(rules, f.n_players, f.pool or 0))
            except ValueError as e:
                raise FactsError(f"pulka {f.pulka!r}: no scorer for rules {f.rules_spec!r} ({e})") from e
        _project_into(f, *got, deals.rows, pds.rows, res.rows, contracts)
    return {"deals": deals.table(), "player_deals": pds.table(), "pulka_results": res.table()}


def _project_into(facts: PulkaFacts, rules: Rules, scorer: Scorer, deals: list[tuple[object, ...]],
                  pds: list[tuple[object, ...]], res: list[tuple[object, ...]],
                  contracts: dict[tuple[object, ...], ContractTerms | None]) -> None:
    n = facts.n_players
    date = _date(facts)
    names = facts.players
    fam = rules.family
    totals = _PulkaTotals(n)
    rates = scorer.value_rates()
    for o, score in facts.deals:
        try:
            _project_deal(facts, rules, scorer, rates, o, score, date, deals, pds, totals, contracts)
        except FactsError:
            raise
        except (IndexError, KeyError, ValueError, TypeError) as e:
            raise FactsError(f"pulka {facts.pulka!r} deal {o.deal}: cannot project ({e})") from e
    st = facts.settlement
    n_deals = len(facts.deals)
    for seat in range(n):
        written, received = totals.written[seat], totals.received[seat]
        value_total = totals.value(seat, n)
        exact = st.exact[seat] if st else None
        money = st.money[seat] if st and st.money else None
        res.append((
            facts.pulka, facts.preset, facts.rules_spec, fam, date, n, n_deals, names[seat], seat,
            float(totals.pulya[seat]), float(totals.gora[seat]),
            float(written), float(received), float(written - received),
            value_total, st is not None,
            None if exact is None else float(exact), None if exact is None else frac_text(exact),
            st.method1[seat] if st else None, st.method2[seat] if st else None,
            None if money is None else float(money), None if money is None else frac_text(money),
            float(exact) if exact is not None else value_total,
        ))


def _contract(o: DealOutcome, scorer: Scorer, cache: dict[tuple[object, ...], ContractTerms | None]
              ) -> ContractTerms | None:
    """The scorer's :class:`ContractTerms` of a deal (None without a declared contract), shared by every
    deal with the same inputs (read-only)."""
    key = (id(scorer), o.contract, o.hand_game)
    if key in cache:
        return cache[key]
    c = cache[key] = scorer.contract_terms(o.contract, o.hand_game) if o.contract != 0 else None
    return c


def _project_deal(facts: PulkaFacts, rules: Rules, scorer: Scorer, rates: ValueRates, o: DealOutcome,
                  score: DealScore, date: dt.date | None, deals: list[tuple[object, ...]],
                  pds: list[tuple[object, ...]], totals: _PulkaTotals,
                  contracts: dict[tuple[object, ...], ContractTerms | None]) -> None:
    n = o.n_players
    names = facts.players
    tricks = tuple(o.tricks) if o.tricks else (0,) * n
    if len(tricks) != n:
        raise FactsError(f"pulka {facts.pulka!r} deal {o.deal}: {len(tricks)} trick counts for {n} seats")
    has_decl = o.declarer != NO_SEAT
    c = _contract(o, scorer, contracts) if has_decl else None
    defenders = _defenders(o) if has_decl else []
    calls = o.calls if o.calls else (-1,) * n
    pattern = ""
    made: bool | None = None
    under: int | None = None
    decl_tricks: int | None = None
    def_tricks: int | None = None
    kind = o.kind
    no_tricks = c.no_tricks if c is not None else kind == DealKind.MISER
    if has_decl:
        if not no_tricks:
            pattern = "".join(_CALL_LETTER.get(calls[d], "-") for d in defenders)
        decl_tricks = tricks[o.declarer]
        def_tricks = sum(tricks[d] for d in defenders)
        result = scorer.deal_result(o)
        if result is not None:
            made, under = result.made, result.undertricks
    oblig = scorer.whist_liability(o) if has_decl else {}

    visty = score.visty
    written: list[Number] = [sum(row) for row in visty]
    received: list[Number] = [sum(col) for col in zip(*visty, strict=True)] if visty else [0] * n
    if len(written) != n or len(received) != n:
        raise IndexError(f"visty has {len(written)}×{len(received)} entries for {n} seats")
    scaled = _scaled_values(score, rates, written, received)
    if scaled is not None:
        values: list[float] = [a / n for a in scaled]
        tv = totals.value_n
        for s in range(n):
            tv[s] += scaled[s]
    else:
        exact_values = [_value(score, s, rates) for s in range(n)]
        values = [float(v) for v in exact_values]
        if totals.value_frac is None:
            totals.value_frac = [0] * n
        vf = totals.value_frac
        for s in range(n):
            vf[s] += exact_values[s]
    pulya, gora = score.pulya, score.gora
    tp, tg, tw, tr = totals.pulya, totals.gora, totals.written, totals.received
    for s in range(n):
        tp[s] += pulya[s]
        tg[s] += gora[s]
        tw[s] += written[s]
        tr[s] += received[s]

    pulka, preset, fam, deal = facts.pulka, facts.preset, rules.family, o.deal
    contract = o.contract if has_decl else None
    is_miser = no_tricks if has_decl else None
    label, level, strain, price = (c.label, c.level, c.strain, c.price) if c is not None else (None, None, None, None)
    deals.append((
        pulka, deal, preset, facts.rules_spec, fam, date, n, o.dealer, names[o.dealer], kind,
        o.declarer if has_decl else None, names[o.declarer] if has_decl else None,
        _rel_seat(o.declarer, o.dealer, n) if has_decl else None,
        contract, label, level, strain, is_miser, o.hand_game,
        pattern, o.returner != NO_SEAT, o.open_play,
        o.checked, o.paper, o.stopped_early, max(o.contra, default=0),
        list(tricks), decl_tricks, def_tricks, made, under,
        price, values[o.declarer] if has_decl else None, score.note,
    ))
    active = o.seats
    for s in range(n):
        if s not in active:
            role = OUT
        elif kind == DealKind.RASPASY:
            role = RASPASY_ROLE
        elif kind == DealKind.ALL_PASS:
            role = ALL_PASS_ROLE
        elif s == o.declarer:
            role = DECLARER
        elif kind == DealKind.HALF_WHIST and s == o.half_whister:
            role = HALF_WHISTER
        elif calls[s] in (CALL_WHIST, CALL_INVITE):
            role = WHISTER
        elif calls[s] == CALL_PASS:
            role = PASSER
        elif calls[s] == CALL_HALF:
            role = HALF_WHISTER
        else:
            role = DEFENDER
        ob = oblig.get(s)
        w, r = written[s], received[s]
        pds.append((
            pulka, deal, preset, fam, date, n, names[s], s, _rel_seat(s, o.dealer, n), role, kind,
            contract, label, level, is_miser, o.hand_game, made, tricks[s],
            ob.quota if ob else None, ob.short if ob else None, (ob.short == 0) if ob else None,
            float(pulya[s]), float(gora[s]), float(w), float(r), float(w - r), values[s],
        ))
