"""The defects of issue 38, each as found, through the command line.

Each test failed on main af43c43 (run there and seen failing): a wrong or missing key imported into a
keyed store without a word and moved its seal (1); verify without the key said only "store verifies clean"
(2); a damaged checkpoint or a cut last commit made every command exit 2 naming no file, and nothing
repaired it (3); a column renamed in a data file's footer verified clean (4); a pulka of 32,768 deals was
read whole (5); an unkeyed store that lost its last commit and its witness verified clean (6). The
property test of a last commit replaced by another (a finding, never a traceback) passed on main too.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from preflog.store.keyed import fingerprint

from .tampering import KEY
from .tampering import THIRD
from .tampering import build_store
from .tampering import key_env
from .tampering import last_version
from .test_issue31 import cli  # the command line in process, with PREFLOG_KEY set for the run


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("issue38")
    return {"keyed": build_store(base / "keyed"), "plain": build_store(base / "plain", key=None)}


@pytest.fixture
def keyed(built: dict[str, Path], tmp_path: Path) -> Path:
    root = tmp_path / "keyed"
    shutil.copytree(built["keyed"], root)
    return root


@pytest.fixture
def plain(built: dict[str, Path], tmp_path: Path) -> Path:
    root = tmp_path / "plain"
    shutil.copytree(built["plain"], root)
    return root


# --- 1: a keyed store takes no import under a wrong key or none -------------------------------------------
@pytest.mark.parametrize("given", ["wrng key", None, ""], ids=["wrong", "unset", "empty"])
def test_1_an_import_with_a_wrong_or_missing_key_is_refused_naming_both_fingerprints(keyed: Path,
                                                                                     given: str | None) -> None:
    """On main both imports exited 0 without a word, and verify with the right key then called the store
    sealed with the mistyped key and the genuine pulkas made up."""
    version = last_version(keyed)
    code, out, err = cli(["import", str(THIRD), "--store", str(keyed)], key=given)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, (code, out, err)
    assert fingerprint(KEY.encode()) in lines[0]
    if given:
        assert fingerprint(given.encode()) in lines[0] and given not in lines[0]
    else:
        assert "no key is given" in lines[0]
    assert KEY not in err + out
    assert last_version(keyed) == version   # nothing written: the seal stays the store's
    code, out, _err = cli(["verify", "--store", str(keyed)])
    assert (code, out.strip()) == (0, "store verifies clean")
    code, out, _err = cli(["import", str(THIRD), "--store", str(keyed)])
    assert code == 0 and last_version(keyed) > version   # the right key still imports


def test_1_a_key_given_to_a_store_sealed_without_one_is_refused(plain: Path) -> None:
    """A key does not move an unkeyed store's seal either: the import is refused, the store unchanged."""
    version = last_version(plain)
    code, _out, err = cli(["import", str(THIRD), "--store", str(plain)], key=KEY)
    assert code == 2 and "sealed without a key" in err and fingerprint(KEY.encode()) in err
    assert last_version(plain) == version
    assert cli(["import", str(THIRD), "--store", str(plain)], key=None)[0] == 0


def test_1_a_new_store_takes_the_key_of_its_first_import(tmp_path: Path) -> None:
    root = tmp_path / "new"
    assert cli(["import", str(THIRD), "--store", str(root)], key="first key")[0] == 0
    code, _out, err = cli(["import", str(THIRD), "--store", str(root)], key=KEY)
    assert code == 2 and fingerprint(b"first key") in err and fingerprint(KEY.encode()) in err


