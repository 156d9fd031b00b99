"""Reading and writing records: the public entry points of :mod:`preflog.record`."""

from __future__ import annotations

import gc
import json
import os
import stat
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from typing import NamedTuple

from preflog.errors import FileError
from preflog.errors import PreflogError
from preflog.model.events import Event

from .build import Record
from .build import build_records
from .build import unbuild
from .errors import Loc
from .errors import RecordError
from .errors import excerpt
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

MAX_FILE_BYTES_ENV = "PREFLOG_MAX_FILE_BYTES"
MAX_LINE_CHARS_ENV = "PREFLOG_MAX_LINE_CHARS"
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


class LimitError(PreflogError, ValueError):
    """A size limit set to something that is not a positive size (names the variable and its value)."""


class Limits(NamedTuple):
    """How much one record file (or standard input) may hold: bytes of the whole file and characters
    of one line. Far above any real record (a pulka is a few kilobytes, a line of it under a hundred
    characters), they keep a wrong input (``/dev/zero``, a log file, a one-line dump) from filling
    memory. Set by :data:`MAX_FILE_BYTES_ENV` and :data:`MAX_LINE_CHARS_ENV` (see :meth:`from_env`)."""

    max_file_bytes: int = 256 << 20
    max_line_chars: int = 64 << 10

    @classmethod
    def from_env(cls) -> Limits:
        """The defaults, each replaced by its environment variable when set: a whole number,
        optionally followed by ``K``, ``M`` or ``G`` (powers of 1024), e.g. ``PREFLOG_MAX_FILE_BYTES=1G``."""
        default = cls()
        return cls(_env_size(MAX_FILE_BYTES_ENV, default.max_file_bytes),
                   _env_size(MAX_LINE_CHARS_ENV, default.max_line_chars))


def _env_size(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    digits, unit = (raw[:-1], raw[-1].lower()) if raw[-1].lower() in _UNITS else (raw, "")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 15 or int(digits) == 0:
        raise LimitError(f"{name}={excerpt(raw)!r} is not a size (expected a positive whole number, "
                         "optionally followed by K, M or G)")
    return int(digits) * _UNITS[unit]


def _is_walkable(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _folder_files(folder: Path) -> list[Path]:
    """Record files under ``folder``, recursively; symbolic links (to files or folders) and anything
    that is not a regular file (a FIFO, a device) are not followed."""
    out: list[Path] = []
    todo = [str(folder)]
    while todo:
        try:
            with os.scandir(todo.pop()) as it:
                entries = list(it)
        except OSError as exc:
            raise FileError.of(exc) from None
        for entry in entries:
            if _is_walkable(entry):
                todo.append(entry.path)
            elif entry.is_file(follow_symlinks=False) and Path(entry.name).suffix.lower() in RECORD_SUFFIXES:
                out.append(Path(entry.path))
    return sorted(out)


def record_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files named directly, and record files found under folders (sorted, recursive; symbolic links
    inside folders are skipped); a path that does not exist raises :class:`~preflog.errors.FileError`."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(_folder_files(path))
        elif path.exists():
            out.append(path)
        else:
            raise FileError(path, "no such file or folder")
    return out


def read_any(path: Path | str, limits: Limits | None = None) -> list[Record]:
    """Records of one file, text or JSON; ``-`` reads standard input (both within ``limits``,
    default :meth:`Limits.from_env`)."""
    if str(path) == "-":
        import sys

        lim = limits or Limits.from_env()
        raw = sys.stdin.buffer.read(lim.max_file_bytes + 1) if hasattr(sys.stdin, "buffer") else \
            sys.stdin.read(lim.max_file_bytes + 1).encode("utf-8", "surrogatepass")
        text = _decoded(raw, "<stdin>", lim)
        _check_lines(text, "<stdin>", lim)
        if text.lstrip().startswith("{"):  # a JSON record (``export --format json | preflog import -``)
            return read_json_records(text, "<stdin>")
        return read_records(text, "<stdin>")
    return read_file_records(path, limits)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bounded(path: str | Path, limits: Limits | None = None) -> str:
    """The UTF-8 text of a record file, refusing what is not a regular file (a folder, a FIFO, a
    device such as ``/dev/zero``) and a file over ``limits.max_file_bytes``, with a
    :class:`~preflog.errors.FileError` naming it. Never blocks on a FIFO: it is opened without waiting
    for a writer, then refused."""
    lim = limits or Limits.from_env()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise FileError.of(exc, path) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileError(path, f"is {_kind(st.st_mode)}, not a record file")
        if st.st_size > lim.max_file_bytes:
            raise FileError(path, _too_big(st.st_size, lim))
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(lim.max_file_bytes + 1)
    except OSError as exc:
        raise FileError.of(exc, path) from None
    finally:
        os.close(fd)
    return _decoded(raw, str(path), lim)


def _too_big(size: int | None, lim: Limits) -> str:
    over = f"more than the limit of {lim.max_file_bytes:,}" if size is not None else \
        f"more than the limit of {lim.max_file_bytes:,} bytes"
    return (f"holds {size:,} bytes, {over}" if size is not None else f"holds {over}") + \
        f" for one record file (raise it with {MAX_FILE_BYTES_ENV})"


def _decoded(raw: bytes, source: str, lim: Limits) -> str:
    if len(raw) > lim.max_file_bytes:  # grew while read, or a stream
        raise FileError(source, _too_big(None, lim))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(source, Loc(), "", f"is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    # universal newlines, as a file opened in text mode reads them
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _check_lines(text: str, source: str, lim: Limits) -> None:
    """Refuse a line longer than ``lim.max_line_chars``, located and quoted by its start only. Linear:
    each step jumps to the last line break within the next window, so short lines cost nothing extra."""
    width, n, pos = lim.max_line_chars, len(text), 0
    while n - pos > width:
        nl = text.rfind("\n", pos, pos + width + 1)
        if nl < 0:
            end = text.find("\n", pos)
            end = n if end < 0 else end
            length = end - pos
            raise RecordError(source, Loc(text.count("\n", 0, pos) + 1, 1), excerpt(text[pos:min(end, pos + 41)], 40),
                              f"starts a line of {length:,} characters, more than the limit of {width:,} "
                              f"(raise it with {MAX_LINE_CHARS_ENV})")
        pos = nl + 1


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


def read_file_records(path: str | Path, limits: Limits | None = None) -> list[Record]:
    """Every pulka of a record file: JSON when it ends in ``.json`` or starts with ``{``, else text.

    The file must be a regular file within ``limits`` (default :meth:`Limits.from_env`; a text
    record's lines too): see :func:`read_bounded`."""
    p = Path(path)
    lim = limits or Limits.from_env()
    text = read_bounded(p, lim)
    if p.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        return read_json_records(text, str(path))
    _check_lines(text, str(path), lim)
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
