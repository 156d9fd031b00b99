"""The deal viewer: one self-contained HTML page that steps through a pulka event by event.

``viewer_html(loaded)`` replays the log with the audit engine (:class:`preflog.engine.replay.Auditor`, not
strict, so a finding does not stop the replay) and keeps, after every event, what a person at the table
sees: the hands and the talon as cards, the auction, the discard, the contract and the whist calls, the
trick in progress and the last one taken, the tricks per player, the score lines the deal wrote and the
sheet so far, and the record's comments at the event they stand at. The page (preflog/templates/
viewer.html) holds those steps as JSON (each step's fields only where they changed, :func:`pack_steps`)
and a small script (viewer.js) draws them; it loads nothing (no network, no external script, style or
font). Keys: ←/→ an event, ↑/↓ a trick, PageUp/PageDown (or ``[``/``]``) a deal, Home/End the start and
the end, ``?`` the help (``n``/``p`` the next and previous mistake on the page of ``analyze --html``); the
buttons do the same, a swipe on the table steps an event, the address follows the position. Besides the
table (played cards greyed, the seat to move and the trump suit marked, the auction in seat columns, one
seat's view), the page shows the paper sheet after the current deal (:func:`_paper`: each entry a link to
its deal) and the deals with a result line each. Every audit finding is a link to the event where it
happened, shown highlighted. Paper-level deals show what is known: the contract, the calls and the
tricks, no cards.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from ..engine.corrections import DealFate
from ..engine.corrections import effective_positions
from ..engine.families import family_of
from ..engine.replay import Auditor
from ..engine.replay import corrected_walk
from ..model.calls import CALL_NAMES
from ..model.events import CardPlayed
from ..model.events import DealCorrected
from ..model.events import Event
from ..model.events import PulkaStarted
from ..model.events import ScoreValue
from ..model.outcome import NO_SEAT
from ..model.outcome import DealKind
from ..model.outcome import DealOutcome
from ..model.registry import ROLES
from ..model.registry import Role
from ..model.registry import spec_of
from ..render.numbers import mixed
from ..render.sheet_svg import name_forms
from ..render.sheet_svg import render_svg
from ..render.words import Words
from ..render.words import sheet_lang
from ..render.words import words_for
from ..scoring.sheet import DealScore
from ..scoring.sheet import Sheet
from ..templates import LANG
from ..templates import Markup
from ..templates import page
from ..workspace import Audited
from ..workspace import Loaded
from .json import contract_text
from .json import frac
from .json import sheet_json

if TYPE_CHECKING:
    from ..engine.pulka import PulkaState
    from ..rules.config import Rules
    from ..scoring.base import Scorer


class _Speller:
    """How the viewer names things in an event's line (:class:`~preflog.model.registry.Speller`): the
    players by name, bids by the family's codec, the family's words."""

    def __init__(self, players: tuple[str, ...], pulka: PulkaState | None) -> None:
        self.players = players
        self.pulka = pulka
        self.rules = pulka.rules if pulka is not None else None

    def seat(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"

    def bid(self, code: int) -> str:
        return family_of(self.rules).bids.format(code, "unicode") if self.rules is not None else str(code)

    def contract(self, code: int) -> str:
        return _contract(self.rules, code)

    def number(self, value: ScoreValue) -> str:
        return mixed(value)

    def pool(self, ev: PulkaStarted) -> str:
        if _words(self.rules).centre_is_start:  # the columns' start counts, not the [Pool] tag
            scorer = self.pulka.scorer if self.pulka is not None else None
            start = mixed(scorer.sheet.pulya[0]) if scorer is not None and scorer.sheet.pulya else ""
            return f"columns start at {start}"
        return f"pool {ev.pool}"

    def sheet_words(self) -> tuple[str, str, str]:
        w = _words(self.rules)
        return w.pool_table, w.gora_table or "", w.written_short


def _describe(ev: Event, players: tuple[str, ...], pulka: PulkaState | None) -> str:
    """One line of the record for an event, with the players named: the event's human text in the
    registry (:mod:`preflog.model.registry`), spelled for this pulka."""
    try:
        spec = spec_of(ev)
    except KeyError:
        return ev.KIND
    return spec.text(ev, _Speller(players, pulka))


def _contract(rules: Rules | None, code: int, hand: bool = False) -> str:
    """A contract as the family writes it, with suit symbols (``6♠``; ``contract_text`` is the JSON's ``6s``)."""
    if rules is None or code == 0:
        return contract_text(rules, code, hand)
    return family_of(rules).bids.format(code, "unicode") + (" hand" if hand else "")


def _result_line(outcome: DealOutcome | None, score: DealScore | None, scorer: Scorer | None, rules: Rules | None,
                 short: Sequence[str]) -> str:
    """A deal's result in one line: ``Петров 7♦: made, 7 tricks``, ``raspasy: Anna 2 · Boris 4 · Vera 4``."""
    if outcome is None:
        return "not finished"
    w = _words(rules)
    if outcome.declarer == NO_SEAT:
        if outcome.kind == DealKind.RASPASY and outcome.tricks:
            return f"{w.all_pass}: " + " · ".join(f"{short[s]} {t}" for s, t in enumerate(outcome.tricks)
                                                 if s < len(short) and (t or s != outcome.dealer or len(short) == 3))
        return w.all_pass
    head = f"{short[outcome.declarer]} {_contract(rules, outcome.contract, outcome.hand_game)}"
    result = scorer.deal_result(outcome) if scorer is not None else None
    how = {DealKind.NOT_WHISTED: "not whisted", DealKind.HALF_WHIST: "half-whist",
           DealKind.CONCEDED: "won without play"}.get(DealKind(outcome.kind), "")
    verdict = "" if result is None else "made" if result.made else f"down {result.undertricks}"
    tricks = "" if outcome.paper and not outcome.tricks or not outcome.tricks or how \
        else f"{outcome.tricks[outcome.declarer]} tricks"
    return head + ": " + ", ".join(x for x in (how, verdict, tricks) if x)


def _paper(final: Mapping[str, Any]) -> list[list[Any]]:
    """The entries of the paper sheet as written, deal by deal: ``[player, zone, other, deal, value]``
    (zone ``p`` pulya, ``g`` gora, ``v`` visty on ``other``; deal 0 a column's start), each a new running
    total of its zone as the sheet writes it after the deal (the viewer shows those up to the current deal)."""
    players = list(final["players"])
    out: list[list[Any]] = []
    last: dict[tuple[int, str, int], str] = {}
    start = final.get("start", {})
    for i, p in enumerate(players):
        for zone, key in (("p", "pulya"), ("g", "gora")):
            v = str(start.get(key, {}).get(p, 0))
            last[(i, zone, -1)] = v
            if v != "0":
                out.append([i, zone, -1, 0, v])
        for j, q in enumerate(players):
            if j != i:
                last[(i, "v", j)] = str(start.get("visty", {}).get(p, {}).get(q, 0))
    for deal in final.get("deals", []):
        for i, p in enumerate(players):
            for zone, key in (("p", "pulya"), ("g", "gora")):
                v = str(deal.get(key, {}).get(p, last[(i, zone, -1)]))
                if v != last[(i, zone, -1)]:
                    out.append([i, zone, -1, deal["deal"], v])
                    last[(i, zone, -1)] = v
            for j, q in enumerate(players):
                if j != i:
                    v = str(deal.get("visty", {}).get(p, {}).get(q, last[(i, "v", j)]))
                    if v != last[(i, "v", j)]:
                        out.append([i, "v", j, deal["deal"], v])
                        last[(i, "v", j)] = v
    return out


def _words(rules: Rules | None) -> Words:
    """The words of the pulka's family, as its preset says them (:mod:`preflog.render.words`), in the
    language of the page written now (:data:`preflog.templates.LANG`)."""
    return words_for(family_of(rules).name if rules is not None else None, rules.name if rules else None,
                     sheet_lang(LANG.get()))


def _short_names(players: Sequence[str], most: int = 12) -> list[str]:
    """Each player's name as the viewer's narrow tables write it: the longest paper form of at most
    ``most`` characters (``Александр П.``, ``А.П.``), told apart from the others' (``most=0``: the
    shortest form, the initials where they tell the players apart)."""
    forms = name_forms(list(players))
    return [next((f for f in forms[p] if len(f) <= most), forms[p][-1]) for p in players]


def _sheet(sheet: Sheet) -> dict[str, Any]:
    """The sheet so far as the page writes it: each value a mixed number (``30⅔``, ``−1⅓``)."""
    return {"p": [mixed(frac(v)) for v in sheet.pulya], "g": [mixed(frac(v)) for v in sheet.gora],
            "v": [[mixed(frac(v)) for v in row] for row in sheet.visty]}


def _score(score: DealScore) -> dict[str, Any]:
    """A deal's score lines as the page writes them (mixed numbers, as :func:`_sheet`)."""
    return {"p": [mixed(frac(v)) for v in score.pulya], "g": [mixed(frac(v)) for v in score.gora],
            "v": [[mixed(frac(v)) for v in row] for row in score.visty], "note": score.note}


@dataclass(slots=True)
class _History:
    """The corrections of a log as the viewer tells them (:func:`_corrections`)."""

    lines: list[str] = field(default_factory=list)
    """One line per correction that applied, in the order entered."""
    replaced: dict[int, str] = field(default_factory=dict)
    """The position of a replacement deal's DealStarted → ``corrected at …`` (its result line says so)."""


def _corrections(events: Sequence[Event], notes: dict[int, list[str]]) -> _History:
    """The corrections of ``events`` that applied (:func:`preflog.engine.corrections.effective_positions`
    says which deal block each took off the sheet): a line each for the page, and a note on the
    replacement deal's header saying when it was corrected and which entry it replaced."""
    if not any(type(ev) is DealCorrected for ev in events):
        return _History()
    fates: dict[int, DealFate] = {}
    effective_positions([ev.to_row() for ev in events], fates)
    gone = {fate.removed_by: pos for pos, fate in fates.items() if fate.removed_by is not None}
    out = _History()
    for pos in sorted(fates):
        fate = fates[pos]
        if fate.correction is None:
            continue
        own = events[fate.correction]
        when = f" at {own.at}" if isinstance(own, DealCorrected) and own.at else ""
        entered = gone.get(fate.correction)
        was = f" (entered at event {entered + 1})" if entered is not None else ""
        if fate.struck:
            out.lines.append(f"event {fate.correction + 1}{when}: deal {fate.number}{was} struck out")
            continue
        out.lines.append(f"event {fate.correction + 1}{when}: deal {fate.number}{was} replaced by the deal "
                         f"at event {pos + 1}")
        out.replaced[pos] = f"corrected{when}"
        notes.setdefault(pos, []).append(f"corrected{when}: this deal replaces deal {fate.number}{was}")
    return out


def viewer_data(loaded: Loaded, marks: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The steps of the viewer: the table after every event of the log, with the audit's findings.
    ``marks``: event seq of a card → a title (``preflog analyze --html`` marks the cards that lost
    tricks, the title naming what each cost)."""
    a = Auditor(strict=False)
    steps: list[dict[str, Any]] = []
    sheets: list[dict[str, Any]] = []
    last_sheet = ""
    last_trick: list[list[int]] = []
    winner = -1
    deal_index = 0
    notes: dict[int, list[str]] = {}  # the record's comments, by the event (0-based) they stand at
    results: dict[int, str] = {}  # deal → its result in one line
    first = loaded.events[0] if loaded.events else None
    short = _short_names(first.players) if isinstance(first, PulkaStarted) else []
    if isinstance(first, PulkaStarted):
        for at, _, text in first.notes:
            notes.setdefault(at, []).append(text)
    events = loaded.events
    corrections = _corrections(events, notes)
    positions = corrected_walk(a, events)   # the sheet as corrected; the history in ``corrections``
    for i, k in enumerate(positions):
        ev = events[k]
        d_before = a.pulka.deal if a.pulka is not None else None
        before = list(zip(d_before.trick_seats, d_before.trick_cards, strict=False)) if d_before else []
        tricks_before = list(d_before.tricks) if d_before else []
        seq = k + 1   # the store's numbering
        a.step(i, ev.to_row(), ev)
        p = a.pulka
        players = p.players if p is not None else ()
        d = p.deal if p is not None else None
        role = ROLES[ev.CODE] if 0 <= ev.CODE < len(ROLES) else -1
        if role == Role.DEAL_START:
            deal_index += 1
            last_trick, winner = [], -1
        step: dict[str, Any] = {"seq": seq, "kind": ev.KIND, "text": _describe(ev, players, p), "deal": deal_index}
        if k in notes:
            step["notes"] = notes[k]
        card = ev.card if isinstance(ev, CardPlayed) else -1
        if marks and seq in marks and card >= 0:
            step["mark"] = marks[seq]
            step["card"] = card
        if card >= 0:
            step["play"] = [ev.player, card]  # type: ignore[attr-defined]
        if card >= 0 and d is not None and d is d_before and not d.trick_cards and before:
            last_trick = [[s, c] for s, c in before] + [[ev.player, card]]  # type: ignore[attr-defined]
            winner = next((s for s in range(len(d.tricks)) if d.tricks[s] > tricks_before[s]), -1)
        if d is not None:
            history = getattr(d.auction, "history", [])
            family = family_of(d.rules)
            fmt = family.bids.format
            # the calls in the family's words (Croatian: igram, pass, zovem)
            said = {**CALL_NAMES, **(family.entry.call_words if family.entry is not None else {})}
            step.update({
                "dealNo": d.deal, "dealer": d.dealer, "phase": d.phase_name, "paper": d.paper,
                "hands": None if d.paper else list(d.hands),
                "talon": d.talon, "discard": d.discard_mask,
                "auction": [[s, fmt(b, "unicode")] for s, b in history],
                "contract": _contract(d.rules, d.contract) if d.contract else "",
                "turn": d.to_move if not d.done else -1, "trump": getattr(d, "trump", -1),
                "declarer": d.declarer, "calls": [said.get(c, "") if c >= 0 else ""
                                                   for c in d.defence_calls()],
                "open": bool(d.open_play),
                "trick": [[s, c] for s, c in zip(d.trick_seats, d.trick_cards, strict=False)],
                "last": last_trick, "winner": winner, "tricks": list(d.tricks), "completed": d.completed,
                "done": bool(d.done),
            })
            summary = a.summary
            if d.done and summary is not None and summary.score is not None:
                step["score"] = _score(summary.score)

        if p is not None and p.scorer is not None:
            sh = _sheet(p.scorer.sheet)
            key = json.dumps(sh)
            if key != last_sheet:
                sheets.append(sh)
                last_sheet = key
            step["sheet"] = len(sheets) - 1
        steps.append(step)
    a.close_log(len(positions))
    result = a.result()
    scorer = a.pulka.scorer if a.pulka is not None else None
    for summary in result.deals:  # a deal the next one closed (won without play) has its line too
        results[summary.deal] = "stopped at an illegal event (see the audit findings)" if summary.broken \
            else _result_line(summary.outcome, summary.score, scorer, result.rules, short)
        if summary.seq - 1 in corrections.replaced:
            results[summary.deal] += f" ({corrections.replaced[summary.seq - 1]})"
    final = sheet_json(Audited(loaded, result))
    findings = [{"code": f.code, "deal": f.deal, "seq": f.seq, "message": f.message} for f in result.findings]
    at_seq = {step["seq"]: step for step in steps}   # the store's numbering (a struck event has no step)
    for k, found in enumerate(result.findings):
        if found.seq in at_seq:
            at_seq[found.seq].setdefault("findings", []).append(k)
    w = _words(result.rules)
    words = {"pool": w.pool_table, "gora": w.gora_table, "visty": w.visty_table, "allPass": w.all_pass}
    return {"id": loaded.id, "players": list(result.players), "short": _short_names(result.players),
            "initials": _short_names(result.players, 0),
            "words": words, "steps": steps, "sheets": sheets,
            "findings": findings, "final": {"totals": final["totals"], "settlement": final["settlement"]},
            "results": {str(k): v for k, v in results.items()}, "paper": _paper(final),
            "corrections": corrections.lines, "svg": render_svg(final, sheet_lang(LANG.get()))}


def viewer_html(loaded: Loaded, marks: Mapping[int, str] | None = None,
                analysis: Mapping[str, Any] | None = None) -> str:
    """The self-contained deal viewer page of one pulka (``marks``: see :func:`viewer_data`; ``analysis``:
    the double-dummy figures of ``analyze --html``, :func:`preflog.views.analysis.analysis_view`).

    Rendered by :func:`preflog.templates.page`: the title autoescaped, the steps as JSON in a
    ``<script type="application/json">`` (escaped for it), the sheet's SVG (its text escaped as it was
    drawn) as one value marked safe, and the viewer's script allowed by its hash alone."""
    data = viewer_data(loaded, marks)
    if analysis is not None:
        data["analysis"] = analysis
    data["steps"] = pack_steps(data["steps"])
    svg = Markup(data.pop("svg"))
    return page("viewer.html", script="viewer.js", title=f"preflog · {loaded.id}", svg=svg, data=data)


# What a step of the table carries over from the step before when it did not change (the page writes it once).
_CARRIED = ("deal", "dealNo", "dealer", "phase", "paper", "hands", "talon", "discard", "auction", "contract",
            "turn", "trump", "declarer", "calls", "open", "trick", "last", "winner", "tricks", "completed", "done",
            "sheet")


def pack_steps(steps: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The steps as the page holds them: a carried field (:data:`_CARRIED`) only where it differs from the
    step before (``null`` where it went away); viewer.js fills the rest in when it loads. A pulka of 100
    deals and more stays well under 1.5 MB this way."""
    out: list[dict[str, Any]] = []
    prev: dict[str, Any] = {}
    for step in steps:
        packed = {k: v for k, v in step.items() if k not in _CARRIED or k not in prev or prev[k] != v}
        for k in _CARRIED:
            if k in prev and k not in step:
                packed[k] = None
        out.append(packed)
        prev = step
    return out


_PLAIN_ID = re.compile(r"[a-z0-9]+(?:[._-][a-z0-9]+)*")


def page_name(pulka_id: str) -> str:
    """The file name of a pulka's viewer page: unique to the id and the same for it every time.

    An id of lower-case letters, digits and single ``.``/``_``/``-`` between them (``demo-sochi-3p-001``)
    is its own name. Any other id (``A b``, ``a/b``, ``a__b``, one of upper case, a very long one) is
    written as a readable stem of its letters and digits (any script), lower-cased and joined by ``-``,
    then ``--`` and the first 16 hex digits of
    the id's SHA-256: a plain name never holds ``--``, so the two kinds never meet, and no two ids share
    a name, even on a file system that ignores case."""
    if _PLAIN_ID.fullmatch(pulka_id) and len(pulka_id) <= 80:
        return pulka_id + ".html"
    stem = re.sub(r"[\W_]+", "-", pulka_id.lower()).strip("-")[:60].strip("-") or "pulka"
    digest = hashlib.sha256(pulka_id.encode("utf-8")).hexdigest()[:16]
    return f"{stem}--{digest}.html"


def write_viewers(loaded: Sequence[Loaded], folder: Path, relative_to: Path) -> list[tuple[str, str]]:
    """Write a viewer page per pulka into ``folder`` (named by :func:`page_name`); return ``(pulka id,
    link)`` pairs with links relative to the folder ``relative_to`` (the report's)."""
    folder.mkdir(parents=True, exist_ok=True)
    links = []
    written: set[str] = set()
    for ld in loaded:
        name = page_name(ld.id)
        if name.lower() in written:  # the same id once more (distinct ids get distinct names)
            continue
        written.add(name.lower())
        (folder / name).write_text(viewer_html(ld), encoding="utf-8")
        links.append((ld.id, os.path.relpath(folder / name, relative_to).replace(os.sep, "/")))
    return links
