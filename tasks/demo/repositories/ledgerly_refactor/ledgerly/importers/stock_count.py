"""Import a physical stock count and book the differences.

The count sheet is a CSV with ``sku``, ``counted`` and ``unit_cost`` columns.
Differences against the levels on record are received or issued, and the
value difference is posted against the inventory account.
"""

import csv

from ledgerly.inventory.stock import issue_stock, receive_stock, stock_on_hand
from ledgerly.journal import Entry, Posting, post_entry
from ledgerly.money import parse_amount

SHRINKAGE_ACCOUNT = "5100"
INVENTORY_ACCOUNT = "1400"


def read_count_sheet(path):
    counts = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            sku = row["sku"].strip().upper().replace(" ", "-")
            counts[sku] = (int(row["counted"]), parse_amount(row["unit_cost"]))
    return counts


def apply_count(journal, levels, counts, date):
    """Adjust ``levels`` to the counted quantities and book the value change."""
    adjustments = []
    for sku, (counted, unit_cost) in sorted(counts.items()):
        on_record = stock_on_hand(levels, sku)
        diff = counted - on_record
        if diff == 0:
            continue
        if diff > 0:
            receive_stock(levels, sku, diff)
        else:
            issue_stock(levels, sku, -diff)
        value = unit_cost * diff
        entry = Entry(
            date,
            "Stock count %s" % sku,
            [Posting(INVENTORY_ACCOUNT, value), Posting(SHRINKAGE_ACCOUNT, -value)],
        )
        post_entry(journal, entry)
        adjustments.append((sku, diff))
    return adjustments
