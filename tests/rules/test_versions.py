"""PulkaStarted pins its rules: spec + rules_version resolve with that version's frozen tables."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from preflog.engine.replay import audit
from preflog.engine.replay import audit_rows
from preflog.engine.replay import rows_of
from preflog.model.events import LEGACY_RULES_VERSION
from preflog.model.events import RULES_VERSION
from preflog.model.events import PulkaStarted
from preflog.model.events import from_row
from preflog.record.api import read_file
from preflog.rules import NAMED_OVERRIDES
from preflog.rules import PRESETS
from preflog.rules import SOCHI
from preflog.rules import GameFamily
from preflog.rules import RulesError
from preflog.rules import option_family
from preflog.rules import resolve
from preflog.rules import rules_of
from preflog.rules import versions
from preflog.rules.versions import current_tables
from preflog.rules.versions import presets_at
from preflog.rules.versions import resolve_at
from preflog.rules.versions import tables_at
from preflog.store.chain import content_hash

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
LEGACY_PAYLOAD = ('{"meta":[],"overrides":[["raspasy_cap",4]],"players":["Anna","Boris","Vera"],"pool":20,'
                  '"rules":"sochi+geometric-raspasy","whist_price":"1"}')


def test_current_tables_are_the_stored_tables_of_this_version() -> None:
    """A preset, named override or Rules default changed without a new rules version would silently
    change how stored pulkas replay: bump RULES_VERSION (preflog/model/events.py) and write the new
    tables with `python -m preflog.rules.versions`."""
    assert presets_at(RULES_VERSION) == PRESETS
    stored = tables_at(RULES_VERSION)
    assert stored["named_overrides"] == current_tables()["named_overrides"]
    for spec in ("sochi", "croatian", "serbian",
                 *(f"{_preset_for(n)}+{n}" for n in NAMED_OVERRIDES)):
        assert resolve_at(RULES_VERSION, spec) == resolve(spec)


def _preset_for(override: str) -> str:
    """A preset the named override applies to: sochi, or serbian for an override of the Croatian family."""
    croatian = any(option_family(k) == GameFamily.CROATIAN for k in NAMED_OVERRIDES[override])
    return "serbian" if croatian else "sochi"


def test_legacy_payload_reads_as_version_1_and_writes_back_byte_identical() -> None:
    """A PulkaStarted row stored before versions existed has no rules_version: it reads as version 1,
    and a version-1 event writes exactly that payload (so content hashes of old imports still match)."""
    ev = from_row(1, -1, -1, 0, LEGACY_PAYLOAD)
    assert isinstance(ev, PulkaStarted) and ev.rules_version == LEGACY_RULES_VERSION == 1
    assert ev.to_row() == (1, -1, -1, 0, LEGACY_PAYLOAD)
    fresh = PulkaStarted(("Anna", "Boris", "Vera"), "sochi+geometric-raspasy", (("raspasy_cap", 4),), 20)
    assert fresh.rules_version == RULES_VERSION and fresh.to_row()[4] == LEGACY_PAYLOAD
    assert content_hash([fresh]) == content_hash([(1, -1, -1, 0, LEGACY_PAYLOAD)])


def test_a_later_version_is_named_in_the_payload() -> None:
    ev = PulkaStarted(("A", "B", "C"), "sochi", rules_version=2)
    payload = ev.to_row()[4]
    assert payload is not None and '"rules_version":2' in payload
    assert from_row(*ev.to_row()) == ev


def test_rules_of_resolves_spec_and_overrides() -> None:
    ev = from_row(1, -1, -1, 0, LEGACY_PAYLOAD)
    assert isinstance(ev, PulkaStarted)
    r = rules_of(ev)
    assert (r.name, r.raspasy_progression, r.raspasy_cap) == ("sochi", "geometric", 4)
    with pytest.raises(RulesError, match="rules version 99 is unknown"):
        rules_of(PulkaStarted(("A", "B", "C"), "sochi", rules_version=99))


def test_a_preset_change_leaves_recorded_pulkas_replaying_as_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """The golden Sochi pulka's hand-computed Score lines hold under its recorded rules. Change Sochi's
    whist_mult to 2 in the live preset table: a new resolve sees it, but the stored log (rows of
    version 1, as in an old Delta table) and the events read from the file still replay with the
    recorded values — no score mismatch, the same sheet and settlement."""
    events = read_file(GOLDEN / "sochi.pref")
    before = audit(events)
    assert before.ok and before.rules is not None and before.rules.whist_mult == 1
    monkeypatch.setitem(PRESETS, "sochi", SOCHI.replace(whist_mult=2))
    assert resolve("sochi").whist_mult == 2  # the change is live for new pulkas
    for after in (audit(events), audit_rows(rows_of(events))):
        assert after.ok, after.codes()
        assert after.rules == before.rules and after.rules is not None and after.rules.whist_mult == 1
        assert after.settlement == before.settlement
        assert after.sheet is not None and before.sheet is not None
        assert (after.sheet.pulya, after.sheet.gora, after.sheet.visty) == (
            before.sheet.pulya, before.sheet.gora, before.sheet.visty)


def test_a_new_version_replays_with_its_own_tables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Version 2 tables with Sochi's whist_mult 2 (as `python -m preflog.rules.versions 2` would write
    after the change): a pulka recorded under version 2 gets 2, one recorded under version 1 keeps 1,
    and the golden log stamped as version 2 then disagrees with its hand-written Score lines."""
    (tmp_path / "v1.json").write_text((versions.TABLES_DIR / "v1.json").read_text(encoding="utf-8"),
                                      encoding="utf-8")
    monkeypatch.setattr(versions, "TABLES_DIR", tmp_path)
    for cache in (versions.tables_at, versions.presets_at, versions._resolve_cached):
        cache.cache_clear()
    monkeypatch.setitem(PRESETS, "sochi", SOCHI.replace(whist_mult=2))
    try:
        versions.write_tables(2)
        assert resolve_at(2, "sochi").whist_mult == 2 and resolve_at(1, "sochi").whist_mult == 1
        events = read_file(GOLDEN / "sochi.pref")
        first = events[0]
        assert isinstance(first, PulkaStarted)
        v2 = [replace(first, rules_version=2), *events[1:]]
        res = audit(v2)
        assert res.rules is not None and res.rules.whist_mult == 2
        assert "score_mismatch" in res.codes()
    finally:
        for cache in (versions.tables_at, versions.presets_at, versions._resolve_cached):
            cache.cache_clear()
