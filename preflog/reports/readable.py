"""``events_readable``: the event log with names and words instead of codes, for ``preflog sql``.

The ``events`` view holds the store's rows as they are kept: a type code, a seat number, a card number,
a bid, contract or card-mask code and a JSON payload. ``events_readable`` shows the same events one
row each, in the same order (``pulka``, ``seq``, ``deal``), with

* ``event`` — the event's type name (``bid``, ``card``, ``contract``, ``whist`` … as
  :data:`preflog.model.events.EVENT_TYPES` name them);
* ``player`` — the player's name (the seat read through the pulka's ``PulkaStarted`` players; the
  dealer for ``deal_started``), ``NULL`` for an event of no player;
* ``text`` — what the event says: the bid or contract in its family's words (``6s``, ``miser``,
  ``igra``, ``sanac``), the card (``Q♥``), the cards of a talon or discard (``K♠ 7♥``), the whist
  call (``whist``, ``pass``), the play mode, each player's tricks of a claim or paper result
  (``Anna 5, Boris 3, Vera 2``), the hands and talon of a deal, the players, rules and pool of a
  pulka, the reason a pulka ended; a score line's payload as written.

Every word comes from the model's own codecs, called here once per code to build small lookup lists
(:func:`lookup_sql`): the cards from :func:`~preflog.model.cards.format_card`, the bids and contracts
from each family's :class:`~preflog.model.bids.BidCodec`, the calls and play modes from
:mod:`preflog.model.calls`. A deal's hands are unpacked by :func:`~preflog.model.events.from_row`
itself (a Python function the view calls once per deal). The family of a pulka is the one its
projection names (``pulka_results.family``; the first family when it has none, as
:func:`~preflog.engine.families.family_named` reads it).
"""

from __future__ import annotations

import duckdb

from ..engine.families import FAMILIES
from ..engine.families import family_named
from ..model.calls import CALL_NAMES
from ..model.calls import MODE_NAMES
from ..model.cards import FULL_DECK
from ..model.cards import format_card
from ..model.cards import format_cards
from ..model.cards import parse_card
from ..model.events import EVENT_TYPES
from ..model.events import BidMade
from ..model.events import CardPlayed
from ..model.events import Claimed
from ..model.events import ContractDeclared
from ..model.events import DealStarted
from ..model.events import Discarded
from ..model.events import EventError
from ..model.events import PaperResult
from ..model.events import PlayModeChosen
from ..model.events import PulkaEnded
from ..model.events import PulkaStarted
from ..model.events import ScoreRecorded
from ..model.events import TalonRevealed
from ..model.events import TenChecked
from ..model.events import WhistCalled
from ..model.events import from_row

READABLE_VIEWS = ("events_readable",)
"""The views :func:`create` adds beside ``events``."""

CARD_STYLE = "unicode"  # Q♥, as the deal viewer writes cards


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _list(values: list[str]) -> str:
    return "[" + ", ".join(_text(v) for v in values) + "]"


def _case(column: str, mapping: dict[int, str]) -> str:
    """``CASE column WHEN code THEN 'text' … END`` (NULL for a code the mapping lacks)."""
    return f"CASE {column} " + " ".join(f"WHEN {code} THEN {_text(text)}" for code, text in mapping.items()) + " END"


def lookup_sql() -> dict[str, str]:
    """The SQL expressions of the lookups, generated from the model's codecs:

    * ``kind`` — event type name by ``code``;
    * ``card`` — the card of ``card`` (a list indexed by card number + 1);
    * ``mask`` — the cards of the card mask ``value`` in the written order (high to low within ♠ ♣ ♦ ♥,
      the order :func:`~preflog.model.cards.format_cards` writes: read off its spelling of the full pack);
    * ``bids`` — ``(family, code, text)`` rows of every call of every family's codec;
    * ``call`` / ``mode`` — the whist call and the play mode of ``value``.
    """
    cards = [format_card(c, CARD_STYLE) for c in range(32)]
    order = [parse_card(t) for t in format_cards(FULL_DECK, CARD_STYLE).split()]
    bids = ", ".join(f"({_text(f.name)}, {code}, {_text(f.bids.format(code))})"
                     for f in FAMILIES for code in sorted(f.bids.calls))
    return {
        "kind": _case("e.code", {t.CODE: t.KIND for t in EVENT_TYPES}),
        "card": f"list_extract({_list(cards)}, e.card + 1)",
        "mask": (f"array_to_string([list_extract({_list(cards)}, c + 1) FOR c IN {order} "
                 f"IF ((e.value >> c) & 1) = 1], ' ')"),
        "bids": f"(VALUES {bids}) AS b(family, code, text)",
        "call": _case("e.value", dict(CALL_NAMES)),
        "mode": _case("e.value", dict(MODE_NAMES)),
    }


