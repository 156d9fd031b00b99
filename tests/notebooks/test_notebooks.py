"""Every notebook in notebooks/ runs top to bottom on the shipped data (python3 kernel of this venv),
its closing check cell prints the numbers asserted below, and the outputs stored in the notebook (so
that it reads on GitHub) are the ones the run produces (``python notebooks/refresh.py`` rewrites them).

Expected numbers: ``data/demo/generate.py`` writes 80 + 60 + 60 + 40 + 60 = 300 pulkas, six club
players; any seed examples in ``data/examples/`` add pulkas, so counts are read from the records
themselves (``[Id]``/pulka starts) rather than fixed. Zero-sum: every settlement pays out what it
takes in, so the per-player totals, and the differences under another convention, add up to 0.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.kernelspec import NoSuchKernel

from notebooks import refresh
from preflog.record import record_files
from preflog.record.api import read_file_records

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _kernel_ok() -> str:
    """The ``python3`` kernel must start this interpreter (the venv's), wherever the venv lives."""
    try:
        spec = KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:  # pragma: no cover - ipykernel missing would fail the import of the test deps
        pytest.fail("no python3 kernel: install the test extra (ipykernel)")
    exe = spec.argv[0]
    assert exe in ("python", "python3", sys.executable) or Path(exe).resolve() == Path(sys.executable).resolve(), (
        f"the python3 kernel runs {exe}, not this venv's {sys.executable}")
    return "python3"


def _run(path: Path) -> str:
    """Run the notebook; its outputs must be the stored ones, cell by cell. Returns its printed text."""
    nb = refresh.execute(path, kernel=_kernel_ok())
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, errors
    fresh, stored = refresh.comparable(nb), refresh.comparable(nbformat.read(path, as_version=4))
    assert len(fresh) == len(stored)
    for i, (got, kept) in enumerate(zip(fresh, stored, strict=True), 1):
        assert got == kept, f"{path.name}, code cell {i}: the stored outputs are stale (python notebooks/refresh.py)"
    return "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                     if o.get("output_type") == "stream")


def _shipped() -> tuple[int, int]:
    """(pulkas, 3-player Sochi pulkas) in data/, counted from the records."""
    recs = [r for f in record_files([ROOT / "data"]) for r in read_file_records(f)]
    sochi3 = sum(1 for r in recs if r.pulka.rules.split("+")[0] == "sochi" and len(r.pulka.players) == 3)
    return len(recs), sochi3


def test_there_are_three_notebooks():
    assert [p.name for p in NOTEBOOKS][:3] == ["01-players.ipynb", "02-contracts.ipynb", "03-variants.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_stored_outputs_read_on_github(path: Path) -> None:
    """Every code cell keeps its outputs (no error among them), numbered 1, 2, … in order; nothing that
    changes from run to run or machine to machine is stored (timings, kernel version, a path of the
    machine); the file stays small. (That they are a fresh run's outputs: the slow tests below.)"""
    text = path.read_text(encoding="utf-8")
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs for c in code), [c.source[:60] for c in code if not c.outputs]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1))
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    assert nb.metadata == refresh.METADATA
    assert not any("execution" in c.metadata for c in nb.cells)
    outputs = json.dumps([c.outputs for c in code])
    for fragment in ("/tmp/", "/home/", "/root/", "/work/", "/Users/", "\\\\Users", "preflog-nb-"):
        assert fragment not in outputs, fragment
    assert len(text) < 100_000


@pytest.mark.slow
def test_players_notebook():
    """The demo pulkas audit clean; six club players at least; every stored pulka is in the report;
    per-player totals add up to 0."""
    text = _run(ROOT / "notebooks" / "01-players.ipynb")
    pulkas, _ = _shipped()
    assert "demo_findings=0" in text
    assert f"pulkas={pulkas}" in text
    assert int(re.search(r"players=(\d+)", text).group(1)) >= 6
    assert "deals_played_sum_ok=True" in text
    assert float(re.search(r"total_visty_sum=([\d.]+)", text).group(1)) < 1e-6


@pytest.mark.slow
def test_contracts_notebook():
    """The contracts report's n and made equal the direct SQL counts of declared / made deals."""
    text = _run(ROOT / "notebooks" / "02-contracts.ipynb")
    m = re.search(r"declared=(\d+) direct=(\d+) made=(\d+) direct_made=(\d+)", text)
    assert m and m.group(1) == m.group(2) and m.group(3) == m.group(4) and int(m.group(1)) > 1000


@pytest.mark.slow
def test_variants_notebook():
    """Every 3-player Sochi pulka is re-scored; both alternatives are zero-sum."""
    text = _run(ROOT / "notebooks" / "03-variants.ipynb")
    _, sochi3 = _shipped()
    assert f"sochi_3p_pulkas={sochi3}" in text and sochi3 >= 80
    assert "zero_sum_leningrad=True base_sum=True" in text
    assert "zero_sum_rostov=True base_sum=True" in text
