"""The Sochi example of docs/record-format.md is not only readable but legal: it audits clean."""

from preflog.engine.replay import audit
from preflog.record.api import read_text


def test_sochi_doc_example_audits_clean(sochi_text: str) -> None:
    res = audit(read_text(sochi_text, "docs/record-format.md"))
    assert res.ok, [(f.code, f.deal, f.message) for f in res.findings]
    assert len(res.deals) == 4


def test_readme_example_audits_clean() -> None:
    """The README's record example reads and audits clean (7♠ made by Anna, 6♥ by Boris, raspasy)."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```text\n(.*?)```", readme, re.S)
    res = audit(read_text(block, "README.md"))
    assert res.ok, [(f.code, f.deal, f.message) for f in res.findings]
    assert res.sheet is not None
    assert res.sheet.pulya == [4, 2, 0] and res.sheet.gora == [4, 2, 4]


def test_croatian_doc_example_audits_clean(croatian_text: str) -> None:
    """Seed 000 example 4 style: after B's igra, A (who bid 2) is out; C's lone contra invites A."""
    res = audit(read_text(croatian_text, "docs/record-format.md"))
    assert res.ok, [(f.code, f.deal, f.message) for f in res.findings]
