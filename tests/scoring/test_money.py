"""``[WhistPrice]`` drives the settlement's money column: money = the result the rules show (method 1
under the Russian presets, exact under the Croatian) × the whist price, as seed 003 prices its example.

Before this, every replayed settlement priced the vist at 1 whatever the record said, so ``money``
always equalled ``exact``.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from preflog.engine.replay import audit
from preflog.record.api import read_text
from preflog.record.errors import RecordError
from preflog.scoring.settlement import whist_price_value
from preflog.views.json import settlement_json

ROOT = Path(__file__).resolve().parents[2]
SEED003 = (ROOT / "data" / "examples" / "seed003-settlement.pref").read_text(encoding="utf-8")


def _with_price(text: str, price: str) -> str:
    return text.replace('[Pool "14"]', f'[Pool "14"]\n[WhistPrice "{price}"]', 1)


def test_seed003_money_at_100_per_vist() -> None:
    """Seed 003 played "по 100 рублей за вист": «игрок З выиграл 31 вист (… 3100 руб.), игрок В проиграл
    30 вистов (3000 руб.), игрок Ю проиграл 1 вист (100 руб.)» — method 1's result (Sochi shows it)
    × 100. The exact result stays +30⅔ / −29⅓ / −1⅓ visty."""
    res = audit(read_text(_with_price(SEED003, "100")))
    assert not res.findings
    st = res.settlement
    assert st is not None
    assert st.exact == (Fraction(92, 3), Fraction(-88, 3), Fraction(-4, 3))
    assert st.method1 == (31, -30, -1)
    assert st.money == (3100, -3000, -100)
    assert settlement_json(res.players, st)["money"] == {"Запад": 3100, "Восток": -3000, "Юг": -100}


def test_method2_tables_pay_by_method2() -> None:
    """With ``settlement_rounding=method2`` the shown result is method 2's +31 / −29 / −2: at 100 a
    vist 3100 / −2900 / −200; with ``exact``, 100 × (92/3, −88/3, −4/3)."""
    text = _with_price(SEED003, "100")
    st = audit(read_text(text.replace('[Rules "sochi"]', '[Rules "sochi+settlement_rounding=method2"]'))).settlement
    assert st is not None and st.money == (3100, -2900, -200)
    st = audit(read_text(text.replace('[Rules "sochi"]', '[Rules "sochi+settlement_rounding=exact"]'))).settlement
    assert st is not None and st.money == (Fraction(9200, 3), Fraction(-8800, 3), Fraction(-400, 3))


@pytest.mark.parametrize("price, money", [
    # half a unit a vist: 31/2, −15, −1/2
    ("0.5", (Fraction(31, 2), -15, Fraction(-1, 2))),
    ("0,5", (Fraction(31, 2), -15, Fraction(-1, 2))),
    ("1/2", (Fraction(31, 2), -15, Fraction(-1, 2))),
    # a quarter: 31/4, −30/4 = −15/2, −1/4
    ("0.25", (Fraction(31, 4), Fraction(-15, 2), Fraction(-1, 4))),
    # playing for nothing
    ("0", (0, 0, 0)),
])
def test_price_forms(price: str, money: tuple[Fraction, ...]) -> None:
    """A price is written whole, as a decimal (point or comma) or as a fraction."""
    st = audit(read_text(_with_price(SEED003, price))).settlement
    assert st is not None and st.money == money


def test_default_price_is_one() -> None:
    """Without a ``[WhistPrice]`` tag a vist is worth 1: money equals the shown result (method 1)."""
    st = audit(read_text(SEED003)).settlement
    assert st is not None and st.money == (31, -30, -1)


def test_croatian_money_is_priced() -> None:
    """The Croatian scorer gives no money of its own; the engine prices it too. Seed 000's sample
    sheet settles at A +32, B −38, C +6 (its exact result); at ``[WhistPrice "2"]`` the money is
    A 64, B −76, C 12."""
    text = (ROOT / "data" / "examples" / "seed000-sample-sheet.pref").read_text(encoding="utf-8")
    res = audit(read_text(text.replace('[Pool "30"]', '[Pool "30"]\n[WhistPrice "2"]', 1)))
    st = res.settlement
    assert st is not None and st.exact == (32, -38, 6)
    assert st.money == (64, -76, 12)


@pytest.mark.parametrize("bad", ["abc", "1 руб", "-1", "1/0", "$5"])
def test_a_price_that_is_no_number_is_a_located_record_error(bad: str) -> None:
    """The reader refuses a price it cannot use, naming the tag's line and column."""
    with pytest.raises(RecordError) as err:
        read_text(_with_price(SEED003, bad), "seed.pref")
    e = err.value
    assert "is not a whist price" in str(e) and "seed.pref:12:" in str(e)


def test_whist_price_value() -> None:
    assert whist_price_value(" 100 ") == 100
    assert whist_price_value("2,50") == Fraction(5, 2)
    with pytest.raises(ValueError):
        whist_price_value("")
