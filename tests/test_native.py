"""The compiled kernel (mypyc, :mod:`preflog._native`) and the pure-Python reference give the same audits.

The same corpus — bot pulkas of every family and table size (card and paper deals), and the same pulkas
each corrupted in the ways :mod:`tests.engine.test_fast_paths` corrupts logs (a wrong card or bid, a
card from later in the hand, the wrong seat, two events swapped, one dropped, one repeated) — is audited
in this process (the compiled kernel when it is built) and in a subprocess with ``PREFLOG_PURE=1`` (the
``.py`` sources), by :func:`audit` over events and :func:`audit_rows` over rows. Findings (code, deal,
seq, message, seat, event), per-deal outcomes and scores, sheets and settlements must be identical.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import preflog
from preflog import _native
from preflog.engine.replay import AuditResult
from preflog.engine.replay import audit
from preflog.engine.replay import audit_rows
from preflog.engine.replay import rows_of
from preflog.model.events import BidMade
from preflog.model.events import CardPlayed
from preflog.model.events import Event
from preflog.model.events import WhistCalled
from preflog.sim import simulate_pulka
from tests.engine.test_fast_paths import CORRUPTIONS
from tests.engine.test_fast_paths import _corrupt

ROOT = Path(__file__).resolve().parents[1]
SPECS = (("sochi", 3, False), ("leningrad", 3, False), ("rostov", 3, False), ("sochi", 4, False),
         ("leningrad", 4, False), ("croatian", 3, False), ("slovenian", 3, False), ("sochi", 3, True))
SEEDS = range(3)


def corpus() -> list[tuple[str, list[Event]]]:
    """Every bot pulka of :data:`SPECS` × :data:`SEEDS`, then each corrupted once in every way (seeded)."""
    out: list[tuple[str, list[Event]]] = []
    for spec, n, paper in SPECS:
        for seed in SEEDS:
            log = simulate_pulka(spec, n, seed, pool=10, max_deals=12, paper=paper)
            name = f"{spec}-{n}{'-paper' if paper else ''}-{seed}"
            out.append((name, log))
            rng = random.Random(f"{name}")
            idx = [i for i, e in enumerate(log) if isinstance(e, (CardPlayed, BidMade, WhistCalled))]
            for how in sorted(set(CORRUPTIONS)):
                if idx:
                    out.append((f"{name}/{how}", _corrupt(log, how, rng.choice(idx), rng.randrange(41), n)))
    return out


def summary(res: AuditResult) -> list[str]:
    """An audit as plain text: every finding, every deal, the sheet and the settlement."""
    lines = [f"finding {f.code} {f.deal} {f.seq} {f.seat} {f.message!r} {f.event!r}" for f in res.findings]
    lines += [f"deal {d.deal} {d.dealer} {d.seq} {d.outcome!r} {d.score!r} {d.broken} {[f.seq for f in d.findings]}"
              for d in res.deals]
    lines += [f"sheet {res.sheet!r}", f"settlement {res.settlement!r}", f"events {res.events} ended {res.ended}",
              f"rules {res.rules!r} players {res.players!r}"]
    return lines


def audits() -> dict[str, dict[str, list[str]]]:
    """The corpus audited both ways in this process: ``{pulka: {"events": …, "rows": …}}``."""
    return {name: {"events": summary(audit(log)), "rows": summary(audit_rows(rows_of(log)))}
            for name, log in corpus()}


def test_compiled_and_pure_kernels_audit_the_corpus_identically() -> None:
    """The pure-Python run happens in a subprocess (the two paths are the same source, so one process
    holds one of them); its audits equal this process's, pulka by pulka."""
    here = audits()
    assert len(here) > 100 and sum(1 for s in here.values() if any(x.startswith("finding") for x in s["rows"])) > 50
    env = dict(os.environ, PREFLOG_PURE="1", PYTHONPATH=str(ROOT))
    env.pop("PREFLOG_REQUIRE_NATIVE", None)
    code = ("import json, sys, preflog._native as n\n"
            "from tests.test_native import audits\n"
            "assert not n.NATIVE and not n.loaded(), n.REASON\n"
            "json.dump(audits(), sys.stdout)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=280)
    assert out.returncode == 0, out.stderr
    pure = json.loads(out.stdout)
    assert pure.keys() == here.keys()
    for name in here:
        assert pure[name] == here[name], name


def test_the_compiled_kernel_is_loaded_when_required() -> None:
    """With ``PREFLOG_REQUIRE_NATIVE=1`` (CI sets it) the compiled modules must be the ones imported;
    either way, what :mod:`preflog._native` says is what was loaded."""
    assert preflog._native is _native
    audit_rows([])   # (the kernel modules are imported)
    if os.environ.get("PREFLOG_REQUIRE_NATIVE", "") not in ("", "0"):
        assert _native.NATIVE, f"PREFLOG_REQUIRE_NATIVE=1 but {_native.REASON}"
    assert _native.loaded() == _native.NATIVE, _native.REASON


def test_pure_switch_loads_the_sources() -> None:
    """``PREFLOG_PURE=1`` runs every kernel module from its ``.py`` file."""
    env = dict(os.environ, PREFLOG_PURE="1", PYTHONPATH=str(ROOT))
    code = ("import sys, preflog._native as n, preflog.engine.replay\n"
            "print(n.NATIVE, n.loaded(), all(sys.modules[m].__file__.endswith('.py') for m in n.MODULES "
            "if m in sys.modules), n.REASON)")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.startswith("False False True PREFLOG_PURE is set")


def test_a_source_edited_after_the_build_runs_pure_with_a_warning(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A manifest whose hash of engine/deal.py is not the file's (the source was edited after the build):
    the decision is the pure kernel, with a warning naming the file. Without a build the decision is the
    pure kernel too, saying it is not built."""
    built = _native.MANIFEST.is_file()
    manifest = tmp_path / "_native_manifest.json"
    if built:
        hashes = json.loads(_native.MANIFEST.read_text(encoding="utf-8"))
        hashes["preflog.engine.deal"] = "0" * 64
        manifest.write_text(json.dumps(hashes), encoding="utf-8")
    monkeypatch.setattr(_native, "MANIFEST", manifest)
    monkeypatch.delenv("PREFLOG_PURE", raising=False)
    if built:
        with pytest.warns(RuntimeWarning, match=r"preflog/engine/deal\.py.* changed since the compiled kernel"):
            native, reason = _native._decide()
        assert not native and reason.startswith("stale compiled kernel")
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert _native._decide() == (False, "the compiled kernel is not built (pip install -e . builds it)")


def test_compiled_files_of_an_older_module_list_run_their_source(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """An extension beside a module that is no longer compiled (an editable checkout built with an older
    list) is named by :func:`leftovers`, and the finder serves that module's ``.py`` instead; an
    extension without a ``.py`` beside it (another C extension of the package) is not a leftover."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "cards.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "model" / f"cards{suffix}").write_bytes(b"")
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / f"_solver{suffix}").write_bytes(b"")
    (tmp_path / "engine" / "tricks.py").write_text("", encoding="utf-8")
    (tmp_path / "engine" / f"tricks{suffix}").write_bytes(b"")   # in MODULES: the manifest decides
    monkeypatch.setattr(_native, "PACKAGE", tmp_path)
    assert _native.leftovers() == ["preflog.model.cards"]
    spec = _native._PureFinder(["preflog.model.cards"]).find_spec("preflog.model.cards", None)
    assert spec is not None and spec.origin == str(tmp_path / "model" / "cards.py")
    assert _native._PureFinder(["preflog.model.cards"]).find_spec("preflog.model.bids", None) is None


