"""Reading and writing records: the public entry points of :mod:`preflog.record`."""

from __future__ import annotations

import gc
import itertools
import json
import os
import stat
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from typing import BinaryIO
from typing import NamedTuple
from typing import TextIO

from preflog.errors import FileError
from preflog.errors import PreflogError
from preflog.model.events import Event

from .errors import Loc
from .errors import RecordError
from .errors import excerpt
from .jsonfmt import parse_json
from .jsonfmt import render_obj
from .reader import Record
from .reader import build_records
from .stream import byte_chunks
from .stream import decoded_chunks
from .stream import json_documents
from .stream import text_blocks
from .textfmt import parse_text
from .textfmt import render_text
from .writer import unbuild


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


RECORD_SUFFIXES = (".pref", ".txt", ".json", ".pgn", ".ppn")

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


def _folder_files(folder: Path, skipped: list[Path] | None = None) -> list[Path]:
    """Record files under ``folder``, recursively; symbolic links (to files or folders) and anything
    that is not a regular file (a FIFO, a device) are not followed. What was passed over (files without a
    record suffix, links, anything else that is not a folder) is added to ``skipped``."""
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
            elif skipped is not None:
                skipped.append(Path(entry.path))
    if skipped is not None:
        skipped.sort()
    return sorted(out)


def record_files(paths: Iterable[str | Path], skipped: list[Path] | None = None) -> list[Path]:
    """Files named directly, and record files found under folders (sorted, recursive; symbolic links
    inside folders are skipped); a path that does not exist raises :class:`~preflog.errors.FileError`.
    ``skipped``, when given, gets what the folders held besides record files and folders (files with
    another suffix, symbolic links, FIFOs …)."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(_folder_files(path, skipped))
        elif path.exists():
            out.append(path)
        else:
            raise FileError(path, "no such file or folder")
    return out


def read_any(path: Path | str, limits: Limits | None = None) -> list[Record]:
    """Records of one file, text or JSON; ``-`` reads standard input (both within ``limits``,
    default :meth:`Limits.from_env`). A file with any error raises and yields nothing; to read a
    big file one pulka at a time, see :func:`iter_records`."""
    source = "<stdin>" if str(path) == "-" else str(path)
    with gc_paused():
        return [r for piece in record_pieces(path, limits) for r in parse_piece(piece, source)]


def iter_records(target: str | Path | BinaryIO | TextIO, source: str | None = None,
                 limits: Limits | None = None) -> Iterator[Record]:
    """The pulkas of a record, one at a time, as they are read: memory stays that of one pulka
    however big the file (python-chess reads PGN games this way).

    ``target`` is a path (``-`` for standard input) or an open file (binary or text); ``source``
    names it in errors (default: the path, or the handle's ``name``). Text records and JSON (one
    document, or several one after another: JSON lines) are told apart as :func:`read_file_records`
    does. Every location is the file's own (``Record.lines``, the ``file:line:column`` of an error).
    An error raises :class:`RecordError` when its pulka is reached, after the pulkas before it."""
    if isinstance(target, (str, Path)):
        name = source or ("<stdin>" if str(target) == "-" else str(target))
        pieces = record_pieces(target, limits)
    else:
        name = source or str(getattr(target, "name", "<stream>"))
        lim = limits or Limits.from_env()
        binary: Any = target if _is_binary(target) else _TextAsBytes(target)  # type: ignore[arg-type]
        pieces = handle_pieces(binary, name, lim, name.lower().endswith(".json"))
    for piece in pieces:
        yield from parse_piece(piece, name)


def _is_binary(handle: Any) -> bool:
    """Whether an open file reads bytes (a text handle reads str)."""
    if isinstance(getattr(handle, "mode", None), str):
        return "b" in handle.mode
    return not hasattr(handle, "encoding")


class _TextAsBytes:
    """A text handle read as UTF-8 bytes (for :func:`iter_records`)."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle

    def read(self, size: int = -1) -> bytes:
        return self.handle.read(size).encode("utf-8", "surrogatepass")


class Piece(NamedTuple):
    """A unit of a record file read on its own: one text block (one pulka, see
    :func:`preflog.record.stream.text_blocks`) or one JSON document; ``line`` is where it starts in
    the file and ``doc`` counts JSON documents (text blocks: 0)."""

    kind: str  # "text" | "json" | "ppn"
    line: int
    text: str
    doc: int = 0


