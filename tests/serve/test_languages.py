"""Every page in the players' own language: the catalogs are complete and current, the served pages follow
Accept-Language, the switch and its cookie, the written pages ``--lang``, and no English msgid of the
catalogs reaches a page rendered in Russian, Croatian or Slovenian.

What "visible" means here: the text nodes of the page and its ``title``/``aria-label``/``placeholder``
attributes, outside ``<script>`` and ``<style>``, outside record text (``<pre>``, ``<code>``: the record
format's own keywords), outside key caps (``<kbd>End</kbd>``) and outside the drawn paper sheet and its
totals table (``data-words="sheet"``) and the last entry's record text (``data-words="record"``):
their words are the game's, :mod:`preflog.render.words` (English books' or Russian ones); the report's
charts are checked. The scripts' words are checked as the page
hands them over: every message a page's script asks for is in its ``messages`` block, translated.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from preflog.render.sheet_svg import render_html
from preflog.render.words import sheet_lang
from preflog.reports import html as report_html
from preflog.serve import create_app
from preflog.templates import page
from preflog.templates.i18n import LOCALE_DIR
from preflog.templates.i18n import Language
from preflog.templates.i18n import negotiate
from preflog.templates.i18n import speaking
from preflog.templates.i18n import translations
from preflog.views.json import sheet_json
from preflog.views.viewer import viewer_html
from preflog.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "data" / "examples" / "seed003-settlement.pref"
CROATIAN = ROOT / "data" / "examples" / "seed000-sample-sheet-cards.pref"
FOREIGN = (Language.RU, Language.HR, Language.SL)


def _catalog(lang: str) -> list[object]:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po", "rb") as fp:
        return list(read_po(fp, locale=lang))


def _pot(path: Path) -> set[object]:
    with open(path, "rb") as fp:
        return {m.id for m in read_po(fp) if m.id}


# --- the catalogs -------------------------------------------------------------------------------------
def test_the_template_is_what_extraction_finds_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pybabel extract -F babel.cfg`` over the sources gives the committed messages.pot's msgids: a
    word added to a template, a script or an N_() of Python without updating the catalogs fails here."""
    monkeypatch.chdir(ROOT)
    out = tmp_path / "messages.pot"
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", "babel.cfg", "-o", str(out), "--no-location",
                                "--sort-output", "."])
    assert _pot(out) == _pot(LOCALE_DIR / "messages.pot")


@pytest.mark.parametrize("lang", [lang.value for lang in FOREIGN])
def test_every_message_is_translated_in_every_catalog(lang: str) -> None:
    """Every msgid of the template is in the catalog, translated (every plural form), none fuzzy, none
    left over; its placeholders are the msgid's; the compiled .mo says what the .po says."""
    entries = [m for m in _catalog(lang) if m.id]
    assert {m.id for m in entries} == _pot(LOCALE_DIR / "messages.pot")
    compiled = translations(Language(lang))
    for m in entries:
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(forms) and not m.fuzzy, m.id
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        wanted = set(re.findall(r"%\(\w+\)s", ids[0]))
        assert all(set(re.findall(r"%\(\w+\)s", f)) == wanted for f in forms), m.id
        if isinstance(m.id, tuple):
            assert compiled.ngettext(m.id[0], m.id[1], 5) in forms
        else:
            assert compiled.gettext(m.id) == m.string


def _english(lang: Language) -> list[tuple[str, re.Pattern[str]]]:
    """The catalog's English msgids whose translation in ``lang`` differs, each as a pattern of visible
    text (a placeholder stands for any text; whole words only)."""
    out = []
    for m in _catalog(lang.value):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for msgid in ids:
            if msgid in forms:
                continue
            body = re.sub(r"%\\\(\w+\\\)s", ".+?", re.escape(msgid))
            out.append((msgid, re.compile(r"(?<!\w)" + body + r"(?!\w)")))
    return out


