from shopkit.pricing import to_decimal

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}


def format_money(amount, currency="EUR"):
    symbol = SYMBOLS.get(currency, currency)
    return f"{symbol}{to_decimal(amount):.2f}"


def parse_money(text):
    if not text:
        return None
    return float(text.lstrip("€$£"))
