"""Money values: parsing, formatting and arithmetic.

Amounts are kept as :class:`decimal.Decimal` so that sums never drift. A
:class:`Money` always carries its currency; mixing currencies raises
:class:`MoneyError` instead of silently adding euros to dollars.
"""

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

from ledgerly.currency import DEFAULT_CURRENCY, currency_exponent, symbol_to_code


class MoneyError(ValueError):
    """An amount could not be parsed, or currencies were mixed."""


@dataclass(frozen=True)
class Money:
    amount: Decimal
    currency: str = DEFAULT_CURRENCY

    def __post_init__(self):
        if not isinstance(self.amount, Decimal):
            object.__setattr__(self, "amount", Decimal(str(self.amount)))

    def _check(self, other):
        if not isinstance(other, Money):
            raise MoneyError("cannot combine Money with %r" % (other,))
        if other.currency != self.currency:
            raise MoneyError("currency mismatch: %s vs %s" % (self.currency, other.currency))

    def __add__(self, other):
        self._check(other)
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other):
        self._check(other)
        return Money(self.amount - other.amount, self.currency)

    def __neg__(self):
        return Money(-self.amount, self.currency)

    def __mul__(self, factor):
        return Money(self.amount * Decimal(str(factor)), self.currency)

    __rmul__ = __mul__

    def is_zero(self):
        return self.amount == 0

    def quantize(self):
        """Round to the currency's minor unit (banker's rounding)."""
        exp = Decimal(1).scaleb(-currency_exponent(self.currency))
        return Money(self.amount.quantize(exp, rounding=ROUND_HALF_EVEN), self.currency)


_SPACES = re.compile(r"[\s\u00a0\u202f']")


def parse_amount(text, currency=None):
    """Parse a human-written amount into :class:`Money`.

    Accepts ``"12.50"``, ``"-3"``, ``"(12.50)"`` (accounting negative),
    ``"1 234,56 €"`` and ``"$1,234.56"``. When both ``.`` and ``,`` occur,
    the last one is the decimal separator.
    """
    if isinstance(text, Money):
        return text
    raw = str(text).strip()
    if not raw:
        raise MoneyError("empty amount")
    negative = False
    if raw.startswith("(") and raw.endswith(")"):
        negative = True
        raw = raw[1:-1].strip()
    code = currency
    for symbol in ("\u20ac", "$", "\u00a3", "\u00a5", "CHF", "kr"):
        if raw.startswith(symbol) or raw.endswith(symbol):
            found = symbol_to_code(symbol)
            if code is None:
                code = found
            raw = raw.replace(symbol, "").strip()
            break
    if raw.startswith("-"):
        negative = not negative
        raw = raw[1:]
    raw = _SPACES.sub("", raw)
    if "," in raw and "." in raw:
        if raw.rfind(",") > raw.rfind("."):
            raw = raw.replace(".", "").replace(",", ".")
        else:
            raw = raw.replace(",", "")
    elif "," in raw:
        head, _, tail = raw.rpartition(",")
        raw = head.replace(",", "") + "." + tail if len(tail) != 3 else raw.replace(",", "")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise MoneyError("not an amount: %r" % (text,)) from None
    if negative:
        value = -value
    return Money(value, code or DEFAULT_CURRENCY)


def format_amount(money, symbol=True, thousands=","):
    """Format ``money`` for reports: ``\u20ac1,234.50`` or ``-12.00 USD``."""
    from ledgerly.currency import currency_symbol

    q = money.quantize()
    sign = "-" if q.amount < 0 else ""
    digits = "{:,}".format(abs(q.amount)).replace(",", thousands)
    if symbol:
        return "%s%s%s" % (sign, currency_symbol(q.currency), digits)
    return "%s%s %s" % (sign, digits, q.currency)


def sum_amounts(values, currency=DEFAULT_CURRENCY):
    """Sum an iterable of :class:`Money` (an empty sum is zero in ``currency``)."""
    total = Money(Decimal(0), currency)
    for value in values:
        total = total + value
    return total


def allocate(money, ratios):
    """Split ``money`` by ``ratios`` so that the parts add up exactly.

    The rounding remainder goes to the first parts, one minor unit each.
    """
    if not ratios or sum(ratios) <= 0:
        raise MoneyError("ratios must be positive")
    exp = currency_exponent(money.currency)
    unit = Decimal(1).scaleb(-exp)
    total = sum(ratios)
    parts = [
        (money.amount * Decimal(r) / Decimal(total)).quantize(unit, rounding="ROUND_DOWN")
        for r in ratios
    ]
    remainder = money.amount - sum(parts)
    i = 0
    while remainder > 0:
        parts[i % len(parts)] += unit
        remainder -= unit
        i += 1
    return [Money(p, money.currency) for p in parts]