class _Visible(HTMLParser):
    """The visible texts of a page (see the module's docstring)."""

    SKIP = {"script", "style", "pre", "code", "kbd"}

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.scripts: dict[str, str] = {}
        self.stack: list[str] = []
        self.svg_depth = 0
        self.sheet = 0
        self.script_id = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag in ("svg", "table", "p"):
            self.svg_depth += 1
            words = a.get("data-words") in ("sheet", "record")
            sheet = "chart" not in (a.get("class") or "") if tag == "svg" else words
            if sheet and not self.sheet:
                self.sheet = self.svg_depth
        if tag == "script":
            self.script_id = a.get("id") or ""
        if tag not in ("br", "meta", "link", "input", "img", "rect", "line", "path", "circle", "polyline"):
            self.stack.append(tag)
        if not self.hidden():
            self.texts += [v for k, v in attrs if k in ("title", "aria-label", "placeholder") and v]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.hidden():
            self.texts += [v for k, v in attrs if k in ("title", "aria-label", "placeholder") and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("svg", "table", "p"):
            if self.sheet == self.svg_depth:
                self.sheet = 0
            self.svg_depth -= 1
        while self.stack:
            if self.stack.pop() == tag:
                break

    def hidden(self) -> bool:
        return bool(self.sheet) or any(t in self.SKIP for t in self.stack)

    def handle_data(self, data: str) -> None:
        if self.stack and self.stack[-1] == "script" and self.script_id:
            self.scripts[self.script_id] = data
        elif not self.hidden() and data.strip():
            self.texts.append(data.strip())


def _untranslated(text: str, lang: Language) -> list[tuple[str, str]]:
    """(msgid, visible text) of every English msgid that shows on the page ``text`` written in ``lang``,
    and of every message its scripts ask for that the page does not hand them translated."""
    seen = _Visible()
    seen.feed(text)
    found = [(msgid, t) for t in seen.texts for msgid, pattern in _english(lang) if pattern.search(t)]
    if "<script>" in text:
        script = text.rsplit("<script>", 1)[1].split("</script>", 1)[0]
        handed = json.loads(seen.scripts.get("messages", "{}"))
        import io

        from babel.messages.extract import extract

        asked = {m for _, m, _, _ in extract("javascript", io.BytesIO(script.encode()), keywords={"_": None})}
        t = translations(lang)
        found += [(m, "script") for m in asked if handed.get(m) != t.gettext(m)]
    return found


# --- the served pages -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("archive")
    Workspace(root).import_paths([SEED, CROATIAN])
    return root


@pytest.mark.parametrize("lang", FOREIGN, ids=[lang.value for lang in FOREIGN])
def test_no_english_msgid_reaches_a_served_page(archive: Path, lang: Language) -> None:
    c = TestClient(create_app(archive))
    heard = {"Accept-Language": f"{lang.value}-XX,{lang.value};q=0.9,en;q=0.5"}
    listing = c.get("/", headers=heard)
    pids = sorted(set(re.findall(r'href="/pulka/([^"?/]+)"', listing.text)))
    assert len(pids) == 2, pids
    paths = ["/", "/new", "/stats", *[f"/pulka/{p}{s}" for p in pids for s in ("", "/viewer")]]
    for path in paths:
        r = c.get(path, headers=heard)
        assert r.status_code == 200, path
        assert f'<html lang="{lang.value}">' in r.text, path
        assert _untranslated(r.text, lang) == [], path


@pytest.mark.parametrize("lang", FOREIGN, ids=[lang.value for lang in FOREIGN])
def test_no_english_msgid_reaches_the_join_page(tmp_path: Path, lang: Language) -> None:
    c = TestClient(create_app(tmp_path / "store", table_token="secret", pin=True), base_url="http://phone.example")
    r = c.get("/?token=wrong", headers={"Accept-Language": lang.value})
    assert r.status_code == 401 and _untranslated(r.text, lang) == []
    assert translations(lang).gettext("that is not the table's PIN or token") in r.text


# --- the written pages ------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", FOREIGN, ids=[lang.value for lang in FOREIGN])
def test_no_english_msgid_reaches_a_written_page(archive: Path, lang: Language) -> None:
    ws = Workspace(archive)
    audited = ws.audit(None)
    with speaking(lang):
        pages = {"sheet": render_html([sheet_json(a) for a in audited], sheet_lang(lang)),
                 **{f"viewer {a.loaded.id}": viewer_html(a.loaded) for a in audited}}
        con = ws.connect(sandbox=True)
        try:
            pages["report"] = report_html.render(con, title="preflog")
        finally:
            con.close()
    for name, text in pages.items():
        assert f'<html lang="{lang.value}">' in text, name
        assert _untranslated(text, lang) == [], name


def test_an_english_msgid_on_a_page_is_found() -> None:
    """The check itself: a Russian page that shows an English msgid of the catalog is caught."""
    with speaking(Language.RU):
        text = page("serve_join.html", same_origin=True, title="x", path="/", pin=True, message="")
    assert _untranslated(text, Language.RU) == []
    found = _untranslated(text.replace("</h1>", " Start a pulka</h1>"), Language.RU)
    assert ("Start a pulka", "За стол Start a pulka") in found and ("Start", "За стол Start a pulka") in found


# --- the choice of the language ----------------------------------------------------------------------------
def test_accept_language_chooses_among_the_catalogs() -> None:
    assert negotiate("ru-RU,ru;q=0.9,en-US;q=0.8") is Language.RU
    assert negotiate("de-DE,de;q=0.9,hr;q=0.7,en;q=0.3") is Language.HR
    assert negotiate("en;q=0.2, sl-SI") is Language.SL
    assert negotiate("fr, de") is Language.EN and negotiate("") is Language.EN
    assert negotiate("ru;q=0, hr") is Language.HR


def test_the_switch_is_remembered_in_a_cookie_over_the_browsers_language(archive: Path) -> None:
    c = TestClient(create_app(archive))
    ru = {"Accept-Language": "ru"}
    assert "Пульки" in c.get("/", headers=ru).text
    r = c.get("/?player=%D0%97%D0%B0%D0%BF%D0%B0%D0%B4&lang=hr", headers=ru, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/?player=%D0%97%D0%B0%D0%BF%D0%B0%D0%B4"
    assert "preflog_lang=hr" in r.headers["set-cookie"] and "Max-Age=31536000" in r.headers["set-cookie"]
    page_hr = c.get("/", headers=ru).text   # the cookie now wins over Accept-Language
    assert '<html lang="hr">' in page_hr and "Partije" in page_hr
    # every language is offered on every page, the current one marked; a language we have not is no choice
    assert all(f'hreflang="{lang.value}"' in page_hr for lang in Language)
    assert re.search(r'hreflang="hr" lang="hr" aria-current="true">Hrvatski<', page_hr)
    r = c.get("/?lang=xx", follow_redirects=False)
    assert r.status_code == 303 and "set-cookie" not in r.headers
    assert '<html lang="hr">' in c.get("/").text


def test_the_pulkas_sheet_and_words_follow_the_language(archive: Path) -> None:
    """A Russian page draws the Russian sheet (пуля, гора) and names the deal everybody passed as a
    Russian sheet does; an English one the English books' words."""
    c = TestClient(create_app(archive))
    ru = c.get("/api/pulka/seed003-settlement", headers={"Accept-Language": "ru"}).json()
    en = c.get("/api/pulka/seed003-settlement", headers={"Accept-Language": "en"}).json()
    assert ru["terms"]["all_pass"] == "Распасы" and en["terms"]["all_pass"] == "Raspasy"
    assert "гора" in ru["svg"] and "гора" not in en["svg"]
    assert ru["settlement"] == en["settlement"]
    text = c.get("/pulka/seed003-settlement", headers={"Accept-Language": "ru"}).text
    assert "<th>Точно (висты)</th>" in text and "<th>Способ 1</th>" in text
