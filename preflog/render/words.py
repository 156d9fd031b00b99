"""Each game family in its own words, for the pictures (the drawn sheet, the HTML sheet, the viewer).

A Russian sheet has a pulya, a gora and visty, and settles on paper by two methods of rounding the gora;
in English (the default) it writes those terms as English books do (pulya, gora, visty), in Russian
(``preflog sheet --lang ru``) as a Russian sheet does: пуля, гора, висты на …, Расчёт, точно, способ 1/2,
в деньгах. One language per sheet. The Croatian game keeps a contract column per player ("stupac") that
starts below zero, writes soup ("juha") on the others, grants refe and puts a hat ("šešir") on a column
that reaches zero; it has no gora and no paper methods, its centre holds the column start, not a pool, and
it rules its sheet as a list (a column per player, a row per deal). The Slovenian game is the Croatian one
with its own word for the refe: "radlc". The Serbian game writes the column as the "bula" still to play
(60 down to 0: :attr:`SheetWords.column_as_bula`), its soup as "supe" and the refe as "refa". Those are the
game's own words in any language: ``--lang ru`` changes nothing on a Croatian, Slovenian or Serbian sheet
(it has no Russian terms), which says the rest in English.

The words live with the family (:class:`preflog.engine.families.SheetTerms`), with the few words a preset
of that family says its own way; views ask :func:`words_for` and never compare names.

>>> words_for("croatian", "slovenian+first_lead=eldest").refe
'radlc'
>>> words_for("russian", "sochi", Lang.RU).gora, words_for("russian", "sochi").gora
('гора', 'gora')
>>> words_for("croatian", "croatian", Lang.RU).visty
'juha na {}'
>>> words_for("croatian", "serbian").pool, words_for("croatian", "serbian", Lang.RU).visty
('bula', 'supe na {}')
"""

from __future__ import annotations

from ..engine.families import Lang
from ..engine.families import SheetLayout
from ..engine.families import SheetWords
from ..engine.families import family_named
from ..templates.i18n import Language

Words = SheetWords

__all__ = ["Lang", "SheetLayout", "Words", "sheet_lang", "words_for"]


def sheet_lang(language: Language) -> Lang:
    """The sheet's words for a page in ``language``: a Russian page draws the Russian game's Russian terms;
    every other page its English ones (the Croatian and Slovenian games' own words in any language).

    >>> sheet_lang(Language.RU), sheet_lang(Language.HR)
    (<Lang.RU: 'ru'>, <Lang.EN: 'en'>)
    """
    return Lang.RU if language is Language.RU else Lang.EN


def words_for(family: str | None, rules: str | None = None, lang: Lang = Lang.EN) -> SheetWords:
    """The words of a family (by name; the first family when ``None``) in ``lang``, as its preset ``rules``
    (a rules spec such as ``slovenian+key=value``) says them: the family's :class:`SheetTerms` hold them."""
    return family_named(family).sheet.words(rules, lang)
