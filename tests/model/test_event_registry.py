"""The event registry (:mod:`preflog.model.registry`) is the one place an event type is described.

Adding an event type touches the registry and its record syntax only: every place that handles events by
type — the engine's deal steps and replay, the record reader and writer, the viewer, the analysis —
reads the registry's entry (code, fields, row shape, role, deal action, stage, syntax, human text), and no
module outside a short allow-list tests an event against a chain of event classes. These tests prove both:
each entry is complete (its row, its deal action, its text and JSON syntax and its human text all work for
an example of the type), and the source holds no ``isinstance`` chain over event classes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from preflog.engine import deal as deal_module
from preflog.engine.deal import Deal
from preflog.engine.families import open_deal
from preflog.engine.findings import IllegalAction
from preflog.model import bids as B
from preflog.model import calls as C
from preflog.model import events as E
from preflog.model.cards import format_cards
from preflog.model.registry import REGISTRY
from preflog.model.registry import ROW_SHAPES
from preflog.model.registry import Role
from preflog.model.registry import Shape
from preflog.model.registry import spec_of
from preflog.record import read_json
from preflog.record import read_text
from preflog.record import write_json
from preflog.record import write_text
from preflog.rules import resolve

PACKAGE = Path(__file__).resolve().parents[2] / "preflog"

# One example of every event type, in a log the record writer can write (hands dealt, cards held). A new
# event type gets its example here, or test_every_event_type_has_an_example fails.
HANDS = (sum(1 << c for c in range(0, 10)), sum(1 << c for c in range(10, 20)), sum(1 << c for c in range(20, 30)))
TALON = (1 << 30) | (1 << 31)
CONTRACT = B.trick_bid(6, 1)   # 6♠
EXAMPLES: dict[str, list[E.Event]] = {
    E.PulkaStarted.KIND: [E.PulkaStarted(("Anna", "Boris", "Vera"), "sochi")],
    E.DealStarted.KIND: [E.DealStarted(0, HANDS, TALON)],
    E.BidMade.KIND: [E.BidMade(1, CONTRACT), E.BidMade(2, B.PASS), E.BidMade(0, B.PASS)],
    E.TalonRevealed.KIND: [E.TalonRevealed(TALON)],
    E.Discarded.KIND: [E.Discarded(1, TALON)],
    E.ContractDeclared.KIND: [E.ContractDeclared(1, CONTRACT)],
    E.WhistCalled.KIND: [E.WhistCalled(2, C.CALL_WHIST), E.WhistCalled(0, C.CALL_PASS)],
    E.PlayModeChosen.KIND: [E.PlayModeChosen(2, C.PLAY_OPEN)],
    E.ContraCalled.KIND: [E.ContraCalled(1)],
    E.CardPlayed.KIND: [E.CardPlayed(2, 20), E.CardPlayed(0, 0), E.CardPlayed(1, 10)],
    E.Claimed.KIND: [E.Claimed((3, 6, 1))],
    E.TenChecked.KIND: [E.TenChecked((3, 6, 1))],
    E.ScoreRecorded.KIND: [E.ScoreRecorded(1, 4, 0, (0, 0, 0))],
    E.PaperResult.KIND: [E.DealStarted(1), E.ContractDeclared(2, CONTRACT), E.PaperResult((2, 2, 6))],
    E.DealCorrected.KIND: [E.DealStarted(2), E.DealCorrected(2, True, "2026-12-03T12:00:00Z")],
    E.PulkaEnded.KIND: [E.PulkaEnded("closed")],
}
LOG: list[E.Event] = [ev for kind in EXAMPLES for ev in EXAMPLES[kind]]


def test_every_event_type_has_one_entry_and_an_example() -> None:
    assert [s.cls for s in REGISTRY] == list(E.EVENT_TYPES)
    assert len({s.code for s in REGISTRY}) == len(REGISTRY)
    assert set(EXAMPLES) == set(E.BY_KIND)
    for kind, evs in EXAMPLES.items():
        assert any(ev.KIND == kind for ev in evs), kind


@pytest.mark.parametrize("spec", REGISTRY, ids=lambda s: s.kind)
def test_the_row_keeps_to_the_registry_shape(spec: object) -> None:
    """Each example goes to its row and back, in the columns its shape names."""
    s = spec_of(next(ev for ev in LOG if ev.CODE == spec.code))  # type: ignore[attr-defined]
    for ev in (ev for ev in LOG if type(ev) is s.cls):
        row = ev.to_row()
        assert row[0] == s.code
        assert E.from_row(*row) == ev
        code, player, card, value, payload = row
        if s.shape in ROW_SHAPES:
            assert payload is None, s.kind
        if s.shape == Shape.PLAYER_VALUE:
            assert (player, card, value) == (ev.player, E.NO_CARD, getattr(ev, s.fields[1]))  # type: ignore[attr-defined]
        elif s.shape == Shape.VALUE:
            assert (player, card, value) == (E.NO_PLAYER, E.NO_CARD, getattr(ev, s.fields[0]))
        elif s.shape == Shape.PLAYER:
            assert (player, card, value) == (ev.player, E.NO_CARD, 0)  # type: ignore[attr-defined]
        elif s.shape == Shape.PLAYER_CARD:
            assert (player, card, value) == (ev.player, ev.card, 0)  # type: ignore[attr-defined]
        elif s.shape == Shape.TRICKS:
            assert payload is not None and '"tricks"' in payload
        elif s.shape == Shape.LAYOUT:
            assert player == ev.dealer  # type: ignore[attr-defined]
            assert payload is None or ev.hands is None  # type: ignore[attr-defined]  # packed when it has cards
        else:
            assert s.shape == Shape.PAYLOAD and payload is not None


@pytest.mark.parametrize("spec", [s for s in REGISTRY if s.role == Role.DEAL], ids=lambda s: s.kind)
def test_a_deal_event_names_its_actions_and_their_arguments(spec: object) -> None:
    """A deal step's action exists in all three forms on the deal, and the engine takes its arguments from
    the row as the event's fields, in order."""
    s = spec_of(next(ev for ev in LOG if ev.CODE == spec.code))  # type: ignore[attr-defined]
    for name in (s.step, f"verify_{s.step}", f"push_{s.step}"):
        assert callable(getattr(Deal, name, None)), f"Deal.{name} ({s.kind})"
    assert s.code in deal_module.STEPS and s.code in deal_module.VERIFY and s.code in deal_module.PUSH
    assert (s.code in deal_module.ROW_CODES) == s.by_row
    for ev in (ev for ev in LOG if type(ev) is s.cls):
        args = deal_module._ARGS[s.shape](ev.to_row(), None)
        assert args == tuple(getattr(ev, f) for f in s.fields)


