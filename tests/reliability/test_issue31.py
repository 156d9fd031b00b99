"""The store's defects of issue 31 (D2, D3, D5, D6, D7, D9), each as found, through the command line.

Each test failed on main e2e6e22: D2 and D3 passed ``verify`` as clean, D5 had no way to find the edit,
D6 raised a traceback, D7 ran out of memory (``/dev/zero``), hung (a FIFO) or said nothing of the key, D9
printed no JSON. The last test tampers a keyed store in every way the suite knows, one at a time, and
wants each reported under its own finding code with exit 1.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.store.keyed import KEY_MAX
from preflog.store.keyed import fingerprint

from .tampering import KEY
from .tampering import THIRD
from .tampering import build_store
from .tampering import delete_last_commit
from .tampering import drop_setting
from .tampering import events
from .tampering import forge_pulka
from .tampering import key_env
from .tampering import last_version
from .tampering import rewrite_projection
from .tampering import set_heads_record
from .tampering import strip_heads_log

runner = CliRunner()


def cli(args: list[str], key: str | None = KEY, **env: str) -> tuple[int, str, str]:
    with key_env(key):
        res = runner.invoke(app, args, env={"COLUMNS": "80", **env})
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, res.stdout, res.stderr


def verify_json(root: Path, key: str | None = KEY, deep: bool = False) -> tuple[int, dict[str, object]]:
    code, out, _err = cli(["verify", "--json", "--store", str(root), *(["--deep"] if deep else [])], key)
    return code, json.loads(out)


def kinds(doc: dict[str, object]) -> list[str]:
    problems = doc["problems"]
    assert isinstance(problems, list)
    return [p["kind"] for p in problems]


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("keyed") / "st")


@pytest.fixture
def store(keyed: Path, tmp_path: Path) -> Path:
    root = tmp_path / "st"
    shutil.copytree(keyed, root)
    return root


def test_a_keyed_store_verifies_clean(store: Path) -> None:
    code, doc = verify_json(store, deep=True)
    assert (code, doc["clean"], doc["error"], doc["pulkas"]) == (0, True, None, 4)


def test_d2_a_dropped_heads_log_setting_does_not_switch_the_check_off(store: Path) -> None:
    """D2: a commit drops ``preflog.headsLog``; a forged pulka (its own record and link, no key) follows and
    a ``stats`` projects it. On main e2e6e22 verify then said "store verifies clean"."""
    drop_setting(store)
    forge_pulka(store, "forged")
    assert cli(["stats", "players", "--store", str(store)])[0] == 0  # the projections take the forged pulka in
    code, doc = verify_json(store)
    assert code == 1
    assert kinds(doc) == ["settings", "signature", "settings", "unrecorded"]
    unrecorded = [p for p in doc["problems"] if p["kind"] == "unrecorded"]  # type: ignore[attr-defined]
    assert [p["pulka"] for p in unrecorded] == ["forged"]


def test_d3_a_deleted_last_commit_shows_after_the_next_import_and_a_rebuild(store: Path) -> None:
    """D3: the last commit (3 pulkas) deleted; the next import is refused (it would write its own commit
    at that number); a writer that does not know the witness writes one there all the same (signed with
    the key); the projections deleted and rebuilt by ``stats``. The loss still shows, from the log and
    its witness alone."""
    assert delete_last_commit(store) == 2
    code, _out, err = cli(["import", str(THIRD), "--store", str(store)])
    assert code == 2 and "commits are missing from _delta_log" in err
    forge_pulka(store, "other", key=KEY.encode())
    assert last_version(store) == 2
    shutil.rmtree(store / "projections")
    assert cli(["stats", "players", "--store", str(store)])[0] == 0
    code, doc = verify_json(store)
    assert code == 1 and kinds(doc) == ["witness"]
    code, out, _err = cli(["verify", "--store", str(store)])
    assert code == 1 and "store verifies clean" not in out


def test_d5_a_projection_rewritten_with_its_manifest_shows_under_deep(store: Path) -> None:
    """D5: a projection value edited and its manifest's SHA-256 rewritten: the SHA check cannot see it
    (docs/security.md says so); ``verify --deep`` replays the pulkas and finds the row."""
    pulka = rewrite_projection(store)
    assert verify_json(store)[0] == 0
    code, doc = verify_json(store, deep=True)
    assert code == 1 and kinds(doc) == ["derived"]
    assert doc["problems"][0]["pulka"] == pulka  # type: ignore[index]
    assert "pulya" in doc["problems"][0]["detail"]  # type: ignore[index]


@pytest.mark.parametrize("record", ['{"p": 5}', "[1, 2]", '{"p": [1]}', "not json", '{"p": ["1", 2]}'])
def test_d6_a_damaged_heads_record_is_a_finding(store: Path, record: str) -> None:
    set_heads_record(store, 2, record)
    code, doc = verify_json(store)
    assert code == 1 and "record" in kinds(doc), doc
    code, out, err = cli(["verify", "--store", str(store)])
    assert code == 1 and "Traceback" not in out + err


def _key_file_run(tmp: Path, key_file: str, store: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PREFLOG_KEY_FILE": key_file, "COLUMNS": "80"}
    env.pop("PREFLOG_KEY", None)
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
    return subprocess.run([sys.executable, "-c", limit + "from preflog.cli.app import main; main()", "verify",
                           "--store", str(store)], capture_output=True, text=True, timeout=60, env=env, cwd=tmp)


@pytest.mark.parametrize("kind", ["dev_zero", "fifo", "folder", "big"])
def test_d7_a_key_file_that_is_no_key_is_refused_in_one_line(store: Path, tmp_path: Path, kind: str) -> None:
    """D7: ``/dev/zero`` ran out of memory and a FIFO with no writer hung; both, a folder and a file of
    more than 4 KB are refused at once, in one line naming the file."""
    if kind == "dev_zero":
        path = "/dev/zero"
    elif kind == "fifo":
        path = str(tmp_path / "key.fifo")
        os.mkfifo(path)
    elif kind == "folder":
        path = str(tmp_path)
    else:
        path = str(tmp_path / "big.key")
        Path(path).write_bytes(b"k" * (KEY_MAX + 1))
    try:
        res = _key_file_run(tmp_path, path, store)
    except subprocess.TimeoutExpired:
        pytest.fail(f"verify with the key file {path} hung")
    assert res.returncode == 2, res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and path in lines[0] and "key file" in lines[0], res.stderr


def test_d7_a_wrong_key_is_named_by_fingerprint_never_by_itself(store: Path) -> None:
    wrong = "not the club's key"
    code, out, _err = cli(["verify", "--store", str(store)], key=wrong)
    assert code == 1
    assert "key does not match the one this store was sealed with" in out
    assert fingerprint(KEY.encode()) in out and fingerprint(wrong.encode()) in out
    assert wrong not in out and KEY not in out


def test_d7_a_key_for_a_store_sealed_without_one_is_said_once(tmp_path: Path) -> None:
    root = build_store(tmp_path / "plain", key=None)
    code, doc = verify_json(root)
    assert kinds(doc)[:1] == ["key"] and "signature" not in kinds(doc) and code == 1
    assert "sealed without a key" in doc["problems"][0]["detail"]  # type: ignore[index]
    assert fingerprint(KEY.encode()) in doc["problems"][0]["detail"]  # type: ignore[index]


def test_d9_verify_json_prints_json_on_every_exit_path(store: Path, tmp_path: Path) -> None:
    """D9: a damaged data file used to exit 2 with no JSON; so did a store that is not there and a log
    that cannot be read. Each now prints one JSON document with an ``error`` member (or the problems)."""
    data = sorted(events(store).glob("*.parquet"))[0]
    data.write_bytes(data.read_bytes()[: data.stat().st_size // 2])
    code, doc = verify_json(store)
    assert code == 1 and kinds(doc)[0] == "file" and doc["error"] is None and doc["clean"] is False
    code, doc = verify_json(tmp_path / "nothing here")
    assert code == 2 and doc["kind"] == "verify" and "no preflog store" in str(doc["error"])
    (events(store) / "_delta_log" / f"{0:020d}.json").write_text("{not json\n")
    code, doc = verify_json(store)
    assert code in (1, 2) and doc["kind"] == "verify" and (doc["error"] or doc["problems"])


def test_a_keyed_store_tampered_in_every_way_reports_each_under_its_own_code(keyed: Path, tmp_path: Path) -> None:
    """Each tampering on its own copy of the keyed store: verify exits 1 and names it with its code."""
    def dropped(root: Path) -> None:
        drop_setting(root, "preflog.headsLog")

    def log_removed(root: Path) -> None:
        strip_heads_log(root)

    def deleted_and_written_over(root: Path) -> None:
        delete_last_commit(root)
        forge_pulka(root, "other", key=KEY.encode())

    def forged(root: Path) -> None:
        forge_pulka(root, "forged")

    def projection(root: Path) -> None:
        rewrite_projection(root)

    def witness_removed(root: Path) -> None:
        (events(root) / "_preflog.witness").unlink()

    cases = {dropped: "settings", log_removed: "record", deleted_and_written_over: "witness",
             forged: "signature", projection: "derived", witness_removed: "witness"}
    for n, (tamper, code_name) in enumerate(cases.items()):
        root = tmp_path / f"case{n}"
        shutil.copytree(keyed, root)
        tamper(root)
        code, doc = verify_json(root, deep=tamper is projection)
        assert code == 1 and code_name in kinds(doc), (tamper.__name__, doc)
    # and the kinds differ between the cases that the issue lists
    assert len({cases[dropped], cases[log_removed], cases[deleted_and_written_over], cases[projection]}) == 4
