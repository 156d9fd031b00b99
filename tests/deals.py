"""Deals that tests in several folders play, written once (record text; seats A, B, C, dealer C).

``SEVEN_SPADES``: A holds five top spades and wins the auction at 7♠ over B's 6♣ (A bids 6♠, holds B's 6♣),
takes the talon (9♥ 8♥) and discards 8♥ 7♥. Card-level entry (tests/serve, tests/browser) and «без трёх»
(tests/engine) each add the whist calls and the play.
"""

from __future__ import annotations

SEVEN_SPADES = """A: As Ks Qs Js 10s Ac Kc Ad Kd 7h
B: 9s 8s Qc Jc 10c Qd Jd 10d Ah Kh
C: 7s 9c 8c 7c 9d 8d 7d Qh Jh 10h
Talon: 9h 8h
Auction: A 6s, B 6c, C pass, A hold, B pass
Discard: A 8h 7h
Contract: A 7s
"""