def test_1_serve_refuses_a_wrong_key_before_serving(keyed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import preflog.serve

    served: list[Path] = []
    monkeypatch.setattr(preflog.serve, "run", lambda root, **_kw: served.append(root))
    code, _out, err = cli(["serve", "--no-browser", "--store", str(keyed)], key="wrng key")
    assert code == 2 and fingerprint(b"wrng key") in err and fingerprint(KEY.encode()) in err and not served
    assert cli(["serve", "--no-browser", "--store", str(keyed)])[0] == 0 and len(served) == 1


# --- 2: verify without the key says the signatures went unchecked ------------------------------------------
@pytest.mark.parametrize("given", [None, ""], ids=["unset", "empty"])
def test_2_verify_without_the_key_says_the_signatures_went_unchecked(keyed: Path, given: str | None) -> None:
    """On main: "store verifies clean", exit 0, with and without ``--strict`` (which did not exist)."""
    code, out, _err = cli(["verify", "--store", str(keyed)], key=given)
    out = " ".join(out.split())
    assert code == 0 and "signatures went unchecked" in out and fingerprint(KEY.encode()) in out, out
    assert "keyed" in out and "verifies clean" not in out.replace("verifies clean, but for", "")
    code, out, _err = cli(["verify", "--strict", "--store", str(keyed)], key=given)
    assert code == 1 and "signatures went unchecked" in " ".join(out.split())
    code, out, _err = cli(["verify", "--strict", "--json", "--store", str(keyed)], key=given)
    doc = json.loads(out)
    assert code == 1 and doc["clean"] and "signatures went unchecked" in doc["unchecked"]


def test_2_verify_with_the_key_or_of_an_unkeyed_store_has_nothing_unchecked(keyed: Path, plain: Path) -> None:
    assert cli(["verify", "--strict", "--store", str(keyed)], key=KEY)[:2] == (0, "store verifies clean\n")
    assert cli(["verify", "--strict", "--store", str(plain)], key=None)[:2] == (0, "store verifies clean\n")
    code, out, _err = cli(["verify", "--json", "--store", str(plain)], key=None)
    assert code == 0 and json.loads(out)["unchecked"] is None


# --- 5: an impossible pulka is refused at its deal header, at once ------------------------------------------
HEADER = '[Players "A, B, C"]\n[Rules "sochi"]\n[Pool "10"]\n'


def _long_pulka(deals: int) -> str:
    """A text record of ``deals`` raspasy deals (two lines each, after the three tag lines)."""
    return HEADER + "".join(f"Deal {n}: dealer A\nTricks: A 1, B 9, C 0\n" for n in range(1, deals + 1))


@pytest.mark.parametrize("path", ["pure", "compiled"])
def test_5_a_pulka_of_32768_deals_is_refused_at_its_deal_header(path: str) -> None:
    """On main the pulka was read, then refused with ``ArrowInvalid: Value 32768 too large to fit in C
    integer type`` (the projections' deal numbers); a 10⁶-deal file read for 5 minutes first."""
    from preflog.errors import PreflogError
    from preflog.model.events import MAX_DEALS
    from preflog.record import scanner
    from preflog.record.api import read_records

    if path == "compiled" and scanner.BUILT is None:
        pytest.skip("the compiled scanner is not built here")   # the pure path runs everywhere
    assert MAX_DEALS == 32_767   # the projections' 16-bit deal numbers
    text = _long_pulka(MAX_DEALS + 1) + "Deal 32769: dealer B\n" + "garbage\n" * 10
    line = 3 + 2 * MAX_DEALS + 1     # the header of deal 32,768 (the garbage after it is never read)
    with scanner.pure() if path == "pure" else scanner.compiled(), pytest.raises(PreflogError) as err:
        read_records(text, "big.pref")
    assert str(err.value) == (f"big.pref:{line}:1: 'Deal 32768: dealer A' is deal 32,768 of its pulka: "
                              "a pulka holds at most 32,767 deals")


@pytest.mark.slow
def test_5_a_pulka_of_32767_deals_reads_past_the_limit_check() -> None:
    """The limit is the 32,768th deal, not one earlier: 32,767 deals parse (the syntax of every deal)."""
    from preflog.record.textfmt import parse_text

    [pulka] = parse_text(_long_pulka(32_767), "big.pref")
    assert len(pulka.deals) == 32_767


@pytest.mark.slow
def test_5_the_cli_and_the_json_form_refuse_it_in_one_line(tmp_path: Path) -> None:
    text = tmp_path / "big.pref"
    text.write_text(_long_pulka(32_768))
    doc = {"players": ["A", "B", "C"], "rules": "sochi",
           "deals": [{"dealer": "A", "steps": [{"tricks": {"A": 1, "B": 9, "C": 0}}]}] * 32_768}
    js = tmp_path / "big.json"
    js.write_text(json.dumps(doc))
    store = tmp_path / "st"
    for f, where in ((text, f"{text}:{3 + 2 * 32_767 + 1}:1: 'Deal 32768: dealer A'"),
                     (js, f"{js}: $.deals[32767]")):
        code, out, err = cli(["import", str(f), "--store", str(store)], key=None)
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2 and len(lines) == 1 and "Traceback" not in out + err, (out, err)
        assert where in " ".join(err.split()) and "at most 32,767 deals" in " ".join(err.split()), err
    assert not (store / "events").exists()   # nothing stored


# --- 3: one damaged log file names itself; reading falls back to the commits; repair rebuilds it -----------
def _cut(f: Path) -> None:
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])


def _empty(f: Path) -> None:
    f.write_bytes(b"")


