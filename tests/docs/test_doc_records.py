"""Every record the documentation shows reads with the real reader: a reader who copies an example from
docs/*.md into a file is never refused.

Three kinds of example are found on every page:

* fenced record blocks: a ```` ```text ````, ```` ```pref ```` or unlabelled block whose first line (after
  comments) is a tag pair ``[Name "value"]``, a ```` ```json ```` block of the ``preflog-record`` format,
  and the record a shell transcript prints with ``$ cat FILE.pref``;
* tag pairs quoted inline (`` `[Option "raspasy_exit_level=7"]` ``), read inside a one-line pulka; a
  ``Rules`` or ``Option`` tag must also resolve (the audit's ``bad_rules``), except the placeholders
  ``[Name "value"]`` and ``name=value`` that describe the syntax.

The house-rules pages promise that their worked deals audit clean: there every record with
``Score:`` lines is audited too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from preflog.engine.replay import audit
from preflog.record.api import read_json_records
from preflog.record.api import read_records
from preflog.record.api import read_text

DOCS = Path(__file__).resolve().parents[2] / "docs"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
CAT = re.compile(r"^\$ cat \S+\.pref\n(.*?)(?=^\$ |\Z)", re.S | re.M)
INLINE_TAG = re.compile(r'`(\[(\w+) "((?:[^"\\`]|\\.)*)"\])`')
PLACEHOLDERS = ('[Name "value"]', '[Option "name=value"]')


def _first_line(body: str) -> str:
    for line in body.splitlines():
        if line.strip() and not line.lstrip().startswith(";"):
            return line.strip()
    return ""


def _blocks() -> list[tuple[str, str, str]]:
    """(``page:line``, kind ``text``/``json``, record) of every fenced record block of docs/*.md."""
    out: list[tuple[str, str, str]] = []
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            lang, body = m.group(1), m.group(2)
            where = f"{page.name}:{text[:m.start()].count(chr(10)) + 2}"
            if lang == "json" and '"preflog-record"' in body:
                out.append((where, "json", body))
            elif lang == "sh":
                out.extend((where, "text", c.group(1)) for c in CAT.finditer(body))
            elif lang in ("text", "pref", "") and re.match(r'\[\w+ "', _first_line(body)):
                out.append((where, "text", body))
    return out


def _inline_tags() -> list[tuple[str, str, str]]:
    """(``page:line``, tag name, the tag as written) of every tag pair quoted inline in docs/*.md."""
    out: list[tuple[str, str, str]] = []
    for page in sorted(DOCS.glob("*.md")):
        text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), page.read_text(encoding="utf-8"))
        for m in INLINE_TAG.finditer(text):
            out.append((f"{page.name}:{text[:m.start()].count(chr(10)) + 1}", m.group(2), m.group(1)))
    return out


BLOCKS = _blocks()
TAGS = _inline_tags()


def test_the_pages_show_records() -> None:
    """The search finds the records it is meant to: the house-rules worked deals, the format's
    examples (text and JSON), the settle transcript's totals, the liability page's deals."""
    pages = {where.split(":")[0] for where, _kind, _body in BLOCKS}
    assert {"house-rules.md", "house-rules-liability.md", "record-format.md", "cli.md"} <= pages
    assert any(kind == "json" for _where, kind, _body in BLOCKS)
    assert len(BLOCKS) >= 20 and len(TAGS) >= 8


@pytest.mark.parametrize(("where", "kind", "body"), BLOCKS, ids=[b[0] for b in BLOCKS])
def test_every_record_block_reads(where: str, kind: str, body: str) -> None:
    records = read_json_records(body, where) if kind == "json" else read_records(body, where)
    assert records, f"{where}: no pulka read"
    if where.startswith("house-rules") and "Score:" in body:
        for rec in records:
            result = audit(rec.events)
            assert result.ok, [(where, f.code, f.deal, f.message) for f in result.findings]


@pytest.mark.parametrize(("where", "name", "tag"), TAGS, ids=[t[0] for t in TAGS])
def test_every_inline_tag_reads(where: str, name: str, tag: str) -> None:
    text = tag if name.lower() == "players" else f'[Players "Anna, Boris, Vera"]\n{tag}\n'
    events = read_text(text, where)
    if name.lower() in ("rules", "option") and tag not in PLACEHOLDERS:
        assert "bad_rules" not in audit(events).codes(), f"{where}: {tag} does not resolve"


def test_an_unescaped_quote_in_a_tag_is_what_the_reader_refuses() -> None:
    """The example this test was written for: a quoted fraction inside an Option tag must be escaped."""
    from preflog.record.errors import RecordError

    with pytest.raises(RecordError, match="is not a tag pair"):
        read_text('[Players "A, B, C"]\n[Option "half_whist_tricks=[[6,2],[7,"3/2"]]"]\n')
    events = read_text('[Players "A, B, C"]\n[Option "half_whist_tricks=[[6,2],[7,\\"3/2\\"]]"]\n')
    assert audit(events).ok
