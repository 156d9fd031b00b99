"""Portable Preferans Notation (PPN, prefko's public-domain format): reading and writing.

PPN is PGN-like: tag pairs (``[Bula 60]``, ``[Player1 cope]`` …), then one bracketed line per deal with
fourteen fields (id, deal order, 32 card characters, each player's highest bid, the auction winner, the
discard, the contract, who follows, the kontra chain, refa, the value, who leads, the tricks with their
winners, the summary). docs/ppn.md maps every field to events and says where a game cannot be written.

Reading gives the same :class:`~preflog.record.reader.Record` as the other forms; what a deal line
*states* beyond its events (each trick's winner, the value, refa, the summary, the results) is kept as
:class:`Stated` facts and compared with the replay by :func:`stated_findings` — a disagreement is an audit
finding at ``file:line:col``. Writing replays the log and refuses, in one line, a deal PPN cannot hold.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING
from typing import TypeVar

from preflog.engine.croatian.auction import CroatianAuction
from preflog.engine.families import family_of
from preflog.engine.findings import Finding
from preflog.engine.findings import IllegalAction
from preflog.model import bids as B
from preflog.model import calls as C
from preflog.model.cards import CLUBS
from preflog.model.cards import DIAMONDS
from preflog.model.cards import HEARTS
from preflog.model.cards import SPADES
from preflog.model.cards import make_card
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import ContraCalled
from preflog.model.events import ContractDeclared
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import Event
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import WhistCalled
from preflog.rules import RulesError
from preflog.rules import resolve
from preflog.rules.config import Rules
from preflog.scoring.croatian import _refe_limit
from preflog.scoring.croatian import deal_value

from .errors import Loc
from .errors import RecordError
from .errors import RecordWriteError
from .errors import Tok
from .fast import PLAYED
from .reader import Reader
from .reader import Record
from .reader import Stated
from .syntax import PulkaSyn
from .validate import option_text

if TYPE_CHECKING:
    from preflog.engine.replay import AuditResult
    from preflog.engine.replay import DealSummary

PPN_SUFFIX = ".ppn"
DEFAULT_PRESET = "serbian"
"""The preset a PPN file without a ``[Rules]`` tag is read under — when preflog has it; else
:data:`FALLBACK_PRESET`."""
FALLBACK_PRESET = "croatian"

# The card table of the spec: ♠ 7..A = 1..8, ♦ = 9, A..G, ♥ = H..O, ♣ = P..W.
_CODES = "123456789ABCDEFGHIJKLMNOPQRSTUVW"
_PPN_SUITS = (SPADES, DIAMONDS, HEARTS, CLUBS)
CHAR_CARD: dict[str, int] = {ch: make_card(_PPN_SUITS[i // 8], i % 8) for i, ch in enumerate(_CODES)}
CARD_CHAR: dict[int, str] = {c: ch for ch, c in CHAR_CARD.items()}
_KONTRA = "KRSM"              # kontra, rekontra, subkontra, mortkontra: steps 1..4
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+(?:"((?:[^"\\]|\\.)*)"|([^\]"]*?))\s*\]$')
_BID = re.compile(r"P|M?[2-7]|G[2-7]?$")
_SUMMARY = re.compile(r"0|M(\d+):(-?\d+)|F(\d+):([LR])(-?\d+)(?::(-?\d+))?$")
_FIELDS = 14
_DEAL_START = re.compile(r"\[\s*[0-9]+\s+[1-3]{3}\s+[0-9A-W]{32}(\s|\])")
_MASKS: dict[str, int] = {ch: 1 << c for ch, c in CHAR_CARD.items()}
_SEATS = {"1": 0, "2": 1, "3": 2}
_INT = re.compile(r"-?[0-9]{1,9}")
_CONTRACT = re.compile(r"(G?)([2-8])")
_KONTRA_FIELD = re.compile(r"([IKRSM])([123])")
_AUCTIONS: dict[tuple[Rules, str, tuple[str, ...]], tuple[BidMade, ...]] = {}
"""The auctions found for a bid field (rules, deal order, highest bids): few distinct ones recur."""
_PLAYERS = 3


def is_ppn(head: str) -> bool:
    """Whether text starts like PPN: its first bracketed lines are unquoted tag pairs, the first of PPN's
    own (``[Bula 60]``, ``[Refe 2]``, ``[Player1 cope]``), or a deal line (``[1 231`` and 32 card
    characters), where our own text record quotes every tag value."""
    for raw in head.splitlines()[:40]:
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if not line.startswith("["):
            return False
        if _DEAL_START.match(line):
            return True
        m = _TAG.match(line)
        if m is None or m.group(2) is not None:
            return False
        if m.group(1).lower() in ("bula", "refe", "player1"):
            return True
    return False


def _rules_spec(preset: str | None, tag: Tok | None) -> Tok:
    if tag is not None:
        return tag
    if preset:
        return Tok(preset)
    try:
        resolve(DEFAULT_PRESET)
    except (RulesError, ValueError):
        return Tok(FALLBACK_PRESET)
    return Tok(DEFAULT_PRESET)


class _PpnReader:
    def __init__(self, source: str, preset: str | None) -> None:
        self.source = source
        self.preset = preset

    def fail(self, tok: Tok, problem: str, expected: str = "") -> RecordError:
        return RecordError(self.source, tok.loc, tok.text, problem, expected)

    def read(self, text: str, first_line: int = 1) -> list[Record]:
        out: list[Record] = []
        tags: list[tuple[Tok, Tok]] = []
        deals: list[Tok] = []
        for i, raw in enumerate(text.splitlines()):
            no = first_line + i
            line = raw.strip()
            if not line or line.startswith(";") or line.startswith("%"):
                continue
            col = len(raw) - len(raw.lstrip()) + 1
            tok = Tok(line, Loc(no, col))
            if not (line.startswith("[") and line.endswith("]")):
                raise self.fail(tok, "is not a PPN line", "a tag pair [Name value] or a deal [id order cards …]")
            if line[1:].lstrip()[:1].isdigit():
                deals.append(tok)
                continue
            if deals:
                out.append(self.pulka(tags, deals))
                tags, deals = [], []
            m = _TAG.match(line)
            if m is None:
                raise self.fail(tok, "is not a tag pair", '[Name value] or [Name "value with spaces"]')
            value = m.group(2).replace('\\"', '"').replace("\\\\", "\\") if m.group(2) is not None else m.group(3)
            tags.append((Tok(m.group(1), Loc(no, col + 1)), Tok(value, Loc(no, col + m.start(2 if m.group(2)
                                                                                           is not None else 3)))))
        if tags or deals:
            out.append(self.pulka(tags, deals))
        return out

    # ---- the pulka's tags
    def pulka(self, tags: list[tuple[Tok, Tok]], deals: list[Tok]) -> Record:
        by: dict[str, tuple[Tok, Tok]] = {}
        meta: list[tuple[str, Tok]] = []
        for key, value in tags:
            low = key.text.lower()
            if low in by:
                raise self.fail(key, "is a repeated tag", "each tag once per pulka")
            by[low] = (key, value)
        first = tags[0][0] if tags else deals[0]
        for need in ("bula", "refe", "player1", "player2", "player3"):
            if need not in by:
                raise RecordError(self.source, first.loc, "", f"the pulka has no [{need.capitalize()}] tag",
                                  "[Bula n], [Refe n] and [Player1]..[Player3] among its tags")
        players = [by[f"player{i}"][1] for i in (1, 2, 3)]
        stated: list[Stated] = []
        for low, (key, value) in by.items():
            if low in ("bula", "refe", "rules", "pool", "whistprice", "termination") or \
                    re.fullmatch(r"player[123]", low):
                continue
            if re.fullmatch(r"(result|place)[123]", low):
                if low.startswith("result"):
                    stated.append(Stated(0, "result", self.integer(value, "is not a result", "a whole number"),
                                         value.loc.line, value.loc.column, int(low[-1]) - 1))
                continue
            meta.append((key.text, value))
        bula = self.integer(by["bula"][1], "is not a bula", "a whole number of at least 1, e.g. 60", 1)
        refe = self.integer(by["refe"][1], "is not a refe count", "a whole number of at least 0", 0)
        spec = _rules_spec(self.preset, by["rules"][1] if "rules" in by else None)
        try:
            base = resolve(spec.text.partition("+")[0] if "=" in spec.text else spec.text)
        except (RulesError, ValueError, TypeError) as exc:
            raise self.fail(spec, "is not a rules spec", f"preset[+override…]: {exc}") from None
        if not family_of(base).ppn:
            raise self.fail(spec, f"is a {base.family} game, which PPN does not record",
                            "a preset of the Croatian family (croatian, slovenian, serbian)")
        opts: list[Tok] = []
        if bula != base.start:
            opts.append(Tok(f"start={bula}", by["bula"][1].loc))
        if _refe_limit(base.refe_max, bula) != refe:
            opts.append(Tok(f"refe_max={option_text(((bula, refe),))}", by["refe"][1].loc))
        rules_tok = Tok(spec.text + "".join(f"+{o.text}" for o in opts), spec.loc) if opts else spec
        syn = PulkaSyn(loc=first.loc, players=players, players_loc=players[0].loc, rules=rules_tok,
                       pool=by["pool"][1] if "pool" in by else None,
                       whist_price=by["whistprice"][1] if "whistprice" in by else None, meta=meta)
        head = Reader(self.source).pulka(syn)
        start = head.events[0]
        assert isinstance(start, PulkaStarted)
        try:
            rules = resolve(start.rules, dict(start.overrides))
        except (RulesError, ValueError, TypeError) as exc:   # (the reader resolved it already)
            raise self.fail(spec, "is not a rules spec", str(exc)) from None
        events: list[Event] = [start]
        lines = [first.loc.line]
        cols = [first.loc.column]
        for number, tok in enumerate(deals, 1):
            evs = self.deal(tok, number, rules, stated, cols)
            events.extend(evs)
            lines.extend([tok.loc.line] * len(evs))
        if "termination" in by or any(x.what == "result" for x in stated):
            reason = by["termination"][1].text.strip() if "termination" in by else "closed"
            events.append(PulkaEnded(reason or "closed"))
            lines.append(lines[-1])
            cols.append(cols[-1])
        return Record(tuple(events), tuple(lines), tuple(cols), tuple(stated))

    def integer(self, tok: Tok, problem: str, expected: str, low: int | None = None) -> int:
        t = tok.text.strip()
        if not _INT.fullmatch(t) or (low is not None and int(t) < low):
            raise self.fail(tok, problem, expected)
        return int(t)

    # ---- one deal line
    def deal(self, line: Tok, number: int, rules: Rules, stated: list[Stated], cols: list[int]) -> list[Event]:
        """The events of one deal line; ``cols`` gets the column of the field each one comes from."""
        out = self._deal(line, number, rules, stated, cols)
        return out

    def _deal(self, line: Tok, number: int, rules: Rules, stated: list[Stated], cols: list[int]) -> list[Event]:
        body = line.text[1:-1]
        words = body.split(" ")
        if "" in words or "\t" in body:   # other spacing: each field's column found as it stands
            f = [Tok(m.group(), line.loc.shifted(1 + m.start())) for m in re.finditer(r"\S+", body)]
        else:
            f, at, ln = [], line.loc.column + 1, line.loc.line
            for w in words:
                f.append(Tok(w, Loc(ln, at)))
                at += len(w) + 1
        if len(f) == _FIELDS - 1:   # the spec's own example leaves refa out
            f.insert(9, Tok("", f[9].loc))
        if len(f) not in (4, _FIELDS):
            raise self.fail(line, f"has {len(f)} fields",
                            "14 (id, order, cards, bids, main, discarded, contract, accepted, kontra, refa, value, "
                            "starts, throws, summary), 13 without refa, or 4 for a deal everybody passed")
        if f[0].text != str(number):
            raise self.fail(f[0], "is not the next deal id", str(number))
        order = f[1].text
        if sorted(order) != ["1", "2", "3"]:
            raise self.fail(f[1], "is not a deal order", "the three players 1, 2, 3, the dealer last, e.g. 231")
        dealer = int(order[2]) - 1
        if order != "".join(str((dealer + k) % 3 + 1) for k in (1, 2, 3)):
            raise self.fail(f[1], "deals to the dealer's right",
                            f"the cards dealt to the left, first hand first: {(dealer + 1) % 3 + 1}"
                            f"{(dealer + 2) % 3 + 1}{dealer + 1}")
        hands, talon = self.cards(f[2], order)
        targets = self.bids(f[3])
        out: list[Event] = [DealStarted(dealer, hands, talon)]
        base = len(cols)
        cols.append(f[2].loc.column)
        if len(f) == 4:
            if any(t != "P" for t in targets):
                raise self.fail(line, "has only 4 fields but somebody bid", "all 14 fields when a contract is played")
            out.extend(self.auction(f[3], order, targets, rules))
            cols.extend([f[3].loc.column] * (len(out) - (len(cols) - base)))
            return out
        main = self.seat(f[4], "is not the main player")
        ctok = f[6]
        m = _CONTRACT.fullmatch(ctok.text)
        if m is None:
            raise self.fail(ctok, "is not a contract", "2-7, G2-G7 for a game from hand")
        hand, contract = m.group(1) == "G", int(m.group(2))
        if contract == 8:
            raise self.fail(ctok, f"is preferans, which the {rules.name} rules do not play", "a contract 2-7")
        out.extend(self.auction(f[3], order, targets, rules))
        cols.extend([f[3].loc.column] * (len(out) - (len(cols) - base)))
        if hand:
            if f[5].text.upper() != "XX":
                raise self.fail(f[5], "is a discard, but a game from hand takes no talon", "XX")
        else:
            if len(f[5].text) != 2 or f[5].text.upper() == "XX":
                raise self.fail(f[5], "is not a discard", "the two cards the main player put away, e.g. AR")
            mask = self.mask(f[5], 2)
            out.append(Discarded(main, mask))
            cols.append(f[5].loc.column)
        out.append(ContractDeclared(main, contract))
        cols.append(ctok.loc.column)
        left, right = (main + 1) % 3, (main + 2) % 3
        acc = f[7].text
        if not acc.isdigit() or len(acc) != 1:
            raise self.fail(f[7], "is not who followed", "0, a player 1-3, or 8 for both")
        a = int(acc)
        if a in (1, 2, 3) and a - 1 == main:
            raise self.fail(f[7], "is the main player, not a follower", "0, a follower, or 8 for both")
        follow = {left, right} if a >= 4 else ({a - 1} if a else set())
        kt = f[8].text
        km = _KONTRA_FIELD.fullmatch(kt)
        if kt != "0" and km is None:
            raise self.fail(f[8], "is not a kontra", "0, or I, K, R, S or M and the player who started it, e.g. K3")
        kp = int(km.group(2)) - 1 if km else -1
        if km and (kp == main or kp not in follow or (km.group(1) == "I" and len(follow) != 1)):
            raise self.fail(f[8], "is not started by a follower" if kp == main or kp not in follow
                            else "invites, but both followers play", "a kontra started by a player who follows")
        invites = km is not None and km.group(1) == "I"
        if invites and kp == right:   # the second follower answers a pass with an invitation
            out.extend((WhistCalled(left, C.CALL_PASS), WhistCalled(right, C.CALL_INVITE)))
        else:
            out.extend(WhistCalled(d, C.CALL_WHIST if d in follow else C.CALL_PASS) for d in (left, right))
            if invites:               # a lone first follower invites after his partner passed
                out.append(WhistCalled(kp, C.CALL_INVITE))
        cols.extend([f[7].loc.column] * (len(out) - (len(cols) - base)))
        steps = _KONTRA.index(km.group(1)) + 1 if km and km.group(1) != "I" else 0
        for k in range(steps):
            out.append(ContraCalled(kp if k % 2 == 0 else main))
            cols.append(f[8].loc.column)
        active = {main} | follow | ({left, right} if km else set())
        if f[9].text not in ("0", "1", ""):
            raise self.fail(f[9], "is not a refa", "0, or 1 for a deal under refa")
        if f[9].text:
            stated.append(Stated(number, "refa", int(f[9].text), f[9].loc.line, f[9].loc.column, main))
        stated.append(Stated(number, "value", self.integer(f[10], "is not a value", "a whole number"),
                             f[10].loc.line, f[10].loc.column, main))
        out.extend(self.throws(f[11], f[12], active, follow, cols))
        self.summary(f[13], order, number, stated)
        return out

    def seat(self, tok: Tok, problem: str) -> int:
        if tok.text not in ("1", "2", "3"):
            raise self.fail(tok, problem, "a player 1, 2 or 3")
        return int(tok.text) - 1

    def mask(self, tok: Tok, n: int) -> int:
        """The cards of ``tok`` as a mask: ``n`` card characters, each once (else a located error)."""
        mask = 0
        for ch in tok.text:
            card = _MASKS.get(ch)
            if card is None or mask & card:
                break
            mask |= card
        else:
            if len(tok.text) == n:
                return mask
            raise self.fail(tok, f"holds {len(tok.text)} cards", f"{n} cards")
        mask = 0
        for k, ch in enumerate(tok.text):   # say where
            card = _MASKS.get(ch)
            at = Tok(ch, tok.loc.shifted(k))
            if card is None:
                raise self.fail(at, "is not a PPN card", "1-8 ♠, 9 A-G ♦, H-O ♥, P-W ♣")
            if mask & card:
                raise self.fail(at, "is a card written twice", "each card once")
            mask |= card
        raise AssertionError("unreachable")

    def cards(self, tok: Tok, order: str) -> tuple[tuple[int, ...], int]:
        self.mask(tok, 32)
        text = tok.text
        hands = [0, 0, 0]
        for k in range(3):
            hands[int(order[k]) - 1] = _mask_of(text[10 * k:10 * k + 10])
        return tuple(hands), _mask_of(text[30:])

    def bids(self, tok: Tok) -> list[str]:
        parts = tok.text.split(",")
        if len(parts) != 3:
            raise self.fail(tok, f"holds {len(parts)} bids", "three, comma separated, e.g. M3,P,3")
        at = 0
        for p in parts:
            if _BID.fullmatch(p) is None:
                raise self.fail(Tok(p, tok.loc.shifted(at)), "is not a PPN bid",
                                "P, a number 2-7, M and a number (a hold), G or G and a number")
            at += len(p) + 1
        return parts

    def auction(self, tok: Tok, order: str, targets: list[str], rules: Rules) -> list[Event]:
        """The calls of :meth:`search_auction`, remembered: a pulka has few distinct bid fields."""
        key = (rules, order, tuple(targets))
        calls = _AUCTIONS.get(key)
        if calls is None:
            if len(_AUCTIONS) > 4096:
                _AUCTIONS.clear()
            calls = _AUCTIONS[key] = tuple(BidMade(s, b) for s, b in self.search_auction(tok, order, targets, rules))
        return list(calls)

    def search_auction(self, tok: Tok, order: str, targets: list[str], rules: Rules) -> tuple[tuple[int, int], ...]:
        """The calls that give each player the highest bid the field states: the first auction the rules
        allow in the search order of docs/ppn.md (a hold before a raise for a hold, a raise first for a
        number, igra as the first call, the named contract in the naming round)."""
        seats = [int(c) - 1 for c in order]
        make = family_of(rules).deal.AUCTION_TYPE
        want = {seats[k]: targets[k] for k in range(3)}
        calls: list[tuple[int, int]] = []

        def fresh() -> CroatianAuction:
            a = make(rules, seats)
            assert isinstance(a, CroatianAuction)   # (the PPN families bid so: Family.ppn)
            for seat, bid in calls:
                a.bid(seat, bid)
            return a

        auction = fresh()
        said: dict[int, str] = {}

        def search(depth: int) -> bool:
            nonlocal auction
            if auction.done:
                return all(said.get(x, "P") == want[x] for x in seats)
            if depth > 40:
                return False
            s = auction.to_move
            for bid in _candidates(auction, s, want[s], said.get(s)):
                before = said.get(s)
                hold = bid == auction.high_bid and not auction.naming
                try:
                    auction.bid(s, bid)   # (checks, then changes: a refused call leaves it as it was)
                except IllegalAction:
                    continue
                calls.append((s, bid))
                said[s] = _said(before, bid, hold)
                if search(depth + 1):
                    return True
                calls.pop()
                if before is None:
                    del said[s]
                else:
                    said[s] = before
                auction = fresh()   # (backtracking is rare: the auction is built again)
            return False

        if not search(0):
            raise self.fail(tok, "is no auction the rules allow",
                            "highest bids that some legal auction reaches, e.g. M3,P,3")
        return tuple(calls)

    def throws(self, starts: Tok, throws: Tok, active: set[int], follow: set[int], cols: list[int]) -> list[Event]:
        if starts.text == "0" and throws.text in ("0", "-"):
            return []   # no play: nobody followed, or a 2♠ won without play (docs/ppn.md)
        if not follow:
            if starts.text != "0" or throws.text not in ("0", "-"):
                raise self.fail(throws if starts.text == "0" else starts, "is play, but nobody followed",
                                "0 for starts and for throws")
            return []
        leader = self.seat(starts, "is not who leads")
        out: list[Event] = []
        nxt = [(seat + 1) % 3 if (seat + 1) % 3 in active else (seat + 2) % 3 for seat in range(3)]
        width = len(active) + 1
        col = throws.loc.column
        for item in throws.text.split(","):
            if len(item) != width:
                raise self.fail(Tok(item, Loc(throws.loc.line, col)),
                                f"is a trick of {len(item) - 1} card{'s' if len(item) != 2 else ''}",
                                f"{len(active)} cards and the winner, as {len(active)} players play")
            seat = leader
            for k in range(width - 1):
                card = CHAR_CARD.get(item[k])
                if card is None:
                    raise self.fail(Tok(item[k], Loc(throws.loc.line, col + k)), "is not a PPN card", "1-8, 9, A-W")
                out.append(PLAYED[seat][card])   # (events are immutable: one shared per seat and card)
                cols.append(col + k)
                seat = nxt[seat]
            w = item[-1]
            if w not in _SEATS:
                raise self.fail(Tok(w, Loc(throws.loc.line, col + width - 1)), "is not the trick's winner",
                                "a player 1, 2 or 3")
            leader = _SEATS[w]
            col += width + 1
        return out

    def summary(self, tok: Tok, order: str, number: int, stated: list[Stated]) -> None:
        parts = tok.text.split(",")
        if len(parts) != 3:
            raise self.fail(tok, f"holds {len(parts)} parts", "three, comma separated, e.g. M7:-8,F3:L24,0")
        at = 0
        for k, p in enumerate(parts):
            loc = tok.loc.shifted(at)
            at += len(p) + 1
            m = _SUMMARY.fullmatch(p)
            if m is None:
                raise self.fail(Tok(p, loc), "is not a summary part", "0, M tricks:middle, F tricks:L|R juha[:middle]")
            seat = int(order[k]) - 1
            line, col = loc.line, loc.column
            if p == "0":
                stated.extend((Stated(number, "tricks", 0, line, col, seat), Stated(number, "middle", 0, line, col,
                                                                                   seat)))
                for on in (0, 1, 2):
                    if on != seat:
                        stated.append(Stated(number, "juha", 0, line, col, seat, on))
            elif m.group(1) is not None:
                stated.extend((Stated(number, "tricks", int(m.group(1)), line, col, seat),
                               Stated(number, "middle", int(m.group(2)), line, col + p.index(":") + 1, seat)))
                for on in (0, 1, 2):
                    if on != seat:
                        stated.append(Stated(number, "juha", 0, line, col, seat, on))
            else:
                on = (seat + 1) % 3 if m.group(4) == "L" else (seat + 2) % 3
                jcol = col + p.index(":") + 1
                stated.extend((Stated(number, "tricks", int(m.group(3)), line, col, seat),
                               Stated(number, "juha", int(m.group(5)), line, jcol, seat, on),
                               Stated(number, "juha", 0, line, jcol, seat, 3 - seat - on),
                               Stated(number, "middle", int(m.group(6) or 0), line,
                                      jcol + len(m.group(4)) + len(m.group(5)) + 1 if m.group(6) else col, seat)))


def _mask_of(text: str) -> int:
    mask = 0
    for ch in text:
        mask |= _MASKS[ch]
    return mask


def _candidates(auction: CroatianAuction, seat: int, want: str, said: str | None) -> tuple[int, ...]:
    """The calls that may still lead ``seat`` to the highest bid ``want``, in search order; a pass is final,
    so it comes only once the player has said what he wants (``said``: his highest so far)."""
    done = said == want or (want == "P" and said in (None, "P"))
    if auction.naming:
        n = int(want[1:]) if want.startswith("G") and len(want) > 1 else 0
        return (n,) if n and said == "G" else ((B.PASS,) if done else ())
    if want.startswith("G"):
        if said is None:
            n = int(want[1:]) if len(want) > 1 else 0
            return ({6: B.IGRA_BETTEL, 7: B.IGRA_SANAC}.get(n, B.IGRA),)
        return (B.PASS,) if done else ()
    if want == "P":
        return (B.PASS,)
    n = int(want.lstrip("M"))
    high = auction.high_bid
    nxt = high + 1 if high else 2
    hold = (high,) if high and (high <= n if want.startswith("M") else high < n) else ()
    raise_ = (nxt,) if (nxt < n if want.startswith("M") else nxt <= n) else ()
    out = hold + raise_ if want.startswith("M") else raise_ + hold
    return out + ((B.PASS,) if done else ())


def _said(before: str | None, bid: int, hold: bool) -> str:
    """A player's highest bid as PPN writes it after his call ``bid`` (``before``: his highest until then;
    ``hold``: the call repeats the current number)."""
    if bid == B.PASS:
        return before or "P"
    if bid in (B.IGRA, B.IGRA_BETTEL, B.IGRA_SANAC):
        return {B.IGRA: "G", B.IGRA_BETTEL: "G6", B.IGRA_SANAC: "G7"}[bid]
    if before is not None and before.startswith("G"):
        return f"G{bid}"
    return f"M{bid}" if hold else str(bid)


def _highest(bids: Sequence[BidMade]) -> dict[int, str]:
    """Each player's highest bid as PPN writes it (``P``, ``3``, ``M3`` a hold, ``G``, ``G4``)."""
    out: dict[int, str] = {}
    high = 0
    for ev in bids:
        hold = ev.bid == high and not out.get(ev.player, "").startswith("G")
        out[ev.player] = _said(out.get(ev.player), ev.bid, hold)
        if 2 <= ev.bid <= 7 and not out[ev.player].startswith("G"):
            high = ev.bid
    return out


