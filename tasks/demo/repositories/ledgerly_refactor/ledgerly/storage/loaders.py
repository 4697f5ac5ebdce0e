"""Load and save journal entries as CSV or JSON.

CSV files have one posting per row and the columns ``date``, ``reference``,
``description``, ``account`` and ``amount``; consecutive rows with the same
reference form one entry. JSON files hold a list of entries.
"""

import csv
import json

from ledgerly.journal import Entry, Posting, make_entry
from ledgerly.money import Money
from ledgerly.utils.dates import parse_date

REQUIRED_COLUMNS = ("date", "reference", "description", "account", "amount")


class LoadError(ValueError):
    """A file could not be read as journal entries."""


def read_csv_rows(path, delimiter=","):
    """Rows of a CSV file as dicts, with the header checked."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f, delimiter=delimiter)
        missing = [c for c in REQUIRED_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise LoadError("%s: missing columns %s" % (path, ", ".join(missing)))
        return list(reader)


def load_csv_entries(path, delimiter=","):
    """Group the rows of a CSV file into entries (not yet posted)."""
    entries, current, lines = [], None, []
    for row in read_csv_rows(path, delimiter):
        key = (row["date"], row["reference"], row["description"])
        if current is not None and key != current:
            entries.append(make_entry(current[0], current[2], lines, reference=current[1]))
            lines = []
        current = key
        lines.append((row["account"], row["amount"], row.get("memo", "")))
    if current is not None:
        entries.append(make_entry(current[0], current[2], lines, reference=current[1]))
    return entries


def _entry_to_dict(entry):
    return {
        "date": entry.date.isoformat(),
        "description": entry.description,
        "reference": entry.reference,
        "postings": [
            {
                "account": p.account,
                "amount": str(p.amount.amount),
                "currency": p.amount.currency,
                "memo": p.memo,
            }
            for p in entry.postings
        ],
    }


def dump_json_entries(entries, path):
    """Write entries as pretty JSON (UTF-8, non-ASCII kept readable)."""
    data = [_entry_to_dict(e) for e in entries]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return len(data)


def load_json_entries(path):
    """Read entries written by :func:`dump_json_entries`."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, list):
        raise LoadError("%s: expected a list of entries" % path)
    entries = []
    for item in data:
        postings = [
            Posting(p["account"], Money(p["amount"], p.get("currency", "EUR")), p.get("memo", ""))
            for p in item["postings"]
        ]
        entries.append(
            Entry(parse_date(item["date"]), item["description"], postings, item.get("reference", ""))
        )
    return entries
