"""The solver's entry points: :func:`solve`, :func:`card_values` and :class:`Solver`.

The compiled search (``preflog/solver/_dd.c``, built by ``pip install``) runs when it loaded
(:data:`NATIVE`); otherwise the pure-Python search of :mod:`preflog.solver.search` runs, which is the
same algorithm (the tests run both on the same positions and compare them).
"""

from __future__ import annotations

from typing import Any

from .position import Goal
from .position import Position
from .position import SolverError
from .position import check
from .search import Search

try:  # the compiled search; absent when the package was not built (a plain checkout)
    from . import _dd  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _dd = None

NATIVE: bool = _dd is not None
"""True when the compiled search is loaded."""

# a Python table that grows past this many entries is emptied (a few hundred MB at most)
PY_TABLE_LIMIT = 2_000_000

_Context = tuple[int, int, int, int, bool]


class _Root:
    """A position in the search's terms: hands by place in the play order, the trick in progress."""

    __slots__ = ("hands", "decl", "i", "led", "best", "bi", "t", "tcards", "dc", "sc", "context")

    def __init__(self, pos: Position) -> None:
        check(pos)
        order = pos.order
        m = len(order)
        self.hands = [pos.hands[s] for s in order]
        self.decl = order.index(pos.declarer)
        self.i = order.index(pos.to_play)
        self.t = len(pos.trick)
        self.led = self.best = self.bi = -1
        self.tcards = 0
        for j, c in enumerate(pos.trick):
            player = (self.i - self.t + j) % m
            self.tcards |= 1 << c
            if j == 0 or (c >> 3 == self.best >> 3 and c > self.best) or (
                    c >> 3 == pos.trump and self.best >> 3 != pos.trump):
                self.best, self.bi = c, player
        if pos.trick:
            self.led = pos.trick[0] >> 3
        self.dc = pos.declarer_cap
        self.sc = pos.side_cap
        self.context: _Context = (m, self.decl, pos.trump, int(pos.goal), pos.must_trump)


class Solver:
    """A double-dummy solver with its transposition tables kept between calls (the positions of one
    deal share most of their subtrees, so solving them with one solver is much faster).

    ``transposition`` and ``equivalence`` switch the table and the equivalent-card reduction off (for
    the benchmark's comparison); ``native`` picks the compiled search (``None``: when it loaded,
    ``False``: the Python one, ``True``: the compiled one or :class:`SolverError`).
    """

    def __init__(self, *, transposition: bool = True, equivalence: bool = True, native: bool | None = None) -> None:
        if native is None:
            native = NATIVE
        if native and not NATIVE:
            raise SolverError("solver: the compiled search is not built (pip install the package to build it)")
        self.transposition = transposition
        self.equivalence = equivalence
        self.native = native
        self._py_nodes = 0
        self._tables: dict[_Context, dict[Any, tuple[int, int]]] = {}
        self._c: Any = _dd.Search(transposition, equivalence) if native and _dd is not None else None

    @property
    def nodes(self) -> int:
        """Nodes searched since creation."""
        return self._py_nodes + (int(self._c.nodes) if self._c is not None else 0)

    def _search(self, root: _Root) -> Search:
        tt: dict[Any, tuple[int, int]] | None = None
        if self.transposition:
            tt = self._tables.get(root.context)
            if tt is None or len(tt) > PY_TABLE_LIMIT:
                tt = self._tables[root.context] = {}
        m, decl, trump, goal, must_trump = root.context
        return Search(root.hands, decl, trump, goal, must_trump, tt, self.equivalence)

    def solve(self, pos: Position) -> int:
        """Tricks the declarer takes from here (the current trick included, up to a stop) with perfect play."""
        root = _Root(pos)
        if root.dc == 0 or root.sc == 0:
            return 0
        if self._c is not None:
            return int(self._c.solve(root.hands, root.decl, pos.trump, int(pos.goal), pos.must_trump, root.i,
                                     root.led, root.best, root.bi, root.t, root.tcards, root.dc, root.sc))
        s = self._search(root)
        try:
            return s.value(root.i, root.led, root.best, root.bi, root.t, root.tcards, root.dc, root.sc)
        finally:
            self._py_nodes += s.nodes

    def card_values(self, pos: Position) -> dict[int, int]:
        """For every legal card of ``pos.to_play``: the declarer's tricks from here if it is played now
        and both sides play perfectly after (the best card's value equals :meth:`solve`)."""
        root = _Root(pos)
        s = self._search(root)
        reps = s.representatives(root.i, root.led, root.best, root.bi, root.t, root.tcards)
        if root.dc == 0 or root.sc == 0:
            return dict.fromkeys(reps, 0)
        if self._c is not None:
            got = self._c.card_values(root.hands, root.decl, pos.trump, int(pos.goal), pos.must_trump, root.i,
                                      root.led, root.best, root.bi, root.t, root.tcards, root.dc, root.sc,
                                      sorted(set(reps.values())))
            return {c: int(got[r]) for c, r in sorted(reps.items())}
        values: dict[int, int] = {}
        try:
            for r in sorted(set(reps.values())):
                values[r] = s.value_after(root.i, r, root.led, root.best, root.bi, root.t, root.tcards,
                                          root.dc, root.sc)
        finally:
            self._py_nodes += s.nodes
        return {c: values[r] for c, r in sorted(reps.items())}


_default: Solver | None = None


def _solver() -> Solver:
    global _default
    if _default is None:
        _default = Solver()
    return _default


def solve(pos: Position) -> int:
    """Tricks the declarer takes from here (the current trick included, up to a stop) with perfect play."""
    return _solver().solve(pos)


def card_values(pos: Position) -> dict[int, int]:
    """For every legal card of ``pos.to_play``: the declarer's tricks from here if that card is played now
    and both sides play perfectly after. The best card's value equals ``solve(pos)``."""
    return _solver().card_values(pos)


__all__ = ["NATIVE", "Goal", "Position", "Solver", "SolverError", "card_values", "solve"]
