"""Audit: finding codes and locations, skipping a broken deal, score lines, pulka end, row fast path."""

from __future__ import annotations

import pytest

from preflog.engine.findings import AuditFailed
from preflog.engine.replay import audit
from preflog.engine.replay import audit_rows
from preflog.engine.replay import replay
from preflog.engine.replay import rows_of
from preflog.engine.replay import state_at
from preflog.model.bids import PASS
from preflog.model.calls import CALL_PASS
from preflog.model.cards import parse_card
from preflog.model.cards import parse_cards
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import ContractDeclared
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import ScoreRecorded
from preflog.model.events import WhistCalled

G = (parse_cards("As Ks Qs Js 10s Ac Kc Ad Kd Qd"),
     parse_cards("9s 8s 7s Qc Jc 10c Ah Kh Qh Jh"),
     parse_cards("9c 8c 7c Jd 10d 9d 8d 7d 10h 9h"))
G_TALON = parse_cards("8h 7h")
START = PulkaStarted(("Ann", "Bob", "Cid"), "sochi")


def not_whisted(dealer: int) -> list:
    """A deal where first hand wins 6♠ and both defenders pass: no play (layout rotated to the dealer)."""
    fh = (dealer + 1) % 3
    hands = [0, 0, 0]
    for i in range(3):
        hands[(fh + i) % 3] = G[i]
    return [DealStarted(dealer, tuple(hands), G_TALON), BidMade(fh, 61), BidMade((fh + 1) % 3, PASS),
            BidMade((fh + 2) % 3, PASS), Discarded(fh, G_TALON), ContractDeclared(fh, 61),
            WhistCalled((fh + 1) % 3, CALL_PASS), WhistCalled((fh + 2) % 3, CALL_PASS)]


def test_clean_log_has_no_findings_and_scores() -> None:
    """Unwhisted 6♠ made: declarer writes V = 2 into the pulya (docs/rules.md §B0, §A8)."""
    log = [START, *not_whisted(2), ScoreRecorded(0, 2, 0, (0, 0, 0)), *not_whisted(0)]
    res = audit(log)
    assert res.ok and len(res.deals) == 2
    assert res.deals[0].outcome is not None and res.deals[0].outcome.kind == "not_whisted"
    assert res.deals[0].score is not None and res.deals[0].score.pulya == (2, 0, 0)
    assert res.sheet is not None and res.sheet.pulya == [2, 2, 0]
    assert res.settlement is not None
    assert audit_rows(rows_of(log)).codes() == []


def test_score_mismatch_names_player_field_and_values() -> None:
    log = [START, *not_whisted(2), ScoreRecorded(0, 4, 0, (0, 0, 0))]
    res = audit(log)
    assert res.codes() == ["score_mismatch"]
    f = res.findings[0]
    assert f.deal == 1 and f.seq == 10 and "Ann" in f.message and "pulya" in f.message
    assert "4" in f.message and "2" in f.message


def test_illegal_card_location_and_skip_to_next_deal() -> None:
    deal1 = not_whisted(2)[:6] + [WhistCalled(1, 1), WhistCalled(2, 1), CardPlayed(0, parse_card("Ad")),
                                  CardPlayed(1, parse_card("Ah"))]  # seat 1 must trump
    deal1 += [CardPlayed(2, parse_card("7d"))]  # skipped: the deal is broken
    log = [START, *deal1, *not_whisted(0)]
    res = audit(log)
    assert res.codes() == ["must_trump"]
    f = res.findings[0]
    assert f.deal == 1 and f.seq == 11 and isinstance(f.event, CardPlayed)  # log[10]: seq = position + 1
    assert res.deals[0].broken and res.deals[0].outcome is None
    assert res.deals[1].outcome is not None and not res.deals[1].findings
    rows = audit_rows(rows_of(log))
    assert rows.codes() == ["must_trump"] and rows.findings[0].seq == 11
    assert rows.findings[0].event == CardPlayed(1, parse_card("Ah"))  # built lazily from the row


def test_strict_raises_on_first_finding() -> None:
    log = [START, *not_whisted(2)]
    log[3] = BidMade(1, 63)  # jump over 6♣
    with pytest.raises(AuditFailed) as exc:
        audit(log, strict=True)
    assert exc.value.finding.code == "jump_bid" and exc.value.finding.seq == 4  # log[3]
    with pytest.raises(AuditFailed):
        list(replay(log))


def test_pulka_level_codes() -> None:
    res = audit([START, *not_whisted(2), *not_whisted(2)])
    assert res.codes() == ["dealer_out_of_turn"] and res.findings[0].deal == 2
    res = audit([START, *not_whisted(2)[:4], *not_whisted(0)])
    assert res.codes() == ["deal_incomplete"] and res.findings[0].deal == 1
    res = audit([*not_whisted(2)])
    assert res.codes() == ["missing_pulka_start"]
    res = audit([START, BidMade(0, 61)])
    assert res.codes() == ["event_outside_deal"]
    res = audit([START, *not_whisted(2), PulkaEnded("closed")])
    assert res.codes() == ["pulka_not_finished"]
    res = audit([START, *not_whisted(2), PulkaEnded("stopped"), *not_whisted(0)])
    assert set(res.codes()) == {"event_after_end"}
    res = audit([PulkaStarted(("A", "B"), "sochi")])
    assert res.codes() == ["bad_table_size"]
    res = audit([PulkaStarted(("A", "B", "C"), "nonsense")])
    assert res.codes() == ["bad_rules"]
    res = audit([START, *not_whisted(2), ScoreRecorded(0, 2, 0, (0, 0))])
    assert res.codes() == ["bad_score_line"]


def test_rebase_after_broken_deal() -> None:
    """After a deal the audit could not score, the next written line is the new baseline; later deltas are checked."""
    broken = not_whisted(2)
    broken[4] = Discarded(0, parse_cards("Ah 7h"))  # seat 0 does not hold A♥
    log = [START, *broken, ScoreRecorded(0, 2, 0, (0, 0, 0)), *not_whisted(0),
           ScoreRecorded(1, 2, 0, (0, 0, 0)), ScoreRecorded(0, 2, 0, (0, 0, 0))]
    res = audit(log)
    assert res.codes() == ["discard_not_held"]


def test_replay_yields_state_per_event() -> None:
    log = [START, *not_whisted(2)]
    steps = list(replay(log))
    assert len(steps) == len(log) and steps[-1].deal is not None and steps[-1].deal.done
    st = state_at(log, 3)
    assert st.deal is not None and st.deal.phase_name == "auction"
