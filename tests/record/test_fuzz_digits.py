"""Odd digits never escape the reader as anything but a located RecordError (issue 13, item 4).

``'²'.isdigit()`` is true but ``int('²')`` fails; ``int()`` refuses more than 4,300 digits. Both once
gave unlocated ValueErrors from the text and the JSON reader."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.record import RecordError
from preflog.record import read_json
from preflog.record import read_records
from preflog.record import read_text
from preflog.record import write_json

from .conftest import doc_blocks

SEEDS = doc_blocks("pref")
LONG = "9" * 5000
# characters that look like digits to one check and not to another, long numbers, and record punctuation
ALPHABET = ["²", "³", "٣", "½", "Ⅻ", "①", "𝟘", LONG, "0", "7", "10", " ", ",", "=", ":", '"', "[", "]", "\n"]


def _read(reader: str, text: str) -> None:
    if reader == "text":
        read_records(text, "fuzz.pref")
    else:
        read_json(text, "fuzz.json")


def _located(err: RecordError, reader: str) -> bool:
    source = "fuzz.pref" if reader == "text" else "fuzz.json"
    return re.match(rf"{re.escape(source)}(:\d+:\d+|: \$)", str(err)) is not None


@pytest.mark.parametrize("reader", ["text", "json"])
@pytest.mark.parametrize("old, new", [
    ("A 6s,", "A ²s,"),  # a Russian bid whose digit int() cannot read
    ("B 6c,", f"B {LONG}c,"),
    ('[Pool "50"]', f'[Pool "{LONG}"]'),
])
def test_odd_digits_are_located_record_errors(reader: str, old: str, new: str) -> None:
    text = SEEDS[0]
    assert old in text
    if reader == "json":
        text = write_json(read_text(text))
        old, new = (s.strip("[]").replace('"', "").replace("Pool ", '"pool": ') for s in (old, new))
    with pytest.raises(RecordError) as caught:
        _read(reader, text.replace(old, new, 1) if old in text else _replace_json_bid(text, old, new))
    assert _located(caught.value, reader), str(caught.value)


def _replace_json_bid(text: str, old: str, new: str) -> str:
    """The JSON form writes an auction item ``A 6s`` as ``["A", "6s"]``."""
    (who, bid), (_, new_bid) = old.rstrip(",").split(), new.rstrip(",").split()
    item = f'["{who}", "{bid}"]'
    assert item in text, item
    return text.replace(item, f'["{who}", "{new_bid}"]', 1)


def test_a_json_integer_too_long_for_int_is_located() -> None:
    text = write_json(read_text(SEEDS[0]))
    at = text.index('"pool": ') + len('"pool": ')
    with pytest.raises(RecordError) as caught:
        read_json(text[:at] + LONG + text[at:].lstrip("0123456789"), "fuzz.json")
    line = text.count("\n", 0, at) + 1
    assert str(caught.value).startswith(f"fuzz.json:{line}:"), str(caught.value)


def _mutated(data: st.DataObject, text: str) -> str:
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        digits = [k for k, ch in enumerate(text) if ch.isdigit()]
        if digits and data.draw(st.booleans(), label="at a digit"):  # where numbers are read
            i = data.draw(st.sampled_from(digits), label="digit")
        else:
            i = data.draw(st.integers(0, len(text)), label="at")
        piece = data.draw(st.sampled_from(ALPHABET), label="piece")
        if data.draw(st.booleans(), label="replace"):
            text = text[:i] + piece + text[i + 1:]
        else:
            text = text[:i] + piece + text[i:]
    return text


@settings(max_examples=150, deadline=None)
@given(data=st.data(), which=st.integers(0, len(SEEDS) - 1), reader=st.sampled_from(["text", "json"]))
def test_character_mutations_give_records_or_record_errors(data: st.DataObject, which: int, reader: str) -> None:
    base = SEEDS[which] if reader == "text" else write_json(read_text(SEEDS[which]))
    text = _mutated(data, base)
    start = time.perf_counter()
    try:
        _read(reader, text)
    except RecordError as err:
        assert _located(err, reader), str(err)
    assert time.perf_counter() - start < 5.0
