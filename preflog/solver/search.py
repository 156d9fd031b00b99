"""The search in pure Python: the reference for the compiled one (``_dd.c`` does the same on ints).

The value of a position is the declarer's tricks from here. The search answers one question at a
time, "does the declarer take at least ``k`` tricks?" (a null-window alpha-beta: a node of the side
that wants the answer *yes* is an OR over its moves, the other side's an AND), and :func:`solve`
narrows ``k`` by a run of such tests (downwards for a trick contract, upwards for a misère). What makes it fast:

* a **transposition table** at the start of each trick: the remaining cards of each seat, who leads
  and the caps still to run → the lower and upper bound known for the value. The cards are keyed by
  *relative* rank: in each suit only the order of the remaining cards and who holds each matters, so
  the played cards are squeezed out (a ♠K–♠Q split with the ace gone is the same as ♠A–♠K);
* **equivalent cards**: cards of one hand that are adjacent in rank once the cards between them are
  gone (played in earlier tricks) win or lose the same, so only one of them is searched;
* **move ordering**: on the lead a top card nobody can ruff, then a low card to the partner's top card;
  following, the cheapest card that takes the trick, or the lowest when the partner wins it (and the
  reverse for the declarer of a misère), so the cut comes from the first or second move
  (the compiled search also tries first the card that cut the last time at the same trick start);
* **quick bounds**: in a trick contract the tricks the side on lead can cash at once (top cards it
  holds in a row, in suits where nobody can ruff before they run out), and for either goal a run of
  top trumps in one hand (each wins a trick whenever it is played) bound the value before any move
  is searched; in a misère, *safe* suits (the declarer's j-th lowest card of each suit below the
  others' j-th lowest) prove that he escapes, a suit where his lowest card tops all the others' and
  the leader holds it that he is caught (:meth:`Search.misere_bounds`);
* the last trick is counted directly.
"""

from __future__ import annotations

SUIT = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
MOST, FEWEST = 0, 1


def _build_compress() -> list[int]:
    """``COMPRESS[present << 8 | hand]``: the hand's cards of one suit renumbered among the present
    cards of the suit (the lowest present card becomes rank 0), so played cards drop out."""
    table = [0] * 65536
    for present in range(256):
        for hand in range(256):
            if hand & ~present:
                continue
            out = 0
            j = 0
            for r in range(8):
                if present >> r & 1:
                    if hand >> r & 1:
                        out |= 1 << j
                    j += 1
            table[present << 8 | hand] = out
    return table


COMPRESS = _build_compress()


def _suit_safe(ds: int, es: int) -> bool:
    """Whether the declarer's cards ``ds`` of a suit lie each below the others' ``es`` counted from the
    bottom: his j-th lowest below their j-th lowest, for as many cards as both hold."""
    while ds and es:
        if (ds & -ds) > (es & -es):
            return False
        ds &= ds - 1
        es &= es - 1
    return True


def relative_key(hands: list[int]) -> int:
    """One int naming the hands up to played cards: each suit's remaining cards renumbered by rank
    (byte ``s * m + j`` holds seat ``j``'s cards of suit ``s``)."""
    present = 0
    for h in hands:
        present |= h
    key = 0
    shift = 0
    for s in range(0, 32, 8):
        p = (present >> s) & 0xFF
        if p:
            p <<= 8
            for h in hands:
                key |= COMPRESS[p | ((h >> s) & 0xFF)] << shift
                shift += 8
        else:
            shift += 8 * len(hands)
    return key


