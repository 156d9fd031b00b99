"""Each game family in its own words, for the pictures (the drawn sheet, the HTML sheet, the viewer).

A Russian sheet has a pulya ("пуля"), a gora ("гора") and visty ("висты"), and settles on paper by two
methods of rounding the gora. The Croatian game keeps a contract column per player ("stupac") that starts
below zero, writes soup ("juha") on the others, grants refe and puts a hat ("šešir") on a column that
reaches zero; it has no gora and no paper methods, and its centre holds the column start, not a pool.
The Slovenian game is the Croatian one with its own word for the refe: "radlc".

The words are a table keyed by the family's name (:attr:`preflog.engine.families.Family.name`) with a few
words a preset of that family says its own way; views ask :func:`words_for` and never compare names.

>>> words_for("croatian", "slovenian+first_lead=eldest").refe
'radlc'
>>> words_for("russian", "sochi").gora
'гора'
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace
from typing import Any

from ..engine.families import family_named


@dataclass(frozen=True)
class Words:
    """The words of one family's pictures."""

    pool: str
    """The pool column ("пуля"; Croatian: "stupac", the contract column)."""
    pool_table: str
    """The pool column in a table header ("pulya"; Croatian: "stupac")."""
    gora: str | None
    """The gora ("гора"), or ``None`` where the family keeps none."""
    gora_table: str | None
    """The gora in a table header ("gora")."""
    visty: str
    """What one writes on another, ``{}`` the other: "висты на {}" / "juha na {}"."""
    visty_short: str
    """The same, short, for a narrow zone: "на {}"."""
    visty_table: str
    """A table header of what one wrote on ``{}``: "visty on {}" / "juha na {}"."""
    written_short: str
    """The same in one word, for a line of the record: "visty" / "juha"."""
    all_pass: str
    """What a deal that everybody passed becomes: "raspasy" / "refe for everybody"."""
    written: str
    """A table header of what one wrote on the others: "visty written" / "juha written"."""
    points: str
    """What the scores count: "bule" (Croatian points) or "visty"."""
    refe: str | None
    """The refe ("refe"; Slovenian: "radlc"), ``None`` where there is none."""
    hat: str | None
    """The hat on a column that reached zero ("šešir"), ``None`` where there is none."""
    centre_is_start: bool
    """The centre of the sheet shows the columns' start (Croatian: −30), not the pool."""
    paper_methods: bool
    """The sheet settles by the two paper methods of rounding the gora (Russian) besides exactly."""

    @property
    def marks(self) -> str:
        """The label of the zone of refe and hat marks (where a Russian sheet has its gora)."""
        return " · ".join(w for w in (self.refe, self.hat) if w)

    @property
    def gora_zone(self) -> str:
        """The label of the zone next to the centre: the gora, or the refe and hat marks."""
        return self.gora if self.gora is not None else self.marks


_BY_FAMILY: dict[str, Words] = {
    "russian": Words(pool="пуля", pool_table="pulya", gora="гора", gora_table="gora", visty="висты на {}",
                     visty_short="на {}", visty_table="on {}", written="visty written", written_short="visty",
                     all_pass="raspasy", points="visty",
                     refe=None, hat=None, centre_is_start=False, paper_methods=True),
    "croatian": Words(pool="stupac", pool_table="stupac", gora=None, gora_table=None, visty="juha na {}",
                      visty_short="na {}", visty_table="juha na {}", written="juha written", written_short="juha",
                      all_pass="refe for everybody", points="bule",
                      refe="refe", hat="šešir", centre_is_start=True, paper_methods=False),
}
# A preset that says some words its own way (by the preset's name, the first part of a rules spec).
_BY_PRESET: dict[str, dict[str, Any]] = {
    "slovenian": {"refe": "radlc", "all_pass": "radlc for everybody"},
}


def words_for(family: str | None, rules: str | None = None) -> Words:
    """The words of a family (by name; the first family when ``None``), as its preset ``rules`` (a rules
    spec such as ``slovenian+key=value``) says them."""
    words = _BY_FAMILY[family_named(family).name]
    preset = (rules or "").split("+")[0].split(":")[0]
    return replace(words, **_BY_PRESET.get(preset, {}))
