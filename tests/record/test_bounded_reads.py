"""Reading a record file is bounded: only regular files, at most so many bytes and so long a line
(both configurable), links inside folders not followed, and a message quotes a short excerpt only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from preflog.errors import FileError
from preflog.record import RecordError
from preflog.record import read_file_records
from preflog.record import record_files
from preflog.record.api import MAX_FILE_BYTES_ENV
from preflog.record.api import MAX_LINE_CHARS_ENV
from preflog.record.api import LimitError
from preflog.record.api import Limits

from .conftest import doc_blocks


def test_a_file_over_the_size_limit_is_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "big.pref"
    record.write_text(doc_blocks("pref")[0], encoding="utf-8")
    assert read_file_records(record)  # fine under the default limit
    size = record.stat().st_size
    monkeypatch.setenv(MAX_FILE_BYTES_ENV, str(size - 1))
    with pytest.raises(FileError) as exc:
        read_file_records(record)
    assert str(exc.value) == (f"{record}: holds {size:,} bytes, more than the limit of {size - 1:,} for one "
                              f"record file (raise it with {MAX_FILE_BYTES_ENV})")
    monkeypatch.setenv(MAX_FILE_BYTES_ENV, str(size))
    assert read_file_records(record)


def test_the_size_limits_take_units_and_refuse_nonsense(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MAX_FILE_BYTES_ENV, "3M")
    monkeypatch.setenv(MAX_LINE_CHARS_ENV, "2k")
    assert Limits.from_env() == Limits(3 * 1024 * 1024, 2048)
    for bad in ("0", "-5", "lots", "1.5G", "²"):
        monkeypatch.setenv(MAX_FILE_BYTES_ENV, bad)
        with pytest.raises(LimitError, match=MAX_FILE_BYTES_ENV):
            Limits.from_env()


def test_a_line_over_the_limit_is_located_and_quoted_short(tmp_path: Path) -> None:
    """A 200,000-character line (over the default 65,536) is refused at its line, quoting 40 characters."""
    text = doc_blocks("pref")[0]
    lines = text.splitlines()
    lines.insert(3, "x" * 200_000)
    record = tmp_path / "long.pref"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as exc:
        read_file_records(record)
    assert (exc.value.line, exc.value.column) == (4, 1)
    assert str(exc.value) == (f"{record}:4:1: '{'x' * 39}…' starts a line of 200,000 characters, more than the "
                              f"limit of 65,536 (raise it with {MAX_LINE_CHARS_ENV})")


def test_the_line_limit_counts_a_line_without_its_break(tmp_path: Path) -> None:
    """Lines of 9, 19 and 9 characters: a limit of 19 passes the reader's size check (the record is then
    read as usual), 18 stops at line 2 and quotes that line alone; an unterminated last line counts too."""
    record = tmp_path / "short.pref"
    record.write_text('; comment\n[Players "A, B, C"]\n; comment\n', encoding="utf-8")
    assert len(read_file_records(record, Limits(1 << 20, 19))) == 1
    with pytest.raises(RecordError) as exc:
        read_file_records(record, Limits(1 << 20, 18))
    assert str(exc.value) == (f"{record}:2:1: '[Players \"A, B, C\"]' starts a line of 19 characters, "
                              f"more than the limit of 18 (raise it with {MAX_LINE_CHARS_ENV})")
    record.write_text("; comment\n" * 3 + "; comment!!", encoding="utf-8")
    assert read_file_records(record, Limits(1 << 20, 11)) == []
    with pytest.raises(RecordError, match=r":4:1: '; comment!!' starts a line of 11 characters"):
        read_file_records(record, Limits(1 << 20, 10))
    assert read_file_records(record, Limits(1 << 20, 10_000)) == []  # a limit over the file's length


def test_a_long_offending_token_is_quoted_by_an_excerpt(tmp_path: Path) -> None:
    """Under the line limit, a 50,000-character bad card is still quoted by 60 characters at most."""
    text = doc_blocks("pref")[0]
    hand = next(line for line in text.splitlines() if line.startswith("A: "))
    record = tmp_path / "card.pref"
    record.write_text(text.replace(hand, "A: " + "Q" * 50_000, 1), encoding="utf-8")
    with pytest.raises(RecordError) as exc:
        read_file_records(record)
    assert len(str(exc.value)) < 400, str(exc.value)[:400]
    assert "Q" * 59 + "…" in str(exc.value)


@pytest.mark.parametrize("kind", ["folder", "device"])
def test_what_is_not_a_regular_file_is_refused_without_reading(tmp_path: Path, kind: str) -> None:
    """A folder, or a device (/dev/null here; /dev/zero and FIFOs, which never end or block, are tried
    in a child process by tests/cli/test_bounded_reads_cli.py)."""
    if kind == "folder":
        path = tmp_path / "games.pref"
        path.mkdir()
        expected = "is a folder, not a record file"
    else:
        path = Path("/dev/null")
        expected = "is a device, not a record file"
    with pytest.raises(FileError) as exc:
        read_file_records(path)
    assert str(exc.value) == f"{path}: {expected}"


def test_links_inside_folders_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "deeper").mkdir(parents=True)
    (outside / "secret.pref").write_text("x", encoding="utf-8")
    (outside / "deeper" / "also.pref").write_text("x", encoding="utf-8")
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.pref").write_text("x", encoding="utf-8")
    (folder / "sub" / "b.json").write_text("x", encoding="utf-8")
    (folder / "linked.pref").symlink_to(outside / "secret.pref")
    (folder / "sub" / "linked-dir").symlink_to(outside, target_is_directory=True)
    os.mkfifo(folder / "pipe.pref")
    assert record_files([folder]) == [folder / "a.pref", folder / "sub" / "b.json"]
    # a link named directly is the user's choice and is read
    assert record_files([folder / "linked.pref"]) == [folder / "linked.pref"]


def test_a_message_quoting_user_input_in_its_sentence_stays_short(tmp_path: Path) -> None:
    """An unknown 60,000-character preset is named inside the expectation (the rules' own message):
    the whole message stays under 500 characters, for text and JSON alike."""
    record = tmp_path / "rules.pref"
    record.write_text('[Players "Ann, Bob, Cid"]\n[Rules "' + "s" * 60_000 + '"]\n', encoding="utf-8")
    as_json = tmp_path / "rules.json"
    as_json.write_text('{"players": ["Ann", "Bob", "Cid"], "rules": "' + "s" * 60_000 + '"}', encoding="utf-8")
    for path in (record, as_json):
        with pytest.raises(RecordError) as exc:
            read_file_records(path)
        assert "is not a rules spec" in str(exc.value) and len(str(exc.value)) < 500
