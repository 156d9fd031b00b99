"""Decoding the rows that open and close a pulka: the remembered PulkaEnded and the direct JSON decode
read exactly what ``json.loads`` and the event classes read, and fail the same way."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from preflog.model.events import EventError
from preflog.model.events import PulkaEnded
from preflog.model.events import PulkaStarted
from preflog.model.events import from_row

STARTED = PulkaStarted(players=("Anna", "Boris", "Vera"), rules="leningrad", overrides=(("pool", 30),),
                       pool=30, whist_price="1/2", meta=(("seed", "7"), ("source", "club")),
                       start=((10, 2, 0, 4, 0), (0, 0, 0, 0, 6), (5, 0, 1, 0, 0)))


@pytest.mark.parametrize("payload", ['{"reason":"closed"}', '{"reason":"stopped"}', " {\"reason\":\"closed\"} ",
                                     '{"reason":"closed"}\n', None, ""])
def test_pulka_ended_rows_decode_alike_every_time(payload: str | None) -> None:
    """Whitespace around the JSON (``json.loads`` takes it), no payload (the default reason), and the
    second decode of a row (remembered) give the event the class builds from ``json.loads``."""
    want = PulkaEnded(**json.loads(payload)) if payload and payload.strip() else PulkaEnded()
    for _ in range(2):
        assert from_row(PulkaEnded.CODE, -1, -1, 0, payload) == want


@pytest.mark.parametrize("payload", ['{"reason":"closed"} x', '{"reason":', '{"why":"closed"}', "[1]"])
def test_bad_pulka_ended_rows_fail_every_time(payload: str) -> None:
    """A row that does not decode is not remembered: it fails each time, naming the payload and what
    ``json.loads`` (or the class) says about it."""
    for _ in range(2):
        with pytest.raises(EventError) as err:
            from_row(PulkaEnded.CODE, -1, -1, 0, payload)
        assert "pulka_ended event payload" in str(err.value) and repr(payload) in str(err.value)
    try:
        json.loads(payload)
    except ValueError as exc:
        assert str(exc) in str(err.value)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=6), min_size=3, max_size=4, unique=True),
       st.lists(st.tuples(st.text(max_size=5), st.text(max_size=5)), max_size=3), st.sampled_from([" ", "\n", ""]))
def test_pulka_started_round_trips(players: list[str], meta: list[tuple[str, str]], pad: str) -> None:
    """A PulkaStarted written as a row reads back equal (nested lists back to tuples), padded or not."""
    ev = PulkaStarted(players=tuple(players), meta=tuple(meta))
    code, player, card, value, payload = ev.to_row()
    assert payload is not None
    back = from_row(code, player, card, value, pad + payload + pad)
    assert back == ev and back.meta == ev.meta and type(back.players) is tuple


def test_pulka_started_with_a_starting_sheet_round_trips() -> None:
    """Overrides, meta and the starting sheet (numbers as written) come back as they went in."""
    assert from_row(*STARTED.to_row()) == STARTED
