"""The rest of the Russian paper-level live entry: open or closed whisting, the half-whist's return (by the
passer or the sitting-out dealer), the dealer's whist after two passes, «без трёх», and what the form is
offered under the pulka's rules (asked of the engine, :func:`preflog.application.entry.paper_choices`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from preflog.application.entry import DealEntry
from preflog.application.entry import EntryError
from preflog.application.entry import deal_events
from preflog.application.entry import paper_choices
from preflog.application.entry import table_of
from preflog.model.events import Event
from preflog.model.events import PulkaStarted
from preflog.record.api import read_text
from preflog.workspace import Workspace

from .conftest import csrf

PLAYERS3 = "Anna, Boris, Vera"
PLAYERS4 = "Anna, Boris, Vera, Gleb"


def _head(players: str, options: tuple[str, ...] = ()) -> str:
    opts = "".join(f'[Option "{o}"]\n' for o in options)
    return f'[Players "{players}"]\n[Rules "sochi"]\n{opts}[Pool "20"]\n\n'


def _read(players: str, options: tuple[str, ...], block: str) -> tuple[list[Event], list[Event]]:
    """The pulka's start and the events the record reader reads for one deal block."""
    events = read_text(_head(players, options) + block)
    return events[:1], events[1:]


# Each: the record's block as a scorer writes it on paper, and the same deal as the form enters it.
CASES: list[tuple[str, str, tuple[str, ...], str, dict[str, Any]]] = [
    ("open whist", PLAYERS3, (),
     "Deal 1: dealer C\nContract: A 6s\nWhist: B whist, C pass, B open\nTricks: A 6, B 2, C 2\n",
     {"kind": "contract", "declarer": 0, "contract": "6s", "calls": {"1": "whist", "2": "pass"}, "mode": "open",
      "tricks": [6, 2, 2]}),
    ("closed whist, the second defender alone", PLAYERS3, (),
     "Deal 1: dealer C\nContract: A 7h\nWhist: B pass, C whist, C closed\nTricks: A 7, B 1, C 2\n",
     {"kind": "contract", "declarer": 0, "contract": "7h", "calls": {"1": "pass", "2": "whist"}, "mode": "closed",
      "tricks": [7, 1, 2]}),
    ("half-whist returned by the passer", PLAYERS3, (),
     "Deal 1: dealer C\nContract: A 7s\nWhist: B pass, C half, B return\nTricks: A 6, B 4, C 0\n",
     {"kind": "contract", "declarer": 0, "contract": "7s", "calls": {"1": "pass", "2": "half"}, "returned_by": 1,
      "tricks": [6, 4, 0]}),
    ("returned and played open", PLAYERS3, (),
     "Deal 1: dealer C\nContract: A 6c\nWhist: B pass, C half, B return, B open\nTricks: A 6, B 3, C 1\n",
     {"kind": "contract", "declarer": 0, "contract": "6c", "calls": {"1": "pass", "2": "half"}, "returned_by": 1,
      "mode": "open", "tricks": [6, 3, 1]}),
    ("half-whist returned by the sitting-out dealer", PLAYERS4, (),
     "Deal 1: dealer D\nContract: A 6d\nWhist: B pass, C half, B pass, D whist\nTricks: A 6, B 4, C 0, D 0\n",
     {"kind": "contract", "declarer": 0, "contract": "6d", "calls": {"1": "pass", "2": "half"}, "returned_by": 3,
      "tricks": [6, 4, 0, 0]}),
    ("the first defender's half-whist returned by the dealer", PLAYERS4, ("half_whist_by=either",),
     "Deal 1: dealer D\nContract: A 7c\nWhist: B half, C pass, D whist\nTricks: A 7, B 2, C 1, D 0\n",
     {"kind": "contract", "declarer": 0, "contract": "7c", "calls": {"1": "half", "2": "pass"}, "returned_by": 3,
      "tricks": [7, 2, 1, 0]}),
    ("the dealer whists after two passes", PLAYERS4, ("dealer_whists_after_passes=true",),
     "Deal 1: dealer D\nContract: A 6d\nWhist: B pass, C pass, D whist, D open\nTricks: A 5, B 3, C 2, D 0\n",
     {"kind": "contract", "declarer": 0, "contract": "6d", "calls": {"1": "pass", "2": "pass"}, "returned_by": 3,
      "mode": "open", "tricks": [5, 3, 2, 0]}),
    ("concede down three", PLAYERS3, ("allow_concede_down3=true",),
     "Deal 1: dealer C\nContract: A 7NT\nWhist: B whist, C pass, A без трёх\n",
     {"kind": "contract", "declarer": 0, "contract": "7NT", "calls": {"1": "whist", "2": "pass"},
      "conceded": True}),
]


