"""A pulka id holding ``/`` (the record reader takes ``[Id "club/friday"]``) opens on every page of the web
app: the pages, the JSON state, the update stream and every write (each was 404 while the routes took one
path segment for the id)."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from preflog.serve import create_app
from preflog.workspace import Workspace

from .conftest import csrf
from .test_stream import Reader
from .test_stream import serving

SEED = Path(__file__).resolve().parents[2] / "data" / "examples" / "seed003-settlement.pref"
PID = "club/friday/1"
RASPASY = {"kind": "raspasy", "tricks": [1, 9, 0]}


def _live_store(root: Path) -> Path:
    """A store holding the seed's first deal alone, as ``club/friday/1`` (not ended: deals can be entered)."""
    text = SEED.read_text(encoding="utf-8").replace('[Id "seed003-settlement"]', f'[Id "{PID}"]')
    first = text[: text.index("Deal 2:")]
    (root / "live.pref").write_text(first, encoding="utf-8")
    store = root / "st"
    (item,) = Workspace(store).import_paths([root / "live.pref"])
    assert (item.pulka, item.status, item.findings) == (PID, "imported", 0)
    return store


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    c = TestClient(create_app(_live_store(tmp_path)))
    c.get("/new")
    return c


@pytest.mark.parametrize("spelled", [PID, PID.replace("/", "%2F")])   # as a link writes it, as JS encodes it
def test_every_page_of_a_pulka_whose_id_holds_a_slash(client: TestClient, spelled: str) -> None:
    listed = client.get("/").text
    assert f'href="/pulka/{PID}"' in listed
    page = client.get(f"/pulka/{spelled}")
    assert page.status_code == 200 and f'href="/pulka/{PID}/viewer"' in page.text
    for suffix in ("viewer", "record", "analysis"):
        r = client.get(f"/pulka/{spelled}/{suffix}")
        assert r.status_code == 200, (suffix, r.text)
    assert f'[Id "{PID}"]' in client.get(f"/pulka/{spelled}/record").text
    state = client.get(f"/api/pulka/{spelled}").json()
    assert (state["id"], state["deals"]) == (PID, 1)


def test_every_write_to_a_pulka_whose_id_holds_a_slash(client: TestClient) -> None:
    seq = client.get(f"/api/pulka/{PID}").json()["seq"]
    r = client.post(f"/api/pulka/{PID}/deals", json={"expected_seq": seq, "deal": RASPASY}, headers=csrf(client))
    assert r.status_code == 201, r.text
    assert (r.json()["id"], r.json()["deals"]) == (PID, 2)
    seq = r.json()["seq"]
    r = client.post(f"/api/pulka/{PID}/correct", json={"expected_seq": seq, "deal": 2, "entry": None},
                    headers=csrf(client))   # undo the deal just entered
    assert r.status_code == 201 and r.json()["deals"] == 1
    seq = r.json()["seq"]
    # a card-level draft without hands: refused by what it lacks (400), not by a route that misses (404)
    for suffix, body in (("cards/draft", {"draft": {}}), ("cards", {"expected_seq": seq, "draft": {}})):
        r = client.post(f"/api/pulka/{PID}/{suffix}", json=body, headers=csrf(client))
        assert r.status_code == 400, (suffix, r.status_code, r.text)
    r = client.post(f"/api/pulka/{PID}/end", json={"expected_seq": seq}, headers=csrf(client))
    assert r.status_code == 201 and r.json()["ended"] is True


def test_a_route_suffix_is_not_taken_for_part_of_the_id(client: TestClient) -> None:
    """``/pulka/{id}/viewer`` is the viewer of ``{id}``; an id that is not stored is 404 on every route."""
    for path in ("/pulka/club/friday", "/pulka/club/viewer", "/api/pulka/club", "/pulka/club/friday/1/nope"):
        assert client.get(path).status_code == 404, path


def test_the_stream_of_a_pulka_whose_id_holds_a_slash(tmp_path: Path) -> None:
    with serving(_live_store(tmp_path)) as (c, _):
        r = Reader(c, f"/api/pulka/{PID}/stream")
        assert r.response is not None and r.response.status_code == 200
        assert r.length() == 3   # PulkaStarted, then the deal's DealStarted and PaperResult
