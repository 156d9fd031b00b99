"""Each game family in its own words, for the pictures (the drawn sheet, the HTML sheet, the viewer).

A Russian sheet has a pulya ("пуля"), a gora ("гора") and visty ("висты"), and settles on paper by two
methods of rounding the gora. The Croatian game keeps a contract column per player ("stupac") that starts
below zero, writes soup ("juha") on the others, grants refe and puts a hat ("šešir") on a column that
reaches zero; it has no gora and no paper methods, and its centre holds the column start, not a pool.
The Slovenian game is the Croatian one with its own word for the refe: "radlc".

The words live with the family (:class:`preflog.engine.families.SheetTerms`), with the few words a preset
of that family says its own way; views ask :func:`words_for` and never compare names.

>>> words_for("croatian", "slovenian+first_lead=eldest").refe
'radlc'
>>> words_for("russian", "sochi").gora
'гора'
"""

from __future__ import annotations

from ..engine.families import SheetWords
from ..engine.families import family_named

Words = SheetWords


def words_for(family: str | None, rules: str | None = None) -> SheetWords:
    """The words of a family (by name; the first family when ``None``), as its preset ``rules`` (a rules
    spec such as ``slovenian+key=value``) says them: the family's :class:`SheetTerms` hold them."""
    return family_named(family).sheet.words(rules)