def read_ppn(text: str, source: str = "<ppn>", preset: str | None = None, first_line: int = 1) -> list[Record]:
    """Every pulka of a PPN text, with what its lines state (``Record.stated``) and the column of the field
    each event came from (``Record.cols``). ``preset`` is the rules a file without a ``[Rules]`` tag is read
    under (default :data:`DEFAULT_PRESET` when preflog has it, else :data:`FALLBACK_PRESET`); ``[Bula]`` and
    ``[Refe]`` set its ``start`` and refe limit. Anything it cannot read raises a located
    :class:`RecordError`, and nothing is read then."""
    return _PpnReader(source, preset).read(text, first_line)


# ---- checking what the lines state
def stated_findings(result: AuditResult, stated: Iterable[Stated]) -> list[Finding]:
    """Each stated fact the replay (``result``, the audit of the record's events) disagrees with, as a
    finding at the deal's first event, its ``column`` that of the stated field (``score_mismatch`` for the
    summary's columns, ``stated_mismatch`` for the rest). A deal the audit could not replay is left to its
    own finding."""
    from preflog.engine.codes import Code

    by_deal = {d.deal: d for d in result.deals}
    out: list[Finding] = []
    for st in stated:
        if st.what == "result":
            got = result.settlement.method1[st.seat] if result.settlement is not None else None
            if got != st.value:
                last = result.deals[-1] if result.deals else None
                out.append(Finding(Code.STATED_MISMATCH, last.deal if last else 0, last.seq if last else 1,
                                   f"the result of player {st.seat + 1} is stated {st.value}, the replay gives {got}",
                                   seat=st.seat, line=st.line, column=st.column))
            continue
        d = by_deal.get(st.deal)
        if d is None or d.outcome is None or d.score is None or d.broken or d.findings:
            continue
        o, sc = d.outcome, d.score
        got_v: int | Fraction | None
        if st.what == "tricks":
            got_v = o.tricks[st.seat] if o.tricks else 0
        elif st.what == "value":
            got_v = _value(o.contract, o.hand_game, sc.note, o.contra) if 2 <= o.contract <= 7 else None
        elif st.what == "refa":
            got_v = int("refe used" in sc.note)
        elif st.what == "middle":
            got_v = -sc.pulya[st.seat]
        else:
            got_v = sc.visty[st.seat][st.on]
        if got_v is not None and got_v != st.value:
            code = Code.SCORE_MISMATCH if st.what in ("middle", "juha") else Code.STATED_MISMATCH
            what = {"tricks": f"player {st.seat + 1}'s tricks", "value": "the value", "refa": "refa",
                    "middle": f"player {st.seat + 1}'s middle column",
                    "juha": f"the juha player {st.seat + 1} writes on player {st.on + 1}"}[st.what]
            out.append(Finding(code, st.deal, d.seq, f"{what} is stated {st.value}, the replay gives {got_v}",
                               seat=st.seat, line=st.line, column=st.column))
    return out


