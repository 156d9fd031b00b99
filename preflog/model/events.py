"""Events of a pulka: immutable facts with stable type names and a schema version.

A pulka's log is the ordered list of these events; everything else (trick
winners, scores, settlement) is derived by replay and never stored as input.

Each event also has a *row* form ``(code, player, card, value, payload)`` of
small ints plus an optional JSON payload for rare events. The store keeps rows in
narrow typed columns and the replay fast path works on rows directly, so that
no event object has to be built per card on the hot path.

Seats are 0-based in the order of the ``players`` of :class:`PulkaStarted`; play
and dealing go clockwise, i.e. to seat ``+1``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from fractions import Fraction
from functools import lru_cache
from typing import Any
from typing import ClassVar

from ..errors import PreflogError
from .cards import format_card
from .cards import format_cards
from .columns import Row as Row
from .layout import pack_layout as pack_layout
from .layout import unpack_layout

RULES_VERSION = 1
"""Version of the preset tables (presets, named overrides, option defaults) new pulkas are recorded
under (:attr:`PulkaStarted.rules_version`); :mod:`preflog.rules.versions` keeps every version's tables,
so a pulka replays with the option values it was played under after a preset changes."""
LEGACY_RULES_VERSION = 1
"""The rules version of a stored :class:`PulkaStarted` that does not name one (written before versions
were recorded; the tables of version 1 are the presets of that time)."""
NO_PLAYER = -1
NO_CARD = -1
MAX_DEALS = 32_767
"""The most deals a pulka may hold. A pulka of a club's evening has tens of deals, a long one a few
hundred; the projections keep deal numbers as 16-bit integers, so a record of more deals is refused
where it goes past this one (at its deal header), before the rest of it is read."""



class EventError(PreflogError, ValueError):
    """An event row or payload that does not decode."""


@dataclass(frozen=True, slots=True)
class Event:
    KIND: ClassVar[str] = ""
    CODE: ClassVar[int] = 0

    def to_row(self) -> Row:
        return (self.CODE, getattr(self, "player", NO_PLAYER), NO_CARD, 0, _payload(self))

    @classmethod
    def from_row(cls, player: int, card: int, value: int, payload: dict[str, Any] | None) -> Event:
        data = dict(payload or {})
        if "player" in cls.__dataclass_fields__:
            data["player"] = player
        return cls(**{k: _tuple(v) if isinstance(v, list) else v for k, v in data.items()})  # (no call per scalar)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.KIND}
        for f in fields(self):
            d[f.name] = _plain(getattr(self, f.name))
        return d


def _cards(mask: Any) -> Any:
    """A card mask as text for a repr (``"As Ks 7h"``, ``"-"`` for none); anything else as it is."""
    if isinstance(mask, int) and 0 <= mask < 1 << 32:
        return format_cards(mask) or "-"
    return mask


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def _tuple(v: Any) -> Any:
    if isinstance(v, list):
        return tuple([_tuple(x) if isinstance(x, list) else x for x in v])  # (a list: cheaper than a generator)
    return v


def _payload(ev: Event, skip: tuple[str, ...] = ("player",)) -> str:
    return json.dumps({f.name: _plain(getattr(ev, f.name)) for f in fields(ev) if f.name not in skip},
                      separators=(",", ":"), ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True, slots=True)
class PulkaStarted(Event):
    """A pulka ("пулька") begins: players in seating order, rules and stakes."""

    KIND: ClassVar[str] = "pulka_started"
    CODE: ClassVar[int] = 1
    players: tuple[str, ...]
    rules: str = "sochi"
    overrides: tuple[tuple[str, Any], ...] = ()
    pool: int = 50
    whist_price: str = "1"
    meta: tuple[tuple[str, str], ...] = ()
    rules_version: int = RULES_VERSION
    """The preset tables ``rules`` and ``overrides`` resolve with (:func:`preflog.rules.rules_of`): every
    option's value follows from spec + version. The row payload names it only when it is not
    :data:`LEGACY_RULES_VERSION`, so payloads, content hashes and exports of version-1 pulkas are the
    bytes written before versions existed, and a payload without it reads as version 1."""
    start: tuple[tuple[ScoreValue, ...], ...] = ()
    """The starting sheet: the totals the pulka continues from (a paper sheet entered as written), one
    row per seat in seat order, ``(pulya, gora, visty on seat 0, …, visty on seat n−1)``; ``()`` = a
    blank sheet. The payload names it only when it is not empty, so pulkas without one keep their
    bytes and content hashes."""
    notes: tuple[tuple[int, str, str], ...] = field(default=(), compare=False)
    """What the record's comments said, as annotations ``(seq, place, text)``: ``text`` written on its
    own lines before the record line of event ``seq`` of this pulka (``place`` ``"before"``) or at the
    end of that line (``"after"``). Not part of the game: the engine ignores them, and events
    compare equal without them (the content hash and the store keep them: they are in the payload). The payload names
    them only when there are some (pulkas without comments keep their bytes and content hashes)."""
    by_name: bool = field(default=False, compare=False)
    """The record named the players in its moves (``Anna: 7s …``, ``Auction: Anna 6s``) rather than by
    seat letter; the writer does the same. Named in the payload only when true."""

    def to_row(self) -> Row:
        skip = ("player", "rules_version") if self.rules_version == LEGACY_RULES_VERSION else ("player",)
        if not self.notes:
            skip = (*skip, "notes")
        if not self.by_name:
            skip = (*skip, "by_name")
        if not self.start:
            return (self.CODE, NO_PLAYER, NO_CARD, 0, _payload(self, (*skip, "start")))
        data = {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name not in skip}
        data["start"] = _start_plain(self.start)
        return (self.CODE, NO_PLAYER, NO_CARD, 0,
                json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=True))

    @classmethod
    def from_row(cls, player: int, card: int, value: int, payload: dict[str, Any] | None) -> Event:
        data: dict[str, Any] = {"rules_version": LEGACY_RULES_VERSION}
        for k, v in (payload or {}).items():  # (a loop: one decode per pulka, no comprehension frame)
            data[k] = _tuple(v) if isinstance(v, list) and k != "start" else v
        if "start" in data:
            rows = data["start"]
            if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
                raise TypeError(f"a starting sheet is a list of rows of numbers, not {rows!r}")
            data["start"] = tuple(tuple(score_value(v) for v in r) for r in rows)
        return cls(**data)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.KIND}
        for f in fields(self):
            if f.name == "start":
                if self.start:
                    d["start"] = _start_plain(self.start)
            elif f.name in ("notes", "by_name"):
                if getattr(self, f.name):
                    d[f.name] = _plain(getattr(self, f.name))
            else:
                d[f.name] = _plain(getattr(self, f.name))
        return d


def _start_plain(start: tuple[tuple[ScoreValue, ...], ...]) -> list[list[int | str]]:
    return [[_score_plain(v) for v in row] for row in start]


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """A deal ("сдача") begins. ``hands`` (card masks per seat; the sitting-out dealer's is 0) and
    ``talon`` are absent in paper-level records."""

    KIND: ClassVar[str] = "deal_started"
    CODE: ClassVar[int] = 2
    dealer: int
    hands: tuple[int, ...] | None = None
    talon: int | None = None

    def __repr__(self) -> str:
        """The hands and the talon spelled as cards (a record's canonical spelling), not as masks."""
        hands = "None" if self.hands is None else "(" + ", ".join(repr(_cards(h)) for h in self.hands) + ")"
        talon = "None" if self.talon is None else repr(_cards(self.talon))
        return f"DealStarted(dealer={self.dealer!r}, hands={hands}, talon={talon})"

    def to_row(self) -> Row:
        packed = pack_layout(self.dealer, self.hands, self.talon)
        if packed is not None:
            return (self.CODE, self.dealer, len(self.hands or ()), packed, None)
        return (self.CODE, self.dealer, NO_CARD, 0, _payload(self, ("dealer",)))

    @classmethod
    def from_row(cls, player: int, card: int, value: int, payload: dict[str, Any] | None) -> Event:
        if card in (3, 4) and payload is None:
            hands, talon = unpack_layout(player, card, value)
            return cls(dealer=player, hands=hands, talon=talon)
        p = payload or {}
        return cls(dealer=player, hands=_tuple(p.get("hands")), talon=p.get("talon"))


@dataclass(frozen=True, slots=True)
class _Valued(Event):
    """Events carrying one small int (bid, contract, call, mode, card mask)."""

    player: int
    VALUE: ClassVar[str] = ""

    def to_row(self) -> Row:
        return (self.CODE, self.player, NO_CARD, getattr(self, self.VALUE), None)

    @classmethod
    def from_row(cls, player: int, card: int, value: int, payload: dict[str, Any] | None) -> Event:
        return cls(player, value)  # type: ignore[call-arg]  # each subclass declares the value field VALUE names


@dataclass(frozen=True, slots=True)
class BidMade(_Valued):
    """A call in the auction ("торговля"): a bid code of :mod:`preflog.model.bids`; a bid equal to
    the current one is a hold ("здесь")."""

    KIND: ClassVar[str] = "bid"
    CODE: ClassVar[int] = 3
    VALUE: ClassVar[str] = "bid"
    bid: int


@dataclass(frozen=True, slots=True)
class TalonRevealed(Event):
    """The talon ("прикуп") is shown; needed when the deal did not record it up front."""

    KIND: ClassVar[str] = "talon_revealed"
    CODE: ClassVar[int] = 4
    cards: int

    def __repr__(self) -> str:
        return f"TalonRevealed(cards={_cards(self.cards)!r})"

    def to_row(self) -> Row:
        return (self.CODE, NO_PLAYER, NO_CARD, self.cards, None)

    @classmethod
    def from_row(cls, player: int, card: int, value: int, payload: dict[str, Any] | None) -> Event:
        return cls(value)


@dataclass(frozen=True, slots=True)
class Discarded(_Valued):
    """The declarer's discard ("снос"): a mask of exactly two cards."""

    KIND: ClassVar[str] = "discard"
    CODE: ClassVar[int] = 5
    VALUE: ClassVar[str] = "cards"
    cards: int

    def __repr__(self) -> str:
        return f"Discarded(player={self.player!r}, cards={_cards(self.cards)!r})"


@dataclass(frozen=True, slots=True)
class ContractDeclared(_Valued):
    """The contract ("заказ"); in a paper-level deal it may come without an auction."""

    KIND: ClassVar[str] = "contract"
    CODE: ClassVar[int] = 6
    VALUE: ClassVar[str] = "contract"
    contract: int


@dataclass(frozen=True, slots=True)
class WhistCalled(_Valued):
    """A defender's call: whist, pass, half-whist, invite (:mod:`preflog.model.calls`)."""

    KIND: ClassVar[str] = "whist"
    CODE: ClassVar[int] = 7
    VALUE: ClassVar[str] = "call"
    call: int


@dataclass(frozen=True, slots=True)
class PlayModeChosen(_Valued):
    """The lone whister plays open ("в светлую") or closed ("втёмную")."""

    KIND: ClassVar[str] = "play_mode"
    CODE: ClassVar[int] = 8
    VALUE: ClassVar[str] = "mode"
    mode: int


@dataclass(frozen=True, slots=True)
class ContraCalled(Event):
    """Croatian contra, recontra, subcontra …: each call doubles the stake once more."""

    KIND: ClassVar[str] = "contra"
    CODE: ClassVar[int] = 9
    player: int

    def to_row(self) -> Row:
        return (self.CODE, self.player, NO_CARD, 0, None)

    @classmethod
    def from_row(cls, player: int, card: int, value: int, payload: dict[str, Any] | None) -> Event:
        return cls(player)


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card played to the current trick; the winner is derived."""

    KIND: ClassVar[str] = "card"
    CODE: ClassVar[int] = 10
    player: int
    card: int

    def __repr__(self) -> str:
        text = format_card(self.card) if isinstance(self.card, int) and 0 <= self.card < 32 else self.card
        return f"CardPlayed(player={self.player!r}, card={text!r})"

    def to_row(self) -> Row:
        return (self.CODE, self.player, self.card, 0, None)

    @classmethod
    def from_row(cls, player: int, card: int, value: int, payload: dict[str, Any] | None) -> Event:
        return cls(player, card)


@dataclass(frozen=True, slots=True)
class _Tricks(Event):
    """Trick counts per seat (payload)."""

    tricks: tuple[int, ...]

    def to_row(self) -> Row:
        return (self.CODE, NO_PLAYER, NO_CARD, 0, _payload(self))


@dataclass(frozen=True, slots=True)
class Claimed(_Tricks):
    """The remaining tricks, agreed per seat without play ("остальные мои")."""

    KIND: ClassVar[str] = "claim"
    CODE: ClassVar[int] = 11


@dataclass(frozen=True, slots=True)
class TenChecked(_Tricks):
    """Sochi ten-game check ("проверка десятерной"): tricks per seat found by laying out the cards."""

    KIND: ClassVar[str] = "ten_check"
    CODE: ClassVar[int] = 12


@dataclass(frozen=True, slots=True)
class PaperResult(_Tricks):
    """Paper-level result: tricks per seat when the cards were not recorded."""

    KIND: ClassVar[str] = "paper_result"
    CODE: ClassVar[int] = 13


@dataclass(frozen=True, slots=True)
class ScoreRecorded(Event):
    """A score line as the players wrote it after a deal, to be checked against the replay.

    Russian: running totals of ``pulya``, ``gora`` and ``visty`` written on each seat (own seat 0).
    Croatian: ``pulya`` is the contract column, ``gora`` 0, ``visty`` the juha written on each seat.
    """

    KIND: ClassVar[str] = "score_line"
    CODE: ClassVar[int] = 14
    player: int
    pulya: ScoreValue
    gora: ScoreValue
    visty: tuple[ScoreValue, ...]

    def to_row(self) -> Row:
        return (self.CODE, self.player, NO_CARD, 0, json.dumps(
            {"gora": _score_plain(self.gora), "pulya": _score_plain(self.pulya),
             "visty": [_score_plain(v) for v in self.visty]}, separators=(",", ":"), ensure_ascii=False))

    @classmethod
    def from_row(cls, player: int, card: int, value: int, payload: dict[str, Any] | None) -> Event:
        p = payload or {}
        if set(p) != {"pulya", "gora", "visty"} or not isinstance(p["visty"], list):
            raise TypeError(f"a score line payload holds pulya, gora and a list of visty, not {p!r}")
        return cls(player, score_value(p["pulya"]), score_value(p["gora"]), tuple(score_value(v) for v in p["visty"]))

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.KIND, "player": self.player, "pulya": _score_plain(self.pulya),
                "gora": _score_plain(self.gora), "visty": [_score_plain(v) for v in self.visty]}


ScoreValue = int | Fraction
"""A number on a score sheet: whole, or exact when a sheet holds halves (``12.5``) or other fractions."""


def score_value(v: Any) -> ScoreValue:
    """A written score number as an exact value: an int when whole, else a :class:`Fraction`. Reads ints,
    Fractions and the text forms ``12``, ``12.5`` and ``25/2``; anything else is a ``ValueError``."""
    if isinstance(v, bool):
        raise ValueError(f"{v!r} is not a score")
    if isinstance(v, str):
        t = v.strip()
        if not _SCORE_TEXT.fullmatch(t):
            raise ValueError(f"{v!r} is not a score (a whole number, a decimal or a fraction, e.g. 12.5 or 25/2)")
        v = Fraction(t)
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else v
    if isinstance(v, int):
        return v
    raise ValueError(f"{v!r} is not a score")


def score_text(v: ScoreValue) -> str:
    """A score number as written: ``12``, ``12.5`` when the decimal is exact and short, else ``25/3``."""
    if isinstance(v, int) or v.denominator == 1:
        return str(int(v))
    d = v.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    places = max(twos, fives)
    if d != 1 or places > 6:
        return f"{v.numerator}/{v.denominator}"
    scaled = abs(v.numerator) * 10 ** places // v.denominator
    whole, frac = divmod(scaled, 10 ** places)
    return f"{'-' if v < 0 else ''}{whole}.{frac:0{places}d}".rstrip("0")


def _score_plain(v: ScoreValue) -> int | str:
    """A score number in a payload: ints as they are (the bytes of whole-number logs do not change), a
    fraction as its text ``"25/2"``."""
    return v if isinstance(v, int) else f"{v.numerator}/{v.denominator}"


_SCORE_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]+)?|[0-9]+/[0-9]*[1-9][0-9]*)")


@dataclass(frozen=True, slots=True)
class PulkaEnded(Event):
    """The pulka is over (all pulyas closed, columns at zero, or stopped early by agreement)."""

    KIND: ClassVar[str] = "pulka_ended"
    CODE: ClassVar[int] = 15
    reason: str = "closed"


@dataclass(frozen=True, slots=True)
class DealCorrected(Event):
    """A correction of the sheet, appended (nothing is edited in place): deal ``deal`` (numbered as the
    sheet stood just before) no longer counts. It comes right after a :class:`DealStarted`: that deal
    takes the corrected deal's place, or, with ``struck``, nothing does (the deal is struck out, "undo";
    the DealStarted then only marks the correction). The replay resolves corrections before it applies a
    log (:mod:`preflog.engine.corrections`); the struck-out events stay in the log, and in its history.
    Record line: ``Corrects: deal 3`` / ``Strikes: deal 3`` after the deal header."""

    KIND: ClassVar[str] = "deal_corrected"
    CODE: ClassVar[int] = 16
    deal: int
    struck: bool = False
    at: str = ""
    """When the correction was made (ISO 8601 UTC, as the live entry writes it; "" when not known)."""


EVENT_TYPES: tuple[type[Event], ...] = (
    PulkaStarted, DealStarted, BidMade, TalonRevealed, Discarded, ContractDeclared, WhistCalled,
    PlayModeChosen, ContraCalled, CardPlayed, Claimed, TenChecked, PaperResult, ScoreRecorded, PulkaEnded,
    DealCorrected,
)
BY_CODE: dict[int, type[Event]] = {t.CODE: t for t in EVENT_TYPES}
BY_KIND: dict[str, type[Event]] = {t.KIND: t for t in EVENT_TYPES}


def from_row(code: int, player: int, card: int, value: int, payload: str | None) -> Event:
    """Rebuild an event from its row form."""
    if code == _ENDED:
        return _pulka_ended(player, card, value, payload)
    cls = BY_CODE.get(code)
    if cls is None:
        raise EventError(f"unknown event type code {code}")
    try:
        data = _json(payload) if payload else None
        return cls.from_row(player, card, value, data)
    except (TypeError, ValueError) as exc:
        raise EventError(f"bad {cls.KIND} event payload {payload!r}: {exc}") from None


_ENDED = PulkaEnded.CODE
_DECODER = json.JSONDecoder()


def _json(payload: str) -> Any:
    """``json.loads(payload)``: ``raw_decode`` called directly when the text is one JSON value and nothing
    else (what the store writes), else ``json.loads`` itself (its errors, its whitespace rules).
    (``json.loads`` runs two more Python frames around it: a third of a PulkaEnded's decode.)"""
    try:
        data, end = _DECODER.raw_decode(payload)
    except Exception:  # (any failure: json.loads says what it is)
        return json.loads(payload)
    return data if end == len(payload) else json.loads(payload)


@lru_cache(maxsize=64)
def _pulka_ended(player: int, card: int, value: int, payload: str | None) -> Event:
    """:func:`from_row` of a PulkaEnded row, decoded once per distinct row: every pulka ends with one, and
    nearly all read ``{"reason":"closed"}`` (an event is immutable: one object serves every log). A row
    that does not decode raises each time (errors are not remembered)."""
    try:
        return PulkaEnded.from_row(player, card, value, _json(payload) if payload else None)
    except (TypeError, ValueError) as exc:
        raise EventError(f"bad {PulkaEnded.KIND} event payload {payload!r}: {exc}") from None
