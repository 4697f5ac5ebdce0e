"""Import a bank statement (CSV export of the bank's web portal).

Every statement line becomes a two-line entry between the bank account and a
counter account chosen by simple payee rules.
"""

from ledgerly.journal import Entry, JournalError, Posting, post_entry
from ledgerly.money import parse_amount
from ledgerly.storage.loaders import read_csv_rows
from ledgerly.utils.dates import parse_date

BANK_ACCOUNT = "1200"
SUSPENSE_ACCOUNT = "1999"

DEFAULT_RULES = (
    ("miete", "6100"),
    ("rent", "6100"),
    ("geb\u00fchr", "6200"),
    ("fee", "6200"),
)


def counter_account(payee, rules=DEFAULT_RULES):
    """The account a statement line is booked against, by payee substring."""
    lowered = payee.lower()
    for needle, account in rules:
        if needle in lowered:
            return account
    return SUSPENSE_ACCOUNT


def statement_entry(row, rules=DEFAULT_RULES):
    amount = parse_amount(row["amount"])
    return Entry(
        parse_date(row["date"]),
        row["description"],
        [
            Posting(BANK_ACCOUNT, amount),
            Posting(counter_account(row["description"], rules), -amount),
        ],
        row.get("reference", ""),
    )


def import_statement(journal, path, rules=DEFAULT_RULES):
    """Post every line of the statement at ``path``; return (posted, skipped)."""
    posted, skipped = 0, []
    for number, row in enumerate(read_csv_rows(path, delimiter=";"), start=2):
        try:
            post_entry(journal, statement_entry(row, rules))
        except JournalError as exc:
            skipped.append((number, str(exc)))
            continue
        posted += 1
    return posted, skipped
