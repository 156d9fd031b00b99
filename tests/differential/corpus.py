"""Every public operation over the whole corpus, as one JSON-ready digest per (pulka, operation).

The corpus is every shipped record (``data/``: the demo pulkas, the worked examples with their
findings, the paper JSON) and bot pulkas of every preset at three and four players (and one paper
pulka). The operations are the ones a user reaches (the CLI's and :mod:`preflog`'s): the simulator that
made the pulka, reading, ``audit`` (events, then rows straight from the store), ``replay`` step by step
(the table after every event) and the replay view of every deal, ``sheet`` and ``settle``, ``analyze``
(double dummy, with the discard) and the viewer's data with its marks, then a workspace's import,
``analyze --all`` and every ``stats`` report.

:func:`results` runs them in this process, whichever kernel it loaded (:mod:`preflog._native`);
``python -m tests.differential.corpus [--slow]`` prints them as JSON. tests/differential compares a run
of each build (compiled, and ``PREFLOG_PURE=1``): every digest must be equal.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from preflog import _native
from preflog.model.events import Event

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
PRESETS = ("sochi", "leningrad", "rostov", "croatian", "slovenian", "serbian")
ANALYSE_EVERY = 10
"""The slow run takes every pulka and analyses those of the examples, the bot pulkas and every tenth of the
demo files (all 340 would take a quarter of an hour a build; these about two minutes); the quick run takes
the examples and the first pulka of each demo file (its analysis reaches deal 17 of the Croatian demo)."""


def _plain(x: Any) -> Any:
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    return repr(x)


def digest(x: Any, tmp: str = "") -> str:
    text = json.dumps(_plain(x), sort_keys=True, ensure_ascii=False, default=repr)
    if tmp:
        text = text.replace(tmp, "<tmp>")
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def shipped() -> list[Path]:
    """The record files under ``data/`` (text and JSON)."""
    return sorted(p for p in DATA.rglob("*") if p.suffix in (".pref", ".json") and p.is_file())


def simulated(slow: bool) -> list[tuple[str, list[Event]]]:
    """Bot pulkas of every preset at 3 and 4 players (a family that seats only three is left out the same
    way in every build: the simulator's refusal is a result too), and a paper pulka."""
    from preflog.sim import SimError
    from preflog.sim import simulate_pulka

    out: list[tuple[str, list[Event]]] = []
    seeds = range(3) if slow else range(1)
    for preset in PRESETS:
        for n in (3, 4):
            for seed in seeds:
                try:
                    log = simulate_pulka(preset, n, seed, pool=10 if slow else 6, max_deals=60 if slow else 8)
                except SimError:
                    continue
                out.append((f"sim-{preset}-{n}p-{seed}", log))
    out.append(("sim-sochi-3p-paper", simulate_pulka("sochi", 3, 7, pool=10, max_deals=20, paper=True)))
    return out


def _replay_steps(events: list[Event]) -> list[Any]:
    """The table after every event, strictly replayed (a log that breaks a rule stops at the finding)."""
    from preflog.engine.findings import AuditFailed
    from preflog.engine.replay import replay

    states: list[Any] = []
    try:
        for step in replay(events):
            d = step.deal
            p = step.pulka
            row: list[Any] = [step.seq, p.deal_no, repr(p.scorer.sheet) if p.scorer is not None else None]
            if d is not None:
                playing = d.phase_name == "play"
                row += [d.phase_name, list(d.hands), list(d.tricks), d.to_play, list(d.trick_cards), d.completed,
                        d.trump, d.legal_cards(d.to_play) if playing and d.to_play >= 0 else None,
                        d.winning if playing else None, list(d.trick_winners), d.done,
                        repr(d.outcome) if d.done else None]
            states.append(row)
    except AuditFailed as exc:
        f = exc.finding
        states.append(["stopped", f.code, f.deal, f.seq, f.message])
    return states


def _render(renderable: Any) -> str:
    from rich.console import Console

    con = Console(width=80, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
    con.print(renderable)
    con.file.close()
    return con.export_text()


def pulka_results(name: str, events: list[Event], source: str, analyse: bool) -> dict[str, Any]:
    """The operations on one pulka's log: ``{operation: result}`` (results JSON-ready)."""
    from preflog.analysis import Options
    from preflog.analysis import analyze_events
    from preflog.cli.views import replay_view
    from preflog.engine.replay import audit
    from preflog.engine.replay import audit_rows
    from preflog.engine.replay import rows_of
    from preflog.record import write_text
    from preflog.views.analysis import analysis_json
    from preflog.views.analysis import analysis_text
    from preflog.views.analysis import mistake_marks
    from preflog.views.json import audit_json
    from preflog.views.json import settle_json
    from preflog.views.json import sheet_json
    from preflog.views.viewer import viewer_data
    from preflog.workspace import Audited
    from preflog.workspace import Loaded

    out: dict[str, Any] = {}

    def run(op: str, fn: Callable[[], Any]) -> None:
        try:
            out[op] = fn()
        except Exception as exc:  # a refusal is a result; a crash in one build only is the defect sought
            out[op] = f"raised {type(exc).__name__}: {exc}"

    loaded = Loaded(name, events, source)
    res = audit(events)
    audited = Audited(loaded, res)
    run("events", lambda: [repr(e) for e in events])
    run("record", lambda: write_text(events))
    run("audit", lambda: [audit_json(audited), _summary(res)])
    run("audit_rows", lambda: _summary(audit_rows(rows_of(events))))
    run("replay", lambda: _replay_steps(events))
    deals = sorted({d.deal for d in res.deals})
    shown = sorted({deals[0], deals[len(deals) // 2], deals[-1]}) if deals else []   # (each view replays the log)
    run("replay_view", lambda: [_render(replay_view(loaded, n, None)) for n in shown])
    run("sheet", lambda: sheet_json(audited))
    run("settle", lambda: settle_json(audited))
    marks: dict[int, str] = {}
    if analyse:
        def analysis() -> Any:
            a = analyze_events(name, events, None, Options(discard=True))
            marks.update(mistake_marks(a))
            return [analysis_json([a]), analysis_text(a, 80)]
        run("analyze", analysis)
    run("viewer", lambda: viewer_data(loaded, marks))
    return out


def _summary(res: Any) -> list[str]:
    lines = [f"finding {f.code} {f.deal} {f.seq} {f.seat} {f.message!r} {f.event!r}" for f in res.findings]
    lines += [f"deal {d.deal} {d.dealer} {d.seq} {d.outcome!r} {d.score!r} {d.broken}" for d in res.deals]
    lines += [f"sheet {res.sheet!r}", f"settlement {res.settlement!r}", f"events {res.events} {res.ended}"]
    return lines


def workspace_results(files: list[Path], analysed: list[Path], tmp: Path) -> dict[str, Any]:
    """Import every file into a new workspace, audit the store's columns and every stats report; ``analyze
    --all`` on a workspace of the ``analysed`` files."""
    from preflog.engine.replay import audit_columns
    from preflog.reports import REPORTS
    from preflog.workspace import Workspace

    out: dict[str, Any] = {}
    ws = Workspace(tmp / "store")
    items = ws.import_paths(files, workers=1)
    out["import"] = sorted((i.pulka, i.status, i.deals, i.events, i.findings, i.error) for i in items)
    out["store_audit"] = {pid: _summary(audit_columns(cols)) for pid, cols in ws.store().pulka_columns()}
    try:
        wa = ws if analysed == files else Workspace(tmp / "analysed")
        if wa is not ws:
            wa.import_paths(analysed, workers=1)
        built = wa.analyze_all(1)
        out["analyze_all"] = [repr(built), wa.analysis_report()]
    except Exception as exc:
        out["analyze_all"] = f"raised {type(exc).__name__}: {exc}"
    for report in REPORTS:
        try:
            out[f"stats_{report}"] = ws.stats(report).to_json(orient="split", date_format="iso")
        except Exception as exc:
            out[f"stats_{report}"] = f"raised {type(exc).__name__}: {exc}"
    return out


def results(slow: bool = False) -> dict[str, str]:
    """``{"pulka/operation": digest}`` over the whole corpus in this process, plus ``"kernel"``: which
    kernel ran (compiled or pure)."""
    from preflog.record import read_file_records
    from preflog.record import write_text

    out: dict[str, str] = {"kernel": "compiled" if _native.NATIVE else "pure"}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        files: list[Path] = []
        analysed: list[Path] = []   # analyze --all: the pulkas analysed one by one
        pulkas: list[tuple[str, list[Event], str, bool]] = []
        for path in shipped():
            rel = path.relative_to(ROOT).as_posix()
            try:
                records = read_file_records(path)
            except Exception as exc:
                out[f"{rel}/read"] = f"raised {type(exc).__name__}"
                continue
            small = len(records) < 10   # the worked examples: every pulka, every run
            if small:
                files.append(path)
                analysed.append(path)
            else:   # the quick run imports the demo file's first pulka alone, the slow one the file
                part = tmp / path.with_suffix(".analysed.pref").name
                part.write_text("\n".join(write_text(list(r.events)) for r in records[::ANALYSE_EVERY]),
                                encoding="utf-8")
                first = tmp / path.with_suffix(".pref").name
                first.write_text(write_text(list(records[0].events)), encoding="utf-8")
                files.append(path if slow else first)
                analysed.append(part if slow else first)
            for k, rec in enumerate(records):
                if slow or small or k == 0:
                    pulkas.append((f"{rel}#{k}", list(rec.events), rel, small or k % ANALYSE_EVERY == 0))
        for name, log in simulated(slow):
            path = tmp / f"{name}.pref"
            path.write_text(write_text(log), encoding="utf-8")
            files.append(path)
            analysed.append(path)
            pulkas.append((name, log, path.name, True))
        for name, events, source, analyse in pulkas:
            for op, value in pulka_results(name, events, source, analyse).items():
                out[f"{name}/{op}"] = digest(value)
        for op, value in workspace_results(files, analysed, tmp).items():
            out[f"workspace/{op}"] = digest(value, str(tmp))
    return out


if __name__ == "__main__":
    json.dump(results(slow="--slow" in sys.argv), sys.stdout, indent=0, sort_keys=True)
