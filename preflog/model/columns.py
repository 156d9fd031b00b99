"""A log's rows as parallel columns: the form the replay kernel walks (compiled with it).

A stored event row is ``(code, player, card, value, payload)`` (:data:`preflog.model.events.Row`).
The store holds them as columns, and the kernel reads them as columns too: :class:`RowColumns` keeps
five lists side by side, so a bulk replay from the store builds no Python tuple per event (issue 16:
"no per-event Python tuple"). :meth:`RowColumns.row` builds the tuple of one event when a step needs
it (every event that is not a card, and any event with a finding).

>>> cols = RowColumns.of_rows([(1, -1, -1, 0, "{}"), (8, 0, 12, 0, None)])
>>> len(cols), cols.row(1), cols.card
(2, (8, 0, 12, 0, None), [-1, 12])
"""

from __future__ import annotations

from collections.abc import Sequence

Row = tuple[int, int, int, int, str | None]
"""The row of one event (the same type as :data:`preflog.model.events.Row`)."""


class RowColumns:
    """The rows of a log as five lists of equal length: ``code``, ``player``, ``card``, ``value``, ``payload``."""

    __slots__ = ("card", "code", "payload", "player", "value")

    def __init__(self, code: list[int], player: list[int], card: list[int], value: list[int],
                 payload: list[str | None]) -> None:
        n = len(code)
        if not len(player) == len(card) == len(value) == len(payload) == n:
            raise ValueError(f"columns of different lengths: {n}, {len(player)}, {len(card)}, {len(value)}, "
                             f"{len(payload)}")
        self.code = code
        self.player = player
        self.card = card
        self.value = value
        self.payload = payload

    @staticmethod
    def of_rows(rows: Sequence[Row]) -> RowColumns:
        """The columns of row tuples."""
        if not rows:
            return RowColumns([], [], [], [], [])
        code, player, card, value, payload = zip(*rows, strict=True)
        return RowColumns(list(code), list(player), list(card), list(value), list(payload))

    def __len__(self) -> int:
        return len(self.code)

    def row(self, i: int) -> Row:
        """The row tuple of event ``i`` (0-based)."""
        return (self.code[i], self.player[i], self.card[i], self.value[i], self.payload[i])

    def rows(self) -> list[Row]:
        """Every row as a tuple."""
        return list(zip(self.code, self.player, self.card, self.value, self.payload, strict=True))

    def __reduce__(self) -> tuple[type[RowColumns], tuple[object, ...]]:
        return (RowColumns, (self.code, self.player, self.card, self.value, self.payload))


__all__ = ["Row", "RowColumns"]
