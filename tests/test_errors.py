"""One error tree: every exception class of the package is a PreflogError, with structured fields."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import pickle
import pkgutil
import subprocess
import sys

import pytest

import preflog
from preflog.engine.findings import AuditFailed
from preflog.engine.findings import Finding
from preflog.engine.findings import IllegalAction
from preflog.errors import FileError
from preflog.errors import PreflogError
from preflog.errors import ScoringError
from preflog.errors import WorkspaceError
from preflog.model.events import BidMade
from preflog.record.errors import Loc
from preflog.record.errors import RecordError
from preflog.store.base import ConcurrencyError
from preflog.store.base import StoreError

# every exception class by the module it was always imported from (they stay importable there)
OLD_HOMES = {
    "preflog.model.cards": ["CardError"], "preflog.model.bids": ["BidError"], "preflog.model.calls": ["CallError"],
    "preflog.model.events": ["EventError"], "preflog.rules.config": ["RulesError"],
    "preflog.record.errors": ["RecordError", "RecordWriteError"],
    "preflog.scoring.russian": ["ScoringError"], "preflog.scoring.croatian": ["ScoringError"],
    "preflog.store.base": ["StoreError", "ConcurrencyError"], "preflog.projections.facts": ["FactsError"],
    "preflog.sim.pulka": ["SimError"], "preflog.sim.check": ["SimCheckError"],
    "preflog.reports.counterfactual": ["CounterfactualError"],
    "preflog.engine.findings": ["IllegalAction", "AuditFailed"],
}
# callers caught these as ValueError before the tree; they still are
STILL_VALUE_ERRORS = ["CardError", "BidError", "CallError", "EventError", "RulesError", "RecordError",
                      "RecordWriteError", "ScoringError", "FactsError", "SimError", "CounterfactualError"]


# modules that need an optional extra, by the top-level package the extra brings
EXTRA_MODULES = {"preflog.spark.job": "pyspark"}


def all_modules() -> list[str]:
    """Every module of the package that this install can import: a module of an optional extra is left
    out when the extra is missing, unless the run requires it (``.ci/run`` installs the spark extra and
    sets PREFLOG_REQUIRE_SPARK=1, so there every module is imported)."""
    names = [m.name for m in pkgutil.walk_packages(preflog.__path__, "preflog.")]
    assert set(EXTRA_MODULES) <= set(names)
    required = os.environ.get("PREFLOG_REQUIRE_SPARK") == "1"
    return [n for n in names if n not in EXTRA_MODULES or required
            or importlib.util.find_spec(EXTRA_MODULES[n]) is not None]


def test_every_exception_class_of_the_package_is_a_preflog_error() -> None:
    found: dict[str, type] = {}
    for name in all_modules():
        module = importlib.import_module(name)
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__.startswith("preflog"):
                found[f"{cls.__module__}.{cls_name}"] = cls
    assert len(found) >= 19  # the 18 classes the tree was made from, and its own
    assert [n for n, cls in found.items() if not issubclass(cls, PreflogError)] == []


@pytest.mark.parametrize("module", sorted(OLD_HOMES))
def test_each_class_stays_importable_from_its_old_module(module: str) -> None:
    mod = importlib.import_module(module)
    for name in OLD_HOMES[module]:
        cls = getattr(mod, name)
        assert issubclass(cls, PreflogError) and getattr(preflog, name) is cls


def test_value_errors_stay_value_errors_and_the_rest_do_not_become_ones() -> None:
    for name in STILL_VALUE_ERRORS:
        assert issubclass(getattr(preflog, name), ValueError), name
    assert issubclass(preflog.SimCheckError, AssertionError)
    # the engine catches ValueError around scoring: an illegal action must not be swallowed there
    for cls in (IllegalAction, AuditFailed, StoreError, WorkspaceError, FileError):
        assert not issubclass(cls, ValueError), cls


def test_one_scoring_error_for_both_families() -> None:
    from preflog.scoring import croatian
    from preflog.scoring import russian

    assert russian.ScoringError is croatian.ScoringError is ScoringError


def test_code_is_the_snake_case_class_name_unless_given() -> None:
    assert preflog.CardError("x").code == "card_error"
    assert preflog.RecordWriteError("x").code == "record_write_error"
    assert PreflogError("x").code == "preflog_error"
    assert PreflogError("x", code="mine").code == "mine"


def test_illegal_action_keeps_its_positional_signature_and_gains_fields() -> None:
    plain = IllegalAction("jump_bid", "7s skips ladder steps")
    assert str(plain) == "jump_bid: 7s skips ladder steps"
    assert (plain.code, plain.message, plain.seat, plain.phase, plain.event) == (
        "jump_bid", "7s skips ladder steps", None, None, None)
    ev = BidMade(player=1, bid=71)
    rich = IllegalAction("jump_bid", "7s skips ladder steps", seat=1, phase="auction", event=ev)
    assert str(rich) == str(plain)
    assert rich.fields() == {"error": "IllegalAction", "code": "jump_bid", "message": "7s skips ladder steps",
                             "seat": 1, "phase": "auction", "event": ev}


def test_audit_failed_carries_the_finding() -> None:
    f = Finding("jump_bid", 1, 4, "seat 1: 7s skips ladder steps", seat=1)
    exc = AuditFailed(f)
    assert exc.code == "jump_bid" and exc.finding is f and exc.finding.seat == 1
    assert str(exc) == "deal 1, event 4: jump_bid: seat 1: 7s skips ladder steps"
    assert f.as_dict() == {"code": "jump_bid", "deal": 1, "seq": 4, "message": "seat 1: 7s skips ladder steps"}


def test_record_error_fields() -> None:
    exc = RecordError("game.pref", Loc(12, 7), "Xh", "is not a card", "rank then suit")
    assert str(exc) == "game.pref:12:7: 'Xh' is not a card (expected rank then suit)"
    assert exc.fields() == {"error": "RecordError", "code": "record_error", "message": str(exc),
                            "source": "game.pref", "line": 12, "column": 7, "text": "Xh",
                            "problem": "is not a card", "expected": "rank then suit"}


def test_file_error_names_the_file() -> None:
    assert str(FileError("x.pref", "no such file or folder")) == "x.pref: no such file or folder"
    exc = FileError.of(FileNotFoundError(2, "No such file or directory", "/a/b.svg"))
    assert (str(exc), exc.path) == ("/a/b.svg: No such file or directory", "/a/b.svg")
    assert str(FileError.of(PermissionError(13, "Permission denied"), "store")) == "store: Permission denied"


@pytest.mark.parametrize("exc", [
    IllegalAction("jump_bid", "7s skips", seat=1, phase="auction", event=BidMade(player=1, bid=71)),
    AuditFailed(Finding("jump_bid", 1, 4, "7s skips")),
    RecordError("game.pref", Loc(3, 1), "Xh", "is not a card"),
    ConcurrencyError("friday", 3, 5),
    FileError("x.pref", "no such file"),
    preflog.CardError("'Xh' is not a card"),
], ids=lambda e: type(e).__name__)
def test_errors_cross_process_boundaries(exc: PreflogError) -> None:
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is type(exc) and str(back) == str(exc) and back.fields() == exc.fields()


def test_public_names_resolve_without_loading_the_heavy_layers_early() -> None:
    assert sorted(preflog.__all__) == sorted(preflog._EXPORTS)
    for name in preflog.__all__:
        assert getattr(preflog, name) is not None
    code = "import sys, preflog.model.cards, preflog.record.api; print('pyarrow' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
