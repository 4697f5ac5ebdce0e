"""Quantities on hand, per SKU.

Stock levels are a plain dict ``{sku: quantity}`` that callers own and pass
in. SKUs are case-insensitive and written with dashes, so ``" ab 12"`` and
``"AB-12"`` are the same article.
"""


class StockError(ValueError):
    """Negative quantities or issuing more than is on hand."""


def receive_stock(levels, sku, quantity):
    """Add ``quantity`` units of ``sku`` and return the new level."""
    if quantity <= 0:
        raise StockError("received quantity must be positive, got %r" % quantity)
    key = sku.strip().upper().replace(" ", "-")
    levels[key] = levels.get(key, 0) + quantity
    return levels[key]


def issue_stock(levels, sku, quantity, allow_negative=False):
    """Take ``quantity`` units of ``sku`` out of stock and return the new level."""
    if quantity <= 0:
        raise StockError("issued quantity must be positive, got %r" % quantity)
    key = sku.strip().upper().replace(" ", "-")
    current = levels.get(key, 0)
    if current < quantity and not allow_negative:
        raise StockError("only %d of %s on hand, cannot issue %d" % (current, key, quantity))
    levels[key] = current - quantity
    return levels[key]


def stock_on_hand(levels, sku):
    """Units of ``sku`` on hand (0 for unknown articles)."""
    key = sku.strip().upper().replace(" ", "-")
    return levels.get(key, 0)


def low_stock(levels, threshold=5):
    """SKUs at or below ``threshold``, sorted."""
    return sorted(sku for sku, qty in levels.items() if qty <= threshold)