def deal_text(names: list[str] | None, player: int, card: int, value: int, payload: str | None) -> str:
    """A ``deal_started`` row's hands and talon (``Anna: A♠ K♠ …; Boris: …; talon: 7♦ 8♦``), read back
    by :func:`~preflog.model.events.from_row`; ``""`` for a paper-level deal (no cards recorded). An
    empty ``payload`` is none: the view passes ``''`` for NULL and reads ``""`` back as NULL (DuckDB's
    functions of values neither take nor give NULL)."""
    try:
        ev = from_row(DealStarted.CODE, player, card, value, payload or None)
    except EventError:
        return ""
    if not isinstance(ev, DealStarted) or ev.hands is None:
        return ""
    names = list(names or ())
    parts = [f"{names[s] if s < len(names) else f'seat {s}'}: {format_cards(h, CARD_STYLE)}"
             for s, h in enumerate(ev.hands) if h]
    if ev.talon is not None:
        parts.append(f"talon: {format_cards(ev.talon, CARD_STYLE)}")
    return "; ".join(parts)


def view_sql() -> str:
    """``CREATE OR REPLACE VIEW events_readable …`` over the ``events`` and ``pulka_results`` views."""
    q = lookup_sql()
    tricks_list = "CAST(json_extract(e.payload, '$.tricks') AS INTEGER[])"
    tricks = (f"array_to_string([coalesce(list_extract(e.names, i + 1), 'seat ' || i) || ' ' || "
              f"list_extract({tricks_list}, i + 1) FOR i IN range(len({tricks_list}))], ', ')")
    return f"""
CREATE OR REPLACE VIEW events_readable AS
WITH s AS (  -- per pulka: the players in seat order, the rules and the pool its PulkaStarted names
    SELECT pulka,
           CAST(json_extract(payload, '$.players') AS VARCHAR[]) AS names,
           json_extract_string(payload, '$.rules') AS rules,
           json_extract_string(payload, '$.pool') AS pool
    FROM events WHERE code = {PulkaStarted.CODE}
), f AS (    -- per pulka: its family, as its projection names it
    SELECT pulka, any_value(family) AS family FROM pulka_results GROUP BY pulka
), e AS (
    SELECT e.*, s.names, s.rules, s.pool, coalesce(f.family, {_text(family_named(None).name)}) AS family
    FROM events e LEFT JOIN s USING (pulka) LEFT JOIN f USING (pulka)
)
SELECT e.pulka, e.seq, e.deal,
       {q["kind"]} AS event,
       CASE WHEN e.player >= 0 THEN coalesce(list_extract(e.names, e.player + 1), 'seat ' || e.player) END
           AS player,
       CASE e.code
           WHEN {PulkaStarted.CODE} THEN array_to_string(e.names, ', ') || ' · ' || e.rules || ' · pool ' || e.pool
           WHEN {DealStarted.CODE} THEN nullif(preflog_deal_text(coalesce(e.names, []), e.player, e.card,
               e.value, coalesce(e.payload, '')), '')
           WHEN {BidMade.CODE} THEN coalesce(b.text, CAST(e.value AS VARCHAR))
           WHEN {ContractDeclared.CODE} THEN coalesce(b.text, CAST(e.value AS VARCHAR))
           WHEN {TalonRevealed.CODE} THEN {q["mask"]}
           WHEN {Discarded.CODE} THEN {q["mask"]}
           WHEN {WhistCalled.CODE} THEN {q["call"]}
           WHEN {PlayModeChosen.CODE} THEN {q["mode"]}
           WHEN {CardPlayed.CODE} THEN {q["card"]}
           WHEN {Claimed.CODE} THEN {tricks}
           WHEN {TenChecked.CODE} THEN {tricks}
           WHEN {PaperResult.CODE} THEN {tricks}
           WHEN {ScoreRecorded.CODE} THEN e.payload
           WHEN {PulkaEnded.CODE} THEN json_extract_string(e.payload, '$.reason')
       END AS text
FROM e LEFT JOIN {q["bids"]}
    ON e.code IN ({BidMade.CODE}, {ContractDeclared.CODE}) AND b.family = e.family AND b.code = e.value
ORDER BY e.pulka, e.seq
"""


_EVENT_COLUMNS = frozenset({"pulka", "seq", "deal", "code", "player", "card", "value", "payload"})


def create(con: duckdb.DuckDBPyConnection) -> None:
    """Add :data:`READABLE_VIEWS` to a connection that has the ``events`` and ``pulka_results`` views (none
    when ``events`` lacks the event table's columns: a list of other files given as events)."""
    columns = {d[0] for d in con.execute("SELECT * FROM events LIMIT 0").description}
    if not _EVENT_COLUMNS <= columns:
        return
    con.create_function("preflog_deal_text", deal_text, ["VARCHAR[]", "TINYINT", "TINYINT", "BIGINT", "VARCHAR"],
                        "VARCHAR", side_effects=False)
    con.execute(view_sql())