def _flip(f: Path) -> None:
    """One byte flipped where it tells: a Parquet file's footer length, a commit's first character."""
    data = bytearray(f.read_bytes())
    data[len(data) - 6 if f.suffix == ".parquet" else 0] ^= 0x5A
    f.write_bytes(bytes(data))


def _replace_by_a_data_file(f: Path) -> None:
    f.write_bytes(next(f.parents[1].glob("*.parquet")).read_bytes())


NEW = THIRD.parent / "seed003-consolation.pref"   # a pulka none of the stores here holds
DAMAGE = {"cut in half": _cut, "emptied": _empty, "flipped": _flip, "replaced": _replace_by_a_data_file}


@pytest.fixture(scope="module")
def checkpointed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A keyed store of three imports (1 + 3 + 3 pulkas) with a checkpoint after the second, as the live app
    writes them (every tenth version)."""
    from preflog.workspace import Workspace

    root = build_store(tmp_path_factory.mktemp("issue38cp") / "st")
    with key_env(KEY):
        ws = Workspace(root)
        ws.store().checkpoint()  # type: ignore[attr-defined]
        assert {i.status for i in ws.import_paths([THIRD], workers=1)} == {"imported"}
    return root


def _pulkas(root: Path, key: str | None = KEY) -> tuple[int, list[str], str]:
    code, out, err = cli(["ls", "--json", "--store", str(root)], key=key)
    return code, sorted(p["id"] for p in json.loads(out)["pulkas"]) if code == 0 else [], err


@pytest.mark.parametrize("how", DAMAGE)
def test_3_a_damaged_checkpoint_is_read_past_named_and_repaired(checkpointed: Path, tmp_path: Path,
                                                                how: str) -> None:
    """On main ``ls``, ``stats``, ``verify`` and ``import`` all exited 2 with "cannot open … at version None:
    … Corrupt footer", naming no file."""
    root = tmp_path / "st"
    shutil.copytree(checkpointed, root)
    code, want, _err = _pulkas(root)
    assert code == 0 and len(want) == 7
    [checkpoint] = (root / "events" / "_delta_log").glob("*.checkpoint.parquet")
    DAMAGE[how](checkpoint)
    code, got, err = _pulkas(root)   # read from the commits, and said so in one line
    assert (code, got) == (0, want), err
    said = [line for line in err.splitlines() if checkpoint.name in line]
    assert len(said) == 1 and "preflog repair" in " ".join(err.split()), err
    code, out, _err = cli(["verify", "--json", "--store", str(root)])
    doc = json.loads(out)
    assert code == 1 and [p["kind"] for p in doc["problems"]] == ["unreadable"], doc
    assert str(checkpoint) in doc["problems"][0]["detail"]
    code, _out, err = cli(["import", str(NEW), "--store", str(root)])   # no commit over a damaged log
    assert code == 2 and checkpoint.name in err and "preflog repair" in " ".join(err.split())
    code, out, err = cli(["repair", "--store", str(root)])
    assert code == 0 and "wrote a checkpoint" in out and "Traceback" not in out + err, out + err
    assert (root / "events" / "_preflog.damaged").is_dir()   # moved aside, never deleted
    assert cli(["verify", "--store", str(root)])[:2] == (0, "store verifies clean\n")
    code, got, err = _pulkas(root)
    assert (code, got, err) == (0, want, "")
    assert cli(["import", str(NEW), "--store", str(root)])[0] == 0
    assert cli(["verify", "--store", str(root)])[:2] == (0, "store verifies clean\n")


def test_3_a_checkpoint_of_another_table_is_named_by_verify(checkpointed: Path, tmp_path: Path) -> None:
    """A checkpoint that reads, but of another store (replaced by a whole, valid checkpoint): Delta reads it
    without a word; verify compares it with the commits."""
    from preflog.workspace import Workspace

    root, other = tmp_path / "st", tmp_path / "other"
    shutil.copytree(checkpointed, root)
    [checkpoint] = (root / "events" / "_delta_log").glob("*.checkpoint.parquet")
    build_store(other)
    with key_env(KEY):
        Workspace(other).store().checkpoint()  # type: ignore[attr-defined]
    [theirs] = (other / "events" / "_delta_log").glob("*.checkpoint.parquet")
    checkpoint.write_bytes(theirs.read_bytes())
    code, out, _err = cli(["verify", "--json", "--store", str(root)])
    doc = json.loads(out)
    assert code == 1 and "unreadable" in [p["kind"] for p in doc["problems"]], doc
    assert any(str(checkpoint) in p["detail"] for p in doc["problems"])
    assert cli(["repair", "--store", str(root)])[0] == 0
    assert cli(["verify", "--store", str(root)])[:2] == (0, "store verifies clean\n")