class Search:
    """One question-answering search over one deal's context (seats, declarer, trump, goal, rule).

    ``hands`` is indexed by the position of the seat in the play order (0 .. m-1), ``decl`` likewise.
    ``tt`` maps a trick-start key to ``(lo, hi)`` bounds of the declarer's tricks from there; ``None``
    switches the table off. ``nodes`` counts the nodes entered.
    """

    def __init__(self, hands: list[int], decl: int, trump: int, goal: int, must_trump: bool,
                 tt: dict[tuple[int, int, int, int], tuple[int, int]] | None, equivalence: bool) -> None:
        self.h = hands
        self.m = len(hands)
        self.decl = decl
        self.trump = trump
        self.tmask = SUIT[trump] if trump >= 0 else 0
        self.goal = goal
        self.must_trump = must_trump
        self.tt = tt
        self.equivalence = equivalence
        self.nodes = 0

    # ------------------------------------------------------------------ helpers
    def _beats(self, c: int, best: int) -> bool:
        if c >> 3 == best >> 3:
            return c > best
        return c >> 3 == self.trump

    def legal(self, i: int, led: int) -> int:
        hand = self.h[i]
        if led < 0:
            return hand
        m = hand & SUIT[led]
        if m:
            return m
        if self.must_trump:
            m = hand & self.tmask
            if m:
                return m
        return hand

    def _moves(self, i: int, legal: int, led: int, best: int, bi: int, t: int, tcards: int) -> list[int]:
        """The cards to search, one per class of equivalent cards, best-looking first."""
        present = tcards
        for h in self.h:
            present |= h
        reps: list[int] = []
        if self.equivalence:
            for s in range(4):
                ls = legal & SUIT[s]
                prev = -1
                while ls:
                    c = ls.bit_length() - 1
                    ls ^= 1 << c
                    # c joins the group of prev when no remaining card lies between them
                    if prev >= 0 and not present & ((1 << prev) - (1 << (c + 1))):
                        reps[-1] = c  # keep the lowest of the group
                    else:
                        reps.append(c)
                    prev = c
        else:
            ls = legal
            while ls:
                c = ls.bit_length() - 1
                ls ^= 1 << c
                reps.append(c)
        if len(reps) > 1:
            reps.sort(key=lambda c: self._score(i, c, led, best, bi, t, present))
        return reps

    def _score(self, i: int, c: int, led: int, best: int, bi: int, t: int, present: int) -> int:
        """Lower is tried first."""
        rank = c & 7
        declarer = i == self.decl
        if led < 0:  # leading
            suit = c >> 3
            topcard = (present & SUIT[suit]).bit_length() - 1
            top = topcard == c
            if self.goal == MOST:
                # cash a top card nobody can ruff, else lead low to the partner's top card, else high
                ruffable = partner_top = False
                for j in range(self.m):
                    if j == i:
                        continue
                    if (j == self.decl) == declarer:
                        partner_top = partner_top or bool(self.h[j] >> topcard & 1)
                    elif suit != self.trump and self.h[j] & self.tmask and not self.h[j] & SUIT[suit]:
                        ruffable = True
                if top:
                    return (50 if ruffable else 0) - rank
                if partner_top and not ruffable:
                    return 20 + rank
                return 100 - rank
            if declarer:  # a card below all the others' of its suit (a sure loser), highest first
                es = present & ~self.h[i] & SUIT[suit]
                if es and c < (es & -es).bit_length() - 1:
                    return -rank
                return (50 if es else 100) + rank
            # a defender: the declarer's unsafe suit first, low; then a top card
            ds = self.h[self.decl] & SUIT[suit]
            if ds and not _suit_safe(ds, present & ~self.h[self.decl] & SUIT[suit]):
                return rank
            return (20 if top else 100) + rank
        wins = self._beats(c, best)
        mine_winning = (bi == self.decl) == declarer
        if self.goal == MOST:
            if mine_winning:
                return (100 if wins else 0) + rank
            return (0 if wins else 100) + rank
        if declarer:  # misère: duck under with the highest card that loses
            if c >> 3 != led:  # discarding: the top of a suit not safe for him first
                ds = self.h[i] & SUIT[c >> 3]
                return (50 if _suit_safe(ds, present & ~self.h[i] & SUIT[c >> 3]) else 0) - rank
            return (0 if not wins else 100) - rank
        # a defender of the misère discarding: high cards of the declarer's suits first
        if c >> 3 != led:
            return (0 if self.h[self.decl] & SUIT[c >> 3] else 50) - rank
        # following: let the declarer take the trick, shed high cards that do
        if bi == self.decl:
            return (0 if not wins else 100) - rank
        return rank

    def quick_tricks(self, i: int) -> int:
        """Tricks the side of ``i``, on lead, can cash at once: ``i``'s top cards in a row of each suit,
        in a side suit only as many rounds as every other seat holding a trump must still follow."""
        h = self.h
        hand = h[i]
        present = 0
        for x in h:
            present |= x
        total = 0
        for s in range(4):
            hs = hand & SUIT[s]
            if not hs:
                continue
            ps = present & SUIT[s]
            top = 0
            while ps:
                c = ps.bit_length() - 1
                if not hs >> c & 1:
                    break
                top += 1
                ps ^= 1 << c
            if not top:
                continue
            if self.tmask and s != self.trump:
                for j in range(self.m):
                    if j != i and h[j] & self.tmask:
                        top = min(top, (h[j] & SUIT[s]).bit_count())
            total += top
        return total

    def trump_run_bounds(self, n: int, dcn: int, sc: int, lo: int, hi: int) -> tuple[int, int]:
        """The top trumps held in a row by one hand each win a trick whenever they are played (whoever
        leads, whatever either side wants): the declarer's raise the lower bound (unless the other side
        could reach its cap first), another seat's lower the upper bound."""
        h = self.h
        present = 0
        for x in h:
            present |= x
        tp = present & self.tmask
        holder, run = -1, 0
        while tp:
            c = tp.bit_length() - 1
            j = next(j for j in range(self.m) if h[j] >> c & 1)
            if holder >= 0 and j != holder:
                break
            holder = j
            run += 1
            tp ^= 1 << c
        if holder == self.decl:
            if sc > n - run:
                lo = max(lo, min(run, dcn))
        elif holder >= 0:
            hi = min(hi, n - run)
        return lo, hi

    def misere_bounds(self, i: int, dcn: int, lo: int, hi: int) -> tuple[int, int]:
        """The bounds of a misère (no trump) at a trick start: *safe* suits and sure tricks.

        In one suit let the declarer's cards be d1 < ... < dk and the other seats' (together)
        e1 < ... < er; the suit is safe when dj < ej for every j <= min(k, r). A safe suit stays safe
        when the others lose cards (each ej can only rise), when the declarer follows to a lead e of it
        with his highest card below e (there is one as d1 < e1 <= e; after the trick his i-th card is
        di or d(i+1), below theirs), and when he discards the highest card of a suit (void in the suit
        led). So with every suit safe and another seat on lead, he follows below the leader's card or
        discards in every trick, the other side wins it and leads again: the value is 0. On lead
        himself, with every suit safe, he leads in a suit s the others hold his highest card dp below
        e1 (someone must follow above it); if his cards left stay below theirs (d(i+1) < ei for
        i < r: they lose at least one card of s), the other side leads next, value 0.

        Sure tricks: a suit is *high* when the declarer holds it and his lowest card of it tops all
        the others' (or they hold none). Another seat on lead holding a high suit may lead it: he must
        follow and wins (``lo >= 1``). The declarer on lead with only high suits wins whatever he
        leads, and they stay high: he takes every trick left up to his cap (``lo = min(dc, n)``)."""
        h = self.h
        d = h[self.decl]
        present = 0
        for x in h:
            present |= x
        e = present & ~d
        all_high, caught = True, False
        for s in range(4):
            ds = d & SUIT[s]
            es = e & SUIT[s]
            high = bool(ds) and (not es or (ds & -ds) > es)
            if ds and not high:
                all_high = False
            if high and h[i] & SUIT[s]:
                caught = True  # i is not the declarer: es holds i's cards
        if i == self.decl:
            if all_high:
                lo = max(lo, dcn)
        elif caught:
            lo = max(lo, 1)
        lead = False
        for s in range(4):
            ds = d & SUIT[s]
            es = e & SUIT[s]
            if not ds or not es:
                continue
            if not _suit_safe(ds, es):
                return lo, hi
            if not lead and i == self.decl:
                below = ds & ((es & -es) - 1)  # not empty: d1 < e1
                lead = _suit_safe(ds ^ 1 << below.bit_length() - 1, es ^ 1 << es.bit_length() - 1)
        if i != self.decl or lead:
            return lo, 0
        return lo, hi

    # ------------------------------------------------------------------ the search
    def node(self, i: int, led: int, best: int, bi: int, t: int, tcards: int, dc: int, sc: int, k: int) -> bool:
        """Does the declarer take at least ``k`` tricks from here (``i`` to play, ``t`` cards of the trick
        down, ``led``/``best``/``bi`` the suit led, winning card and its player, ``dc``/``sc`` the caps)?"""
        self.nodes += 1
        if k <= 0:
            return True
        h = self.h
        n = h[i].bit_count()
        if k > min(dc, n):
            return False
        if t:
            return self._expand(i, led, best, bi, t, tcards, dc, sc, k)
        m = self.m
        if n == 1:  # the last trick: count it
            w = i
            wc = h[i]
            j = i
            for _ in range(m - 1):
                j = j + 1 if j + 1 < m else 0
                if self._beats(h[j].bit_length() - 1, wc.bit_length() - 1):
                    w, wc = j, h[j]
            return w == self.decl  # k == 1 here
        dcn = dc if dc < n else n
        scn = sc if sc < n else n
        tt = self.tt
        key = (relative_key(h), i, dcn, scn)
        lo, hi = 0, dcn
        if tt is not None:
            got = tt.get(key)
            if got is not None:
                lo, hi = got
                if lo >= k:
                    return True
                if hi < k:
                    return False
        if self.tmask:
            lo, hi = self.trump_run_bounds(n, dcn, sc, lo, hi)
        if self.goal == FEWEST and not self.tmask:
            lo, hi = self.misere_bounds(i, dcn, lo, hi)
        if self.goal == MOST:
            q = self.quick_tricks(i)
            if i == self.decl:
                b = min(q, dcn)
                if b > lo:
                    lo = b
            else:
                b = 0 if q >= scn else min(dcn, n - q)
                if b < hi:
                    hi = b
        if lo >= k:
            result = True
        elif hi < k:
            result = False
        else:
            result = self._expand(i, -1, -1, -1, 0, 0, dc, sc, k)
        if result:
            lo = max(lo, k)
        else:
            hi = min(hi, k - 1)
        if tt is not None:
            tt[key] = (lo, hi)
        return result

    def _expand(self, i: int, led: int, best: int, bi: int, t: int, tcards: int, dc: int, sc: int, k: int) -> bool:
        is_or = (i == self.decl) == (self.goal == MOST)
        for c in self._moves(i, self.legal(i, led), led, best, bi, t, tcards):
            if self.after(i, c, led, best, bi, t, tcards, dc, sc, k) == is_or:
                return is_or
        return not is_or

    def after(self, i: int, c: int, led: int, best: int, bi: int, t: int, tcards: int, dc: int, sc: int,
              k: int) -> bool:
        """Does the declarer take at least ``k`` tricks from here when ``i`` plays ``c`` now?"""
        h = self.h
        bit = 1 << c
        h[i] ^= bit
        if t == 0:
            led, best, bi = c >> 3, c, i
        elif self._beats(c, best):
            best, bi = c, i
        if t + 1 < self.m:
            r = self.node(i + 1 if i + 1 < self.m else 0, led, best, bi, t + 1, tcards | bit, dc, sc, k)
        elif bi == self.decl:
            r = k <= 1 if dc <= 1 else self.node(bi, -1, -1, -1, 0, 0, dc - 1, sc, k - 1)
        else:
            r = k <= 0 if sc <= 1 else self.node(bi, -1, -1, -1, 0, 0, dc, sc - 1, k)
        h[i] ^= bit
        return r

    def value_after(self, i: int, c: int, led: int, best: int, bi: int, t: int, tcards: int, dc: int,
                    sc: int) -> int:
        """The declarer's tricks from here when ``i`` plays ``c`` now (a run of :meth:`after` tests)."""
        lo, hi = 0, min(dc, self.h[i].bit_count())
        while lo < hi:
            k = lo + 1 if self.goal == FEWEST else hi
            if self.after(i, c, led, best, bi, t, tcards, dc, sc, k):
                lo = k
            else:
                hi = k - 1
        return lo

    def value(self, i: int, led: int, best: int, bi: int, t: int, tcards: int, dc: int, sc: int) -> int:
        """The declarer's tricks from here with ``i`` to play: a run of :meth:`node` tests from the end the
        value is rarely at, a misère's (mostly 0 or 1) upwards from 0, a trick contract's downwards from
        the tricks left (each failed test is cheap and fills the table for the next)."""
        lo, hi = 0, min(dc, self.h[i].bit_count())
        while lo < hi:
            k = lo + 1 if self.goal == FEWEST else hi
            if self.node(i, led, best, bi, t, tcards, dc, sc, k):
                lo = k
            else:
                hi = k - 1
        return lo

    def representatives(self, i: int, led: int, best: int, bi: int, t: int, tcards: int) -> dict[int, int]:
        """Each legal card of ``i`` → the card searched for its class of equivalent cards."""
        legal = self.legal(i, led)
        out: dict[int, int] = {}
        if not self.equivalence:
            ls = legal
            while ls:
                c = ls.bit_length() - 1
                ls ^= 1 << c
                out[c] = c
            return out
        present = tcards
        for h in self.h:
            present |= h
        for s in range(4):
            ls = legal & SUIT[s]
            group: list[int] = []
            prev = -1
            while ls:
                c = ls.bit_length() - 1
                ls ^= 1 << c
                if prev >= 0 and present & ((1 << prev) - (1 << (c + 1))):
                    for g in group:
                        out[g] = group[-1]
                    group = []
                group.append(c)
                prev = c
            for g in group:
                out[g] = group[-1]
        return out
