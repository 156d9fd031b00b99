"""A rules spec as a value: ``preset[+named-override…][+option=value…]``, parsed once.

A spec is what a record's ``[Rules]`` tag, ``preflog simulate --rules``, the web app's start form and
``counterfactual`` name rules by. :class:`RulesSpec` is its one parser (:func:`~preflog.rules.resolve`, a
rules version's tables and the record reader's ``[Rules]`` tag all read a spec through it, so they agree
on what a spec says and on the words of what is wrong with one): the preset and the named
overrides are case-folded (``Slovenian``, ``SLOVENIAN`` and ``slovenian`` are one preset), each
``option=value`` keeps its value's text (the rules coerce it), and ``str()`` writes the spec back in its
canonical form, which parses to the same value:

>>> spec = RulesSpec.parse(" Sochi + Geometric-Raspasy + raspasy_cap = 4 ")
>>> str(spec)
'sochi+geometric-raspasy+raspasy_cap=4'
>>> RulesSpec.parse(str(spec)) == spec
True
>>> spec.preset, spec.named, spec.options
('sochi', ('geometric-raspasy',), (('raspasy_cap', '4'),))
>>> RulesSpec.parse("SLOVENIAN").rules().name
'slovenian'
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import Rules
from .config import RulesError


@dataclass(frozen=True, slots=True)
class RulesSpec:
    """A parsed rules spec: ``preset`` and ``named`` overrides (case-folded), then ``options`` in the
    order given (``(name, value text)``; a later one of the same name wins, as in :meth:`Rules.replace`)."""

    preset: str
    named: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> RulesSpec:
        """The spec ``text``; :class:`~preflog.rules.RulesError` when it does not start with a preset (an
        empty spec, or an option where the preset goes). Whether the names are known is :meth:`rules`'s
        question."""
        parts = [p for _at, p in cls.parts(text)]
        if not parts[0]:
            raise RulesError(f"rules spec {text!r}: a spec starts with a preset, e.g. sochi")
        if "=" in parts[0]:
            raise RulesError(f"rules spec {text!r}: {parts[0]!r} is not a rules preset: a spec starts with a "
                             f"preset, e.g. sochi+{parts[0].replace(' ', '')}")
        named: list[str] = []
        options: list[tuple[str, str]] = []
        for part in parts[1:]:
            if "=" in part:
                key, _, value = part.partition("=")
                options.append((key.strip().casefold(), value.strip()))
            elif part:
                named.append(part.casefold())
            else:
                raise RulesError(f"rules spec {text!r}: an empty part between two '+'")
        return cls(parts[0].casefold(), tuple(named), tuple(options))

    @staticmethod
    def parts(text: str) -> list[tuple[int, str]]:
        """The ``+``-separated parts of ``text``, each stripped, with where it starts in ``text`` (so that a
        record's reader can point at one of them)."""
        out: list[tuple[int, str]] = []
        at = 0
        for part in text.split("+"):
            out.append((at + len(part) - len(part.lstrip()), part.strip()))
            at += len(part) + 1
        return out

    @staticmethod
    def preset_of(text: str | None) -> str:
        """The preset a stored spec names, case-folded, without refusing anything (``""`` for none): for
        words drawn from a pulka whatever its ``[Rules]`` said."""
        return (text or "").split("+")[0].strip().casefold()

    @property
    def base(self) -> str:
        """The preset and the named overrides: the part :func:`~preflog.rules.presets.resolve` reads."""
        return "+".join((self.preset, *self.named))

    def rules(self) -> Rules:
        """The rules this spec names; a :class:`~preflog.rules.RulesError` naming the spec when a name is
        unknown or a value does not fit its option."""
        from .presets import resolve  # (the presets read specs through this class)

        try:
            return resolve(self)
        except RulesError as e:
            raise RulesError(f"rules spec {str(self)!r}: {e}") from None

    def __str__(self) -> str:
        return "+".join((self.base, *(f"{k}={v}" for k, v in self.options)))


__all__ = ["RulesSpec"]
