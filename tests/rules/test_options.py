"""Rules options: the family as a value, options tagged by family, closed sets as StrEnums, typed values."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from preflog.record.api import read_text
from preflog.record.errors import RecordError
from preflog.rules import CROATIAN
from preflog.rules import PRESETS
from preflog.rules import SLOVENIAN
from preflog.rules import SOCHI
from preflog.rules import GameFamily
from preflog.rules import Rules
from preflog.rules import RulesError
from preflog.rules import option_family
from preflog.rules import resolve
from preflog.rules.choices import RaspasyProgression
from preflog.rules.choices import TenMode


def test_family_is_an_enum_that_compares_as_its_word() -> None:
    """Every preset's family is a GameFamily; it still equals, prints and serialises as the word."""
    assert SOCHI.family is GameFamily.RUSSIAN and CROATIAN.family is GameFamily.CROATIAN
    assert SLOVENIAN.family == "croatian" and f"{SOCHI.family}" == "russian"
    assert json.dumps(CROATIAN.to_dict())  # plain JSON
    assert CROATIAN.to_dict()["family"] == "croatian" and type(CROATIAN.to_dict()["family"]) is str


def test_closed_sets_are_enums_built_from_words() -> None:
    """Words given to replace/resolve become enum members; the words keep comparing equal."""
    r = resolve("sochi+geometric-raspasy")
    assert r.raspasy_progression is RaspasyProgression.GEOMETRIC and r.raspasy_progression == "geometric"
    assert SOCHI.ten_mode is TenMode.CHECKED
    assert Rules(ten_mode="checked").ten_mode is TenMode.CHECKED  # also when built directly
    assert resolve("sochi", {"hold_who": "first_hand"}).hold_who == "first_hand"


def test_every_option_is_tagged_with_a_family() -> None:
    """Each field says its family (None = both); spot checks of each kind."""
    for f in fields(Rules):
        assert "family" in f.metadata
    assert option_family("must_trump") is None and option_family("whist_obligation") is None
    assert option_family("raspasy_cap") is GameFamily.RUSSIAN and option_family("ten_mode") is GameFamily.RUSSIAN
    assert option_family("start") is GameFamily.CROATIAN and option_family("sanac_lead") is GameFamily.CROATIAN
    with pytest.raises(RulesError, match="unknown rules option 'nope'"):
        option_family("nope")


@pytest.mark.parametrize("spec, overrides, message", [
    ("croatian", {"raspasy_cap": 5}, "option 'raspasy_cap' applies to the russian family only, not to croatian"),
    ("slovenian", {"ten_mode": "checked"}, "option 'ten_mode' applies to the russian family only"),
    ("sochi", {"start": 50}, "option 'start' applies to the croatian family only, not to russian"),
    ("leningrad", {"contra_enabled": False}, "option 'contra_enabled' applies to the croatian family only"),
    ("croatian+geometric-raspasy", None, "named override 'geometric-raspasy' sets 'raspasy_progression', an "
     "option of the russian family only; preset 'croatian' is croatian"),
    ("sochi+start-50", None, "named override 'start-50' sets 'start', an option of the croatian family only"),
])
def test_an_option_of_the_other_family_is_refused(spec: str, overrides: dict[str, object] | None,
                                                  message: str) -> None:
    with pytest.raises(RulesError, match=message):
        resolve(spec, overrides)


def test_shared_and_own_family_options_resolve() -> None:
    """Shared options go anywhere; a family's own options on its presets; changing the family itself
    checks the options against the new family."""
    assert resolve("croatian", {"must_trump": False, "start": 50}).start == 50
    assert resolve("croatian+start-50").start == 50
    assert resolve("rostov", {"raspasy_cap": 5, "must_trump": False}).raspasy_cap == 5
    assert SOCHI.replace(family="croatian", start=50).family is GameFamily.CROATIAN
    with pytest.raises(RulesError, match="'raspasy_cap' applies to the russian family only"):
        SOCHI.replace(family="croatian", raspasy_cap=4)


@pytest.mark.parametrize("option, value, message", [
    ("raspasy_cap", 4.0, "option 'raspasy_cap' takes a whole number, not 4.0"),
    ("raspasy_cap", [4], "option 'raspasy_cap' takes a whole number, not \\[4\\]"),
    ("raspasy_cap", True, "option 'raspasy_cap' takes a whole number, not True"),
    ("raspasy_cap", "four", "option 'raspasy_cap' takes a whole number, not 'four'"),
    ("must_trump", 1, "option 'must_trump' takes true or false, not 1"),
    ("must_trump", "maybe", "option 'must_trump' takes true or false, not 'maybe'"),
    ("whist_obligation", [[6, 4.5]], "option 'whist_obligation' takes a list of"),
    ("whist_obligation", [[6, 4, 1]], "option 'whist_obligation' takes a list of"),
    ("half_whist_levels", 6, "option 'half_whist_levels' takes a list of"),
    ("hold_forbidden_on", [9], "option 'hold_forbidden_on' takes a list of"),
    ("ten_mode", "sometimes", "option 'ten_mode' is one of whisted, checked, not 'sometimes'"),
    ("ten_mode", 1, "option 'ten_mode' is one of whisted, checked, not 1"),
    ("miser_beaten_by_level", 8, "option 'miser_beaten_by_level' is one of 9, 10, not 8"),
    ("name", 5, "option 'name' takes text, not 5"),
])
def test_option_values_are_type_checked(option: str, value: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        SOCHI.replace(**{option: value})


def test_values_written_as_text_or_json_are_typed() -> None:
    """key=value text in records: numbers, booleans, lists (JSON or |-separated), pairs from a JSON object."""
    r = SOCHI.replace(raspasy_cap="5", must_trump="no", players="3|4", half_whist_levels="[6]",
                      whist_obligation='{"6": 4, "7": 2, "8": 1, "9": 1, "10": 1}')
    assert (r.raspasy_cap, r.must_trump, r.players, r.half_whist_levels) == (5, False, (3, 4), (6,))
    assert r.whist_obligation == SOCHI.whist_obligation
    with pytest.raises(RulesError, match="option 'players' takes a list of"):
        SOCHI.replace(players="3|four")


def test_a_rules_value_built_directly_is_checked_too() -> None:
    with pytest.raises(RulesError, match="option 'start' takes a whole number, not 30.5"):
        Rules(start=30.5)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="option 'family' is one of russian, croatian, not 'german'"):
        Rules(family="german")  # type: ignore[arg-type]


def test_presets_are_consistent() -> None:
    """Every preset is a typed Rules value; the removed dead options are gone."""
    names = {f.name for f in fields(Rules)}
    assert not names & {"deal_pattern", "talon_shown"}
    for r in PRESETS.values():
        assert r == Rules(**{f.name: getattr(r, f.name) for f in fields(Rules)})


def test_a_record_with_an_option_of_the_other_family_is_refused() -> None:
    """The [Option] tag of a Croatian record naming a Russian-only option is a RecordError at the tag."""
    head = '[Players "Anna, Boris, Vera"]\n[Rules "croatian"]\n'
    assert read_text(head + '[Option "start=50"]\n')[0].overrides == (("start", 50),)
    with pytest.raises(RecordError, match="raspasy_cap=4.*applies to the russian family only"):
        read_text(head + '[Option "raspasy_cap=4"]\n')
