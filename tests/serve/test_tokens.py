"""The table token at a served table (issue 39, item 9): the join link leaves a cookie and a clean
address, a read-only share link lets anyone watch, a stale cookie of a former run is no attack, and the
right token is never locked out."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from preflog.serve import create_app

from .conftest import csrf

TOKEN = "t0ken-of-the-table"
PHONE = "http://192.168.1.20:8765"
START = {"players": ["Anna", "Boris", "Vera"], "rules": "sochi", "pool": 10}


def _join(c: TestClient, path: str = "/", **query: str) -> str:
    """Open ``path`` with ``query`` as a join link is opened: the 303's address (its cookie kept)."""
    r = c.get(path, params=query, follow_redirects=False)
    assert r.status_code == 303, (r.status_code, r.text)
    return r.headers["location"]


def _start(c: TestClient) -> str:
    c.get("/new")
    r = c.post("/api/pulkas", json=START, headers=csrf(c))
    assert r.status_code == 201, r.text
    pid: str = r.json()["id"]
    return pid


def test_the_join_link_leaves_a_cookie_and_a_clean_address(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "s", table_token=TOKEN), base_url=PHONE) as c:
        assert _join(c, "/", token=TOKEN, player="Anna") == "/?player=Anna"   # the other terms stay
        # an id of any letters (and "%") comes back as the address spells it
        assert _join(c, "/pulka/Пулька 100%", token=TOKEN) == "/pulka/%D0%9F%D1%83%D0%BB%D1%8C%D0%BA%D0%B0%20100%25"
        cookie = next(h for h in c.get("/", params={"token": TOKEN}, follow_redirects=False)
                      .headers.get_list("set-cookie") if h.startswith("preflog_table="))
        low = cookie.lower()
        assert "httponly" in low and "samesite=lax" in low and "secure" not in low
        assert TOKEN not in cookie                                   # a pass of this run, not the token
        page = c.get("/new")                                         # the clean address, the cookie only
        assert page.status_code == 200 and TOKEN not in page.text
        pid = _start(c)                                              # and it writes
        writer = c.get(f"/pulka/{pid}").text
        assert TOKEN not in writer and 'id="watching"' not in writer and '"write":true' in writer
    with TestClient(create_app(tmp_path / "s", table_token=TOKEN), base_url="https://club.example.org") as c:
        r = c.get("/", params={"token": TOKEN}, follow_redirects=False)
        assert r.status_code == 303 and "secure" in r.headers["set-cookie"].lower()


def test_the_read_only_link_watches_and_never_writes(tmp_path: Path) -> None:
    app = create_app(tmp_path / "s", table_token=TOKEN)
    with TestClient(app, base_url=PHONE) as host:
        _join(host, token=TOKEN)
        pid = _start(host)
        page = host.get(f"/pulka/{pid}").text
        share = page.split('id="share"', 1)[1].split('href="', 1)[1].split('"', 1)[0]
        assert share.startswith(f"/pulka/{pid}?watch=") and TOKEN not in share
    with TestClient(app, base_url=PHONE) as guest:
        assert guest.get(f"/pulka/{pid}").status_code == 401        # nothing without a link
        assert _join(guest, share.split("?")[0], watch=share.split("=", 1)[1]) == f"/pulka/{pid}"
        page = guest.get(f"/pulka/{pid}")
        assert page.status_code == 200 and 'id="share"' not in page.text   # a watcher hands on no link
        assert 'id="watching"' in page.text and '"write":false' in page.text   # and its page offers no entry
        assert guest.get(f"/api/pulka/{pid}").json()["seq"] == 1
        r = guest.post(f"/api/pulka/{pid}/deals", json={"expected_seq": 1, "deal": {"kind": "raspasy",
                                                                                      "tricks": [1, 9, 0]}},
                       headers=csrf(guest))
        assert r.status_code == 403 and "read-only" in r.json()["error"]
        assert guest.post("/api/pulkas", json=START, headers=csrf(guest)).status_code == 403


def test_a_stale_cookie_after_a_restart_is_no_attack(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "s", table_token=TOKEN), base_url=PHONE) as before:
        _join(before, token=TOKEN)
        pid = _start(before)
        stale = dict(before.cookies)
    fresh = "fr3sh-token"   # the server restarted: a new token, a new join link
    with TestClient(create_app(tmp_path / "s", table_token=fresh), base_url=PHONE, cookies=stale) as phone:
        # the phone's page keeps polling with the old cookie: not let in, and not counted as guessing
        assert {phone.get(f"/api/pulka/{pid}").status_code for _ in range(20)} == {401}
        assert _join(phone, f"/pulka/{pid}", token=fresh) == f"/pulka/{pid}"   # the fresh link: no 429
        assert phone.get(f"/api/pulka/{pid}").status_code == 200
    # the same token after a restart: the old pass is this run's no longer (rejoin), still never a 429
    with TestClient(create_app(tmp_path / "s", table_token=TOKEN), base_url=PHONE, cookies=stale) as phone:
        assert {phone.get(f"/api/pulka/{pid}").status_code for _ in range(20)} == {401}
        assert _join(phone, token=TOKEN) == "/"


def test_wrong_tokens_lock_out_their_source_but_never_the_right_token(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "s", table_token="4711", pin=True), base_url=PHONE) as c:
        codes = [c.get("/", params={"token": f"{n:04d}"}, follow_redirects=False).status_code for n in range(11)]
        assert codes == [401] * 10 + [429]
        assert c.get("/", params={"watch": "0" * 64}).status_code == 429   # a guessed share link counts too
        assert _join(c, token="4711") == "/"                                  # the right PIN still joins
        assert c.get("/").status_code == 200
        assert c.post("/api/pulkas", json=START, headers={**csrf(c), "X-Table-Token": "0001"}).status_code == 201