def test_every_event_reads_back_from_its_text_and_json_syntax() -> None:
    assert read_text(write_text(LOG)) == LOG
    assert read_json(write_json(LOG)) == LOG
    assert {s.syntax for s in REGISTRY} >= {"pulka", "deal", "end"}


class _Plain:
    """A speller of the registry's human text for the test: seat letters, codes as they are."""

    def seat(self, seat: int) -> str:
        return "ABCD"[seat]

    def bid(self, code: int) -> str:
        return B.RUSSIAN_BIDS.format(code)

    def contract(self, code: int) -> str:
        return B.RUSSIAN_BIDS.format(code)

    def number(self, value: E.ScoreValue) -> str:
        return E.score_text(value)

    def pool(self, ev: E.PulkaStarted) -> str:
        return f"pool {ev.pool}"

    def sheet_words(self) -> tuple[str, str, str]:
        return "pulya", "gora", "visty"


def test_every_event_has_a_human_line() -> None:
    for ev in LOG:
        text = spec_of(ev).text(ev, _Plain())
        assert text and "\n" not in text and len(text) <= 80, (ev, text)

    def line(ev: E.Event) -> str:
        return spec_of(ev).text(ev, _Plain())
    assert line(E.BidMade(1, CONTRACT)) == "B bids 6s"
    assert line(E.CardPlayed(2, 20)) == "C plays " + format_cards(1 << 20, "unicode")
    assert line(E.ContraCalled(1)) == "B: contra"
    assert line(E.WhistCalled(0, C.CALL_PASS)) == "A: pass"
    assert line(E.DealStarted(1)) == "Deal: dealer B (paper level)"
    assert line(E.PaperResult((2, 2, 6))) == "Tricks: A 2, B 2, C 6"
    assert line(E.ScoreRecorded(1, 4, 0, (0, 0, 0))) == "Score written by B: pulya 4 gora 0 visty A=0 C=0"
    assert line(E.DealCorrected(3)) == "Corrects deal 3"
    assert line(E.DealCorrected(2, True, "2026-12-03T12:00:00Z")) == "Strikes out deal 2 (at 2026-12-03T12:00:00Z)"


