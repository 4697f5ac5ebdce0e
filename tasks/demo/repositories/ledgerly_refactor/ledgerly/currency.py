"""Currencies known to ledgerly.

Only the handful of currencies our users actually book in are listed. The
exponent is the number of minor-unit digits (ISO 4217), the symbol is what
reports print.
"""

CURRENCIES = {
    "EUR": {"symbol": "\u20ac", "exponent": 2, "name": "Euro"},
    "USD": {"symbol": "$", "exponent": 2, "name": "US Dollar"},
    "GBP": {"symbol": "\u00a3", "exponent": 2, "name": "Pound Sterling"},
    "CHF": {"symbol": "CHF", "exponent": 2, "name": "Swiss Franc"},
    "JPY": {"symbol": "\u00a5", "exponent": 0, "name": "Yen"},
    "SEK": {"symbol": "kr", "exponent": 2, "name": "Swedish Krona"},
}

DEFAULT_CURRENCY = "EUR"


class UnknownCurrency(KeyError):
    """Raised for a currency code that is not in :data:`CURRENCIES`."""


def currency_info(code):
    try:
        return CURRENCIES[code.upper()]
    except KeyError:
        raise UnknownCurrency(code) from None


def currency_exponent(code):
    """Number of decimal places used for ``code``."""
    return currency_info(code)["exponent"]


def currency_symbol(code):
    """Symbol printed in reports, e.g. ``\u20ac`` for EUR."""
    return currency_info(code)["symbol"]


def symbol_to_code(symbol):
    """Reverse lookup used when parsing amounts such as ``12,50 \u20ac``.

    Returns ``None`` when the symbol is unknown or ambiguous.
    """
    matches = [code for code, info in CURRENCIES.items() if info["symbol"] == symbol]
    if len(matches) == 1:
        return matches[0]
    return None
