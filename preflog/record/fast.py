"""The reader's fast paths: canonical lines applied with cached codes and shared events.

Next to :mod:`preflog.record.scanner` (which scanner runs, compiled or pure Python): the tables the
compiled scanner is handed (card spellings, one shared :class:`CardPlayed` per seat and card) and the
reader's methods that take a canonical line whole — a trick, an auction or whist list of seat letters, a
contract or discard line, a run of trick lines — and return False, with nothing changed, whenever
anything is off, so that the careful reader (:mod:`preflog.record.reader`) reads the line again and
raises the exact error. Each must read as the careful path does (tests/record/test_stream.py).
"""

from __future__ import annotations

from preflog.model import bids as B
from preflog.model.cards import format_card
from preflog.model.cards import parse_card
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import ContractDeclared
from preflog.model.events import Discarded
from preflog.model.events import Event

from . import scanner
from .errors import RecordError
from .errors import Tok
from .holdings import DealReading
from .syntax import KeyedLine
from .syntax import Step
from .syntax import TrickRun
from .syntax import trick_line
from .validate import TALON_CARDS

# Fast path of the reader: the written spellings of every card (exactly what parse_card reads them
# as), and one shared CardPlayed per (seat, card) — events are immutable, so sharing is safe.
CARD_TOKENS: dict[str, int] = {format_card(c, style): c for c in range(32) for style in ("latin", "unicode")}
assert all(parse_card(t) == c for t, c in CARD_TOKENS.items())
PLAYED = [[CardPlayed(seat, c) for c in range(32)] for seat in range(4)]
BIDS: dict[tuple[int, int], BidMade] = {}  # filled as met: bid codes are a small closed set
CALLS: dict[tuple[int, str], Event] = {}  # (seat, word as written) -> its whist call event, filled as met
HOLD = -1  # in a reader's bid cache: the word is a hold word
# id of a bid codec -> (the codec, kept alive so the id stays its own; {bid as written: code or HOLD})
BID_CODES: dict[int, tuple[B.BidCodec, dict[str, int]]] = {}
NUMBERS = tuple(str(i) for i in range(64))  # trick numbers as the canonical text writes them


def fast_mask(text: str) -> tuple[int, int] | None:
    """``(mask, count)`` of a canonical single-space card list without repeats, or None (then the
    careful path decides)."""
    tokens = CARD_TOKENS
    seen = 0
    n = 0
    for t in text.split(" "):
        c = tokens.get(t)
        if c is None or seen >> c & 1:
            return None
        seen |= 1 << c
        n += 1
    return seen, n



