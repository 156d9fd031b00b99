"""What a new user of the Python API meets first (docs/api.md): reprs that say where things stand with
cards spelled as cards, settlements under the players' names, and a workspace that refuses a missing store
and an unknown name as ``preflog`` does, with fields to read and no command-line flag in the message."""

from __future__ import annotations

import pickle
import re
from fractions import Fraction
from pathlib import Path

import pytest

from preflog import AuditFailed
from preflog import NoStoreError
from preflog import NotStoredError
from preflog import Workspace
from preflog import WorkspaceError
from preflog import audit
from preflog import read_text
from preflog import replay
from preflog import state_at
from preflog.engine.standings import PlayerSettlement
from preflog.model.cards import parse_cards
from preflog.model.events import CardPlayed
from preflog.model.events import DealStarted
from preflog.model.events import Discarded
from preflog.model.events import TalonRevealed

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"

DEAL = """[Players "Anna, Boris, Vera"]
[Rules "sochi"]
Deal 1: dealer C
A: As Ks Qs Js 9c 8c Ad Kd 7h 8h
B: 10s 9s Ac Kc Qc Qd Jd Ah Kh 9h
C: 8s 7s Jc 10c 7c 10d 9d 8d Qh Jh
Talon: 7d 10h
Auction: A 6s, B pass, C pass
Discard: A 7d 10h
Contract: A 6s
Whist: B whist, C whist
1: As 9s 7s
2: Ks 10s 8s
3: Ad Jd 8d
4: Kd Qd 9d
5: Qs 9h 7c
6: Js Qc 10c
7: 9c Kc Jc
8: Ah Jh 7h
9: Ac 10d 8c
10: Kh Qh 8h
"""

MASK = re.compile(r"\d{5,}")  # a card mask of a hand is a number of many digits


# ---------------------------------------------------------------- reprs
def test_card_events_show_cards_not_masks() -> None:
    """DealStarted spells each hand and the talon as a record writes them (high to low in ♠ ♣ ♦ ♥); the
    sitting-out dealer's empty hand is '-'; the other card events spell their cards too."""
    events = read_text(DEAL)
    text = repr(events[1])
    assert text == ("DealStarted(dealer=2, hands=('As Ks Qs Js 9c 8c Ad Kd 8h 7h', '10s 9s Ac Kc Qc Qd Jd Ah Kh 9h', "
                    "'8s 7s Jc 10c 7c 10d 9d 8d Qh Jh'), talon='7d 10h')")
    assert not MASK.search(text)
    four = DealStarted(dealer=3, hands=(parse_cards("As Ks Qs Js 10s 9s 8s 7s Ac Kc"),
                                        parse_cards("Qc Jc 10c 9c 8c 7c Ad Kd Qd Jd"),
                                        parse_cards("10d 9d 8d 7d Ah Kh Qh Jh 10h 9h"), 0), talon=parse_cards("8h 7h"))
    assert repr(four).endswith("'10d 9d 8d 7d Ah Kh Qh Jh 10h 9h', '-'), talon='8h 7h')")
    assert repr(DealStarted(dealer=0)) == "DealStarted(dealer=0, hands=None, talon=None)"
    assert repr(TalonRevealed(parse_cards("7d 10h"))) == "TalonRevealed(cards='7d 10h')"
    assert repr(Discarded(0, parse_cards("10h 7d"))) == "Discarded(player=0, cards='7d 10h')"
    assert repr(CardPlayed(2, 11)) == "CardPlayed(player=2, card='10c')"
    assert events[1] == DealStarted(2, events[1].hands, events[1].talon)   # values unchanged: masks inside


def test_workspace_pulka_state_and_deal_reprs(tmp_path: Path) -> None:
    """After event 13 (Anna leads K♠ to trick 2): the pulka names its rules, players, pool, deal and sheet;
    the deal its number, dealer, phase, contract, tricks, the cards on the table, who is to move and the
    hands, all by name and card."""
    assert repr(Workspace(tmp_path / "store")) == f"Workspace({str(tmp_path / 'store')!r})"
    state = state_at(read_text(DEAL), 13)
    assert repr(state) == "<PulkaState sochi, Anna, Boris, Vera, pool 50; deal 1 (play); pulya 0 0 0, gora 0 0 0>"
    deal = repr(state.deal)
    assert deal == ("<RussianDeal 1, dealer Vera, play; contract Anna 6s; tricks Anna 1, Boris 0, Vera 0; on the table "
                    "Ks; Boris to move; hands Anna: Qs Js 9c 8c Ad Kd 8h 7h, Boris: 10s Ac Kc Qc Qd Jd Ah Kh 9h, "
                    "Vera: 8s Jc 10c 7c 10d 9d 8d Qh Jh>")
    end = state_at(read_text(DEAL), 39)
    assert repr(end).endswith("deal 1 (done); pulya 2 0 0, gora 0 0 0>")
    assert repr(end.deal).startswith("<RussianDeal 1, dealer Vera, done; contract Anna 6s; game; tricks Anna 6, ")


def test_paper_and_croatian_deal_reprs() -> None:
    """A paper deal has no hands to show; a Croatian deal and pulka speak the family's words."""
    paper = read_text('[Players "Anna, Boris, Vera"]\n[Rules "sochi"]\nDeal 1: dealer C\nAuction: A 6s, B 6c\n')
    assert repr(state_at(paper, 4).deal) == ("<RussianDeal 1, dealer Vera, auction (paper); auction Anna 6s, Boris 6c; "
                                            "Vera to move>")
    hr = read_text('[Players "Ana, Branko, Cvita"]\n[Rules "croatian"]\nDeal 1: dealer C\nAuction: A 2, B igra\n')
    text = repr(state_at(hr, 4).deal)
    assert text.startswith("<CroatianDeal 1, dealer Cvita, auction (paper); auction Ana 2, Branko igra")
    # the sheet in the family's words: the contract column starting at -30, no gora
    assert repr(state_at(hr, 4)) == ("<PulkaState croatian, Ana, Branko, Cvita, pool 50; deal 1 (auction); "
                                     "column -30 -30 -30>")


