"""The defects of issue 38, each as found, through the command line.

Each test failed on main af43c43: a wrong or missing key imported into a keyed store without a word and
moved its seal (1); verify without the key said only "store verifies clean" (2).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.store.keyed import fingerprint

from .tampering import KEY
from .tampering import THIRD
from .tampering import build_store
from .tampering import key_env
from .tampering import last_version

runner = CliRunner()


def cli(args: list[str], key: str | None = KEY, **env: str) -> tuple[int, str, str]:
    with key_env(key):
        res = runner.invoke(app, args, env={"COLUMNS": "80", **env})
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, res.stdout, res.stderr


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
