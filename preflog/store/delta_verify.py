"""Verification of a Delta event store: the hash chain of every pulka, and the table against its log.

:class:`Verification` is the part of :class:`~.delta.DeltaStore` that checks rather than reads or writes:
:meth:`~Verification.verify` reads every row in (pulka, seq) order and checks each pulka's chain
(:func:`~.chain.check_pulka`), then :meth:`~Verification.verify_log` checks the table against what its
append commits recorded (:mod:`.delta_log`; see docs/security.md).
"""

from __future__ import annotations

import hmac
import threading
from abc import abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
from deltalake import DeltaTable

from . import keyed
from . import logdamage
from .base import DamagedFileError
from .base import IntegrityProblem
from .base import StoreError
from .chain import StoredRow
from .chain import check_pulka
from .delta_log import HEADS_LOG_KEY
from .delta_log import HEADS_META
from .delta_log import MAC_META
from .delta_log import Tip
from .delta_log import link_of
from .delta_log import parse_heads
from .delta_log import sign
from .delta_read import ALL
from .heads import HeadIndex
from .problems import ProblemKind as Kind


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class Verification:
    """The checks of a Delta event store (a base class of :class:`~.delta.DeltaStore`, which gives the
    table, its heads and its rows' source through the methods declared here)."""

    path: Path
    _key: bytes | None
    _pinned: int | None
    _cache_lock: threading.Lock

    @abstractmethod
    def _table(self) -> DeltaTable: ...

    @abstractmethod
    def _refresh_heads(self, dt: DeltaTable) -> HeadIndex: ...

    @abstractmethod
    def _source(self, con: duckdb.DuckDBPyConnection, dt: DeltaTable) -> str | None: ...

    @abstractmethod
    def _history(self, dt: DeltaTable, limit: int | None = None) -> list[dict[str, Any]]: ...

    @abstractmethod
    def damaged_files(self, schema: bool = False) -> list[tuple[str, str]]: ...

    def verify(self, progress: Callable[[int, int], None] | None = None) -> list[IntegrityProblem]:
        """The files of the log (:func:`~.logdamage.log_damage`: a damaged checkpoint or commit, read past
        where it can be, is ``unreadable``), the data files (their footers' schema too), the hash chain of
        every pulka (:func:`~.chain.check_pulka`), then the table against its log (:meth:`verify_log`);
        ``progress(rows checked, rows in all)`` after each batch of rows."""
        log: list[IntegrityProblem] = []
        if self._pinned is None:
            log = [IntegrityProblem("", 0, Kind.UNREADABLE, f"{d.line()}; run `preflog repair`")
                   for d in logdamage.log_damage(self.path) + logdamage.checkpoint_disagreements(self.path)]
        try:
            damaged = self.damaged_files(schema=True)
            if damaged:  # its rows cannot be read, so the chains cannot be checked: name the files
                return log + [IntegrityProblem("", 0, Kind.FILE, f"{path}: {problem}") for path, problem in damaged]
            problems = log + self._verify_rows(progress)
            problems.extend(self.verify_log())
        except DamagedFileError as exc:
            return log + [IntegrityProblem("", 0, Kind.FILE, f"{exc.path}: {exc.problem}")]
        except (StoreError, duckdb.Error) as exc:  # the log was read; a data file was not: no log to restore
            text = first_line(exc) if isinstance(exc, StoreError) else \
                f"{self.path}: a data file of the table cannot be read ({type(exc).__name__}: {first_line(exc)})"
            return log + [IntegrityProblem("", 0, Kind.FILE, text)]
        except BaseException as exc:  # a damaged log: Delta's errors (a Rust panic is a BaseException)
            if not isinstance(exc, Exception) and type(exc).__name__ != "PanicException":
                raise
            return log or [IntegrityProblem("", 0, Kind.UNREADABLE,
                                            f"{self.path}: the table's commit log cannot be read "
                                            f"({type(exc).__name__}: {first_line(exc)}); restore _delta_log from a "
                                            "backup")]
        return problems

    def verify_log(self) -> list[IntegrityProblem]:
        """The table against what its commits recorded adding (see docs/security.md).

        * Each pulka must end where and as the last commit that appended to it recorded (else rows of it
          were lost: a removed ``add``, a forged ``remove``, rows dropped from a file: ``lost``), and no
          pulka may be there that no commit recorded (a made-up pulka with a recomputed chain:
          ``unrecorded``).
        * The append commits form a chain (``preflog.chain``): a commit missing, replaced or reordered
          between two others breaks it (``chain``); the witness beside the log names the last one, so a
          deleted last commit, or one deleted and written over by the next import, shows (``witness``).
        * The table settings must be the ones the last link was written under, and a store that keeps
          a heads log (or is opened with a key) must say so in its settings (``settings``).
        * With the club's key every record and link must carry a valid signature (``signature``; a
          key other than the store's is named once by its fingerprint: ``key``); what only unsigned
          records vouch for counts as unrecorded. A heads record or link that cannot be read is
          ``record``, never a crash.

        A table created before the heads log (no setting, no record) is not checked here unless a key
        is given: with a key the store must prove every pulka (fail closed)."""
        problems: list[IntegrityProblem] = []
        key = self._key

        def problem(kind: Kind, detail: str, pulka: str = "", seq: int = 0) -> None:
            problems.append(IntegrityProblem(pulka, seq, kind, detail))

        witness: keyed.Witness | None = None
        witness_error: str | None = None
        if self._pinned is None:  # read before the log: it moves on only after a commit, so never ahead of it
            try:
                witness = keyed.read_witness(self.path, key)
            except ValueError as exc:
                witness_error = str(exc)
        dt = self._table()
        current = dt.version()
        commits = sorted(self._history(dt), key=lambda c: int(c.get("version", -1)))
        settings = {k: v for k, v in dt.metadata().configuration.items() if k.startswith("preflog.")}
        has_records = any(HEADS_META in c for c in commits)
        if not (settings.get(HEADS_LOG_KEY) == "1" or has_records or key is not None):
            return problems  # a table from before the heads log: nothing to check it against
        if settings.get(HEADS_LOG_KEY) != "1":
            why = "its commits record heads" if has_records else "it is opened with a key"
            problem(Kind.SETTINGS, f"the table setting {HEADS_LOG_KEY} is "
                    f"{'missing' if HEADS_LOG_KEY not in settings else repr(settings[HEADS_LOG_KEY])}, but "
                    f"{why}: a commit changed the table's settings (the heads log is checked all the same)")
        rekey = self._last_rekey(commits, key, problem)
        if witness_error is not None and rekey is not None and keyed.witness_vouched(self.path, rekey[1]):
            witness, witness_error = keyed.read_witness(self.path, None), None   # a re-key killed before its witness
        own = keyed.fingerprint(key) if key is not None else ""
        foreign: set[str] = set()
        unsigned: list[int] = []       # append commits without a valid signature, and not another key's
        sealed_with_own = False        # a commit signed with the key given (else the store may never have had one)
        recorded: dict[str, tuple[int, int, int]] = {}   # pulka -> (last seq, head, commit version)
        links: dict[int, Tip] = {}
        tip = Tip(-1, 0, "")
        chained = False          # a commit with a link seen: from then on every append commit has one
        last_settings: tuple[int, dict[str, str]] | None = None
        complete = bool(commits) and int(commits[0].get("version", -1)) == 0
        for commit in commits:
            version = int(commit.get("version", -1))
            record, chain = commit.get(HEADS_META), commit.get(keyed.CHAIN_META)
            if record is None:
                metrics = commit.get("operationMetrics")
                added = metrics.get("num_added_files", 0) if isinstance(metrics, dict) else 0
                rewrite = commit.get("preflog.op") in ("sort", "migrate")  # the whole table rewritten in order
                if commit.get("operation") == "WRITE" and isinstance(added, int) and added > 0 and not rewrite:
                    problem(Kind.RECORD, f"commit {version} added data but records no heads (written by "
                            "another tool, or its record was removed)")
                continue
            try:
                link = keyed.Link.parse(chain) if isinstance(chain, str) else None
                if not isinstance(record, str) or (chain is not None and link is None):
                    raise ValueError("not text")
                got = link_of(commit, tip)
            except ValueError as exc:
                problem(Kind.RECORD, f"commit {version}: its heads record or link cannot be read ({exc})")
                continue  # (a writer skips it too: the chain goes on from the link before it)
            assert got is not None and isinstance(record, str)
            heads: dict[str, tuple[int, int]] | None
            try:
                heads = parse_heads(record)
            except ValueError as exc:
                problem(Kind.RECORD, f"commit {version}: its heads record cannot be read ({exc})")
                heads = None
            mac = rekey[1].macs.get(version) if rekey is not None and version < rekey[0] else commit.get(MAC_META)
            signed = key is None or hmac.compare_digest(str(mac or ""), sign(key, keyed.commit_signed_text(commit)))
            if not signed:
                if link is not None and link.key and link.key != own:
                    foreign.add(link.key)
                else:
                    unsigned.append(version)
            elif link is not None and link.key == own:
                sealed_with_own = True
            # the chain is the log's order as writers saw it: unsigned commits hold their place in it
            if link is not None:
                if tip.version < 0:
                    if link.n != 1 and complete:
                        problem(Kind.CHAIN, f"commit {version} is append commit {link.n}, but the log holds no "
                                "append commit before it: commits are missing from _delta_log")
                elif link.n != tip.n + 1 or link.prev != tip.digest:
                    problem(Kind.CHAIN, f"commit {version} links to append commit {link.n - 1} ({link.prev or '-'}), "
                            f"but the append commit before it is commit {tip.version} (number {tip.n}, "
                            f"{tip.digest}): an append commit was lost, replaced or reordered")
                chained = True
                if signed:
                    last_settings = (version, link.settings)
            elif chained:
                problem(Kind.CHAIN, f"commit {version} records heads but no link (written by another tool?)")
            tip = got
            links[version] = got
            if heads is None or not signed:
                continue  # an unsigned record vouches for nothing
            for pulka, (seq, head) in heads.items():
                if pulka not in recorded or seq >= recorded[pulka][0]:
                    recorded[pulka] = (seq, head, version)
        if key is not None and unsigned and not foreign and not sealed_with_own and len(unsigned) == len(links):
            problem(Kind.KEY, f"a key is given (fingerprint {own}), but no commit of this store was signed with one: "
                    "it was sealed without a key (its records count as unsigned; set the key before the first "
                    "import)")
        else:
            for version in unsigned:
                problem(Kind.SIGNATURE, f"commit {version}: the heads it records are not signed with this store's "
                        "key (forged, or written without it)")
        if foreign:
            problem(Kind.KEY, f"the key does not match the one this store was sealed with (the key given has "
                    f"fingerprint {own}, the store's {', '.join(sorted(foreign))}); its records count as unsigned")
        if last_settings is not None and last_settings[1] != settings:
            changed = sorted(k for k in set(settings) | set(last_settings[1])
                             if settings.get(k) != last_settings[1].get(k))
            problem(Kind.SETTINGS, f"the table settings {', '.join(changed)} differ from the ones commit "
                    f"{last_settings[0]} was written under: a later commit changed them")
        self._check_witness(witness, witness_error, links, current, chained, problem)
        actual = self._refresh_heads(dt)
        for pulka, (seq, head, version) in sorted(recorded.items()):
            got_head = actual.get(pulka)
            if got_head is None:
                problem(Kind.LOST, f"commit {version} recorded seq 1..{seq}, but the table holds no row of it (a "
                        "removed add, a forged remove, rows dropped from a file?); time travel to that version",
                        pulka, seq)
            elif got_head[0] < seq:
                problem(Kind.LOST, f"commit {version} recorded seq {seq}, but the table ends at seq {got_head[0]}",
                        pulka, seq)
            elif got_head[0] == seq and got_head[1] != head:
                problem(Kind.LOST, f"head at seq {seq} differs from the one commit {version} recorded (events "
                        "replaced, chain recomputed)", pulka, seq)
            elif got_head[0] > seq:
                problem(Kind.UNRECORDED, f"events after seq {seq} that no commit of the log recorded adding",
                        pulka, got_head[0])
        with self._cache_lock:
            unrecorded = [(pulka, head[0]) for pulka, head in actual.items() if pulka not in recorded]
        for pulka, last in unrecorded:
            problem(Kind.UNRECORDED, "no commit of the log recorded adding this pulka (made up, or its commit's "
                    "record was not signed with the key)", pulka, last)
        return problems

    @staticmethod
    def _last_rekey(commits: list[dict[str, Any]], key: bytes | None,
                    problem: Callable[[Kind, str], None]) -> tuple[int, keyed.Rekey] | None:
        """The last re-key commit signed with ``key`` (its version and record): its signatures stand for those
        of the append commits before it (the seal moved to its key). None without a key, or without one."""
        out: tuple[int, keyed.Rekey] | None = None
        for commit in commits:
            text = commit.get(keyed.REKEY_META)
            if text is None:
                continue
            version = int(commit.get("version", -1))
            try:
                if not isinstance(text, str):
                    raise ValueError("not text")
                rekey = keyed.Rekey.parse(text)
            except ValueError as exc:
                problem(Kind.RECORD, f"commit {version}: its re-key record cannot be read ({exc})")
                continue
            if key is not None and hmac.compare_digest(str(commit.get(MAC_META, "")),
                                                       sign(key, keyed.commit_signed_text(commit))):
                out = (version, rekey)
        return out

    def _check_witness(self, witness: keyed.Witness | None, error: str | None, links: dict[int, Tip],
                       current: int, chained: bool, problem: Callable[[Kind, str], None]) -> None:
        """The witness against the log's append commits (``links``, by version): the commit it names must
        be there, with the number and digest it names."""
        if self._pinned is not None:
            return  # a view of an older version: the witness names a later commit, rightly
        if error is not None:
            problem(Kind.WITNESS, error)
            return
        if witness is None:
            if chained:   # every store with a chain of commits was given a witness when it was created
                unkeyed = "" if self._key is not None else (
                    " (and without a key, anyone can write a witness: key the store, setting PREFLOG_KEY or "
                    "PREFLOG_KEY_FILE before its first import, for a witness only the club can sign)")
                problem(Kind.WITNESS, f"{self.path / keyed.WITNESS_NAME} is missing: the store cannot show that "
                        f"its last commits are all there{unkeyed}")
            return
        if witness.n == 0:
            return  # the witness of a new table: no append commit named yet
        if witness.version > current:
            problem(Kind.WITNESS, f"the witness names append commit {witness.n} at version {witness.version}, but "
                    f"the log ends at version {current}: commits are missing from _delta_log (restore it from "
                    "a backup)")
            return
        got = links.get(witness.version)
        if got is None or (got.n, got.digest) != (witness.n, witness.digest):
            problem(Kind.WITNESS, f"the commit at version {witness.version} is not the append commit {witness.n} "
                    f"({witness.digest}) the witness names: a commit was lost from _delta_log and another "
                    "written at its number (restore the log from a backup)")

    def _verify_rows(self, progress: Callable[[int, int], None] | None = None) -> list[IntegrityProblem]:
        problems: list[IntegrityProblem] = []
        con = duckdb.connect()
        try:
            src = self._source(con, self._table())
            if src is None:
                return []
            total = done = 0
            if progress is not None:
                [(counted,)] = con.execute(f"SELECT count(*) FROM {src}").fetchall()  # from the Parquet footers
                total = int(counted)
            reader = con.sql(f"SELECT {ALL} FROM {src} ORDER BY pulka, seq").to_arrow_reader(65_536)
            cur: str | None = None
            rows: list[StoredRow] = []
            for b in reader:
                if progress is not None:
                    done += b.num_rows
                    progress(done, total)
                for r in zip(*(c.to_pylist() for c in b.columns), strict=True):
                    if r[0] != cur:
                        if cur is not None:
                            problems.extend(check_pulka(cur, rows))
                        cur, rows = r[0], []
                    rows.append(r[1:])
            if cur is not None:
                problems.extend(check_pulka(cur, rows))
        except duckdb.IOException as exc:
            raise StoreError(f"{self.path}: a file of the table cannot be read: {exc}") from None
        finally:
            con.close()
        return problems
