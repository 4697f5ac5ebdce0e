"""Stock summary report."""

from ledgerly.inventory.stock import low_stock, stock_on_hand
from ledgerly.reports.balance import format_table


def stock_summary(levels, skus=None, threshold=5):
    """Text table of quantities on hand; low articles are flagged with ``!``."""
    low = set(low_stock(levels, threshold))
    rows = []
    for sku in sorted(skus if skus is not None else levels):
        qty = stock_on_hand(levels, sku)
        rows.append([sku, str(qty), "!" if sku in low else ""])
    return format_table(rows, ["SKU", "On hand", "Low"], align="<><")
