"""Card-level entry in preflog serve (issue 28: "Card-level entry (hands, talon, tricks) is optional per
deal"), over HTTP with Starlette's TestClient: a Russian deal tapped card by card is stored as exactly the
events the record reader reads from the same deal written card by card, scores, audits clean and is
analysed; a card the rules forbid is refused with the audit's sentence and nothing is stored."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from preflog.analysis import Options
from preflog.analysis import analyze_events
from preflog.engine.replay import audit
from preflog.model.cards import parse_card
from preflog.model.events import Event
from preflog.record.api import read_records
from preflog.workspace import Workspace
from tests.deals import SEVEN_SPADES

from .conftest import csrf as _csrf

NAMES = ["Анна", "Борис", "Вера"]
# The card-level deal of docs/record-format.md's example (Vera deals, so Anna is first hand), played out
# to the tenth trick instead of its claim.
HANDS = ("As Ks Qs Js 10s Ac Kc Ad Kd 7h", "9s 8s Qc Jc 10c Qd Jd 10d Ah Kh", "7s 9c 8c 7c 9d 8d 7d Qh Jh 10h")
TALON = "9h 8h"
AUCTION = ["6s", "6c", "pass", "6c · hold", "pass"]
TRICKS = ["As 9s 7s", "Ks 8s 9c", "Ac 10c 8c", "Kc Jc 7c", "Ad 10d 7d", "Kd Jd 8d", "9h Ah 10h", "Kh Qh Qs",
          "Js Qc 9d", "10s Qd Jh"]
HEAD = """[Players "Анна, Борис, Вера"]
[Rules "sochi"]
[Pool "14"]