def _value(contract: int, hand: bool, note: str, contra: tuple[int, ...]) -> int:
    steps: int = max(contra or (0,))
    return deal_value(contract, hand) * (2 if "refe used" in note else 1) * (1 << steps)


# ---- writing
def write_ppn(events: Sequence[Event] | Iterable[Record]) -> str:
    """PPN of one or more pulkas of a PPN family; a deal PPN cannot hold raises
    :class:`RecordWriteError` naming the deal and why (docs/ppn.md)."""
    evs = [e for x in events for e in (x.events if isinstance(x, Record) else (x,))]
    out: list[str] = []
    starts = [i for i, e in enumerate(evs) if isinstance(e, PulkaStarted)]
    for k, i in enumerate(starts):
        out.append(_write_pulka(evs[i:starts[k + 1] if k + 1 < len(starts) else len(evs)]))
    return "\n".join(out)


def _q(v: str) -> str:
    return v if v and not any(c.isspace() or c in '"]\\' for c in v) else '"' + v.replace("\\", "\\\\").replace(
        '"', '\\"') + '"'


def _write_pulka(evs: Sequence[Event]) -> str:
    from preflog.engine.replay import audit

    start = evs[0]
    assert isinstance(start, PulkaStarted)
    try:
        rules = resolve(start.rules, dict(start.overrides))
    except (RulesError, ValueError, TypeError) as exc:
        raise RecordWriteError(f"rules do not resolve: {exc}") from None
    if not family_of(rules).ppn:
        raise RecordWriteError(f"a {rules.family} pulka cannot be written as PPN: PPN records the Croatian "
                               "family's games (croatian, slovenian, serbian)")
    if len(start.players) != _PLAYERS:
        raise RecordWriteError("PPN records three players")
    if start.start:
        raise RecordWriteError("PPN has no starting sheet")
    # comments (PulkaStarted.notes) are not written: a PPN line has no place for them (docs/ppn.md)
    result = audit(evs)
    if result.findings:
        f = result.findings[0]
        raise RecordWriteError(f"deal {f.deal} cannot be written as PPN: it does not replay ({f.code}: "
                               f"{f.message})")
    lines = [f"[Bula {rules.start}]", f"[Refe {_refe_limit(rules.refe_max, rules.start)}]"]
    opts = [(k, v) for k, v in start.overrides if k not in ("start", "refe_max")]
    base = resolve(start.rules)
    if any(k == "refe_max" and _refe_limit(base.refe_max, rules.start) == _refe_limit(rules.refe_max, rules.start)
           and rules.refe_max != base.refe_max for k, _ in start.overrides):
        opts.append(("refe_max", dict(start.overrides)["refe_max"]))
    spec = start.rules + "".join(f"+{k}={option_text(v)}" for k, v in opts)
    lines.append(f"[Rules {_q(spec)}]")
    for i, name in enumerate(start.players, 1):
        lines.append(f"[Player{i} {_q(name)}]")
    end = next((e for e in evs if isinstance(e, PulkaEnded)), None)
    if end is not None and result.settlement is not None:
        for i, v in enumerate(result.settlement.method1, 1):
            lines.append(f"[Result{i} {v}]")
        if end.reason != "closed":
            lines.append(f"[Termination {_q(end.reason)}]")
    if start.pool != 50:
        lines.append(f"[Pool {start.pool}]")
    if start.whist_price != "1":
        lines.append(f"[WhistPrice {_q(start.whist_price)}]")
    for key, value in start.meta:
        if re.fullmatch(r"(bula|refe|rules|pool|whistprice|player[123]|result[123]|place[123])", key):
            raise RecordWriteError(f"the meta tag {key!r} is a PPN field")
        lines.append(f"[{key[:1].upper() + key[1:]} {_q(value)}]")
    lines.append("")
    deals: list[list[Event]] = []
    for ev in evs[1:]:
        if isinstance(ev, DealStarted):
            deals.append([ev])
        elif deals and not isinstance(ev, PulkaEnded):
            deals[-1].append(ev)
    summaries = {d.deal: d for d in result.deals}
    for number, deal in enumerate(deals, 1):
        other = next((e for e in deal if not isinstance(e, _PPN_EVENTS)), None)
        if other is not None:
            raise RecordWriteError(f"deal {number} cannot be written as PPN: it holds a {type(other).__name__} "
                                   f"event ({_NO_FIELD.get(type(other).__name__, 'PPN has no field for it')})")
        line = _write_deal(number, deal, summaries[number])
        try:
            check = _PpnReader("<check>", None).deal(Tok(line, Loc(1, 1)), number, rules, [], [])
        except RecordError as exc:
            raise RecordWriteError(f"deal {number} cannot be written as PPN: its line would not read back "
                                   f"({exc.problem})") from None
        if check != deal:
            diff = next((k for k, (a, b) in enumerate(zip(check, deal, strict=False)) if a != b),
                        min(len(check), len(deal)))
            what = deal[diff] if diff < len(deal) else check[diff]
            raise RecordWriteError(f"deal {number} cannot be written as PPN: {type(what).__name__} "
                                   f"(event {diff + 1} of the deal) is not what its fields give back "
                                   "(PPN keeps each player's highest bid, one kontra chain and the whist calls "
                                   "in the canonical order of docs/ppn.md)")
        lines.append(line)
    return "\n".join(lines) + "\n"


