"""The record syntax table (preflog.record.syntax.STEPS) and the event registry agree: every event a deal's
record line carries has its step kind there, each step kind spells a registry entry, and the text and JSON
forms find each kind by its keyword and key."""

from __future__ import annotations

from preflog.model.registry import BY_SYNTAX
from preflog.record.syntax import BY_JSON_KEY
from preflog.record.syntax import CANONICAL
from preflog.record.syntax import KEYWORDS
from preflog.record.syntax import STEPS
from preflog.record.syntax import Form


def test_every_step_kind_spells_a_registry_entry_and_every_step_entry_has_one() -> None:
    # the pulka's tags, the deal header and the End line are record structure, not step lines
    assert {s.syntax for s in STEPS.values()} == set(BY_SYNTAX) - {"pulka", "deal", "end"}


def test_each_kind_is_found_by_its_keyword_and_its_json_key() -> None:
    for kind, spec in STEPS.items():
        assert spec.kind == kind
        if spec.form == Form.ALL_PASS:      # written under the auction's keyword and key, read by its words
            assert (spec.keyword, spec.json_key) == (STEPS["auction"].keyword, STEPS["auction"].json_key)
        elif spec.form == Form.TRICK:       # a numbered line: no keyword
            assert spec.keyword == "" and BY_JSON_KEY[spec.json_key] is spec
        else:
            assert KEYWORDS[spec.keyword.lower()] == kind and CANONICAL[kind] == spec.keyword
            assert BY_JSON_KEY[spec.json_key] is spec
    assert len(BY_JSON_KEY) == len(STEPS) - 1   # one key each, the all-pass shares the auction's
