"""Run the notebooks and store their outputs, so that they read on GitHub with tables and charts.

    python notebooks/refresh.py            # rewrite every notebook in notebooks/ with fresh outputs
    python notebooks/refresh.py --check    # exit 1 if a stored output differs from a fresh run

The stored form is deterministic: no execution timestamps, no kernel version, execution counts 1, 2, …
in cell order, and the notebooks print no path of the machine they ran on (the store is a temporary
folder they never show). ``tests/notebooks/test_notebooks.py`` runs each notebook and compares its
outputs with the stored ones (:func:`comparable`), so a change of data or code that changes a figure
fails until this script is run again and the new outputs are committed with it.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
METADATA = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"}}


def notebooks() -> list[Path]:
    return sorted(HERE.glob("*.ipynb"))


def execute(path: Path, kernel: str = "python3") -> Any:
    """The notebook at ``path`` run top to bottom in its folder, in the stored form (:func:`normalise`)."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    NotebookClient(nb, kernel_name=kernel, timeout=120, startup_timeout=60, record_timing=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return normalise(nb)


def normalise(nb: Any) -> Any:
    """``nb`` without what changes from run to run or machine to machine: the notebook's metadata is
    the fixed :data:`METADATA`, cells carry no execution metadata, counts are 1, 2, … in order."""
    nb = copy.deepcopy(nb)
    nb.metadata = copy.deepcopy(METADATA)
    count = 0
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        count += 1
        cell.execution_count = count
        for out in cell.outputs:
            if "execution_count" in out:
                out.execution_count = count
            out.get("metadata", {}).pop("execution", None)
    return nb


def comparable(nb: Any) -> list[list[dict[str, Any]]]:
    """Each code cell's outputs as plain data (what a fresh run must reproduce)."""
    return [[dict(copy.deepcopy(o)) for o in c.outputs] for c in normalise(nb).cells if c.cell_type == "code"]


def main(argv: list[str]) -> int:
    import nbformat

    check = "--check" in argv
    stale = []
    for path in notebooks():
        fresh = execute(path)
        if check:
            if comparable(fresh) != comparable(nbformat.read(path, as_version=4)):
                stale.append(path.name)
        else:
            nbformat.write(fresh, path)
            print(f"wrote {path.relative_to(HERE.parent)}")
    if stale:
        print("stored outputs differ from a fresh run: " + ", ".join(stale) + " (python notebooks/refresh.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
