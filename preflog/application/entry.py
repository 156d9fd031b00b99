"""Live entry at paper level: what a person taps for one deal, turned into the events the record's paper
level writes (docs/record-format.md, "Deal blocks"), and checked by the engine's own audit.

A deal is entered as on the paper sheet: a contract and its declarer (or a deal everybody passed:
raspasy, or the Croatian refe), each defender's call, the contra chain where the family has one, and
the tricks taken. What the family's sheets write is the family's own (:class:`~preflog.engine.families.
EntryTerms`: its contracts, games from hand, which contracts the defenders call on and with which words).
:func:`deal_events` writes it as ``DealStarted``, ``BidMade`` (a game from hand, an all-pass),
``ContractDeclared``, ``WhistCalled``, ``ContraCalled`` … and ``PaperResult``, exactly the events the
record's ``Auction:``, ``Contract:``, ``Whist:`` and ``Tricks:`` lines read to. The app runs
:func:`preflog.engine.replay.audit` on the log with the new deal appended, and the findings the new deal
caused (:func:`refusals`) refuse it: an impossible entry is refused with the audit's own sentence (no rule
is checked here a second time). Only the *shape* of the entry (seats at the table, whole numbers, a
contract and calls the family's entry offers) is checked before that.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from ..engine.corrections import DealFate
from ..engine.corrections import effective_positions
from ..engine.families import EntryContract
from ..engine.families import Lang
from ..engine.families import SheetWords
from ..engine.families import family_of
from ..engine.findings import Finding
from ..engine.findings import IllegalAction
from ..engine.replay import Auditor
from ..engine.replay import AuditResult
from ..errors import PreflogError
from ..model.bidcodes import PASS
from ..model.bids import BidError
from ..model.calls import CALL_CONCEDE
from ..model.calls import CALL_HALF
from ..model.calls import CALL_NAMES
from ..model.calls import CALL_PASS
from ..model.calls import CALL_WHIST
from ..model.calls import PLAY_CLOSED
from ..model.calls import PLAY_OPEN
from ..model.calls import parse_call
from ..model.columns import RowColumns
from ..model.events import BidMade
from ..model.events import ContraCalled
from ..model.events import ContractDeclared
from ..model.events import DealCorrected
from ..model.events import DealStarted
from ..model.events import Event
from ..model.events import PaperResult
from ..model.events import PlayModeChosen
from ..model.events import WhistCalled
from ..model.outcome import bidding_order
from ..record.api import write_text
from ..render.sheet_svg import name_forms
from ..render.sheet_svg import text_width
from ..rules.config import Rules

MOST_TRICKS = 10  # a number a trick box can hold (the audit checks the sum against the deal)
ALL_TRICKS = 10  # the tricks of a deal played out: the seats dealt in take them all


class EntryError(PreflogError):
    """An entry that is not a deal at all (a seat not at the table, a word where a number goes)."""


MOST_CONTRA = 8  # contra calls in one deal's chain (each doubles the stake once more)


class DealKindEntered(StrEnum):
    CONTRACT = "contract"  # a contract (a trick game, a misère, a Croatian game) and its declarer
    RASPASY = "raspasy"    # everybody passed: raspasy (tricks per player) or refe (no play), as the family says


_KIND_WORDS = {"refe": DealKindEntered.RASPASY, "all_pass": DealKindEntered.RASPASY}
"""Other names of a deal everybody passed, as the page of another family may send it."""


class CallEntered(StrEnum):
    """A defender's call, by its name in the one table of call words (:data:`preflog.model.calls.CALL_NAMES`)."""

    WHIST = "whist"
    PASS = "pass"
    HALF = "half"  # a half-whist, written as on the sheet: no tricks follow (unless returned: DealEntry.returned_by)
    INVITE = "invite"  # Croatian: a lone whister invites his partner («zovem»)

    @property
    def code(self) -> int:
        return parse_call(self.value)


