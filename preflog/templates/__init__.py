"""The HTML pages preflog writes, by construction: one Jinja2 environment with autoescaping.

Every page (the deal viewer of ``replay``/``analyze --html`` and ``report --pages``, the report of
``report --html``, the sheet of ``sheet --html``) is a template of this folder rendered by :func:`page`.
Text goes in autoescaped; the only values marked safe are drawings whose text was escaped when they were
drawn (the sheet and chart SVGs) and the page's own script. Data for a script goes in only as JSON in a
``<script type="application/json">`` (:func:`script_json`: ``<``, ``>``, ``&``, U+2028 and U+2029 written
as ``\\uXXXX``), read with ``JSON.parse``. Each page carries a Content-Security-Policy ``<meta>``
(:func:`policy`): nothing is loaded (``default-src 'none'``), no inline event handler runs, and the one
script that may run is the page's own, allowed by its SHA-256 computed when the page is rendered.

Every word a page shows comes from a message catalog (:mod:`.i18n`): the page is written in the language
of :data:`LANG`, its template translating with ``_()``, and a page with a script hands the script the
translations of the messages it uses (``<script type="application/json" id="messages">``, read by the
``_()`` of ``i18n.js``, which comes first in every page's script).

Imports nothing from preflog: views, reports and render all use it.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from contextvars import ContextVar
from typing import Any

from babel import Locale
from jinja2 import Environment
from jinja2 import PackageLoader
from jinja2 import StrictUndefined
from jinja2.ext import i18n as _i18n_extension
from markupsafe import Markup

from .i18n import HERE
from .i18n import LANG
from .i18n import Language
from .i18n import script_messages
from .i18n import translations

__all__ = ["LANG", "ROOT", "Language", "Markup", "counted", "environment", "page", "policy", "script_hash",
           "script_json", "source"]

# The characters that could end or reinterpret a <script> element's text (``</script>``, ``<!--``), or
# break a script that reads the JSON as JavaScript source: written as JSON escapes, never raw.
_SCRIPT_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
                   0x2028: "\\u2028", 0x2029: "\\u2029"}


def script_json(data: Any) -> Markup:
    """``data`` as JSON text that is safe inside ``<script type="application/json">``: the characters
    ``<``, ``>``, ``&``, U+2028 and U+2029 appear only inside JSON strings, and there as ``\\uXXXX``
    escapes, which ``JSON.parse`` reads back to the same text."""
    return Markup(json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_ESCAPES))


def script_hash(script: str) -> str:
    """The CSP source that allows exactly this inline script text: ``'sha256-…'``."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def policy(*scripts: str, same_origin: bool = False) -> str:
    """The page's Content-Security-Policy: nothing loaded from anywhere, styles inline (the pages' own
    ``<style>`` and SVG ``style`` attributes), and scripts only the given inline ones, by hash (none: no
    script runs at all). Without ``'unsafe-inline'`` for scripts no inline event handler runs.
    ``same_origin``: the page may also talk to the server that served it, and to nothing else: its script
    fetch from it (``connect-src 'self'``), its forms submit to it (``form-action 'self'``) and its web app
    manifest and icons come from it (``manifest-src 'self'``, ``img-src 'self'``): the pages of ``preflog
    serve``."""
    form = "form-action 'self'" if same_origin else "form-action 'none'"
    parts = ["default-src 'none'", "style-src 'unsafe-inline'", "base-uri 'none'", form]
    if same_origin:
        parts.insert(1, "connect-src 'self'")
        parts.insert(2, "manifest-src 'self'")
        parts.insert(3, "img-src 'self'")
    if scripts:
        parts.insert(1, "script-src " + " ".join(script_hash(s) for s in scripts))
    return "; ".join(parts)


def counted(n: int, one: str, other: str, lang: str = "en") -> str:
    """``n`` and its noun in the form the language's plural rule (CLDR's, through Babel) asks for:
    ``counted(1, "pulka", "pulkas")`` → ``1 pulka``, ``counted(2, …)`` → ``2 pulkas``. A language with more
    forms than two (Russian's one / few / many) writes ``other`` for every form but ``one`` here: the
    pages' words are in the gettext catalogs (``ngettext``), which hold each language's forms."""
    return f"{n} {one if Locale.parse(lang).plural_form(abs(n)) == 'one' else other}"


def _environment() -> Environment:
    """The pages' environment: the templates of this folder, autoescaped, Jinja2's i18n extension."""
    env = Environment(loader=PackageLoader("preflog", "templates"), autoescape=True, undefined=StrictUndefined,
                      keep_trailing_newline=True, extensions=[_i18n_extension])
    env.filters["script_json"] = script_json
    env.globals["languages"] = list(Language)
    env.globals["counted"] = counted
    return env


ENV = _environment()


@functools.cache
def environment(lang: Language) -> Environment:
    """The environment that writes pages in ``lang``: its ``_()``, ``ngettext()`` and ``{% trans %}`` read
    that catalog (one environment a language: the extension installs its functions as the environment's
    globals)."""
    env = _environment()
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


def source(name: str) -> str:
    """The text of a static file of this folder (a page's script), as the page embeds it."""
    loader = ENV.loader
    assert loader is not None
    text, _, _ = loader.get_source(ENV, name)
    return text


ROOT: ContextVar[str] = ContextVar("preflog_root", default="")
"""The path the pages are served under (``preflog serve --root-path``, set per request by
:class:`preflog.serve.proxy.RootPath`): every page has it as ``root``, written before its own links."""


def page(name: str, *, script: str | tuple[str, ...] | None = None, same_origin: bool = False,
         **context: Any) -> str:
    """Render the page template ``name`` with ``context`` (autoescaped). ``script``: the name of the
    page's own script in this folder (or several, joined into one script in their order), embedded as it
    is and allowed by the page's policy by its hash.
    ``same_origin``: the page may fetch from and submit forms to its own origin (:func:`policy`)."""
    lang = LANG.get()
    names = ("i18n.js", script) if isinstance(script, str) else ("i18n.js", *script) if script else ()
    code = "\n".join(source(s) for s in names) if names else None
    csp = policy(code, same_origin=same_origin) if code is not None else policy(same_origin=same_origin)
    messages = script_messages(code, lang) if code is not None else {}
    return environment(lang).get_template(name).render(
        csp=csp, script=Markup(code) if code is not None else None, messages=messages,
        **{"root": ROOT.get(), "lang": lang.value, "here": HERE.get(), **context})
