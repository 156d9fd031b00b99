"""JSON shapes of what the CLI prints with ``--json``: sheets, audits, settlements, findings.

The contract is documented in docs/cli.md (``sheet --json``, ``audit --json``); these functions
turn an audited pulka (:class:`~preflog.workspace.Audited`) into plain dicts of str, int and
lists, with players named and fractions as ``"n/d"`` text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING
from typing import Any

from ..engine.families import family_of
from ..engine.findings import Finding
from ..model.bids import RUSSIAN_BIDS
from ..projections.facts import rules_spec
from ..projections.facts import started_event
from ..rules.config import Rules
from ..scoring.sheet import Settlement

if TYPE_CHECKING:
    import pandas as pd

    from ..workspace import Audited
    from ..workspace import Loaded


def frac(x: Fraction | int) -> str | int:
    """A value for JSON: an int when whole, else ``"n/d"``."""
    if type(x) is int:   # (most of a sheet's values: no Fraction made for them)
        return x
    x = x if isinstance(x, Fraction) else Fraction(x)
    return int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def contract_text(rules: Rules | None, code: int, hand: bool = False) -> str:
    if code == 0:
        return ""
    bids = family_of(rules).bids if rules is not None else RUSSIAN_BIDS
    return bids.format(code) + (" hand" if hand else "")


def sheet_json(audited: Audited) -> dict[str, Any]:
    """One pulka of the ``sheet --json`` / ``audit --json`` contract (docs/cli.md)."""
    ld, res = audited.loaded, audited.result
    players = list(res.players)
    n = len(players)
    # whole numbers stay ints (a Fraction only where a value has a fraction: frac writes both alike)
    pulya: list[Fraction | int] = [0] * n
    gora: list[Fraction | int] = [0] * n
    visty: list[list[Fraction | int]] = [[0] * n for _ in range(n)]
    if res.sheet is not None:
        # The sheet need not start blank (Croatian contract columns start at −start; a starting sheet
        # entered from paper): the starting line is the final sheet less every deal's entries.
        final = res.sheet
        for d in res.deals:
            if d.score is not None:
                for i in range(n):
                    pulya[i] -= d.score.pulya[i]
                    gora[i] -= d.score.gora[i]
                    for j in range(n):
                        visty[i][j] -= d.score.visty[i][j]
        pulya = [pulya[i] + final.pulya[i] for i in range(n)]
        gora = [gora[i] + final.gora[i] for i in range(n)]
        visty = [[visty[i][j] + final.visty[i][j] for j in range(n)] for i in range(n)]
    start = {"pulya": {players[i]: frac(pulya[i]) for i in range(n)},
             "gora": {players[i]: frac(gora[i]) for i in range(n)},
             "visty": {players[i]: {players[j]: frac(visty[i][j]) for j in range(n) if j != i} for i in range(n)}}
    deals = []
    for d in res.deals:
        entry: dict[str, Any] = {"deal": d.deal, "dealer": players[d.dealer] if 0 <= d.dealer < n else None}
        o, s = d.outcome, d.score
        if o is not None:
            entry.update({
                "kind": o.kind,
                "declarer": players[o.declarer] if o.declarer >= 0 else None,
                "contract": contract_text(res.rules, o.contract, o.hand_game),
                "tricks": {players[i]: t for i, t in enumerate(o.tricks)},
            })
        if s is not None:
            for i in range(n):
                pulya[i] += s.pulya[i]
                gora[i] += s.gora[i]
                for j in range(n):
                    visty[i][j] += s.visty[i][j]
            if s.note:
                entry["note"] = s.note
        if d.broken:
            entry["broken"] = True
        entry["pulya"] = {players[i]: frac(pulya[i]) for i in range(n)}
        entry["gora"] = {players[i]: frac(gora[i]) for i in range(n)}
        entry["visty"] = {players[i]: {players[j]: frac(visty[i][j]) for j in range(n) if j != i} for i in range(n)}
        deals.append(entry)
    totals = {
        "pulya": {players[i]: frac(pulya[i]) for i in range(n)},
        "gora": {players[i]: frac(gora[i]) for i in range(n)},
        "visty": {players[i]: {players[j]: frac(visty[i][j]) for j in range(n) if j != i} for i in range(n)},
    }
    started = started_event(ld.events)
    return {
        "id": ld.id,
        "players": players,
        "rules": rules_spec(started) if started else None,
        "pool": started.pool if started else None,
        "whist_price": started.whist_price if started else None,
        "date": dict(started.meta).get("date") if started else None,
        "start": start,
        "deals": deals,
        "totals": totals,
        "settlement": settlement_json(players, res.settlement),
        "finished": bool(res.ended),
        "family": res.rules.family if res.rules else None,
    }


def settle_json(audited: Audited) -> dict[str, Any]:
    """One pulka of the ``settle --json`` contract (docs/cli.md): the final totals and the settlement,
    without the deals (:func:`sheet_json` less ``deals`` and ``start``)."""
    s = sheet_json(audited)
    return {k: s[k] for k in ("id", "players", "rules", "pool", "whist_price", "totals", "settlement", "family")}


def settlement_json(players: Sequence[str], st: Settlement | None) -> dict[str, Any]:
    """A settlement as JSON. ``money`` is the settlement's own money column (the engine prices it at the
    pulka's ``[WhistPrice]``); ``{}`` when it has none (a pulka stored with a price that is no number)."""
    if st is None:
        return {"exact": {}, "method1": {}, "method2": {}, "money": {}}
    money = st.money
    return {
        "exact": {p: frac(v) for p, v in zip(players, st.exact, strict=False)},
        "method1": dict(zip(players, st.method1, strict=False)),
        "method2": dict(zip(players, st.method2, strict=False)),
        "money": {p: frac(v) for p, v in zip(players, money, strict=False)},
    }


