"""The JSON form of a record: the same syntax tree as the text form, as JSON.

Shape (schemas/record.schema.json)::

    {"format": "preflog-record", "version": 1,
     "pulkas": [{"players": ["Anna", "Boris", "Vera"], "rules": "sochi",
                 "options": [["raspasy_cap", 4]], "pool": 50, "whist_price": "1",
                 "meta": {"date": "2024-05-01"},
                 "deals": [{"dealer": "C", "hands": {"A": "As Ks …"}, "talon": "7h 8h",
                            "steps": [{"auction": [["A", "6s"], ["B", "pass"]]}, …]}],
                 "end": "closed"}]}

Steps are one-key objects: ``auction`` (pairs, or the string ``"all pass"``),
``talon_shown``, ``discard`` and ``contract`` (``[player, text]``), ``whist`` (pairs),
``trick`` (card strings; ``"(Qs)"`` marks a raspasy talon card), ``claim`` /
``check`` / ``tricks`` (``{player: n}`` or a list of n in seat order) and ``score``
(``{"player", "pulya", "gora", "visty": {player: n}}``; a score that is not whole is a string,
``"12.5"`` or ``"1/3"``, so it stays exact). Spellings are those of the
text form, so both read through :mod:`preflog.record.reader`.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from preflog.model.events import MAX_DEALS

from .errors import Loc
from .errors import RecordError
from .errors import Tok
from .syntax import ALL_PASS_KEY
from .syntax import ALL_PASS_WORDS
from .syntax import BY_JSON_KEY
from .syntax import STEPS
from .syntax import DealSyn
from .syntax import Form
from .syntax import Pair
from .syntax import PulkaSyn
from .syntax import Step
from .syntax import plain_steps
from .validate import option_text

FORMAT = "preflog-record"
VERSION = 1
_STEP_KEYS = tuple(BY_JSON_KEY)


class _JsonReader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, value: Any, problem: str, expected: str = "") -> RecordError:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)[:60]
        return RecordError(self.source, Loc(path=path), text, problem, expected)

    def obj(self, v: Any, path: str, required: tuple[str, ...] = (), allowed: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise self.fail(path, v, "is not an object")
        for key in required:
            if key not in v:
                raise self.fail(path, "", f"has no {key!r}", f"an object with {', '.join(required)}")
        for key in v:
            if allowed and key not in allowed:
                raise self.fail(f"{path}.{key}", key, "is not a known field", ", ".join(allowed))
        return v

    def arr(self, v: Any, path: str) -> list[Any]:
        if not isinstance(v, list):
            raise self.fail(path, v, "is not an array")
        return v

    def each(self, v: Any, path: str) -> list[tuple[Any, str]]:
        return [(x, f"{path}[{i}]") for i, x in enumerate(self.arr(v, path))]

    def tok(self, v: Any, path: str) -> Tok:
        if isinstance(v, str):
            return Tok(v, Loc(path=path))
        raise self.fail(path, v, "is not a string")

    def num(self, v: Any, path: str) -> Tok:
        if isinstance(v, int) and not isinstance(v, bool):
            return Tok(str(v), Loc(path=path))
        if isinstance(v, str):
            return Tok(v, Loc(path=path))
        raise self.fail(path, v, "is not a whole number")

    def score_num(self, v: Any, path: str) -> Tok:
        """A score number: a whole number, a decimal (``12.5``), or a string holding one or a fraction
        (``"25/2"``); the builder reads it exactly (a JSON decimal as written, not as a binary float)."""
        if isinstance(v, float) and math.isfinite(v):
            return Tok(repr(v), Loc(path=path))
        if isinstance(v, (int, str)) and not isinstance(v, bool):
            return Tok(str(v), Loc(path=path))
        raise self.fail(path, v, "is not a score", "a number, or a string such as \"25/2\"")

    def cards(self, v: Any, path: str) -> Tok:
        if isinstance(v, list):
            return Tok(" ".join(self.tok(c, f"{path}[{i}]").text for i, c in enumerate(v)), Loc(path=path))
        return self.tok(v, path)

    def pair(self, v: Any, path: str, optional: bool = False) -> tuple[Tok | None, Tok]:
        a = self.arr(v, path)
        if len(a) != 2:
            raise self.fail(path, v, "is not a pair", "[player, value]")
        who = None if optional and a[0] is None else self.tok(a[0], f"{path}[0]")
        return who, self.tok(a[1], f"{path}[1]")

    def document(self, doc: Any) -> list[PulkaSyn]:
        if isinstance(doc, dict) and "players" in doc:
            return [self.pulka(doc, "$")]
        d = self.obj(doc, "$", ("pulkas",), ("format", "version", "pulkas"))
        if d.get("format", FORMAT) != FORMAT:
            raise self.fail("$.format", d["format"], "is not this format", repr(FORMAT))
        if d.get("version", VERSION) != VERSION:
            raise self.fail("$.version", d["version"], "is not a supported version", str(VERSION))
        return [self.pulka(p, f"$.pulkas[{i}]") for i, p in enumerate(self.arr(d["pulkas"], "$.pulkas"))]

    def pulka(self, v: Any, path: str) -> PulkaSyn:
        d = self.obj(v, path, ("players",),
                     ("players", "rules", "options", "pool", "whist_price", "meta", "start", "deals", "end", "notes"))
        p = PulkaSyn(loc=Loc(path=path), players_loc=Loc(path=f"{path}.players"))
        p.players = [self.tok(n, q) for n, q in self.each(d["players"], f"{path}.players")]
        if "rules" in d:
            p.rules = self.tok(d["rules"], f"{path}.rules")
        for i, o in enumerate(self.arr(d.get("options", []), f"{path}.options")):
            q = f"{path}.options[{i}]"
            a = self.arr(o, q)
            if len(a) != 2:
                raise self.fail(q, o, "is not an option pair", "[name, value]")
            key = self.tok(a[0], f"{q}[0]").text
            if a[1] is None or isinstance(a[1], (float, dict)):
                raise self.fail(f"{q}[1]", a[1], "is not an option value", "a string, number, boolean or array")
            p.options.append(Tok(f"{key}={option_text(a[1])}", Loc(path=q)))
        if "pool" in d:
            p.pool = self.num(d["pool"], f"{path}.pool")
        if "whist_price" in d:
            p.whist_price = self.tok(d["whist_price"], f"{path}.whist_price")
        for key, value in self.obj(d.get("meta", {}), f"{path}.meta").items():
            p.meta.append((key, self.tok(value, f"{path}.meta.{key}")))
        p.start = [self.score_line(x, q) for x, q in self.each(d.get("start", []), f"{path}.start")]
        deals = d.get("deals", [])
        if isinstance(deals, list) and len(deals) > MAX_DEALS:   # refused before any deal is read
            raise self.fail(f"{path}.deals[{MAX_DEALS}]", deals[MAX_DEALS], f"is deal {MAX_DEALS + 1:,} of its "
                            f"pulka: a pulka holds at most {MAX_DEALS:,} deals")
        p.deals = [self.deal(x, q) for x, q in self.each(deals, f"{path}.deals")]
        if "end" in d:
            p.end = self.tok(d["end"], f"{path}.end")
        if "notes" in d:
            p.notes = []
            for n, q in self.each(d["notes"], f"{path}.notes"):
                a = self.arr(n, q)
                if len(a) != 3 or not isinstance(a[0], int) or isinstance(a[0], bool) \
                        or not isinstance(a[1], str) or not isinstance(a[2], str):
                    raise self.fail(q, n, "is not a note", '[seq, "before" or "after", text]')
                p.notes.append((a[0], a[1], a[2]))
        return p

    def deal(self, v: Any, path: str) -> DealSyn:
        d = self.obj(v, path, ("dealer",), ("dealer", "hands", "talon", "steps"))
        deal = DealSyn(loc=Loc(path=path), dealer=self.tok(d["dealer"], f"{path}.dealer"))
        for who, cards in self.obj(d.get("hands", {}), f"{path}.hands").items():
            q = f"{path}.hands.{who}"
            deal.hands.append(Pair(Tok(who, Loc(path=q)), self.cards(cards, q)))
        if "talon" in d:
            deal.talon = self.cards(d["talon"], f"{path}.talon")
        deal.steps = [self.step(s, q) for s, q in self.each(d.get("steps", []), f"{path}.steps")]
        return deal

    def step(self, v: Any, path: str) -> Step:
        d = self.obj(v, path, (), _STEP_KEYS)
        if len(d) != 1:
            raise self.fail(path, v, "is not a one-key step object", ", ".join(_STEP_KEYS))
        key, val = next(iter(d.items()))
        spec = BY_JSON_KEY[key]
        kind, form = spec.kind, spec.form
        q = f"{path}.{key}"
        loc = Loc(path=q)
        if key == ALL_PASS_KEY and isinstance(val, str):
            if " ".join(val.lower().split()) not in ALL_PASS_WORDS:
                raise self.fail(q, val, "is not an auction", "pairs [player, bid] or \"all pass\"")
            return Step("all_pass", loc)
        if form == Form.PAIRS:
            return Step(kind, loc, pairs=[Pair(*self.pair(x, f"{q}[{i}]")) for i, x in enumerate(self.arr(val, q))])
        if form == Form.CARDS:
            return Step(kind, loc, value=self.cards(val, q))
        if form == Form.VALUE:  # e.g. a correction, as the text form writes it: "deal 3"
            return Step(kind, loc, value=self.tok(val, q))
        if form == Form.PLAYER_VALUE:
            who, text = self.pair(val, q, optional=spec.player_optional)
            return Step(kind, loc, player=who, value=text)
        if form == Form.TRICK:
            pairs = []
            for i, c in enumerate(self.arr(val, q)):
                t = self.tok(c, f"{q}[{i}]")
                mark = t.text.startswith("(") and t.text.endswith(")") and len(t.text) > 2
                pairs.append(Pair(None, Tok(t.text[1:-1], t.loc) if mark else t, mark))
            return Step(kind, loc, pairs=pairs)
        if form == Form.COUNTS:
            if isinstance(val, list):
                return Step(kind, loc, pairs=[Pair(None, self.num(x, f"{q}[{i}]")) for i, x in enumerate(val)])
            return Step(kind, loc, pairs=[Pair(Tok(k, Loc(path=f"{q}.{k}")), self.num(x, f"{q}.{k}"))
                                          for k, x in self.obj(val, q).items()])
        return self.score_line(val, q)

    def score_line(self, val: Any, q: str) -> Step:
        """A score object ``{"player", "pulya", "gora", "visty": {player: n}}`` (a ``score`` step or a line
        of the starting sheet)."""
        s = self.obj(val, q, ("player",), ("player", "pulya", "gora", "visty"))
        step = Step("score", Loc(path=q), player=self.tok(s["player"], f"{q}.player"))
        for f in ("pulya", "gora"):
            if f in s:
                step.fields[f] = self.score_num(s[f], f"{q}.{f}")
        step.pairs = [Pair(Tok(k, Loc(path=f"{q}.visty.{k}")), self.score_num(x, f"{q}.visty.{k}"))
                      for k, x in self.obj(s.get("visty", {}), f"{q}.visty").items()]
        return step


_LONG_DIGITS = re.compile(r"[0-9]{4301,}")


def parse_json(data: str | bytes | dict[str, Any], source: str = "<json>", first_line: int = 1,
               located: bool = False) -> list[PulkaSyn]:
    """JSON text (or an already decoded object) → syntax tree. ``first_line``: the line of ``source``
    where the text starts (one of several documents in a file); ``located``: name that line in the
    errors that give a JSON path (``game.jsonl:3: $.deals[0]…``), to tell documents apart."""
    if isinstance(data, (str, bytes)):
        raw = data
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RecordError(source, Loc(exc.lineno + first_line - 1, exc.colno), exc.doc[exc.pos:exc.pos + 10],
                              f"is not valid JSON: {exc.msg}") from None
        except (UnicodeDecodeError, RecursionError) as exc:
            raise RecordError(source, Loc(path="$"), "", f"is not valid JSON: {exc}") from None
        except ValueError:  # an integer of more digits than int() reads (4,300)
            raise _long_number(raw, source, first_line) from None
    return _JsonReader(f"{source}:{first_line}" if located else source).document(data)


def _long_number(data: str | bytes, source: str, first_line: int = 1) -> RecordError:
    """The error for JSON whose integer has more digits than Python reads, located at that number."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    m = _LONG_DIGITS.search(text)
    at = m.start() if m else 0
    line = text.count("\n", 0, at) + first_line
    loc = Loc(line, at - (text.rfind("\n", 0, at) + 1) + 1)
    return RecordError(source, loc, text[at:at + 10] + "…" if m else "",
                       f"is a number of {len(m.group()) if m else 'too many'} digits", "at most 4300 digits")


