"""The club's key, the chain of commits and the witness: what makes a keyed store fail closed.

Three pieces, each small (docs/security.md says what they promise and what not):

* **The key.** :func:`read_key_file` reads a key file defensively: a regular file only (a FIFO, a
  device such as ``/dev/zero`` or a folder is refused before it is read), at most :data:`KEY_MAX`
  bytes. :func:`fingerprint` names a key without giving it away (an HMAC of a fixed text under the
  key, 8 bytes in hex), so verify can say "this key is not the one the store was sealed with".
* **The chain of commits.** Every append commit carries, beside its heads record, a link
  (``preflog.chain``): its number among the append commits, the link digest of the append commit
  before it, the table settings it was written under and the fingerprint of the key that signed it.
  With a key the signature covers link and record together. A commit lost from the middle of the log
  breaks the chain at the next one; settings changed later no longer match the signed ones.
* **The witness.** A small file beside the log (``_preflog.witness``) names the last append commit
  (version, number, link digest; signed with a key). The log alone cannot show that its *last*
  commit was deleted — and, once another import has written its own commit at that number, that a
  commit was replaced; the witness does. Writers refuse to commit over a log that lost what the
  witness names.
* **The re-key.** The only move of the seal (``preflog rekey``): an append commit of no rows whose
  :class:`Rekey` record (``preflog.rekey``) names the old and new keys' fingerprints, the witness it
  replaces (its SHA-256) and, under the new key, a signature of every append commit before it. Until the
  witness names it (a re-key killed between its commit and the witness), the seal is the re-key's new key
  all the same (:func:`pending_rekey`), and the witness it replaced stands, vouched for by the record.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import NamedTuple

from .base import StoreError

KEY_MAX = 4096
"""The most bytes a key file may hold (a key is a few dozen bytes; more is not a key file)."""
CHAIN_META = "preflog.chain"   # commit metadata: the commit's link in the chain of append commits
REKEY_META = "preflog.rekey"   # commit metadata of a re-key: a :class:`Rekey` record
WITNESS_NAME = "_preflog.witness"  # beside the log ("_": Delta and vacuum leave it alone)
_FINGERPRINT_TEXT = b"preflog key fingerprint v1"
HEADS_META_NAME = "preflog.heads"  # (:data:`.delta_log.HEADS_META`, which imports this module)


class KeyFileError(StoreError):
    """A key file that cannot be a key: not a regular file, too big, empty or unreadable."""


def read_key_file(path: str | os.PathLike[str]) -> bytes:
    """The key held in the file at ``path`` (outer blanks stripped). Refuses, with one line naming the
    file, what is not a regular file (opened without blocking, so a FIFO with no writer does not hang),
    a file of more than :data:`KEY_MAX` bytes, and an empty one."""
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise KeyFileError(f"{name}: the key file cannot be read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = ("a folder" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
            raise KeyFileError(f"{name}: the key file is {what}; a key file must be a regular file")
        data = b""
        while len(data) <= KEY_MAX:
            part = os.read(fd, KEY_MAX + 1 - len(data))
            if not part:
                break
            data += part
    except OSError as exc:
        raise KeyFileError(f"{name}: the key file cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > KEY_MAX:
        raise KeyFileError(f"{name}: the key file holds more than {KEY_MAX} bytes; a key is a short secret")
    data = data.strip()
    if not data:
        raise KeyFileError(f"{name}: the key file is empty")
    return data


def fingerprint(key: bytes) -> str:
    """A key's public name: 16 hex digits that tell keys apart and give nothing of the key away."""
    return hmac.new(key, _FINGERPRINT_TEXT, hashlib.sha256).hexdigest()[:16]


def sign(key: bytes, text: str) -> str:
    """HMAC-SHA256 of ``text`` under the club's key, in hex."""
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def signed_text(chain: str | None, record: str) -> str:
    """What a commit's signature covers: its link and its heads record (the record alone for commits
    written before links existed)."""
    return record if chain is None else chain + "\n" + record