def finding_json(f: Finding, loaded: Loaded | None = None) -> dict[str, Any]:
    """A finding as JSON (its message already names the players: the engine knows them). With the pulka's
    :class:`~preflog.workspace.Loaded`, ``file`` is the record file it was read from and ``line`` the record
    line of the event (``null`` for a stored pulka; ``line`` also for a JSON record or the log's end)."""
    d = f.as_dict()
    d["file"] = loaded.source if loaded is not None and loaded.from_file else None
    d["line"] = (f.line or loaded.line_of(f.seq)) if loaded is not None else None
    if loaded is not None and (f.column or loaded.cols):   # a PPN file: the column of the field too
        d["column"] = f.column or (loaded.cols[f.seq - 1] if 1 <= f.seq <= len(loaded.cols) else None)
    return d


def audit_json(audited: Audited) -> dict[str, Any]:
    """One pulka of ``audit --json`` (docs/cli.md): id, findings, settlement."""
    return {
        "id": audited.loaded.id,
        "findings": [finding_json(f, audited.loaded) for f in audited.result.findings],
        "settlement": settlement_json(audited.result.players, audited.result.settlement),
    }


AUDIT_JSON_VERSION = 2  # 1: {"pulkas"} alone, seq counted from 0; 2: the envelope, the store's seq, file/line


