"""Valuation of stock and cost of goods sold.

Layers are ``(quantity, unit_cost)`` tuples, oldest first. Unit costs are
:class:`~ledgerly.money.Money`.
"""

from decimal import Decimal

from ledgerly.journal import Entry, Posting, post_entry
from ledgerly.money import Money, MoneyError


def fifo_cost(layers, quantity):
    """Cost of issuing ``quantity`` units first-in first-out.

    Returns ``(cost, remaining_layers)``.
    """
    if not layers:
        raise MoneyError("no cost layers")
    remaining = list(layers)
    cost = Money(Decimal(0), remaining[0][1].currency)
    left = quantity
    while left > 0:
        if not remaining:
            raise MoneyError("not enough stock layers for %d units" % quantity)
        qty, unit = remaining[0]
        take = min(qty, left)
        cost = cost + unit * take
        left -= take
        if take == qty:
            remaining.pop(0)
        else:
            remaining[0] = (qty - take, unit)
    return cost, remaining


def average_cost(layers):
    """Weighted average unit cost of all layers."""
    total_qty = sum(q for q, _ in layers)
    if total_qty == 0:
        raise MoneyError("no stock to average")
    currency = layers[0][1].currency
    total = Money(Decimal(0), currency)
    for qty, unit in layers:
        total = total + unit * qty
    return Money(total.amount / total_qty, currency).quantize()


def record_cogs(journal, date, sku, cost, inventory_account="1400", cogs_account="5000"):
    """Book the cost of goods sold for an issue of ``sku``."""
    entry = Entry(
        date,
        "COGS %s" % sku,
        [Posting(cogs_account, cost), Posting(inventory_account, -cost)],
    )
    return post_entry(journal, entry)
