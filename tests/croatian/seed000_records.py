"""Regenerate data/examples/seed000-*.pref (not a test): card layouts for the seed-000 deal scripts are
found by random deals and random legal play through the engine until the tricks match the seed.

Run: ``.venv/bin/python tests/croatian/seed000_records.py`` (deterministic: fixed random seed).
"""
import random
from pathlib import Path

from preflog.engine.croatian.deal import CroatianDeal
from preflog.engine.replay import audit
from preflog.model.calls import CALL_PASS as P
from preflog.model.calls import CALL_WHIST as W
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import ContractDeclared
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import ScoreRecorded
from preflog.model.events import WhistCalled
from preflog.model.outcome import DealOutcome
from preflog.record import write_text
from preflog.rules.config import Rules
from preflog.rules.presets import resolve

OUT = Path(__file__).resolve().parents[2] / "data" / "examples"
A, B, C = 0, 1, 2


def _shuffled(rng: random.Random) -> list[int]:
    deck = list(range(32))
    rng.shuffle(deck)
    return deck


def _lines(a: tuple[int, int, tuple[int, ...]], b: tuple[int, int, tuple[int, ...]],
           c: tuple[int, int, tuple[int, ...]]) -> list[ScoreRecorded]:
    """Score lines of A, B, C: (column, 0, juha written on A, B, C)."""
    return [ScoreRecorded(A, *a), ScoreRecorded(B, *b), ScoreRecorded(C, *c)]


def _all_pass(rng: random.Random, dealer: int) -> list:
    deck = _shuffled(rng)
    hands = tuple(sum(1 << c for c in deck[10 * i:10 * i + 10]) for i in range(3))
    return [DealStarted(dealer, hands, (1 << deck[30]) | (1 << deck[31])),
            *(BidMade((dealer + 1 + i) % 3, 0) for i in range(3))]


def find(rules: Rules, dealer: int, script: list, target: tuple[int, ...], rng: random.Random,
         tries: int = 200000) -> tuple[list, DealOutcome | None]:
    """script: list of events without cards (bids, contract, whist/contra); a Discarded placeholder None."""
    for _ in range(tries):
        deck = _shuffled(rng)
        order = ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
        hands = [0, 0, 0]
        for i, s in enumerate(order):
            for c in deck[5 * i:5 * i + 5] + deck[17 + 5 * i:22 + 5 * i]:
                hands[s] |= 1 << c
        talon = (1 << deck[15]) | (1 << deck[16])
        ev0 = DealStarted(dealer, tuple(hands), talon)
        d = CroatianDeal.from_event(rules, 3, ev0)
        evs = [ev0]
        for e in script:
            if e is None:  # random discard
                decl = d.declarer
                h12 = [c for c in range(32) if (d.hands[decl] | talon) >> c & 1]
                a, b = rng.sample(h12, 2)
                e = Discarded(decl, (1 << a) | (1 << b))
            d.apply(e)
            evs.append(e)
        while not d.done:
            acts = [a for a in d.legal_actions() if isinstance(a, CardPlayed)]
            e = rng.choice(acts)
            d.apply(e)
            evs.append(e)
        if tuple(d.tricks) == target:
            return evs, d.outcome
    raise SystemExit(f"not found {target}")