def audit_doc(pulkas: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The whole ``audit --json`` document: the envelope of the versioned shapes around :func:`audit_json`'s."""
    return {"kind": "audit", "version": AUDIT_JSON_VERSION, "pulkas": list(pulkas)}


# --- the versioned ``--json`` shapes of ls, import, verify, compare and stats (docs/cli.md) -------------
CLI_JSON_VERSION = 1  # raised when a key changes meaning or goes away; new keys keep the number


def ls_json(root: str, pulkas: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``ls --json``: every stored pulka listed (``pulkas``: each one's summary as JSON, its id, events,
    last seq, players, rules, date, deals and whether it settled)."""
    return {"kind": "ls", "version": CLI_JSON_VERSION, "store": root, "pulkas": list(pulkas)}


def import_json(items: Sequence[Any], ledger: Any = None) -> dict[str, Any]:
    """``import --json``: the counts and one entry per pulka (or refused file,
    :class:`~preflog.workspace.ImportItem`); ``ledger``: the import's row of the store's import ledger
    (:class:`~preflog.store.ledger.LedgerEntry`; null when no store was written)."""
    return {
        "kind": "import", "version": CLI_JSON_VERSION,
        "files": len({i.source for i in items}),
        "imported": sum(i.status == "imported" for i in items),
        "duplicate": sum(i.status == "duplicate" for i in items),
        "errors": sum(i.status == "error" for i in items),
        "items": [{"source": i.source, "pulka": i.pulka or None, "status": i.status, "deals": i.deals,
                   "events": i.events, "findings": i.findings, "error": i.error or None} for i in items],
        "ledger": None if ledger is None else ledger.as_json(),
    }


def ledger_json(root: str, entries: Sequence[Any], total: Any) -> dict[str, Any]:
    """``ledger --json``: every import of the store's ledger, oldest first, and their sum
    (:class:`~preflog.store.ledger.LedgerEntry` each)."""
    return {"kind": "ledger", "version": CLI_JSON_VERSION, "store": root,
            "imports": [e.as_json() for e in entries], "total": total.as_json()}


def verify_json(root: str, pulkas: int, problems: Sequence[Any], error: str | None = None, *,
                unchecked: str | None = None) -> dict[str, Any]:
    """``verify --json``: how many pulkas were checked and each problem
    (:class:`~preflog.store.base.IntegrityProblem`); ``error``: the one-line error when verify could not
    run to its end (exit 2), else None; ``unchecked``: what went unchecked (a keyed store verified without
    its key), else None."""
    return {"kind": "verify", "version": CLI_JSON_VERSION, "store": root, "pulkas": pulkas,
            "clean": not problems and error is None, "error": error, "unchecked": unchecked,
            "problems": [{"pulka": p.pulka, "seq": p.seq, "kind": p.kind, "detail": p.detail,
                          "first_seq": p.first_seq} for p in problems]}


def frame_rows(df: pd.DataFrame) -> list[dict[str, Any]]:
    """A report's rows as JSON values: floats to 9 decimals (no binary noise), NULL and NaN as null, dates
    as ISO text (``2024-03-01`` for a date, ``2024-03-01T10:00:00.000`` for a time of day)."""
    floats = [c for c in df.columns if str(df[c].dtype).startswith("float")]
    days = [c for c in df.columns if str(df[c].dtype).startswith("datetime64")
            and (df[c].dropna() == df[c].dropna().dt.normalize()).all()]
    df = df.assign(**{c: df[c].round(9) for c in floats}, **{c: df[c].dt.strftime("%Y-%m-%d") for c in days})
    rows: list[dict[str, Any]] = json.loads(df.to_json(orient="records", date_format="iso"))
    return rows


def table_json(kind: str, rows: list[dict[str, Any]], filters: dict[str, Any] | None = None) -> dict[str, Any]:
    """``stats … --json`` and ``compare --json``: the report's rows (every column, as ``--format json``)
    with the filters that made it."""
    return {"kind": kind, "version": CLI_JSON_VERSION, "filters": filters or {}, "rows": rows}


def sheet_doc(sheets: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The whole ``sheet --json`` document: the envelope of the versioned shapes around :func:`sheet_json`'s
    (before the envelope it was ``{"pulkas": […]}`` alone; the keys are the same, so the version is 1)."""
    return {"kind": "sheet", "version": CLI_JSON_VERSION, "pulkas": list(sheets)}


def settle_doc(pulkas: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The whole ``settle --json`` document: the envelope around :func:`settle_json`'s."""
    return {"kind": "settle", "version": CLI_JSON_VERSION, "pulkas": list(pulkas)}
