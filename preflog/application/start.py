"""The start form's rules (``preflog serve``): each live preset's options as :class:`Rules` declares them,
and the rules spec the form sends back, read by the spec parser the CLI uses.

The form draws every option from the :class:`Rules` fields' own metadata (doc, family, choices, type) in the
sections of :data:`preflog.rules.config.OPTION_SECTIONS`; a preset's values are its :class:`Rules` value.
The page sends ``preset+key=value…`` for the options changed, and :func:`started_rules` reads it with
:class:`preflog.rules.spec.RulesSpec`, so a bad value is the parser's own sentence.
"""

from __future__ import annotations

import json
import typing
from dataclasses import fields
from enum import Enum
from enum import StrEnum
from typing import Any

from ..engine.families import family_of
from ..model.events import PulkaStarted
from ..rules.config import Rules
from ..rules.config import option_family
from ..rules.config import option_sections
from ..rules.config import plain_value
from ..rules.config import stored_value
from ..rules.presets import PRESETS
from ..rules.spec import RulesSpec

PRESET_CHOOSES: tuple[str, ...] = ("name", "family")
"""The options the preset itself chooses (its name and game family): the form changes the others."""

MOST_SPEC = 2000
"""The longest rules spec the start form takes (every option of a family changed fits in it)."""


_POOL_FIELD: Any = PulkaStarted.__dataclass_fields__["pool"]
POOL_UNUSED: int = _POOL_FIELD.default
"""The pool a pulka stores when its family's sheet has none (the event's default, as a record without a
``[Pool]`` tag reads)."""


class OptionKind(StrEnum):
    """How the start form takes an option's value."""

    FLAG = "flag"
    """True or false: a checkbox."""
    CHOICE = "choice"
    """One of a closed set of words or numbers: a select."""
    NUMBER = "number"
    """A whole number: a number field."""
    TEXT = "text"
    """Anything else (a table of pairs, a fraction, none): its spec text, as ``key=value`` writes it."""


def _kind(hint: Any, choices: tuple[Any, ...] | None) -> OptionKind:
    if hint is bool:
        return OptionKind.FLAG
    if choices or (isinstance(hint, type) and issubclass(hint, Enum)):
        return OptionKind.CHOICE
    if hint is int:
        return OptionKind.NUMBER
    return OptionKind.TEXT


def spec_text(value: Any) -> str:
    """An option value as the ``value`` of a spec's ``key=value`` part (it reads back as this value)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return json.dumps(plain_value(value), separators=(",", ":"), ensure_ascii=False)
    return str(plain_value(value))


def form_options() -> list[dict[str, Any]]:
    """The options the start form offers, in their sections: ``{"title", "options": [{"name", "doc",
    "family" (None: both), "kind", "choices"}]}``; a preset's values are :func:`form_presets`'."""
    hints = typing.get_type_hints(Rules)
    meta = {f.name: f.metadata for f in fields(Rules)}
    out: list[dict[str, Any]] = []
    for title, names in option_sections():
        shown = [n for n in names if n not in PRESET_CHOOSES]
        if not shown:
            continue
        options = []
        for name in shown:
            choices = meta[name].get("choices")
            kind = _kind(hints[name], choices)
            family = option_family(name)
            options.append({"name": name, "doc": meta[name].get("doc", ""),
                            "family": None if family is None else str(family), "kind": kind.value,
                            "choices": [spec_text(c) for c in choices] if choices else None})
        out.append({"title": title, "options": options})
    return out


def form_presets(names: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Each live preset the form offers: its family, whether its sheet has a pool to agree on (the family's
    sheet says: a Croatian list starts its columns from the rules' ``start``, not from a pool), and every
    option's value as spec text."""
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        rules = PRESETS[name]
        out[name] = {"family": str(rules.family), "pool": has_pool(rules),
                     "values": {f.name: spec_text(getattr(rules, f.name)) for f in fields(Rules)
                                if f.name not in PRESET_CHOOSES}}
    return out


def has_pool(rules: Rules) -> bool:
    """Whether a pulka under ``rules`` agrees on a pool (the family's sheet says: not where its columns
    start from the rules' ``start``)."""
    return not family_of(rules).sheet.drawn.centre_is_start


def started_rules(spec: str) -> tuple[Rules, str, tuple[tuple[str, Any], ...]]:
    """The rules of the spec the start form sent (``preset[+named-override…][+key=value…]``), read by the
    one spec parser (:class:`~preflog.rules.spec.RulesSpec`; its :class:`~preflog.rules.RulesError` is the
    refusal), with the spec proper and the ``key=value`` overrides as a
    :class:`~preflog.model.events.PulkaStarted` holds them (as the record reader types them: each value as
    the rules read it)."""
    parsed = RulesSpec.parse(spec)
    rules = parsed.rules()
    return rules, parsed.base, tuple((k, stored_value(getattr(rules, k))) for k in dict(parsed.options))
