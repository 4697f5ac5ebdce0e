"""ledgerly: small double-entry bookkeeping and stock keeping for workshops.

The public API is re-exported here so that scripts can write
``from ledgerly import Journal, parse_amount`` without knowing the layout.
"""

from ledgerly.accounts import Account, ChartOfAccounts
from ledgerly.journal import Entry, Journal, Posting, make_entry, post_entry
from ledgerly.money import Money, MoneyError, format_amount, parse_amount

__all__ = [
    "Account",
    "ChartOfAccounts",
    "Entry",
    "Journal",
    "Money",
    "MoneyError",
    "Posting",
    "format_amount",
    "make_entry",
    "parse_amount",
    "post_entry",
]

__version__ = "0.4.2"