Deal 1: dealer C
""" + SEVEN_SPADES + "Whist: B whist, C pass, B open\n"
WHOLE = HEAD + "".join(f"{k}: {t}\n" for k, t in enumerate(TRICKS, 1))


def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def _deal_events(text: str) -> list[Event]:
    """The events the record reader reads for the deal(s) of ``text`` (the pulka's own start left out)."""
    (rec,) = read_records(text, "test")
    return list(rec.events)[1:]


def _start(c: TestClient) -> str:
    r = c.post("/api/pulkas", json={"players": NAMES, "rules": "sochi", "pool": 14, "whist_price": "1",
                                    "date": "2026-12-03"}, headers=_csrf(c))
    assert r.status_code == 201, r.text
    pid: str = r.json()["id"]
    return pid


class Phone:
    """Taps a card-level draft as the page does: each step one of the options the server offered."""

    def __init__(self, c: TestClient, pid: str, hands: list[list[int]], talon: list[int]) -> None:
        self.c, self.pid = c, pid
        self.draft: dict[str, Any] = {"hands": hands, "talon": talon, "steps": []}
        self.view = self.ask()

    def ask(self, draft: dict[str, Any] | None = None) -> Any:
        r = self.c.post(f"/api/pulka/{self.pid}/cards/draft", json={"draft": draft or self.draft},
                        headers=_csrf(self.c))
        assert r.status_code == 200, r.text
        return r.json()

    def option(self, label: str) -> None:
        steps = [o["step"] for o in self.view["options"] if o["label"] == label]
        assert steps, f"{label!r} not among {[o['label'] for o in self.view['options']]}"
        self.draft["steps"].append(steps[0])
        self.view = self.ask()

    def discard(self, text: str) -> None:
        cards = _cards(text)
        assert set(cards) <= set(self.view["cards"]) and self.view["phase"] == "discard"
        self.draft["steps"].append(["discard", self.view["declarer"], cards])
        self.view = self.ask()

    def play(self, text: str) -> None:
        for card in _cards(text):
            assert card in self.view["cards"], f"{text}: {card} is not offered ({self.view['cards']})"
            self.draft["steps"].append(["card", self.view["to_move"], card])
            self.view = self.ask()


def _bid_and_call(phone: Phone) -> None:
    for label in AUCTION:
        phone.option(label)
    phone.discard("8h 7h")
    phone.option("7s")
    phone.option("whist · вист")
    phone.option("pass · пас")
    phone.option("open · в светлую")


def test_a_whole_deal_entered_card_by_card_is_the_readers_deal_and_scores(client: TestClient) -> None:
    pid = _start(client)
    # Anna's and Boris's hands and the talon tapped: Vera's hand is what is left
    phone = Phone(client, pid, [_cards(HANDS[0]), _cards(HANDS[1]), []], _cards(TALON))
    assert phone.view["complete"] and sorted(phone.view["hands"][2]) == sorted(_cards(HANDS[2]))
    phone.draft["hands"], phone.draft["talon"] = phone.view["hands"], phone.view["talon"]
    assert phone.view["phase"] == "auction" and phone.view["to_move"] == 0   # Vera dealt: Anna is first hand
    _bid_and_call(phone)
    assert phone.view["phase"] == "play" and phone.view["to_move"] == 0
    for trick in TRICKS:
        phone.play(trick)
    assert phone.view["done"] and phone.view["taken"] == [9, 1, 0]
    assert phone.view["text"] == WHOLE.split("\n\n", 1)[1].strip()   # the block as the record writes it

    r = client.post(f"/api/pulka/{pid}/cards", json={"expected_seq": 1, "draft": phone.draft}, headers=_csrf(client))
    assert r.status_code == 201, r.text
    state = r.json()
    stored = Workspace(client.app.state.server.ws.root).store().read(pid)  # type: ignore[attr-defined]
    assert stored[1:] == _deal_events(WHOLE)
    assert state["findings"] == [] and state["deals"] == 1 and state["seq"] == len(stored)
    # Sochi, 7♠ made with 9 tricks: a seven is worth 4, so Anna writes 4 in her pulya. Boris whisted alone
    # (Vera passed) and answers for the side's 2 tricks of a seven; the side took 1 (the A♥): 1 trick short
    # x 4 = 4 in his gora, and he writes the side's 1 trick x 4 = 4 visty on Anna. Vera writes nothing.
    totals = state["totals"]
    assert totals["pulya"] == {"Анна": 4, "Борис": 0, "Вера": 0}
    assert totals["gora"] == {"Анна": 0, "Борис": 4, "Вера": 0}
    assert totals["visty"]["Борис"] == {"Анна": 4, "Вера": 0}
    assert totals["visty"]["Вера"] == {"Анна": 0, "Борис": 0}
    # the analysis (double dummy) takes the deal: Anna's nine top tricks (five spades, the minor aces and
    # kings, no more: Boris's A♥ K♥ stop hearts), and its page is the viewer of a card-level deal
    (analysed,) = analyze_events(pid, stored, None, Options(discard=True)).deals
    assert analysed.double_dummy == 9 and analysed.actual == 9 and analysed.made
    page = client.get(f"/pulka/{pid}/analysis")
    assert page.status_code == 200 and '"paper":false' in page.text and '"hands":[' in page.text


def test_the_hands_wait_until_only_one_place_is_left(client: TestClient) -> None:
    pid = _start(client)
    phone = Phone(client, pid, [_cards(HANDS[0]), [], []], _cards(TALON))
    assert not phone.view["complete"] and "phase" not in phone.view   # two hands short: nothing is guessed
    view = phone.ask({"hands": [_cards(h) for h in HANDS], "talon": [], "steps": []})
    assert view["complete"] and sorted(view["talon"]) == sorted(_cards(TALON))   # the talon is what is left


def test_a_card_the_rules_forbid_is_refused_with_the_audits_sentence(client: TestClient) -> None:
    pid = _start(client)
    phone = Phone(client, pid, [_cards(h) for h in HANDS], _cards(TALON))
    _bid_and_call(phone)
    assert phone.view["claim"]       # before the first card the tricks may be claimed …
    phone.play("As")
    assert not phone.view["claim"]   # … but not in the middle of a trick (a record claims between tricks)
    assert parse_card("Qc") not in phone.view["cards"]   # Boris holds spades: only they are offered
    # Boris plays the Q♣ on the A♠ anyway (a page that offered it): the revoke the audit finds in the record
    revoke = HEAD + "1: As Qc 7s\n"
    (finding,) = audit([read_records(revoke, "test")[0].events[0], *_deal_events(revoke)]).findings
    assert finding.code == "must_follow_suit" and "Борис" in finding.message
    bad = {**phone.draft, "steps": [*phone.draft["steps"], ["card", 1, parse_card("Qc")]]}
    r = client.post(f"/api/pulka/{pid}/cards/draft", json={"draft": bad}, headers=_csrf(client))
    assert r.status_code == 422 and r.json()["error"] == finding.message
    assert r.json()["step"] == len(bad["steps"]) - 1
    # entered as a deal (with a claim to finish it): refused with the same sentence, nothing stored
    bad["steps"].append(["claim", [8, 1, 0]])
    r = client.post(f"/api/pulka/{pid}/cards", json={"expected_seq": 1, "draft": bad}, headers=_csrf(client))
    assert r.status_code == 422 and r.json()["error"] == finding.message
    assert len(client.get(f"/api/pulka/{pid}").json()["history"]) == 0
    assert client.get(f"/api/pulka/{pid}").json()["seq"] == 1


def test_hands_known_and_play_cut_short_by_a_claim(client: TestClient) -> None:
    """A deal in part at card level: the hands and the auction, two tricks, then the rest claimed (the
    record's ``Claim:`` line); the contract without its auction is the engine's contract_without_auction."""
    pid = _start(client)
    phone = Phone(client, pid, [_cards(h) for h in HANDS], _cards(TALON))
    _bid_and_call(phone)
    phone.play(TRICKS[0] + " " + TRICKS[1])
    assert phone.view["claim"] and phone.view["remaining"] == 8
    phone.draft["steps"].append(["claim", [7, 1, 0]])
    phone.view = phone.ask()
    assert phone.view["done"] and phone.view["taken"] == [9, 1, 0]
    r = client.post(f"/api/pulka/{pid}/cards", json={"expected_seq": 1, "draft": phone.draft}, headers=_csrf(client))
    assert r.status_code == 201, r.text
    stored = client.app.state.server.ws.store().read(pid)  # type: ignore[attr-defined]
    assert stored[1:] == _deal_events(HEAD + f"1: {TRICKS[0]}\n2: {TRICKS[1]}\nClaim: A 7, B 1, C 0\n")
    # no auction: the engine refuses the contract once the hands are known
    draft = {"hands": [_cards(h) for h in HANDS], "talon": _cards(TALON), "steps": [["contract", 0, 71]]}
    r = client.post(f"/api/pulka/{pid}/cards/draft", json={"draft": draft}, headers=_csrf(client))
    assert r.status_code == 422 and "auction" in r.json()["error"]


def test_an_unfinished_deal_or_a_bad_shape_is_refused_and_nothing_is_stored(client: TestClient) -> None:
    pid = _start(client)
    draft = {"hands": [_cards(h) for h in HANDS], "talon": _cards(TALON), "steps": [["bid", 0, 61]]}
    r = client.post(f"/api/pulka/{pid}/cards", json={"expected_seq": 1, "draft": draft}, headers=_csrf(client))
    assert r.status_code == 400 and "not finished" in r.json()["error"]
    for bad in ({"hands": [[40], [], []], "talon": []}, {"hands": [[1, 1], [], []], "talon": []},
                {"hands": [[], []], "talon": []}, {"hands": [[], [], []], "talon": [], "steps": [["fly", 0, 1]]},
                {"hands": [[], [], []], "talon": [], "steps": [["bid", 0, 61]]},    # steps before the hands
                {"hands": [[], [], []], "talon": [], "dealer": 3}):
        r = client.post(f"/api/pulka/{pid}/cards/draft", json={"draft": bad}, headers=_csrf(client))
        assert r.status_code == 400, bad
    # a write like the others: without the page's CSRF token nothing is even looked at
    assert client.post(f"/api/pulka/{pid}/cards", json={"expected_seq": 1, "draft": draft}).status_code == 403
    assert client.post(f"/api/pulka/{pid}/cards/draft", json={"draft": draft}).status_code == 403
    # another entry came first: 409 with the state as it stands
    r = client.post(f"/api/pulka/{pid}/cards", json={"expected_seq": 0, "draft": draft}, headers=_csrf(client))
    assert r.status_code == 409 and r.json()["state"]["seq"] == 1
    assert client.get(f"/api/pulka/{pid}").json()["seq"] == 1


def test_four_players_raspasy_at_card_level_leads_from_the_talon(client: TestClient) -> None:
    """At four players the dealer sits out with no hand; in raspasy (Sochi) the talon's cards lead the
    first two tricks (the record writes them in parentheses; they are nobody's play and no event)."""
    r = client.post("/api/pulkas", json={"players": [*NAMES, "Глеб"], "rules": "sochi", "pool": 14,
                                         "whist_price": "1"}, headers=_csrf(client))
    pid = r.json()["id"]
    phone = Phone(client, pid, [_cards(HANDS[0]), _cards(HANDS[1]), [], []], _cards(TALON))
    assert phone.view["dealer"] == 3 and phone.view["dealt"] == [0, 1, 2]
    assert phone.view["complete"] and phone.view["hands"][3] == []     # Vera's hand is what is left
    gleb = {"hands": [[], [], [], _cards("7s")], "talon": []}
    r = client.post(f"/api/pulka/{pid}/cards/draft", json={"draft": gleb}, headers=_csrf(client))
    assert r.status_code == 400 and "sits out" in r.json()["error"]     # the dealer is dealt nothing
    phone.draft["hands"], phone.draft["talon"] = phone.view["hands"], phone.view["talon"]
    for _ in range(3):
        phone.option("pass")
    # the 8♥ of the talon leads: Anna must follow hearts with her only one; the page says what leads
    assert phone.view["phase"] == "play" and phone.view["cards"] == _cards("7h")
    assert phone.view["talon_leads"] == {"talon": _cards("8h 9h"), "suits": ["♥"]}
    phone.play("7h Kh 10h")
    assert phone.view["taken"] == [0, 1, 0, 0] and phone.view["claim"] and phone.view["remaining"] == 9
    assert phone.view["talon_leads"] == {"talon": _cards("8h 9h"), "suits": ["♥"]}   # the 9♥ leads the second
    phone.draft["steps"].append(["claim", [3, 3, 3, 0]])
    assert phone.ask()["done"]
    r = client.post(f"/api/pulka/{pid}/cards", json={"expected_seq": 1, "draft": phone.draft}, headers=_csrf(client))
    assert r.status_code == 201, r.text
    assert r.json()["findings"] == []
    record = ('[Players "Анна, Борис, Вера, Глеб"]\n[Rules "sochi"]\n[Pool "14"]\n\nDeal 1: dealer D\n'
              + "".join(f"{s}: {h}\n" for s, h in zip("ABC", HANDS, strict=True))
              + "Talon: 9h 8h\nAuction: all pass\n1: (8h) 7h Kh 10h\nClaim: A 3, B 3, C 3, D 0\n")
    stored = client.app.state.server.ws.store().read(pid)  # type: ignore[attr-defined]
    assert stored[1:] == _deal_events(record)


def test_open_raspasy_says_which_talon_suit_leads_once_the_first_card_shows_it(client: TestClient) -> None:
    """Sochi's open raspasy at three players with a talon of two suits (9♥ and 8♦, Vera holding the 8♥): at the
    first trick either suit may be followed and the page says so; Anna's A♦ shows the 8♦ was turned first,
    and the second trick is the 9♥'s."""
    r = client.post("/api/pulkas", json={"players": NAMES, "rules": "sochi", "pool": 14, "whist_price": "1"},
                    headers=_csrf(client))
    pid = r.json()["id"]
    vera = HANDS[2].replace("8d", "8h")
    phone = Phone(client, pid, [_cards(HANDS[0]), _cards(HANDS[1]), _cards(vera)], _cards("9h 8d"))
    for _ in range(3):
        phone.option("pass")
    assert phone.view["talon_leads"] == {"talon": _cards("8d 9h"), "suits": ["♦", "♥"]}
    assert sorted(phone.view["cards"]) == sorted(_cards("Ad Kd 7h"))   # a card of either talon suit
    phone.play("Ad")
    assert phone.view["talon_leads"] == {"talon": _cards("8d 9h"), "suits": ["♦"]}
    phone.play("Qd 7d")
    assert phone.view["talon_leads"] == {"talon": _cards("8d 9h"), "suits": ["♥"]}
    assert phone.view["to_move"] == 0 and sorted(phone.view["cards"]) == sorted(_cards("7h"))
    phone.play("7h Kh 10h")
    assert phone.view["completed"] == 2 and phone.view["talon_leads"] is None    # the talon has led its two


def test_a_contract_has_no_talon_leading(client: TestClient) -> None:
    r = client.post("/api/pulkas", json={"players": NAMES, "rules": "sochi", "pool": 14, "whist_price": "1"},
                    headers=_csrf(client))
    phone = Phone(client, r.json()["id"], [_cards(h) for h in HANDS], _cards(TALON))
    _bid_and_call(phone)
    assert phone.view["phase"] == "play" and phone.view["talon_leads"] is None
