"""Every public name (``preflog.__all__``) has its docstring, in the build that runs.

mypyc keeps no docstrings: with the compiled kernel, ``help(preflog.audit)`` was empty for the nine
public names the kernel defines. :func:`preflog._native.documented` gives them back from the source (a
class's ``__doc__``; a function wrapped in one that carries it). CI runs the suite compiled and, in its
pure lane, with ``PREFLOG_PURE=1``: this test holds in both.
"""

from __future__ import annotations

import importlib
import inspect
import pydoc

import pytest

import preflog
from preflog import _native

KERNEL_NAMES = sorted(n for n in preflog.__all__ if preflog._EXPORTS[n] in _native.MODULES)


def test_the_kernel_defines_public_names() -> None:
    # the nine of issue 37 (a list that shrank to nothing would make the tests below pass idly)
    assert {"audit", "audit_rows", "audit_columns", "replay", "state_at", "AuditResult", "Deal", "DealOutcome",
            "RowColumns"} <= set(KERNEL_NAMES)


@pytest.mark.parametrize("name", preflog.__all__)
def test_every_public_name_has_a_docstring(name: str) -> None:
    assert (getattr(preflog, name).__doc__ or "").strip(), f"preflog.{name} has no docstring"


@pytest.mark.parametrize("name", KERNEL_NAMES)
def test_a_kernel_name_has_its_source_docstring_and_stays_itself(name: str) -> None:
    module = preflog._EXPORTS[name]
    value = getattr(preflog, name)
    assert inspect.getdoc(value) == inspect.cleandoc(_native.source_docstrings(module)[name])
    first = inspect.cleandoc(_native.source_docstrings(module)[name]).splitlines()[0]
    assert first in pydoc.render_doc(value, renderer=pydoc.plaintext)
    defined = getattr(importlib.import_module(module), name)
    assert getattr(value, "__wrapped__", value) is defined   # the compiled function itself runs
    if callable(value) and not isinstance(value, type):
        assert inspect.signature(value) == inspect.signature(defined)
