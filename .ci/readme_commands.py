"""Print the README's two commands, one a line: the first line of its first and second ```sh blocks
(set up + run the main job; run the tests). .ci/run runs them exactly as written."""

from __future__ import annotations

import sys
from pathlib import Path


def commands(text: str) -> list[str]:
    blocks: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            inside = not inside and line.strip() == "```sh"
            if inside:
                blocks.append([])
            continue
        if inside and line.strip():
            blocks[-1].append(line.strip())
    if len(blocks) < 2:
        raise SystemExit("README: expected two ```sh blocks (set up + run; the tests)")
    # a trailing comment is the README's explanation, not part of the command
    return [blocks[0][0], blocks[1][0]]


if __name__ == "__main__":
    print("\n".join(commands(Path(sys.argv[1]).read_text(encoding="utf-8"))))
