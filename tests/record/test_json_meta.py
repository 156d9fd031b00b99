"""The JSON reader accepts only what the writers can write back: meta keys are tag names (lower-cased
as the text reader lower-cases tag names, each once, none that the text reader takes as a pulka
field), and names, tag values and end reasons hold no control character and no U+FEFF, which a text
record cannot keep. Whatever is accepted exports as text and JSON and reads back the same."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.model.events import PulkaStarted
from preflog.record import RecordError
from preflog.record import RecordWriteError
from preflog.record import read_json
from preflog.record import read_records
from preflog.record import read_text
from preflog.record import write_json
from preflog.record import write_text
from preflog.record.textfmt import _TAG_FIELDS
from preflog.record.validate import RESERVED_TAGS

PLAYERS = ["Anna", "Boris", "Vera"]


def doc(**fields: Any) -> dict[str, Any]:
    return {"players": list(PLAYERS), "rules": "sochi", "deals": [], **fields}


def round_trips(events: list[Any]) -> None:
    assert read_text(write_text(events)) == events
    assert read_json(write_json(events)) == events


def test_meta_keys_are_lower_cased_like_text_tag_names() -> None:
    events = read_json(doc(meta={"Date": "2024.05.17", "EVENT": "club night"}))
    start = events[0]
    assert isinstance(start, PulkaStarted)
    assert start.meta == (("date", "2024.05.17"), ("event", "club night"))
    round_trips(events)
    assert events == read_text('[Players "Anna, Boris, Vera"]\n[DATE "2024.05.17"]\n[Event "club night"]\n')


@pytest.mark.parametrize("key", ["x y", "1a", "é", "", "date:", "players", "Players", "pool", "whist_price",
                                 "whist-price", "WhistPrice", "options", "option", "rules"])
def test_a_key_the_writer_cannot_write_is_refused_at_its_path(key: str) -> None:
    with pytest.raises(RecordError) as exc:
        read_json(doc(meta={key: "x"}))
    assert exc.value.path == f"$.meta.{key}"
    assert exc.value.text == key
    assert "is not a lower-case tag name" in str(exc.value)


def test_a_key_given_twice_in_two_cases_is_refused() -> None:
    with pytest.raises(RecordError, match=r"\$\.meta\.date: 'date' is a repeated tag"):
        read_json(doc(meta={"Date": "1", "date": "2"}))


def test_every_spelling_of_a_pulka_field_is_reserved() -> None:
    """What the text reader takes as Players/Rules/Option/Pool/WhistPrice is never a meta key."""
    assert set(_TAG_FIELDS) <= RESERVED_TAGS


@pytest.mark.parametrize("value", ["a\nb", "a\rb", "a\tb", "\x1b[31mred", "x\x00", "\x85", "\ufeffx", "x\ufeff"])
def test_a_meta_value_with_a_control_character_or_bom_is_refused(value: str) -> None:
    with pytest.raises(RecordError) as exc:
        read_json(doc(meta={"event": value}))
    assert exc.value.path == "$.meta.event"
    bad = next(c for c in value if c == "\ufeff" or ord(c) < 32 or 127 <= ord(c) < 160)
    assert f"holds U+{ord(bad):04X} (no control character or U+FEFF in a tag value)" in str(exc.value)


@pytest.mark.parametrize("name", ["\ufeffAnna", "An\ufeffna", "An\x0bna", "An\x1bna", "An\x00na", "An\x85na"])
def test_a_name_with_a_control_character_or_bom_is_refused_where_it_stands(name: str) -> None:
    with pytest.raises(RecordError) as exc:
        read_json(doc(players=[name, "Boris", "Vera"]))
    assert exc.value.path == "$.players[0]"
    assert "no control character or U+FEFF in a name" in str(exc.value)
    if "\ufeff" not in name:  # the text reader reads U+FEFF as a space, so it never reaches a name
        with pytest.raises(RecordError) as exc:
            read_text(f'[Event "x"]\n[Players "{name}, Boris, Vera"]\n')
        assert (exc.value.line, exc.value.column) == (2, 11)


def test_a_tab_in_a_text_tag_value_is_refused_where_it_stands() -> None:
    with pytest.raises(RecordError) as exc:
        read_text('[Players "Anna, Boris, Vera"]\n[Event "club\tnight"]\n')
    assert (exc.value.line, exc.value.column) == (2, 9)
    assert "meta 'event' holds U+0009" in str(exc.value)


@pytest.mark.parametrize("reason", ["a;b", "x{y}", "two\nlines", "\ufeff"])
def test_an_end_reason_the_writer_cannot_write_is_refused(reason: str) -> None:
    with pytest.raises(RecordError) as exc:
        read_json(doc(end=reason))
    assert exc.value.path == "$.end"
    assert "is not an end reason" in str(exc.value)


@pytest.mark.parametrize("meta", [(("whist_price", "2"),), (("event", "a\tb"),), (("event", "\ufeff"),),
                                  (("Date", "x"),)])
def test_the_writer_refuses_the_same(meta: tuple[tuple[str, str], ...]) -> None:
    with pytest.raises(RecordWriteError):
        write_text([PulkaStarted(tuple(PLAYERS), "sochi", (), 50, "1", meta)])


_ANY = st.characters(blacklist_categories=("Cs",))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(_ANY, max_size=6), st.text(_ANY, max_size=6), max_size=3),
       st.text(_ANY, min_size=1, max_size=6))
def test_whatever_json_accepts_exports_and_reads_back(meta: dict[str, str], name: str) -> None:
    try:
        events = read_json(doc(meta=meta, players=[name, "Boris", "Vera"]))
    except RecordError:
        return
    text = write_text(events)
    assert [e for r in read_records(text) for e in r.events] == events
    assert read_json(write_json(events)) == events