class FastReading:
    """The fast-path methods of the reader (:class:`preflog.record.reader.Reader` is one)."""

    _seats: dict[str, int]
    _bid_codes: dict[str, int]
    bids: B.BidCodec

    def step(self, step: Step, st: DealReading, out: list[Event]) -> None:
        raise NotImplementedError

    def call(self, seat: int, tok: Tok) -> Event:
        raise NotImplementedError

    def trick_run(self, run: TrickRun, st: DealReading, events: list[Event], lines: list[int]) -> None:
        """A run of canonical trick lines (the compiled scanner's): played by it as far as it goes; a
        line it stops at is read here as a :class:`TrickLine` (fast path, else the careful one, which
        raises the exact error), and the scanner goes on after it."""
        scan = scanner.SCAN or scanner.BUILT
        assert scan is not None  # runs are made only when the scanner is built
        j, stop, cards = run.start, run.stop, st.cards
        while j < stop:
            if cards.hands is not None:
                k, st.trick_no, st.last_trick, bits = scan.play(
                    run.lines, j, stop, run.line + j - run.start, st.trick_no, st.last_trick, cards.owner,
                    cards.hands, PLAYED, CARD_TOKENS, events, lines)
                cards.played |= bits
                j += k
                if j >= stop:
                    return
            step = trick_line(run.lines[j], run.line + j - run.start)
            before = len(events)
            n = st.trick_no + 1
            if not (n < len(NUMBERS) and step.number == NUMBERS[n] and cards.hands is not None
                    and self.fast_trick(step.cards, st, events)):
                self.step(step.step(), st, events)
            else:
                st.trick_no = n
            lines.extend([step.line] * (len(events) - before))
            j += 1

    def fast_keyed(self, line: KeyedLine, st: DealReading, out: list[Event]) -> bool:
        """A canonical keyed line (seat letters) applied with cached codes and events; False, with nothing
        changed but the end of the trick sequence (as any step other than a trick), when anything is not
        plainly right: the careful :meth:`step` then reads its :class:`Step`."""
        st.last_trick = -1
        kind, text = line.kind, line.text
        if kind == "auction":
            return self.fast_bids(text, st, out)
        if kind == "calls":
            return self.fast_calls(text, st, out)
        seat = self._seats.get(text[0])
        scan = scanner.SCAN
        if seat is None or scan is None:
            return False
        if kind == "contract":
            code = self._bid_codes.get(text[2:])
            if code is None:
                code = self._bid_code(text[2:])
            if code is None or code == HOLD or code not in self.bids.contracts:
                return False
            out.append(ContractDeclared(seat, code))
            return True
        fast = scan.mask(text[2:], CARD_TOKENS)
        if fast is None or not (fast[1] == TALON_CARDS or st.cards.hands is None) \
                or st.cards.discard(seat, fast[0]) >= 0:  # (nothing moves when it fails)
            return False
        out.append(Discarded(seat, fast[0]))
        return True

    def fast_bids(self, text: str, st: DealReading, out: list[Event]) -> bool:
        """A canonical auction list ``A pass, B 6s`` (seat letters) applied with cached bid codes; False,
        with nothing changed, when any item is not plainly right (the careful loop then reads it)."""
        seats, codes = self._seats, self._bid_codes
        made = []
        current, bidder = st.current, st.bidder
        for item in text.split(", "):
            seat = seats.get(item[0])
            word = item[2:]
            code = codes.get(word)
            if code is None:
                code = self._bid_code(word)
                if code is None:
                    return False
            if seat is None:
                return False
            if code == HOLD:
                if current is None:
                    return False
                code = current
            if code != B.PASS:
                current, bidder = code, seat
            ev = BIDS.get((seat, code))
            if ev is None:
                ev = BIDS[(seat, code)] = BidMade(seat, code)
            made.append(ev)
        st.current, st.bidder = current, bidder
        out.extend(made)
        return True

    def _bid_code(self, word: str) -> int | None:
        """The code of a bid as written (:data:`HOLD` for a hold word), cached; None if it is not one."""
        if B.call_words(word) in B.HOLD_WORDS:
            code = HOLD
        else:
            try:
                code = self.bids.parse(word)
            except B.BidError:
                return None
        self._bid_codes[word] = code
        return code

    def fast_calls(self, text: str, st: DealReading, out: list[Event]) -> bool:
        """A canonical whist list ``C pass, A whist`` applied with cached events (a call's event depends on
        its seat and word only); False, with nothing changed, when any item is not plainly right."""
        seats, cache = self._seats, CALLS
        made = []
        for item in text.split(", "):
            seat = seats.get(item[0])
            if seat is None:
                return False
            key = (seat, item[2:])
            ev = cache.get(key)
            if ev is None:
                try:
                    ev = cache[key] = self.call(seat, Tok(item[2:]))
                except RecordError:
                    return False
            made.append(ev)
        out.extend(made)
        return True
    def fast_trick(self, text: str, st: DealReading, out: list[Event]) -> bool:
        """A canonical trick line (held cards, single spaces, no talon marks) applied without token
        objects; False, with nothing changed, whenever anything is off: the careful loop then
        reads the line again and raises the exact error."""
        tokens, owner = CARD_TOKENS, st.cards.owner
        cards: list[int] = []
        seats = 0   # mask of the seats that played
        first = -1
        for t in text.split(" "):
            c = tokens.get(t)
            if c is None:
                return False
            holder = owner[c]
            if holder < 0 or seats >> holder & 1:
                return False
            if first < 0:
                first = holder
            cards.append(c)
            seats |= 1 << holder
        if st.last_trick >= 0 and not st.last_trick >> first & 1:
            return False
        hands = st.cards.hands
        assert hands is not None
        played = PLAYED
        bits = 0
        for c in cards:
            seat = owner[c]
            hands[seat] &= ~(1 << c)
            owner[c] = -1
            out.append(played[seat][c])
            bits |= 1 << c
        st.cards.played |= bits
        st.last_trick = seats
        return True

