"""The package's module doctests, in the normal test run.

CI also runs ``python -m pytest --doctest-modules preflog`` (the root conftest.py leaves out the modules an
absent extra keeps from importing); this test runs the same examples with :mod:`doctest` on the modules as
the running build imports them, so a plain ``pytest`` catches a wrong example too.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import preflog
from preflog import _native

EXTRAS = {"preflog.spark.job": "pyspark"}
"""Modules that import an extra's package, with that package."""


def _source(name: str) -> Path | None:
    """The ``.py`` source of a module (beside its ``.so`` when the module is compiled)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin:
        return None
    origin = Path(spec.origin)
    return origin if origin.suffix == ".py" else origin.parent / (name.rsplit(".", 1)[1] + ".py")


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(preflog.__path__, "preflog."):
        source = _source(info.name)
        if source is not None and source.exists() and ">>> " in source.read_text(encoding="utf-8"):
            names.append(info.name)
    return names


MODULES = _modules_with_examples()


def test_the_package_has_examples() -> None:
    # the model's bid codec, the engine's codes and the renderers at least (a walk that found nothing would pass)
    assert {"preflog.model.bids", "preflog.engine.codes", "preflog.render.numbers"} <= set(MODULES)


def _compiled_examples(name: str, module: ModuleType) -> doctest.TestResults:
    """The examples of a compiled kernel module, which keeps no docstrings: read from its source
    (:func:`preflog._native.source_docstrings`), run against the compiled module's names."""
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    source = str(_native.source_of(name))
    for key, doc in _native.source_docstrings(name).items():
        runner.run(parser.get_doctest(doc, dict(vars(module)), f"{name}.{key}".rstrip("."), source, 0))
    return runner.summarize(verbose=False)


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    if name in EXTRAS and importlib.util.find_spec(EXTRAS[name]) is None:
        pytest.skip(f"{name} needs {EXTRAS[name]} (an extra)")
    module = importlib.import_module(name)
    if _native.NATIVE and name in _native.MODULES:
        result = _compiled_examples(name, module)
    else:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    # examples that vanished (a docstring lost) would pass idly: none found is a failure too
    assert result.attempted > 0, f"{name}: its source has examples, but doctest found none in the module"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (output above)"
