"""The journal: balanced entries made of postings.

An :class:`Entry` is balanced when its postings sum to zero per currency.
Positive amounts are debits, negative amounts are credits.
"""

import datetime
from dataclasses import dataclass, field

from ledgerly.money import Money, MoneyError, parse_amount, sum_amounts
from ledgerly.utils.dates import parse_date


class JournalError(ValueError):
    """An entry is unbalanced, empty or refers to a closed period."""


@dataclass
class Posting:
    account: str
    amount: Money
    memo: str = ""

    @property
    def is_debit(self):
        return self.amount.amount > 0


@dataclass
class Entry:
    date: datetime.date
    description: str
    postings: list = field(default_factory=list)
    reference: str = ""

    def currencies(self):
        return sorted({p.amount.currency for p in self.postings})

    def is_balanced(self):
        for currency in self.currencies():
            amounts = [p.amount for p in self.postings if p.amount.currency == currency]
            if not sum_amounts(amounts, currency).is_zero():
                return False
        return bool(self.postings)

    def accounts(self):
        return [p.account for p in self.postings]


class Journal:
    """All entries of one ledger, in posting order."""

    def __init__(self, chart=None, closed_before=None):
        self.chart = chart
        self.closed_before = closed_before
        self.entries = []

    def __len__(self):
        return len(self.entries)

    def __iter__(self):
        return iter(self.entries)

    def balance(self, account, currency="EUR"):
        amounts = [
            p.amount
            for e in self.entries
            for p in e.postings
            if p.account == account and p.amount.currency == currency
        ]
        return sum_amounts(amounts, currency)

    def between(self, start, end):
        return [e for e in self.entries if start <= e.date <= end]


def make_entry(date, description, lines, reference=""):
    """Build an :class:`Entry` from ``(account, amount_text[, memo])`` tuples."""
    postings = []
    for line in lines:
        account, text = line[0], line[1]
        memo = line[2] if len(line) > 2 else ""
        try:
            amount = parse_amount(text)
        except MoneyError as exc:
            raise JournalError("entry %r: %s" % (description, exc)) from None
        postings.append(Posting(str(account), amount, memo))
    if isinstance(date, str):
        date = parse_date(date)
    return Entry(date, description, postings, reference)


def post_entry(journal, entry):
    """Validate ``entry`` and append it to ``journal``.

    Raises :class:`JournalError` for unbalanced entries and for entries dated
    inside a closed period.
    """
    if not entry.postings:
        raise JournalError("entry %r has no postings" % entry.description)
    if not entry.is_balanced():
        raise JournalError("entry %r is not balanced" % entry.description)
    if journal.closed_before is not None and entry.date < journal.closed_before:
        raise JournalError("period before %s is closed" % journal.closed_before.isoformat())
    if journal.chart is not None:
        for account in entry.accounts():
            journal.chart.ensure(account)
    journal.entries.append(entry)
    return entry


def reverse_entry(journal, entry, date=None):
    """Post the mirror image of ``entry`` (for corrections)."""
    postings = [Posting(p.account, -p.amount, "reversal") for p in entry.postings]
    mirror = Entry(date or entry.date, "Reversal: " + entry.description, postings, entry.reference)
    return post_entry(journal, mirror)


def transfer(journal, date, source, target, amount_text, description="Transfer"):
    """Move money between two accounts with a two-line entry."""
    amount = parse_amount(amount_text)
    entry = Entry(
        parse_date(date) if isinstance(date, str) else date,
        description,
        [Posting(target, amount), Posting(source, -amount)],
    )
    return post_entry(journal, entry)
