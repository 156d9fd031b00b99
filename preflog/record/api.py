"""Reading and writing records: the public entry points of :mod:`preflog.record`."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from preflog.errors import FileError
from preflog.model.events import Event

from .build import Record
from .build import build_records
from .build import unbuild
from .errors import Loc
from .errors import RecordError
from .jsonfmt import parse_json
from .jsonfmt import render_obj
from .textfmt import parse_text
from .textfmt import render_text


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector around a bulk read.

    Reading makes hundreds of thousands of small acyclic objects (syntax nodes, events); each
    allocation burst would trigger collections that re-scan every live object, which costs more
    than the reading itself on big inputs. Reference counting still frees everything; the
    collector resumes (and catches up) when the block ends.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


RECORD_SUFFIXES = (".pref", ".txt", ".json", ".pgn")


def record_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files named directly, and record files found under folders (sorted, recursive); a path that
    does not exist raises :class:`~preflog.errors.FileError`."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(f for f in path.rglob("*") if f.is_file() and f.suffix.lower() in RECORD_SUFFIXES))
        elif path.exists():
            out.append(path)
        else:
            raise FileError(path, "no such file or folder")
    return out


def read_any(path: Path | str) -> list[Record]:
    """Records of one file, text or JSON; ``-`` reads standard input."""
    if str(path) == "-":
        import sys

        text = sys.stdin.read()
        if text.lstrip().startswith("{"):  # a JSON record (``export --format json | preflog import -``)
            return read_json_records(text, "<stdin>")
        return read_records(text, "<stdin>")
    return read_file_records(path)


def read_records(text: str, source: str = "<string>") -> list[Record]:
    """Every pulka of a text record; a file with any error raises :class:`RecordError` and yields nothing."""
    with gc_paused():
        return build_records(parse_text(text, source), source)


def read_text(text: str, source: str = "<string>") -> list[Event]:
    """The events of a text record holding exactly one pulka."""
    return _single(read_records(text, source), source)


def read_json_records(data: str | bytes | dict[str, Any], source: str = "<json>") -> list[Record]:
    """Every pulka of a JSON record (text or decoded object)."""
    with gc_paused():
        return build_records(parse_json(data, source), source)


def read_json(data: str | bytes | dict[str, Any], source: str = "<json>") -> list[Event]:
    """The events of a JSON record holding exactly one pulka."""
    return _single(read_json_records(data, source), source)


def read_file_records(path: str | Path) -> list[Record]:
    """Every pulka of a record file: JSON when it ends in ``.json`` or starts with ``{``, else text."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(str(path), Loc(), "", f"is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if p.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        return read_json_records(text, str(path))
    return read_records(text, str(path))


def read_file(path: str | Path) -> list[Event]:
    """The events of a record file (text or JSON) holding exactly one pulka."""
    return _single(read_file_records(path), str(path))


def _split_pulkas(events: Sequence[Event] | Iterable[Record]) -> list[Event]:
    return [e for x in events for e in (x.events if isinstance(x, Record) else (x,))]


def write_text(events: Sequence[Event] | Iterable[Record], style: str = "latin") -> str:
    """Canonical text of one or more pulkas (each starts at its ``PulkaStarted``).

    ``style="unicode"`` spells suits ♠ ♣ ♦ ♥ instead of the canonical Latin letters.
    Events the format cannot hold raise :class:`~preflog.record.errors.RecordWriteError`.
    """
    return render_text(unbuild(_split_pulkas(events), style))


def write_json_obj(events: Sequence[Event] | Iterable[Record]) -> dict[str, Any]:
    """The JSON form as a Python object (see schemas/record.schema.json)."""
    return render_obj(unbuild(_split_pulkas(events)))


def write_json(events: Sequence[Event] | Iterable[Record]) -> str:
    """Canonical JSON text of one or more pulkas."""
    return _dump(write_json_obj(events), "") + "\n"


def _dump(v: Any, pad: str) -> str:
    """JSON with one line per deal step: containers holding only scalars or pairs stay on one line."""
    flat = json.dumps(v, ensure_ascii=False)
    if not isinstance(v, (list, dict)) or len(flat) + len(pad) <= 100:
        return flat
    inner = pad + "  "
    if isinstance(v, list):
        body = ",\n".join(inner + _dump(x, inner) for x in v)
        return f"[\n{body}\n{pad}]"
    body = ",\n".join(f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dump(x, inner)}" for k, x in v.items())
    return f"{{\n{body}\n{pad}}}"


def write_file(path: str | Path, events: Sequence[Event] | Iterable[Record]) -> None:
    """Write a record file; JSON when the name ends in ``.json``, else canonical text."""
    p = Path(path)
    p.write_text(write_json(events) if p.suffix.lower() == ".json" else write_text(events), encoding="utf-8")


def _single(records: list[Record], source: str) -> list[Event]:
    if len(records) != 1:
        problem = "holds no pulka" if not records else f"holds {len(records)} pulkas"
        raise RecordError(source, Loc(), "", problem, "exactly one pulka here; read_records reads several")
    return list(records[0].events)