class PlayEntered(StrEnum):
    """How the lone whister plays: his cards and his partner's open on the table, or closed (the record's
    ``Whist: …, B open`` / ``B closed``)."""

    OPEN = "open"
    CLOSED = "closed"


_MODE_CODES = {PlayEntered.OPEN: PLAY_OPEN, PlayEntered.CLOSED: PLAY_CLOSED}


@dataclass(frozen=True, slots=True)
class DealEntry:
    kind: DealKindEntered
    dealer: int | None = None
    declarer: int | None = None
    contract: str | None = None
    calls: tuple[tuple[int, CallEntered], ...] = ()
    """Each defender's call, by seat; they are written in the order the defenders call, after the declarer."""
    tricks: tuple[int | None, ...] | None = None
    """The tricks each seat took; ``None`` a count not entered (the one left is what the others leave of
    :data:`ALL_TRICKS`: :func:`tricks_taken`)."""
    contra: tuple[int, ...] = ()
    """The contra chain, by the seat of each call in order (kontra, rekontra …), where the family has one."""
    returned_by: int | None = None
    """Who whisted after the first calls: the defender who passed, returning a half-whist (the record's
    ``return``), or at four players the sitting-out dealer (returning a half-whist after the passer let it
    go, or whisting after both defenders passed where the rules let him)."""
    mode: PlayEntered | None = None
    """The lone whister's open or closed play, where the rules let him choose (none: nothing written)."""
    conceded: bool = False
    """The declarer conceded down three («без трёх») before play: no tricks follow."""

    @classmethod
    def from_json(cls, data: Any, n: int) -> DealEntry:
        """The entry a page sent, its shape checked (``n``: players at the table)."""
        if not isinstance(data, Mapping):
            raise EntryError("an entry is a JSON object")
        try:
            kind = _KIND_WORDS.get(str(data.get("kind"))) or DealKindEntered(str(data.get("kind")))
        except ValueError:
            raise EntryError("kind is 'contract', or 'raspasy' (or 'refe') for a deal everybody passed") from None
        dealer = _seat(data.get("dealer"), n, "dealer", optional=True)
        tricks_in = data.get("tricks")
        tricks: tuple[int | None, ...] | None = None
        if tricks_in is not None:
            if (not isinstance(tricks_in, list) or len(tricks_in) != n
                    or not all(t is None or (type(t) is int and 0 <= t <= MOST_TRICKS) for t in tricks_in)):
                raise EntryError(f"tricks are {n} whole numbers from 0 to {MOST_TRICKS}, one per player "
                                 "(null: not entered)")
            tricks = tuple(tricks_in)
        if kind is DealKindEntered.RASPASY:
            return cls(kind, dealer, tricks=tricks)
        declarer = _seat(data.get("declarer"), n, "declarer")
        contract = data.get("contract")
        if not isinstance(contract, str) or not contract or len(contract) > 20:
            raise EntryError("a contract is needed (e.g. 6s, 7NT, miser; Croatian 4, igra 4, bettel)")
        contra_in = data.get("contra") or []
        if not isinstance(contra_in, list) or len(contra_in) > MOST_CONTRA:
            raise EntryError(f"contra is a list of at most {MOST_CONTRA} seats, one per call in order")
        contra = tuple(_seat(s, n, "a contra call's seat") or 0 for s in contra_in)
        calls_in = data.get("calls") or {}
        if not isinstance(calls_in, Mapping):
            raise EntryError("calls are an object: seat → whist or pass")
        calls: list[tuple[int, CallEntered]] = []
        for seat_text, call in calls_in.items():
            seat = _seat(int(seat_text) if isinstance(seat_text, str) and seat_text.isdigit() else seat_text,
                         n, "a defender")
            assert seat is not None
            try:
                calls.append((seat, CallEntered(call)))
            except ValueError:
                raise EntryError("a defender's call is 'whist', 'pass', 'half' or 'invite'") from None
        return cls(kind, dealer, declarer, contract, tuple(sorted(calls)), tricks, contra,
                   **_paper_extras(data, n))


