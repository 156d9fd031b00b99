"""No lost taps over HTTP: a write on a stale view is 409 with what was entered since (the page keeps its
draft and may enter it as the next deal), and an entry sent again after its answer was lost (same
``entry_id``) is answered 200 and counted once."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from .conftest import csrf
from .test_app import RASPASY
from .test_app import SIX_SPADES
from .test_app import _start


def _enter(c: TestClient, pid: str, seq: int, deal: dict[str, Any], entry_id: object = None) -> Any:
    body: dict[str, Any] = {"expected_seq": seq, "deal": deal}
    if entry_id is not None:
        body["entry_id"] = entry_id
    return c.post(f"/api/pulka/{pid}/deals", json=body, headers=csrf(c))


def test_the_409_says_what_the_other_phone_entered(client: TestClient) -> None:
    pid = _start(client)
    assert _enter(client, pid, 1, RASPASY, "phone-a-1").status_code == 201
    r = _enter(client, pid, 1, SIX_SPADES, "phone-b-1")   # phone B still saw seq 1
    assert r.status_code == 409
    body = r.json()
    assert body["state"]["seq"] == 3 and body["state"]["deals"] == 1
    # what phone A entered: deal 1, raspasy 1 / 9 / 0, as the table reads it (the players' names, not A/B/C)
    assert [(h["number"], h["kind"]) for h in body["since"]] == [(1, "entered")]
    assert body["since"][0]["text"] == body["state"]["last_entry"]
    assert "Tricks: " in body["since"][0]["text"] and ", B " not in body["since"][0]["text"]
    # phone B enters its draft as the next deal: the new seq, checked again by the server
    r = _enter(client, pid, body["state"]["seq"], SIX_SPADES, "phone-b-1")
    assert r.status_code == 201 and r.json()["deals"] == 2
    assert r.json()["totals"]["gora"]["Запад"] == 7   # 1 (raspasy) + 2 × 3 (6♠ down three): both deals count


def test_a_409_on_an_old_view_lists_every_deal_since(client: TestClient) -> None:
    pid = _start(client)
    assert _enter(client, pid, 1, RASPASY).status_code == 201
    assert _enter(client, pid, 3, RASPASY).status_code == 201
    r = _enter(client, pid, 1, SIX_SPADES)
    assert r.status_code == 409 and [h["number"] for h in r.json()["since"]] == [1, 2]
    r = _enter(client, pid, 3, SIX_SPADES)
    assert r.status_code == 409 and [h["number"] for h in r.json()["since"]] == [2]


def test_an_entry_whose_answer_was_lost_is_sent_again_and_counts_once(client: TestClient) -> None:
    pid = _start(client)
    first = _enter(client, pid, 1, RASPASY, "c0ffee-1")   # it reached the server; the phone never saw this
    assert first.status_code == 201
    again = _enter(client, pid, 1, RASPASY, "c0ffee-1")   # back online: sent again as it was kept
    assert again.status_code == 200
    assert again.json()["state"]["seq"] == 3 and again.json()["state"]["deals"] == 1
    assert "once" in again.json()["error"]
    assert client.get(f"/api/pulka/{pid}").json()["deals"] == 1
    assert len(client.get(f"/api/pulka/{pid}").json()["history"]) == 1


def test_a_correction_sent_again_counts_once(client: TestClient) -> None:
    pid = _start(client)
    assert _enter(client, pid, 1, RASPASY).status_code == 201
    body = {"expected_seq": 3, "deal": 1, "entry": None, "entry_id": "strike-1"}
    assert client.post(f"/api/pulka/{pid}/correct", json=body, headers=csrf(client)).status_code == 201
    assert client.post(f"/api/pulka/{pid}/correct", json=body, headers=csrf(client)).status_code == 200
    assert client.get(f"/api/pulka/{pid}").json()["deals"] == 0


def test_an_entry_id_of_the_wrong_shape_is_400(client: TestClient) -> None:
    pid = _start(client)
    r = _enter(client, pid, 1, RASPASY, "not an id")
    assert r.status_code == 400 and "entry_id" in r.json()["error"]
    assert client.get(f"/api/pulka/{pid}").json()["seq"] == 1
