"""Exports of the journal for accountants and spreadsheets."""

import csv
import io

from ledgerly.currency import currency_symbol
from ledgerly.money import format_amount
from ledgerly.storage.loaders import dump_json_entries


def export_csv(journal):
    """One CSV row per posting: date, reference, description, account, amount."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["date", "reference", "description", "account", "amount", "currency"])
    for entry in journal:
        for posting in entry.postings:
            writer.writerow(
                [
                    entry.date.isoformat(),
                    entry.reference,
                    entry.description,
                    posting.account,
                    format_amount(posting.amount, symbol=False, thousands=""),
                    posting.amount.currency,
                ]
            )
    return buf.getvalue()


def export_json(journal, path):
    """Write the journal as JSON (the format :mod:`ledgerly.storage` reads back)."""
    return dump_json_entries(list(journal), path)


def currency_legend(journal):
    """``EUR (\u20ac), USD ($)``: the currencies a journal uses, for report footers."""
    codes = sorted({p.amount.currency for e in journal for p in e.postings})
    return ", ".join("%s (%s)" % (c, currency_symbol(c)) for c in codes)
