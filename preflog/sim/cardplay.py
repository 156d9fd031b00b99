"""The bots' card choices in trick play (the rules of play are the engine's trick kernel).

:func:`choose_card` reads the trick in progress from the engine's deal (cards and seats played,
the suit led, the card winning so far, the legal cards) and asks one of the heuristics below.
Everything works on int bitmasks (bit ``suit * 8 + rank``), so a card choice is a
handful of integer operations and no objects are built per card. The bots see all
hands (double-dummy style heuristics): simple, fast, and strong enough that the
rates of made games, remizes and misers look like real play. The heuristics look ahead at what
a later player may play with :func:`legal` (follow suit, else trump): a model of the others'
options, never a check of the bot's own card, which the engine's ``legal_cards`` gives.

Play modes: ``TRICKS`` (a trick contract, declarer against two defenders), ``MISER``
("мизер": the declarer wants no trick, the defenders cooperate to give him one) and
``RASPASY`` ("распасы": every player wants as few tricks as possible).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.deal import DONE
from ..engine.deal import PLAY
from ..engine.deal import Deal
from ..engine.tricks import playable
from ..model.cards import SUIT_MASKS
from ..model.events import CardPlayed
from ..model.events import Event

if TYPE_CHECKING:
    from .levels import Seats

TRICKS, MISER, RASPASY = 0, 1, 2
NO_SUIT = -1
NOBODY = -1

_S = SUIT_MASKS
# _ABOVE[c]: bits of the cards above c in c's suit; _BELOW[c]: below it in its suit.
_ABOVE = tuple(_S[c >> 3] & ~((2 << c) - 1) for c in range(32))
_BELOW = tuple(_S[c >> 3] & ((1 << c) - 1) for c in range(32))


def low(m: int) -> int:
    """Lowest card of a non-empty mask."""
    return (m & -m).bit_length() - 1


def high(m: int) -> int:
    """Highest card of a non-empty mask."""
    return m.bit_length() - 1


def legal(hand: int, lead_suit: int, trump: int, must_trump: bool = True) -> int:
    """The cards the heuristics expect ``hand`` to choose from: the engine's follow-suit rule
    (:func:`preflog.engine.tricks.playable`), trumping when void if ``must_trump`` (a look-ahead at another
    player; the bot's own choice is the engine's ``legal_cards``)."""
    return playable(hand, lead_suit, _S[trump] if must_trump and trump >= 0 else 0)


def beaters(cards: int, winner: int, trump: int) -> int:
    """Cards of ``cards`` that would beat the current winning card ``winner``."""
    b = cards & _ABOVE[winner]
    if trump >= 0 and winner >> 3 != trump:
        b |= cards & _S[trump]
    return b


def _cheapest(cards: int, trump: int) -> int:
    """The least useful card: lowest non-trump by rank, else the lowest trump."""
    side = cards & ~_S[trump] if trump >= 0 else cards
    if not side:
        return low(cards)
    best, best_rank = -1, 9
    for s in range(4):
        m = side & _S[s]
        if m:
            c = low(m)
            if (c & 7) < best_rank:
                best, best_rank = c, c & 7
    return best


def _lowest_beater(b: int, lead_suit: int) -> int:
    """Cheapest winning card: the lowest one in the suit led, else the lowest trump."""
    f = b & _S[lead_suit]
    return low(f) if f else low(b)


def _highest_rank(cards: int) -> int:
    """The card of highest rank (for getting rid of dangerous cards)."""
    best, best_rank = -1, -1
    for s in range(4):
        m = cards & _S[s]
        if m:
            c = high(m)
            if (c & 7) > best_rank:
                best, best_rank = c, c & 7
    return best


# ---------------------------------------------------------------------------
# the trick in progress


def play_out(deal: Deal, mode: int, trump: int, must_trump: bool, log: list[Event] | None,
             first: int = NOBODY, out_seat: int = NOBODY, seats: Seats | None = None) -> None:
    """The bots play ``deal`` until the engine ends play; the cards go to ``log`` unless None.

    Each card is the heuristic's choice (:func:`choose_tricks`, :func:`choose_avoid`,
    :func:`choose_miser_defence`) for the trick in progress as the deal has it: the cards played
    (``trick_cards``), the suit led, the card winning so far, the seat's legal cards. ``mode`` is
    :data:`TRICKS`, :data:`MISER` (the declarer avoids tricks, the defenders feed him) or
    :data:`RASPASY`. ``first`` leads when the first card also starts play (the deal is not in its
    play phase yet: a Croatian defence still open, a Russian open/closed choice not made);
    ``out_seat`` is the Croatian passer who sits out: the bots never see his cards, and a lead
    still counts him among the others. ``seats``, if given, lets each seat's bot level
    (:mod:`preflog.sim.levels`) replace the heuristic's card.
    """
    ring = tuple(s for s in deal.active if s != out_seat)   # who plays, in turn order
    others_of = {s: ring[i + 1:] + ring[:i] for i, s in enumerate(ring)}   # the others, in turn order after s
    n_others = len(ring) - 1
    declarer = deal.declarer
    hands = view = deal.hands
    play_card = deal.play_card
    while True:
        phase = deal.phase
        if phase == PLAY:
            seat = deal.to_play
        elif phase == DONE:
            return
        else:
            seat = first
        if out_seat != NOBODY:
            view = list(hands)
            view[out_seat] = 0
        trick = deal.trick_cards
        others = others_of[seat]
        after = others[:n_others - len(trick)]
        lead_suit = deal.suit_led
        wc, ws = deal.winning
        if not trick:
            if lead_suit == NO_SUIT and deal.completed < deal.talon_tricks:
                lead_suit, wc, ws = _talon_lead(deal, hands[seat])
            if out_seat != NOBODY:
                after = (*after, out_seat)
        if mode == TRICKS:
            if trick:
                c = choose_tricks(seat, view, trick, after, lead_suit, trump, declarer, must_trump, wc, ws,
                                  deal.legal_cards(seat))
            else:
                c = _lead_tricks(seat, view, after, trump, declarer)
        elif mode == RASPASY or seat == declarer:
            c = choose_avoid(seat, view, trick, after, lead_suit, wc, others)
        else:
            partner = others[0] if others[0] != declarer else others[1]
            c = choose_miser_defence(seat, view, trick, after, lead_suit, declarer, wc, ws, partner)
        if seats is not None:
            c = seats.card(deal, seat, c, mode == MISER, mode == RASPASY)
        if phase != PLAY or not play_card(seat, c):
            deal.play(seat, c)   # the card that starts play (or the finding that names the rule it breaks)
        if log is not None:
            log.append(CardPlayed(seat, c))


def _talon_lead(deal: Deal, hand: int) -> tuple[int, int, int]:
    """Open raspasy, trick 1 before its first card: (suit led, winning card, its seat) as first hand plays it.

    His card tells which talon card was turned first (the engine reads it so); the bot follows the
    lower card's suit unless it can follow only the higher one's."""
    talon = deal.talon or 0
    lo, hi = low(talon), high(talon)
    tc = hi if not hand & _S[lo >> 3] and hand & _S[hi >> 3] else lo
    owner = deal.talon_owner
    return (tc >> 3, tc, owner) if owner != NOBODY else (tc >> 3, -1, NOBODY)


# ---------------------------------------------------------------------------
# trick contracts


def choose_tricks(seat: int, hands: list[int], trick: list[int], seats_after: tuple[int, ...],
                  lead_suit: int, trump: int, declarer: int, must_trump: bool,
                  winner_card: int, winner_seat: int, lg: int) -> int:
    """A card for ``seat`` in a trick contract; ``trick`` holds the cards already played, ``lg`` the
    cards the seat may play."""
    if not trick:
        return _lead_tricks(seat, hands, seats_after, trump, declarer)
    if lg & (lg - 1) == 0:
        return low(lg)
    defender = seat != declarer
    partner_winning = defender and winner_seat != declarer
    if not seats_after:  # last to play
        if partner_winning:
            return _cheapest(lg, trump)
        b = beaters(lg, winner_card, trump)
        return _lowest_beater(b, lead_suit) if b else _cheapest(lg, trump)
    q = seats_after[0]
    lq = legal(hands[q], lead_suit, trump, must_trump)
    q_partner = defender and q != declarer
    if partner_winning and not beaters(lq, winner_card, trump):
        return _cheapest(lg, trump)
    b = beaters(lg, winner_card, trump)
    while b:  # the lowest card that wins and that the last player cannot beat
        c = _lowest_beater(b, lead_suit)
        if q_partner or not beaters(lq, c, trump):
            return c
        b &= ~(1 << c)
    return _cheapest(lg, trump)


def _lead_tricks(seat: int, hands: list[int], others: tuple[int, ...], trump: int, declarer: int) -> int:
    hand = hands[seat]
    o1, o2 = others
    if seat == declarer:
        opp = hands[o1] | hands[o2]
        if trump >= 0:
            mt = hand & _S[trump]
            ot = opp & _S[trump]
            if mt and ot:
                top = high(mt)
                if not (ot & _ABOVE[top]):
                    return top
                if mt.bit_count() >= ot.bit_count() + 2:
                    return low(mt)
        else:
            return _lead_nt(hand, opp)
        best, best_len = -1, -1
        for s in range(4):
            m = hand & _S[s]
            if not m or s == trump:
                continue
            top = high(m)
            if opp & _ABOVE[top]:
                continue
            # a master card is safe only if no defender can ruff it
            if any(not (hands[o] & _S[s]) and hands[o] & _S[trump] for o in others):
                continue
            n = m.bit_count()
            if n > best_len:
                best, best_len = top, n
        if best >= 0:
            return best
        return _long_suit_low(hand, trump)
    # defender: cash a sure winner, else lead towards partner's winner, else a long suit low
    partner = o1 if o1 != declarer else o2
    hd, hp = hands[declarer], hands[partner]
    for s in range(4):
        m = hand & _S[s]
        if not m:
            continue
        top = high(m)
        if not beaters(legal(hd, s, trump), top, trump):
            return top
    for s in range(4):
        m = hand & _S[s]
        if not m or s == trump:
            continue
        pm = hp & _S[s]
        if pm:
            pt = high(pm)
            if not beaters(legal(hd, s, trump), pt, trump):
                return low(m)
        elif trump >= 0 and hp & _S[trump] and hd & _S[s]:
            return low(m)  # partner ruffs
    return _long_suit_low(hand, trump)


def _lead_nt(hand: int, opp: int) -> int:
    """No-trump declarer: work on the longest suit (cash it when master, knock out the top
    with the head of a sequence, else lead low), keeping singleton stoppers."""
    best_s, best_key = -1, (-1, -1)
    for s in range(4):
        m = hand & _S[s]
        if m:
            key = (m.bit_count(), high(m) & 7)
            if key > best_key:
                best_s, best_key = s, key
    m = hand & _S[best_s]
    top = high(m)
    if not (opp & _ABOVE[top]):
        return top
    if top & 7 and m >> (top - 1) & 1:
        return top
    return low(m)


def _long_suit_low(hand: int, trump: int) -> int:
    best, best_len = -1, -99
    for s in range(4):
        m = hand & _S[s]
        if not m:
            continue
        n = m.bit_count() - (8 if s == trump else 0)  # trumps last
        if n > best_len:
            best, best_len = low(m), n
    return best


# ---------------------------------------------------------------------------
# miser and raspasy (no trumps, avoid tricks)


def _safe_lead(hand: int, others: tuple[int, ...], hands: list[int]) -> int:
    """A low card that some other player is forced to beat, else the lowest card."""
    best, best_rank = -1, 9
    fallback, fb_rank = -1, 9
    for s in range(4):
        m = hand & _S[s]
        if not m:
            continue
        c = low(m)
        r = c & 7
        if r < fb_rank:
            fallback, fb_rank = c, r
        for o in others:
            om = hands[o] & _S[s]
            if om and low(om) > c:
                if r < best_rank:
                    best, best_rank = c, r
                break
    return best if best >= 0 else fallback


def choose_avoid(seat: int, hands: list[int], trick: list[int], seats_after: tuple[int, ...],
                 lead_suit: int, winner_card: int, others: tuple[int, ...]) -> int:
    """A card for a player who wants no trick (raspasy, or the miser declarer)."""
    hand = hands[seat]
    if not trick and winner_card < 0 and lead_suit == NO_SUIT:
        return _safe_lead(hand, others, hands)
    f = hand & _S[lead_suit]
    if not f:
        return _highest_rank(hand)  # discard the most dangerous card
    if winner_card < 0:  # raspasy talon trick, nobody has followed yet
        return low(f)
    under = f & _BELOW[winner_card]
    if under:
        return high(under)
    return high(f)


def choose_miser_defence(seat: int, hands: list[int], trick: list[int], seats_after: tuple[int, ...],
                         lead_suit: int, declarer: int, winner_card: int, winner_seat: int,
                         partner: int) -> int:
    """A card for a miser defender: make the declarer take a trick."""
    hand = hands[seat]
    hd = hands[declarer]
    if not trick:
        # lead a low card the declarer must beat while partner can stay under him
        for s in range(4):
            m = hand & _S[s]
            dm = hd & _S[s]
            if not m or not dm:
                continue
            x = low(m)
            dlow = low(dm)
            if x < dlow:
                pm = hands[partner] & _S[s]
                if not pm or low(pm) < dlow:
                    return x
        best, best_n = -1, -1
        for s in range(4):
            m = hand & _S[s]
            if m:
                n = (hd & _S[s]).bit_count()
                if n > best_n:
                    best, best_n = low(m), n
        return best
    f = hand & _S[lead_suit]
    if not f:
        return _highest_rank(hand)
    if declarer in seats_after:
        return low(f)  # let the declarer play over a low card
    if winner_seat == declarer:
        under = f & _BELOW[winner_card]
        return high(under) if under else low(f)
    return high(f)  # trick is not the declarer's anyway: unblock high cards
