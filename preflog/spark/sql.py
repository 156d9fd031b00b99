"""The report SQL of :mod:`preflog.reports` (DuckDB) as Spark SQL: one definition of each report.

The reports are written once, for DuckDB, in ``preflog/reports/sql/*.sql`` with the helpers of
``macros.sql`` (``rate``, ``wilson_lo``/``wilson_hi``, ``keep_row`` and the ``sel_*`` table macros).
Spark SQL has no macros, so :func:`spark_report_sql` rewrites the text mechanically:

* every macro call is expanded with its body from ``macros.sql`` (arguments substituted, parenthesised);
* the query parameters (``$player`` …) become SQL literals (``NULL`` typed as the filter expects);
* DuckDB spellings Spark lacks: ``list_contains`` → ``array_contains``, ``VARCHAR`` → ``STRING``, and
  decimal literals become doubles (``1.0`` → ``1.0D``): DuckDB divides decimals in floating point, Spark
  would keep them decimal and round to six places.

Nothing about a report's logic is restated here; tests run both engines on the same projections and
compare every report (``tests/spark``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ..reports.db import Filters
from ..reports.db import load_sql
from ..reports.queries import contracts_sql

REPORTS = ("players", "players_by_level", "contracts", "variants")
DEFAULT_CONTRACTS_BY = ("contract", "hand_game")

_MACRO = re.compile(r"CREATE\s+OR\s+REPLACE\s+MACRO\s+(\w+)\s*\(([^)]*)\)\s+AS\s+(TABLE\s+)?(.*)",
                    re.IGNORECASE | re.DOTALL)
_DECIMAL = re.compile(r"(?<![\w.'])(\d+\.\d+)(?![\w.])")
_PARAM = re.compile(r"\$(\w+)")


@dataclass(frozen=True, slots=True)
class Macro:
    name: str
    params: tuple[str, ...]
    body: str
    table: bool


def _strip_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines())


@cache
def macros() -> dict[str, Macro]:
    """The macros of ``macros.sql`` by name."""
    out: dict[str, Macro] = {}
    for stmt in _strip_comments(load_sql("macros")).split(";"):
        m = _MACRO.match(stmt.strip())
        if m:
            params = tuple(p.strip() for p in m.group(2).split(",") if p.strip())
            out[m.group(1).lower()] = Macro(m.group(1).lower(), params, m.group(4).strip(), bool(m.group(3)))
    return out


def _split_args(text: str, start: int) -> tuple[list[str], int]:
    """The comma-separated arguments of a call whose ``(`` is at ``start``; and the index after ``)``."""
    depth, quote, args, cur = 0, False, [], start + 1
    i = start
    while i < len(text):
        ch = text[i]
        if quote:
            quote = ch != "'"
        elif ch == "'":
            quote = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                args.append(text[cur:i].strip())
                return [a for a in args if a], i + 1
        elif ch == "," and depth == 1:
            args.append(text[cur:i].strip())
            cur = i + 1
        i += 1
    raise ValueError(f"unbalanced parentheses after {text[max(0, start - 20):start + 20]!r}")


def _substitute(body: str, params: Sequence[str], args: Sequence[str]) -> str:
    if len(params) != len(args):
        raise ValueError(f"macro takes {len(params)} arguments, got {len(args)}: {args}")
    if not params:
        return body
    mapping = dict(zip(params, args, strict=True))
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, params)) + r")\b")
    return pattern.sub(lambda m: f"({mapping[m.group(1)]})", body)


def expand_macros(sql: str, defs: Mapping[str, Macro] | None = None) -> str:
    """``sql`` with every call of a macro replaced by its body, until none is left."""
    defs = macros() if defs is None else defs
    call = re.compile(r"\b(" + "|".join(map(re.escape, defs)) + r")\s*\(", re.IGNORECASE)
    for _ in range(100):
        m = call.search(sql)
        if m is None:
            return sql
        macro = defs[m.group(1).lower()]
        args, end = _split_args(sql, m.end() - 1)
        body = _substitute(macro.body, macro.params, args)
        text = f"({body}) AS {macro.name}" if macro.table else f"({body})"
        sql = sql[:m.start()] + text + sql[end:]
    raise ValueError("macro expansion does not terminate")


def _literal(name: str, value: object) -> str:
    if name == "pulkas":  # a list filter: array_contains needs a typed array even when NULL
        if value is None:
            return "CAST(NULL AS ARRAY<STRING>)"
        assert isinstance(value, (list, tuple))
        return "array(" + ", ".join(_quote(str(v)) for v in value) + ")"
    return "CAST(NULL AS STRING)" if value is None else _quote(str(value))


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def to_spark(sql: str, params: Mapping[str, object]) -> str:
    """DuckDB report SQL (with macros and ``$params``) → Spark SQL with literal parameters."""
    sql = expand_macros(_strip_comments(sql))
    sql = _PARAM.sub(lambda m: _literal(m.group(1), params[m.group(1)]), sql)
    sql = re.sub(r"\blist_contains\s*\(", "array_contains(", sql, flags=re.IGNORECASE)
    sql = re.sub(r"\bVARCHAR\b", "STRING", sql, flags=re.IGNORECASE)
    sql = _DECIMAL.sub(r"\1D", sql)
    return sql.strip().rstrip(";")


def report_sql(name: str, by: Sequence[str] = DEFAULT_CONTRACTS_BY) -> str:
    """The DuckDB text of a report, formatted as :mod:`preflog.reports.queries` formats it."""
    if name not in REPORTS:
        raise ValueError(f"unknown report {name!r} (known: {', '.join(REPORTS)})")
    return contracts_sql(by) if name == "contracts" else load_sql(name)


def spark_report_sql(name: str, filters: Filters | None = None, by: Sequence[str] = DEFAULT_CONTRACTS_BY) -> str:
    """A report as Spark SQL over the views ``deals``, ``player_deals``, ``pulka_results``."""
    return to_spark(report_sql(name, by), (filters or Filters()).params())
