"""Every HTML page preflog writes keeps a record's text as text (issue 31, D1 and D8).

The pages are parsed here with the standard library's HTML parser (the browser tests in tests/browser
open them in Chromium): no element or event-handler attribute comes from the record, the data a script
reads is JSON that holds no ``<`` at all (so neither ``</script>`` nor ``<!--`` can end or bend the
script element), and each page carries a Content-Security-Policy that lets no inline handler run.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from preflog.cli.app import app
from preflog.render.sheet_svg import render_html
from preflog.views.json import sheet_json
from preflog.views.viewer import viewer_html
from preflog.views.viewer import write_viewers
from preflog.workspace import Workspace

from .hostile import COMMENTS
from .hostile import END
from .hostile import ID
from .hostile import NAMES
from .hostile import ROOT
from .hostile import card_record
from .hostile import paper_record


class Page(HTMLParser):
    """A page as a browser's tokenizer sees its elements: tags with attributes, script texts, the rest."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.texts: dict[str, list[str]] = {}   # element name → the texts written directly in it
        self._open: list[str] = []
        self._script: tuple[dict[str, str | None], list[str]] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._script = (dict(attrs), [])
        elif tag not in ("meta", "br", "rect", "line", "circle"):
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script[0], "".join(self._script[1])))
            self._script = None
        elif tag in self._open:
            while self._open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script[1].append(data)
        elif self._open:
            self.texts.setdefault(self._open[-1], []).append(data)

    def policy(self) -> dict[str, list[str]]:
        """The page's Content-Security-Policy, directive → sources."""
        metas = [a for t, a in self.tags if t == "meta" and (a.get("http-equiv") or "").lower()
                 == "content-security-policy"]
        assert len(metas) == 1, "one Content-Security-Policy <meta> per page"
        content = metas[0].get("content") or ""
        return {d.split()[0]: d.split()[1:] for d in content.split(";") if d.strip()}


