"""Croatian and Slovenian deals entered live at paper level, in their own terms (issue 28): contracts with
the talon and from hand («igra»), each defender's call (igram / pass / zovem), the contra chain, refe
(radlc), and the results the sheets write; the audit refuses the impossible with its own sentence."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from starlette.testclient import TestClient

from preflog.engine.families import FAMILIES
from preflog.engine.families import family_of
from preflog.model.calls import parse_call
from preflog.record.api import read_records
from preflog.record.validate import CONTRA_ALIASES
from preflog.workspace import Workspace

from .conftest import csrf as _csrf

NAMES = ["Ana", "Branko", "Cvita"]
A, B, C = 0, 1, 2


def _start(c: TestClient, rules: str) -> str:
    r = c.post("/api/pulkas", json={"players": NAMES, "rules": rules, "pool": 30, "whist_price": "1",
                                    "date": "2026-12-03"}, headers=_csrf(c))
    assert r.status_code == 201, r.text
    pid: str = r.json()["id"]
    return pid


def _enter(c: TestClient, pid: str, seq: int, deal: dict[str, Any]) -> Any:
    return c.post(f"/api/pulka/{pid}/deals", json={"expected_seq": seq, "deal": deal}, headers=_csrf(c))


def _game(declarer: int, contract: str, calls: dict[int, str], tricks: list[int] | None = None,
          dealer: int | None = None, contra: list[int] | None = None) -> dict[str, Any]:
    deal: dict[str, Any] = {"kind": "contract", "declarer": declarer, "contract": contract,
                            "calls": {str(s): c for s, c in calls.items()}}
    if tricks is not None:
        deal["tricks"] = tricks
    if dealer is not None:
        deal["dealer"] = dealer
    if contra is not None:
        deal["contra"] = contra
    return deal


def _enter_all(c: TestClient, pid: str, deals: list[dict[str, Any]]) -> dict[str, Any]:
    seq = c.get(f"/api/pulka/{pid}").json()["seq"]
    state: dict[str, Any] = {}
    for deal in deals:
        r = _enter(c, pid, seq, deal)
        assert r.status_code == 201, (deal, r.text)
        state = r.json()
        assert state["findings"] == [], state["findings"]
        seq = state["seq"]
    return state


def _stored_audits_clean_and_round_trips(c: TestClient, pid: str, deals: int) -> None:
    """The stored pulka audits clean, and its record (the page's export) imports again to the same events."""
    ws = Workspace(c.app.state.server.settings.store)  # type: ignore[attr-defined]
    (audited,) = ws.audit(pid)
    assert audited.result.findings == [] and len(audited.result.deals) == deals
    text = c.get(f"/pulka/{pid}/record").text
    (back,) = read_records(text)
    assert list(back.events) == ws.store().read(pid)


def _exact(state: dict[str, Any]) -> dict[str, Fraction]:
    return {p: Fraction(str(v)) for p, v in state["settlement"]["exact"].items()}


# The sample score sheet of the Croatian rule text (Fundak, «Пример записи»), start 30, entered deal by deal
# as its paper sheet writes it (the dealers rotate from Branko):
SAMPLE = [
    # Cvita plays diamonds (3) with the talon, V = 2 × 3 = 6: her column −30 → −24; Ana and Branko whist and
    # take two tricks each: 2 × 6 = 12 juha each on Cvita
    _game(C, "3", {A: "whist", B: "whist"}, [2, 2, 6], dealer=B),
    # Branko plays clubs (5), V = 10: −30 → −20; Cvita whists alone, Ana passes and is not invited (her cards
    # take no part), Cvita takes three: 3 × 10 = 30 juha on Branko
    _game(B, "5", {C: "whist", A: "pass"}, [0, 7, 3]),
    # everybody passes: a refe for everybody (start 30: one round at most)
    {"kind": "refe"},
    # Ana plays clubs on her refe, V = 10 × 2 = 20: −30 → −10; Branko passes, Cvita alone takes three:
    # 3 × 20 = 60 juha on Ana
    _game(A, "5", {B: "pass", C: "whist"}, [7, 0, 3]),
]


def test_the_croatian_sample_sheet_entered_deal_by_deal_settles_as_the_rule_text(client: TestClient) -> None:
    pid = _start(client, "croatian")
    s = _enter_all(client, pid, SAMPLE)
    # columns −10 / −20 / −24: sum −54, mean −18, so (column − mean) × 10 = +80 / −20 / −60; juha written
    # minus juha written on: Ana 12 − 60 = −48, Branko 12 − 30 = −18, Cvita (30 + 60) − (12 + 12) = +66
    # → Ana +32, Branko −38, Cvita +6 (the rule text's own result)
    assert s["totals"]["pulya"] == {"Ana": -10, "Branko": -20, "Cvita": -24}
    assert _exact(s) == {"Ana": 32, "Branko": -38, "Cvita": 6}
    assert s["deals"] == 4
    _stored_audits_clean_and_round_trips(client, pid, 4)
    record = client.get(f"/pulka/{pid}/record").text
    # written as the record's paper level writes those deals: the refe as its auction, no tricks
    assert "Deal 3: dealer A\nAuction: all pass\n" in record
    assert "Contract: A 5\nWhist: B pass, C whist\nTricks: A 7, B 0, C 3" in record


# A Slovenian pulka (start 30), by hand:
SLOVENIAN = [
    # Ana plays 2 (spades) with the talon, Branko whists, Cvita passes, nobody says kontra: in Slovenia
    # nobody writes anything and everybody gets a radlc (no play, so no tricks are entered)
    _game(A, "2", {B: "whist", C: "pass"}),
    # Branko plays hearts (4) with the talon on his radlc, V = 2 × 4 × 2 = 16: −30 → −14; both whist and
    # take two each: 2 × 16 = 32 juha each on Branko
    _game(B, "4", {C: "whist", A: "whist"}, [2, 6, 2]),
    # Cvita plays clubs from hand («igra 5») on her radlc, V = 2 × (5 + 1) × 2 = 24: −30 → −6; Ana passes,
    # Branko invites her («zovem») and writes the side's four tricks: 4 × 24 = 96 on Cvita
    _game(C, "igra 5", {A: "pass", B: "invite"}, [1, 3, 6]),
    # Ana plays Bettel with the talon on her radlc, V = 12 × 2 = 24, and takes a trick (play stops there):
    # −30 → −54, and each defender writes 5 × 24 = 120 on her
    _game(A, "bettel", {B: "whist", C: "whist"}, [1, 2, 1]),
]


def test_a_slovenian_pulka_entered_deal_by_deal_settles_by_hand(client: TestClient) -> None:
    pid = _start(client, "slovenian")
    s = _enter_all(client, pid, SLOVENIAN)
    assert s["totals"]["pulya"] == {"Ana": -54, "Branko": -14, "Cvita": -6}
    # columns sum −74, mean −74/3: (column − mean) × 10 = −880/3, +320/3, +560/3; juha written minus written
    # on: Ana 32 − 240 = −208, Branko (120 + 96) − 64 = +152, Cvita (32 + 120) − 96 = +56
    assert _exact(s) == {"Ana": Fraction(-880, 3) - 208, "Branko": Fraction(320, 3) + 152,
                         "Cvita": Fraction(560, 3) + 56}
    assert _exact(s) == {"Ana": Fraction(-1504, 3), "Branko": Fraction(776, 3), "Cvita": Fraction(728, 3)}
    # the page speaks Slovenian: the all-pass deal is a radlc, the calls are the family's words
    assert s["terms"]["all_pass"] == "Radlc for everybody"
    assert s["terms"]["calls"] == {"whist": "igram", "pass": "pass", "invite": "zovem"}
    _stored_audits_clean_and_round_trips(client, pid, 4)
    record = client.get(f"/pulka/{pid}/record").text
    assert "Deal 3: dealer B\nAuction: C igra, A pass, B pass\nContract: C 5\nWhist: A pass, B invite\n" in record


def test_the_same_two_spades_is_won_without_play_in_croatia(client: TestClient) -> None:
    # the first Slovenian deal under Croatian rules: Ana wins her 2 without play, V = 4: −30 → −26
    pid = _start(client, "croatian")
    s = _enter_all(client, pid, SLOVENIAN[:1] + [{"kind": "refe"}])
    assert s["totals"]["pulya"] == {"Ana": -26, "Branko": -30, "Cvita": -30}


def test_a_contra_chain_and_a_hand_bettel_are_written_as_the_record_reads_them(client: TestClient) -> None:
    pid = _start(client, "croatian")
    # Branko plays clubs (5) with the talon, V = 10; Cvita whists, Ana passes; Cvita says kontra (which invites
    # Ana), Branko rekontra: ×4 between Branko and Cvita. Branko takes 6 (made): −30 → −30 + 10 × 4 = +10
    # (his column uses the highest chain); Cvita writes her side's 4 tricks × 10 × 4 = 160 on him, and her
    # failed kontra costs her V × 4 = 40 in her column: −30 → −70. Then Cvita plays Bettel from hand, V =
    # 2 × (6 + 1) = 14, and takes no trick: −70 → −56 (the defenders of a Bettel made write nothing)
    s = _enter_all(client, pid, [
        _game(B, "5", {C: "whist", A: "pass"}, [2, 6, 2], dealer=C, contra=[C, B]),
        _game(C, "igra-bettel", {A: "whist", B: "whist"}, [5, 5, 0]),
    ])
    assert s["totals"]["pulya"] == {"Ana": -30, "Branko": 10, "Cvita": -56}
    assert s["totals"]["visty"]["Cvita"]["Branko"] == 160
    record = client.get(f"/pulka/{pid}/record").text
    assert "Contract: B 5\nWhist: C whist, A pass, C contra, B recontra\nTricks: A 2, B 6, C 2" in record
    assert "Auction: B pass, C igra-bettel, A pass\nContract: C bettel\n" in record
    _stored_audits_clean_and_round_trips(client, pid, 2)


@pytest.mark.parametrize(("deal", "sentence"), [
    # tricks to the passer nobody invited: his cards took no part
    (_game(B, "5", {C: "whist", A: "pass"}, [1, 6, 3]), "who passed and was not invited"),
    # Bettel is never passed
    (_game(B, "bettel", {C: "pass", A: "whist"}, [5, 0, 5]), "may not pass Bettel"),
    # a whisted 2 with the talon that nobody contra'd is not played
    (_game(B, "2", {C: "whist", A: "whist"}, [2, 6, 2]), "the 2♠ rule"),
    # the defenders' fifth trick ends play: six are more than a paper sheet can hold
    (_game(B, "4", {C: "whist", A: "whist"}, [3, 4, 3]), "play stops at their 5th"),
])
def test_an_impossible_croatian_entry_is_refused_with_the_audits_sentence(client: TestClient, deal: dict[str, Any],
                                                                          sentence: str) -> None:
    pid = _start(client, "croatian")
    r = _enter(client, pid, 1, deal)
    assert r.status_code == 422, r.text
    assert sentence in r.json()["error"] and r.json()["findings"][0]["message"] == r.json()["error"]
    assert client.get(f"/api/pulka/{pid}").json()["seq"] == 1  # nothing written


def test_an_entry_in_another_familys_terms_is_told_the_familys_own(client: TestClient) -> None:
    pid = _start(client, "croatian")
    r = _enter(client, pid, 1, _game(B, "4", {C: "half", A: "whist"}, [2, 6, 2]))
    assert r.status_code == 400 and r.json()["error"] == "on 4 a defender's call is igram, pass or zovem"
    r = _enter(client, pid, 1, {"kind": "refe", "tricks": [4, 3, 3]})
    assert r.status_code == 400 and "no tricks" in r.json()["error"]
    r = _enter(client, pid, 1, _game(B, "6s", {C: "whist", A: "whist"}, [2, 6, 2]))
    assert r.status_code == 400 and "not a" in r.json()["error"]
    sochi = client.post("/api/pulkas", json={"players": NAMES, "rules": "sochi", "pool": 10},
                        headers=_csrf(client)).json()["id"]
    r = _enter(client, sochi, 1, _game(B, "6s", {C: "whist", A: "pass"}, [2, 6, 2], contra=[C]))
    assert r.status_code == 400 and r.json()["error"] == "russian rules have no contra"
    r = _enter(client, sochi, 1, _game(B, "miser", {C: "whist", A: "pass"}, [0, 0, 10]))
    assert r.status_code == 400 and r.json()["error"] == "on miser no defender calls"


def test_the_page_gets_the_familys_contracts_and_words(client: TestClient) -> None:
    assert "<option>croatian</option>" in client.get("/new").text
    assert "<option>slovenian</option>" in client.get("/new").text
    pid = _start(client, "croatian")
    s = client.get(f"/api/pulka/{pid}").json()
    assert s["live"] is True
    texts = [c["text"] for c in s["contracts"]]
    assert texts == ["2", "3", "4", "5", "bettel", "sanac", "igra 2", "igra 3", "igra 4", "igra 5", "igra-bettel",
                     "igra-sanac"]
    assert all(c["calls"] == ["whist", "pass", "invite"] for c in s["contracts"])
    assert s["terms"]["all_pass"] == "Refe for everybody" and s["terms"]["all_pass_tricks"] is False
    assert s["terms"]["contra"] == ["kontra", "rekontra", "subkontra", "mortkontra"]
    page = client.get(f"/pulka/{pid}").text
    assert '"igra-bettel"' in page and '"zovem"' in page   # in the page's JSON data, read by serve.js
    r = client.post("/api/pulkas", json={"players": ["A", "B", "C", "D"], "rules": "croatian", "pool": 30},
                    headers=_csrf(client))
    assert r.status_code == 400 and r.json()["error"] == "4 players; the rules allow tables of 3"


def test_every_word_the_entry_shows_is_a_word_of_the_one_call_table() -> None:
    for family in FAMILIES:
        if family.entry is None:
            continue
        for code, word in family.entry.call_words.items():
            assert parse_call(word) == code
        assert all(w in CONTRA_ALIASES for w in family.entry.contra_words)
        for c in family.entry_contracts():
            assert family.entry_contract(c.text) == c == family.entry_contract(c.text.upper())
            if c.hand_call is None:
                assert family.bids.parse(c.text) == c.contract


def test_a_croatian_deal_corrected_is_scored_again_and_kept_in_the_history(client: TestClient) -> None:
    pid = _start(client, "croatian")
    s = _enter_all(client, pid, SAMPLE[:2])
    # deal 2 was really played from hand: «igra 5», V = 2 × (5 + 1) = 12: Branko −30 → −18, and Cvita's three
    # tricks write 3 × 12 = 36 on him (30 before)
    r = client.post(f"/api/pulka/{pid}/correct", headers=_csrf(client), json={
        "expected_seq": s["seq"], "deal": 2, "entry": _game(B, "igra 5", {C: "whist", A: "pass"}, [0, 7, 3])})
    assert r.status_code == 201, r.text
    s = r.json()
    assert s["findings"] == [] and s["deals"] == 2
    assert s["totals"]["pulya"]["Branko"] == -18 and s["totals"]["visty"]["Cvita"]["Branko"] == 36
    assert [(h["number"], h["kind"], h["removed_by"] is not None) for h in s["history"]] == [
        (1, "entered", False), (2, "entered", True), (2, "correction", False)]
    fixed = s["history"][2]
    assert fixed["text"].endswith(f"Corrects: deal 2 at {fixed['at']}\nAuction: A pass, B igra, C pass\n"
                                  "Contract: B 5\nWhist: C whist, A pass\nTricks: A 0, B 7, C 3")
    _stored_audits_clean_and_round_trips(client, pid, 2)


def test_a_croatian_contract_may_be_named_as_the_sheets_spell_it() -> None:
    croatian = family_of("croatian")
    spelled = {"betl": "bettel", "sans": "sanac", "igra bettel": "igra-bettel", "berac": "igra-bettel",
               "Igra-Sanac": "igra-sanac", "IGRA  5": "igra 5", "4": "4"}
    assert {t: croatian.entry_contract(t).text for t in spelled} == spelled
    with pytest.raises(ValueError, match="not a contract of the live entry: 'igra' .*igra 2, igra 3"):
        croatian.entry_contract("igra")   # a game from hand names its contract
