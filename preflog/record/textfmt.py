"""The text form of a record: a lenient parser and a strict canonical renderer.

The parser only splits lines into a :mod:`~preflog.record.syntax` tree with the
line and column of every piece; :mod:`~preflog.record.reader` resolves it. Comments
(``; to end of line`` and ``{ … }``, which may span lines) are blanked out first so
that columns stay true, and kept with their lines (the builder makes them the pulka's notes;
the renderer writes notes back). See docs/record-format.md for the grammar.
"""

from __future__ import annotations

import bisect
import re
from itertools import islice
from typing import Any

from preflog.model.cards import CardError
from preflog.model.cards import parse_card
from preflog.model.events import MAX_DEALS

from . import scanner
from .errors import Loc
from .errors import RecordError
from .errors import Tok
from .syntax import ALL_PASS_WORDS
from .syntax import FAST_TRICK
from .syntax import KEYWORDS
from .syntax import STEPS
from .syntax import Comment
from .syntax import DealSyn
from .syntax import Form
from .syntax import HandLine
from .syntax import KeyedLine
from .syntax import Notes
from .syntax import Pair
from .syntax import PulkaSyn
from .syntax import Step
from .syntax import StepSyntax
from .syntax import TrickLine
from .syntax import TrickRun
from .syntax import plain_steps
from .validate import LETTERS
from .validate import trailing_ok

# Possessive quantifiers (*+) and no lazy group before optional space: every line pattern matches or
# fails in one pass, so a long line of spaces cannot make the reader quadratic.
_TAG = re.compile(r'\[\s*+([^\s"\]]*+)\s*+"((?:[^"\\\n]|\\.)*+)"\s*+\]')
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_DEAL = re.compile(r"(?i)(deal|сдача|раздача)(?![\w])\.?\s*(?:[#№]\s*)?(\d+)?\s*[:.]?\s*(.*)")
_DEALER_WORD = re.compile(r"(?i)(dealer|сдатчик|сдаёт|сдает)(?![\w])\s*[:=]?\s*")
_TRICK = re.compile(r"(?i)(?:(?:trick|взятка)\s*)?(\d+)\s*[:.)]\s*(.*)")
_FAST_DEAL = re.compile(r"Deal ([0-9]+): dealer ([^\s:=]\S*+)")  # a canonical deal header (_DEAL reads it alike)
_KEY = re.compile(r"([^:]*[^:\s])\s*+:\s*+(.*)")
_FAST_TRICK = FAST_TRICK  # a canonical trick line (the careful _TRICK reads it alike)
# Keys of canonical keyed lines (as the writer spells them) → step kind: read without the line patterns.
_CANONICAL_KEYS = {k: KEYWORDS[k.lower()] for k in ("Auction", "Whist", "Contract", "Discard", "Talon", "Talon shown",
                                                     "Claim", "Check", "Tricks", "Score")}
_FORMS = {kind: spec.form for kind, spec in STEPS.items()}  # (a dict lookup on the fast path)
_SCORE_WORD = re.compile(r"(?i)(?<![\w])(pulya|пуля|pool|gora|гора|mountain|visty|висты|whists)(?![\w])")
_SCORE_FIELD = {"pulya": "pulya", "пуля": "pulya", "pool": "pulya", "gora": "gora", "гора": "gora",
                "mountain": "gora", "visty": "visty", "висты": "visty", "whists": "visty"}
_VISTY_SEP = re.compile(r"[=:,]")
_VISTY_VALUE = re.compile(r"\s*([^\s,]*)\s*,?")
_ITEM = re.compile(r"[^\s,]+")
_TAG_FIELDS = {"players": "players", "rules": "rules", "option": "option", "options": "option",
               "pool": "pool", "whistprice": "whist_price", "whist_price": "whist_price",
               "whist-price": "whist_price"}
_META_TAGS = {"event": "Event", "date": "Date", "place": "Place", "id": "Id"}
LINE_EXPECTED = ("a tag [Name \"value\"], 'Deal N: dealer A', a hand 'A: cards', 'Talon:', 'Auction:', "
                 "'Discard:', 'Contract:', 'Whist:', a trick 'N: cards', 'Claim:', 'Check:', 'Tricks:', "
                 "'Score:', 'Start:' (before the first deal) or 'End:'")