def parse_piece(piece: Piece, source: str) -> list[Record]:
    """The records of one piece of ``source`` (raises :class:`RecordError` located in the file)."""
    if piece.kind == "text":
        return build_records(parse_text(piece.text, source, piece.line), source)
    if piece.kind == "ppn":
        from .ppn import read_ppn

        return read_ppn(piece.text, source, first_line=piece.line)
    located = piece.doc > 0
    return build_records(parse_json(piece.text, source, piece.line, located),
                         f"{source}:{piece.line}" if located else source)


def record_pieces(path: str | Path, limits: Limits | None = None) -> Iterator[Piece]:
    """The pieces of a record file (``-``: standard input) as they are read, within ``limits``: a
    file that is not a regular file or is over the size limit is refused before anything is read
    (:class:`~preflog.errors.FileError`), bytes that are not UTF-8 and over-long lines where they
    stand."""
    lim = limits or Limits.from_env()
    if str(path) == "-":
        import sys

        stdin: Any = sys.stdin
        handle: BinaryIO = stdin.buffer if hasattr(stdin, "buffer") else _TextAsBytes(stdin)  # type: ignore[assignment]
        yield from handle_pieces(handle, "<stdin>", lim, False, lim.max_file_bytes)
        return
    with _record_file(path, lim) as f:
        yield from handle_pieces(f, str(path), lim, Path(path).suffix.lower() == ".json", lim.max_file_bytes)


def handle_pieces(handle: BinaryIO, source: str, lim: Limits, json_name: bool,
                  max_bytes: int | None = None) -> Iterator[Piece]:
    """The pieces of an open binary stream: JSON documents when ``json_name`` or when the text starts
    with ``{``; the whole text as one PPN piece when ``source`` ends in ``.ppn`` or the text starts like PPN
    (:func:`preflog.record.ppn.is_ppn`: unquoted tag values, or a deal line ``[1 231 …``); else text blocks."""
    too_big = FileError(source, _too_big(None, lim))
    raw = byte_chunks(handle, max_bytes=max_bytes, too_big=too_big, max_line_bytes=4 * lim.max_line_chars + 4)
    first = next(raw, None)
    if first is None:
        return
    try:
        head = first[1].decode("utf-8")
    except UnicodeDecodeError:
        head = ""  # decoded_chunks says where
    chunks = itertools.chain([first], raw)
    from .ppn import PPN_SUFFIX
    from .ppn import is_ppn

    if not json_name and (source.lower().endswith(PPN_SUFFIX) or is_ppn(head)):
        text = "".join(decoded_chunks(chunks, source, lim.max_line_chars, MAX_LINE_CHARS_ENV))
        yield Piece("ppn", 1, text)
    elif json_name or head.lstrip().startswith("{"):
        for i, (line, text) in enumerate(json_documents(decoded_chunks(chunks, source, None, MAX_LINE_CHARS_ENV))):
            yield Piece("json", line, text, i)
    else:
        for block in text_blocks(decoded_chunks(chunks, source, lim.max_line_chars, MAX_LINE_CHARS_ENV)):
            yield Piece("text", block.line, block.text)


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


@contextmanager
def _record_file(path: str | Path, lim: Limits) -> Iterator[BinaryIO]:
    """A record file open for reading, refused (:class:`~preflog.errors.FileError` naming it) when it
    is not a regular file or is over the size limit; an ``OSError`` while it is read is a
    ``FileError`` too. Opened without waiting, so a FIFO is refused instead of blocking."""
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
            yield f
    except OSError as exc:
        raise FileError.of(exc, path) from None
    finally:
        os.close(fd)


def _too_big(size: int | None, lim: Limits) -> str:
    over = f"more than the limit of {lim.max_file_bytes:,}" if size is not None else \
        f"more than the limit of {lim.max_file_bytes:,} bytes"
    return (f"holds {size:,} bytes, {over}" if size is not None else f"holds {over}") + \
        f" for one record file (raise it with {MAX_FILE_BYTES_ENV})"


def read_records(text: str, source: str = "<string>") -> list[Record]:
    """Every pulka of a text record; a file with any error raises :class:`RecordError` and yields nothing."""
    with gc_paused():
        return [r for block in text_blocks((text,)) for r in
                build_records(parse_text(block.text, source, block.line), source)]


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
    record's lines too): see :func:`record_pieces`."""
    return read_any(Path(path), limits)


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