@pytest.mark.parametrize(("players", "options", "block", "entry"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_an_entry_writes_the_events_the_record_reader_reads(players: str, options: tuple[str, ...], block: str,
                                                            entry: dict[str, Any]) -> None:
    start, wanted = _read(players, options, block)
    table = table_of(start)
    n = len(table.players)
    assert deal_events(DealEntry.from_json(entry, n), table) == wanted


def test_the_extras_are_checked_for_their_shape() -> None:
    base = {"kind": "contract", "declarer": 0, "contract": "6s", "calls": {"1": "whist", "2": "pass"}}
    for bad, word in (({"mode": "lit"}, "open"), ({"returned_by": 5}, "seat"), ({"conceded": "yes"}, "true")):
        with pytest.raises(EntryError, match=word):
            DealEntry.from_json({**base, **bad}, 3)


def _table(players: str, *options: str) -> Any:
    start, _ = _read(players, options, "")
    return table_of(start)


def test_the_form_is_offered_what_the_engine_allows_under_the_rules() -> None:
    sochi = paper_choices(_table(PLAYERS3))
    # a misère and (Sochi: ten_mode=checked) a ten are not whisted; 6s and 9NT are
    assert "6s" in sochi["whisted"] and "9NT" in sochi["whisted"]
    assert "miser" not in sochi["whisted"] and "10s" not in sochi["whisted"]
    # half-whist on 6 and 7 by the second defender after a pass (half_whist_levels, half_whist_by=second)
    assert "6h" in sochi["half_second"] and "7NT" in sochi["half_second"] and "8s" not in sochi["half_second"]
    assert sochi["half_first"] == []
    assert sochi["returns"] and sochi["open_closed"]
    assert not sochi["concede"] and not sochi["dealer_returns"] and not sochi["dealer_whists"]
    assert "miser" in sochi["unwhisted"] and "6s" not in sochi["unwhisted"]   # nobody calls on a misère
    assert paper_choices(_table(PLAYERS3, "allow_concede_down3=true"))["concede"]
    assert not paper_choices(_table(PLAYERS3, "open_play_choice=never"))["open_closed"]
    assert paper_choices(_table(PLAYERS3, "half_whist_by=either"))["half_first"] == sochi["half_second"]
    sevens = paper_choices(_table(PLAYERS3, "half_whist_levels=[7]"))  # a return is asked where half may be said
    assert sevens["returns"] and "6s" not in sevens["half_second"] and "7s" in sevens["half_second"]
    four = paper_choices(_table(PLAYERS4))
    assert four["dealer_returns"] and not four["dealer_whists"]
    assert paper_choices(_table(PLAYERS4, "dealer_whists_after_passes=true"))["dealer_whists"]


# --- over HTTP: stored, scored, refused ----------------------------------------------------------------
def _begin(store: Path, pid: str, players: tuple[str, ...], *options: tuple[str, Any]) -> None:
    """A pulka with ``options`` in the store (the start form takes a preset only)."""
    started = PulkaStarted(players=players, rules="sochi", overrides=tuple(options), pool=20, whist_price="1")
    Workspace(store).store(create=True).append(pid, [started], 0)


def _enter(c: TestClient, pid: str, deal: dict[str, Any]) -> Any:
    seq = c.get(f"/api/pulka/{pid}").json()["seq"]
    return c.post(f"/api/pulka/{pid}/deals", json={"expected_seq": seq, "deal": deal},
                  headers=csrf(c))


NAMES = ("Anna", "Boris", "Vera")


def _stored_deal(store: Path, pid: str, block: str, players: str = PLAYERS3) -> None:
    """The last deal stored is the record reader's events for ``block``."""
    events = Workspace(store).store().read(pid)
    _, wanted = _read(players, (), block)
    assert events[-len(wanted):] == wanted


def test_an_open_whist_is_stored_and_the_whister_writes_for_both_hands(store: Path, client: TestClient) -> None:
    _begin(store, "p1", NAMES)
    r = _enter(client, "p1", {"kind": "contract", "declarer": 0, "contract": "6s",
                              "calls": {"1": "whist", "2": "pass"}, "mode": "open", "tricks": [6, 2, 2]})
    assert r.status_code == 201, r.text
    _stored_deal(store, "p1", "Deal 1: dealer C\nContract: A 6s\nWhist: B whist, C pass, B open\n"
                              "Tricks: A 6, B 2, C 2\n")
    # By hand (the Russian rule text's example of a lone whister playing both hands): a 6-game is worth 2;
    # the defending side took 4 tricks, and the lone whister writes them all, 2 × 4 = 8; the passer nothing.
    t = r.json()["totals"]
    assert t["pulya"]["Anna"] == 2 and t["visty"]["Boris"]["Anna"] == 8 and t["visty"]["Vera"]["Anna"] == 0
    assert r.json()["last_deal"].endswith("Whist: B whist, C pass, B open\nTricks: A 6, B 2, C 2")


def test_open_play_with_two_whisters_is_refused_with_the_engines_sentence(store: Path, client: TestClient) -> None:
    _begin(store, "p2", NAMES)
    r = _enter(client, "p2", {"kind": "contract", "declarer": 0, "contract": "6s",
                              "calls": {"1": "whist", "2": "whist"}, "mode": "open", "tricks": [6, 2, 2]})
    assert r.status_code == 422 and "play mode" in r.json()["error"]
    assert client.get("/api/pulka/p2").json()["seq"] == 1  # nothing written


def test_a_returned_half_whist_scores_as_the_rule_texts_example(store: Path, client: TestClient) -> None:
    _begin(store, "p3", NAMES)
    # deal 1: a half-whist left standing on a 7: the contract counts as made (pulya 4) and the half-whister
    # writes one trick's worth, 4 × 1 = 4
    r = _enter(client, "p3", {"kind": "contract", "declarer": 0, "contract": "7s", "calls": {"1": "pass", "2": "half"}})
    assert r.status_code == 201, r.text
    t = r.json()["totals"]
    assert t["pulya"]["Anna"] == 4 and t["visty"]["Vera"]["Anna"] == 4
    # deal 2 (Boris deals): Vera plays 7♥, Anna passes, Boris half-whists, Anna returns the whist and takes 4
    # of the defence's tricks: Vera is down one (gora 4 × 1 = 4); Anna writes 4 × 4 for the tricks + 4 × 1
    # consolation + 4 × 1 the half-whister's consolation = 24, and Boris («за свои») writes nothing.
    r = _enter(client, "p3", {"kind": "contract", "declarer": 2, "contract": "7h",
                              "calls": {"0": "pass", "1": "half"}, "returned_by": 0, "tricks": [4, 0, 6]})
    assert r.status_code == 201, r.text
    _stored_deal(store, "p3", "Deal: dealer A\nContract: C 7h\nWhist: A pass, B half, A return\n"
                              "Tricks: A 4, B 0, C 6\n")
    t = r.json()["totals"]
    assert t["gora"]["Vera"] == 4 and t["visty"]["Anna"]["Vera"] == 24 and t["visty"]["Boris"]["Vera"] == 0
    assert "Whist: A pass, B half, A return" in r.json()["last_deal"]


def test_a_concession_down_three_is_stored_and_scored_where_the_table_allows_it(store: Path,
                                                                               client: TestClient) -> None:
    _begin(store, "p4", NAMES, ("allow_concede_down3", True))
    r = _enter(client, "p4", {"kind": "contract", "declarer": 0, "contract": "7NT",
                              "calls": {"1": "whist", "2": "pass"}, "conceded": True})
    assert r.status_code == 201, r.text
    _stored_deal(store, "p4", "Deal 1: dealer C\nContract: A 7NT\nWhist: B whist, C pass, A concede\n")
    # by hand: a 7-game is worth 4; down three is 4 × 3 = 12 gora, and nobody writes visty
    t = r.json()["totals"]
    assert t["gora"]["Anna"] == 12 and t["pulya"]["Anna"] == 0
    assert all(v == 0 for row in t["visty"].values() for v in row.values())


def test_a_concession_is_refused_under_rules_that_do_not_allow_it(store: Path, client: TestClient) -> None:
    _begin(store, "p5", NAMES)
    r = _enter(client, "p5", {"kind": "contract", "declarer": 0, "contract": "7NT",
                              "calls": {"1": "whist", "2": "pass"}, "conceded": True})
    assert r.status_code == 422
    assert r.json()["error"] == "conceding down three («без трёх») is not allowed in these rules " \
                                "(allow_concede_down3 false)"
    assert r.json()["findings"][0]["code"] == "concede_not_allowed"
    assert client.get("/api/pulka/p5").json()["seq"] == 1


def test_the_state_tells_the_form_what_these_rules_offer(store: Path, client: TestClient) -> None:
    _begin(store, "p6", NAMES, ("allow_concede_down3", True))
    state = client.get("/api/pulka/p6").json()
    paper = state["paper"]
    assert paper["concede"] and paper["open_closed"] and state["terms"]["all_pass"] == "Raspasy"
    assert "10NT" not in paper["whisted"]  # Sochi checks a ten: its defenders do not call


def test_a_deal_corrected_to_a_returned_open_whist_exports_and_reads_back(store: Path, client: TestClient) -> None:
    from preflog.record.api import read_records

    _begin(store, "p7", NAMES)
    r = _enter(client, "p7", {"kind": "contract", "declarer": 0, "contract": "7s", "calls": {"1": "pass", "2": "half"}})
    assert r.status_code == 201, r.text
    fixed = {"kind": "contract", "declarer": 0, "contract": "7s", "calls": {"1": "pass", "2": "half"},
             "returned_by": 1, "mode": "open", "tricks": [7, 3, 0]}
    r = client.post("/api/pulka/p7/correct", json={"expected_seq": r.json()["seq"], "deal": 1, "entry": fixed},
                    headers=csrf(client))
    assert r.status_code == 201, r.text
    assert "Whist: B pass, C half, B return, B open\nTricks: A 7, B 3, C 0" in r.json()["last_deal"]
    # by hand: the 7 is made (pulya 4); the returner writes the side's 3 tricks, 4 × 3 = 12; the half-whist
    # entered first no longer counts (Vera's 4 are gone)
    t = r.json()["totals"]
    assert t["pulya"]["Anna"] == 4 and t["visty"]["Boris"]["Anna"] == 12 and t["visty"]["Vera"]["Anna"] == 0
    text = client.get("/pulka/p7/record").text
    (back,) = read_records(text)
    # (the export names the pulka by its id, a tag the pulka stored here without the start form lacks)
    assert list(back.events)[1:] == Workspace(store).store().read("p7")[1:] and back.id == "p7"