def test_replay_steps_are_the_live_state() -> None:
    """replay yields (seq, event, pulka, deal) after each event, seq counted from 1; state_at(seq) is the
    state after event seq; an illegal event raises AuditFailed."""
    events = read_text(DEAL)
    seen = [(step.seq, step.deal.phase_name if step.deal else None) for step in replay(events)]
    assert seen[:3] == [(1, None), (2, "auction"), (3, "auction")] and seen[-1] == (39, "done")
    assert state_at(events, 9).deal is not None and state_at(events, 9).deal.phase_name == "play"
    bad = read_text(DEAL.replace("Auction: A 6s, B pass, C pass", "Auction: A 6s, B pass, C pass, A 7s"))
    with pytest.raises(AuditFailed):
        list(replay(bad))


# ---------------------------------------------------------------- settlements by name
def test_settlement_by_player_name_keeps_seat_access() -> None:
    """The api.md deal: exact +16/3, +4/3, −20/3; method 1 (shown under Sochi) 6, 1, −7; method 2 5, 2, −7;
    money at 1 a vist = method 1. By name and by seat, the same numbers."""
    result = audit(read_text(DEAL))
    st = result.settlement
    assert st is not None and st.method1 == (6, 1, -7)   # by seat, as before
    named = result.settlement_by_player
    assert list(named) == ["Anna", "Boris", "Vera"]
    assert named["Anna"] == PlayerSettlement(Fraction(16, 3), 6, 5, 6, Fraction(6))
    assert named["Vera"].exact == Fraction(-20, 3) and named["Vera"].shown == -7 and named["Vera"].money == -7
    for seat, name in enumerate(result.players):
        assert (named[name].exact, named[name].method1, named[name].method2) == (
            st.exact[seat], st.method1[seat], st.method2[seat])
    assert state_at(read_text(DEAL), 39).settlement_by_player() == named


def test_settlement_by_player_shows_the_croatian_exact_result() -> None:
    """Under settlement_rounding=exact (the Croatian presets) ``shown`` is the exact result."""
    events = read_text(DEAL.replace('[Rules "sochi"]', '[Rules "sochi"]\n[Option "settlement_rounding=exact"]'))
    named = audit(events).settlement_by_player
    assert {n: s.shown for n, s in named.items()} == {"Anna": Fraction(16, 3), "Boris": Fraction(4, 3),
                                                      "Vera": Fraction(-20, 3)}


# ---------------------------------------------------------------- the workspace refuses
def test_missing_store_is_refused_without_a_cli_flag(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "nowhere")
    for call in (ws.store, lambda: ws.audit("friday"), lambda: ws.stats("players"), ws.verify):
        with pytest.raises(NoStoreError) as info:
            call()
        err = info.value
        assert isinstance(err, WorkspaceError) and err.root == str(tmp_path / "nowhere")
        assert err.message == f"no preflog store at {tmp_path / 'nowhere'} (import record files into it first)"
        assert "--" not in err.message and err.fields()["root"] == err.root and err.code == "no_store_error"
    assert not (tmp_path / "nowhere").exists()
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is NoStoreError and again.root == err.root


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    ws = Workspace(tmp_path_factory.mktemp("api") / "store")
    ws.import_paths([EXAMPLES / "seed003-settlement.pref"], workers=1)
    return ws


@pytest.mark.parametrize(("options", "what", "name"), [
    ({"player": "Север"}, "player", "Север"),
    ({"preset": "leningrad"}, "preset", "leningrad"),
    ({"pulka": ["seed003-settlement", "friday"]}, "pulka", "friday"),
    ({"pulka": "friday"}, "pulka", "friday"),
])
def test_a_name_the_store_lacks_is_refused(ws: Workspace, options: dict[str, object], what: str, name: str) -> None:
    """As `preflog stats --player Север` says: no player 'Север' in the store (known players: …); the store
    holds one Sochi pulka of Запад, Восток and Юг."""
    known = {"player": ("Восток", "Запад", "Юг"), "preset": ("sochi",), "pulka": ("seed003-settlement",)}[what]
    for call in (ws.stats, ws.stats_arrow):
        with pytest.raises(NotStoredError) as info:
            call("players", **options)
        err = info.value
        assert (err.what, err.name, err.known) == (what, name, known)
        assert err.message == f"no {what} {name!r} in the store (known {what}s: {', '.join(known)})"


def test_known_names_and_dates_outside_the_store_are_answered(ws: Workspace) -> None:
    """A known name filters as before; dates outside the stored ones are a question with an empty answer."""
    assert sorted(ws.stats("players", player="Юг")["player"]) == ["Юг"]
    assert ws.stats_arrow("players", pulka=["seed003-settlement"]).num_rows == 3
    assert len(ws.stats("players", date_from="2030-01-01")) == 0


def test_an_unknown_option_is_refused(ws: Workspace) -> None:
    with pytest.raises(WorkspaceError, match=r"report 'players' has no option 'players' \(known: player, preset"):
        ws.stats("players", players="Юг")
    with pytest.raises(WorkspaceError, match="report 'players' has no option 'by'"):
        ws.stats("players", by=("level",))
    assert ws.stats("contracts", by=("level",)).shape[0] > 0
