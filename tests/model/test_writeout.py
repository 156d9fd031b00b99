"""The written-out ``__init__``/``__reduce__`` of the compiled kernel's dataclasses follow their fields
(:mod:`preflog.model.writeout`)."""

from __future__ import annotations

from pathlib import Path

import preflog
from preflog import _native
from preflog.model import writeout

ROOT = Path(preflog.__file__).parent


def _source(module: str) -> tuple[str, str]:
    path = ROOT.joinpath(*module.split(".")[1:]).with_suffix(".py")
    return str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def test_the_checked_in_blocks_are_what_the_generator_writes() -> None:
    for rel in writeout.FILES:
        text = (ROOT / rel).read_text(encoding="utf-8")
        assert writeout.BEGIN in text, rel
        assert writeout.generate(text) == text, f"{rel}: run python -m preflog.generated"


def test_every_dataclass_of_the_kernel_writes_its_fields_out_in_order() -> None:
    """Every dataclass of a compiled module with a written ``__init__`` takes its fields in order, and every
    ``__reduce__`` rebuilds from all of them: nothing is lost in a copy or a pickle."""
    found = []
    checked = 0
    for module in _native.MODULES:
        rel, text = _source(module)
        found += writeout.mismatches(text, rel)
        checked += text.count("@dataclass")
    assert not found, "\n".join(found)
    assert checked >= 8


def test_a_field_added_to_a_dataclass_alone_fails_the_check() -> None:
    """Add a field to ``DealOutcome`` (generated block) and to ``Sheet`` (a hand-written ``__init__`` that
    copies its lists) without touching their methods: the check names both."""
    rel, text = _source("preflog.model.outcome")
    field = "    stopped_early: bool = False     #"
    grown = text.replace(field, "    extra: int = 0\n" + field)
    assert grown != text
    assert writeout.mismatches(grown, rel) and writeout.generate(grown) != grown
    assert "extra: int = 0) -> None" not in grown and "extra: int = 0" in writeout.generate(grown)
    rel, text = _source("preflog.scoring.sheet")
    grown = text.replace("    visty: list[list[Number]]\n", "    visty: list[list[Number]]\n    marks: int\n")
    assert grown != text
    assert any("Sheet.__init__" in m for m in writeout.mismatches(grown, rel))
    assert any("Sheet.__reduce__" in m for m in writeout.mismatches(grown, rel))
