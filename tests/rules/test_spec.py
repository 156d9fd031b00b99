"""The rules spec as a value (:class:`preflog.rules.spec.RulesSpec`): parsed once, case-folded, written back
by ``str()``; and what reads a spec goes through it (the sheet's words, the start form, the projections)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from preflog.application.start import started_rules
from preflog.engine.replay import audit
from preflog.model.events import PulkaStarted
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


# --- one parser, three readers: RulesSpec, the presets' resolve, a record's [Rules] tag ----------------------
THREE_WAYS = ["sochi", "Sochi+Gentleman", "sochi + geometric-raspasy + raspasy_cap = 4", "leningrad+played-game-exit",
              "moscow", "", "+sochi", "raspasy_cap=4", "geometric-raspasy", "sochi++gentleman", "sochi+nosuch",
              "sochi+raspasy_cap=many", "sochi+start=50"]


def _three_ways(text: str) -> list[Any]:
    """What each reader of a spec makes of ``text``: the rules, or the error's message."""
    from preflog.record import RecordError
    from preflog.record import read_text
    from preflog.rules import resolve
    from tests.record.test_errors import GOOD

    out: list[Any] = []
    for read in (lambda: RulesSpec.parse(text).rules(), lambda: resolve(text)):
        try:
            out.append(read())
        except RulesError as exc:
            out.append(str(exc))
    try:
        [started] = [e for e in read_text(GOOD.replace("]\n", f']\n[Rules "{text}"]\n', 1))
                     if isinstance(e, PulkaStarted)]
        out.append(resolve(started.rules, dict(started.overrides)))   # what the stored event says
    except RecordError as exc:
        out.append(str(exc))
    return out


@pytest.mark.parametrize("text", THREE_WAYS)
def test_a_spec_reads_the_same_three_ways(text: str) -> None:
    """The record reader, :func:`preflog.rules.resolve` and :class:`RulesSpec` all read a spec with
    :meth:`RulesSpec.parse`: the same rules, or the same words of the same error (the record's error adds
    where, the spec's names the spec)."""
    spec, resolved, record = _three_ways(text)
    if not isinstance(resolved, str):
        assert spec == resolved == record
        return
    assert isinstance(spec, str) and isinstance(record, str), (spec, resolved, record)
    words = re.sub(r"^rules spec '[^']*': ", "", resolved).split(" (preset ")[0][:60]
    assert words in spec and words in record, (words, spec, record)