_PPN_EVENTS = (DealStarted, BidMade, Discarded, ContractDeclared, WhistCalled, ContraCalled, CardPlayed)
_NO_FIELD = {"ScoreRecorded": "a written score line: PPN's summary states the replay's score instead",
             "PaperResult": "a paper-level result: PPN records the cards played",
             "Claimed": "a claim: PPN records every trick played"}


_E = TypeVar("_E", bound=Event)


def _of(deal: Sequence[Event], kind: type[_E]) -> list[_E]:
    """The events of ``deal`` of one class, in order (a filter, not a dispatch on the event's class)."""
    return [e for e in deal if type(e) is kind]


def _write_deal(number: int, deal: Sequence[Event], summary: DealSummary) -> str:
    ds = deal[0]
    assert isinstance(ds, DealStarted)
    if ds.hands is None or ds.talon is None or len(ds.hands) != 3:
        raise RecordWriteError(f"deal {number} cannot be written as PPN: PPN records the cards, the deal has none")
    dealer = ds.dealer
    seats = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
    order = "".join(str(s + 1) for s in seats)
    cards = "".join(_chars(ds.hands[s]) for s in seats) + _chars(ds.talon)
    bids = _of(deal, BidMade)
    high = _highest(bids)
    bid_field = ",".join(high.get(s, "P") for s in seats)
    o, sc = summary.outcome, summary.score
    if o is None or sc is None or o.declarer < 0:
        if len(deal) != 1 + len(bids):
            raise RecordWriteError(f"deal {number} cannot be written as PPN: a deal nobody won holds only passes")
        return f"[{number} {order} {cards} {bid_field}]"
    main = o.declarer
    disc = next(iter(_of(deal, Discarded)), None)
    discarded = "XX" if disc is None else _chars(disc.cards)
    contract = ("G" if o.hand_game else "") + str(o.contract)
    calls = _of(deal, WhistCalled)
    contras = _of(deal, ContraCalled)
    follow = [e.player for e in calls if e.call in (C.CALL_WHIST, C.CALL_INVITE)]
    follow_set = set(follow)
    accepted = "0" if not follow_set else ("8" if len(follow_set) == 2 else str(follow[0] + 1))
    inviter = next((e.player for e in calls if e.call == C.CALL_INVITE), -1)
    if inviter >= 0 and [e.call for e in calls] == [C.CALL_PASS, C.CALL_WHIST, C.CALL_INVITE]:
        raise RecordWriteError(f"deal {number} cannot be written as PPN: player {inviter + 1} whists and then "
                               "invites, and PPN states his invitation as his answer to the pass (I with his number)")
    if contras and inviter >= 0:
        raise RecordWriteError(f"deal {number} cannot be written as PPN: player {inviter + 1} invites and then "
                               "kontras, and PPN states one of the two (a lone follower's kontra invites anyway)")
    if contras:
        starter = contras[0].player
        if len(contras) > 4:
            raise RecordWriteError(f"deal {number} cannot be written as PPN: its kontra chain is longer than "
                                   "mortkontra")
        kontra = f"{_KONTRA[len(contras) - 1]}{starter + 1}"
    elif inviter >= 0:
        kontra = f"I{inviter + 1}"
    else:
        kontra = "0"
    refa = int("refe used" in sc.note)
    value = _value(o.contract, o.hand_game, sc.note, o.contra)
    cards_played = _of(deal, CardPlayed)
    if cards_played:
        n_active = 3 if (len(follow_set) == 2 or kontra != "0") else 2
        tricks = [cards_played[k:k + n_active] for k in range(0, len(cards_played), n_active)]
        counts = [0, 0, 0]
        items = []
        for k, trick in enumerate(tricks):
            if k + 1 < len(tricks):
                w = tricks[k + 1][0].player
            else:
                rest = [o.tricks[s] - counts[s] for s in range(3)]
                w = max(range(3), key=lambda s: rest[s])
            counts[w] += 1
            items.append("".join(CARD_CHAR[c.card] for c in trick) + str(w + 1))
        starts, throws = str(tricks[0][0].player + 1), ",".join(items)
    else:
        starts, throws = "0", "0"
    parts = []
    for s in seats:
        t = o.tricks[s] if o.tricks else 0
        middle = -sc.pulya[s]
        if s == main:
            parts.append(f"M{t}:{_int(middle, number)}")
            continue
        juha = [sc.visty[s][x] for x in range(3)]
        left, right = (s + 1) % 3, (s + 2) % 3
        if s not in follow_set and not juha[left] and not juha[right] and not middle and not t:
            parts.append("0")
            continue
        if juha[right] and juha[left]:
            raise RecordWriteError(f"deal {number} cannot be written as PPN: player {s + 1} writes juha on both")
        side, j = ("R", juha[right]) if juha[right] else ("L", juha[left])
        parts.append(f"F{t}:{side}{_int(j, number)}" + (f":{_int(middle, number)}" if middle else ""))
    return (f"[{number} {order} {cards} {bid_field} {main + 1} {discarded} {contract} {accepted} {kontra} {refa} "
            f"{value} {starts} {throws} {','.join(parts)}]")


def _int(v: int | Fraction, number: int) -> int:
    if isinstance(v, Fraction) and v.denominator != 1:
        raise RecordWriteError(f"deal {number} cannot be written as PPN: a score of {v} is not whole")
    return int(v)


def _chars(mask: int) -> str:
    return "".join(CARD_CHAR[c] for c in range(32) if mask >> c & 1)


__all__ = ["CARD_CHAR", "CHAR_CARD", "DEFAULT_PRESET", "FALLBACK_PRESET", "PPN_SUFFIX", "Stated",
           "is_ppn", "read_ppn", "stated_findings", "write_ppn"]
