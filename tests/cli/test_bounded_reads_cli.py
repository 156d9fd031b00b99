"""What the CLI reads is bounded: ``/dev/zero``, a FIFO, a folder where a file is meant and an endless
standard input each give one line naming the input, in a child process with a time and memory limit (a
reader that does not refuse them would run out of memory or block, and fail here instead of hanging)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

MAX_FILE_BYTES_ENV = "PREFLOG_MAX_FILE_BYTES"  # documented in docs/cli.md

MEMORY = 1 << 30  # bytes of data the child may use: a reader of /dev/zero hits it within a second


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_DATA, (MEMORY, MEMORY))


def preflog(args: list[str], cwd: Path, stdin: int | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    code = "import sys; from preflog.cli.app import main; sys.argv[0] = 'preflog'; main()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, stdin=stdin, capture_output=True,
                          text=True, timeout=120, preexec_fn=_limit_memory, env={**os.environ, **(env or {})})


def test_import_refuses_devices_and_fifos_by_name(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.pref")
    res = preflog(["import", "/dev/zero", "pipe.pref", "--store", "st"], tmp_path)
    assert res.returncode == 2, res.stderr[-2000:]
    assert "Traceback" not in res.stderr
    # a refused file is one line on standard error each (the others would still be imported)
    assert "error: /dev/zero: is a device, not a record file" in res.stderr.splitlines()
    assert "error: pipe.pref: is a FIFO (named pipe), not a record file" in res.stderr.splitlines()
    assert not (tmp_path / "st").exists()


@pytest.mark.parametrize("command", ["replay", "sheet", "audit"])
def test_a_fifo_or_folder_target_is_one_line(tmp_path: Path, command: str) -> None:
    os.mkfifo(tmp_path / "pipe.pref")
    (tmp_path / "games").mkdir()
    res = preflog([command, "pipe.pref"], tmp_path)
    assert (res.returncode, res.stdout, res.stderr) == (2, "", "error: pipe.pref: is a FIFO (named pipe), not a "
                                                               "record file\n")
    res = preflog([command, "games"], tmp_path)
    assert (res.returncode, res.stderr) == (2, "error: games: is a folder, not a record file\n")


def test_endless_standard_input_stops_at_the_size_limit(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        res = preflog(["import", "-", "--store", "st"], tmp_path, stdin=zero.fileno(),
                      env={MAX_FILE_BYTES_ENV: "1M"})
    assert res.returncode == 2, res.stderr[-2000:]
    assert "Traceback" not in res.stderr
    assert ("<stdin>: holds more than the limit of 1,048,576 bytes for one record file (raise it with "
            f"{MAX_FILE_BYTES_ENV})") in res.stderr


def test_a_malformed_limit_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    res = preflog(["import", "games"], tmp_path, env={MAX_FILE_BYTES_ENV: "lots"})
    assert (res.returncode, res.stderr.strip()) == (2, f"error: {MAX_FILE_BYTES_ENV}='lots' is not a size "
                                                       "(expected a positive whole number, optionally followed "
                                                       "by K, M or G)")
