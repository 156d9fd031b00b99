"""``benchmarks/run.py --serve-only``: the serve figures in the results, and the run failing (exit status 1,
the figure named) when one is above its ceiling. The serve benchmark itself is replaced by figures given
here (its own run is tests/benchmarks/test_serve_quick.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _figures(enter_vs_static: float) -> dict[str, Any]:
    from benchmarks import serve as bench

    res: dict[str, Any] = {"static_ms": 1.0, "enter_deal_ms": 30.0, "archive_page_ms": 40.0,
                           "pulka_page_ms": 8.0, "http_static_ms": 2.0, "http_enter_deal_ms": 2.0 * enter_vs_static,
                           "http_enter_deal_vs_static": enter_vs_static, "enter_deal_vs_static": 30.0}
    res["passed"] = {k: res[k] < c for k, c in bench.CEILINGS.items()}
    res["passed"].update({k: res[k] <= c for k, c in bench.RATIO_CEILINGS.items()})
    return res


@pytest.mark.parametrize(("ratio", "fails"), [(4.9, False), (5.0, False), (5.1, True)])
def test_run_fails_when_a_serve_figure_is_above_its_ceiling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str], ratio: float,
                                                            fails: bool) -> None:
    sys.path.insert(0, str(ROOT))
    from benchmarks import run as bench_run
    from benchmarks import serve as bench

    monkeypatch.setattr(bench, "run", lambda *a, **k: _figures(ratio))
    out = tmp_path / "results.json"
    if fails:
        with pytest.raises(SystemExit) as info:
            bench_run.main(["--serve-only", "--out", str(out)])
        assert info.value.code == 1
        assert f"serve http_enter_deal_vs_static = {ratio} over its ceiling (5× static)" in capsys.readouterr().out
    else:
        bench_run.main(["--serve-only", "--out", str(out)])
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["sizes"] == {} and written["serve"]["http_enter_deal_vs_static"] == ratio
    assert written["serve_over"] == ([f"serve http_enter_deal_vs_static = {ratio} over its ceiling (5× static)"]
                                     if fails else [])
