"""Record and audit defects of issue 10, each pinned by a regression test (scores computed by hand).

1. a record that ends mid-deal: ``deal_incomplete``, as before another deal;
2. a paper half-whist as on the sheet (``Whist: B pass, C half``) is scored;
3. ``min_bid_after_raspasy`` holds for a paper ``Contract:`` line too;
4. the rules string of ``sheet --json`` reads back from a ``[Rules]`` tag;
5. ``Score:`` lines take halves and fractions, exactly;
6. a deal after the end of the pulka: flagged and not scored, every time.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.engine.findings import AuditFailed
from preflog.engine.replay import audit
from preflog.engine.replay import audit_rows
from preflog.engine.replay import rows_of
from preflog.model.events import ContractDeclared
from preflog.model.events import PulkaStarted
from preflog.model.events import ScoreRecorded
from preflog.model.events import from_row
from preflog.model.outcome import DealKind
from preflog.record import RecordError
from preflog.record.api import read_json
from preflog.record.api import read_text
from preflog.record.api import write_json
from preflog.record.api import write_text
from preflog.rules import rules_of

HEAD = '[Players "Anna, Boris, Vera"]\n'
HEAD4 = '[Players "Anna, Boris, Vera, Gleb"]\n'
A, B, C, D = range(4)


def _where(res: object) -> list[tuple[str, int, int]]:
    return [(f.code, f.deal, f.seq) for f in res.findings]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- 1. the end closes the deal
OPEN_DEAL = HEAD + "Deal 1: dealer C\nContract: A 6s\nWhist: B whist, C pass\n"


def test_a_record_ending_mid_deal_is_deal_incomplete() -> None:
    """No outcome and no ``End:``: the end of the log closes the open deal, with the finding the same deal gets
    before another deal (code, deal and message), at seq = the length of the log + 1 (the store's numbering:
    where the closing event would stand). Every way of auditing agrees; a strict audit stops there."""
    events = read_text(OPEN_DEAL)
    res = audit(events)
    assert _where(res) == [("deal_incomplete", 1, len(events) + 1)]
    assert res.deals[0].outcome is None and res.deals[0].score is None
    before = audit(read_text(OPEN_DEAL + "Deal 2: dealer A\nAuction: all pass\nTricks: A 4, B 3, C 3\n"))
    assert [(f.code, f.deal, f.message) for f in before.findings] == [(f.code, f.deal, f.message)
                                                                      for f in res.findings]
    assert "whist phase" in res.findings[0].message or "play_mode phase" in res.findings[0].message
    assert audit_rows(rows_of(events)).findings == res.findings
    with pytest.raises(AuditFailed) as exc:
        audit(events, strict=True)
    assert exc.value.finding.code == "deal_incomplete"
    # the finished deal, or a log that stops between deals, stays clean
    assert audit(read_text(OPEN_DEAL + "Tricks: A 6, B 4, C 0\n")).ok
    assert audit(read_text(HEAD)).ok
    # a deal broken by a finding is not reported twice
    broken = audit(read_text(HEAD + "Deal 1: dealer C\nAuction: A 7s\n"))
    assert broken.codes() == ["jump_bid"]


# ---------------------------------------------------------------------------- 2. the paper half-whist
def test_paper_half_whist_as_on_the_sheet_is_scored() -> None:
    """Sochi, 3 players. A plays 6♠, B passes, C half-whists, and nothing more is written (the sheet form).
    The contract counts as made: A writes the game value 2 in his pulya. C's half is half the 6-level whist
    obligation of 4 tricks = 2 tricks at 2 each = 4 visty on A; B, who passed, writes nothing. The score
    lines written after it agree, so the audit is clean."""
    text = HEAD + ("Deal 1: dealer C\nContract: A 6s\nWhist: B pass, C half\n"
                   "Score: A pulya 2\nScore: C visty A=4\n")
    res = audit(read_text(text))
    assert res.ok, res.findings
    o = res.deals[0].outcome
    assert o is not None and o.kind == DealKind.HALF_WHIST and o.half_whister == C and o.declarer == A
    assert res.sheet is not None and res.sheet.pulya == [2, 0, 0] and res.sheet.gora == [0, 0, 0]
    assert res.sheet.visty == [[0, 0, 0], [0, 0, 0], [4, 0, 0]]
    # a half-whist returned on paper is still played out: B returns and whists alone
    returned = audit(read_text(HEAD + "Deal 1: dealer C\nContract: A 6s\nWhist: B pass, C half, B whist\n"
                               "Tricks: A 6, B 4, C 0\n"))
    r = returned.deals[0].outcome
    assert returned.ok and r is not None and r.kind == DealKind.GAME and r.returner == B


def test_paper_half_whist_at_four_needs_no_dealer_pass() -> None:
    """4 players, Gleb (D) deals and sits out. A plays 7♠, B passes, C half-whists; Gleb's pass (he could
    return the whist) is not written, and the log ends there. Made: A writes 4 (the 7-level value). C's half
    is half the 7-level obligation of 2 tricks = 1 trick at 4 = 4 visty on A."""
    res = audit(read_text(HEAD4 + "Deal 1: dealer D\nContract: A 7s\nWhist: B pass, C half\n"))
    assert res.ok, res.findings
    o = res.deals[0].outcome
    assert o is not None and o.kind == DealKind.HALF_WHIST and o.half_whister == C
    assert res.sheet is not None and res.sheet.pulya == [4, 0, 0, 0]
    assert res.sheet.visty[C] == [4, 0, 0, 0] and sum(map(sum, res.sheet.visty)) == 4
    # the card-level deal keeps asking for the return decision (its hands say it was played out)


# ---------------------------------------------------------------------------- 3. anti-raspasy minimum
RASPASY_TWICE = ('[Rules "sochi+min-bid-after-raspasy"]\n'
                 "Deal 1: dealer C\nAuction: all pass\nTricks: A 4, B 3, C 3\n"
                 "Deal 2: dealer A\nAuction: all pass\nTricks: A 4, B 3, C 3\n"
                 "Deal 3: dealer B\n")


def test_min_bid_after_raspasy_holds_for_a_paper_contract() -> None:
    """After two raspasy in a row the game must be at least 7 (``min_bid_after_raspasy`` ((2, 7), (3, 8))):
    a paper 6♠ without its auction is refused with the code the auction uses; 7♠ and miser (above every
    minimum) are accepted."""
    events = read_text(HEAD + RASPASY_TWICE + "Contract: C 6s\nWhist: A pass, B pass\n")
    seq = next(i for i, e in enumerate(events, 1) if isinstance(e, ContractDeclared))  # the store's seq
    res = audit(events)
    assert _where(res) == [("below_min_level", 3, seq)]
    auction = audit(read_text(HEAD + RASPASY_TWICE + "Auction: C 6s\n"))
    assert auction.codes() == ["below_min_level"]
    assert audit(read_text(HEAD + RASPASY_TWICE + "Contract: C 7s\nWhist: A pass, B pass\n")).ok
    assert audit(read_text(HEAD + RASPASY_TWICE + "Contract: C miser\nTricks: A 5, B 5, C 0\n")).ok
    plain = HEAD + RASPASY_TWICE.replace("+min-bid-after-raspasy", "")
    assert audit(read_text(plain + "Contract: C 6s\nWhist: A pass, B pass\n")).ok


# ---------------------------------------------------------------------------- 4. rules string round trip
def _sheet_json(path: Path, store: Path) -> dict[str, object]:
    res = CliRunner().invoke(app, ["sheet", str(path), "--json", "--store", str(store)])
    assert res.exit_code == 0, res.output
    data: dict[str, object] = json.loads(res.output)["pulkas"][0]
    return data


def test_the_rules_string_of_sheet_json_reads_back(tmp_path: Path) -> None:
    """``sheet --json`` prints the rules as ``preset+named+key=value…``; that string in a ``[Rules]`` tag
    gives the same rules (every option) and prints the same string again."""
    first = tmp_path / "first.pref"
    first.write_text(HEAD + '[Rules "sochi+geometric-raspasy"]\n[Option "raspasy_cap=3"]\n'
                     '[Option "min_bid_after_raspasy=[[2,7],[3,8]]"]\n[Option "hold_forbidden_on=[\\"miser\\"]"]\n'
                     '[Option "must_trump=false"]\n[Option "third_hand_mode=take_talon_no_miser"]\n'
                     "Deal 1: dealer C\nAuction: all pass\nTricks: A 4, B 3, C 3\n", encoding="utf-8")
    spec = _sheet_json(first, tmp_path / "st")["rules"]
    assert isinstance(spec, str) and spec.startswith("sochi+geometric-raspasy+raspasy_cap=3+")
    again = tmp_path / "again.pref"
    escaped = spec.replace("\\", "\\\\").replace('"', '\\"')
    again.write_text(HEAD + f'[Rules "{escaped}"]\n' + "Deal 1: dealer C\nAuction: all pass\n"
                     "Tricks: A 4, B 3, C 3\n", encoding="utf-8")
    a, b = read_text(first.read_text(encoding="utf-8"))[0], read_text(again.read_text(encoding="utf-8"))[0]
    assert isinstance(a, PulkaStarted) and isinstance(b, PulkaStarted)
    assert rules_of(b) == rules_of(a) and b.overrides == a.overrides and b.rules == "sochi+geometric-raspasy"
    assert _sheet_json(again, tmp_path / "st2")["rules"] == spec
    # options inline come first, [Option] tags after them (the later value wins)
    both = read_text(HEAD + '[Rules "sochi+raspasy_cap=3"]\n[Option "raspasy_cap=5"]\n')[0]
    assert isinstance(both, PulkaStarted) and rules_of(both).raspasy_cap == 5
    with pytest.raises(RecordError) as bad:
        read_text(HEAD + '[Rules "sochi+raspasy_cap=lots"]\n')
    assert bad.value.line == 2 and bad.value.text == "raspasy_cap=lots" and bad.value.column == 15
    with pytest.raises(RecordError):
        read_text(HEAD + '[Rules "raspasy_cap=3"]\n')


# ---------------------------------------------------------------------------- 5. fractions on score lines
def test_score_lines_take_halves_and_fractions() -> None:
    """``12.5`` and ``25/2`` are the same exact half; whole values stay ints (``4.0`` is 4). The audit compares
    exactly: C's 4 visty on A (the half-whist above) written as ``8/2`` agree, written as ``4.5`` do not."""
    text = HEAD + ("Deal 1: dealer C\nContract: A 6s\nWhist: B pass, C half\n"
                   "Score: A pulya 2.0 gora 0\nScore: C visty A=8/2\nScore: B pulya 0 visty A=12.5 C=25/2\n")
    events = read_text(text)
    lines = [e for e in events if isinstance(e, ScoreRecorded)]
    assert lines[0].pulya == 2 and type(lines[0].pulya) is int and lines[1].visty == (4, 0, 0)
    assert lines[2].visty == (Fraction(25, 2), 0, Fraction(25, 2))
    res = audit(events)
    assert [(f.code, f.seq) for f in res.findings] == [("score_mismatch", len(events))] * 2  # the last event
    assert "written as 25/2" in res.findings[0].message
    off = audit(read_text(text.replace("A=8/2", "A=4.5")))
    assert "score_mismatch" in off.codes() and any("written as 9/2" in f.message for f in off.findings)
    # the writer writes them back (decimals where exact, else a/b): text, JSON and the store's rows round-trip
    out = write_text(events)
    assert "Score: B pulya 0 gora 0 visty A=12.5 C=12.5" in out
    assert read_text(out) == events and read_json(write_json(events)) == events
    assert [from_row(*r) for r in rows_of(events)] == events
    third = [*events[:-1], ScoreRecorded(B, 0, 0, (Fraction(1, 3), 0, Fraction(-5, 4)))]
    assert "visty A=1/3 C=-1.25" in write_text(third) and read_text(write_text(third)) == third
    assert read_json({"players": ["Anna", "Boris", "Vera"], "deals": [{"dealer": "C", "steps": [
        {"score": {"player": "A", "pulya": 12.5, "visty": {"B": "1/3"}}}]}]})[-1] == \
        ScoreRecorded(A, Fraction(25, 2), 0, (0, Fraction(1, 3), 0))


