"""Defenders' calls after the contract: whist ("вист"), pass ("пас"), half-whist
("полвиста"), the Croatian invitation, and open / closed play ("в светлую" / "втёмную"); and
the declarer's concession down three ("без трёх"), a house rule (``allow_concede_down3``).

Returning the whist ("вернуть вист") after a partner's half-whist is a second
``WHIST`` call by the first passer; the engine knows it is a return by its place.
"""

from __future__ import annotations

from typing import Final

from ..errors import PreflogError

CALL_PASS: Final = 0
CALL_WHIST: Final = 1
CALL_HALF: Final = 2
CALL_INVITE: Final = 3  # Croatian: a lone whister invites the passer (docs/rules.md §A8)
CALL_CONCEDE: Final = 4  # Russian house rule: the declarer concedes down three ("без трёх", allow_concede_down3)

PLAY_CLOSED: Final = 0
PLAY_OPEN: Final = 1

_CALLS = {
    "pass": CALL_PASS, "пас": CALL_PASS, "p": CALL_PASS,
    "whist": CALL_WHIST, "вист": CALL_WHIST, "w": CALL_WHIST, "return": CALL_WHIST,
    "вернуть": CALL_WHIST, "play": CALL_WHIST, "igram": CALL_WHIST, "dođem": CALL_WHIST, "dodjem": CALL_WHIST,
    "dalje": CALL_PASS,
    "half": CALL_HALF, "полвиста": CALL_HALF, "half-whist": CALL_HALF, "h": CALL_HALF,
    "invite": CALL_INVITE, "приглашаю": CALL_INVITE, "zovem": CALL_INVITE,
    "concede": CALL_CONCEDE, "без трёх": CALL_CONCEDE, "без трех": CALL_CONCEDE,
}
CALL_NAMES = {CALL_PASS: "pass", CALL_WHIST: "whist", CALL_HALF: "half", CALL_INVITE: "invite",
              CALL_CONCEDE: "concede"}
_MODES = {"open": PLAY_OPEN, "светлую": PLAY_OPEN, "в светлую": PLAY_OPEN, "o": PLAY_OPEN,
          "closed": PLAY_CLOSED, "тёмную": PLAY_CLOSED, "темную": PLAY_CLOSED, "втёмную": PLAY_CLOSED,
          "втемную": PLAY_CLOSED, "c": PLAY_CLOSED}
MODE_NAMES = {PLAY_OPEN: "open", PLAY_CLOSED: "closed"}


class CallError(PreflogError, ValueError):
    """A whist call or play mode that cannot be read."""


def parse_call(text: str) -> int:
    t = text.strip().lower()
    if t not in _CALLS:
        raise CallError(f"not a whist call: {text!r} (expected whist, pass, half, invite, concede)")
    return _CALLS[t]


def parse_mode(text: str) -> int:
    t = text.strip().lower()
    if t not in _MODES:
        raise CallError(f"not a play mode: {text!r} (expected open or closed)")
    return _MODES[t]
