"""Hand evaluation for the bots: expected tricks per strain, miser danger, discards.

Each suit of a hand is an 8-bit pattern (bit = rank); every measure is a table
lookup per suit, precomputed once for the 256 patterns, so evaluating a hand is a
few integer operations.

Trick counting (declarer's view) is a losing-trick count: per suit the missing
A, K, Q among its top min(length, 3) positions are losers; a short trump suit, side
length that may be ruffed and unstopped suits at no-trump add losers. Expected
tricks = 10 − losers (a singleton or void side suit thus counts its ruffs).
"""

from __future__ import annotations

NT = 4  # strain index of no-trump in the evaluators (suits 0..3)


def _losers(p: int) -> float:
    """Losing-trick count of a suit: missing A, K, Q among its top min(length, 3) positions."""
    n = p.bit_count()
    top = min(n, 3)
    held = sum(1 for r in (7, 6, 5)[:top] if p >> r & 1)
    lo = float(top - held)
    if n == 2 and p >> 6 & 1 and not p >> 7 & 1:
        lo += 0.25  # bare K: the ace may sit behind it
    return lo


def _suit_tables() -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...],
                            tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    trump_v, side_v, nt_v, def_v, miser_bad, drop1, drop2 = [], [], [], [], [], [], []
    for p in range(256):
        ranks = [r for r in range(7, -1, -1) if p >> r & 1]
        n = len(ranks)
        lo = _losers(p)
        # trump suit: losers, more when short (the defenders out-trump)
        trump_v.append(lo + (1.2 if n <= 3 else 0.4 if n == 4 else 0.0))
        # side suit: length beyond three may be ruffed
        side_v.append(lo + 0.35 * max(0, n - 3))
        stopped = bool(p >> 7 & 1 or (p >> 6 & 1 and n >= 2) or (p >> 5 & 1 and n >= 3))
        nt_v.append(lo + 0.2 + (0.0 if stopped or n == 0 or n >= 5 else 1.5) + (1.2 if n == 0 else 0.0))
        # defence: own top cards only, the declarer holds length
        dv = 0.0
        for k, r in enumerate(ranks[:2]):
            above = (7 - r) - k
            dv += 1.0 if above <= 0 else (0.5 if above == 1 and n > k + 1 else 0.0)
        def_v.append(dv)
        # miser: my k-th lowest card is safe when its rank is at most 2k
        asc = ranks[::-1]
        miser_bad.append(sum(1 for k, r in enumerate(asc) if r > 2 * k))
        q = p & (p - 1) if p else 0
        drop1.append(q)
        drop2.append(q & (q - 1) if q else 0)
    return (tuple(trump_v), tuple(side_v), tuple(nt_v), tuple(def_v), tuple(miser_bad), tuple(drop1),
            tuple(drop2))


TRUMP_V, SIDE_V, NT_V, DEF_V, MISER_BAD, DROP1, DROP2 = _suit_tables()


def patterns(hand: int) -> tuple[int, int, int, int]:
    return (hand & 0xFF, hand >> 8 & 0xFF, hand >> 16 & 0xFF, hand >> 24 & 0xFF)


def tricks_of(ps: tuple[int, ...] | list[int], strain: int) -> float:
    """Expected declarer tricks (10 minus losers) of a hand given as four suit patterns;
    ``strain`` 0..3 or NT."""
    if strain == NT:
        return 10.0 - (NT_V[ps[0]] + NT_V[ps[1]] + NT_V[ps[2]] + NT_V[ps[3]])
    lo = 0.0
    for s in range(4):
        lo += TRUMP_V[ps[s]] if s == strain else SIDE_V[ps[s]]
    return 10.0 - lo


def best_tricks(hand: int) -> tuple[float, int]:
    """Best (expected tricks, strain) over the five strains."""
    ps = patterns(hand)
    best, best_s = -9.0, 0
    for s in range(5):
        t = tricks_of(ps, s)
        if t > best:
            best, best_s = t, s
    return best, best_s


def defence_tricks(hand: int, trump: int) -> float:
    """Tricks a defender expects from his own hand against a contract with ``trump`` (-1 NT)."""
    ps = patterns(hand)
    total = 0.0
    for s in range(4):
        if s == trump:
            n = ps[s].bit_count()
            total += max(0.0, min(n, 3) - _losers(ps[s])) * 0.9
        else:
            total += DEF_V[ps[s]] * 0.8
    return total


def miser_bad(hand: int) -> int:
    """Number of cards that an opponent can force to win a trick (0 = a clean miser)."""
    return MISER_BAD[hand & 0xFF] + MISER_BAD[hand >> 8 & 0xFF] + MISER_BAD[hand >> 16 & 0xFF] \
        + MISER_BAD[hand >> 24 & 0xFF]


def best_discard(hand12: int, strain: int) -> tuple[int, float]:
    """The two cards to discard for a trick contract: (discard mask, expected tricks after it).

    Dropping the lowest cards of a suit is never worse in this model, so the candidates
    are "two lowest of one suit" and "lowest of two suits" (at most 10), trumps kept
    unless nothing else is left.
    """
    ps = list(patterns(hand12))
    best_mask, best_val = 0, -99.0
    suits = [s for s in range(4) if ps[s] and s != strain] or [s for s in range(4) if ps[s]]
    for i, s in enumerate(suits):
        p = ps[s]
        if p.bit_count() >= 2:
            ps[s] = DROP2[p]
            v = tricks_of(ps, strain)
            if v > best_val:
                best_val, best_mask = v, (p ^ DROP2[p]) << (8 * s)
            ps[s] = p
        for s2 in suits[i + 1:]:
            p2 = ps[s2]
            ps[s], ps[s2] = DROP1[p], DROP1[p2]
            v = tricks_of(ps, strain)
            if v > best_val:
                best_val, best_mask = v, ((p ^ DROP1[p]) << (8 * s)) | ((p2 ^ DROP1[p2]) << (8 * s2))
            ps[s], ps[s2] = p, p2
    if best_mask.bit_count() != 2:  # only one suit with cards outside trumps: take from trumps too
        rest = hand12 & ~best_mask
        while best_mask.bit_count() < 2:
            c = (rest & -rest).bit_length() - 1
            best_mask |= 1 << c
            rest &= ~(1 << c)
        best_val = tricks_of(patterns(hand12 & ~best_mask), strain)
    return best_mask, best_val


def miser_discard(hand12: int) -> int:
    """The two cards whose removal leaves the fewest dangerous cards (ties: drop higher ranks)."""
    cards = [c for c in range(32) if hand12 >> c & 1]
    best, best_key = 0, (99, 0)
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            m = (1 << cards[i]) | (1 << cards[j])
            key = (miser_bad(hand12 & ~m), -((cards[i] & 7) + (cards[j] & 7)))
            if key < best_key:
                best, best_key = m, key
    return best
