"""The compiled text scanner (``preflog/record/_scan.c``, :mod:`preflog.record.scanner`) and the pure-Python
reader read every record alike: the same events with the same record lines, or the same error, located
at the same ``FILE:LINE:COL`` with the same message.

The corpus: bot pulkas of every family and table size (card and paper deals, raspasy with talon marks),
written in both card styles, several pulkas to a file; the shipped seed records; and each simulated
file corrupted line by line in the ways a hand-edited or damaged file goes wrong (a line cut short, a
bad or repeated card, a card of another hand, a wrong trick number, a bad seat letter, bid, call or tag,
doubled or trailing spaces, a line dropped, repeated or moved, a Unicode digit, a tab). Both paths run
in this process (:func:`preflog.record.scanner.pure` switches the scanner off for a block).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from preflog.record import scanner
from preflog.record.api import read_records
from preflog.record.api import write_text
from preflog.record.errors import RecordError
from preflog.sim import simulate_pulka

ROOT = Path(__file__).resolve().parents[2]
SPECS = (("sochi", 3, False), ("leningrad", 3, False), ("rostov", 3, False), ("sochi", 4, False),
         ("leningrad", 4, False), ("croatian", 3, False), ("slovenian", 3, False), ("sochi", 3, True))


def outcome(text: str) -> list[str]:
    """A read as plain text: each pulka's events and their lines, or the error's message."""
    try:
        records = read_records(text, "t.pref")
    except RecordError as exc:
        return [f"error {exc}"]
    return [f"{r.events!r} {r.lines!r}" for r in records]


def both(text: str) -> tuple[list[str], list[str]]:
    """``(compiled, pure)`` outcomes of one text (pure twice when the scanner is not built)."""
    fast = outcome(text)
    with scanner.pure():
        slow = outcome(text)
    return fast, slow


def files() -> list[tuple[str, str]]:
    """Simulated records (two pulkas a file, latin and unicode cards) of every spec, seeds 0..2."""
    out = []
    for spec, n, paper in SPECS:
        for seed in range(3):
            logs = [simulate_pulka(spec, n, seed * 2 + k, pool=10, max_deals=10, paper=paper) for k in (0, 1)]
            for style in ("latin", "unicode"):
                out.append((f"{spec}-{n}-{paper}-{seed}-{style}", "\n".join(write_text(log, style) for log in logs)))
    return out


def _swap_cards(line: str, rng: random.Random) -> str:
    head, sep, cards = line.partition(": ")
    items = cards.split(" ")
    if len(items) > 1:
        i, j = rng.sample(range(len(items)), 2)
        items[i], items[j] = items[j], items[i]
    return head + sep + " ".join(items)


# line -> damaged line (rng for a choice); "" deletes the line's text
LINE_DAMAGE = {
    "cut": lambda s, r: s[: r.randrange(len(s))] if s else s,
    "bad card": lambda s, r: s.replace("Q", "X", 1) if "Q" in s else s + " Zz",
    "card twice": lambda s, r: s + " " + s.rsplit(" ", 1)[-1],
    "other hand": lambda s, r: s.rsplit(" ", 1)[0] + " " + r.choice(["7s", "Ah", "10d", "Kc", "8h"]),
    "number": lambda s, r: ("1" + s) if s[:1].isdigit() else s,
    "zero number": lambda s, r: ("0" + s) if s[:1].isdigit() else s,
    "unicode digit": lambda s, r: ("\u0663" + s[1:]) if s[:1].isdigit() else s,
    "double space": lambda s, r: s.replace(" ", "  ", 1 + r.randrange(2)),
    "trailing space": lambda s, r: s + " ",
    "tab": lambda s, r: s.replace(" ", "\t", 1),
    "seat letter": lambda s, r: s.replace("A ", "E ", 1).replace("B:", "Q:", 1),
    "bad word": lambda s, r: s.replace("pass", "pas", 1).replace("whist", "wist", 1).replace("6s", "6x", 1),
    "bad tag": lambda s, r: s.replace('"', "", 1) if s.startswith("[") else s,
    "swap cards": _swap_cards,
    "hold": lambda s, r: s.replace(" pass", " hold", 1).replace("Contract: A ", "Contract: A hold", 1),
    "other seat": lambda s, r: s.replace("A ", "C ", 1) if s.startswith(("Auction", "Whist", "Discard", "Contract"))
    else s,
    "talon mark": lambda s, r: s.replace(": ", ": (", 1) + ")" if s[:1].isdigit() else s,
    "comma": lambda s, r: s.replace(" ", ", ", 1),
    "blank": lambda s, r: "",
}


def damaged(text: str, rng: random.Random, per_kind: int = 6) -> list[tuple[str, str]]:
    """``text`` damaged at a few random lines in each way of :data:`LINE_DAMAGE`, and by lines dropped,
    repeated and moved."""
    lines = text.split("\n")
    out = []
    for how, fn in LINE_DAMAGE.items():
        for _ in range(per_kind):
            i = rng.randrange(len(lines))
            out.append((f"{how}@{i + 1}", "\n".join([*lines[:i], fn(lines[i], rng), *lines[i + 1:]])))
    for _ in range(per_kind):
        i, j = sorted(rng.sample(range(len(lines)), 2))
        out.append((f"drop@{i + 1}", "\n".join(lines[:i] + lines[i + 1:])))
        out.append((f"repeat@{i + 1}", "\n".join(lines[:i + 1] + lines[i:])))
        out.append((f"move@{i + 1}-{j + 1}", "\n".join(lines[:i] + lines[i + 1:j] + [lines[i]] + lines[j:])))
    return out


def test_the_scanner_is_built_when_required() -> None:
    """CI builds the package with a compiler and sets ``PREFLOG_REQUIRE_NATIVE=1``: then the compiled
    scanner must be the one that runs."""
    if os.environ.get("PREFLOG_REQUIRE_NATIVE", "") not in ("", "0"):
        assert scanner.BUILT is not None and scanner.SCAN is scanner.BUILT
    with scanner.pure():
        assert scanner.SCAN is None


def test_both_paths_read_the_simulated_corpus_alike() -> None:
    corpus = files()
    for name, text in corpus:
        fast, slow = both(text)
        assert fast == slow, name
        assert not fast[0].startswith("error"), (name, fast[0])
    assert len(corpus) == 2 * 3 * len(SPECS)


def test_both_paths_read_the_seed_records_alike() -> None:
    paths = sorted((ROOT / "data").rglob("*.pref"))
    assert len(paths) > 10
    for path in paths:
        fast, slow = both(path.read_text(encoding="utf-8"))
        assert fast == slow, path.name


def test_both_paths_refuse_damaged_records_alike() -> None:
    """Every damaged file gives the same outcome both ways; most are errors, and the errors cover trick
    lines (where the scanner reads) as well as the lines around them."""
    rng = random.Random(16)
    errors: set[str] = set()
    count = 0
    for name, text in files()[::3]:
        for how, bad in damaged(text, rng):
            fast, slow = both(bad)
            assert fast == slow, f"{name} {how}"
            count += 1
            if fast[0].startswith("error"):
                errors.add(how.split("@")[0])
    assert count > 500
    assert {"cut", "bad card", "card twice", "other hand", "number", "zero number", "unicode digit",
            "seat letter", "bad word", "swap cards"} <= errors


@pytest.mark.parametrize("line", ["1: 7s 8s 9s", "1: 7s 8s 9s ", "1:  7s 8s 9s", "01: 7s 8s 9s", "1: 7s,8s 9s",
                                  "1: 7s 8s 9s 10s", "2: 7s 8s 9s", "1: 7s 7s 9s", "1: Ks 8s 9s", "1: 7s 8s",
                                  "1: 7s\t8s 9s", "\u0661: 7s 8s 9s", "1: 7s 8s 9s\u00a0", "1: 7\u2660 8s 9s"])
def test_one_trick_line_both_ways(line: str) -> None:
    """A first trick line in each shape the scanner must take or leave, after a dealt hand: same outcome."""
    text = ('[Players "A, B, C"]\n[Rules "sochi"]\n\nDeal 1: dealer C\nA: 7s Qs Js 7c 8c 9c 7d 8d 9d 7h\n'
            "B: 8s As 10s 10c Jc Qc 10d Jd Qd 8h\nC: 9s Ks Kc Ac Kd Ad 9h 10h Jh Qh\nTalon: Kh Ah\n"
            "Auction: A 6s, B pass, C pass\nDiscard: A Kh Ah\nContract: A 6s\nWhist: B whist, C pass, B open\n"
            f"{line}\n")
    fast, slow = both(text)
    assert fast == slow


def _reference_cuts(blanked: str, end: int) -> list[int]:
    """The pulka cuts as the stream module found them before tag lines were scanned for: every mark line
    (tag, deal header, End line) matched in turn by :data:`preflog.record.stream._MARK`."""
    from preflog.record.stream import _MARK
    from preflog.record.stream import _PLAYERS_TAG
    from preflog.record.stream import _lead_start

    cuts: list[int] = []
    has_pulka = seen_body = players = False
    for m in _MARK.finditer(blanked, 0, end):
        if m.group(1) is None:
            seen_body = has_pulka
            continue
        is_players = _PLAYERS_TAG.match(blanked, m.start(1)) is not None
        if not has_pulka or seen_body or (is_players and players):
            if has_pulka:
                cuts.append(_lead_start(blanked, m.start()))
            has_pulka, seen_body, players = True, False, False
        players = players or is_players
    return cuts


def test_pulka_cuts_equal_the_line_by_line_reference() -> None:
    """:func:`preflog.record.stream.cut_points` finds the same cuts as matching every mark line, on the
    simulated and damaged records and on random texts of tags, headers, End lines, BOMs and blanks."""
    from preflog.record.stream import blank_for_cut
    from preflog.record.stream import cut_points

    rng = random.Random(7)
    texts = [text for _, text in files()[::4]]
    texts += [bad for _, text in files()[::12] for _, bad in damaged(text, rng, 2)]
    pieces = ["\n", "\n", " ", "\t", "\ufeff", "[", '[Players "A, B, C"]', '[ players "x"]', "[Rules \"sochi\"]",
              "Deal 1: dealer A", "deal", "dealer", "Сдача 2", "End: closed", "end :", "конец:", "x", "1: 7s 8s 9s",
              "A: 7s", ";", "\u2028", "Ending"]
    for _ in range(3000):
        texts.append("".join(rng.choice(pieces) for _ in range(rng.randrange(1, 30))))
    for text in texts:
        blanked, end = blank_for_cut(text)
        for stop in {end, rng.randrange(end + 1)}:
            assert cut_points(blanked, stop) == _reference_cuts(blanked, stop), (text[:200], stop)


def test_scanner_line_checks_equal_the_python_ones() -> None:
    """On random lines: the scanner's letter-list check is the parser's ``letter_list``, and a line it
    counts as a canonical trick line is one the parser's trick pattern reads (it may leave more)."""
    from preflog.record.syntax import FAST_TRICK
    from preflog.record.textfmt import _Parser

    scan = scanner.BUILT
    if scan is None:
        pytest.skip("the compiled scanner is not built (nothing to compare; CI builds it)")
    parser = _Parser("t")
    parser.names = ["Anna", "A Bo", "Vera"]
    parser._refresh()
    assert parser._safe == "BC"  # "A" may start the name "A Bo"
    rng = random.Random(3)
    pieces = ["A", "B", "C", "D", " ", ", ", ",", "6s", "pass", "\t", ":", "=", "\u00a0", "1", "12", ": ", "7s", "(",
              "x", "\u0663", "Ж"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 9)))
        assert scan.letter_list(text, parser._safe) == parser.letter_list(text), repr(text)
        line = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 6)))
        if scan.trick_lines([line], 0):
            assert line and not line[-1].isspace() and FAST_TRICK.fullmatch(line), repr(line)
