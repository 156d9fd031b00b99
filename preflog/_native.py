"""Which implementation of the replay/audit kernel runs: compiled or pure Python.

The modules in :data:`MODULES` (the trick kernel, the per-family settings, the deal machines and
auctions, the pulka, the auditor, the scorers, and the projection row builder) are compiled with mypyc
when the package is built (setup.py); the ``.py`` files stay the source and the pure-Python reference.
:func:`select` runs once, when ``preflog`` is first imported, before any of those modules loads, and
decides for the whole process:

* ``PREFLOG_PURE=1`` in the environment: the pure-Python modules, whatever is built;
* the compiled modules when every one of them is built and its source is the one it was built from (the
  build writes the SHA-256 of each source to :data:`MANIFEST`);
* otherwise the pure-Python modules. When a build exists but a source changed since (a developer edited
  ``engine/deal.py`` in an editable checkout and did not rebuild), a :class:`RuntimeWarning` names the
  file: Python would otherwise import the old compiled ``.so`` before the edited ``.py``.

All or nothing: compiled modules call each other directly, so a mix would run old code beside new.
:data:`NATIVE` tells which path runs and :data:`REASON` why (``preflog --version``-style diagnostics and
the test that fails when ``PREFLOG_REQUIRE_NATIVE=1`` and the compiled path is not loaded).

This module imports nothing from preflog (layer 0).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

MODULES: tuple[str, ...] = (
    "preflog.model.columns",
    "preflog.model.bidcodes",
    "preflog.model.layout",
    "preflog.model.outcome",
    "preflog.rules.settings",
    "preflog.scoring.sheet",
    "preflog.scoring.settlement",
    "preflog.engine.tricks",
    "preflog.engine.auction",
    "preflog.engine.russian.auction",
    "preflog.engine.croatian.auction",
    "preflog.engine.croatian.defence",
    "preflog.engine.deal",
    "preflog.engine.russian.deal",
    "preflog.engine.croatian.deal",
    "preflog.engine.pulka",
    "preflog.engine.replay",
    "preflog.scoring.base",
    "preflog.scoring.russian",
    "preflog.scoring.croatian",
    "preflog.projections.build",
)
"""The compiled modules (dotted names). setup.py compiles exactly these. Modules that define exceptions or
values that cross process boundaries as classes of their own (cards, bids, calls, findings, events) stay
interpreted: a compiled class has no ``__dict__`` (an error's fields would not pickle). The per-deal values
(``DealOutcome``, ``DealScore``, ``Sheet``, ``Settlement``) are compiled: their ``__init__`` is written out
(a dataclass's generated one would run interpreted; :mod:`preflog.model.writeout` writes it from the fields),
they pickle through ``__reduce__``, and
``DealOutcome.kind`` is typed ``str`` (a compiled class checks argument types at run time, and a plain
string of a ``DealKind`` value is a kind too)."""

GROUP = "preflog.kernel__mypyc"
"""The shared library that holds the compiled code of every module in :data:`MODULES` (mypyc's group)."""

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "_native_manifest.json"
"""Written by the build: ``{module: sha256 of its source}`` of the sources the compiled modules came from."""

NATIVE = False
"""True when the compiled modules run in this process."""
REASON = "not selected yet"
"""Why :data:`NATIVE` is what it is (one line)."""


def source_of(module: str) -> Path:
    """The ``.py`` file of a module of :data:`MODULES`."""
    return PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _built(module: str) -> bool:
    """Whether the compiled extension of ``module`` (or of the group) sits beside its source."""
    parts = module.split(".")
    folder = PACKAGE.joinpath(*parts[1:-1])
    return any((folder / (parts[-1] + suffix)).is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def leftovers() -> list[str]:
    """Modules outside :data:`MODULES` with an extension file beside their ``.py`` source: a build of an
    older module list left them (an editable checkout keeps its extensions in place). Their ``.py``
    always runs, or Python would import the old extension."""
    found = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for ext in PACKAGE.rglob("*" + suffix):
            py = ext.with_name(ext.name[: -len(suffix)] + ".py")
            name = ".".join(("preflog", *py.relative_to(PACKAGE).with_suffix("").parts))
            if py.is_file() and name not in MODULES:
                found.append(name)
    return sorted(found)


class _PureFinder(importlib.abc.MetaPathFinder):
    """Loads the ``.py`` source of ``modules``, ahead of their extension files."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(fullname))


def pure_requested() -> bool:
    """Whether ``PREFLOG_PURE`` asks for the pure-Python paths: the kernel's sources, and no optional C
    module (the text scanner, the import's hash chain)."""
    return os.environ.get("PREFLOG_PURE", "") not in ("", "0")


@contextmanager
def switched_off(namespace: dict[str, Any], name: str) -> Iterator[None]:
    """Inside the block the optional C module a module uses (``namespace[name]``, in its globals) is
    None, so that module runs its pure-Python path; as it was after. Tests compare both paths in one
    process with it."""
    was, namespace[name] = namespace[name], None
    try:
        yield
    finally:
        namespace[name] = was


def _decide() -> tuple[bool, str]:
    if pure_requested():
        return False, "PREFLOG_PURE is set: the pure-Python kernel"
    if not MANIFEST.is_file():
        return False, "the compiled kernel is not built (pip install -e . builds it)"
    try:
        built = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False, f"{MANIFEST.name} does not read: the pure-Python kernel"
    missing = [m for m in (*MODULES, GROUP) if not _built(m)]
    if missing or set(built) != set(MODULES):
        return False, f"the compiled kernel is incomplete ({', '.join(missing) or 'module list changed'})"
    changed = [source_of(m).relative_to(PACKAGE.parent).as_posix() for m in MODULES
               if digest(source_of(m)) != built[m]]
    if changed:
        warnings.warn(f"preflog: {', '.join(changed)} changed since the compiled kernel was built; running the "
                      "pure-Python kernel (rebuild with `pip install -e .`, or set PREFLOG_PURE=1)",
                      RuntimeWarning, stacklevel=3)
        return False, f"stale compiled kernel ({', '.join(changed)} changed since the build)"
    return True, "the compiled kernel (mypyc)"


def select() -> None:
    """Decide once per process (see the module doc); the pure path installs :class:`_PureFinder`."""
    global NATIVE, REASON
    if REASON != "not selected yet":
        return
    NATIVE, REASON = _decide()
    pure = [] if NATIVE else list(MODULES)
    old = leftovers()
    if old:
        warnings.warn(f"preflog: {', '.join(old)} have compiled files from an older build beside their source; "
                      "running their source (delete the files or rebuild with `pip install -e .`)",
                      RuntimeWarning, stacklevel=2)
    if (pure or old) and not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder(pure + old))


@functools.cache
def source_docstrings(module: str) -> dict[str, str]:
    """The docstrings of a kernel module as its source writes them: the module's (key ``""``), each top-level
    class's and function's (``"Name"``) and each method's (``"Class.name"``).

    mypyc keeps none of them: a compiled module, class or function has no ``__doc__`` beyond its signature.
    :func:`documented` puts them back on the public names; the doctests of a compiled module run from here."""
    path = source_of(module)
    tree = ast.parse(path.read_bytes(), filename=str(path))
    docs = {"": ast.get_docstring(tree, clean=False) or ""}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            docs[node.name] = ast.get_docstring(node, clean=False) or ""
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    docs[f"{node.name}.{item.name}"] = ast.get_docstring(item, clean=False) or ""
    return {k: v for k, v in docs.items() if v}


_FILLER = "mypyc filler docstring"
"""What mypyc writes as the docstring of a compiled class it builds from a template (an enum)."""


def documented(value: Any, module: str, name: str) -> Any:
    """``value``, the name ``name`` of kernel module ``module``, with the docstring of its source when the
    compiled kernel runs and left it without one or with :data:`_FILLER` (``help(preflog.audit)``): a
    compiled class gets its ``__doc__`` back; a compiled function, whose ``__doc__`` cannot be set, comes
    back as a Python function that carries the docstring and calls it (the compiled one is its
    ``__wrapped__``; the signature is its).
    Anything else, and every name of the pure-Python kernel, is returned as it is. Reads the source once per
    module, on the first such name asked for."""
    if not NATIVE or module not in MODULES or (getattr(value, "__doc__", None) or "").strip() not in ("", _FILLER):
        return value
    doc = source_docstrings(module).get(name)
    if doc is None:
        return value
    if isinstance(value, type):
        value.__doc__ = doc
        return value
    if not callable(value):
        return value
    compiled = value

    @functools.wraps(compiled)
    def call(*args: Any, **kwargs: Any) -> Any:
        return compiled(*args, **kwargs)

    call.__doc__ = doc
    return call


def loaded() -> bool:
    """Whether the kernel modules imported so far are the compiled ones (checks the modules themselves)."""
    mods = [sys.modules[m] for m in MODULES if m in sys.modules]
    return bool(mods) and all(not (getattr(m, "__file__", "") or "").endswith(".py") for m in mods)