# ------------------------------------------------------------------------------------- parsing
def _blank_comments(text: str, source: str, first_line: int = 1, comments: list[Comment] | None = None) -> str:
    """Replace comments by spaces (newlines kept) so that line and column numbers stay true
    (``text`` starts at line ``first_line`` of its file); each comment with text goes to ``comments``."""
    if ";" not in text and "{" not in text and "}" not in text:
        return text  # nothing to blank and nothing to complain about
    out = list(text)
    at = [0, first_line]  # a position of the text and its line: comments come in order, so lines are counted once

    def keep(i: int, body: str) -> None:
        if comments is not None and body.strip():
            start = text.rfind("\n", 0, i) + 1
            own = not "".join(out[start:i]).strip()
            at[1] += text.count("\n", at[0], i)
            at[0] = i
            comments.append(Comment(at[1], own, body.strip()))

    i, n, quoted = 0, len(text), False
    while i < n:
        ch = text[i]
        if quoted:
            if ch == "\\" and i + 1 < n and text[i + 1] != "\n":
                i += 2
                continue
            if ch in '"\n':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == ";":
            j = text.find("\n", i)
            j = n if j < 0 else j
            keep(i, text[i + 1:j])
            out[i:j] = " " * (j - i)
            i = j
            continue
        elif ch == "{":
            j = text.find("}", i)
            if j < 0:
                raise RecordError(source, _loc_at(text, i, first_line), "{", "opens a comment that is never closed",
                                  "'}'")
            keep(i, text[i + 1:j])
            out[i:j + 1] = _NOT_NEWLINE.sub(" ", text[i:j + 1])
            i = j + 1
            continue
        elif ch == "}":
            raise RecordError(source, _loc_at(text, i, first_line), "}", "closes a comment that was never opened")
        i += 1
    return "".join(out)


_NOT_NEWLINE = re.compile(r"[^\n]")


def _loc_at(text: str, i: int, first_line: int = 1) -> Loc:
    return Loc(text.count("\n", 0, i) + first_line, i - (text.rfind("\n", 0, i) + 1) + 1)


def _visty_entry(seg: str, pos: int) -> tuple[int, str, int, str, int] | None:
    """The visty entry ``player=N`` (or ``player: N``) at ``pos`` of ``seg``, optionally followed by a
    comma: ``(name start, name, value start, value, end)``, or None if none starts there.

    Scanned once, left to right (no backtracking regex), so a long line reads in linear time."""
    start = pos
    while start < len(seg) and seg[start].isspace():
        start += 1
    if start >= len(seg) or seg[start] in "=,":
        return None
    sep = _VISTY_SEP.search(seg, start + 1)  # the name runs to the first '=' or ':' (never past a comma)
    if sep is None or sep.group() == ",":
        return None
    name = seg[start:sep.start()].rstrip()
    m = _VISTY_VALUE.match(seg, sep.end())
    assert m is not None  # every part of the pattern may be empty
    return start, name, m.start(1), m.group(1), m.end()