def commit_signed_text(commit: Mapping[str, Any]) -> str:
    """What the signature of an append commit (as ``history()`` gives it) covers: its link and heads record
    (:func:`signed_text`), and a re-key's record after them. The one home of what is signed."""
    chain, record, rekey = commit.get(CHAIN_META), commit.get(HEADS_META_NAME), commit.get(REKEY_META)
    text = signed_text(chain if isinstance(chain, str) else None, str(record))
    return text if not isinstance(rekey, str) else text + "\n" + rekey


def link_digest(chain: str | None, record: str) -> str:
    """The digest that names a commit's link in the next one: SHA-256 of link and record, 16 hex digits."""
    return hashlib.sha256(signed_text(chain, record).encode()).hexdigest()[:16]


def _fields(text: str, *names: str) -> list[Any]:
    """The fields ``names`` of the JSON object ``text`` (None for one it lacks); ValueError if it is not one."""
    got: Any = json.loads(text)
    if not isinstance(got, dict):
        raise ValueError("not an object")
    return [got.get(name) for name in names]


@dataclass(frozen=True, slots=True)
class Link:
    """One append commit's place in the chain: ``n`` (1 for the first), ``prev`` (the digest of the
    link before it, "" for the first), the table ``settings`` it was written under, and ``key`` (the
    fingerprint of the key that signed it, "" without one)."""

    n: int
    prev: str
    settings: dict[str, str]
    key: str

    def text(self) -> str:
        return json.dumps({"n": self.n, "prev": self.prev, "settings": dict(sorted(self.settings.items())),
                           "key": self.key}, separators=(",", ":"))

    @classmethod
    def parse(cls, text: str) -> Link:
        """The link of a commit's ``preflog.chain`` text; ValueError if it is not one."""
        n, prev, settings, key = _fields(text, "n", "prev", "settings", "key")
        if not (isinstance(n, int) and not isinstance(n, bool) and n >= 1 and isinstance(prev, str)
                and isinstance(key, str) and isinstance(settings, dict)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in settings.items())):
            raise ValueError("not a link: n, prev, settings, key")
        return cls(n, prev, settings, key)


@dataclass(frozen=True, slots=True)
class Witness:
    """The last append commit as its writer saw it: Delta ``version``, chain number ``n``, link digest."""

    version: int
    n: int
    digest: str

    def text(self) -> str:
        return f"{self.version}:{self.n}:{self.digest}"


def _witness_text(witness: Witness, key_fp: str | None) -> str:
    """What a witness's signature covers: its commit, and the fingerprint of the store's key when the
    witness names one (witnesses written before they did: the commit alone)."""
    return "witness " + witness.text() + ("" if key_fp is None else " key " + key_fp)


