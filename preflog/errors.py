"""The error tree: every error preflog raises on purpose is a :class:`PreflogError`.

The bottom layer of the package (it imports nothing from preflog), so every layer can raise
and catch the same base. Each error carries structured fields beside its one-line message:

* ``code``: a stable snake_case name of the kind of problem (by default the class name,
  ``CardError`` → ``card_error``; an :class:`~preflog.engine.findings.IllegalAction` carries the
  finding code of the rule it breaks);
* ``message``: what went wrong, in words;
* whatever the subclass knows (a record error's file, line and column; an illegal action's
  seat, phase and event; a store conflict's pulka and sequence numbers), listed by :meth:`fields`.

The classes that belong to one layer live beside their code and are rebased here
(``CardError`` in :mod:`preflog.model.cards`, ``RulesError`` in :mod:`preflog.rules.config`, …);
this module holds the base and the errors shared by several layers. Classes that callers
caught as ``ValueError`` before the tree existed keep ``ValueError`` as a second base.

The command line catches :class:`PreflogError` and nothing else: an error of this tree is a
user's problem (printed as one line), anything else is a bug (a traceback).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def _rebuild(cls: type[PreflogError], args: tuple[Any, ...], state: dict[str, Any]) -> PreflogError:
    """Unpickle an error whatever its ``__init__`` signature (errors cross process boundaries)."""
    err = cls.__new__(cls, *args)
    err.args = args
    err.__dict__.update(state)
    return err


class PreflogError(Exception):
    """Base of the tree: a problem preflog reports to its user (the message says what and where)."""

    code: str = "preflog_error"
    message: str

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "code" not in cls.__dict__:
            cls.code = _CAMEL.sub("_", cls.__name__).lower()

    def __init__(self, message: str = "", *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def fields(self) -> dict[str, Any]:
        """The structured view: class, code, message and the subclass's fields that are set."""
        out: dict[str, Any] = {"error": type(self).__name__, "code": self.code, "message": self.message}
        for name, value in vars(self).items():
            if name not in out and not name.startswith("_") and value is not None:
                out[name] = value
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), self.args, dict(vars(self)))


class ScoringError(PreflogError, ValueError):
    """A deal outcome a scorer cannot score (names the deal and the rule); both families' scorers."""


class WorkspaceError(PreflogError):
    """The workspace cannot do what was asked: no store, no such pulka, an unknown format."""


class NoStoreError(WorkspaceError):
    """A workspace folder that holds no event store; ``root`` is the folder."""

    def __init__(self, root: object) -> None:
        super().__init__(f"no preflog store at {root} (import record files into it first)")
        self.root = str(root)


class NotStoredError(WorkspaceError):
    """A name the store does not hold (a filter that can match nothing: a typo): ``what`` is ``player``,
    ``preset`` or ``pulka``, ``name`` the name asked for, ``known`` the names the store holds, ``near`` those
    of them that contain it, in any case (``ann`` → ``Anna``, ``Hanna``: the message asks "did you mean")."""

    def __init__(self, what: str, name: str, known: Sequence[str]) -> None:
        shown = ", ".join(known[:12]) + (f" … ({len(known)} in all)" if len(known) > 12 else "") or "none"
        near = [k for k in known if name.casefold() in k.casefold()] if name.strip() else []
        hint = f"; did you mean {' or '.join(near[:3])}?" if near else ""
        super().__init__(f"no {what} {name!r} in the store{hint} (known {what}s: {shown})")
        self.what = what
        self.name = name
        self.known = tuple(known)
        self.near = tuple(near)
        """The known names that contain the one asked for, case-folded (what it may have meant)."""


class FileError(PreflogError):
    """A file or folder that cannot be read or written; the message names it: ``path: reason``."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason

    @classmethod
    def of(cls, exc: OSError, path: object | None = None) -> FileError:
        """The one-line form of an OS error: the file it names (else ``path``) and its reason."""
        where = exc.filename if exc.filename is not None else path
        reason = exc.strerror or str(exc)
        if where is None:
            return cls("<unknown file>", reason)
        return cls(where, reason)


__all__ = ["FileError", "NoStoreError", "NotStoredError", "PreflogError", "ScoringError", "WorkspaceError"]
