"""Prices, discounts and totals."""
from decimal import Decimal

DEFAULT_RATE = 0.2
ROUNDING = None
STRICT = False


class PriceRule:
    name = "base"

    def applies(self, item):
        return True

    def compute_total(self, items):
        # a method with the same name as the module-level function below
        return len(items)


class BulkRule(PriceRule):
    name = "bulk"
    threshold = 10

    def applies(self, item):
        return item.quantity >= self.threshold


def apply_discount(amount, percent=10, *, cap=None, log=False):
    if percent < 0 or percent > 100:
        raise ValueError("percent out of range")
    result = amount * (100 - percent) / 100
    if cap is not None and amount - result > cap:
        result = amount - cap
    return result


def compute_total(items, discount=None, rate=DEFAULT_RATE):
    total = sum(item.subtotal() for item in items)
    if discount:
        total = apply_discount(total, discount)
    return round(total * (1 + rate), 2)


def to_decimal(value):
    return Decimal(str(value))


def scan(labels):
    for label in labels:
        if label.startswith("x"):
            continue
    if "." in labels[0]:
        return True
    return False
