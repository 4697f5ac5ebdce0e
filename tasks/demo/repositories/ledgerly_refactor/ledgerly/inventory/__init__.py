"""Stock keeping: quantities on hand and their valuation."""

from ledgerly.inventory.stock import StockError, issue_stock, receive_stock, stock_on_hand
from ledgerly.inventory.valuation import average_cost, fifo_cost, record_cogs

__all__ = [
    "StockError",
    "average_cost",
    "fifo_cost",
    "issue_stock",
    "receive_stock",
    "record_cogs",
    "stock_on_hand",
]
