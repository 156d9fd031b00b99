"""Every committed generated file is what its code generates (``python -m preflog.generated`` rewrites them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from preflog import generated


def test_the_committed_files_are_what_the_code_generates() -> None:
    stale = [p.relative_to(generated.ROOT).as_posix() for p, _ in generated.stale()]
    assert stale == [], f"{', '.join(stale)}: run python -m preflog.generated"
    assert generated.main(["--check"]) == 0


def test_every_generated_file_is_checked(tmp_path: Path) -> None:
    # a folder without them: each is reported (a generator that gave "" would pass the test above idly)
    assert sorted(p.relative_to(tmp_path).as_posix() for p, _ in generated.stale(tmp_path)) == sorted(
        g.path for g in generated.FILES)
    assert {"docs/findings.md", "docs/rules-options.md", "preflog/engine/_tricks_layout.h",
            "schemas/events.v1.json", "preflog/model/outcome.py"} <= {g.path for g in generated.FILES}


def test_check_names_a_stale_file_and_writes_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    for g in generated.FILES:
        (tmp_path / g.path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / g.path).write_text(g.text((generated.ROOT / g.path).read_text(encoding="utf-8")), encoding="utf-8")
    (tmp_path / "docs" / "findings.md").write_text("# edited by hand\n", encoding="utf-8")
    monkeypatch.setattr(generated, "ROOT", tmp_path)
    assert generated.main(["--check"]) == 1
    assert capsys.readouterr().err.startswith("docs/findings.md: not what the code generates")
    assert (tmp_path / "docs" / "findings.md").read_text(encoding="utf-8") == "# edited by hand\n"
    assert generated.main([]) == 0 and generated.main(["--check"]) == 0
