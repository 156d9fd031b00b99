"""Corrections (DealCorrected): appended events that take a deal off the sheet; the replay applies the
corrected log and reports findings at the seqs of the log as stored."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from preflog.engine.replay import audit
from preflog.engine.replay import replay
from preflog.model.events import DealCorrected
from preflog.model.events import DealStarted
from preflog.model.events import Event
from preflog.model.events import PaperResult
from preflog.record.api import read_records

SEED = Path(__file__).resolve().parents[2] / "data" / "examples" / "seed003-settlement.pref"


def _seed() -> tuple[list[Event], list[int]]:
    events = list(read_records(SEED.read_text(encoding="utf-8"), "seed003")[0].events)
    return events, [i for i, e in enumerate(events) if isinstance(e, DealStarted)]


def _method1(events: list[Event]) -> dict[str, int]:
    return {p: s.method1 for p, s in audit(events).settlement_by_player.items()}


def test_a_deal_entered_wrong_and_corrected_settles_as_the_seed() -> None:
    events, starts = _seed()
    deal2 = events[starts[1]:starts[2]]            # Запад 6s down three: tricks 3 / 5 / 2
    wrong = [*deal2[:-1], PaperResult((4, 4, 2))]  # entered as down two
    entered = [*events[:starts[1]], *wrong, *events[starts[2]:-1]]
    assert _method1([*entered, events[-1]]) != {"Запад": 31, "Восток": -30, "Юг": -1}
    corrected = [*entered, DealStarted(deal2[0].dealer), DealCorrected(2), *deal2[1:], events[-1]]  # type: ignore[attr-defined]
    result = audit(corrected)
    assert result.ok, result.findings
    # the seed's settlement (method 1 +31 / −30 / −1, exact +30⅔ / −29⅓ / −1⅓)
    assert _method1(corrected) == {"Запад": 31, "Восток": -30, "Юг": -1}
    assert result.settlement_by_player["Юг"].exact == Fraction(-4, 3)
    assert len(result.deals) == 12                 # the wrong deal 2 no longer counts
    assert result.deals[1].seq == len(entered) + 1   # deal 2 is the replacement, at its stored seq
    assert result.events == len(corrected)


def test_the_last_deal_struck_out_is_as_if_never_entered() -> None:
    events, starts = _seed()
    extra = [DealStarted(1), PaperResult((4, 3, 3))]
    struck = [*events[:-1], *extra, DealStarted(1), DealCorrected(13, struck=True), events[-1]]
    assert audit(struck).ok
    assert _method1(struck) == _method1(events)
    assert len(audit(struck).deals) == 12


def test_a_finding_in_a_replacement_deal_names_its_stored_seq() -> None:
    events, starts = _seed()
    deal2 = events[starts[1]:starts[2]]
    bad = [*events[:-1], DealStarted(deal2[0].dealer), DealCorrected(2), *deal2[1:-1], PaperResult((3, 5, 3))]
    found = audit(bad).findings
    assert found and found[0].seq == len(bad)        # the PaperResult, the last event of the stored log
    assert found[0].deal == 2


def test_a_correction_that_cannot_apply_is_a_finding_where_it_stands() -> None:
    events, starts = _seed()
    for at, ev, code in ((len(events) - 1, DealCorrected(99), "bad_correction"),   # no deal 99, no header
                         (starts[3] + 2, DealCorrected(2), "bad_correction"),      # inside deal 4
                         (len(events), DealCorrected(1), "event_after_end")):      # after the end
        log = [*events[:at], ev, *events[at:]]
        codes = [(f.code, f.seq) for f in audit(log).findings]
        assert (code, at + 1) in codes, (ev, codes)
    header_then_99 = [*events[:-1], DealStarted(1), DealCorrected(13), events[-1]]  # deal 13 is itself
    assert "bad_correction" in audit(header_then_99).codes()


def test_replay_walks_the_corrected_log_with_stored_seqs() -> None:
    events, starts = _seed()
    deal2 = events[starts[1]:starts[2]]
    wrong = [*deal2[:-1], PaperResult((4, 4, 2))]
    log = [*events[:starts[1]], *wrong, *events[starts[2]:-1], DealStarted(deal2[0].dealer), DealCorrected(2),
           *deal2[1:], events[-1]]
    seqs = [s.seq for s in replay(log)]
    header = len(log) - len(deal2) - 1   # the replacement's DealStarted (1-based seq); the correction follows it
    wrong_deal = list(range(starts[1] + 1, starts[2] + 1))
    assert seqs == [*range(1, starts[1] + 1), header, *range(header + 2, len(log)),   # deal 2: its replacement
                    *range(starts[2] + 1, header), len(log)]
    assert not set(wrong_deal) & set(seqs)
