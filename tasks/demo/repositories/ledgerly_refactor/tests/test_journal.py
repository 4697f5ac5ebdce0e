import datetime

import pytest

from ledgerly.journal import Entry, JournalError, Posting, make_entry, post_entry, reverse_entry, transfer
from ledgerly.money import parse_amount


def test_post_balanced_entry(journal, day):
    entry = make_entry(day, "Opening cash", [("1000", "500"), ("3000", "-500")])
    post_entry(journal, entry)
    assert len(journal) == 1
    assert journal.balance("1000").amount == 500


def test_unbalanced_entry_is_rejected(journal, day):
    entry = Entry(day, "Oops", [Posting("1000", parse_amount("10"))])
    with pytest.raises(JournalError):
        post_entry(journal, entry)


def test_closed_period(journal):
    journal.closed_before = datetime.date(2024, 1, 1)
    entry = make_entry("2023-12-31", "Late", [("1000", "1"), ("3000", "-1")])
    with pytest.raises(JournalError):
        post_entry(journal, entry)


def test_reverse_entry(journal, day):
    entry = post_entry(journal, make_entry(day, "Rent", [("6100", "800"), ("1200", "-800")]))
    reverse_entry(journal, entry)
    assert journal.balance("6100").is_zero()


def test_transfer(journal, day):
    transfer(journal, day, "1200", "1000", "50,00 \u20ac", "Cash withdrawal")
    assert journal.balance("1000").amount == 50
    assert journal.balance("1200").amount == -50