def sha256_source(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"


def check_page(text: str) -> Page:
    """What every page must hold, whatever record it shows."""
    page = Page(text)
    made = [(t, a) for t, a in page.tags if t in ("img", "iframe", "object", "embed", "base", "form")]
    assert made == [], f"elements made from record text: {made}"
    handlers = [(t, k) for t, a in page.tags for k in a if k.startswith("on")]
    assert handlers == [], f"inline event handlers: {handlers}"
    csp = page.policy()
    assert csp["default-src"] == ["'none'"]
    scripts = csp.get("script-src", [])
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts and "*" not in scripts
    for attrs, body in page.scripts:
        assert "src" not in attrs
        if attrs.get("type") == "application/json":
            assert "<" not in body and ">" not in body and "&" not in body
            assert "\u2028" not in body and "\u2029" not in body
        else:  # the page's own script, allowed by its hash alone
            assert sha256_source(body) in scripts
    return page


def data_of(page: Page) -> dict[str, Any]:
    (body,) = [b for a, b in page.scripts if a.get("type") == "application/json"]
    data: dict[str, Any] = json.loads(body)
    return data


@pytest.fixture()
def card_file(tmp_path: Path) -> Path:
    path = tmp_path / "card.pref"
    path.write_text(card_record(), encoding="utf-8")
    return path


@pytest.fixture()
def paper_file(tmp_path: Path) -> Path:
    path = tmp_path / "paper.pref"
    path.write_text(paper_record(), encoding="utf-8")
    return path


@pytest.mark.parametrize("which", ["card", "paper"])
def test_the_viewer_keeps_record_text_as_text(tmp_path: Path, which: str) -> None:
    """``{{data}}<img …>`` as the id once became an ``<img onerror>`` in the title, the heading and the
    sheet's SVG (the ``{{data}}`` replace ran after the ``{{title}}`` one); ``End: <!--<script>`` once
    left the viewer blank (the data script then ran on into the viewer's own)."""
    path = tmp_path / f"{which}.pref"
    path.write_text(card_record() if which == "card" else paper_record(), encoding="utf-8")
    (loaded,) = Workspace(tmp_path / "st").load(str(path))
    page = check_page(viewer_html(loaded))
    # the page's title first; the drawn sheet's own <title>s (e.g. where a pulya closed) never hold the id
    assert page.texts["title"][0] == f"preflog · {ID}" and page.texts["h1"] == [f"preflog · {ID}"]
    assert not any(ID in t for t in page.texts["title"][1:])
    assert any(ID in t for t in page.texts["text"]), "the sheet's footer names the pulka"
    data = data_of(page)
    assert data["id"] == ID and data["players"] == list(NAMES)
    steps = data["steps"]
    assert len(steps) == len(loaded.events)
    assert steps[0]["notes"][: len(COMMENTS)] == list(COMMENTS)
    assert steps[-1]["text"] == f"Pulka ended ({END})"
    assert steps[0]["text"].startswith("Pulka: " + ", ".join(NAMES) + " · ")


def test_the_analysis_page_keeps_record_text_as_text(card_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "analysis.html"
    res = CliRunner().invoke(app, ["analyze", str(card_file), "--html", str(out), "--store", str(tmp_path / "st")])
    assert res.exit_code == 0, res.output
    page = check_page(out.read_text(encoding="utf-8"))
    marks = [s["mark"] for s in data_of(page)["steps"] if "mark" in s]
    assert len(marks) == 1 and marks[0].startswith(f"{NAMES[0]}'s A♣ at trick 1 lost 1 trick")


def test_the_sheet_page_keeps_record_text_as_text(paper_file: Path) -> None:
    sheet = sheet_json(Workspace(paper_file.parent / "st").audit(str(paper_file))[0])
    page = check_page(render_html([sheet]))
    assert page.scripts == [] and "script-src" not in page.policy()  # no script runs at all
    assert page.texts["h1"] == [ID] and page.texts.get("h2", []) == []   # the one pulka: its id once
    assert [t for t in page.texts["td"] if t in NAMES] == list(NAMES)
    assert set(NAMES) <= set(page.texts["text"])  # the names on the drawn sheet


def test_the_report_and_its_viewer_pages_keep_record_text_as_text(card_file: Path, paper_file: Path,
                                                                  tmp_path: Path) -> None:
    paper_file.write_text(paper_record(ID + "2"), encoding="utf-8")
    store = tmp_path / "st"
    runner = CliRunner()
    for f in (card_file, paper_file):
        res = runner.invoke(app, ["import", str(f), "--store", str(store)])
        assert res.exit_code == 0, res.output
    out = tmp_path / "report.html"
    res = runner.invoke(app, ["report", "--html", str(out), "--pages", str(tmp_path / "pulkas"), "--store", str(store)])
    assert res.exit_code == 0, res.output
    page = check_page(out.read_text(encoding="utf-8"))
    # one script runs: the page's own table sorter, allowed by its hash (check_page), holding no record text
    assert len(page.scripts) == 1 and ID not in page.scripts[0][1] and NAMES[0] not in page.scripts[0][1]
    links = [a["href"] for t, a in page.tags if t == "a" and not (a.get("href") or "#").startswith("#")]
    assert sorted(page.texts["a"][-2:]) == sorted([ID, ID + "2"])
    assert set(NAMES) <= set(page.texts["td"]) and set(NAMES) <= set(page.texts["text"])
    assert len(links) == 2 and len(set(links)) == 2
    for href in links:
        assert href is not None and "/" in href and not href.startswith(("/", "javascript:"))
        viewer = check_page((tmp_path / href).read_text(encoding="utf-8"))
        assert data_of(viewer)["id"] in (ID, ID + "2")


def test_script_json_escapes_what_could_end_or_bend_a_script() -> None:
    from preflog.templates import script_json

    text = "</script><!--<script>&amp; \u2028\u2029 \"'"
    out = str(script_json({"t": text}))
    assert json.loads(out) == {"t": text}
    assert not set(out) & set("<>&\u2028\u2029")
    assert out == '{"t":"\\u003c/script\\u003e\\u003c!--\\u003cscript\\u003e\\u0026amp; \\u2028\\u2029 \\"\'"}'


# --- D8: one page per pulka, whatever its id ---------------------------------------------------------

CLASHING = ("a b", "a/b", "a_b", "A_B", "a__b", "..", "", "Пулька 1", "пулька 1")


def test_page_names_are_unique_and_stable() -> None:
    """``a b``, ``a/b`` and ``a_b`` all became ``a_b.html`` (and ``A_B`` meets it on a file system that
    ignores case): ``report --pages`` wrote one page for them all. A plain id keeps its own name."""
    from preflog.views.viewer import page_name

    names = [page_name(i) for i in CLASHING]
    assert len({n.lower() for n in names}) == len(CLASHING)
    assert names == [page_name(i) for i in CLASHING]  # the same name every time
    assert page_name("demo-sochi-3p-001") == "demo-sochi-3p-001.html"
    assert page_name("seed003-settlement") == "seed003-settlement.html"
    # another id: a readable stem, "--" (never in a plain name) and 16 hex digits of its SHA-256
    assert page_name("a b") == "a-b--" + hashlib.sha256(b"a b").hexdigest()[:16] + ".html"
    assert page_name("..") == "pulka--" + hashlib.sha256(b"..").hexdigest()[:16] + ".html"
    assert page_name("Пулька 1").startswith("пулька-1--")
    for name in names:
        assert re.fullmatch(r"[^\W_][\w.-]*\.html", name) and len(name.encode()) <= 160
    assert len(page_name("ы" * 500).encode()) <= 160


def test_report_pages_write_one_page_per_pulka(tmp_path: Path) -> None:
    seed = (ROOT / "data/examples/seed003-settlement.pref").read_text(encoding="utf-8")
    ids = ("a b", "a/b", "a_b")
    for k, pulka_id in enumerate(ids):
        (tmp_path / f"r{k}.pref").write_text(seed.replace('[Id "seed003-settlement"]', f'[Id "{pulka_id}"]'),
                                             encoding="utf-8")
    loaded = [ld for f in sorted(tmp_path.glob("r*.pref")) for ld in Workspace(tmp_path / "st").load(str(f))]
    links = write_viewers(loaded, tmp_path / "pulkas", tmp_path)
    assert [i for i, _ in links] == list(ids)
    assert len({href for _, href in links}) == 3 and len(list((tmp_path / "pulkas").iterdir())) == 3
    for pulka_id, href in links:
        assert data_of(Page((tmp_path / href).read_text(encoding="utf-8")))["id"] == pulka_id


def test_the_wheel_carries_every_template() -> None:
    """Each file of preflog/templates is package data (pyproject.toml), so a built wheel has it
    (tests/test_packaging.py builds one, slowly)."""
    import tomllib

    package = ROOT / "preflog"
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["preflog"]
    shipped = {p for pattern in patterns for p in package.glob(pattern)}
    files = [p for p in (package / "templates").iterdir() if p.is_file() and p.suffix != ".py"]
    assert {p.name for p in files} >= {"base.html", "viewer.html", "viewer.js", "report.html", "sheet.html"}
    assert set(files) <= shipped
