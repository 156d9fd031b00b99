"""Versioned preset tables: the rules a pulka was recorded under, for as long as its log exists.

A :class:`~preflog.model.events.PulkaStarted` names its rules by *spec* (``sochi+geometric-raspasy``
plus ``key=value`` overrides) and by :attr:`~preflog.model.events.PulkaStarted.rules_version`. The spec
is what records show; the version pins what the spec meant. ``tables/v<N>.json`` holds version N's
tables: the :class:`Rules` option defaults, every preset (as its differences from those defaults) and
every named override. :func:`rules_of` resolves a pulka's spec with the tables of *its* version, so
every option's value is fixed by what the log records, and a later change to a preset (a new
version) leaves old logs replaying exactly as they were played. Logs written before versions were
recorded read as version 1, whose tables are the presets of that time: they replay as before.

Changing a preset, a named override or a :class:`Rules` default therefore means: bump
:data:`~preflog.model.events.RULES_VERSION` and write the new tables with
``python -m preflog.rules.versions`` (a test fails until both are done). Adding an option whose default
keeps the old behaviour, or a new preset or named override, needs no new version: old tables lack
them and the class default (the old behaviour) fills in, and the current version's tables are
rewritten in place.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import fields
from functools import cache
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..model.events import LEGACY_RULES_VERSION
from ..model.events import RULES_VERSION
from ..model.events import PulkaStarted
from .config import Rules
from .config import RulesError
from .config import plain_value
from .presets import NAMED_OVERRIDES
from .presets import PRESETS
from .presets import resolve_with

__all__ = ["LEGACY_RULES_VERSION", "RULES_VERSION", "current_tables", "presets_at", "resolve_at", "rules_of",
           "tables_at"]

TABLES_DIR = Path(__file__).resolve().parent / "tables"


def rules_of(started: PulkaStarted) -> Rules:
    """Every option's value for the pulka ``started`` begins: its spec and overrides resolved with the
    preset tables of its ``rules_version`` (:class:`RulesError` if they do not resolve)."""
    return resolve_at(started.rules_version, started.rules, started.overrides)


def resolve_at(version: int, spec: str, overrides: tuple[tuple[str, Any], ...] = ()) -> Rules:
    """:func:`preflog.rules.presets.resolve` with the tables of rules ``version``."""
    try:
        return _resolve_cached(version, spec, overrides)
    except TypeError:  # an unhashable override value: resolve without the cache
        return _resolve(version, spec, overrides)


@lru_cache(maxsize=512)
def _resolve_cached(version: int, spec: str, overrides: tuple[tuple[str, Any], ...]) -> Rules:
    return _resolve(version, spec, overrides)


def _resolve(version: int, spec: str, overrides: tuple[tuple[str, Any], ...]) -> Rules:
    tables = tables_at(version)
    return resolve_with(spec, dict(overrides), presets_at(version), tables["named_overrides"])


@cache
def tables_at(version: int) -> dict[str, Any]:
    """The tables of rules ``version`` as stored (plain JSON values)."""
    path = TABLES_DIR / f"v{version}.json"
    if not path.is_file():
        raise RulesError(f"rules version {version} is unknown to this preflog (it knows 1..{RULES_VERSION})")
    tables: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return tables


@cache
def presets_at(version: int) -> dict[str, Rules]:
    """The presets of rules ``version``; options added since take their :class:`Rules` default, options
    removed since are dropped."""
    tables = tables_at(version)
    known = {f.name for f in fields(Rules)}
    out: dict[str, Rules] = {}
    for name, diff in tables["presets"].items():
        values = {**tables["defaults"], **diff}
        out[name] = Rules(**{k: v for k, v in values.items() if k in known})
    return out


def current_tables(presets: Mapping[str, Rules] = PRESETS,
                   named: Mapping[str, Mapping[str, Any]] = NAMED_OVERRIDES) -> dict[str, Any]:
    """Today's tables in the stored form: defaults, presets as differences from them, named overrides."""
    defaults = Rules().to_dict()
    del defaults["name"]
    return {
        "defaults": defaults,
        "presets": {n: {k: v for k, v in r.to_dict().items() if k == "name" or v != defaults.get(k)}
                    for n, r in presets.items()},
        "named_overrides": {n: {k: plain_value(v) for k, v in o.items()} for n, o in named.items()},
    }


def write_tables(version: int = RULES_VERSION) -> Path:
    """Write today's tables as ``tables/v<version>.json``."""
    path = TABLES_DIR / f"v{version}.json"
    path.write_text(_tables_json(current_tables()), encoding="utf-8")
    tables_at.cache_clear()
    presets_at.cache_clear()
    _resolve_cached.cache_clear()
    return path


def _tables_json(tables: dict[str, Any]) -> str:
    """JSON with one option a line (values inline), so a new version's diff reads option by option."""
    def obj(d: Mapping[str, Any], indent: str) -> str:
        if not d:
            return "{}"
        inner = indent + "  "
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: "
                 + (obj(v, inner) if isinstance(v, dict) else json.dumps(v, ensure_ascii=False))
                 for k, v in d.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"

    return obj(tables, "") + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    print(f"wrote {write_tables(int(args[0]) if args else RULES_VERSION)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
