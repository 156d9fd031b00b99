"""The rules spec as a value (:class:`preflog.rules.spec.RulesSpec`): parsed once, case-folded, written back
by ``str()``; and what reads a spec goes through it (the sheet's words, the start form, the projections)."""

from __future__ import annotations

from pathlib import Path

import pytest

from preflog.application.start import started_rules
from preflog.engine.replay import audit
from preflog.projections.facts import resolve_spec
from preflog.record.api import read_records
from preflog.render.sheet_svg import render_svg
from preflog.rules import PRESETS
from preflog.rules import RulesError
from preflog.rules.spec import RulesSpec
from preflog.views.json import sheet_json
from preflog.workspace import Audited
from preflog.workspace import Loaded

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo" / "croatian-3p.pref"


@pytest.mark.parametrize("text", ["slovenian", "Slovenian", "SLOVENIAN", " Slovenian "])
def test_a_preset_in_any_case_is_one_preset(text: str) -> None:
    spec = RulesSpec.parse(text)
    assert spec == RulesSpec("slovenian") and str(spec) == "slovenian"
    assert spec.rules() == PRESETS["slovenian"]


@pytest.mark.parametrize(("text", "canonical"), [
    ("sochi", "sochi"),
    ("Sochi+Geometric-Raspasy", "sochi+geometric-raspasy"),
    ("sochi + gentleman + raspasy_cap = 4", "sochi+gentleman+raspasy_cap=4"),
    ("SOCHI+RASPASY_CAP=4+gentleman", "sochi+gentleman+raspasy_cap=4"),  # options after the named ones
    ("croatian+start=50", "croatian+start=50"),
])
def test_str_writes_the_canonical_spec_which_parses_back(text: str, canonical: str) -> None:
    spec = RulesSpec.parse(text)
    assert str(spec) == canonical
    assert RulesSpec.parse(str(spec)) == spec
    assert spec.rules() == RulesSpec.parse(canonical).rules() == resolve_spec(text)


def test_the_parts() -> None:
    spec = RulesSpec.parse("sochi+gentleman+raspasy_cap=4")
    assert (spec.preset, spec.named, spec.options) == ("sochi", ("gentleman",), (("raspasy_cap", "4"),))
    assert spec.base == "sochi+gentleman"
    assert spec.rules().raspasy_cap == 4 and spec.rules().name == "sochi"
    assert RulesSpec.preset_of("Slovenian+raspasy_cap=4") == "slovenian" and RulesSpec.preset_of(None) == ""


@pytest.mark.parametrize(("text", "said"), [
    ("", "a spec starts with a preset, e.g. sochi"),
    ("raspasy_cap=4", "a spec starts with a preset, e.g. sochi+raspasy_cap=4"),
    ("sochi++gentleman", "an empty part between two '+'"),
    ("geometric-raspasy", "a spec starts with a preset, e.g. sochi+geometric-raspasy"),
    ("moscow", "unknown rules preset 'moscow'"),
    ("sochi+raspasy_cap=many", "raspasy_cap"),
])
def test_a_bad_spec_is_one_rules_error_naming_it(text: str, said: str) -> None:
    with pytest.raises(RulesError) as info:
        RulesSpec.parse(text).rules()
    assert said in str(info.value) and "\n" not in str(info.value)


def test_the_start_form_reads_the_spec_case_folded() -> None:
    rules, named, overrides = started_rules("Sochi+Gentleman+raspasy_cap=4")
    assert (named, overrides) == ("sochi+gentleman", (("raspasy_cap", 4),))
    assert rules == resolve_spec("sochi+gentleman+raspasy_cap=4")


def _slovenian_sheet(spelling: str) -> str:
    """The drawn sheet of the demo's second pulka (a Slovenian one) with its [Rules] tag spelled so."""
    text = DEMO.read_text(encoding="utf-8").replace('[Rules "slovenian"]', f'[Rules "{spelling}"]')
    record = read_records(text)[1]
    assert record.id == "demo-croatian-3p-002"
    result = audit(list(record.events))
    assert result.findings == []
    return render_svg(sheet_json(Audited(Loaded(record.id, list(record.events), str(DEMO)), result)))


def test_slovenian_in_any_case_draws_the_slovenian_sheet() -> None:
    """``[Rules "Slovenian"]`` drew the Croatian words (0 "radlc", 13 "refe") while ``slovenian`` drew 7
    "radlc": a preset is one preset whatever its case, so all three draw the same Slovenian sheet (its foot
    line quotes the record's spelling)."""
    sheets = {s: _slovenian_sheet(s).replace(f">{s} · ", ">slovenian · ") for s in ("slovenian", "Slovenian",
                                                                                     "SLOVENIAN")}
    assert sheets["slovenian"].count("radlc") == 7
    assert sheets["Slovenian"] == sheets["SLOVENIAN"] == sheets["slovenian"]
