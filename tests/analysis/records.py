"""Hand-built Sochi deals whose double-dummy answers are worked out by hand (tests/analysis).

Seats: Anna (A, seat 0), Boris (B, seat 1), Vera (C, seat 2). The hands are built so that every trick is
forced or obvious: see each test's docstring for the count.
"""

from __future__ import annotations

HEAD = """[Players "Anna, Boris, Vera"]
[Rules "sochi"]
[Pool "50"]
[WhistPrice "1/2"]
[Id "{id}"]
"""

# A holds five top trumps, the club ace and four small diamonds; B three small trumps, the four diamond
# honours and three heart honours, and no club; C the other seven clubs and three hearts.
DOWN_ONE_DEAL = """A: As Ks Qs Js 10s Ac 10d 9d 8d 7d
B: 9s 8s 7s Ad Kd Qd Jd Ah Kh Qh
C: Kc Qc Jc 10c 9c 8c 7c Jh 10h 9h
Talon: 8h 7h
Auction: A 6s, B pass, C pass
Discard: A 8h 7h
Contract: A 6s
Whist: B whist, C whist
1: Ac 7s 7c
2: Ad 9h 7d
3: Kd 10h 8d
4: Qd Jh 9d
5: Jd 8c 10d
6: Ah 9c 10s
7: As 8s 10c
8: Ks 9s Jc
9: Qs Kh Qc
10: Js Qh Kc
"""
"""The deal below its header: the hands, the bidding and the ten tricks (other records build on it)."""
DOWN_ONE = HEAD.format(id="down-one") + "\nDeal 1: dealer C\n" + DOWN_ONE_DEAL

# A has a miser hand with one hole: a single 8 of spades, the 7 below it with Boris (who holds every other
# spade) and Vera void in spades.
MISER_DEAL = """A: 8s 9c 8c 7c 9d 8d 7d 9h 8h 7h
B: As Ks Qs Js 10s 9s 7s Ah Kh Qh
C: Kc Qc Jc 10c Kd Qd Jd 10d Jh 10h
Talon: Ac Ad
Auction: B pass, C pass, A miser
Discard: A Ac Ad
Contract: A miser
1: 9s 10h 8s
Claim: A 0, B 5, C 4
"""
MISER = HEAD.format(id="miser") + "\nDeal 1: dealer A\n" + MISER_DEAL

# A has nine top tricks at spades; Boris whists alone against them and Vera passes.
WRONG_WHIST = HEAD.format(id="wrong-whist") + """
Deal 1: dealer C
A: As Ks Qs Js 10s Ac Kc Qc Ah 7d
B: 9s 8s 7s Ad Kd Qd Jd 10d 9d 8d
C: Jc 10c 9c 8c 7c Kh Qh Jh 10h 9h
Talon: 8h 7h
Auction: A 6s, B pass, C pass
Discard: A 8h 7h
Contract: A 6s
Whist: B whist, C pass
1: As 7s 7c
Claim: A 8, B 1, C 0
"""

# DOWN_ONE with diamonds and spades swapped, as a Croatian 3 (diamonds trumps): after the club ace is ruffed
# Boris cashes four spades, the defenders' fifth trick, and play stops.
CROATIAN_STOP = """[Players "Anna, Boris, Vera"]
[Rules "croatian"]
[Pool "30"]
[Id "croatian-stop"]

Deal 1: dealer C
A: Ad Kd Qd Jd 10d Ac 10s 9s 8s 7s
B: 9d 8d 7d As Ks Qs Js Ah Kh Qh
C: Kc Qc Jc 10c 9c 8c 7c Jh 10h 9h
Talon: 8h 7h
Auction: A 2, B pass, C pass
Discard: A 8h 7h
Contract: A 3
Whist: B whist, C whist
1: Ac 7d 7c
2: As 9h 7s
3: Ks 10h 8s
4: Qs Jh 9s
5: Js 8c 10s
"""

# Raspasy (Rostov: the talon stays closed): Anna holds all eight spades and ♣AK, so she wins every trick
# whatever she plays.
RASPASY = HEAD.replace("sochi", "rostov").format(id="raspasy") + """
Deal 1: dealer C
A: As Ks Qs Js 10s 9s 8s 7s Ac Kc
B: Qc Jc 10c 9c 8c 7c Ad Kd Qd Jd
C: 10d 9d 8d 7d Ah Kh Qh Jh 10h 9h
Talon: 8h 7h
Auction: A pass, B pass, C pass
1: 7s Qc 10d
Claim: A 9, B 0, C 0
"""

# The same hands under Sochi, where the talon is turned: its hearts lead the first two tricks and Vera's
# hearts take them.
RASPASY_OPEN = HEAD.format(id="raspasy-open") + """
Deal 1: dealer C
A: As Ks Qs Js 10s 9s 8s 7s Ac Kc
B: Qc Jc 10c 9c 8c 7c Ad Kd Qd Jd
C: 10d 9d 8d 7d Ah Kh Qh Jh 10h 9h
Talon: 8h 7h
Auction: A pass, B pass, C pass
1: 7s Qc 9h
2: 8s Jc 10h
Claim: A 8, B 0, C 0
"""

# DOWN_ONE's hands with Boris dealing, so Vera (first hand) leads; Boris whists alone and plays open, so
# he plays Vera's cards too.
OPEN_WHIST = HEAD.format(id="open-whist") + """
Deal 1: dealer B
A: As Ks Qs Js 10s Ac 10d 9d 8d 7d
B: 9s 8s 7s Ad Kd Qd Jd Ah Kh Qh
C: Kc Qc Jc 10c 9c 8c 7c Jh 10h 9h
Talon: 8h 7h
Auction: C pass, A 6s, B pass
Discard: A 8h 7h
Contract: A 6s
Whist: B whist, C pass, B open
1: 9h 10s Qh
Claim: A 5, B 4, C 0
"""