def _split(s: str, loc: Loc, sep: str = ",") -> list[Tok]:
    """Non-empty pieces of ``s`` between separators, stripped, with their own columns."""
    out, start = [], 0
    for part in s.split(sep):
        stripped = part.strip()
        if stripped:
            out.append(Tok(stripped, loc.shifted(start + len(part) - len(part.lstrip()))))
        start += len(part) + len(sep)
    return out


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.pulkas: list[PulkaSyn] = []
        self.pulka: PulkaSyn | None = None
        self.deal: DealSyn | None = None
        self.names: list[str] = []
        self.singles: set[str] = set()
        self._cands: list[str] = []
        self._safe = ""
        self._cands_of: list[str] | None = None
        self._letters = ""
        self._letters_of: list[str] | None = None

    def fail(self, tok: Tok, problem: str, expected: str = "") -> RecordError:
        return RecordError(self.source, tok.loc, tok.text, problem, expected)

    def parse(self, text: str, first_line: int = 1) -> list[PulkaSyn]:
        comments: list[Comment] = []
        text = _blank_comments(text.replace("\ufeff", " "), self.source, first_line, comments)
        fast_trick = _FAST_TRICK.fullmatch
        fast_deal = _FAST_DEAL.fullmatch
        canonical = _CANONICAL_KEYS.get
        line = self.line
        # Fast paths for the commonest canonical lines, trick "N: cards", hand "A: cards" and keyed
        # "Auction: …" (no padding; inside a deal of an open pulka): exactly what line() makes of them.
        # ``deal`` and ``letters`` change only in line() (tags, deal headers, End): refreshed after it.
        deal: DealSyn | None = None
        letters = ""
        lines = text.split("\n")
        # The compiled scanner takes a whole run of canonical trick lines at once (one TrickRun);
        # the lines it leaves go through the loop below, as in pure Python.
        runs = scanner.SCAN.trick_lines if scanner.SCAN is not None else None
        letter_list: Any = scanner.SCAN.letter_list if scanner.SCAN is not None else None  # set with runs
        numbered = enumerate(lines, first_line)
        for lineno, raw in numbered:
            if deal is not None and raw and not raw[-1].isspace():
                c0 = raw[0]
                if c0.isdigit():
                    if runs is not None:
                        at = lineno - first_line
                        k = runs(lines, at)
                        if k:
                            deal.steps.append(TrickRun(lineno, lines, at, at + k))
                            if k > 1:
                                next(islice(numbered, k - 2, k - 1), None)  # skip the rest of the run
                            continue
                    m = fast_trick(raw)
                    if m:
                        deal.steps.append(TrickLine(lineno, m[1], m[2], m.start(2) + 1))
                        continue
                elif raw[1:3] == ": " and c0 in letters and not raw[3:4].isspace() and not deal.steps:
                    if runs is not None:
                        deal.hands.append(HandLine(lineno, raw))  # the same pair, its tokens made if needed
                        continue
                    loc = Loc(lineno, 1)
                    deal.hands.append(Pair(Tok(c0, loc), Tok(raw[3:], Loc(lineno, 4))))
                    continue
                else:
                    key, sep, rest = raw.partition(": ")
                    kind = canonical(key)
                    if kind is not None and sep and not rest[:1].isspace():
                        if runs is not None:  # what keyed() makes of the commonest, without its general steps
                            if self._cands_of is not self.names:
                                self._refresh()
                            form = _FORMS.get(kind)
                            if form == Form.PAIRS and letter_list(rest, self._safe):
                                deal.steps.append(KeyedLine(lineno, kind, rest, len(key) + 3))
                                continue
                            if kind == "talon" and not deal.steps and deal.talon is None:
                                deal.talon = Tok(rest, Loc(lineno, 8))
                                continue
                            if form == Form.PLAYER_VALUE and len(rest) > 2 and rest[1] == " " \
                                    and rest[0] in self._safe and rest[2] not in " \t:=":  # split_player's first case
                                deal.steps.append(KeyedLine(lineno, kind, rest, len(key) + 3))
                                continue
                        self.keyed(kind, Tok(key, Loc(lineno, 1)), Tok(rest, Loc(lineno, len(key) + 3)))
                        continue
            if runs is not None and raw[:5] == "Deal ":
                p = self.pulka
                m = fast_deal(raw)
                if m and p is not None and p.end is None:  # what line() and deal_header() make of it
                    deal = self.deal = DealSyn(loc=Loc(lineno, 1))
                    self.add_deal(p, deal, Tok(raw.rstrip(), deal.loc))
                    deal.number = Tok(m[1], Loc(lineno, 6))
                    deal.dealer = Tok(m[2], Loc(lineno, m.start(2) + 1))
                    letters = self.hand_letters
                    continue
            body = raw.strip()
            if body:
                line(Tok(body, Loc(lineno, len(raw) - len(raw.lstrip()) + 1)))
                p = self.pulka
                deal = self.deal if p is not None and p.end is None else None
                letters = self.hand_letters
        if comments and self.pulkas:  # each to the pulka it stands in (or leads up to)
            starts = [p.loc.line for p in self.pulkas]
            for c in comments:
                self.pulkas[max(0, bisect.bisect_right(starts, c.line) - 1)].comments.append(c)
        return self.pulkas

    @property
    def hand_letters(self) -> str:
        """Seat letters that make a line a hand line (upper case; what player_like accepts)."""
        if self._letters_of is not self.names:
            self._letters = LETTERS[: max(len(self.names), 3)]
            self._letters_of = self.names
        return self._letters

    # ---- lines
    def line(self, tok: Tok) -> None:
        if tok.text.startswith("["):
            self.tag(tok)
            return
        if self.pulka is None:
            raise self.fail(tok, "comes before the tags", '[Players "…"] and the other tags first')
        if self.pulka.end is not None:
            raise self.fail(tok, "comes after the End line", "a new pulka's tags")
        text = tok.text
        if text[0].isdigit():  # trick lines, most of a record: straight to the trick pattern
            t = _TRICK.fullmatch(text)
            if t:
                self.trick(tok, Tok(t.group(1), tok.loc.shifted(t.start(1))),
                           Tok(t.group(2), tok.loc.shifted(t.start(2))))
                return
        m = _DEAL.fullmatch(text)
        if m:
            self.deal_header(tok, m)
            return
        m = _KEY.fullmatch(text)
        key = " ".join(m.group(1).lower().split()) if m else ""
        kind = KEYWORDS.get(key)
        if m and kind not in (None, "deal", "trick"):
            assert kind is not None
            self.keyed(kind, Tok(m.group(1), tok.loc), Tok(m.group(2), tok.loc.shifted(m.start(2))))
            return
        t = _TRICK.fullmatch(text)
        if t:
            self.trick(tok, Tok(t.group(1), tok.loc.shifted(t.start(1))), Tok(t.group(2), tok.loc.shifted(t.start(2))))
            return
        if m and self.player_like(m.group(1).strip()):
            self.hand(Tok(m.group(1).strip(), tok.loc), Tok(m.group(2), tok.loc.shifted(m.start(2))))
            return
        first = text.split(None, 1)[0]
        try:
            parse_card(first.strip(",()"))
        except CardError:
            raise self.fail(Tok(m.group(1) if m else first, tok.loc), "is not a record line",
                            LINE_EXPECTED) from None
        self.trick(tok, None, tok)

    def tag(self, tok: Tok) -> None:
        m = _TAG.fullmatch(tok.text)
        if not m:
            raise self.fail(tok, "is not a tag pair", '[Name "value"]')
        name_tok = Tok(m.group(1), tok.loc.shifted(m.start(1)))
        if not _TAG_NAME.fullmatch(name_tok.text):
            raise self.fail(name_tok, "is not a tag name", "letters, digits, _ or -")
        value = Tok(re.sub(r"\\(.)", r"\1", m.group(2)), tok.loc.shifted(m.start(2)))
        low = name_tok.text.lower()
        field = _TAG_FIELDS.get(low)
        # A pulka ends at its first deal or End line; a second Players tag also starts a new one,
        # so pulkas without deals can follow each other (the writer puts Players first).
        if self.pulka is None or self.pulka.deals or self.pulka.end is not None or (
                field == "players" and self.pulka.players is not None):
            self.pulka = PulkaSyn(loc=tok.loc)
            self.pulkas.append(self.pulka)
            self.deal, self.names, self.singles = None, [], set()
        p = self.pulka
        if field != "option":
            key = field or low
            if key in self.singles:
                raise self.fail(name_tok, "is a repeated tag", "each tag once per pulka (only Option repeats)")
            self.singles.add(key)
        if field == "players":
            p.players = _split(value.text, value.loc)
            p.players_loc = value.loc
            self.names = [t.text for t in p.players]
        elif field == "rules":
            p.rules = value
        elif field == "option":
            p.options.append(value)
        elif field == "pool":
            p.pool = value
        elif field == "whist_price":
            p.whist_price = value
        else:
            p.meta.append((low, value))

    def add_deal(self, p: PulkaSyn, deal: DealSyn, header: Tok) -> None:
        """``deal`` as the next deal of ``p``; refused at its header when ``p`` holds :data:`MAX_DEALS`
        already (at once: the rest of the record is not read)."""
        if len(p.deals) >= MAX_DEALS:
            raise self.fail(header, f"is deal {len(p.deals) + 1:,} of its pulka: a pulka holds at most "
                            f"{MAX_DEALS:,} deals")
        p.deals.append(deal)

    def deal_header(self, tok: Tok, m: re.Match[str]) -> None:
        assert self.pulka is not None
        self.deal = DealSyn(loc=tok.loc)
        self.add_deal(self.pulka, self.deal, tok)
        if m.group(2):
            self.deal.number = Tok(m.group(2), tok.loc.shifted(m.start(2)))
        rest = m.group(3)
        if rest.strip():
            d = _DEALER_WORD.match(rest)
            off = m.start(3) + (d.end() if d else 0)
            self.deal.dealer = Tok(rest[d.end() if d else 0:].strip(), tok.loc.shifted(off))

    def need_deal(self, tok: Tok) -> DealSyn:
        if self.deal is None:
            raise self.fail(tok, "comes outside a deal", "'Deal N: dealer A' first")
        return self.deal

    def player_like(self, text: str) -> bool:
        low = text.lower()
        return any(n.lower() == low for n in self.names) or (
            len(text) == 1 and text.upper() in LETTERS[: max(len(self.names), 3)])

    def _refresh(self) -> None:
        """Player spellings to look for: longest names first, then seat letters; once per pulka."""
        letters = list(LETTERS[: max(len(self.names), 3)])
        self._cands = [c.lower() for c in sorted(self.names, key=len, reverse=True) + letters]
        self._cands_of = self.names
        # seat letters no name can shadow ("A 6s" is seat A unless a name starts "A ")
        self._safe = "".join(x for x in letters if not any(n.lower().startswith(x.lower() + " ")
                                                             for n in self.names))

    def letter_pairs(self, value: Tok) -> list[Pair] | None:
        """The pairs of a canonical list ``A 6s, B pass`` (seat letters, ``", "`` between items, no
        padding), made without the general splitting; None when the text is anything else. Exactly
        what :func:`_split` and :meth:`split_player` make of it."""
        if self._cands_of is not self.names:
            self._refresh()
        line, col = value.loc.line, value.loc.column
        if not line or not value.text:
            return None
        safe = self._safe
        out = []
        for item in value.text.split(", "):
            if len(item) < 3 or item[1] != " " or item[0] not in safe or item[2] in " \t:=" or "," in item \
                    or item[-1].isspace():
                return None
            out.append(Pair(Tok(item[0], Loc(line, col)), Tok(item[2:], Loc(line, col + 2))))
            col += len(item) + 2
        return out

    def letter_list(self, text: str) -> bool:
        """Whether :meth:`letter_pairs` reads ``text`` on a line of the text form (then
        :func:`~preflog.record.syntax.letter_pairs` makes the same pairs from it, when needed)."""
        if self._cands_of is not self.names:
            self._refresh()
        if not text:
            return False
        safe = self._safe
        for item in text.split(", "):
            if len(item) < 3 or item[1] != " " or item[0] not in safe or item[2] in " \t:=" or "," in item \
                    or item[-1].isspace():
                return False
        return True

    def split_player(self, tok: Tok) -> tuple[Tok | None, Tok]:
        """``(player, rest)`` of an item such as ``Anna 6s``; player None if none leads it."""
        text = tok.text
        if self._cands_of is not self.names:
            self._refresh()
        if len(text) > 2 and text[1] == " " and text[0] in self._safe and text[2] not in " \t:=":
            return Tok(text[0], tok.loc), Tok(text[2:], tok.loc.shifted(2))
        low = text.lower()
        for c in self._cands:
            if low.startswith(c) and (len(text) == len(c) or text[len(c)] in " \t:="):
                rest = text[len(c):]
                stripped = rest.lstrip(" \t:=")
                return Tok(text[: len(c)], tok.loc), Tok(stripped, tok.loc.shifted(len(text) - len(stripped)))
        return None, tok

    def hand(self, who: Tok, cards: Tok) -> None:
        deal = self.need_deal(who)
        if deal.steps:
            raise self.fail(who, "gives a hand after the auction began", "hands right after the deal header")
        deal.hands.append(Pair(who, cards))

    def keyed(self, kind: str, key: Tok, value: Tok) -> None:
        assert self.pulka is not None
        if kind == "end":
            self.pulka.end = value
            return
        if kind == "start":
            if self.pulka.deals:
                raise self.fail(key, "comes after the first deal", "'Start:' lines (the starting sheet) after the "
                                "tags, before the first deal")
            self.pulka.start.append(self.score(key, value, "Start"))
            return
        deal = self.need_deal(key)
        if kind == "dealer":
            if deal.dealer is not None or deal.steps or deal.hands:
                raise self.fail(key, "comes too late or twice", "the dealer once, before the hands")
            deal.dealer = value
        elif kind == "talon" and not deal.steps:
            if deal.talon is not None:
                raise self.fail(key, "is a second talon line", "one 'Talon:' line per deal")
            deal.talon = value
        else:
            self.step_line(deal, STEPS["talon_shown" if kind == "talon" else kind], key, value)

    def step_line(self, deal: DealSyn, spec: StepSyntax, key: Tok, value: Tok) -> None:
        """A keyed line of a deal that is a step (an event's line), read by its kind's :class:`Form`."""
        kind, form = spec.kind, spec.form
        if form == Form.PAIRS:
            if spec.syntax == STEPS["all_pass"].syntax and " ".join(value.text.lower().split()) in ALL_PASS_WORDS:
                deal.steps.append(Step("all_pass", key.loc))
            else:
                deal.steps.append(Step(kind, key.loc, pairs=self.pairs(value)))
        elif form == Form.VALUE or form == Form.CARDS:
            deal.steps.append(Step(kind, key.loc, value=value))
        elif form == Form.PLAYER_VALUE:
            who, rest = self.split_player(value)
            deal.steps.append(Step(kind, key.loc, player=who, value=rest))
        elif form == Form.COUNTS:
            fast = self.letter_pairs(value)
            if fast is not None:
                deal.steps.append(Step(kind, key.loc, pairs=fast))
                return
            items = _split(value.text, value.loc)
            if len(items) == 1 and not self.split_player(items[0])[0]:
                items = [Tok(m.group(), value.loc.shifted(m.start())) for m in _ITEM.finditer(value.text)]
            pairs = []
            for it in items:
                who, rest = self.split_player(it)
                pairs.append(Pair(who, rest))
            deal.steps.append(Step(kind, key.loc, pairs=pairs))
        elif form == Form.SCORE:
            deal.steps.append(self.score(key, value))

    def pairs(self, value: Tok) -> list[Pair]:
        fast = self.letter_pairs(value)
        if fast is not None:
            return fast
        out = []
        for item in _split(value.text, value.loc):
            who, rest = self.split_player(item)
            if who is None:
                first = item.text.split(None, 1)[0]
                raise self.fail(Tok(first, item.loc), "is not a player", "each item as 'player call', e.g. 'A 6s'")
            if not rest.text:
                raise self.fail(item, "names a player but no call", "'player call', e.g. 'A 6s'")
            out.append(Pair(who, rest))
        return out

    def score(self, key: Tok, value: Tok, word: str = "Score") -> Step:
        who, rest = self.split_player(value)
        if who is None:
            raise self.fail(value, "names no player", f"'{word}: A pulya 4 gora 0 visty B=0 C=6'")
        step = Step("score", key.loc, player=who)
        text, words = rest.text, list(_SCORE_WORD.finditer(rest.text))
        if text[: words[0].start() if words else len(text)].strip():
            raise self.fail(rest, "is not a score line", "pulya N gora N visty B=N C=N")
        for i, w in enumerate(words):
            field = _SCORE_FIELD[w.group(1).lower()]
            end = words[i + 1].start() if i + 1 < len(words) else len(text)
            seg = text[w.end():end]
            loc = rest.loc.shifted(w.end())
            if field in step.fields or (field == "visty" and step.pairs):
                raise self.fail(Tok(w.group(1), rest.loc.shifted(w.start())), "is given twice")
            if field == "visty":
                pos = 0
                while True:
                    entry = _visty_entry(seg, pos)
                    if entry is None:
                        break
                    name_at, name, value_at, amount, pos = entry
                    step.pairs.append(Pair(Tok(name, loc.shifted(name_at)), Tok(amount, loc.shifted(value_at))))
                if seg[pos:].strip():
                    raise self.fail(Tok(seg[pos:].strip(), loc.shifted(pos + len(seg[pos:]) - len(seg[pos:].lstrip()))),
                                    "is not a visty entry", "player=N, e.g. B=6")
            else:
                piece = seg.strip(" \t:=")
                step.fields[field] = Tok(piece, loc.shifted(seg.find(piece) if piece else 0))
        return step

    def trick(self, tok: Tok, number: Tok | None, cards: Tok) -> None:
        deal = self.need_deal(tok)
        if _ITEM.search(cards.text) is None:
            raise self.fail(tok, "is a trick without cards", "the cards of the trick in play order")
        deal.steps.append(Step("trick", tok.loc, number=number, raw=cards))


