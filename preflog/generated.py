"""Every file of the checkout generated from the code, and the one command that writes them::

    python -m preflog.generated           # rewrite each generated file that is not what its code gives
    python -m preflog.generated --check   # write nothing; exit 1 naming each such file

The files (:data:`FILES`), each with the code it comes from:

* ``docs/findings.md``: the finding codes' reference (:func:`preflog.engine.codes.findings_doc`);
* ``docs/rules-options.md``: the rules options and presets (:func:`preflog.rules.docs.options_markdown`);
* ``preflog/engine/_tricks_layout.h``: the card loop's bit layout for the C loop
  (:func:`preflog.engine.cardloop_layout.header_text`);
* ``schemas/events.v0.json``, ``schemas/events.v1.json``: the event table's schemas
  (:func:`preflog.store.schema.schema_json`);
* the written-out ``__init__``/``__reduce__`` blocks of the kernel's value classes in the files of
  :data:`preflog.model.writeout.FILES` (``model/outcome.py``, ``scoring/sheet.py``;
  :func:`preflog.model.writeout.generate`: the rest of those files is hand-written).

Not here on purpose: ``preflog/rules/tables/v<n>.json``, the frozen rules tables of each published rules
version. They are written once per version (``python -m preflog.rules.versions N``) and never again:
regenerating the current one would hide a change that needs a new version (tests/rules/test_versions.py).

tests/test_generated.py fails when a committed file is not what this module generates. The files sit in
a checkout (an installed package has no ``docs/``): run it from one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .model.writeout import FILES as WRITTEN_OUT

ROOT = Path(__file__).resolve().parent.parent
"""The checkout the generated files belong to."""


@dataclass(frozen=True)
class Generated:
    """One generated file: its path in the checkout and its text from the current one (most ignore it;
    a file of which only marked blocks are generated needs it: ``whole`` False)."""

    path: str
    text: Callable[[str], str]
    whole: bool = True


def _findings(_old: str) -> str:
    from .engine.codes import findings_doc

    return findings_doc()


def _rules_options(_old: str) -> str:
    from .rules.docs import options_markdown

    return options_markdown()


def _layout_header(_old: str) -> str:
    from .engine.cardloop_layout import header_text

    return header_text()


def _events_schema(version: int) -> Callable[[str], str]:
    def text(_old: str) -> str:
        from .store.schema import schema_json

        return json.dumps(schema_json(version), indent=2) + "\n"
    return text


def _written_out(old: str) -> str:
    from .model.writeout import generate

    return generate(old)


FILES: tuple[Generated, ...] = (
    Generated("docs/findings.md", _findings),
    Generated("docs/rules-options.md", _rules_options),
    Generated("preflog/engine/_tricks_layout.h", _layout_header),
    Generated("schemas/events.v0.json", _events_schema(0)),
    Generated("schemas/events.v1.json", _events_schema(1)),
    *(Generated(f"preflog/{rel}", _written_out, whole=False) for rel in WRITTEN_OUT),
)
"""Every generated file (see the module doc)."""


def stale(root: Path | None = None) -> list[tuple[Path, str | None]]:
    """Each generated file under ``root`` (default :data:`ROOT`) that is not what its code gives, with the
    text it should have; a missing file too (None: a file of which only blocks are generated cannot be
    written from nothing)."""
    out: list[tuple[Path, str | None]] = []
    for g in FILES:
        path = (ROOT if root is None else root) / g.path
        if not path.is_file():
            out.append((path, g.text("") if g.whole else None))
            continue
        old = path.read_text(encoding="utf-8")
        new = g.text(old)
        if new != old:
            out.append((path, new))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m preflog.generated",
                                     description="Rewrite every file generated from the code (or --check them).")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 naming each stale file")
    args = parser.parse_args(argv)
    if not (ROOT / "docs").is_dir():
        print(f"preflog.generated: {ROOT} is not a checkout (no docs/): nothing to generate", file=sys.stderr)
        return 2
    todo = stale()
    for path, text in todo:
        rel = path.relative_to(ROOT).as_posix()
        if text is None:
            print(f"{rel}: missing (its hand-written part cannot be generated)", file=sys.stderr)
        elif args.check:
            print(f"{rel}: not what the code generates (run python -m preflog.generated)", file=sys.stderr)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {rel}", file=sys.stderr)
    return 1 if (args.check and todo) or any(text is None for _, text in todo) else 0


if __name__ == "__main__":
    raise SystemExit(main())
