from decimal import Decimal

import pytest

from ledgerly.money import Money, MoneyError, allocate, format_amount, parse_amount, sum_amounts


@pytest.mark.parametrize(
    "text, expected",
    [
        ("12.50", "12.50"),
        ("-3", "-3"),
        ("(12.50)", "-12.50"),
        ("1 234,56 \u20ac", "1234.56"),
        ("1.234,5", "1234.5"),
        ("$1,234.56", "1234.56"),
    ],
)
def test_parse_amount(text, expected):
    assert parse_amount(text).amount == Decimal(expected)


def test_parse_amount_currency_from_symbol():
    assert parse_amount("\u00a312").currency == "GBP"
    assert parse_amount("12", "USD").currency == "USD"


def test_parse_amount_rejects_garbage():
    with pytest.raises(MoneyError):
        parse_amount("twelve")
    with pytest.raises(MoneyError):
        parse_amount("   ")


def test_mixing_currencies_fails():
    with pytest.raises(MoneyError):
        Money(Decimal(1), "EUR") + Money(Decimal(1), "USD")


def test_format_amount():
    assert format_amount(parse_amount("1234.5")) == "\u20ac1,234.50"
    assert format_amount(parse_amount("-12", "USD"), symbol=False) == "-12.00 USD"


def test_sum_and_allocate():
    parts = allocate(parse_amount("100"), [1, 1, 1])
    assert [p.amount for p in parts] == [Decimal("33.34"), Decimal("33.33"), Decimal("33.33")]
    assert sum_amounts(parts).amount == Decimal("100")
