"""JSON form: schema validity, round trips, equivalence with the text form."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema  # installed with nbformat; not a runtime dependency of preflog
import pytest

from preflog.record import read_json
from preflog.record import read_json_records
from preflog.record import read_text
from preflog.record import write_json
from preflog.record import write_json_obj
from preflog.record import write_text

from .conftest import doc_blocks

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "record.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_schema_is_valid_and_documented_json_conforms() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert not list(VALIDATOR.iter_errors(json.loads(doc_blocks("json")[0])))


def test_written_json_conforms_and_round_trips(sochi_text: str, croatian_text: str) -> None:
    for text in (sochi_text, croatian_text):
        ev = read_text(text)
        obj = write_json_obj(ev)
        assert not list(VALIDATOR.iter_errors(obj))
        assert read_json(write_json(ev)) == ev == read_json(obj)
        assert write_json(read_json(write_json(ev))) == write_json(ev)
        assert write_text(read_json(obj)) == write_text(ev)


def test_schema_rejects_wrong_shapes() -> None:
    """A step with two keys and a pulka without players break the schema (and the reader)."""
    bad_step = {"pulkas": [{"players": ["A", "B", "C"], "deals": [{"dealer": "A",
                                                                   "steps": [{"claim": {}, "check": {}}]}]}]}
    assert list(VALIDATOR.iter_errors(bad_step))
    assert list(VALIDATOR.iter_errors({"pulkas": [{"rules": "sochi"}]}))


def test_lenient_json_inputs(sochi_text: str) -> None:
    """A bare pulka object, card arrays, string counts and option values as strings are accepted."""
    obj = write_json_obj(read_text(sochi_text))["pulkas"][0]
    obj["deals"][0]["hands"]["A"] = obj["deals"][0]["hands"]["A"].split()
    obj["options"] = [["raspasy_cap", "4"]]
    obj["deals"][1]["steps"][-1] = {"tricks": ["2", 6, 2]}
    recs = read_json_records(obj)
    assert len(recs) == 1 and recs[0].events == tuple(read_text(sochi_text))


def test_schema_cards_are_exactly_the_cards_the_reader_reads() -> None:
    """The schema's card pattern accepts every spelling ``parse_card`` reads (each rank alias with each
    suit alias) and refuses impossible cards, so a hand of ``Zz`` fails the schema as it fails the reader."""
    import re

    from preflog.model import cards as C

    card = re.compile(SCHEMA["$defs"]["card"]["pattern"])
    many = re.compile(SCHEMA["$defs"]["cards"]["oneOf"][0]["pattern"])
    spellings = [r + s for r in C._RANK_ALIASES for s in C._SUIT_ALIASES]
    assert all(card.match(x) and C.parse_card(x) >= 0 for x in spellings)
    assert many.match(" ".join(spellings)) and many.match("-") and many.match("As, Kh")
    for bad in ("Zz", "1h", "11s", "Qx", "10", "h", "A s"):
        assert not card.match(bad), bad
        with pytest.raises(C.CardError):
            C.parse_card(bad)
    doc = json.loads(doc_blocks("json")[0])
    doc["pulkas"][0]["deals"][0]["hands"]["B"] = "Zz 8s"
    assert list(VALIDATOR.iter_errors(doc))
