"""Command line interface: ``ledgerly <command> [options]``.

Commands:
  add        post a two-line entry
  import     post the entries of a CSV file or a bank statement
  balance    print the trial balance
  stock      receive, issue or list stock
  export     write the journal as CSV or JSON
"""

import argparse
import json
import os
import sys

from ledgerly.accounts import default_chart
from ledgerly.config import Settings
from ledgerly.importers.bank import import_statement
from ledgerly.inventory.stock import StockError, issue_stock, receive_stock, stock_on_hand
from ledgerly.journal import Entry, Journal, JournalError, Posting, post_entry
from ledgerly.money import MoneyError, format_amount, parse_amount
from ledgerly.reports.balance import format_table, render_trial_balance
from ledgerly.reports.export import export_csv
from ledgerly.storage.loaders import dump_json_entries, load_csv_entries, load_json_entries
from ledgerly.utils.dates import parse_date


def open_journal(settings):
    journal = Journal(chart=default_chart())
    path = settings["journal"]
    if os.path.exists(path):
        for entry in load_json_entries(path):
            post_entry(journal, entry)
    return journal


def save_journal(journal, settings):
    dump_json_entries(list(journal), settings["journal"])


def load_levels(settings):
    path = settings["stock"]
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def save_levels(levels, settings):
    with open(settings["stock"], "w", encoding="utf-8") as f:
        json.dump(levels, f, indent=2, sort_keys=True)


def cmd_add(args, settings):
    journal = open_journal(settings)
    amount = parse_amount(args.amount, settings["currency"])
    entry = Entry(
        parse_date(args.date),
        args.description,
        [Posting(args.debit, amount), Posting(args.credit, -amount)],
        args.reference or "",
    )
    post_entry(journal, entry)
    save_journal(journal, settings)
    print("posted %s %s" % (format_amount(amount), args.description))
    return 0


def cmd_import(args, settings):
    journal = open_journal(settings)
    if args.bank:
        posted, skipped = import_statement(journal, args.path)
        for line, reason in skipped:
            print("line %d skipped: %s" % (line, reason), file=sys.stderr)
    else:
        posted = 0
        for entry in load_csv_entries(args.path):
            post_entry(journal, entry)
            posted += 1
    save_journal(journal, settings)
    print("imported %d entries" % posted)
    return 0


def cmd_balance(args, settings):
    journal = open_journal(settings)
    print(render_trial_balance(journal, args.currency or settings["currency"]))
    return 0


def cmd_stock(args, settings):
    levels = load_levels(settings)
    if args.action == "list":
        rows = [[sku, str(stock_on_hand(levels, sku))] for sku in sorted(levels)]
        print(format_table(rows, ["SKU", "On hand"]))
        return 0
    sku = args.sku.strip().upper().replace(" ", "-")
    if args.action == "receive":
        level = receive_stock(levels, sku, args.quantity)
    else:
        level = issue_stock(levels, sku, args.quantity)
    save_levels(levels, settings)
    print("%s: %d on hand" % (sku, level))
    return 0


def cmd_export(args, settings):
    journal = open_journal(settings)
    if args.format == "csv":
        sys.stdout.write(export_csv(journal))
    else:
        count = dump_json_entries(list(journal), args.output)
        print("wrote %d entries to %s" % (count, args.output))
    return 0


def build_parser():
    parser = argparse.ArgumentParser(prog="ledgerly", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("add", help="post a two-line entry")
    p.add_argument("date")
    p.add_argument("description")
    p.add_argument("amount")
    p.add_argument("--debit", required=True)
    p.add_argument("--credit", required=True)
    p.add_argument("--reference")
    p.set_defaults(func=cmd_add)

    p = sub.add_parser("import", help="import entries")
    p.add_argument("path")
    p.add_argument("--bank", action="store_true", help="the file is a bank statement")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("balance", help="print the trial balance")
    p.add_argument("--currency")
    p.set_defaults(func=cmd_balance)

    p = sub.add_parser("stock", help="stock keeping")
    p.add_argument("action", choices=["receive", "issue", "list"])
    p.add_argument("sku", nargs="?", default="")
    p.add_argument("quantity", nargs="?", type=int, default=0)
    p.set_defaults(func=cmd_stock)

    p = sub.add_parser("export", help="export the journal")
    p.add_argument("--format", choices=["csv", "json"], default="csv")
    p.add_argument("--output", default="export.json")
    p.set_defaults(func=cmd_export)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = Settings.load()
    try:
        return args.func(args, settings)
    except (JournalError, MoneyError, StockError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
