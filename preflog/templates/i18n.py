"""The pages' languages: gettext message catalogs (``preflog/locale/LANG/LC_MESSAGES/messages.po``, compiled
to ``.mo`` beside it) read with Babel, and which language a page is written in.

Every word a page shows comes from a catalog: the templates through Jinja2's i18n extension (``_()``,
``{% trans %}``), the pages' scripts through their ``_()`` (each page hands its script the translations
of the messages that script uses, as JSON: :func:`script_messages`), and the few words Python code puts on
a page are marked with :func:`N_` and translated by the template that shows them. ``pybabel extract -F
babel.cfg`` reproduces ``preflog/locale/messages.pot`` from all three (docs/serve.md).

The language of a page is :data:`LANG` (English unless set): ``preflog serve`` sets it for each request
from the ``lang`` query, the ``preflog_lang`` cookie or the browser's ``Accept-Language``
(:func:`negotiate`); the commands that write pages set it from ``--lang`` (:func:`speaking`).
"""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from enum import StrEnum
from pathlib import Path

from babel import Locale
from babel import negotiate_locale
from babel.messages.extract import extract
from babel.support import Translations

__all__ = ["COOKIE", "HERE", "LANG", "Language", "N_", "environment_language", "gettext", "negotiate", "ngettext",
           "script_messages", "speaking", "translations"]

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs are: ``LANG/LC_MESSAGES/messages.mo`` (package data)."""

COOKIE = "preflog_lang"
"""The cookie that remembers the language a browser chose with the pages' switch."""


class Language(StrEnum):
    """A language the pages are written in (a catalog of ``preflog/locale``)."""

    EN = "en"
    """English: the msgids themselves."""
    RU = "ru"
    """Russian."""
    HR = "hr"
    """Croatian."""
    SL = "sl"
    """Slovenian."""

    @property
    def own_name(self) -> str:
        """The language's name in itself (the switch shows it so: it is the same in every language)."""
        return str(Locale.parse(self.value).get_display_name(self.value)).capitalize()


LANG: ContextVar[Language] = ContextVar("preflog_lang", default=Language.EN)
"""The language of the pages written now (per request in ``preflog serve``, per command in the CLI)."""

HERE: ContextVar[str] = ContextVar("preflog_here", default="?")
"""The address of the page being written, ready for ``lang=…`` (its query without ``lang``, then ``?`` or
``&``): the language switch of the served pages links there."""


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it: the template that shows it translates it
    (``{{ _(text) }}``)."""
    return message


def gettext(message: str) -> str:
    """``message`` in the language of the pages written now (:data:`LANG`): for the words Python code
    draws into a page itself (a chart's title)."""
    return translations(LANG.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the language of the pages written now (Russian
    has three)."""
    return translations(LANG.get()).ngettext(singular, plural, n)


@functools.cache
def translations(lang: Language) -> Translations:
    """The compiled catalog of ``lang`` (English: none, the msgids are the text)."""
    if lang is Language.EN:
        return Translations()
    with open(LOCALE_DIR / lang.value / "LC_MESSAGES" / "messages.mo", "rb") as fp:
        return Translations(fp)


def negotiate(accept_language: str) -> Language:
    """The language of an ``Accept-Language`` header (Babel's negotiation over the qualities the browser
    gives; a region such as ``ru-RU`` counts as its language), English when none of ours is asked for."""
    asked: list[tuple[float, str]] = []
    for i, part in enumerate(accept_language.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            asked.append((-quality + i * 1e-6, tag.strip().replace("_", "-")))
    preferred = [tag for _, tag in sorted(asked)]
    preferred += [tag.split("-")[0] for tag in preferred]
    found = negotiate_locale(preferred, [lang.value for lang in Language], sep="-")
    return Language(found) if found else Language.EN


def environment_language() -> Language:
    """The language of the environment's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, the first set),
    English when it is none of ours: the default of the commands' ``--lang``."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return Language(code) if code in {lang.value for lang in Language} else Language.EN
    return Language.EN


@contextmanager
def speaking(lang: Language) -> Iterator[None]:
    """Write the pages of this block in ``lang``."""
    token = LANG.set(lang)
    try:
        yield
    finally:
        LANG.reset(token)


@functools.cache
def _script_msgids(code: str) -> tuple[str, ...]:
    """The messages a script asks for with ``_("…")`` (Babel's JavaScript extractor, as ``pybabel
    extract`` finds them)."""
    found = extract("javascript", io.BytesIO(code.encode("utf-8")), keywords={"_": None})
    return tuple(sorted({m if isinstance(m, str) else m[0] for _, m, _, _ in found}))


def script_messages(code: str, lang: Language) -> dict[str, str]:
    """The translations of the messages ``code`` (a page's script) uses, in ``lang``: what the page hands
    its script (English: none, the script shows its msgids)."""
    if lang is Language.EN:
        return {}
    t = translations(lang)
    return {m: t.gettext(m) for m in _script_msgids(code)}