def parse_text(text: str, source: str = "<string>", first_line: int = 1) -> list[PulkaSyn]:
    """Split a text record into its syntax tree (no resolution yet); ``text`` starts at line
    ``first_line`` of ``source`` (a block of a streamed file: :mod:`preflog.record.stream`)."""
    return _Parser(source).parse(text, first_line)


# ------------------------------------------------------------------------------------- rendering
def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_text(pulkas: list[PulkaSyn]) -> str:
    """The canonical text of a syntax tree made by :func:`~preflog.record.writer.unbuild`."""
    blocks: list[str] = []
    for p in pulkas:
        lines = [*_noted(f"[Players {_quote(', '.join(t.text for t in p.players or ()))}]", p.tag_notes),
                 f"[Rules {_quote(p.rules.text if p.rules else 'sochi')}]"]
        lines += [f"[Option {_quote(t.text)}]" for t in p.options]
        lines.append(f"[Pool {_quote(p.pool.text if p.pool else '50')}]")
        lines.append(f"[WhistPrice {_quote(p.whist_price.text if p.whist_price else '1')}]")
        lines += [f"[{_META_TAGS.get(k, k[:1].upper() + k[1:])} {_quote(t.text)}]" for k, t in p.meta]
        blocks.append("\n".join(lines))
        if p.start:
            blocks.append("\n".join(_score_line("Start", s) for s in p.start))
        for number, d in enumerate(p.deals, 1):
            blocks.append("\n".join(_render_deal(number, d)))
        if p.end is not None:
            blocks.append("\n".join(_noted(f"End: {p.end.text}", p.end_notes)))
    return "\n\n".join(blocks) + "\n"


