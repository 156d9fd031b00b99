"""House-rule options of the Russian scorer: American help, whist liability, half-whist credit,
settlement divisors (issue 10). Every golden number is computed by hand in the test's docstring.

Seats: 0 = A, 1 = B, 2 = C; dealer 2 at three players unless said otherwise. ``V`` = game value
(6: 2, 7: 4, 8: 6, 9: 8, 10: 10).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from preflog.model.calls import CALL_PASS
from preflog.model.calls import CALL_WHIST
from preflog.model.outcome import DealKind
from preflog.model.outcome import DealOutcome
from preflog.rules import CROATIAN
from preflog.rules import LENINGRAD
from preflog.rules import SOCHI
from preflog.rules import Rules
from preflog.rules import RulesError
from preflog.rules import resolve
from preflog.scoring.russian import RussianScorer
from preflog.scoring.settlement import settle

from .test_russian_deals import game

W, P = CALL_WHIST, CALL_PASS


def scorer(rules: Rules = SOCHI, n: int = 3, pool: int = 50, pulya: list[int] | None = None,
           gora: list[int] | None = None) -> RussianScorer:
    s = RussianScorer(rules, n, pool)
    if pulya is not None:
        s.sheet.pulya = list(pulya)
    if gora is not None:
        s.sheet.gora = list(gora)
    return s


# ---------------------------------------------------------------- American help
def test_help_overflow_own_gora_may_go_negative() -> None:
    """help_overflow=own_gora. Pool 20, every pulya closed (20, 20, 20), goras A 3, B 0, C 5.
    A makes an 8 (V = 6): nobody can take a point, so all 6 come off A's gora: 3 − 6 = −3;
    B and C write nothing (today's rule would take 3 off A and put 3 on B and on C)."""
    s = scorer(SOCHI.replace(help_overflow="own_gora"), pool=20, pulya=[20, 20, 20], gora=[3, 0, 5])
    d = s.score(game(81, (8, 1, 1), {1: W, 2: W}))
    assert d.gora == (-6, 0, 0) and d.pulya == (0, 0, 0)
    assert s.sheet.gora == [-3, 0, 5]


def test_help_overflow_own_gora_to_zero_drops_the_rest() -> None:
    """help_overflow=own_gora_to_zero. Same deal: 3 of the 6 points take A's gora to 0, the other 3
    are dropped: goras 0, 0, 5."""
    s = scorer(SOCHI.replace(help_overflow="own_gora_to_zero"), pool=20, pulya=[20, 20, 20], gora=[3, 0, 5])
    d = s.score(game(81, (8, 1, 1), {1: W, 2: W}))
    assert d.gora == (-3, 0, 0) and s.sheet.gora == [0, 0, 5]
    assert "help 3 dropped" in d.note


def test_help_overflow_default_is_todays_rule() -> None:
    """The default (opponents_gora) is §B1 (American help, last step): 3 off A's gora, 6 − 3 = 3 onto B and C."""
    assert Rules().help_overflow == "opponents_gora"
    s = scorer(pool=20, pulya=[20, 20, 20], gora=[3, 0, 5])
    assert s.score(game(81, (8, 1, 1), {1: W, 2: W})).gora == (-3, 3, 3)


@pytest.mark.parametrize(("tie", "helped"), [("clockwise", 2), ("lowest_seat", 0)])
def test_help_tie_between_equal_pulyas(tie: str, helped: int) -> None:
    """Pool 20: A 16, B 20 (closed), C 16. B declares a 6 (V = 2) and makes it; his pulya is closed,
    A and C are equally large. Clockwise from B the first is C (seat 2): C +2, B writes 2 × 10 = 20
    visty on C. By lowest seat it is A (seat 0): A +2, 20 visty on A."""
    s = scorer(SOCHI.replace(help_tie=tie), pool=20, pulya=[16, 20, 16])
    d = s.score(game(61, (2, 6, 2), {0: W, 2: W}, declarer=1, dealer=0))
    assert d.pulya[helped] == 2 and d.visty[1][helped] == 20
    assert sum(d.pulya) == 2 and sum(d.visty[1]) == 20


def test_help_point_price_separate_from_settlement_price() -> None:
    """Leningrad (pool_point_visty 20) with help_point_visty=5. docs/rules.md §B1's example, pool 20:
    A 18, B 20, C 12; A declares an 8 (V = 6), both defenders pass (no play, no trick visty):
    A +2 → 20, C +4 → 16; A writes 4 × 5 = 20 visty on C (80 at the settlement price).
    Sheet: pulya 20/20/16, no gora, visty A→C 20.
    Settlement still prices the unequal pulya at 20: mean pulya 56/3, exact
    A = +20 + 20·(20 − 56/3) = 20 + 80/3 = 140/3; B = 0 + 80/3; C = −20 + 20·(16 − 56/3) = −20 − 160/3 = −220/3."""
    rules = LENINGRAD.replace(help_point_visty=5)
    s = scorer(rules, pool=20, pulya=[18, 20, 12])
    unplayed = game(81, (), kind=DealKind.NOT_WHISTED)
    d = s.score(unplayed)
    assert d.pulya == (2, 0, 4) and d.visty[0][2] == 20
    assert s.settlement().exact == (Fraction(140, 3), Fraction(80, 3), Fraction(-220, 3))
    assert scorer(LENINGRAD, pool=20, pulya=[18, 20, 12]).score(unplayed).visty[0][2] == 80


def test_help_options_are_typed_and_russian() -> None:
    """A float help price, an unknown tie word and a help option on Croatian rules are refused."""
    with pytest.raises(RulesError, match="help_point_visty"):
        SOCHI.replace(help_point_visty=7.5)
    with pytest.raises(RulesError, match="help_tie"):
        SOCHI.replace(help_tie="random")
    with pytest.raises(RulesError, match="russian family only"):
        CROATIAN.replace(help_overflow="own_gora")
    assert SOCHI.replace(help_point_visty="none").help_point_visty is None


# ---------------------------------------------------------------- whist liability
def test_half_responsible_whist_at_single_values() -> None:
    """whister_fail_mult=1/2: a missing trick costs V/2 in gora. Seed 003's 6-level deal with both
    whisting, B 1 and C 0 tricks (A 9): the side owes 4 and took 1, so it is short 3; quotas 2 + 2 →
    B short 1, C short 2. At V = 2 per trick that is gora 2 and 4 (today); at V/2 = 1 it is 1 and 2."""
    o = game(61, (9, 1, 0), {1: W, 2: W})
    assert scorer().score(o).gora == (0, 2, 4)
    assert scorer(SOCHI.replace(whister_fail_mult=Fraction(1, 2))).score(o).gora == (0, 1, 2)


def test_at_eight_both_whisters_share_at_half_price() -> None:
    """8-level (V = 6), both whist and take nothing (A 10): the side owes 1 trick and is short 1.
    high_level_liability=split: each answers for half the trick; at V/2 = 3 per trick each writes
    1/2 × 3 = 3/2 gora. Today's default (second whister, full V): C (second) 6, B 0."""
    o = game(81, (10, 0, 0), {1: W, 2: W})
    assert scorer().score(o).gora == (0, 0, 6)
    rules = SOCHI.replace(whister_fail_mult="1/2", high_level_liability="split")
    d = scorer(rules).score(o)
    assert d.gora == (0, Fraction(3, 2), Fraction(3, 2))


SEVEN_OWES_THREE = ((6, 4), (7, 3), (8, 1), (9, 1), (10, 1))


def test_proportional_shortfall_by_personal_deficits() -> None:
    """whist_shortfall_split=proportional, with a table where the side owes 3 tricks on a 7
    (whist_obligation 7:3). A declares 7 (V = 4), both whist, B takes 1, C 0 (A 9): the side is short
    3 − 1 = 2. Against 3/2 each, B's deficit is 1/2 and C's 3/2 (sum 2): B answers for 2 × 1/2 ÷ 2 =
    1/2 trick, C for 2 × 3/2 ÷ 2 = 3/2; gora B 1/2 × 4 = 2, C 3/2 × 4 = 6 (the whole shortfall,
    2 × 4 = 8). Capped (today) with whole quotas 3 // 2 = 1: B 0, C min(1, 2) = 1 → gora 4, and a
    missing trick is charged to nobody."""
    o = game(74, (9, 1, 0), {1: W, 2: W})
    base = SOCHI.replace(whist_obligation=SEVEN_OWES_THREE)
    assert scorer(base).score(o).gora == (0, 0, 4)
    assert scorer(base.replace(whist_shortfall_split="proportional")).score(o).gora == (0, 2, 6)


def test_proportional_at_eight_shares_and_equals_capped_at_six() -> None:
    """Proportional at 8 (V = 6), both whist with 0 tricks: deficits 1/2 and 1/2 share the one
    missing trick, 3 gora each (the default gives all 6 to the second whister). At 6 with the usual
    table (owes 4, halves 2 + 2) it is today's rule: B 3, C 0 (A 7) → short 1, only C has a deficit
    (2) → C gora 1 × 2 = 2."""
    rules = SOCHI.replace(whist_shortfall_split="proportional")
    assert scorer(rules).score(game(81, (10, 0, 0), {1: W, 2: W})).gora == (0, 3, 3)
    six = game(61, (7, 3, 0), {1: W, 2: W})
    assert scorer(rules).score(six).gora == scorer().score(six).gora == (0, 0, 2)


def test_personal_quota_when_short_and_always() -> None:
    """6-level (V = 2), both whist. Deal 1: B 3, C 0 (A 7): the side took 3 of 4, short 1. Capped
    (today) C answers for min(2 − 0, 1) = 1 → gora 2; personal_when_short: his whole quota 2 → gora 4.
    Deal 2: B 4, C 0 (A 6): the side took its 4. personal_when_short: nobody is charged;
    personal_always: C still answers for 2 − 0 = 2 → gora 4."""
    short, full = game(61, (7, 3, 0), {1: W, 2: W}), game(61, (6, 4, 0), {1: W, 2: W})
    when_short = SOCHI.replace(whist_shortfall_split="personal_when_short")
    always = SOCHI.replace(whist_shortfall_split="personal_always")
    assert scorer().score(short).gora == (0, 0, 2)
    assert scorer(when_short).score(short).gora == (0, 0, 4)
    assert scorer(when_short).score(full).gora == (0, 0, 0)
    assert scorer(always).score(full).gora == (0, 0, 4)
    liab = scorer(always).whist_liability(full)
    assert (liab[1].quota, liab[1].short, liab[2].quota, liab[2].short) == (2, 0, 2, 2)


# ---------------------------------------------------------------- half-whist credit
def test_half_whist_credit_as_a_fraction() -> None:
    """half_whist_tricks 7:3/2 (half of the 3 tricks the declarer may lose): a standing 7-level
    half-whist (V = 4) writes 3/2 × 4 = 6 visty instead of 1 × 4 = 4; A still writes V = 4 pulya.
    Under Leningrad's doubled visty (2V = 8 a trick) it is 3/2 × 8 = 12."""
    o = game(74, (), {1: P}, kind=DealKind.HALF_WHIST, half_whister=2)
    rules = SOCHI.replace(half_whist_tricks="[[6, 2], [7, 1.5]]")
    assert rules.half_whist_tricks == ((6, 2), (7, Fraction(3, 2)))
    assert scorer().score(o).visty[2][0] == 4
    d = scorer(rules).score(o)
    assert d.visty[2][0] == 6 and type(d.visty[2][0]) is int and d.pulya == (4, 0, 0)
    assert scorer(LENINGRAD.replace(half_whist_tricks=rules.half_whist_tricks)).score(o).visty[2][0] == 12


@pytest.mark.parametrize(("option", "value"), [
    ("half_whist_tricks", ((6, 2), (7.0, 1))),       # a level is a whole number
    ("game_values", ((6, 2.5), (7, 4))),              # a price is a whole number
    ("whist_obligation", [[6, 4.0]]),
    ("whister_fail_mult", True),
    ("whister_fail_mult", float("nan")),
    ("half_whist_tricks", ((6, "two"),)),
])
def test_table_options_are_type_checked(option: str, value: object) -> None:
    with pytest.raises(RulesError, match=option):
        SOCHI.replace(**{option: value})


HALF_WHIST_RECORD = """[Players "A, B, C"]
[Rules "sochi"]
[Option "half_whist_tricks=[[6,2],[7,1.5]]"]
[Option "whister_fail_mult=1/2"]
[Pool "20"]

Deal 1: dealer C
Contract: A 7s
Whist: B pass, C half
Score: A pulya 4 gora 0 visty B=0 C=0; C visty A=6

Deal 2: dealer A
Contract: B 6s
Whist: C whist, A whist
Tricks: A 0, B 7, C 3
"""


def test_fractional_options_in_a_record_round_trip() -> None:
    """[Option] tags with fractions import, audit (the Score line checked) and export unchanged.
    Deal 1 is the 7-level half-whist above: C writes 3/2 × 4 = 6 on A, A pulya 4. Deal 2: B makes a
    6 (V = 2), both whist, A takes 0 and C 3: C writes 3 × 2 = 6 on B; the side took 3 of 4, short 1;
    A's quota 2 capped by 1 → 1 missing trick at V/2 = 1 gora for A."""
    from preflog.engine.replay import audit
    from preflog.record.api import read_text
    from preflog.record.api import write_text

    events = read_text(HALF_WHIST_RECORD)
    res = audit(events)
    assert res.ok, res.codes()
    assert res.sheet is not None and res.sheet.gora == [1, 0, 0]
    assert res.sheet.visty[2][0] == 6 and res.sheet.visty[2][1] == 6
    again = read_text(write_text(events))
    assert [e.to_row() for e in again] == [e.to_row() for e in events]


def test_the_printed_rules_string_with_fractions_reads_back() -> None:
    """The spec `sheet --json` prints for that pulka names the fractions without quotes
    (`half_whist_tricks=[[6, 2], [7, 1.5]]+whister_fail_mult=1/2`), and a [Rules] tag holding it
    gives the same rules."""
    from preflog.engine.replay import audit
    from preflog.model.events import PulkaStarted
    from preflog.projections.facts import rules_spec
    from preflog.record.api import read_text

    events = read_text(HALF_WHIST_RECORD)
    started = events[0]
    assert isinstance(started, PulkaStarted)
    spec = rules_spec(started)
    assert spec == "sochi+half_whist_tricks=[[6, 2], [7, 1.5]]+whister_fail_mult=1/2"
    _, rest = HALF_WHIST_RECORD.split("[Pool", 1)
    fed_back = read_text(f'[Players "A, B, C"]\n[Rules "{spec}"]\n[Pool' + rest)
    assert audit(fed_back).rules == audit(events).rules


# ---------------------------------------------------------------- settlement
# seed 003's settlement as docs/rules.md §B1 reconstructs it: pulyas equal, goras З 8, В 19, Ю 14,
# net visty З −26, В +24, Ю +2 (В writes 24 on З, Ю writes 2 on З)
SEED3_PULYA = (20, 20, 20)
SEED3_GORA = (8, 19, 14)
SEED3_VISTY = ((0, 0, 0), (24, 0, 0), (2, 0, 0))


def test_seed3_settlement_with_gora_divided_by_n_minus_1() -> None:
    """settlement_divisor=others: each of the two others writes gora × 10 / 2 on its owner.
    Amnesty −8 → 0, 11, 6; В's 11 × 10 / 2 = 55 written by З and by Ю on В, Ю's 6 × 10 / 2 = 30 by З
    and by В on Ю (always whole, no point moved). З: −26 + 55 + 30 = 59; В: 24 − 2 × 55 + 30 = −56;
    Ю: 2 − 2 × 30 + 55 = −3. Exact (Σ gora 41): 10 × (41 − 3 × gora) / 2 → +85, −80, −5 plus the nets:
    59, −56, −3; the mean method gives the same (10 × (17 − 3 × amnestied) / 2). The default (÷ 3)
    is the seed's З +31, В −30, Ю −1."""
    rules = SOCHI.replace(settlement_divisor="others")
    st = settle(SEED3_PULYA, SEED3_GORA, SEED3_VISTY, rules)
    assert st.exact == (59, -56, -3) and st.method1 == (59, -56, -3) and st.method2 == (59, -56, -3)
    assert settle(SEED3_PULYA, SEED3_GORA, SEED3_VISTY, SOCHI).method1 == (31, -30, -1)


def test_four_player_settlement_divided_by_three() -> None:
    """docs/rules.md §B1's 4-player divisor example, goras 10/0/3/7, no visty. Default (÷ 4, mean 5):
    −50, +50, +20, −20. With settlement_divisor=others (÷ 3; Σ gora 20): 10 × (20 − 4 × gora) / 3 →
    exact −200/3, +200/3, +80/3, −80/3. Method 1: 10 × 10 = 100 and 10 × 7 = 70 do not divide by 3,
    so A drops to 9 and D to 6 gora (90 and 60 do), the three others each giving back 3 visty: nets
    A −9 + 3 = −6, B +6, C +6, D −6; shares g × 10 / 3 = 30, 0, 10, 20 (total 60), result
    net − 3 × share + (60 − share): A −6 − 90 + 30 = −66, B 6 + 60 = 66, C 6 − 30 + 50 = 26,
    D −6 − 60 + 40 = −26."""
    pulya, gora, visty = (20,) * 4, (10, 0, 3, 7), ((0,) * 4,) * 4
    assert settle(pulya, gora, visty, SOCHI).exact == (-50, 50, 20, -20)
    st = settle(pulya, gora, visty, SOCHI.replace(settlement_divisor="others"))
    assert st.exact == (Fraction(-200, 3), Fraction(200, 3), Fraction(80, 3), Fraction(-80, 3))
    assert st.method1 == (-66, 66, 26, -26)
    assert sum(st.method2) == 0


def test_unequal_pulyas_ignored_at_settlement() -> None:
    """settle_unequal_pulya=false. The help deal above left Leningrad pulyas 20/20/16 and A's 20 visty
    on C. Counted (default, 20 a point): A +140/3, B +80/3, C −220/3. Ignored: only the visty count —
    A +20, B 0, C −20, in every method."""
    pulya, gora, visty = (20, 20, 16), (0, 0, 0), ((0, 0, 20), (0, 0, 0), (0, 0, 0))
    assert settle(pulya, gora, visty, LENINGRAD).exact == (Fraction(140, 3), Fraction(80, 3), Fraction(-220, 3))
    st = settle(pulya, gora, visty, LENINGRAD.replace(settle_unequal_pulya=False))
    assert st.exact == (20, 0, -20) and st.method1 == (20, 0, -20) and st.method2 == (20, 0, -20)


# ---------------------------------------------------------------- frozen versions
LIABILITY_OPTIONS = {"help_overflow": "opponents_gora", "help_tie": "clockwise", "help_point_visty": None,
                     "whist_shortfall_split": "capped", "settlement_divisor": "players",
                     "settle_unequal_pulya": True}


def test_new_options_are_frozen_at_todays_behaviour_in_version_1() -> None:
    """Version 1's tables name every new option with the default that reproduces today's scoring, so
    a later change of a default cannot reach pulkas recorded under version 1; every preset of version
    1 carries those values, and a pulka's stored event (and so its content hash) does not change."""
    from preflog.model.events import PulkaStarted
    from preflog.rules.versions import presets_at
    from preflog.rules.versions import tables_at

    defaults = tables_at(1)["defaults"]
    for name, value in LIABILITY_OPTIONS.items():
        assert defaults[name] == value
        for preset in presets_at(1).values():
            assert getattr(preset, name) == value
    payload = PulkaStarted(("A", "B", "C"), "sochi", rules_version=1).to_row()[4]
    assert payload is not None and not any(name in payload for name in LIABILITY_OPTIONS)


# ---------------------------------------------------------------- bot-played pulkas
def _outcomes(spec: str, players: int, seeds: range) -> list[DealOutcome]:
    from preflog.sim import simulate_pulka

    out: list[DealOutcome] = []
    for seed in seeds:
        simulate_pulka(spec, players, seed, pool=10, outcomes=out)
    return out


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("split", ["personal_when_short", "personal_always", "proportional"])
def test_liability_gora_follows_the_allocation(players: int, split: str) -> None:
    """Over bot-played deals: with personal quotas each whister's gora is his ``short`` × V (the
    allocation projections read); proportionally, the two whisters' gora adds up to the side's
    shortfall × V and a whister without a deficit writes none."""
    rules = SOCHI.replace(american_help=False, whist_shortfall_split=split)
    charged = 0
    for o in _outcomes("sochi", players, range(6)):
        s = RussianScorer(rules, players, 10)
        ds = s.score(o)
        liability = s.whist_liability(o)
        if o.kind != DealKind.GAME or o.checked or not liability:
            continue
        price = s.contract_terms(o.contract).price
        assert price is not None
        gora = {w: ds.gora[w] for w in liability}
        if split == "proportional" and len(liability) == 2:
            need = dict(rules.whist_obligation)[o.contract // 10]
            side = sum(o.tricks) - o.tricks[o.declarer] - (o.tricks[o.dealer] if players == 4 else 0)
            assert sum(gora.values()) == max(0, need - side) * price, o
            assert all(gora[w] == 0 for w, li in liability.items() if li.short == 0), o
        else:
            assert gora == {w: li.short * price for w, li in liability.items()}, o
        charged += any(gora.values())
    assert charged > 0


def test_named_overrides_for_the_common_combinations() -> None:
    """Each convention has a named override; they combine in a spec and a record can name them."""
    r = resolve("sochi+half-v-shortfall+half-whist-1.5+gora-by-others+help-to-zero")
    assert (r.whister_fail_mult, r.half_whist_tricks, r.settlement_divisor, r.help_overflow) == (
        Fraction(1, 2), ((6, 2), (7, Fraction(3, 2))), "others", "own_gora_to_zero")
    assert resolve("leningrad+shortfall-by-deficit+help-lowest-seat+no-pulya-at-settlement").whist_shortfall_split \
        == "proportional"
    assert resolve("sochi+personal-shortfall+help-off-own-gora").help_overflow == "own_gora"
    with pytest.raises(RulesError, match="russian family only"):
        resolve("croatian+gora-by-others")


@pytest.mark.parametrize("spec", ["sochi+half-v-shortfall+half-whist-1.5+gora-by-others+help-to-zero",
                                  "leningrad+shortfall-by-deficit+help-lowest-seat+no-pulya-at-settlement"])
@pytest.mark.parametrize("players", [3, 4])
def test_bot_pulkas_under_the_house_rules_audit_clean_and_settle_to_zero(spec: str, players: int) -> None:
    """Whole bot-played pulkas under combined house rules replay without findings, every settlement
    sums to zero, and the record reads back as the same events (fractional options included)."""
    from preflog.engine.replay import audit
    from preflog.record.api import read_text
    from preflog.record.api import write_text
    from preflog.sim import simulate_pulka

    for seed in range(2):
        events = simulate_pulka(spec, players, seed, pool=10)
        res = audit(events)
        assert res.ok, res.codes()
        assert res.settlement is not None
        assert sum(res.settlement.exact) == sum(res.settlement.method1) == sum(res.settlement.method2) == 0
        assert read_text(write_text(events)) == events
