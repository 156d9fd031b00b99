"""Streaming: a record file read one pulka at a time, in bounded memory.

A text record is cut into **blocks**, one pulka each, before anything is parsed: a block starts at
a tag line that begins a new pulka (a tag after a deal or an ``End`` line, or a second ``Players``
tag: exactly where the parser starts one) or, when own-line comments and blank lines lead up to
that tag, at the first of them. Each block keeps the number of its first line in the file, so
every location stays the file's own. The cut is found by a few regular expressions over a whole
chunk of text (the comments blanked out first), not by a loop over lines, so it costs little next
to the parse; a block is then parsed and built on its own
(:func:`~preflog.record.textfmt.parse_text`, :func:`~preflog.record.reader.build_records`), in this process
or on a worker (:mod:`preflog.importer` hands out runs of blocks of one big file).

Bytes are read in chunks of whole lines (:func:`byte_chunks`), decoded, and checked against the
:class:`~preflog.record.api.Limits` as they come, so an error is found where it stands in the file
and names the same byte, line and limit as when the whole file was read at once.

JSON is streamed by documents: a file may hold several JSON documents one after another (JSON
lines, or ``simulate --format json`` of several pulkas), each a record document or one pulka.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Iterator
from typing import BinaryIO
from typing import NamedTuple

from .errors import Loc
from .errors import RecordError
from .errors import excerpt

CHUNK_BYTES = 1 << 20   # bytes read at a time (whole lines: the chunk ends at its last line break)

# A line that may matter for the cut, in comment-blanked text: a tag line, a deal header (the word
# deal, not a longer word; a line starting with a digit is a trick line, never a header) or an End
# line (the key "End" before a colon). The same spellings as the parser's (textfmt._DEAL, KEYWORDS).
_MARK = re.compile(r"(?mi)^(?:[^\S\n]|\ufeff)*+(?:(\[)|(?:deal|сдача|раздача)(?!\w)|(?:end|конец)[^\S\n:]*+:)")
# A deal header or an End line (_MARK without its tag case).
_BODY = re.compile(r"(?mi)^(?:[^\S\n]|\ufeff)*+(?:(?:deal|сдача|раздача)(?!\w)|(?:end|конец)[^\S\n:]*+:)")
_PLAYERS_TAG = re.compile(r'(?i)\[\s*+players\s*+"')


class Block(NamedTuple):
    """The text of one pulka (or, at the start of a file, of whatever precedes the first one) and
    the number of its first line in the file."""

    line: int
    text: str


def blank_for_cut(text: str) -> tuple[str, int]:
    """``text`` with its comments (``;`` to the end of the line, ``{ … }``) replaced by spaces, line
    breaks kept except inside a closed ``{ … }`` (the parser blanks them so too, but keeps those; ``"…"``
    quotes a ``;`` or ``{`` up to the end of its line); and the offset of a ``{`` never closed in ``text``
    (its comment may close in the next chunk), or ``len(text)``. Never raises: a stray ``}`` is left for
    the parser to refuse at its place."""
    if ";" not in text and "{" not in text:
        return text, len(text)
    out: list[str] = []
    n, i, last = len(text), 0, 0
    special, quoted = _SPECIAL.search, _QUOTED.match
    while True:
        m = special(text, i)
        if m is None:
            break
        i = m.start()
        ch = text[i]
        if ch == '"':
            j = i + 1
            while True:
                j = quoted(text, j).end()  # type: ignore[union-attr]  # the pattern may match nothing
                if j >= n:
                    break
                j += 1
                if text[j - 1] != "\\":  # '"' or a line break ends the quote (a backslash before one does not)
                    break
            i = j
        elif ch == ";":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(text[last:i])
            out.append(" " * (j - i))
            i = last = j
        else:  # "{"
            j = text.find("}", i)
            if j < 0:
                out.append(text[last:i])
                return "".join(out) + _NOT_NEWLINE.sub(" ", text[i:]), i
            out.append(text[last:i])
            # its line breaks too: to the cutter a comment over several lines is part of the line it opens
            # on, so no cut falls inside it (a cut there gave its tail to the next pulka, never closed)
            out.append(" " * (j + 1 - i))
            i = last = j + 1
    out.append(text[last:])
    return "".join(out), n


_SPECIAL = re.compile(r'["{;]')
_QUOTED = re.compile(r'(?:[^"\\\n]|\\[^\n])*+')
_NOT_NEWLINE = re.compile(r"[^\n]")


def cut_points(blanked: str, end: int) -> list[int]:
    """Offsets in ``blanked[:end]`` where a new pulka's block begins, the text starting as a file
    does (its first tag begins a pulka).

    The state is the parser's: whether a pulka has begun, whether it has a deal or an End line,
    whether it has its ``Players`` tag; a tag line after a deal or an End line, or a second
    ``Players`` tag, begins the next pulka. Tag lines are found by their ``[`` (a fast scan: a few a
    pulka), and whether a deal or an End line stands between two of them by one search of the lines
    between (it stops at the first): every line of the file is not matched one by one."""
    cuts: list[int] = []
    has_pulka = players = False
    prev = -1   # where the previous tag line starts
    find, rfind = blanked.find, blanked.rfind
    i = find("[", 0, end)
    while i >= 0:
        start = rfind("\n", 0, i) + 1
        if start == i or not blanked[start:i].replace("\ufeff", "").strip():  # a tag line (_MARK's first case)
            is_players = _PLAYERS_TAG.match(blanked, i) is not None
            seen_body = has_pulka and _BODY.search(blanked, prev + 1, start) is not None
            if not has_pulka or seen_body or (is_players and players):
                if has_pulka:
                    cuts.append(_lead_start(blanked, start))
                has_pulka, players = True, False
            players = players or is_players
            prev = start
            i = find("\n", i, end)  # one tag a line
            if i < 0:
                break
        i = find("[", i + 1, end)
    return cuts


def _lead_start(blanked: str, line_start: int) -> int:
    """The start of the blank (or comment-only) lines that lead up to the line at ``line_start``: the
    line after the last one with content. Comments there belong to what follows them."""
    i = line_start
    while i > 0:
        prev = blanked.rfind("\n", 0, i - 1) + 1  # start of the line before
        if blanked[prev:i - 1].strip():
            return i
        i = prev
    return i


def text_blocks(chunks: Iterable[str], first_line: int = 1) -> Iterator[Block]:
    """The blocks of a text record given as pieces of text, each ending with a line break except
    perhaps the last (as :func:`byte_chunks` cuts them); a block may span pieces. The text after
    the last cut is carried into the next piece and scanned again with it (it is one pulka at most)."""
    carry = ""
    line = first_line
    for chunk in chunks:
        text = carry + chunk if carry else chunk
        blanked, end = blank_for_cut(text)
        # lines from an unclosed comment on are cut only once the comment closes (or the text ends)
        limit = blanked.rfind("\n", 0, end) + 1 if end < len(text) else len(text)
        start = 0
        for cut in cut_points(blanked, limit):
            yield Block(line, text[start:cut])
            line += text.count("\n", start, cut)
            start = cut
        carry = text[start:]
    if carry:
        yield Block(line, carry)


def decoded_chunks(raw: Iterable[tuple[int, bytes]], source: str, max_line_chars: int | None,
                   limit_name: str) -> Iterator[str]:
    """UTF-8 text of byte chunks ``(offset, bytes)`` cut at line breaks, with universal newlines; a
    byte that is not UTF-8 or a line over ``max_line_chars`` is a :class:`RecordError` naming the
    byte or the line (and its length), as when the whole file is read at once."""
    line = 1
    pending_long: tuple[int, int, str] | None = None  # (line, characters so far, start) of a long line
    for offset, data in raw:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(source, Loc(), "", f"is not UTF-8 text ({exc.reason} at byte {offset + exc.start})") \
                from None
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if pending_long is not None:  # counting the rest of a line already known to be too long
            at, length, start = pending_long
            nl = text.find("\n")
            if nl < 0:
                pending_long = (at, length + len(text), start)
                continue
            assert max_line_chars is not None
            raise _long_line(source, at, start, length + nl, max_line_chars, limit_name)
        bad = None if max_line_chars is None else _first_long_line(text, max_line_chars)
        if bad is not None:
            assert max_line_chars is not None
            nl = text.find("\n", bad)
            at = line + text.count("\n", 0, bad)
            if nl < 0:
                pending_long = (at, len(text) - bad, text[bad:bad + 41])
                continue
            raise _long_line(source, at, text[bad:min(nl, bad + 41)], nl - bad, max_line_chars, limit_name)
        line += text.count("\n")
        yield text
    if pending_long is not None:
        at, length, start = pending_long
        assert max_line_chars is not None
        raise _long_line(source, at, start, length, max_line_chars, limit_name)


def _first_long_line(text: str, width: int) -> int | None:
    n, pos = len(text), 0
    while n - pos > width:
        nl = text.rfind("\n", pos, pos + width + 1)
        if nl < 0:
            return pos
        pos = nl + 1
    return None


def _long_line(source: str, line: int, start: str, length: int, width: int, limit_name: str) -> RecordError:
    return RecordError(source, Loc(line, 1), excerpt(start, 40),
                       f"starts a line of {length:,} characters, more than the limit of {width:,} "
                       f"(raise it with {limit_name})")


def byte_chunks(handle: BinaryIO, size: int | None = None, max_bytes: int | None = None,
                too_big: Exception | None = None, max_line_bytes: int | None = None) -> Iterator[tuple[int, bytes]]:
    """``(offset, bytes)`` of ``handle`` in pieces of about ``size`` bytes, each ending at a line
    break (``\\n``, or a ``\\r`` not followed by ``\\n``) except the last, and except when one line
    runs over ``max_line_bytes`` (it is then handed on in pieces cut between characters, for the
    line limit to refuse: memory stays bounded); more than ``max_bytes`` in all raises ``too_big``."""
    size = size or CHUNK_BYTES
    buf = b""
    offset = 0
    total = 0
    while True:
        data = handle.read(size)
        if max_bytes is not None:
            total += len(data)
            if total > max_bytes:
                assert too_big is not None
                raise too_big
        if not data:
            if buf:
                yield offset, buf
            return
        buf = buf + data if buf else data
        cut = buf.rfind(b"\n") + 1
        if cut == 0:
            cut = buf.rfind(b"\r", 0, len(buf) - 1) + 1
        if cut == 0:
            if max_line_bytes is None or len(buf) <= max_line_bytes:
                continue  # one long line so far: read on
            cut = len(buf) - 4
            while cut > 0 and buf[cut] & 0xC0 == 0x80:  # not inside a character
                cut -= 1
        yield offset, buf[:cut]
        offset += cut
        buf = buf[cut:]


# ------------------------------------------------------------------------------------------- JSON
_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*+"')


def json_documents(chunks: Iterable[str]) -> Iterator[tuple[int, str]]:
    """``(first line, text)`` of each JSON document in a stream of several, one after another
    (JSON lines, or pretty-printed documents back to back). Documents are cut where their brackets
    close (strings skipped); a document that does not close is handed on whole, for the JSON reader
    to refuse at its place."""
    buf: list[str] = []
    depth = 0
    line = 1
    start_line = 1
    for chunk in chunks:
        for piece in chunk.splitlines(keepends=True):
            if not buf and not piece.strip():
                line += 1
                continue
            if not buf:
                start_line = line
            buf.append(piece)
            bare = _JSON_STRING.sub("", piece) if '"' in piece else piece
            depth += bare.count("{") + bare.count("[") - bare.count("}") - bare.count("]")
            line += 1
            if depth <= 0:
                yield start_line, "".join(buf)
                buf, depth = [], 0
    if buf:
        yield start_line, "".join(buf)
