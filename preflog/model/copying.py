"""Deep copies of engine and scoring objects that work the same compiled (mypyc) and interpreted.

A compiled class keeps its fields in fixed slots listed by ``__mypyc_attrs__`` and its ``__new__`` runs
``__init__``, so the default :func:`copy.deepcopy` (a bare ``__new__``, then the instance ``__dict__``)
cannot copy it. The deal, the auction and the scorers copy themselves instead (a bot plays a deal out on
a copy; the play analysis scores what-ifs on a copy of the scorer): a fresh object from the constructor,
then every field deep-copied over it.
"""

from __future__ import annotations

import copy
from typing import Any


def field_names(obj: object) -> list[str]:
    """The instance fields of ``obj``: the compiled class's field list, else its ``__dict__`` and slots."""
    compiled = getattr(type(obj), "__mypyc_attrs__", None)
    if compiled is not None:
        return [n for n in compiled if n != "__dict__"]
    names = list(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [s for s in slots if s not in ("__dict__", "__weakref__")]
    return names


def copy_fields(src: object, dst: object, memo: dict[int, Any]) -> None:
    """Deep-copy every field of ``src`` that is set onto ``dst`` (``memo`` as :func:`copy.deepcopy` keeps it)."""
    memo[id(src)] = dst
    for name in field_names(src):
        try:
            value = getattr(src, name)
        except AttributeError:   # a slot never set
            continue
        setattr(dst, name, copy.deepcopy(value, memo))
