"""Which text scanner the reader runs: the compiled one (``_scan.c``) or the pure-Python reference.

The compiled scanner (:file:`preflog/record/_scan.c`, plain CPython C API, built by ``pip install``
like the solver's search) reads runs of canonical trick lines and card lists without a Python object
per line; the ``.py`` reader stays the reference and reads everything the scanner leaves (any line
off the canonical form, and every error, with its exact place). It is optional: without a compiler
the package installs and reads in pure Python. ``PREFLOG_PURE=1`` runs pure Python (as it does for the
compiled kernel, :mod:`preflog._native`); :func:`pure` does so for a block of code (tests compare the
two paths in one process).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from contextlib import contextmanager
from types import ModuleType

from .._native import pure_requested
from .._native import switched_off

try:
    from . import _scan  # type: ignore[attr-defined]
except ImportError:  # not built (no compiler at install time): the pure-Python reader
    _scan = None

BUILT: ModuleType | None = _scan
"""The compiled scanner when it is built, else None."""
SCAN: ModuleType | None = None if pure_requested() else BUILT
"""The scanner the reader uses now (None: pure Python)."""


def pure() -> AbstractContextManager[None]:
    """Read in pure Python inside the block (whatever is built)."""
    return switched_off(globals(), "SCAN")


@contextmanager
def compiled() -> Iterator[None]:
    """Read with the compiled scanner inside the block (it must be built)."""
    global SCAN
    if BUILT is None:
        raise RuntimeError("the compiled scanner preflog.record._scan is not built")
    was, SCAN = SCAN, BUILT
    try:
        yield
    finally:
        SCAN = was
