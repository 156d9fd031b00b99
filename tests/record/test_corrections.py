"""A corrected pulka in both record formats: ``Corrects: deal N`` / ``Strikes: deal N`` after a deal header
(a DealCorrected event); it exports and imports again to the same events."""

from __future__ import annotations

import pytest

from preflog.engine.replay import audit
from preflog.model.events import DealCorrected
from preflog.record.api import read_json
from preflog.record.api import read_text
from preflog.record.api import write_json
from preflog.record.api import write_text
from preflog.record.errors import RecordError

TEXT = """[Players "A, B, C"]
[Rules "sochi"]
[Pool "10"]
[WhistPrice "1"]

Deal 1: dealer C
Tricks: A 4, B 3, C 3

Deal 2: dealer A
Contract: B 6s
Whist: C whist, A pass
Tricks: A 2, B 6, C 2

Deal 3: dealer C
Corrects: deal 1 at 2024-05-17T20:15:00Z
Tricks: A 3, B 4, C 3

Deal 4: dealer B
Tricks: A 3, B 3, C 4

Deal 5: dealer B
Strikes: deal 3
"""


def test_text_and_json_hold_corrections_and_read_back_to_the_same_events() -> None:
    events = read_text(TEXT, "corrected.pref")
    corrections = [e for e in events if isinstance(e, DealCorrected)]
    assert corrections == [DealCorrected(1, False, "2024-05-17T20:15:00Z"), DealCorrected(3, True)]
    assert write_text(events) == TEXT
    assert read_json(write_json(events), "corrected.json") == events
    result = audit(events)
    assert result.ok, result.findings
    assert len(result.deals) == 2   # deal 1 replaced, deal 4 struck out: the sheet has two deals


@pytest.mark.parametrize("line", ["Corrects: deal x", "Corrects: 1", "Strikes: deal 2 at noon"])
def test_a_correction_line_that_does_not_read_names_its_line(line: str) -> None:
    text = TEXT.replace("Strikes: deal 3", line)
    with pytest.raises(RecordError) as err:
        read_text(text, "bad.pref")
    assert str(err.value).startswith("bad.pref:22:")   # the Strikes line, replaced
    assert "correction" in str(err.value)
