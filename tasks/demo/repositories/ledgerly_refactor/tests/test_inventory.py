import datetime
from decimal import Decimal

import pytest

from ledgerly.inventory.stock import StockError, issue_stock, low_stock, receive_stock, stock_on_hand
from ledgerly.inventory.valuation import average_cost, fifo_cost, record_cogs
from ledgerly.money import Money


def test_receive_and_issue():
    levels = {}
    receive_stock(levels, " ab 12", 10)
    assert stock_on_hand(levels, "AB-12") == 10
    assert issue_stock(levels, "ab-12", 4) == 6


def test_cannot_issue_more_than_on_hand():
    levels = {"AB-12": 1}
    with pytest.raises(StockError):
        issue_stock(levels, "AB-12", 2)
    assert issue_stock(levels, "AB-12", 2, allow_negative=True) == -1


def test_low_stock():
    assert low_stock({"A": 1, "B": 10, "C": 5}) == ["A", "C"]


def test_fifo_and_average():
    layers = [(5, Money(Decimal("2.00"))), (5, Money(Decimal("3.00")))]
    cost, rest = fifo_cost(layers, 7)
    assert cost.amount == Decimal("16.00")
    assert rest == [(3, Money(Decimal("3.00")))]
    assert average_cost(layers).amount == Decimal("2.50")


def test_record_cogs(journal):
    record_cogs(journal, datetime.date(2024, 5, 2), "AB-12", Money(Decimal("16")))
    assert journal.balance("5000").amount == 16
