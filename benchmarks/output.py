"""How the benchmark scripts hand over their results: indented JSON to ``--out``, else to stdout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def emit(result: dict[str, Any], out: str | None) -> None:
    """Write ``result`` as JSON to the file ``out``, or print it when no file is given."""
    text = json.dumps(result, indent=2)
    if out:
        Path(out).write_text(text + "\n")
    else:
        print(text)