def _own_line(text: str) -> str:
    return f"{{ {text} }}" if "\n" in text else f"; {text}"


def _noted(line: str, notes: Notes | None) -> list[str]:
    """A record line with its notes: own-line comments before it, comments at its end."""
    if notes is None or not (notes.before or notes.after):
        return [line]
    out = [_own_line(t) for t in notes.before]
    if not notes.trailing:
        return [*out, line, *(_own_line(t) for t in notes.after)]
    if not trailing_ok(notes.after):  # as the reader places such notes (canonical_notes)
        return [*out, *(_own_line(t) for t in notes.after), line]
    for t in notes.after:
        line += f" {{ {t} }}" if "}" not in t else f" ; {t}"
    out.append(line)
    return out


def _render_deal(number: int, d: DealSyn) -> list[str]:
    lines = _noted(f"Deal {number}: dealer {d.dealer.text if d.dealer else ''}", d.notes)
    lines += [f"{h.player.text if h.player else ''}: {h.value.text}" for h in d.hands]
    if d.talon is not None:
        lines.append(f"Talon: {d.talon.text}")
    trick = 0
    for s in plain_steps(d.steps):
        at = len(lines)
        _render_step(s, lines, trick)
        if s.kind == "trick":
            trick += 1
        if s.notes is not None and len(lines) > at:
            lines[at:] = _noted(lines[at], s.notes)
    return lines