def test_a_russian_deal_refuses_a_contra_through_its_verify_table() -> None:
    """``Deal.verify`` looks up ``verify_<action>`` of the registry's action: a contra in the Russian game is an
    illegal call (it was an AttributeError: the check had another name than its action)."""
    d = open_deal(resolve("sochi"), 3, 0, HANDS, TALON)
    with pytest.raises(IllegalAction):
        d.verify(E.ContraCalled(1))


# ---------------------------------------------------------------------------------------------- the source
EVENT_CLASSES = frozenset(t.__name__ for t in E.EVENT_TYPES) | {"_Valued", "_Tricks"}
ALLOWED = {
    "preflog/model/events.py": "defines the event classes and their row codec",
    "preflog/model/registry.py": "the registry itself",
    "preflog/sim/check.py": "an independent second reading of simulated pulkas, to check the engine by",
}
"""Modules that may test an event against several event classes."""
CONSULTERS = {"preflog/engine/deal.py", "preflog/engine/replay.py", "preflog/record/reader.py",
              "preflog/record/writer.py", "preflog/views/viewer.py", "preflog/analysis/deal.py"}
"""The places that handle events by type: each reads the registry."""
CHAIN = 3
"""A function that tests an event against this many event classes or more is a dispatch over event types."""


def _class_names(node: ast.expr) -> set[str]:
    if isinstance(node, ast.Name) and node.id in EVENT_CLASSES:
        return {node.id}
    if isinstance(node, ast.Tuple):
        return set().union(*(_class_names(x) for x in node.elts)) if node.elts else set()
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _class_names(node.left) | _class_names(node.right)
    return set()


def event_class_tests(tree: ast.AST) -> set[str]:
    """The event classes ``tree`` tests an event against: ``isinstance(x, C)``, ``type(x) is C`` (and ``==``,
    ``in``), a dict keyed by classes; not a narrowing ``assert isinstance`` (no branch)."""
    asserted = {id(n) for a in ast.walk(tree) if isinstance(a, ast.Assert) for n in ast.walk(a)}
    found: set[str] = set()
    for n in ast.walk(tree):
        if id(n) in asserted:
            continue
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("isinstance", "issubclass") \
                and len(n.args) == 2:
            found |= _class_names(n.args[1])
        elif isinstance(n, ast.Compare):
            for x in (n.left, *n.comparators):
                found |= _class_names(x)
        elif isinstance(n, ast.Dict):
            keys = set().union(*(_class_names(k) for k in n.keys if k is not None)) if n.keys else set()
            if len(keys) >= 2:
                found |= keys
    return found


def chains(source: str) -> list[tuple[str, int, list[str]]]:
    """(function, line, classes) of every function testing an event against :data:`CHAIN` classes or more."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found = event_class_tests(node)
            if len(found) >= CHAIN:
                out.append((node.name, node.lineno, sorted(found)))
    return out


def _modules() -> list[tuple[str, str]]:
    return [(p.relative_to(PACKAGE.parent).as_posix(), p.read_text(encoding="utf-8"))
            for p in sorted(PACKAGE.rglob("*.py"))]


def test_the_checker_finds_a_chain() -> None:
    """The source check below can fail: the old writer's dispatch is a chain."""
    old = """
def step(ev, prev):
    if isinstance(ev, BidMade):
        pass
    elif isinstance(ev, (WhistCalled, PlayModeChosen)):
        pass
    elif type(ev) is CardPlayed:
        kind = {Claimed: "claim", TenChecked: "check"}[type(ev)]
"""
    assert chains(old) == [("step", 2, ["BidMade", "CardPlayed", "Claimed", "PlayModeChosen", "TenChecked",
                                        "WhistCalled"])]
    assert chains("def f(ev):\n    assert isinstance(ev, (BidMade, Claimed, TenChecked))\n") == []


def test_no_module_outside_the_allow_list_dispatches_on_event_classes() -> None:
    found = {path: c for path, source in _modules() if path not in ALLOWED and (c := chains(source))}
    assert found == {}, f"isinstance chains over event classes (use preflog.model.registry): {found}"


def test_the_places_that_handle_events_by_type_read_the_registry() -> None:
    readers = set()
    for path, source in _modules():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("model.registry"):
                readers.add(path)
    assert readers >= CONSULTERS, sorted(CONSULTERS - readers)