@pytest.mark.parametrize("how", DAMAGE)
def test_3_a_damaged_last_commit_is_named_and_repaired(checkpointed: Path, tmp_path: Path, how: str) -> None:
    """A half-written last commit is read as a commit never made (the table as of the version before it, as
    a Delta reader takes a commit file that is not there); verify names it, repair moves it aside, and the
    records it held import again. On main every command exited 2 naming no file."""
    root = tmp_path / "st"
    shutil.copytree(checkpointed, root)
    last = sorted((root / "events" / "_delta_log").glob("*.json"))[-1]
    if how == "replaced":
        last.write_bytes(sorted((root / "events" / "_delta_log").glob("*.json"))[-2].read_bytes())
    else:
        DAMAGE[how](last)
    code, out, err = cli(["verify", "--json", "--store", str(root)])
    doc = json.loads(out)
    assert code == 1 and doc["problems"] and "Traceback" not in out + err, doc
    if how != "replaced":
        assert doc["problems"][0]["kind"] == "unreadable" and str(last) in doc["problems"][0]["detail"], doc
        code, out, err = cli(["repair", "--store", str(root)])
        assert code == 0 and last.name in out and "import those records again" in " ".join(out.split()), out
        assert cli(["verify", "--store", str(root)])[:2] == (0, "store verifies clean\n")
        assert len(_pulkas(root)[1]) == 4    # the third import's pulkas were in the cut commit
        assert cli(["import", str(THIRD), "--store", str(root)])[0] == 0
        assert len(_pulkas(root)[1]) == 7
        assert cli(["verify", "--store", str(root)])[:2] == (0, "store verifies clean\n")


# --- 4: verify reads every data file's schema ---------------------------------------------------------------
def test_4_a_column_renamed_in_a_data_files_footer_is_named_by_plain_verify(keyed: Path) -> None:
    """One flipped byte renames ``code`` to ``codE`` in a footer: on main ``verify --deep`` said clean while
    ``sql "select count(code) from events"`` read that file's codes as NULL."""
    import pyarrow.parquet as pq

    files = sorted((keyed / "events").glob("*.parquet"))
    target = files[-1]
    data = bytearray(target.read_bytes())
    at = data.index(b"code")        # the first: the column's name in the footer's schema
    data[at + 3] ^= 0x20            # 'e' → 'E'
    target.write_bytes(bytes(data))
    assert "codE" in pq.read_schema(target).names
    code, out, _err = cli(["verify", "--json", "--store", str(keyed)])
    doc = json.loads(out)
    found = [p for p in doc["problems"] if str(target) in p["detail"]]
    assert code == 1 and [p["kind"] for p in found] == ["file"], doc
    assert "'code' is missing" in found[0]["detail"] and "'codE'" in found[0]["detail"]
    assert not [p for p in doc["problems"] if any(str(f) in p["detail"] for f in files[:-1])]


# --- 6: an unkeyed store that lost its last commit and its witness says so, and offers keying -------------
def test_6_an_unkeyed_store_whose_witness_is_deleted_says_so_and_offers_keying(plain: Path) -> None:
    """On main: the last commit and the witness deleted, ``verify`` said "store verifies clean"."""
    from .tampering import delete_last_commit

    delete_last_commit(plain)
    (plain / "events" / "_preflog.witness").unlink()
    code, out, _err = cli(["verify", "--json", "--store", str(plain)], key=None)
    doc = json.loads(out)
    witness = [p for p in doc["problems"] if p["kind"] == "witness"]
    assert code == 1 and len(witness) == 1, doc
    assert "_preflog.witness is missing" in witness[0]["detail"] and "PREFLOG_KEY" in witness[0]["detail"]


def test_3_repair_of_a_cut_last_commit_needs_the_stores_key(checkpointed: Path, tmp_path: Path) -> None:
    """Repair writes the witness again after moving a cut last commit aside: with a wrong key it refuses
    before it moves anything."""
    root = tmp_path / "st"
    shutil.copytree(checkpointed, root)
    last = sorted((root / "events" / "_delta_log").glob("*.json"))[-1]
    _cut(last)
    code, _out, err = cli(["repair", "--store", str(root)], key="wrng key")
    assert code == 2 and fingerprint(b"wrng key") in err and fingerprint(KEY.encode()) in err
    assert last.exists() and not (root / "events" / "_preflog.damaged").exists()
    assert cli(["repair", "--store", str(root)])[0] == 0 and not last.exists()