def _render_step(s: Step, lines: list[str], trick: int) -> None:
    """The canonical line of one step (``trick``: tricks of the deal before it)."""
    spec = STEPS[s.kind]
    key, form = spec.keyword, spec.form
    if form == Form.PAIRS or form == Form.COUNTS:
        lines.append(f"{key}: " + ", ".join(f"{p.player.text if p.player else ''} {p.value.text}"
                                            for p in s.pairs))
    elif form == Form.ALL_PASS:
        lines.append(f"{key}: all pass")
    elif form == Form.VALUE or form == Form.CARDS:
        lines.append(f"{key}: {s.value.text if s.value else ''}")
    elif form == Form.PLAYER_VALUE:
        lines.append(f"{key}: {s.player.text if s.player else ''} {s.value.text if s.value else ''}")
    elif form == Form.TRICK:
        lines.append(f"{trick + 1}: " + " ".join(f"({p.value.text})" if p.mark else p.value.text for p in s.pairs))
    else:
        lines.append(_score_line(key, s))


def _score_line(key: str, s: Step) -> str:
    """A canonical ``Score:`` (or ``Start:``) line: the player, pulya, gora and visty on the others."""
    visty = " ".join(f"{p.player.text if p.player else ''}={p.value.text}" for p in s.pairs)
    return (f"{key}: {s.player.text if s.player else ''} pulya {s.fields['pulya'].text} "
            f"gora {s.fields['gora'].text} visty {visty}").rstrip()
