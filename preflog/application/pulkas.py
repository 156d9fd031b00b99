"""The stored pulkas as the front ends ask for them: a filter, a summary per pulka, and the reports over them.

:class:`PulkaFilter` is what ``preflog ls``, ``preflog stats``, ``preflog report``, the web app's list
and its statistics page filter by; :class:`Archive` answers them over one workspace, with one rule each:

* **a player** is named as the store spells the name, in any case (``anna`` finds ``Anna``): the filter
  matches the pulkas that player sat in. A name the store does not hold is a
  :class:`~preflog.errors.NotStoredError` (``no player 'ann' in the store; did you mean Anna? …``), never
  an empty answer: a typo is said. A preset is matched in any case too; pulka ids exactly.
* **the deals of a pulka** are the deals on its sheet: every deal the log started (an audited deal with
  a finding is still a deal played), a corrected pulka's as its corrections leave the sheet.
* **a summary** exists for every stored pulka: from the projections where the audit projected it, else
  from its first event (players, rules, date; not whether it settled).
* **the order** of the lists: the pulkas in progress first (:attr:`PulkaSummary.in_progress`: the log
  holds no end yet), then the most recent, by the date of the pulka (the date its entries were made; the log
  keeps no clock), newest first, a pulka without a date last; pulkas of one date by id
  (:func:`recent_first`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from typing import TYPE_CHECKING
from typing import Any

from ..errors import NotStoredError
from ..errors import WorkspaceError
from ..model.events import EventError
from ..model.events import PulkaEnded
from ..model.events import PulkaStarted
from ..model.events import from_row
from ..projections.facts import date_iso
from ..rules.spec import RulesSpec
from ..store.base import PulkaInfo
from ..store.ledger import LedgerEntry
from ..store.ledger import totals
from ..views.json import frame_rows
from ..views.json import table_json
from ..workspace import Workspace

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, slots=True)
class PulkaFilter:
    """Which pulkas a question is about; ``None`` (or no ids) = no filter. Dates are ISO text
    (``2024-05-17``), inclusive; a pulka without a date is outside every date range."""

    player: str | None = None
    preset: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    pulkas: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        return any(v is not None for v in (self.player, self.preset, self.date_from, self.date_to)) \
            or bool(self.pulkas)

    def options(self) -> dict[str, Any]:
        """The filter as the keyword arguments of the reports (:mod:`preflog.reports`)."""
        return {"player": self.player, "preset": self.preset, "date_from": self.date_from,
                "date_to": self.date_to, "pulka": list(self.pulkas) or None}

    def matches(self, s: PulkaSummary) -> bool:
        """Whether summary ``s`` passes (names as the store spells them: :meth:`Archive.resolve` first)."""
        return ((self.player is None or self.player in s.players)
                and (self.preset is None or s.preset == self.preset)
                and (self.date_from is None or (s.date is not None and s.date >= self.date_from))
                and (self.date_to is None or (s.date is not None and s.date <= self.date_to))
                and (not self.pulkas or s.id in self.pulkas))


@dataclass(frozen=True, slots=True)
class PulkaSummary:
    """One stored pulka as the lists show it: players in seat order, its rules spec and preset, date
    (ISO), deals on its sheet, whether the sheet settled (``None``: not projected), events stored."""

    id: str
    players: tuple[str, ...]
    rules: str | None
    preset: str | None
    date: str | None
    deals: int | None
    settled: bool | None
    events: int
    last_seq: int
    ended: bool | None = None
    """Whether the log holds the pulka's end (a ``PulkaEnded``; the ``End:`` line of a record); ``None``:
    no log to ask (a folder of projections alone)."""

    @property
    def in_progress(self) -> bool:
        """Whether the pulka is still being played: its log holds no end."""
        return self.ended is False

    def as_json(self) -> dict[str, Any]:
        """The summary as ``ls --json`` writes it (docs/cli.md)."""
        return {"id": self.id, "events": self.events, "last_seq": self.last_seq, "players": list(self.players),
                "rules": self.rules, "date": self.date, "deals": self.deals, "settled": self.settled}


class Archive:
    """The stored pulkas of workspace ``ws``: their summaries, the filter's names resolved, the reports.
    The summaries are made once an instance (make a new one to see later commits)."""

    def __init__(self, ws: Workspace, con: Any = None) -> None:
        self.ws = ws
        self.con = con
        """A connection of :meth:`Workspace.connect` to ask (the caller's, left open), else one of its own."""
        self._summaries: list[PulkaSummary] | None = None

    def summaries(self) -> list[PulkaSummary]:
        """Every stored pulka's summary, those in progress first, then the most recent
        (:func:`recent_first`); a folder that holds no store is
        :class:`~preflog.errors.NoStoreError`."""
        if self._summaries is None:
            # a folder of projections alone (no event table) is asked what its projections hold
            infos = self.ws.store().pulkas() if self.ws.exists() or not self.ws.projected() else None
            if infos == []:
                self._summaries = []
            elif self.con is not None:
                self._summaries = _summaries(infos, self.con)
            else:
                con = self.ws.connect()
                try:
                    self._summaries = _summaries(infos, con)
                finally:
                    con.close()
            self._summaries = recent_first(self._summaries)
        return list(self._summaries)

    def ledger(self) -> tuple[list[LedgerEntry], LedgerEntry]:
        """The store's import ledger: every import, oldest first, and their sum (the store's headline);
        a folder that holds no store is :class:`~preflog.errors.NoStoreError`."""
        entries = self.ws.ledger()
        return entries, totals(entries)

    def players(self) -> list[str]:
        return sorted({p for s in self.summaries() for p in s.players})

    def known_players(self) -> KnownPlayers:
        """The players the start form offers to pick (:class:`KnownPlayers`): the last table's, of the
        first pulka of the lists' order (the one in progress, else the most recent; :func:`recent_first`),
        and every other player the store holds."""
        summaries = self.summaries()
        last = summaries[0].players if summaries else ()
        return KnownPlayers(last, tuple(p for p in self.players() if p not in last))

    def resolve(self, f: PulkaFilter) -> PulkaFilter:
        """``f`` with its names as the store spells them (the player in any case, the preset in any case);
        a name the store does not hold is :class:`~preflog.errors.NotStoredError`."""
        summaries = self.summaries()
        player = preset = None
        if f.player is not None:
            player = _stored_name("player", f.player, self.players())
        if f.preset is not None:
            preset = _stored_name("preset", f.preset, sorted({s.preset for s in summaries if s.preset}))
        ids = {s.id for s in summaries}
        for pid in f.pulkas:
            if pid not in ids:
                raise NotStoredError("pulka", pid, sorted(ids))
        return replace(f, player=player, preset=preset)

    def find(self, f: PulkaFilter | None = None) -> list[PulkaSummary]:
        """The summaries of the pulkas ``f`` passes (its names resolved first: :meth:`resolve`)."""
        if f is None or not f.active:
            return self.summaries()
        f = self.resolve(f)
        return [s for s in self.summaries() if f.matches(s)]

    def dates(self) -> tuple[str, str] | None:
        """The first and last date of the stored pulkas (``None`` when none has one)."""
        dates = sorted(s.date for s in self.summaries() if s.date)
        return (dates[0], dates[-1]) if dates else None

    def report(self, kind: str, f: PulkaFilter | None = None) -> Report:
        """The report ``kind`` of ``preflog stats`` (``players``, ``contracts``, ``variants``,
        ``players_by_level``) of the pulkas ``f`` passes, its names resolved (:meth:`resolve`)."""
        from .. import reports

        f = self.resolve(f) if f is not None and f.active else PulkaFilter()
        if self.con is not None:
            if kind not in reports.REPORTS:
                raise WorkspaceError(f"no report {kind!r} (known: {', '.join(reports.REPORTS)})")
            frame = getattr(reports, kind)(self.con, **f.options())
        else:
            frame = self.ws.stats(kind, **f.options())
        return Report(kind, f, frame)


@dataclass(frozen=True, slots=True)
class KnownPlayers:
    """The stored players as a start form offers them: the last table's in seat order, then the others
    alphabetically (:meth:`Archive.known_players`)."""

    last_table: tuple[str, ...]
    others: tuple[str, ...]

    @property
    def offered(self) -> tuple[str, ...]:
        """Every name to pick, the last table's first."""
        return self.last_table + self.others


@dataclass(frozen=True, slots=True)
class Report:
    """A report of the pulkas ``filter`` passes (its names as the store spells them) as a DataFrame."""

    kind: str
    filter: PulkaFilter
    frame: pd.DataFrame

    def filters_json(self) -> dict[str, Any]:
        """The filter as the ``--json`` envelope names it: the filters given, nothing for the others."""
        return {k: v for k, v in self.filter.options().items() if v is not None}

    def as_json(self) -> dict[str, Any]:
        """The report as ``preflog stats KIND --json`` writes it (docs/cli.md)."""
        return table_json(f"stats {self.kind}", frame_rows(self.frame), self.filters_json())


def recent_first(summaries: Sequence[PulkaSummary]) -> list[PulkaSummary]:
    """``summaries`` in the lists' order: in progress first, then by date, newest first (no date last),
    then by id.

    >>> s = [PulkaSummary(i, (), None, None, d, 1, None, 1, 1, e) for i, d, e in
    ...      (("a", "2024-05-01", True), ("b", None, True), ("c", "2024-05-03", True), ("d", "2024-04-01", False))]
    >>> [x.id for x in recent_first(s)]
    ['d', 'c', 'a', 'b']
    """
    out = sorted(summaries, key=lambda s: s.id)
    out.sort(key=lambda s: s.date or "", reverse=True)
    out.sort(key=lambda s: not s.in_progress)
    return out


def _stored_name(what: str, name: str, known: Sequence[str]) -> str:
    """``name`` as ``known`` spells it: the same name, else the one name equal to it case-folded; else
    :class:`NotStoredError` (it says which known names contain the one asked for)."""
    if name in known:
        return name
    folded = [k for k in known if k.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0]
    raise NotStoredError(what, name, list(known))


def _summaries(infos: Sequence[PulkaInfo] | None, con: Any) -> list[PulkaSummary]:
    """The summaries of the stored pulkas ``infos`` (``None``: of the pulkas a folder of projections alone
    holds: their deals as projected, no events) over connection ``con``."""
    from ..engine.corrections import CORRECTED
    from ..engine.corrections import sheet_deals

    projected = {r[0]: r[1:] for r in con.execute(
        "SELECT pulka, list(player ORDER BY seat), any_value(rules_spec), any_value(preset), "
        "CAST(any_value(date) AS VARCHAR), bool_and(settled), any_value(deals) FROM pulka_results "
        "GROUP BY pulka ORDER BY pulka").fetchall()}
    if infos is None:
        return [PulkaSummary(pid, tuple(players), rules, preset, date, deals, bool(settled), 0, 0)
                for pid, (players, rules, preset, date, settled, deals) in projected.items()]
    # every deal the log started, also one the audit stopped in (the projections leave it out)
    deals: dict[str, int] = {p: int(d) for p, d in con.execute(
        "SELECT pulka, max(deal) FROM events GROUP BY pulka").fetchall() if d is not None}
    rows = con.execute(
        "SELECT pulka, list((code, player, card, value, payload) ORDER BY seq) FROM events WHERE pulka IN "
        f"(SELECT DISTINCT pulka FROM events WHERE code = {CORRECTED}) GROUP BY pulka").fetchall()
    deals.update({p: sheet_deals([tuple(r) for r in log]) for p, log in rows})
    first = {} if len(projected) == len(infos) else _first_events(con, set(projected))
    ended = {r[0] for r in con.execute(
        f"SELECT DISTINCT pulka FROM events WHERE code = {PulkaEnded.CODE}").fetchall()}
    out = []
    head: tuple[tuple[str, ...], str | None, str | None, str | None, bool | None]
    for info in infos:
        got = projected.get(info.pulka)
        if got is not None:
            players, rules, preset, date, settled, _ = got
            head = (tuple(players), rules, preset, date, bool(settled))
        else:
            head = first.get(info.pulka, ((), None, None, None, None))
        out.append(PulkaSummary(info.pulka, head[0], head[1], head[2], head[3], deals.get(info.pulka), head[4],
                                info.events, info.last_seq, info.pulka in ended))
    return out


def _first_events(con: Any, projected: set[str]) -> dict[str, tuple[tuple[str, ...], str | None, str | None,
                                                                       str | None, None]]:
    """Players, rules, preset and date of each pulka the projections leave out, from its first event."""
    from ..projections.facts import rules_spec

    out: dict[str, tuple[tuple[str, ...], str | None, str | None, str | None, None]] = {}
    for pid, code, payload in con.execute("SELECT pulka, code, payload FROM events WHERE seq = 1").fetchall():
        if pid in projected:
            continue
        try:
            ev = from_row(code, -1, -1, 0, payload)
        except (EventError, TypeError, ValueError):
            continue
        if isinstance(ev, PulkaStarted):
            out[pid] = (tuple(ev.players), rules_spec(ev), RulesSpec.preset_of(ev.rules) or None,
                        date_iso(dict(ev.meta).get("date")), None)
    return out


__all__ = ["Archive", "KnownPlayers", "PulkaFilter", "PulkaSummary", "Report", "recent_first"]
