"""What the table did not tap (issue 39, item 6): the last trick count is what the others leave of 10, and
a count or a defender's call left blank beyond that is refused with a sentence naming whose it is,
never taken as 0 or a pass; nothing is written then."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from .test_paper_entry import NAMES
from .test_paper_entry import PLAYERS4
from .test_paper_entry import _begin
from .test_paper_entry import _enter
from .test_paper_entry import _stored_deal


@pytest.mark.parametrize(("deal", "block"), [
    # 6 + 2 entered: Vera took the other 2
    ({"kind": "contract", "declarer": 0, "contract": "6s", "calls": {"1": "whist", "2": "pass"},
      "tricks": [6, 2, None]}, "Contract: A 6s\nWhist: B whist, C pass\nTricks: A 6, B 2, C 2\n"),
    # the first count left blank: 10 − 4 − 5 = 1
    ({"kind": "raspasy", "tricks": [None, 4, 5]}, "Tricks: A 1, B 4, C 5\n"),
    # a misère: nobody calls, so no call is missing; 10 − 1 − 4 = 5
    ({"kind": "contract", "declarer": 0, "contract": "miser", "tricks": [1, 4, None]},
     "Contract: A miser\nTricks: A 1, B 4, C 5\n"),
])
def test_the_last_count_is_filled_in(store: Path, client: TestClient, deal: dict[str, Any], block: str) -> None:
    _begin(store, "p", NAMES)
    r = _enter(client, "p", deal)
    assert r.status_code == 201, r.text
    _stored_deal(store, "p", "Deal 1: dealer C\n" + block)


def test_at_four_the_dealer_sitting_out_took_none(store: Path, client: TestClient) -> None:
    _begin(store, "p", ("Anna", "Boris", "Vera", "Gleb"))
    r = _enter(client, "p", {"kind": "contract", "declarer": 0, "contract": "6d",
                             "calls": {"1": "whist", "2": "pass"}, "tricks": [6, 3, None, None]})
    assert r.status_code == 201, r.text
    _stored_deal(store, "p", "Deal 1: dealer D\nContract: A 6d\nWhist: B whist, C pass\n"
                             "Tricks: A 6, B 3, C 1, D 0\n", PLAYERS4)


@pytest.mark.parametrize(("deal", "said"), [
    ({"kind": "contract", "declarer": 0, "contract": "6s", "calls": {"1": "whist", "2": "pass"},
      "tricks": [6, None, None]},
     "the tricks of Boris and Vera are not entered: tap them (the last count is filled in from the others)"),
    ({"kind": "raspasy", "tricks": [None, None, None]},
     "the tricks of Anna, Boris and Vera are not entered: tap them (the last count is filled in from the others)"),
    ({"kind": "contract", "declarer": 0, "contract": "6s", "calls": {"1": "whist"}, "tricks": [6, 2, 2]},
     "no call from Vera on 6s: tap whist or pass for each defender"),
    ({"kind": "contract", "declarer": 1, "contract": "7h", "tricks": [2, 7, 1]},
     "no call from Vera and Anna on 7h: tap whist or pass for each defender"),
    # a whisted six is played: entered without any tricks, it lacks them (not the audit's phase words)
    ({"kind": "contract", "declarer": 0, "contract": "6s", "calls": {"1": "whist", "2": "pass"}},
     "the tricks are not entered: tap each player's tricks (the last count is filled in from the others)"),
    ({"kind": "contract", "declarer": 0, "contract": "6s", "calls": {"1": "whist", "2": "pass"},
      "tricks": [8, 4, None]},
     "the tricks entered come to 12, more than the 10 of a deal"),
])
def test_what_is_missing_is_refused_by_name(store: Path, client: TestClient, deal: dict[str, Any],
                                            said: str) -> None:
    _begin(store, "p", NAMES)
    r = _enter(client, "p", deal)
    assert (r.status_code, r.json()["error"]) == (400, said)
    assert client.get("/api/pulka/p").json()["seq"] == 1  # nothing written