def _int_or_text(t: Tok) -> int | str:
    try:
        return int(t.text)
    except ValueError:
        return t.text


def _option_value(text: str) -> Any:
    """The JSON value of an option written ``key=value`` (typed: numbers, booleans, arrays)."""
    if text in ("true", "false"):
        return text == "true"
    try:
        return json.loads(text) if text[:1] in "[-0123456789" else text
    except json.JSONDecodeError:
        return text


def render_obj(pulkas: list[PulkaSyn]) -> dict[str, Any]:
    """The canonical JSON object of a syntax tree made by :func:`~preflog.record.writer.unbuild`."""
    out = []
    for p in pulkas:
        d: dict[str, Any] = {"players": [t.text for t in p.players or ()],
                             "rules": p.rules.text if p.rules else "sochi"}
        if p.options:
            d["options"] = [[k, _option_value(v)] for k, _, v in (t.text.partition("=") for t in p.options)]
        d["pool"] = _int_or_text(p.pool) if p.pool else 50
        d["whist_price"] = p.whist_price.text if p.whist_price else "1"
        if p.meta:
            d["meta"] = {k: t.text for k, t in p.meta}
        if p.start:
            d["start"] = [_score_obj(s) for s in p.start]
        d["deals"] = [_deal_obj(x) for x in p.deals]
        if p.end is not None:
            d["end"] = p.end.text
        if p.notes:
            d["notes"] = [list(n) for n in p.notes]
        out.append(d)
    return {"format": FORMAT, "version": VERSION, "pulkas": out}