def write_witness(table: Path, witness: Witness, key: bytes | None) -> None:
    """Replace the witness file atomically (a temporary file renamed over it). It names the fingerprint
    of the key the store is sealed with ("" for none), so a writer can tell a wrong or missing key
    before it writes anything (:func:`check_writer_key`)."""
    key_fp = fingerprint(key) if key is not None else ""
    body: dict[str, Any] = {"version": witness.version, "n": witness.n, "digest": witness.digest, "key": key_fp}
    if key is not None:
        body["mac"] = sign(key, _witness_text(witness, key_fp))
    path = table / WITNESS_NAME
    tmp = path.with_name(f"{WITNESS_NAME}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(body), encoding="utf-8")
    os.replace(tmp, path)


def read_witness(table: Path, key: bytes | None) -> Witness | None:
    """The witness of the table at ``table``, None when there is none; ValueError naming what is wrong
    when the file is damaged or (with a key) not signed with it."""
    path = table / WITNESS_NAME
    try:
        with path.open("rb") as fh:
            raw = fh.read(KEY_MAX + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ValueError(f"{path} cannot be read: {exc.strerror or exc}") from None
    try:
        got: Any = json.loads(raw)
        version, n, digest = got["version"], got["n"], got["digest"]
        key_fp = got.get("key")
        if not (isinstance(version, int) and isinstance(n, int) and isinstance(digest, str)
                and (key_fp is None or isinstance(key_fp, str))):
            raise TypeError
        witness = Witness(version, n, digest)
    except (ValueError, TypeError, KeyError):
        raise ValueError(f"{path} is damaged (not a witness record)") from None
    if key is not None and not hmac.compare_digest(str(got.get("mac", "")), sign(key, _witness_text(witness, key_fp))):
        raise ValueError(f"{path} is not signed with this store's key")
    return witness


@dataclass(frozen=True, slots=True)
class Rekey:
    """The record of a re-key commit: the fingerprints of the ``old`` and ``new`` keys ("" for none), the
    SHA-256 of the ``witness`` file it replaced (:func:`witness_print`), and ``macs``: the new key's
    signature of each append commit before it (by Delta version; none when the new key is none)."""

    old: str
    new: str
    witness: str
    macs: dict[int, str]

    def text(self) -> str:
        return json.dumps({"old": self.old, "new": self.new, "witness": self.witness,
                           "macs": {str(v): m for v, m in sorted(self.macs.items())}}, separators=(",", ":"))

    @classmethod
    def parse(cls, text: str) -> Rekey:
        """The re-key of a commit's ``preflog.rekey`` text; ValueError if it is not one."""
        old, new, witness, macs = _fields(text, "old", "new", "witness", "macs")
        if not (isinstance(old, str) and isinstance(new, str) and isinstance(witness, str) and isinstance(macs, dict)
                and all(isinstance(k, str) and k.isdigit() and isinstance(v, str) for k, v in macs.items())):
            raise ValueError("not a re-key: old, new, witness, macs")
        return cls(old, new, witness, {int(k): v for k, v in macs.items()})


class SealMove(NamedTuple):
    """One move of the seal, as a re-key commit records it: its Delta ``version``, its ``time`` (ms since
    the epoch, None when the commit gives none), the ``old`` and ``new`` keys' fingerprints ("" for none),
    and whether the re-key was ``finished`` by a second run (its witness written after a kill)."""

    version: int
    time: int | None
    old: str
    new: str
    finished: bool = False


def seal_moves(commits: Iterable[Mapping[str, Any]]) -> list[SealMove]:
    """Every re-key among ``commits`` (commit infos as ``history()`` gives them), oldest first; one whose
    record does not read is left out (verify names it)."""
    out: list[SealMove] = []
    for c in commits:
        text, version, time = c.get(REKEY_META), c.get("version"), c.get("timestamp")
        if not (isinstance(text, str) and isinstance(version, int)):
            continue
        try:
            rekey = Rekey.parse(text)
        except ValueError:
            continue
        out.append(SealMove(version, time if isinstance(time, int) else None, rekey.old, rekey.new))
    return sorted(out)


def witness_print(table: Path) -> str:
    """The SHA-256 of the witness file as it stands ("" when there is none): what a re-key records of the
    witness it replaces."""
    try:
        return hashlib.sha256((table / WITNESS_NAME).read_bytes()[:KEY_MAX + 1]).hexdigest()
    except OSError:
        return ""


def commit_info(table: Path, version: int) -> dict[str, Any] | None:
    """The commit info of the local table's commit ``version``, with its ``version``; None when its file is
    not there; ValueError when its commit info is not JSON."""
    try:
        text = (table / "_delta_log" / f"{version:020d}.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    info: dict[str, Any] = {}
    for line in text.splitlines():
        if '"commitInfo"' in line:
            action = json.loads(line)
            if isinstance(action, dict) and isinstance(action.get("commitInfo"), dict):
                info = action["commitInfo"]
                break
    return {**info, "version": version}


def pending_rekey(table: Path) -> tuple[int, Rekey] | None:
    """The last re-key commit after the one the witness names (its version and record): a re-key whose
    witness was not written yet (killed in between). None when there is none (the usual case: one
    ``stat`` of the commit file after the witness's)."""
    got = _witness_fields(table)
    version = got.get("version") if got is not None else None
    if not isinstance(version, int):
        return None
    out: tuple[int, Rekey] | None = None
    while True:
        try:
            info = commit_info(table, version + 1)
        except ValueError:
            info = None   # a damaged commit: verify names it, and the log takes no commit over it
        if info is None:
            return out
        version += 1
        text = info.get(REKEY_META)
        if isinstance(text, str):
            try:
                out = (version, Rekey.parse(text))
            except ValueError:
                pass   # verify names it


def witness_vouched(table: Path, rekey: Rekey) -> bool:
    """Whether the witness file is, byte for byte, the one ``rekey`` replaced (a re-key killed before it
    wrote its own witness): the re-key's signature then vouches for it."""
    return bool(rekey.witness) and witness_print(table) == rekey.witness


class KeyMismatchError(StoreError):
    """A writer's key is not the one the store is sealed with (a wrong key, none for a keyed store, or one
    for a store sealed without a key): nothing is written. ``given`` and ``sealed`` are the two keys'
    fingerprints ("" for no key)."""

    def __init__(self, table: Path, given: str, sealed: str) -> None:
        self.table = str(table)
        self.given = given
        self.sealed = sealed
        if not given:
            what = (f"{table}: this store is keyed (sealed with the key of fingerprint {sealed}), but no key is "
                    "given (PREFLOG_KEY, PREFLOG_KEY_FILE are unset or empty)")
        elif not sealed:
            what = (f"{table}: this store was sealed without a key, but a key is given (fingerprint {given}); "
                    "unset PREFLOG_KEY and PREFLOG_KEY_FILE")
        else:
            what = (f"{table}: the key given (fingerprint {given}) is not the one this store is sealed with "
                    f"(fingerprint {sealed}); check PREFLOG_KEY or PREFLOG_KEY_FILE")
        super().__init__(f"{what}: nothing was written (only `preflog rekey` moves a store's seal)")


def _witness_fields(table: Path) -> dict[str, Any] | None:
    """The witness file's fields as they stand (unchecked), None when there is none or it is damaged."""
    try:
        with (table / WITNESS_NAME).open("rb") as fh:
            got: Any = json.loads(fh.read(KEY_MAX + 1))
    except (OSError, ValueError):
        return None
    return got if isinstance(got, dict) else None


def store_seal(table: Path, commits: Callable[[], Iterable[Mapping[str, Any]]]) -> str | None:
    """The fingerprint of the key the store at ``table`` is sealed with ("" sealed without a key), None
    when nothing says yet (no append commit). The witness names it; a store
    whose witness does not (written before witnesses did, or damaged) is asked through the link of its
    last append commit, from ``commits`` (the log's commit infos, as ``DeltaTable.history`` gives them). A
    re-key committed after the commit the witness names (:func:`pending_rekey`) has moved the seal to its key."""
    pending = pending_rekey(table)
    if pending is not None:
        return pending[1].new
    got = _witness_fields(table)
    if got is not None and got.get("n") == 0:
        return None   # the witness of a new table: its first import seals it
    if got is not None and isinstance(got.get("key"), str):
        return str(got["key"])
    last: tuple[int, str] | None = None
    for c in commits():
        chain, version = c.get(CHAIN_META), c.get("version")
        if isinstance(chain, str) and isinstance(version, int) and (last is None or version > last[0]):
            last = (version, chain)
    if last is None:
        return None
    try:
        return Link.parse(last[1]).key
    except ValueError:
        return None   # a damaged link: verify names it; the writer's own check of the chain stops it


def check_writer_key(table: Path, key: bytes | None, commits: Callable[[], Iterable[Mapping[str, Any]]]) -> None:
    """Refuse (:class:`KeyMismatchError`) a writer whose key is not the store's: a wrong key, no key for
    a keyed store, or a key for a store sealed without one. A witness signed with the key given proves
    it right at once; a store nothing has sealed yet takes any key (its first import seals it)."""
    given = fingerprint(key) if key is not None else ""
    if key is not None and pending_rekey(table) is None:
        try:
            if read_witness(table, key) is not None and "mac" in (_witness_fields(table) or {}):
                return
        except ValueError:
            pass   # not signed with this key, or damaged: the seal says which key it is
    sealed = store_seal(table, commits)
    if sealed is not None and sealed != given:
        raise KeyMismatchError(table, given, sealed)
