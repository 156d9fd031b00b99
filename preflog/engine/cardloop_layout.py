"""The bit layout of the compiled card loop's packed arguments: one table, read by everything that packs
or unpacks them.

:meth:`TrickPlay._play_compiled <preflog.engine.tricks.TrickPlay._play_compiled>` hands the play state
to the C loop (``_tricks.c``) as two 64-bit words, ``setup`` (what stays fixed during play) and
``state`` (the trick in progress), and reads it back from one, ``out``. :data:`LAYOUT` names each
field's word, first bit, width and bias (the value stored is ``value + bias``, so that seats and cards of
-1, and the talon's unknown order of -2, pack as non-negative numbers). ``_tricks_layout.h`` is generated
from it (``python -m preflog.generated`` rewrites the header; a test fails when the
committed header is not what the table gives), and tests/engine/test_card_loop_layout.py checks the
packer in ``tricks.py`` and the C loop against :func:`unpack` of the same table.

This module imports nothing from preflog (it is data and two small functions).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple


class Field(NamedTuple):
    word: str     # setup | state | out
    name: str
    shift: int
    width: int
    bias: int = 0


LAYOUT: tuple[Field, ...] = (
    Field("setup", "trump", 0, 3, 1),
    Field("setup", "must_trump", 3, 1),
    Field("setup", "trick_len", 4, 2),
    Field("setup", "talon_tricks", 6, 2),
    Field("setup", "talon_owner", 8, 3, 1),
    Field("setup", "third_lead_winner", 11, 1),
    Field("setup", "stops", 12, 1),
    Field("setup", "stop_seat", 13, 3, 1),
    Field("setup", "declarer_cap", 16, 4),
    Field("setup", "side_cap", 20, 4),
    Field("setup", "first_hand", 24, 3, 1),
    Field("setup", "talon", 27, 32),
    Field("state", "to_play", 0, 3, 1),
    Field("state", "led", 3, 3, 1),
    Field("state", "best", 6, 6, 1),
    Field("state", "best_seat", 12, 3, 1),
    Field("state", "completed", 15, 4),
    Field("state", "in_trick", 19, 2),
    Field("state", "order_first", 21, 6, 2),
    Field("state", "order_second", 27, 6, 2),
    Field("out", "to_play", 0, 3, 1),
    Field("out", "led", 3, 3, 1),
    Field("out", "best", 6, 6, 1),
    Field("out", "best_seat", 12, 3, 1),
    Field("out", "completed", 15, 4),
    Field("out", "done", 19, 1),
    Field("out", "order_first", 21, 6, 2),
    Field("out", "order_second", 27, 6, 2),
)
"""Every field of the three words. ``out`` is ``state`` after the run with bit 19 meaning play is over
(the open trick's length is not needed back: the loop returns where the open trick starts)."""

HEADER = Path(__file__).with_name("_tricks_layout.h")


def fields(word: str) -> dict[str, Field]:
    return {f.name: f for f in LAYOUT if f.word == word}


def pack(word: str, **values: int) -> int:
    """The word holding ``values`` (every field of ``word``, by name)."""
    fs = fields(word)
    if set(values) != set(fs):
        raise ValueError(f"{word} takes {sorted(fs)}, not {sorted(values)}")
    out = 0
    for name, f in fs.items():
        v = values[name] + f.bias
        if not 0 <= v < 1 << f.width:
            raise ValueError(f"{word}.{name} = {values[name]} does not fit {f.width} bits (bias {f.bias})")
        out |= v << f.shift
    return out


def unpack(word: str, value: int) -> dict[str, int]:
    """Every field of ``word`` read from ``value``."""
    return {name: (value >> f.shift & ((1 << f.width) - 1)) - f.bias for name, f in fields(word).items()}


def header_text() -> str:
    """``_tricks_layout.h``: a getter and a setter macro per field (``SETUP_TRUMP(w)`` reads it,
    ``PUT_STATE_BEST(v)`` is the bits of value ``v``)."""
    lines = ["/* Generated from preflog/engine/cardloop_layout.py (LAYOUT) by",
             " * `python -m preflog.generated`: do not edit.",
             " * The bit layout of the card loop's packed words (see _tricks.c). */",
             "#ifndef PREFLOG_TRICKS_LAYOUT_H", "#define PREFLOG_TRICKS_LAYOUT_H", ""]
    for f in LAYOUT:
        tag = f"{f.word.upper()}_{f.name.upper()}"
        mask = f"0x{(1 << f.width) - 1:X}"
        bias = f" - {f.bias}" if f.bias else ""
        lines.append(f"#define {tag}(w) ((int64_t)((uint64_t)(w) >> {f.shift} & {mask}){bias})")
        put_bias = f" + {f.bias}" if f.bias else ""
        lines.append(f"#define PUT_{tag}(v) ((int64_t)((v){put_bias}) << {f.shift})")
    lines += ["", "#endif", ""]
    return "\n".join(lines)
