"""The import layering of the package: every arrow runs down the layer table, never up or sideways.

A module may import its own part (``engine.replay`` → ``engine.deal``) and any part of a lower
layer; parts on one layer are beside each other and do not import each other. Function-local and
``TYPE_CHECKING`` imports count too: they are arrows all the same. README.md ("Layout") draws the
same picture; a new folder or top-level module must be given a layer here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "preflog"

# part of preflog → layer (higher layers may import lower ones)
LAYERS: dict[str, int] = {
    "errors": 0,        # the PreflogError tree: imports nothing from preflog
    "shipped": 0,       # where the shipped records and schemas are: imports nothing from preflog
    "_native": 0,       # which kernel runs, compiled or pure Python: imports nothing from preflog
    "templates": 0,     # the HTML pages: one Jinja2 environment, autoescaped: imports nothing from preflog
    "model": 1,         # cards, bids, calls, events, outcome
    "workers": 1,       # the worker-process runner of the import, the simulator and the analysis (errors only)
    "rules": 2,         # Rules, presets, option docs
    "solver": 2,        # the double-dummy solver (beside rules: cards in, tricks out)
    "scoring": 3,       # sheets, settlement, the families' scorers
    "engine": 4,        # auctions, deals, pulka, replay and audit (above scoring: it scores as it replays)
    "record": 5,        # text and JSON records (above engine: a record is read with its family's bid codec)
    "store": 4,         # event stores and the hash chain (beside engine)
    "projections": 5,   # facts of audited pulkas and the Parquet tables built from them
    "generated": 5,     # python -m preflog.generated: every file generated from the code (docs, schemas, header)
    "sim": 5,           # bots driving the engine
    "reports": 6,       # SQL, DataFrames, HTML over the projections
    "render": 6,        # sheet SVG
    "importer": 6,      # bulk import: the session (ids, duplicates, commits); read, seal, audit on workers
    "analysis": 6,      # double-dummy analysis of deals (engine + scorer + solver) and its play_analysis table
    "spark": 7,         # the Spark job (beside reports, one layer up: it runs the reports' SQL on Spark)
    "workspace": 7,     # the façade: store, import, load, audit, projections
    "views": 8,         # JSON shapes of audited pulkas
    "application": 9,   # what the application does (pulka filter and summaries, …): the front ends' one layer
    "serve": 10,        # preflog serve: the web app over the application layer, workspace and views
    "cli": 11,          # typer commands
    "__init__": 12,     # the public names, re-exported from every layer
    "__main__": 13,     # python -m preflog: runs the cli
}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def part_of(module: str) -> str:
    """``preflog.engine.replay`` → ``engine``; ``preflog`` itself → ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imported_modules(source: str, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, absolute module) of every preflog import in ``source``; ``from X import name`` yields
    ``X.name`` too, since the name may be a submodule."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if node.module:
                yield node.lineno, target
            else:  # from . import views: the names are the modules
                for alias in node.names:
                    yield node.lineno, f"{target}.{alias.name}"


def upward_arrows(source: str, module: str, is_package: bool = False) -> list[str]:
    here = part_of(module)
    out = []
    for line, target in imported_modules(source, module, is_package):
        if target != "preflog" and not target.startswith("preflog."):
            continue
        there = part_of(target)
        if there == here or target == "preflog":
            continue
        if there not in LAYERS:
            out.append(f"{module}:{line}: imports {target}, whose part {there!r} has no layer")
        elif LAYERS[there] >= LAYERS[here]:
            kind = "beside" if LAYERS[there] == LAYERS[here] else "above"
            out.append(f"{module}:{line}: {here} (layer {LAYERS[here]}) imports {target}, {kind} it "
                       f"({there}, layer {LAYERS[there]})")
    return out


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {part_of(module_name(p)) for p in modules()}
    assert parts - set(LAYERS) == set(), "give these parts of preflog a layer in LAYERS"
    assert set(LAYERS) - parts == set(), "these layers name no part of preflog (renamed or removed?)"


def test_imports_run_down_the_layers() -> None:
    problems: list[str] = []
    arrows = 0
    for path in modules():
        module = module_name(path)
        source = path.read_text(encoding="utf-8")
        arrows += sum(1 for _, t in imported_modules(source, module, path.name == "__init__.py")
                      if t.startswith("preflog."))
        problems += upward_arrows(source, module, path.name == "__init__.py")
    assert arrows > 100  # the walk saw the package's imports
    assert problems == []


def test_an_upward_arrow_is_caught() -> None:
    """The checker itself: relative, absolute, local and TYPE_CHECKING imports all count."""
    assert upward_arrows("from ..engine.replay import audit\n", "preflog.scoring.russian")
    assert upward_arrows("def f():\n    from preflog.workspace import Workspace\n", "preflog.engine.deal")
    assert upward_arrows("if TYPE_CHECKING:\n    from ..record.api import read_any\n", "preflog.store.base")
    assert upward_arrows("from .. import cli\n", "preflog.views.json")
    assert upward_arrows("from ..nowhere import x\n", "preflog.model.cards")  # a part without a layer
    assert upward_arrows("from .deal import DealState\n", "preflog.engine.replay") == []
    assert upward_arrows("from ..model.events import Event\n", "preflog.engine.replay") == []
    assert upward_arrows("from ..errors import PreflogError\n", "preflog.model.cards") == []


def test_no_import_circle_inside_the_store() -> None:
    """The store's modules import each other in one direction (store.base and store.chain imported each
    other, one of them inside a function): problems ← chain ← base ← the backends."""
    graph: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / "store").glob("*.py")):
        module = module_name(path)
        is_package = path.name == "__init__.py"
        graph[module] = {target for _, target in imported_modules(path.read_text(encoding="utf-8"), module,
                                                                  is_package)
                         if target.startswith("preflog.store.") and target != module}
    graph.pop("preflog.store", None)  # the package's __init__ re-exports everything
    seen: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state = seen.get(m, 0)
        assert state != 1, " -> ".join(path + [m])
        if state == 2:
            return
        seen[m] = 1
        for target in sorted(graph.get(m, ())):
            if target in graph:
                visit(target, path + [m])
        seen[m] = 2

    for m in sorted(graph):
        visit(m, [])
