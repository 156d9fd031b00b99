"""The issue-10 house-rule options (raspasy, ten check, gora first, end of pulka) were added without a new
rules version: tables written before them resolve to exactly today's rules, every Russian preset keeps
the old behaviour by default, and the options are typed, Russian-only and accepted as text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflog.engine.replay import audit
from preflog.record.api import read_file
from preflog.rules import NAMED_OVERRIDES
from preflog.rules import PRESETS
from preflog.rules import GameFamily
from preflog.rules import RulesError
from preflog.rules import option_family
from preflog.rules import resolve
from preflog.rules import versions
from preflog.rules.versions import presets_at
from preflog.rules.versions import resolve_at

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
HOUSE_OPTIONS = {"raspasy_amnesty": "none", "raspasy_prices": [], "raspasy_exit_level": 6,
                 "raspasy_exit_miser": True, "ten_check_visty": True, "gora_first": False,
                 "pulka_end": "every_pulya"}
HOUSE_OVERRIDES = ("raspasy-amnesty", "raspasy-amnesty-with-dealer", "no-raspasy-premium", "raspasy-2-4-6",
                   "raspasy-2-4-8", "rostov-min-visty", "played-game-exit", "whisted-game-exit",
                   "miser-keeps-raspasy", "ten-check-no-visty", "mountain-first", "total-pool-end",
                   "amnesty-flat-premium", "rostov-house")


def _clear() -> None:
    for cache in (versions.tables_at, versions.presets_at, versions._resolve_cached):
        cache.cache_clear()


def test_tables_from_before_the_options_resolve_as_today(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Version-1 tables as they were before the options (no such defaults, no such named overrides):
    the presets and every older spec resolve to the same Rules as today, and the golden pulkas replay
    to the same sheets and settlements."""
    tables = json.loads((versions.TABLES_DIR / "v1.json").read_text(encoding="utf-8"))
    assert {k: tables["defaults"][k] for k in HOUSE_OPTIONS} == HOUSE_OPTIONS
    for k in HOUSE_OPTIONS:
        del tables["defaults"][k]
    for name in HOUSE_OVERRIDES:
        del tables["named_overrides"][name]
    before = {p: audit(read_file(p)) for p in sorted(GOLDEN.glob("*.pref"))}
    (tmp_path / "v1.json").write_text(json.dumps(tables), encoding="utf-8")
    monkeypatch.setattr(versions, "TABLES_DIR", tmp_path)
    _clear()
    try:
        assert presets_at(1) == PRESETS
        for name in NAMED_OVERRIDES:   # (the Croatian family's overrides do not apply to sochi)
            if name not in HOUSE_OVERRIDES and all(option_family(k) is None or option_family(k) == GameFamily.RUSSIAN
                                                   for k in NAMED_OVERRIDES[name]):
                assert resolve_at(1, f"sochi+{name}") == resolve(f"sochi+{name}")
        for path, old in before.items():
            new = audit(read_file(path))
            assert new.ok and new.settlement == old.settlement and new.sheet == old.sheet
    finally:
        _clear()


def test_defaults_keep_the_presets_behaviour() -> None:
    """Every Russian preset has the old behaviour for each new option."""
    for name in ("sochi", "leningrad", "rostov"):
        r = PRESETS[name]
        assert {k: r.to_dict()[k] for k in HOUSE_OPTIONS} == HOUSE_OPTIONS


def test_options_are_typed_and_russian_only() -> None:
    """Ill-typed values and the options on Croatian rules are a RulesError naming the option; text
    values (as in a record's Option tag) are read."""
    with pytest.raises(RulesError, match="raspasy_exit_level"):
        resolve("sochi", {"raspasy_exit_level": 5})
    with pytest.raises(RulesError, match="pulka_end"):
        resolve("sochi", {"pulka_end": "sometimes"})
    with pytest.raises(RulesError, match="gora_first"):
        resolve("sochi", {"gora_first": 1.0})
    with pytest.raises(RulesError, match="russian family only"):
        resolve("croatian", {"gora_first": True})
    r = resolve("sochi", {"raspasy_prices": "[2, 4, 6]", "ten_check_visty": "false", "raspasy_exit_level": "8"})
    assert (r.raspasy_prices, r.ten_check_visty, r.raspasy_exit_level) == ((2, 4, 6), False, 8)


def test_issue25_options_are_closed_sets_russian_only_and_off_by_default() -> None:
    """raspasy_exit=played_game and dealer_whist_consolation (issue 25): enum values, read from text as a
    record's Option tag writes them, refused on Croatian rules, and every preset keeps the old behaviour
    (each exit as before; the passers write their own consolation)."""
    from preflog.rules.choices import DealerWhistConsolation
    from preflog.rules.choices import RaspasyExit

    r = resolve("sochi", {"raspasy_exit": "played_game", "dealer_whist_consolation": "dealer"})
    assert r.raspasy_exit is RaspasyExit.PLAYED_GAME and r.dealer_whist_consolation is DealerWhistConsolation.DEALER
    assert resolve("sochi+any-played-exit+dealer-consolation") == r
    with pytest.raises(RulesError, match="dealer_whist_consolation"):
        resolve("sochi", {"dealer_whist_consolation": "declarer"})
    with pytest.raises(RulesError, match="russian family only"):
        resolve("croatian", {"dealer_whist_consolation": "dealer"})
    assert {(n, p.raspasy_exit, p.dealer_whist_consolation) for n, p in PRESETS.items() if p.family == "russian"} == {
        ("sochi", "any_game", "passers"), ("leningrad", "made_game", "passers"), ("rostov", "any_game", "passers")}
