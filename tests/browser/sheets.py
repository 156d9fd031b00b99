"""The pulkas the browser tests draw: a short one, the longest ones of ``data/``, 60-deal random ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from preflog.record.api import write_text
from preflog.views.json import sheet_json
from preflog.workspace import Workspace

from ..randomplay import random_pulka

ROOT = Path(__file__).resolve().parents[2]

# name → (record file, pulka id); the ids are the longest pulkas of each demo file (deals in the comment).
CASES: dict[str, tuple[str, str]] = {
    "short": ("data/examples/seed003-settlement.pref", "seed003-settlement"),        # 12 deals, Cyrillic names
    "long-sochi-3p": ("data/demo/sochi-3p.pref", "demo-sochi-3p-001"),             # 35
    "long-leningrad-3p": ("data/demo/leningrad-3p.pref", "demo-leningrad-3p-057"),  # 37
    "four-players": ("data/demo/sochi-4p.pref", "demo-sochi-4p-038"),              # 46, the longest 4-player
    "croatian": ("data/demo/croatian-3p.pref", "demo-croatian-3p-013"),            # 47, the longest in data/
    "random-60-3p": ("", "sochi:3"),                                               # 60 random deals
    "random-60-4p": ("", "sochi:4"),
}



def record_file(name: str, tmp: Path) -> Path:
    """The record file of a case (the random ones written to ``tmp``)."""
    path, key = CASES[name]
    if path:
        return ROOT / path
    spec, n = key.split(":")
    players = ("Anna", "Boris", "Vera", "Gleb")[: int(n)]
    out = tmp / f"{name}.pref"
    out.write_text(write_text(random_pulka(spec, players, 60, seed=60 + int(n))), encoding="utf-8")
    return out


def sheet_of(name: str, tmp: Path) -> dict[str, Any]:
    """The ``sheet --json`` entry of a case's pulka."""
    path, key = CASES[name]
    audited = Workspace(tmp / "store").audit(str(record_file(name, tmp)))
    if path:
        audited = [a for a in audited if a.loaded.id == key]
    assert len(audited) == 1
    return sheet_json(audited[0])