def _deal_obj(deal: DealSyn) -> dict[str, Any]:
    d: dict[str, Any] = {"dealer": deal.dealer.text if deal.dealer else ""}
    if deal.hands:
        d["hands"] = {h.player.text if h.player else "": h.value.text for h in deal.hands}
    if deal.talon is not None:
        d["talon"] = deal.talon.text
    steps: list[dict[str, Any]] = []
    for s in plain_steps(deal.steps):
        pairs = [[p.player.text if p.player else None, p.value.text] for p in s.pairs]
        spec = STEPS[s.kind]
        form, key = spec.form, spec.json_key
        if form == Form.ALL_PASS:
            steps.append({key: "all pass"})
        elif form == Form.PAIRS:
            steps.append({key: pairs})
        elif form == Form.VALUE or form == Form.CARDS:
            steps.append({key: s.value.text if s.value else ""})
        elif form == Form.PLAYER_VALUE:
            steps.append({key: [s.player.text if s.player else None, s.value.text if s.value else ""]})
        elif form == Form.TRICK:
            steps.append({key: [f"({p.value.text})" if p.mark else p.value.text for p in s.pairs]})
        elif form == Form.COUNTS:
            steps.append({key: {p.player.text if p.player else "": _int_or_text(p.value) for p in s.pairs}})
        else:
            steps.append({key: _score_obj(s)})
    d["steps"] = steps
    return d


def _score_obj(s: Step) -> dict[str, Any]:
    return {"player": s.player.text if s.player else "", **{k: _int_or_text(t) for k, t in s.fields.items()},
            "visty": {p.player.text if p.player else "": _int_or_text(p.value) for p in s.pairs}}
