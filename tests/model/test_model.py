"""Domain types: card spellings, the bid ladder, event rows (including the packed deal layout)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preflog.model.bids import MISER
from preflog.model.bids import RU_LADDER
from preflog.model.bids import format_ru_bid
from preflog.model.bids import level_of
from preflog.model.bids import parse_hr_bid
from preflog.model.bids import parse_ru_bid
from preflog.model.bids import ru_trump
from preflog.model.cards import CLUBS
from preflog.model.cards import HEARTS
from preflog.model.cards import RANK_10
from preflog.model.cards import RANK_A
from preflog.model.cards import CardError
from preflog.model.cards import format_card
from preflog.model.cards import make_card
from preflog.model.cards import parse_card
from preflog.model.cards import parse_cards
from preflog.model.events import EVENT_TYPES
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import DealCorrected
from preflog.model.events import DealStarted
from preflog.model.events import PulkaStarted
from preflog.model.events import from_row


@pytest.mark.parametrize(("text", "suit", "rank"), [
    ("Qh", HEARTS, 5), ("10h", HEARTS, RANK_10), ("Th", HEARTS, RANK_10), ("Q♥", HEARTS, 5), ("Д♥", HEARTS, 5),
    ("Дч", HEARTS, 5), ("Тт", CLUBS, RANK_A), ("ТТ", CLUBS, RANK_A), ("10т", CLUBS, RANK_10), ("A♣", CLUBS, RANK_A),
])
def test_card_spellings(text: str, suit: int, rank: int) -> None:
    """Russian Т is the ace as a rank and clubs as a suit: the rank comes first, so Тт = A♣;
    Latin T is the ten."""
    assert parse_card(text) == make_card(suit, rank)


def test_card_formats_round_trip() -> None:
    for c in range(32):
        for style in ("latin", "unicode", "russian"):
            assert parse_card(format_card(c, style)) == c


@pytest.mark.parametrize("bad", ["Xh", "1h", "Q", "", "11s", "Qx"])
def test_bad_cards_say_what_was_expected(bad: str) -> None:
    with pytest.raises(CardError, match="expected|not a card"):
        parse_card(bad)


def test_duplicate_card_in_a_list() -> None:
    with pytest.raises(CardError, match="twice"):
        parse_cards("As Ks As")


def test_ladder_is_26_steps_in_integer_order() -> None:
    """Seed 001's table: 6♠ … 8NT, miser, 9♠ … 10NT; miser sits between 8NT and 9♠."""
    assert len(RU_LADDER) == 26 and list(RU_LADDER) == sorted(RU_LADDER)
    assert RU_LADDER.index(MISER) == 15 and RU_LADDER[14] == 85 and RU_LADDER[16] == 91
    assert [format_ru_bid(b) for b in RU_LADDER[:5]] == ["6s", "6c", "6d", "6h", "6NT"]


@pytest.mark.parametrize(("text", "code"), [
    ("6s", 61), ("6♠", 61), ("6п", 61), ("7NT", 75), ("7БК", 75), ("10h", 104), ("мизер", MISER), ("pass", 0),
    ("пас", 0), ("8ч", 84), ("9т", 92),
])
def test_russian_bids(text: str, code: int) -> None:
    assert parse_ru_bid(text) == code


def test_bid_helpers_and_croatian_words() -> None:
    assert level_of(104) == 10 and level_of(MISER) == 0 and ru_trump(104) == HEARTS and ru_trump(75) == -1
    assert [parse_hr_bid(t) for t in ("2", "igra", "bettel", "sanac", "igra-sanac", "pass")] == [2, 8, 6, 7, 17, 0]


def _layout(rng: random.Random, n: int, dealer: int) -> DealStarted:
    cards = list(range(32))
    rng.shuffle(cards)
    hands, k = [0] * n, 0
    for s in range(n):
        if n == 4 and s == dealer:
            continue
        hands[s] = sum(1 << c for c in cards[k:k + 10])
        k += 10
    return DealStarted(dealer, tuple(hands), sum(1 << c for c in cards[30:]))


@given(st.integers(0, 2**32), st.sampled_from([3, 4]), st.integers(0, 3))
def test_packed_layout_round_trips(seed: int, n: int, dealer: int) -> None:
    """A complete layout is stored as one int64 (no JSON payload) and decodes to the same event."""
    ev = _layout(random.Random(seed), n, dealer % n)
    row = ev.to_row()
    assert row[4] is None and row[2] == n and -(2**63) <= row[3] < 2**63
    assert from_row(*row) == ev


def test_partial_layouts_keep_the_json_payload() -> None:
    for ev in (DealStarted(1), DealStarted(0, (1, 2, 4), None), DealStarted(0, (1, 2, 4), 8)):
        row = ev.to_row()
        assert row[4] is not None and from_row(*row) == ev


def test_every_event_type_round_trips_through_rows() -> None:
    samples = [PulkaStarted(players=("A", "B", "C"), overrides=(("raspasy_cap", 4),)), BidMade(1, 62),
               CardPlayed(2, 31), DealCorrected(3, True, "2024-05-17T20:15:00Z")]
    assert {t.CODE for t in EVENT_TYPES} == set(range(1, 17))
    for ev in samples:
        assert from_row(*ev.to_row()) == ev


def test_packed_layout_outside_int64_is_a_value_error() -> None:
    """The store's column is an int64; a bigger number is no layout, on the compiled path as on the pure one."""
    from preflog.model.layout import unpack_layout

    for value in (2**63, -(2**63) - 1, 2**70):
        with pytest.raises(ValueError, match="int64"):
            unpack_layout(0, 3, value)
    # -1 is every 2-bit code 3 (the talon's): no layout of a deal, but a number the column can hold
    assert unpack_layout(0, 3, -1) == ((0, 0, 0), 0xFFFFFFFF)
    assert unpack_layout(2, 4, -1) == ((0, 0, 0, 0), 0xFFFFFFFF)
