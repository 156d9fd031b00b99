"""The written-out ``__init__`` and ``__reduce__`` of the value dataclasses of the compiled kernel, generated.

A dataclass in a compiled module writes its ``__init__`` out (``@dataclass(init=False)``: the generated one
would run interpreted) and pickles through ``__reduce__`` (a frozen or field-typed class must rebuild
through its constructor; docs/kernel.md). Both list every field, in order. Rather than keep the lists in
step by hand, a class marks the place of the two methods, and this module writes them from the fields
declared above the mark::

    @dataclass(init=False, unsafe_hash=True)
    class DealScore:
        pulya: tuple[Number, ...]
        note: str = ""

        # <written out from the fields above by `python -m preflog.generated`: do not edit>
        def __init__(self, pulya: tuple[Number, ...], note: str = "") -> None:
            ...
        # </written out>

``python -m preflog.generated`` rewrites the marked blocks of :data:`FILES` (with every other generated file);
tests/model/test_writeout.py fails when a checked-in block is not what the fields give, and checks the classes
whose ``__init__`` does more than assign (``Sheet`` copies its lists) against their fields too.

This module imports nothing from preflog (it reads the sources as text).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
FILES: tuple[str, ...] = ("model/outcome.py", "scoring/sheet.py")
"""The sources (relative to the package) with written-out blocks."""

BEGIN = "# <written out from the fields above by `python -m preflog.generated`: do not edit>"
END = "# </written out>"
WIDTH = 120


def fields_of(cls: ast.ClassDef, source: str) -> list[tuple[str, str, str | None]]:
    """``(name, annotation, default)`` of each field a class body declares, in order (source text)."""
    out = []
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            ann = ast.get_source_segment(source, node.annotation) or ""
            if ann.startswith(("ClassVar", "Final")):
                continue
            default = ast.get_source_segment(source, node.value) if node.value is not None else None
            out.append((node.target.id, ann, default))
    return out


def _wrap(head: str, items: list[str], tail: str, indent: int) -> list[str]:
    """``head`` + the items joined by ", " + ``tail``, broken at item boundaries so that no line passes
    :data:`WIDTH`; continuation lines start at column ``indent``."""
    lines: list[str] = []
    line = head
    for i, item in enumerate(items):
        piece = item + (", " if i < len(items) - 1 else tail)
        if len(line) + len(piece.rstrip()) > WIDTH and line.strip() != head.strip():
            lines.append(line.rstrip())
            line = " " * indent
        line += piece
    lines.append(line)
    return lines


def methods(name: str, fields: list[tuple[str, str, str | None]], indent: str = "    ") -> list[str]:
    """The ``__init__`` and ``__reduce__`` of class ``name`` with these fields (lines, without newlines)."""
    params = [f"{n}: {a}" + (f" = {d}" if d is not None else "") for n, a, d in fields]
    head = f"{indent}def __init__(self, "
    lines = _wrap(head, params, ") -> None:", len(head) - len("self, "))
    lines += [f"{indent}    self.{n} = {n}" for n, _, _ in fields]
    lines.append("")
    lines.append(f"{indent}def __reduce__(self) -> tuple[type[{name}], tuple[object, ...]]:")
    head = f"{indent}    return ({name}, ("
    lines += _wrap(head, [f"self.{n}" for n, _, _ in fields], ",))" if len(fields) == 1 else "))", len(head))
    return lines


def generate(source: str) -> str:
    """``source`` with every marked block rewritten from its class's fields."""
    tree = ast.parse(source)
    lines = source.splitlines()
    blocks: list[tuple[int, int, list[str]]] = []
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        i = cls.lineno   # (0-based: the line after the class statement)
        while i < len(lines):
            text = lines[i]
            if i >= (cls.end_lineno or 0) and text.strip() and len(text) - len(text.lstrip()) <= cls.col_offset:
                break   # past the class's last statement (a block may close a class: comments are no statements)
            if text.strip() == BEGIN:
                end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == END)
                indent = text[: len(text) - len(text.lstrip())]
                blocks.append((i + 1, end, methods(cls.name, fields_of(cls, source), indent)))
                i = end
            i += 1
    for first, end, new in sorted(blocks, reverse=True):
        lines[first:end] = new
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def _is_init_false_dataclass(cls: ast.ClassDef) -> bool:
    for dec in cls.decorator_list:
        if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Name) and dec.func.id == "dataclass":
            return any(k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
                       for k in dec.keywords)
    return False


def _is_dataclass(cls: ast.ClassDef) -> bool:
    return any((isinstance(d, ast.Name) and d.id == "dataclass")
               or (isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "dataclass")
               for d in cls.decorator_list)


def mismatches(source: str, where: str = "") -> list[str]:
    """Where the written-out methods of ``source`` disagree with the fields of their class: a marked block
    that is not what :func:`generate` writes; a dataclass with ``init=False`` whose ``__init__`` does not take
    its fields, in order, by name; a dataclass whose ``__reduce__`` does not pass ``self.<field>`` of every
    field, in order (the ``__init__`` it rebuilds through)."""
    found = []
    lines = generate(source).splitlines()
    for no, (old, new) in enumerate(zip(source.splitlines(), lines, strict=False), 1):
        if old != new:
            found.append(f"{where}:{no}: a written-out block is not what its fields give (python -m "
                         "preflog.model.writeout rewrites it)")
            break
    if len(lines) != len(source.splitlines()) and not found:
        found.append(f"{where}: a written-out block is not what its fields give")
    for cls in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef) and _is_dataclass(n)):
        names = [n for n, _, _ in fields_of(cls, source)]
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            if fn.name == "__init__" and _is_init_false_dataclass(cls):
                params = [a.arg for a in fn.args.args[1:] + fn.args.kwonlyargs]
                if params != names:
                    found.append(f"{where}:{fn.lineno}: {cls.name}.__init__ takes {params}, its fields are {names}")
            if fn.name == "__reduce__":
                ret = next((n.value for n in ast.walk(fn) if isinstance(n, ast.Return)), None)
                args = ret.elts[1] if isinstance(ret, ast.Tuple) and len(ret.elts) == 2 else None
                passed = [e.attr for e in args.elts if isinstance(e, ast.Attribute)] \
                    if isinstance(args, ast.Tuple) else None
                if passed != names:
                    found.append(f"{where}:{fn.lineno}: {cls.name}.__reduce__ passes {passed}, its fields are "
                                 f"{names}")
    return found