def main() -> None:
    rng = random.Random(2024)
    hr = resolve("croatian")
    # ---- sample sheet, card level
    log = [PulkaStarted(("A", "B", "C"), "croatian", (), 30, "1", (("source", "seed 000, sample sheet, card level"),))]
    e1, o = find(hr, B, [BidMade(C, 2), BidMade(A, 0), BidMade(B, 0), None, ContractDeclared(C, 3),
                         WhistCalled(A, W), WhistCalled(B, W)], (2, 2, 6), rng)
    log += e1 + _lines((-30, 0, (0, 0, 12)), (-30, 0, (0, 0, 12)), (-24, 0, (0, 0, 0)))
    e2, o = find(hr, C, [BidMade(A, 0), BidMade(B, 2), BidMade(C, 0), None, ContractDeclared(B, 5),
                         WhistCalled(C, W), WhistCalled(A, P)], (0, 7, 3), rng)
    log += e2 + _lines((-30, 0, (0, 0, 12)), (-20, 0, (0, 0, 12)), (-24, 0, (0, 30, 0)))
    log += _all_pass(rng, A) + _lines((-30, 0, (0, 0, 12)), (-20, 0, (0, 0, 12)), (-24, 0, (0, 30, 0)))
    e4, o = find(hr, B, [BidMade(C, 0), BidMade(A, 2), BidMade(B, 0), None, ContractDeclared(A, 5),
                         WhistCalled(B, P), WhistCalled(C, W)], (7, 0, 3), rng)
    log += e4 + _lines((-10, 0, (0, 0, 12)), (-20, 0, (0, 0, 12)), (-24, 0, (60, 30, 0)))
    log.append(PulkaEnded("stopped"))
    res = audit(log)
    assert res.ok, res.findings
    print(res.settlement)
    head = """; Seed 000 (Fundak), "Пример записи": the sample score sheet at card level. Same deals, dealers,
; auctions and score lines as seed000-sample-sheet.pref; the cards are a layout found by random
; legal play that gives the seed's trick counts (C 6 with A 2 and B 2; B 7 with C 3 while A is out;
; A 7 with C 3 while B is out). Deals 2 and 4 are two-handed: the passer was not invited.
; Settlement: A +32, B -38, C +6.
"""
    (OUT / "seed000-sample-sheet-cards.pref").write_text(head + write_text(log))
    # ---- docs/rules.md §C6 worked deals: B «igra» hearts
    script = [BidMade(A, 2), BidMade(B, 8), BidMade(C, 0), ContractDeclared(B, 4), WhistCalled(C, W), WhistCalled(A, W)]
    made, _ = find(hr, C, script, (2, 6, 2), rng)
    failed, o = find(hr, C, script, (3, 3, 2), rng)
    assert o.stopped_early
    out = []
    for name, evs, pre in (("made", made, []), ("refe", made, "refe"), ("failed", failed, [])):
        log = [PulkaStarted(("A", "B", "C"), "croatian", (), 30, "1", (("deal", name),))]
        if pre:
            log += _all_pass(rng, B)
        log += evs + [PulkaEnded("stopped")]
        res = audit(log)
        assert res.ok, res.findings
        print(name, res.sheet)
        out.append(write_text(log))
    head = """; docs/rules.md §C6 "extra worked deal (Croatian)", start 30: A 2, B igra, C pass -> B plays hearts from
; hand, V = 2 x (4 + 1) = 10; A and C whist. (The digest adds "A pass": in seed 000, ex. 4, a number
; bidder overcalled by igra makes no further call, so the engine ends the auction after C's pass.)
; Three pulkas, cards found by random legal play:
;   made:   B 6, A 2, C 2           -> B -30 -> -20; A and C write 20 each on B
;   refe:   an all-pass first, then the same deal on B's refe -> B -10; A and C 40 each
;   failed: A 3, C 2 reach five defender tricks after 8 tricks, play stops -> B -40; A 30, C 20
"""
    (OUT / "seed000-worked-deals.pref").write_text(head + "\n".join(out))

def auctions() -> None:
    header = """; Seed 000 (Fundak), auction examples 1-7 as paper-level deals (players A, B, C in bidding order,
; so C deals). Each is its own pulka; after the contract both defenders pass (no play), except the
; Bettel of example 6, which defenders may not pass: both play and the declarer takes no trick.
; Bettel / Sanac from hand are named at once: "igra-bettel" / "igra-sanac" (call codes 16 / 17).
"""
    examples = [
        ("1: C plays with the talon and may order 4, 5, 6 or 7", "A 2, B 3, C 4, A pass, B pass", "C", "5"),
        ("2: B plays with the talon (holds) and may order 4-7",
         "A pass, B 2, C 3, B hold, C 4, B hold, C pass", "B", "4"),
        ("3: C plays with the talon and may order 5-7", "A 2, B 3, C 4, A pass, B hold, C 5, B pass", "C", "5"),
        ("4: two igra; B names hearts, C clubs: C plays clubs from hand",
         "A 2, B igra, C igra, B 4, C 5", "C", "5"),
        ("5: A igra, nobody contests: A plays any contract from hand", "A igra, B pass, C pass", "A", "7"),
        ("6: B plays Bettel from hand", "A 2, B igra-bettel, C pass", "B", "bettel"),
        ("7: C plays Sanac from hand", "A 2, B igra-bettel, C igra-sanac", "C", "sanac"),
    ]
    parts = [header]
    for title, auction, decl, contract in examples:
        d1, d2 = {"A": "B C", "B": "C A", "C": "A B"}[decl].split()
        play = (f"Whist: {d1} pass, {d2} pass" if contract != "bettel" else
                f"Whist: {d1} whist, {d2} whist\nTricks: {decl} 0, {d1} 5, {d2} 5")
        parts.append(f"""[Players "A, B, C"]
[Rules "croatian"]
[Example "{title}"]

Deal 1: dealer C
Auction: {auction}
Contract: {decl} {contract}
{play}
End: stopped
""")
    (OUT / "seed000-auctions.pref").write_text("\n".join(parts))


if __name__ == "__main__":
    main()
    auctions()