@pytest.mark.parametrize("bad", ["12,5", "x", "1/0", ".5", "1.", "1/2/3", "½"])
def test_a_score_that_is_no_number_is_a_located_error(bad: str) -> None:
    with pytest.raises(RecordError) as exc:
        read_text(HEAD + f"Deal 1: dealer C\nScore: A pulya 0 visty B={bad}\n")
    e = exc.value
    assert e.line == 3 and e.column is not None and e.problem in ("is not a score", "is not a visty entry")
    if bad != "12,5":
        assert e.text == bad and e.column == 26 and "25/2" in e.expected


# ---------------------------------------------------------------------------- 6. deals after the end
FINISHED = HEAD + '[Pool "2"]\n' + "".join(
    f"Deal {i + 1}: dealer {'CAB'[i]}\nContract: {'ABC'[i]} 6s\n"
    f"Whist: {'BCA'[i]} pass, {'CAB'[i]} pass\n" for i in range(3))


def test_deals_after_the_end_of_the_pulka_are_flagged_and_not_scored() -> None:
    """Pool 2: A, B and C each make an unwhisted 6♠ (value 2) and close their pulya, so the pulka is over
    (RULES: it ends when every pulya is closed). The two deals played after it each get
    ``pulka_already_finished``; they are checked (an illegal call is still found) but not scored: the sheet
    stays pulya 2/2/2, no gora, no visty, settlement 0 each (today's scorer would have written 2 gora
    on B and C as American help for deal 4, and a raspasy after it)."""
    more = ("Deal 4: dealer C\nContract: A 6s\nWhist: B pass, C pass\n"
            "Deal 5: dealer A\nAuction: all pass\nTricks: A 4, B 3, C 3\nEnd: closed\n")
    events = read_text(FINISHED + more)
    starts = [i for i, e in enumerate(events, 1) if type(e).__name__ == "DealStarted"]  # the store's seq
    res = audit(events)
    assert _where(res) == [("pulka_already_finished", 4, starts[3]), ("pulka_already_finished", 5, starts[4])]
    assert [d.outcome is not None for d in res.deals] == [True] * 5
    assert [d.score is not None for d in res.deals] == [True, True, True, False, False]
    assert res.sheet is not None and res.sheet.pulya == [2, 2, 2] and res.sheet.gora == [0, 0, 0]
    assert res.sheet.visty == [[0] * 3] * 3
    assert res.settlement is not None and tuple(res.settlement.exact) == (0, 0, 0)
    assert audit(read_text(FINISHED + "End: closed\n")).ok
    illegal = audit(read_text(FINISHED + "Deal 4: dealer C\nAuction: A 7s\n"))
    assert illegal.codes() == ["pulka_already_finished", "jump_bid"]
