"""Records whose text tries to break out of the pages that show them (issue 31, D1 and D8).

The id, the comments, the ``End:`` text and the player names (as far as the reader takes them: no
``, : ; { } [ ] " = ( )`` in a name) are the strings that once ran script or blanked a page:
``{{data}}<img src=x onerror=alert(1)>`` (a template marker, then an inline event handler),
``</script><script>`` (ends the data script early) and ``<!--<script>`` (makes the HTML parser read
past the data script's end, so the viewer's own script never ran: a blank page).
"""

from __future__ import annotations

from pathlib import Path

from ..analysis.records import DOWN_ONE

ROOT = Path(__file__).resolve().parents[2]

ID = "{{data}}<img src=x onerror=alert(1)>"
CLOSE = "</script><script>"
OPEN = "<!--<script>"
COMMENTS = (ID, CLOSE + "alert(2)</script>", OPEN)
END = OPEN
NAMES = (CLOSE, OPEN, "</title><b>Vera</b>")
TEXTS = (ID, CLOSE, OPEN)


def _comments() -> str:
    return "".join(f"; {c}\n" for c in COMMENTS)


def card_record() -> str:
    """tests/analysis's DOWN_ONE (a card-level Sochi 6♠ one down, moves by seat letter), with the
    hostile id, names, comments before the first line, and ``End:`` text."""
    text = DOWN_ONE.replace("down-one", ID).replace('"Anna, Boris, Vera"', '"' + ", ".join(NAMES) + '"')
    return _comments() + text + f"\nEnd: {END}\n"


def paper_record(pulka_id: str = ID) -> str:
    """data/examples/seed003-settlement.pref (paper level, 12 deals, moves by player name) with the
    hostile names throughout, the hostile comments first, the id ``pulka_id`` and ``End:`` text."""
    text = (ROOT / "data/examples/seed003-settlement.pref").read_text(encoding="utf-8")
    text = text.replace('[Id "seed003-settlement"]', f'[Id "{pulka_id}"]')
    for old, new in zip(("Запад", "Восток", "Юг"), NAMES, strict=True):
        text = text.replace(old, new)
    assert "\nEnd: closed\n" in text
    return _comments() + text.replace("\nEnd: closed\n", f"\nEnd: {END}\n")
