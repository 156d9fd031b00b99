"""Per-family settings (preflog/rules/settings.py): every option a family reads reaches its settings object,
as an int or a bool where the option is a word, and the compiled kernel reads options only through them."""

from __future__ import annotations

import copy
import pickle
import re
from dataclasses import fields
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import preflog
from preflog import _native
from preflog.rules import CROATIAN
from preflog.rules import SOCHI
from preflog.rules import GameFamily
from preflog.rules import Rules
from preflog.rules import RulesError
from preflog.rules.choices import RaspasyMode
from preflog.rules.choices import ShortfallSplit
from preflog.rules.settings import CODES
from preflog.rules.settings import NOT_IN_SETTINGS
from preflog.rules.settings import RASPASY_VISTY_ABOVE_MIN
from preflog.rules.settings import SPLIT_PERSONAL_ALWAYS
from preflog.rules.settings import TableSettings
from preflog.rules.settings import croatian_settings
from preflog.rules.settings import russian_settings

FAMILIES = {GameFamily.RUSSIAN: (SOCHI, russian_settings), GameFamily.CROATIAN: (CROATIAN, croatian_settings)}

# a value of each table option other than its default, for the mutations below
OTHER_TABLES: dict[str, Any] = {
    "hold_forbidden_on": ("6s",),
    "min_bid_after_raspasy": ((2, 7),),
    "whist_obligation": ((6, 4), (7, 3), (8, 1), (9, 1), (10, 1), (2, 4), (3, 4), (4, 4), (5, 4), (6, 4)),
    "half_whist_levels": (6,),
    "half_whist_tricks": ((6, 2), (7, Fraction(3, 2))),
    "game_values": ((6, 2), (7, 4), (8, 6), (9, 8), (10, 12)),
    "raspasy_prices": (2, 4, 8),
    "refe_max": ((30, 2), (50, 3)),
}


def _others(rules: Rules, name: str) -> list[Any]:
    """Values of option ``name`` other than the one ``rules`` has (every other word of a closed set)."""
    f = next(f for f in fields(Rules) if f.name == name)
    value = getattr(rules, name)
    choices = f.metadata.get("choices")
    if name in OTHER_TABLES:
        other = OTHER_TABLES[name]
        if name == "whist_obligation" and rules.family == GameFamily.CROATIAN:
            other = tuple((k, v + 1 if k == 4 else v) for k, v in value)
        return [other]
    if isinstance(value, Enum):
        return [m for m in type(value) if m is not value]
    if isinstance(value, bool):
        return [not value]
    if choices:
        return [c for c in choices if c != value]
    if value is None:
        return [7]
    if isinstance(value, int | Fraction):
        return [value + 1]
    raise AssertionError(f"no other value for option {name} = {value!r}")


def _read_by(family: GameFamily) -> list[str]:
    return [f.name for f in fields(Rules) if f.metadata["family"] in (None, family) and f.name not in NOT_IN_SETTINGS]


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_option_the_family_reads_reaches_its_settings(family: GameFamily) -> None:
    """Change each option of the family (each other word of a closed set): the settings change with it."""
    base, build = FAMILIES[family]
    before = build(base).values()
    checked = 0
    for name in _read_by(family):
        for other in _others(base, name):
            try:
                changed = base.replace(**{name: other})
            except RulesError as exc:  # pragma: no cover - the mutation table above is wrong
                raise AssertionError(f"{name}={other!r}: {exc}") from None
            after = build(changed).values()
            assert after != before, f"{family}: option {name}={other!r} does not reach the settings"
            checked += 1
    assert checked >= (60 if family == GameFamily.RUSSIAN else 25)


def test_words_become_ints_and_bools() -> None:
    """A closed set of two words is a bool, of more an int; no setting holds an option's word."""
    for family, (base, build) in FAMILIES.items():
        for name, value in build(base).values().items():
            assert not isinstance(value, Enum | str), f"{family} setting {name} holds a word: {value!r}"
    s = russian_settings(SOCHI.replace(raspasy_mode=RaspasyMode.VISTY_ABOVE_MIN,
                                       whist_shortfall_split=ShortfallSplit.PERSONAL_ALWAYS))
    assert s.raspasy_mode == RASPASY_VISTY_ABOVE_MIN and s.shortfall_split == SPLIT_PERSONAL_ALWAYS
    assert s.ten_checked is True and russian_settings(SOCHI.replace(ten_mode="whisted")).ten_checked is False


def test_the_ints_of_a_closed_set_are_its_members_in_order() -> None:
    for enum, codes in CODES.items():
        assert codes == tuple(range(len(enum.__members__))), enum


def test_settings_are_built_once_per_rules_object_and_copy_as_themselves() -> None:
    s = russian_settings(SOCHI)
    assert russian_settings(SOCHI) is s and russian_settings(SOCHI.replace()) is not s
    assert copy.deepcopy(s) is s and copy.copy(s) is s
    back = pickle.loads(pickle.dumps(s))
    assert type(back) is type(s) and back.values() == s.values() and back.rules == SOCHI


def test_forbidden_holds_are_the_family_call_codes() -> None:
    """'miser' is the Russian miser and the Croatian Bettel (6); a name the Croatian family has not is left out."""
    from preflog.model.bidcodes import HR_BETTEL
    from preflog.model.bidcodes import MISER
    assert russian_settings(SOCHI).forbidden_holds() == {MISER}
    assert russian_settings(SOCHI.replace(hold_forbidden_on=("Miser", "6s"))).forbidden_holds() == {MISER, 61}
    assert croatian_settings(CROATIAN.replace(hold_forbidden_on=("miser", "3", "9", "6s"))).forbidden_holds() \
        == {HR_BETTEL, 3, 2}


_OPTION_READ = re.compile(r"\brules\.([a-z_0-9]+)\b")


def test_the_compiled_kernel_reads_options_only_through_settings() -> None:
    """No module of the compiled kernel reads an option off ``Rules`` (``rules.raspasy_mode``) but those the
    settings leave out. The settings module is where they are read, and the settlement takes the rules
    at its edge (``settle(..., rules)``, once per settlement, called by reports as well)."""
    options = {f.name for f in fields(Rules)}
    root = Path(preflog.__file__).parent
    found = []
    for module in _native.MODULES:
        if module in ("preflog.rules.settings", "preflog.scoring.settlement"):
            continue
        path = root.joinpath(*module.split(".")[1:]).with_suffix(".py")
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#")[0]
            for name in _OPTION_READ.findall(code):
                if name in options and name not in NOT_IN_SETTINGS and "``" not in code:
                    found.append(f"{path.relative_to(root)}:{no}: rules.{name}")
    assert not found, "\n".join(found)


def test_each_family_names_its_settings_and_its_deal_and_scorer_read_them() -> None:
    """The family object names the builder; the deal, its auction and the scorer of a pulka share the one
    settings object of its rules."""
    from preflog.engine.families import family_of
    for rules, build in FAMILIES.values():
        family = family_of(rules)
        s = family.settings(rules)
        assert s is build(rules) and isinstance(s, TableSettings)
        deal = family.open_deal(rules, 3, 0, None, None)
        assert deal.settings is s and deal.auction._hold is s   # type: ignore[attr-defined]
        assert family.scorer(rules, 3, 10).settings is s        # type: ignore[attr-defined]