def _frozen_dataclasses() -> list[type]:
    import dataclasses
    import importlib
    found = []
    for name in _native.MODULES:
        mod = importlib.import_module(name)
        for obj in vars(mod).values():
            if isinstance(obj, type) and obj.__module__ == name and dataclasses.is_dataclass(obj) \
                    and obj.__dataclass_params__.frozen:  # type: ignore[attr-defined]
                found.append(obj)
    return found


def test_every_frozen_class_of_the_compiled_modules_rebuilds_through_its_constructor() -> None:
    """Compiled, a frozen dataclass is copied and pickled by mypyc's ``__setstate__``, which assigns each
    field and so meets the frozen ``__setattr__`` (FrozenInstanceError: the Croatian analysis crashed
    deep-copying the scorer's hat marks). Each such class defines ``__reduce__`` (docs/kernel.md)."""
    frozen = _frozen_dataclasses()
    assert {c.__name__ for c in frozen} >= {"HatMark", "ReplayStep"}
    assert [c.__qualname__ for c in frozen if "__reduce__" not in vars(c)] == []


def test_hat_marks_and_replay_steps_copy_and_pickle() -> None:
    """The values themselves, in whichever build runs: copy, deepcopy and pickle give equal objects, and a
    Croatian scorer with hat marks deep-copies (what the analysis does before every deal)."""
    import copy
    import pickle

    from preflog.engine.replay import replay
    from preflog.rules.presets import resolve
    from preflog.scoring.croatian import CroatianScorer
    from preflog.scoring.croatian import HatMark

    mark = HatMark(17, 1, True)
    for twin in (copy.copy(mark), copy.deepcopy(mark), pickle.loads(pickle.dumps(mark))):
        assert twin == mark and twin.symbol == "∩"
    scorer = CroatianScorer(resolve("croatian"))
    scorer.hat_marks.append(mark)
    copied = copy.deepcopy(scorer, {id(scorer.rules): scorer.rules})
    assert copied.hat_marks == [mark] and copied.hat_marks is not scorer.hat_marks and copied.rules is scorer.rules
    step = list(replay(simulate_pulka("croatian", 3, 0, pool=10, max_deals=2)))[-1]
    again = copy.copy(step)
    assert (again.seq, again.event, again.pulka, again.deal) == (step.seq, step.event, step.pulka, step.deal)