def _paper_extras(data: Mapping[str, Any], n: int) -> dict[str, Any]:
    """The parts of a contract's entry after its calls: a returned whist, open or closed, a concession."""
    out: dict[str, Any] = {"returned_by": _seat(data.get("returned_by"), n, "returned_by", optional=True)}
    mode = data.get("mode")
    if mode is not None:
        try:
            out["mode"] = PlayEntered(mode)
        except ValueError:
            raise EntryError("mode is 'open' or 'closed'") from None
    conceded = data.get("conceded", False)
    if type(conceded) is not bool:
        raise EntryError("conceded is true or false")
    out["conceded"] = conceded
    return out


def _seat(value: Any, n: int, what: str, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if type(value) is not int or not 0 <= value < n:
        raise EntryError(f"{what} is a seat of this table (0 to {n - 1})")
    return value


@dataclass(frozen=True, slots=True)
class Table:
    """Where a running pulka stands, as the engine sees it after its last event."""

    players: tuple[str, ...]
    rules: Rules | None
    dealers: tuple[int, ...]
    """Who may deal the next deal (the rotation's one seat; any seat before the first deal)."""
    ended: bool

    @property
    def dealer(self) -> int | None:
        """The next deal's dealer: the rotation's, or before the first deal the last seat (so that the
        first seat is first hand)."""
        return self.dealers[-1] if self.dealers else None

    def seats_in(self, dealer: int) -> tuple[int, ...]:
        """The seats dealt in, clockwise from first hand (the engine's seating)."""
        return bidding_order(len(self.players), dealer)

    def contracts(self) -> list[dict[str, Any]]:
        """The contracts the family's live entry offers, in its order, each with the defenders' calls on it
        (by name; none: nobody calls) and ``whist`` whether there are any."""
        if self.rules is None:
            return []
        return [{"text": c.text, "calls": [CALL_NAMES[k] for k in c.calls], "whist": bool(c.calls)}
                for c in family_of(self.rules).entry_contracts(self.rules.name)]

    def terms(self, spec: str | None = None, lang: Lang = Lang.EN) -> dict[str, Any]:
        """The words and choices of the family's entry page (``spec``: the pulka's rules spec, for a preset's
        own words; ``lang``: the sheet's words of the page's language): each call's word by name, the name of
        a deal everybody passed and whether it is played for tricks, the contra chain's words, the points the
        sheet counts in."""
        if self.rules is None:
            return {}
        family = family_of(self.rules)
        terms = family.entry_terms(spec or self.rules.name)
        if terms is None:
            return {}
        words = family.sheet.words(spec, lang)
        all_pass = words.all_pass
        return {"calls": {CALL_NAMES[k]: w for k, w in terms.call_words.items()},
                "all_pass": all_pass[:1].upper() + all_pass[1:], "all_pass_tricks": terms.all_pass_tricks,
                "contra": list(terms.contra_words), "settle": settle_columns(words), "points": words.points,
                "names": table_names(self.players)}


NAME_PIECE = 104.0
"""The widest piece of a name (between spaces, or up to a hyphen) the player column of the pulka page's
tables takes at 14 px, so that a table of four results fits a phone 390 px wide."""


def table_names(players: Sequence[str]) -> list[str]:
    """Each player's name as the pulka page's tables write it, as the drawn sheet shortens names: the
    richest of the sheet's forms of it (:func:`name_forms`: the full name, first name and initials, …)
    whose every piece fits :data:`NAME_PIECE`, so the column wraps between pieces (the shortest form else)."""
    forms = name_forms(list(players))

    def fits(name: str) -> bool:
        return all(text_width(piece, 14) <= NAME_PIECE for piece in re.split(r"\s+|(?<=-)", name) if piece)

    return [next((f for f in forms[p] if fits(f)), forms[p][-1]) for p in players]


def settle_columns(words: SheetWords) -> list[list[str]]:
    """The settlement table's columns as the family's sheet settles: ``[key, heading]`` for the player
    (``player``) and each result (keys of ``sheet_json``'s ``settlement``): exactly (in the family's
    points), by the two paper methods where the family's sheet rounds by them, and in money."""
    methods = [["method1", words.method1], ["method2", words.method2]] if words.paper_methods else []
    return [["player", words.player], ["exact", f"{words.exact} ({words.points})"], *methods, ["money", words.money]]


def standing(events: Sequence[Event]) -> tuple[Table, AuditResult]:
    """Audit ``events`` (the engine's one replay, corrections applied) and say where the pulka stands."""
    a = Auditor()
    evs = list(events)
    result = a.run(RowColumns.of_rows([ev.to_row() for ev in evs]), evs)
    p = a.pulka
    if p is None or a.fatal:
        return Table((), None, (), True), result
    dealers = tuple(d for d in range(p.n) if p.can_start_deal(d))
    return Table(tuple(p.players), p.rules, dealers, bool(p.ended)), result


def table_of(events: Sequence[Event]) -> Table:
    """Where the pulka of ``events`` stands (:func:`standing` without the audit's result)."""
    return standing(events)[0]


def deal_events(entry: DealEntry, table: Table) -> list[Event]:
    """The events of one paper-level deal, as the record reader writes them."""
    if table.rules is None or table.dealer is None:
        raise EntryError("the pulka cannot take another deal")
    family = family_of(table.rules)
    terms = family.entry_terms(table.rules.name)
    if terms is None:
        raise EntryError(f"live entry does not take {family.name} deals")
    dealer = entry.dealer if entry.dealer is not None else table.dealer
    seats = table.seats_in(dealer)
    out: list[Event] = [DealStarted(dealer=dealer)]
    if entry.kind is DealKindEntered.RASPASY:
        if terms.all_pass_tricks and entry.tricks is None:
            raise EntryError("raspasy needs the tricks each player took")
        if not terms.all_pass_tricks and entry.tricks is not None:
            raise EntryError("a deal everybody passed is not played here: no tricks are entered for it")
        if terms.all_pass_auction:
            out += [BidMade(player=s, bid=PASS) for s in seats]
    if entry.kind is DealKindEntered.CONTRACT:
        assert entry.declarer is not None and entry.contract is not None
        try:
            chosen = family.entry_contract(entry.contract, table.rules.name)
        except BidError as exc:
            raise EntryError(str(exc)) from None
        out += _hand_auction(chosen, entry.declarer, seats)
        out.append(ContractDeclared(player=entry.declarer, contract=chosen.contract))
        offered = {CALL_NAMES[k] for k in chosen.calls}
        wrong = [c for _, c in entry.calls if c.value not in offered]
        if wrong:
            words = [terms.call_words.get(k, CALL_NAMES[k]) for k in chosen.calls]
            said = " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)
            raise EntryError(f"on {chosen.text} " + (f"a defender's call is {said}" if said else "no defender calls"))
        calls = dict(entry.calls)
        if entry.declarer in seats:  # defenders in turn after the declarer
            k = seats.index(entry.declarer)
            order = seats[k + 1:] + seats[:k]
        else:
            order = tuple(s for s in sorted(calls))
        silent = [s for s in order if s not in calls]
        if silent and not entry.conceded and _defended(table.rules, len(table.players), chosen.contract):
            words = [terms.call_words.get(k, CALL_NAMES[k]) for k in chosen.calls]
            raise EntryError(f"no call from {_named(silent, table.players)} on {chosen.text}: "
                             f"tap {' or '.join(words[:2])} for each defender")
        in_turn = [(s, calls[s].code) for s in order if s in calls]
        in_turn += [(s, c.code) for s, c in entry.calls if s not in order]
        out += [WhistCalled(player=s, call=c) for s, c in terms.spoken(in_turn)]
        out += _after_calls(entry, order)
        if entry.contra and not terms.contra_words:
            raise EntryError(f"{family.name} rules have no contra")
        out += [ContraCalled(player=s) for s in entry.contra]
    if entry.tricks is not None:
        out.append(PaperResult(tricks=tricks_taken(entry.tricks, seats, table.players)))
    return out


def _named(seats: Sequence[int], players: Sequence[str]) -> str:
    names = [players[s] for s in seats]
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def tricks_taken(tricks: Sequence[int | None], seats: Sequence[int], players: Sequence[str]) -> tuple[int, ...]:
    """Each seat's tricks, the counts not entered (``None``) filled in where the others determine them:
    a seat not dealt in took none, and the one seat dealt in left blank took what the others leave of
    :data:`ALL_TRICKS`. Two or more left blank (or more than 10 entered) is an :class:`EntryError` that
    names them.

    >>> tricks_taken([4, None, 3], (0, 1, 2), ("Ann", "Bob", "Cid"))
    (4, 3, 3)
    >>> tricks_taken([None, 6, None, None], (1, 2, 3), ("Ann", "Bob", "Cid", "Dan"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    preflog.application.entry.EntryError: the tricks of Cid and Dan are not entered: tap them (the last ...
    """
    missing = [s for s in seats if tricks[s] is None]
    if len(missing) > 1:
        raise EntryError(f"the tricks of {_named(missing, players)} are not entered: tap them "
                         "(the last count is filled in from the others)")
    taken = [t or 0 for t in tricks]
    if missing:
        left = ALL_TRICKS - sum(taken)
        if left < 0:
            raise EntryError(f"the tricks entered come to {sum(taken)}, more than the {ALL_TRICKS} of a deal")
        taken[missing[0]] = left
    return tuple(taken)


def _hand_auction(chosen: EntryContract, declarer: int, seats: Sequence[int]) -> list[Event]:
    """A game from hand as a paper sheet knows it: the declarer's call (igra), everybody else passing, in
    bidding order; nothing for a contract written without an auction."""
    if chosen.hand_call is None:
        return []
    if declarer not in seats:
        raise EntryError("the declarer is not dealt in")
    return [BidMade(player=s, bid=chosen.hand_call if s == declarer else PASS) for s in seats]


def _after_calls(entry: DealEntry, order: Sequence[int]) -> list[Event]:
    """What the ``Whist:`` line holds after the defenders' first calls, as the reader reads it: a returned
    whist (``B return``; a sitting-out dealer's return comes after the passer's second pass, ``B pass, D
    whist``), the lone whister's ``open`` / ``closed``, the declarer's ``concede``. ``order``: the defenders
    in calling order. Whether each is allowed here is the audit's to say."""
    out: list[Event] = []
    calls = dict(entry.calls)
    back = entry.returned_by
    if back is not None:
        if back not in calls and CallEntered.HALF in calls.values():
            # the dealer's turn comes when the passer who spoke before the half-whist passes again
            ranked = [s for s in order if s in calls]
            half = next(i for i, s in enumerate(ranked) if calls[s] is CallEntered.HALF)
            out += [WhistCalled(player=s, call=CALL_PASS) for s in ranked[:half] if calls[s] is CallEntered.PASS]
        out.append(WhistCalled(player=back, call=CALL_WHIST))
    if entry.mode is not None:
        whisters = [s for s, c in entry.calls if c is CallEntered.WHIST]
        lone = back if back is not None else whisters[0] if whisters else entry.declarer
        assert lone is not None
        out.append(PlayModeChosen(player=lone, mode=_MODE_CODES[entry.mode]))
    if entry.conceded and entry.declarer is not None:
        out.append(WhistCalled(player=entry.declarer, call=CALL_CONCEDE))
    return out


def paper_choices(table: Table) -> dict[str, Any]:
    """What the entry form offers after a contract under the pulka's rules, as the family's deal machine
    answers it (a few paper deals played up to the point in question, nothing decided here):
    ``whisted`` the contracts whose defenders call (not a misère, not a checked ten), ``half_second`` /
    ``half_first`` where the second defender after a pass / the first may say half-whist, ``returns``
    whether the passer may return a half-whist, ``dealer_returns`` / ``dealer_whists`` whether the
    sitting-out dealer may return it / whist after two passes, ``open_closed`` whether a lone whister
    chooses open or closed play, ``concede`` whether the declarer may concede down three, ``unwhisted`` the
    contracts nobody calls on (a misère, a checked ten). The all-pass deal's word is the family's entry
    terms' (:meth:`Table.terms`)."""
    if table.rules is None:
        return {}
    return {k: list(v) if isinstance(v, list) else v for k, v in _choices(table.rules, len(table.players)).items()}


@lru_cache(maxsize=64)
def _choices(rules: Rules, n: int) -> dict[str, Any]:
    fam = family_of(rules)
    dealer = n - 1
    seats = bidding_order(n, dealer)
    declarer, d1, d2 = seats[0], seats[1], seats[2]

    def after(contract: int, *calls: tuple[int, int]) -> Any:
        """A paper deal with ``contract`` declared and ``calls`` made; None where the engine refuses it."""
        d = fam.open_deal(rules, n, dealer, None, None)
        try:
            d.declare(declarer, contract)
            for seat, call in calls:
                d.whist(seat, call)
        except IllegalAction:
            return None
        return d

    def offers(d: Any, event: Event) -> bool:
        return d is not None and event in d.legal_actions()

    whisted = [c for c in fam.bids.contracts if offers(after(c), WhistCalled(d1, CALL_PASS))]
    text = fam.bids.format
    out: dict[str, Any] = {
        "whisted": [text(c) for c in whisted],
        "unwhisted": [text(c) for c in fam.bids.contracts if c not in whisted],
        "half_second": [text(c) for c in whisted if offers(after(c, (d1, CALL_PASS)), WhistCalled(d2, CALL_HALF))],
        "half_first": [text(c) for c in whisted if offers(after(c), WhistCalled(d1, CALL_HALF))],
        "returns": False, "dealer_returns": False, "dealer_whists": False, "open_closed": False, "concede": False,
    }
    halved = [c for c in whisted if text(c) in out["half_second"]]
    if halved:  # a return follows a half-whist: asked on a contract where one may be said
        h = halved[0]
        out["returns"] = offers(after(h, (d1, CALL_PASS), (d2, CALL_HALF)), WhistCalled(d1, CALL_WHIST))
        out["dealer_returns"] = n == 4 and offers(after(h, (d1, CALL_PASS), (d2, CALL_HALF), (d1, CALL_PASS)),
                                                  WhistCalled(dealer, CALL_WHIST))
    if whisted:
        c = whisted[0]
        out["dealer_whists"] = n == 4 and offers(after(c, (d1, CALL_PASS), (d2, CALL_PASS)),
                                                 WhistCalled(dealer, CALL_WHIST))
        out["open_closed"] = offers(after(c, (d1, CALL_WHIST), (d2, CALL_PASS)), PlayModeChosen(d1, PLAY_OPEN))
        d = after(c)
        out["concede"] = d is not None and d.can_whist(declarer, CALL_CONCEDE)
    return out


def _defended(rules: Rules, n: int, contract: int) -> bool:
    """Whether the defenders call on ``contract`` under ``rules`` (not a misère, not a checked ten): the
    deal machine's answer (:func:`paper_choices`)."""
    return family_of(rules).bids.format(contract) in _choices(rules, n)["whisted"]


def refusals(result: AuditResult, before: int, earlier: AuditResult | None = None) -> list[Finding]:
    """The findings of ``result`` (the audit of a log with new events after its first ``before``) that the
    new events caused: none, and they are accepted. ``earlier`` (the audit of the first ``before`` events):
    a finding it did not have is caused too, wherever it stands (a correction re-scores the later deals)."""
    had = {(f.code, f.seq, f.message) for f in earlier.findings} if earlier is not None else None
    return [f for f in result.findings if f.seq > before or (had is not None and (f.code, f.seq, f.message) not in had)]


def correction_events(number: int, dealer: int, replacement: list[Event] | None, at: str) -> list[Event]:
    """The events that correct deal ``number`` (dealt by ``dealer``): a deal header, the
    :class:`DealCorrected`, then the replacement deal's events (its own header dropped), or nothing more
    when the deal is struck out (``replacement`` None)."""
    if replacement is None:
        return [DealStarted(dealer=dealer), DealCorrected(number, True, at)]
    return [replacement[0], DealCorrected(number, False, at), *replacement[1:]]


_BLOCK = re.compile(r"Deal [0-9]+: ")


def deal_blocks(events: Sequence[Event]) -> list[str]:
    """Each deal block of the pulka's record as ``preflog export`` writes it, one per DealStarted in the
    log (corrections included); ``[]`` when the log cannot be written."""
    try:
        text = write_text(list(events))
    except (PreflogError, ValueError):
        return []
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in text.split("\n"):
        if _BLOCK.match(line):
            current = [line]
            blocks.append(current)
        elif current is not None and line.strip() and not line.startswith("End:"):
            current.append(line)
        else:
            current = None
    return ["\n".join(b) for b in blocks]


def history(events: Sequence[Event], blocks: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Every deal block entered, oldest first, with what became of it: ``number`` the sheet's deal it was
    entered as (or corrects), ``kind`` ``entered`` / ``correction`` / ``strike``, ``at`` when a correction
    was made, ``removed_by`` the seq of the correction that took it off the sheet (and ``removed_at``)."""
    rows = [ev.to_row() for ev in events]
    fates: dict[int, DealFate] = {}
    effective_positions(rows, fates)
    blocks = deal_blocks(events) if blocks is None else blocks
    out: list[dict[str, Any]] = []
    for k, pos in enumerate(sorted(fates)):
        fate = fates[pos]
        own = events[fate.correction] if fate.correction is not None else None
        gone = events[fate.removed_by] if fate.removed_by is not None else None
        out.append({
            "seq": pos + 1, "number": fate.number,
            "kind": "entered" if own is None else "strike" if fate.struck else "correction",
            "at": own.at if isinstance(own, DealCorrected) else "",
            "removed_by": fate.removed_by + 1 if fate.removed_by is not None else None,
            "removed_at": gone.at if isinstance(gone, DealCorrected) else "",
            "text": blocks[k] if k < len(blocks) else "",
        })
    return out



_SEAT = re.compile(r"\b[A-D]\b")
_HEAD = re.compile(r"^Deal [0-9]+:")


def last_entry(entries: Sequence[Mapping[str, Any]], players: Sequence[str]) -> str:
    """The last entry of :func:`history` for the table to check: its record block, numbered as the sheet
    numbers its deals and with the players' names for the seat letters (the block itself says ``Deal 13``
    for the thirteenth block, a correction included, and seats A/B/C): ``Deal 2: dealer Запад`` /
    ``Contract: Запад 6s`` / ``Whist: Восток whist, Юг pass`` / ``Tricks: Запад 3, Восток 5, Юг 2``.
    ``""`` before the first deal."""
    if not entries:
        return ""
    last = entries[-1]
    text = _HEAD.sub(f"Deal {last['number']}:", str(last["text"]), count=1)
    return _SEAT.sub(lambda m: players[ord(m.group()) - ord("A")] if ord(m.group()) - ord("A") < len(players)
                     else m.group(), text)
