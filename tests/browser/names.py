"""Pulkas with long, real names for the picture tests: a 3- and a 4-player Russian pulka, a Croatian and a
Slovenian one, each seated by people whose names run up to 40 characters, Cyrillic and Latin.

The Russian and Croatian ones are the shipped demo pulkas with their ``[Players]`` line rewritten (seats
are letters in the record, so nothing else changes); the Slovenian one is a random legal pulka."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from preflog.record.api import write_text
from preflog.views.json import sheet_json
from preflog.workspace import Audited
from preflog.workspace import Workspace

from ..randomplay import random_pulka

ROOT = Path(__file__).resolve().parents[2]

RUSSIAN_3 = ("Александр Петров", "Мария Иванова-Кузнецова", "Maximilian von Hohenberg-Schwarzenau")
RUSSIAN_4 = ("Константин Константинопольский-Зарецкий", "Мария Иванова-Кузнецова",  # 40 characters
             "Maximilian von Hohenberg-Schwarzenau", "Александр Петров")
CROATIAN = ("Krešimir Horvat-Babić", "Ivana Kovačević-Marković", "Zvonimir Šimunović Petrinjski")
SLOVENIAN = ("Janez Novak-Zupančič", "Špela Kovač Vidmar", "Aleksander Krajnc-Potočnik")

# case → (record file or "", pulka id or rules spec for a random pulka, players)
LONG: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "russian-3p": ("data/demo/sochi-3p.pref", "demo-sochi-3p-001", RUSSIAN_3),
    "russian-4p": ("data/demo/sochi-4p.pref", "demo-sochi-4p-038", RUSSIAN_4),
    "croatian": ("data/demo/croatian-3p.pref", "demo-croatian-3p-013", CROATIAN),
    "slovenian": ("", "slovenian", SLOVENIAN),
}


# The sheet's own cases: the longest names it is tested with (39 and 40 characters), every seat long.
LONGEST: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "russian-3p-40": ("data/demo/sochi-3p.pref", "demo-sochi-3p-001",
                      ("Константин Константинопольский-Зарецкий", "Friedrich Wilhelm von Hohenberg-Schwarz",
                       "Екатерина Александровна Воскресенская")),
    "croatian-40": ("data/demo/croatian-3p.pref", "demo-croatian-3p-013",
                    ("Ana-Marija Kovačević-Marković Šimunović", "Krešimir Horvat-Babić Zagorski-Kovačević",
                     "Ivo Ban")),
    "slovenian-40": ("", "slovenian", ("Jana Krajnc-Potočnik Zupančič-Vodopivec", "Špela Kovač Vidmar",
                                       "Aleksander Krajnc-Potočnik")),
}

# The phone sheet of ``preflog serve`` (issue 39): the names a club's table brings, on every family's sheet.
ALEXANDRA, MAXIMILIAN = "Александра Константинопольская", "Maximilian Württemberg-Hohenzollern"
TABLE: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "table-russian-3p": ("data/demo/sochi-3p.pref", "demo-sochi-3p-001", (ALEXANDRA, MAXIMILIAN, "Юрий Ли")),
    "table-russian-4p": ("data/demo/sochi-4p.pref", "demo-sochi-4p-038",
                         (ALEXANDRA, MAXIMILIAN, "Мария Иванова-Кузнецова", "Константин Константинопольский")),
    "table-croatian": ("data/demo/croatian-3p.pref", "demo-croatian-3p-013",
                       (MAXIMILIAN, ALEXANDRA, "Zvonimir Šimunović Petrinjski")),
    "table-slovenian": ("", "slovenian", (ALEXANDRA, "Aleksander Krajnc-Potočnik", MAXIMILIAN)),
}


def table_store(tmp: Path) -> tuple[Path, dict[str, str]]:
    """A store holding each :data:`TABLE` pulka; its folder and each case's pulka id."""
    store = tmp / "table-store"
    items = Workspace(store).import_paths([long_record(case, tmp) for case in TABLE])
    assert [i.status for i in items] == ["imported"] * len(TABLE), [i.error for i in items]
    return store, {Path(i.source).stem: i.pulka for i in items}


def long_record(case: str, tmp: Path) -> Path:
    """The record file of a case (of :data:`LONG` or :data:`LONGEST`): its one pulka, seated by the long
    names."""
    path, key, players = {**LONG, **LONGEST, **TABLE}[case]
    out = tmp / f"{case}.pref"
    if not path:
        out.write_text(write_text(random_pulka(key, players, 24, seed=27)), encoding="utf-8")
        return out
    text = (ROOT / path).read_text(encoding="utf-8")
    blocks = re.split(r"\n(?=\[Players )", text)
    block = next(b for b in blocks if f'[Id "{key}"]' in b)
    block = re.sub(r'\[Players "[^"]*"\]', f'[Players "{", ".join(players)}"]', block, count=1)
    out.write_text(block.rstrip("\n") + "\n", encoding="utf-8")
    return out


def long_report(tmp: Path) -> Path:
    """``preflog report --html`` (with ``--pages``) over a store of every :data:`LONG` case, written in ``tmp``."""
    from typer.testing import CliRunner

    from preflog.cli.app import app

    store = tmp / "st"
    runner = CliRunner()
    for case in LONG:
        res = runner.invoke(app, ["import", str(long_record(case, tmp)), "--store", str(store)])
        assert res.exit_code == 0, res.output
    out = tmp / "report.html"
    res = runner.invoke(app, ["report", "--html", str(out), "--pages", str(tmp / "pulkas"), "--store", str(store)])
    assert res.exit_code == 0, res.output
    return out


def long_audited(case: str, tmp: Path) -> Audited:
    audited = Workspace(tmp / f"store-{case}").audit(str(long_record(case, tmp)))
    assert len(audited) == 1
    return audited[0]


def long_sheet(case: str, tmp: Path) -> dict[str, Any]:
    """The ``sheet --json`` entry of a case's pulka."""
    return sheet_json(long_audited(case, tmp))
