#!/usr/bin/env python3
"""Regenerate the demo submissions: patches, predictions files and trajectories.

Each patch is produced by editing a fresh copy of the base repository and
taking `git diff`; the trajectories replay their edits on a real copy too, so
observations show real file content and every `info.submission` is the real
diff. Run it after changing a base repository, then `python3 check.py` to
recompute expected-verdicts.json:

    python3 tasks/demo/tools/regenerate.py
    python3 tasks/demo/check.py

Standard library only; needs git. Output is deterministic.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

DEMO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(DEMO, "repositories", "ledgerly_refactor")
TINY = os.path.join(DEMO, "repositories", "tinyfeed_refactor")
OUT = os.path.join(DEMO, "submissions")
TMP = tempfile.mkdtemp(prefix="refscore-demo-regen-")
WORK = os.path.join(TMP, "work")
ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull,
           GIT_AUTHOR_NAME="demo", GIT_AUTHOR_EMAIL="demo@localhost",
           GIT_COMMITTER_NAME="demo", GIT_COMMITTER_EMAIL="demo@localhost",
           GIT_AUTHOR_DATE="2000-01-01T00:00:00+0000", GIT_COMMITTER_DATE="2000-01-01T00:00:00+0000")


def git(*args, cwd=WORK):
    return subprocess.run(["git", *args], cwd=cwd, env=ENV, check=True,
                          stdout=subprocess.PIPE).stdout


def fresh(base=BASE):
    if os.path.exists(WORK):
        shutil.rmtree(WORK)
    shutil.copytree(base, WORK)
    git("init", "-q")
    with open(os.path.join(WORK, ".git/info/attributes"), "w") as f:
        f.write("* -text -filter -ident\n")
    git("add", "-A", "-f")
    git("commit", "-qm", "base")


def read(path):
    with open(os.path.join(WORK, path), "rb") as f:
        return f.read().decode("utf-8")


def write(path, text):
    full = os.path.join(WORK, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(text.encode("utf-8"))


def r(path, old, new, count=1):
    text = read(path)
    crlf = "\r\n" in text
    if crlf:
        old = old.replace("\n", "\r\n")
        new = new.replace("\n", "\r\n")
    n = text.count(old)
    if count is not None and n != count:
        sys.exit("%s: expected %d occurrences of %r, found %d" % (path, count, old, n))
    if n == 0:
        sys.exit("%s: %r not found" % (path, old))
    write(path, text.replace(old, new))


def rm(path):
    os.unlink(os.path.join(WORK, path))


M = ["-M"]  # rename detection flags for git diff


def diff():
    git("add", "-A", "-f")
    return git("diff", "--cached", "--no-color", "--no-ext-diff", *M)


def save(name, data):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    print("wrote", name, len(data))


# ---------------------------------------------------------------- task 1
def rename_parse_amount(full=True, broken=False):
    r("ledgerly/money.py", "def parse_amount(text, currency=None):", "def parse_money(text, currency=None):")
    r("ledgerly/__init__.py", "format_amount, parse_amount\n", "format_amount, parse_money\n")
    r("ledgerly/__init__.py", '    "parse_amount",\n    "post_entry",\n', '    "parse_money",\n    "post_entry",\n')
    r("ledgerly/__init__.py", "``from ledgerly import Journal, parse_amount``", "``from ledgerly import Journal, parse_money``")
    r("ledgerly/journal.py", "MoneyError, parse_amount, sum_amounts", "MoneyError, parse_money, sum_amounts")
    r("ledgerly/journal.py", "amount = parse_amount(", "amount = parse_money(", count=2)
    r("tests/test_money.py", "parse_amount", "parse_money", count=None)
    if not full:
        return
    r("ledgerly/importers/bank.py", "import parse_amount", "import parse_money")
    r("ledgerly/importers/bank.py", 'amount = parse_amount(row["amount"])', 'amount = parse_money(row["amount"])')
    r("ledgerly/importers/stock_count.py", "import parse_amount", "import parse_money")
    r("ledgerly/importers/stock_count.py", 'parse_amount(row["unit_cost"])', 'parse_money(row["unit_cost"])')
    r("ledgerly/cli.py", "format_amount, parse_amount", "format_amount, parse_money")
    if broken:
        r("ledgerly/cli.py", 'amount = parse_amount(args.amount, settings["currency"])',
          'amount = parse_money(args.amount, settings["currency"]')
    else:
        r("ledgerly/cli.py", 'amount = parse_amount(args.amount, settings["currency"])',
          'amount = parse_money(args.amount, settings["currency"])')
    r("tests/test_journal.py", "parse_amount", "parse_money", count=2)
    r("docs/api.rst", "MoneyError, parse_amount, format_amount", "MoneyError, parse_money, format_amount")
    r("docs/usage.md", "understood by `parse_amount`:", "understood by `parse_money`:")
    r("README.md", "`Money`, `parse_amount`, `format_amount`", "`Money`, `parse_money`, `format_amount`")


# ---------------------------------------------------------------- task 2
FORMAT_TABLE = '''

def format_table(rows, headers, align=None):
    """Render ``rows`` (lists of strings) as a fixed-width text table.

    ``align`` is a string with one of ``<``, ``>`` or ``^`` per column;
    by default the first column is left-aligned and the others right-aligned.
    """
    columns = len(headers)
    if align is None:
        align = "<" + ">" * (columns - 1)
    widths = [len(h) for h in headers]
    for row in rows:
        if len(row) != columns:
            raise ValueError("row has %d cells, expected %d" % (len(row), columns))
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    def line(cells):
        return "  ".join("{:{}{}}".format(c, align[i], widths[i]) for i, c in enumerate(cells))
    out = [line(headers), "  ".join("-" * w for w in widths)]
    out.extend(line(row) for row in rows)
    return "\\n".join(out)
'''


def move_format_table():
    text = read("ledgerly/reports/balance.py")
    start = text.index("def format_table(")
    end = text.index("def trial_balance(")
    text = text[:start] + text[end:]
    text = text.replace('"""Trial balance and the plain-text table renderer used by every report."""',
                        '"""Trial balance report."""')
    text = text.replace("from ledgerly.money import Money, format_amount\n",
                        "from ledgerly.money import Money, format_amount\nfrom ledgerly.utils.text import format_table\n")
    write("ledgerly/reports/balance.py", text)
    t = read("ledgerly/utils/text.py")
    write("ledgerly/utils/text.py", t + FORMAT_TABLE.replace("\n", "\r\n"))
    r("ledgerly/reports/inventory_report.py", "from ledgerly.reports.balance import format_table",
      "from ledgerly.utils.text import format_table")
    r("ledgerly/cli.py", "from ledgerly.reports.balance import format_table, render_trial_balance\n",
      "from ledgerly.reports.balance import render_trial_balance\n")
    r("ledgerly/cli.py", "from ledgerly.utils.dates import parse_date\n",
      "from ledgerly.utils.dates import parse_date\nfrom ledgerly.utils.text import format_table\n")
    r("tests/test_reports.py", "from ledgerly.reports.balance import format_table, render_trial_balance, trial_balance\n",
      "from ledgerly.reports.balance import render_trial_balance, trial_balance\n")
    r("tests/test_reports.py", "from ledgerly.reports.inventory_report import stock_summary\n",
      "from ledgerly.reports.inventory_report import stock_summary\nfrom ledgerly.utils.text import format_table\n")
    r("docs/api.rst", ":members: trial_balance, render_trial_balance, format_table", ":members: trial_balance, render_trial_balance")


# ---------------------------------------------------------------- task 3
def add_log_post_entry(full=True):
    r("ledgerly/journal.py", "import datetime\n", "import datetime\nimport logging\n")
    r("ledgerly/journal.py", "from ledgerly.utils.dates import parse_date\n",
      "from ledgerly.utils.dates import parse_date\n\nlogger = logging.getLogger(__name__)\n")
    r("ledgerly/journal.py", "def post_entry(journal, entry):", "def post_entry(journal, entry, log=False):")
    r("ledgerly/journal.py", "    inside a closed period.\n", "    inside a closed period. With ``log=True`` the posting is logged at INFO level.\n")
    r("ledgerly/journal.py", "    journal.entries.append(entry)\n    return entry\n",
      "    journal.entries.append(entry)\n    if log:\n        logger.info(\"posted %s on %s\", entry.description, entry.date.isoformat())\n    return entry\n")
    r("ledgerly/journal.py", "return post_entry(journal, mirror)", "return post_entry(journal, mirror, log=True)")
    r("ledgerly/journal.py", "return post_entry(journal, entry)", "return post_entry(journal, entry, log=True)")
    r("ledgerly/inventory/valuation.py", "return post_entry(journal, entry)", "return post_entry(journal, entry, log=True)")
    r("ledgerly/importers/bank.py", "post_entry(journal, statement_entry(row, rules))",
      "post_entry(journal, statement_entry(row, rules), log=True)")
    if not full:
        return
    r("ledgerly/importers/stock_count.py", "post_entry(journal, entry)", "post_entry(journal, entry, log=True)")
    r("ledgerly/cli.py", "post_entry(journal, entry)", "post_entry(journal, entry, log=True)", count=3)


# ---------------------------------------------------------------- task 4
STOCK_LEDGER = '''

class StockLedger:
    """Quantities on hand, per SKU, for one store.

    ``levels`` is the ``{sku: quantity}`` dict the ledger works on; pass an
    existing dict (for instance one loaded from ``stock.json``) to share it.
    """

    def __init__(self, levels=None):
        self.levels = levels if levels is not None else {}

    @staticmethod
    def _key(sku):
        return sku.strip().upper().replace(" ", "-")

    def receive(self, sku, quantity):
        """Add ``quantity`` units of ``sku`` and return the new level."""
        if quantity <= 0:
            raise StockError("received quantity must be positive, got %r" % quantity)
        key = self._key(sku)
        self.levels[key] = self.levels.get(key, 0) + quantity
        return self.levels[key]

    def issue(self, sku, quantity, allow_negative=False):
        """Take ``quantity`` units of ``sku`` out of stock and return the new level."""
        if quantity <= 0:
            raise StockError("issued quantity must be positive, got %r" % quantity)
        key = self._key(sku)
        current = self.levels.get(key, 0)
        if current < quantity and not allow_negative:
            raise StockError("only %d of %s on hand, cannot issue %d" % (current, key, quantity))
        self.levels[key] = current - quantity
        return self.levels[key]

    def on_hand(self, sku):
        """Units of ``sku`` on hand (0 for unknown articles)."""
        return self.levels.get(self._key(sku), 0)

    def low_stock(self, threshold=5):
        """SKUs at or below ``threshold``, sorted."""
        return low_stock(self.levels, threshold)
'''


def stock_ledger_class(callers=True):
    if True:
        text = read("ledgerly/inventory/stock.py")
        start = text.index("def receive_stock(")
        end = text.index("def low_stock(")
        text = text[:start] + text[end:]
        text = text.replace("Stock levels are a plain dict ``{sku: quantity}`` that callers own and pass\nin.",
                            "A :class:`StockLedger` wraps the ``{sku: quantity}`` dict of one store.")
        write("ledgerly/inventory/stock.py", text.rstrip("\n") + "\n" + STOCK_LEDGER)
    r("ledgerly/inventory/__init__.py",
      "from ledgerly.inventory.stock import StockError, issue_stock, receive_stock, stock_on_hand",
      "from ledgerly.inventory.stock import StockError, StockLedger, low_stock")
    r("ledgerly/inventory/__init__.py", '    "StockError",\n', '    "StockError",\n    "StockLedger",\n')
    r("ledgerly/inventory/__init__.py", '    "issue_stock",\n    "receive_stock",\n    "record_cogs",\n    "stock_on_hand",\n',
      '    "low_stock",\n    "record_cogs",\n')
    if not callers:
        return
    r("ledgerly/cli.py", "from ledgerly.inventory.stock import StockError, issue_stock, receive_stock, stock_on_hand",
      "from ledgerly.inventory.stock import StockError, StockLedger")
    r("ledgerly/cli.py", "    levels = load_levels(settings)\n    if args.action == \"list\":\n        rows = [[sku, str(stock_on_hand(levels, sku))] for sku in sorted(levels)]",
      "    levels = load_levels(settings)\n    ledger = StockLedger(levels)\n    if args.action == \"list\":\n        rows = [[sku, str(ledger.on_hand(sku))] for sku in sorted(levels)]")
    r("ledgerly/cli.py", "level = receive_stock(levels, sku, args.quantity)", "level = ledger.receive(sku, args.quantity)")
    r("ledgerly/cli.py", "level = issue_stock(levels, sku, args.quantity)", "level = ledger.issue(sku, args.quantity)")
    r("ledgerly/reports/inventory_report.py", "from ledgerly.inventory.stock import low_stock, stock_on_hand",
      "from ledgerly.inventory.stock import StockLedger")
    r("ledgerly/reports/inventory_report.py",
      "    low = set(low_stock(levels, threshold))\n", "    ledger = StockLedger(levels)\n    low = set(ledger.low_stock(threshold))\n")
    r("ledgerly/reports/inventory_report.py", "qty = stock_on_hand(levels, sku)", "qty = ledger.on_hand(sku)")
    r("ledgerly/importers/stock_count.py", "from ledgerly.inventory.stock import issue_stock, receive_stock, stock_on_hand",
      "from ledgerly.inventory.stock import StockLedger")
    r("ledgerly/importers/stock_count.py", "    adjustments = []\n", "    ledger = StockLedger(levels)\n    adjustments = []\n")
    r("ledgerly/importers/stock_count.py", "on_record = stock_on_hand(levels, sku)", "on_record = ledger.on_hand(sku)")
    r("ledgerly/importers/stock_count.py", "receive_stock(levels, sku, diff)", "ledger.receive(sku, diff)")
    r("ledgerly/importers/stock_count.py", "issue_stock(levels, sku, -diff)", "ledger.issue(sku, -diff)")
    t = "tests/test_inventory.py"
    r(t, "from ledgerly.inventory.stock import StockError, issue_stock, low_stock, receive_stock, stock_on_hand",
      "from ledgerly.inventory.stock import StockError, StockLedger, low_stock")
    r(t, '    levels = {}\n    receive_stock(levels, " ab 12", 10)\n    assert stock_on_hand(levels, "AB-12") == 10\n    assert issue_stock(levels, "ab-12", 4) == 6\n',
      '    ledger = StockLedger()\n    ledger.receive(" ab 12", 10)\n    assert ledger.on_hand("AB-12") == 10\n    assert ledger.issue("ab-12", 4) == 6\n')
    r(t, '    levels = {"AB-12": 1}\n    with pytest.raises(StockError):\n        issue_stock(levels, "AB-12", 2)\n    assert issue_stock(levels, "AB-12", 2, allow_negative=True) == -1\n',
      '    ledger = StockLedger({"AB-12": 1})\n    with pytest.raises(StockError):\n        ledger.issue("AB-12", 2)\n    assert ledger.issue("AB-12", 2, allow_negative=True) == -1\n')


# ---------------------------------------------------------------- task 5
def split_loaders():
    text = read("ledgerly/storage/loaders.py")
    i_csv = text.index("def read_csv_rows(")
    i_dict = text.index("def _entry_to_dict(")
    csv_part = text[i_csv:i_dict].rstrip("\n") + "\n"
    json_part = text[i_dict:]
    write("ledgerly/storage/csv_loader.py", '''"""Load journal entries from CSV.

CSV files have one posting per row and the columns ``date``, ``reference``,
``description``, ``account`` and ``amount``; consecutive rows with the same
reference form one entry.
"""

import csv

from ledgerly.journal import make_entry

REQUIRED_COLUMNS = ("date", "reference", "description", "account", "amount")


class LoadError(ValueError):
    """A file could not be read as journal entries."""


''' + csv_part)
    write("ledgerly/storage/json_loader.py", '''"""Save and load journal entries as JSON (a list of entries)."""

import json

from ledgerly.journal import Entry, Posting
from ledgerly.money import Money
from ledgerly.storage.csv_loader import LoadError
from ledgerly.utils.dates import parse_date


''' + json_part)
    rm("ledgerly/storage/loaders.py")
    write("ledgerly/storage/__init__.py", '''"""Reading and writing journals on disk."""

from ledgerly.storage.csv_loader import LoadError, load_csv_entries, read_csv_rows
from ledgerly.storage.json_loader import dump_json_entries, load_json_entries

__all__ = [
    "LoadError",
    "dump_json_entries",
    "load_csv_entries",
    "load_json_entries",
    "read_csv_rows",
]
''')
    r("ledgerly/reports/export.py", "from ledgerly.storage.loaders import dump_json_entries",
      "from ledgerly.storage.json_loader import dump_json_entries")
    r("ledgerly/importers/bank.py", "from ledgerly.storage.loaders import read_csv_rows",
      "from ledgerly.storage.csv_loader import read_csv_rows")
    r("ledgerly/cli.py", "from ledgerly.storage.loaders import dump_json_entries, load_csv_entries, load_json_entries\n",
      "from ledgerly.storage.csv_loader import load_csv_entries\nfrom ledgerly.storage.json_loader import dump_json_entries, load_json_entries\n")
    r("tests/test_storage.py", "from ledgerly.storage.loaders import dump_json_entries, load_csv_entries, load_json_entries\n",
      "from ledgerly.storage.csv_loader import load_csv_entries\nfrom ledgerly.storage.json_loader import dump_json_entries, load_json_entries\n")
    r("docs/api.rst", ".. automodule:: ledgerly.storage.loaders\n   :members: read_csv_rows, load_csv_entries, load_json_entries, dump_json_entries\n",
      ".. automodule:: ledgerly.storage.csv_loader\n   :members: read_csv_rows, load_csv_entries\n\n.. automodule:: ledgerly.storage.json_loader\n   :members: load_json_entries, dump_json_entries\n")


# ---------------------------------------------------------------- task 6
NORMALIZE = '''

def normalize_sku(raw):
    """Canonical SKU: trimmed, upper case, spaces as dashes (`` ab 12`` -> ``AB-12``)."""
    return raw.strip().upper().replace(" ", "-")
'''


def extract_normalize_sku():
    t = read("ledgerly/utils/text.py")
    write("ledgerly/utils/text.py", t + NORMALIZE.replace("\n", "\r\n"))
    s = "ledgerly/inventory/stock.py"
    r(s, '"""\n\n\nclass StockError', '"""\n\nfrom ledgerly.utils.text import normalize_sku\n\n\nclass StockError')
    r(s, 'key = sku.strip().upper().replace(" ", "-")', "key = normalize_sku(sku)", count=3)
    c = "ledgerly/importers/stock_count.py"
    r(c, "from ledgerly.money import parse_amount\n", "from ledgerly.money import parse_amount\nfrom ledgerly.utils.text import normalize_sku\n")
    r(c, 'sku = row["sku"].strip().upper().replace(" ", "-")', 'sku = normalize_sku(row["sku"])')
    r("ledgerly/cli.py", "from ledgerly.utils.dates import parse_date\n",
      "from ledgerly.utils.dates import parse_date\nfrom ledgerly.utils.text import normalize_sku\n")
    r("ledgerly/cli.py", 'sku = args.sku.strip().upper().replace(" ", "-")', "sku = normalize_sku(args.sku)")


# ---------------------------------------------------------------- task 7
def combine_currency():
    cur = read("ledgerly/currency.py")
    body = cur[cur.index("CURRENCIES = {"):]
    m = read("ledgerly/money.py")
    m = m.replace('''from ledgerly.currency import DEFAULT_CURRENCY, currency_exponent, symbol_to_code


''', "\n")
    m = m.replace('''Amounts are kept as :class:`decimal.Decimal` so that sums never drift. A
:class:`Money` always carries its currency; mixing currencies raises
:class:`MoneyError` instead of silently adding euros to dollars.
"""
''', '''Amounts are kept as :class:`decimal.Decimal` so that sums never drift. A
:class:`Money` always carries its currency; mixing currencies raises
:class:`MoneyError` instead of silently adding euros to dollars.

The currency table lists only the handful of currencies our users actually
book in. The exponent is the number of minor-unit digits (ISO 4217), the
symbol is what reports print.
"""
''')
    m = m.replace("from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation\n\n",
                  "from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation\n\n" + body + "\n\n")
    m = m.replace('    """Format ``money`` for reports: ``\\u20ac1,234.50`` or ``-12.00 USD``."""\n    from ledgerly.currency import currency_symbol\n\n',
                  '    """Format ``money`` for reports: ``\\u20ac1,234.50`` or ``-12.00 USD``."""\n')
    assert "ledgerly.currency" not in m, "currency import left in money.py"
    write("ledgerly/money.py", m)
    rm("ledgerly/currency.py")
    r("ledgerly/reports/export.py", "from ledgerly.currency import currency_symbol\nfrom ledgerly.money import format_amount\n",
      "from ledgerly.money import currency_symbol, format_amount\n")
    r("docs/api.rst", ".. automodule:: ledgerly.currency\n   :members:\n\n", "")
    r("docs/api.rst", ":members: Money, MoneyError, parse_amount, format_amount, sum_amounts, allocate",
      ":members: Money, MoneyError, parse_amount, format_amount, sum_amounts, allocate,\n      currency_info, currency_exponent, currency_symbol, symbol_to_code")


def make(name, *steps, base=BASE):
    fresh(base)
    for step in steps:
        step()
    save(name, diff())


def other_base():
    """A base that differs from the shipped one: stock.py from an older release."""
    path = os.path.join(TMP, "other-base")
    if os.path.exists(path):
        shutil.rmtree(path)
    shutil.copytree(BASE, path)
    f = os.path.join(path, "ledgerly/inventory/stock.py")
    text = open(f, encoding="utf-8").read()
    text = text.replace("quantity", "qty").replace("    key = sku.strip().upper().replace(\" \", \"-\")\n",
                                                  "    key = sku.upper()\n")
    open(f, "w", encoding="utf-8").write(text)
    return path


def make_more():
    make("stock-ledger-class.does-not-apply.patch", stock_ledger_class, base=other_base())
    # the same split, diffed with a lower rename threshold: loaders.py -> json_loader.py (47 %)
    M[:] = ["-M30%"]
    make("split-storage-loaders.rename.patch", split_loaders)
    M[:] = ["-M"]

def rename_feed_item():
    for path in ("tinyfeed/models.py", "tinyfeed/parser.py", "tinyfeed/merge.py", "tinyfeed/__init__.py",
                 "tests/test_parser.py", "tests/test_merge.py", "docs/guide.md", "README.md"):
        r(path, "FeedItem", "FeedEntry", count=None)
    r("tinyfeed/models.py", '"""Data classes for feeds and their items."""', '"""Data classes for feeds and their entries."""')


SANITIZE = '''"""Turn the HTML of feed summaries into plain text."""

import html
import re

_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\\s+")


'''


def move_strip_html():
    text = read("tinyfeed/render.py")
    start = text.index("def strip_html(")
    end = text.index("def _date(")
    write("tinyfeed/sanitize.py", SANITIZE + text[start:end].rstrip("\n") + "\n")
    text = text[:start] + text[end:]
    text = text.replace('"""Render feeds as plain text or Markdown, and strip HTML from summaries."""\n\nimport html\nimport re\n\nfrom tinyfeed.models import Feed\n\n_TAG = re.compile(r"<[^>]+>")\n_SPACE = re.compile(r"\\s+")\n',
                        '"""Render feeds as plain text or Markdown."""\n\nfrom tinyfeed.models import Feed\nfrom tinyfeed.sanitize import strip_html\n')
    assert "_TAG" not in text, text[:400]
    write("tinyfeed/render.py", text)
    r("tinyfeed/parser.py", "from tinyfeed.render import strip_html", "from tinyfeed.sanitize import strip_html")
    r("tests/test_render.py", "from tinyfeed.render import render_markdown, render_text, strip_html\n",
      "from tinyfeed.render import render_markdown, render_text\nfrom tinyfeed.sanitize import strip_html\n")
    r("docs/guide.md", "`strip_html` in `tinyfeed.render`", "`strip_html` in `tinyfeed.sanitize`")
    r("README.md", "`tinyfeed.merge`, `tinyfeed.render`,", "`tinyfeed.merge`, `tinyfeed.render`, `tinyfeed.sanitize`,")


def rename_with_classmethod():
    """The full rename plus a ``Money.parse_money`` alternative constructor.

    The class comes first in money.py, so a depth-first walk meets the method
    (parameters ``cls, text``) before the module-level function; CPython's
    breadth-first ``ast.walk`` meets the module-level function first.
    """
    rename_parse_amount()
    r("ledgerly/money.py", "    def is_zero(self):",
      "    @classmethod\n    def parse_money(cls, text):\n"
      "        \"\"\"Alternative constructor: ``Money.parse_money(\"12,50 \u20ac\")``.\"\"\"\n"
      "        return parse_money(text)\n\n    def is_zero(self):")


def rename_with_gbk_source():
    """The full rename, with ``ledgerly/money.py`` saved in GBK: a coding cookie on line 1 and a
    Chinese summary in its docstring (``€``, which GBK lacks, written as ``EUR``). The test
    parses the file's bytes, so CPython decodes them with its gbk codec."""
    rename_parse_amount()
    r("ledgerly/money.py", '"""Money values: parsing, formatting and arithmetic.\n',
      '# -*- coding: gbk -*-\n"""Money values: parsing, formatting and arithmetic'
      ' (\u91d1\u989d\uff1a\u89e3\u6790\u3001\u683c\u5f0f\u5316\u4e0e\u8fd0\u7b97).\n')
    r("ledgerly/money.py", "1 234,56 \u20ac", "1 234,56 EUR")
    text = read("ledgerly/money.py")
    with open(os.path.join(WORK, "ledgerly/money.py"), "wb") as f:
        f.write(text.encode("gbk"))


def make_patches():
    make("rename-parse-amount.solve.patch", rename_parse_amount)
    make("rename-parse-amount.partial.patch", lambda: rename_parse_amount(full=False))
    make("rename-parse-amount.syntax-error.patch", lambda: rename_parse_amount(broken=True))
    make("rename-parse-amount.bfs-order.patch", rename_with_classmethod)
    make("rename-parse-amount.gbk-source.patch", rename_with_gbk_source)
    make("move-format-table.solve.patch", move_format_table)
    make("add-log-parameter-post-entry.solve.patch", add_log_post_entry)
    make("add-log-parameter-post-entry.partial.patch", lambda: add_log_post_entry(full=False))
    make("stock-ledger-class.solve.patch", stock_ledger_class)
    make("stock-ledger-class.partial.patch", lambda: stock_ledger_class(callers=False))
    make("split-storage-loaders.solve.patch", split_loaders)
    make("extract-normalize-sku.solve.patch", extract_normalize_sku)
    make("combine-currency-into-money.solve.patch", combine_currency)
    make_more()
    make("rename-feed-item-to-entry.solve.patch", rename_feed_item, base=TINY)
    make("move-strip-html-to-sanitize.solve.patch", move_strip_html, base=TINY)


def make_predictions():
    S = OUT

    def p(name):
        with open(os.path.join(S, name), "rb") as f:
            return f.read().decode("utf-8")
    A = "demo-agent-a"
    a = [
        ("rename-parse-amount", p("rename-parse-amount.solve.patch")),
        ("move-format-table", p("move-format-table.solve.patch")),
        ("add-log-parameter-post-entry", p("add-log-parameter-post-entry.partial.patch")),
        ("stock-ledger-class", p("stock-ledger-class.does-not-apply.patch")),
        ("split-storage-loaders", ""),
        ("extract-normalize-sku", None),
        ("combine-currency-into-money", p("combine-currency-into-money.solve.patch")),
        ("rename-feed-item-to-entry", p("rename-feed-item-to-entry.solve.patch")),
    ]
    with open(os.path.join(S, "predictions.jsonl"), "w", encoding="utf-8") as f:
        for iid, patch in a:
            f.write(json.dumps({"instance_id": iid, "model_name_or_path": A, "model_patch": patch}, ensure_ascii=False) + "\n")
    B = "demo-agent-b"
    b = [
        ("rename-parse-amount", p("rename-parse-amount.syntax-error.patch")),
        ("move-format-table", p("move-format-table.solve.patch")),
        ("add-log-parameter-post-entry", p("add-log-parameter-post-entry.solve.patch")),
        ("stock-ledger-class", p("stock-ledger-class.partial.patch")),
        ("split-storage-loaders", p("split-storage-loaders.rename.patch")),
        ("extract-normalize-sku", p("extract-normalize-sku.solve.patch")),
        ("combine-currency-into-money", None),
    ]
    with open(os.path.join(S, "predictions.json"), "w", encoding="utf-8") as f:
        json.dump([{"instance_id": i, "model_name_or_path": B, "model_patch": pt} for i, pt in b], f, indent=2, ensure_ascii=False)
        f.write("\n")
    C = "swe-agent-demo"
    c = [
        ("add-log-parameter-post-entry", p("add-log-parameter-post-entry.partial.patch")),
        ("extract-normalize-sku", p("extract-normalize-sku.solve.patch")),
        ("stock-ledger-class", None),
    ]
    with open(os.path.join(S, "predictions-by-id.json"), "w", encoding="utf-8") as f:
        json.dump({i: {"model_name_or_path": C, "instance_id": i, "model_patch": pt} for i, pt in c}, f, indent=2, ensure_ascii=False)
        f.write("\n")


SUB = OUT
TRAJ_OUT = os.path.join(SUB, "trajectories")
PROB = os.path.join(DEMO, "problems", "descriptive_problems", "ledgerly_refactor", "%s-task.txt")
ROOT = "/ledgerly_refactor"
W = WORK

SYSTEM_1X = ("You are a helpful assistant that can interact with a computer to solve tasks.\n"
             "You work in a repository at %s. Use the str_replace_editor tool to view and edit files "
             "and bash for everything else. Submit with the submit command when you are done." % ROOT)
SYSTEM_0X = ("SETTING: You are an autonomous programmer, and you're working directly in the command line "
             "with a special interface.\n\nThe special interface consists of a file editor that shows you "
             "100 lines of a file at a time.\nCOMMANDS:\nopen <path> [<line_number>]\ngoto <line_number>\n"
             "scroll_down\nscroll_up\nsearch_dir <search_term> [<dir>]\nsearch_file <search_term> [<file>]\n"
             "edit <start_line>:<end_line>\n<replacement_text>\nend_of_edit\nsubmit\n\n"
             "RESPONSE FORMAT:\nYour shell prompt is formatted as follows:\n(Open file: <path>) <cwd> $\n\n"
             "You need to format your output using two fields; discussion and command.")


def instance_prompt(task):
    with open(PROB % task, encoding="utf-8") as f:
        text = f.read()
    return ("<uploaded_files>\n%s\n</uploaded_files>\nI've uploaded a python code repository in the "
            "directory %s. Consider the following refactoring task:\n\n<pr_description>\n%s\n"
            "</pr_description>\n\nMake the minimal changes to non-test files needed to carry it out."
            % (ROOT, ROOT, text))


def cat_n(path, start=1, end=None, text=None):
    text = read(path) if text is None else text
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    end = len(lines) if end is None else min(end, len(lines))
    return "\n".join("%6d\t%s" % (i, lines[i - 1]) for i in range(start, end + 1))


def line_of(path, needle):
    for i, line in enumerate(read(path).replace("\r\n", "\n").split("\n"), start=1):
        if needle in line:
            return i
    raise SystemExit("%s: %r not found" % (path, needle))


def edited_obs(path, new):
    n = line_of(path, new.split("\n")[0])
    return ("The file %s/%s has been edited. Here's the result of running `cat -n` on a snippet of %s/%s:\n"
            "%s\nReview the changes and make sure they are as expected. Edit the file again if necessary."
            % (ROOT, path, ROOT, path, cat_n(path, max(1, n - 3), n + new.count("\n") + 3)))


def grep(pattern, *paths):
    p = subprocess.run(["grep", "-rn", pattern] + list(paths), cwd=W, stdout=subprocess.PIPE)
    return p.stdout.decode("utf-8").replace("\r", "")


def quote(s):
    return "'" + s.replace("'", "'\"'\"'") + "'"


class Traj1x:
    """SWE-agent 1.x: state is an object, steps have execution_time, history has message_type."""

    def __init__(self, task, model, list_content=False):
        self.task, self.model = task, model
        self.wrap = (lambda x: [{"type": "text", "text": x}]) if list_content else (lambda x: x)
        self.steps, self.history = [], []
        self.history.append({"role": "system", "content": SYSTEM_1X, "agent": "main",
                             "message_type": "system_prompt"})
        self.history.append({"role": "user", "content": self.wrap(instance_prompt(task)),
                             "agent": "main", "message_type": "observation"})
        self.n = 0
        self.open_file = "n/a"

    def step(self, thought, tool, args, action, observation, seconds):
        self.n += 1
        call_id = "call_%s_%02d" % (re.sub(r"[^a-z]", "", self.task)[:12], self.n)
        if tool == "str_replace_editor":
            self.open_file = args.get("path", self.open_file)
        self.steps.append({
            "action": action,
            "observation": observation,
            "response": thought,
            "thought": thought,
            "execution_time": seconds,
            "state": {"open_file": self.open_file, "working_dir": ROOT},
            "query": [{"role": "system", "content": "(%d earlier messages elided in this demo file)"
                       % len(self.history)}],
            "extra_info": {},
        })
        self.history.append({"role": "assistant", "content": thought, "thought": thought, "action": action,
                             "agent": "main", "message_type": "action",
                             "tool_calls": [{"id": call_id, "type": "function",
                                             "function": {"name": tool, "arguments": json.dumps(args)}}]})
        self.history.append({"role": "tool", "content": self.wrap("OBSERVATION:\n" + observation),
                             "agent": "main", "message_type": "observation", "tool_call_ids": [call_id]})

    def view(self, thought, path, rng=None, seconds=0.21):
        args = {"command": "view", "path": "%s/%s" % (ROOT, path)}
        action = "str_replace_editor view %s/%s" % (ROOT, path)
        if rng:
            args["view_range"] = list(rng)
            action += " --view_range %d %d" % rng
        obs = "Here's the result of running `cat -n` on %s/%s:\n%s\n" % (
            ROOT, path, cat_n(path, *(rng or (1, None))))
        self.step(thought, "str_replace_editor", args, action, obs, seconds)

    def replace(self, thought, path, old, new, seconds=0.24, lint_error=None):
        args = {"command": "str_replace", "path": "%s/%s" % (ROOT, path), "old_str": old, "new_str": new}
        action = "str_replace_editor str_replace %s/%s   --old_str %s --new_str %s" % (ROOT, path, quote(old), quote(new))
        text = read(path)
        count = text.count(old)
        if lint_error:
            n = line_of(path, old.split("\n")[0])
            would = text.replace(old, new, 1)
            obs = ("Your proposed edit has introduced new syntax error(s). Please read this error message "
                   "carefully and then retry editing the file.\n\nERRORS:\n- %s\n\n"
                   "This is how your edit would have looked if applied\n"
                   "------------------------------------------------\n%s\n"
                   "------------------------------------------------\n\n"
                   "This is the original code before your edit\n"
                   "------------------------------------------------\n%s\n"
                   "------------------------------------------------\n\n"
                   "Your changes have NOT been applied. Please fix your edit command and try again."
                   % (lint_error, cat_n(path, n - 2, n + new.count("\n") + 3, would),
                      cat_n(path, n - 2, n + old.count("\n") + 3)))
        elif count == 0:
            obs = ("No replacement was performed, old_str `%s` did not appear verbatim in %s/%s."
                   % (old, ROOT, path))
        elif count > 1:
            lines = [i for i, l in enumerate(text.replace("\r\n", "\n").split("\n"), 1) if old in l]
            obs = ("No replacement was performed. Multiple occurrences of old_str `%s` in lines %s. "
                   "Please ensure it is unique" % (old, lines))
        else:
            write(path, text.replace(old, new))
            obs = edited_obs(path, new)
        self.step(thought, "str_replace_editor", args, action, obs, seconds)

    def bash(self, thought, command, observation, seconds=0.35):
        self.step(thought, "bash", {"command": command}, command,
                  observation if observation else "Your command ran successfully and did not produce any output.",
                  seconds)

    def submit(self, thought, stats, exit_status="submitted"):
        patch = diff().decode("utf-8")
        self.step(thought, "submit", {}, "submit",
                  "Thank you for your work on this issue. Please carefully follow the steps below to help review "
                  "your changes.\n\n<diff>\n%s</diff>" % patch, 0.41)
        return self.finish(patch, exit_status, stats)

    def finish(self, patch, exit_status, stats):
        edited = sorted(set(re.findall(r"^diff --git a/(\S+)", patch or "", re.M)))
        return {
            "trajectory": self.steps,
            "history": self.history,
            "info": {
                "swe_agent_hash": "0000000000000000000000000000000000000000",
                "swe_agent_version": "1.1.0",
                "swe_rex_version": "1.2.0",
                "submission": patch,
                "exit_status": exit_status,
                "edited_files30": "".join("[File: %s]\n" % f for f in edited),
                "model_stats": stats,
            },
            "replay_config": ({
                "env": {"deployment": {"type": "docker", "image": "python:3.11"},
                        "repo": {"type": "local", "path": ROOT, "base_commit": "HEAD"}, "name": "main"},
                "agent": {"name": "main", "model": {"name": self.model, "per_instance_cost_limit": 3.0,
                                                    "temperature": 0.0}},
                "problem_statement": {"type": "text_file", "path": "problems/descriptive_problems/"
                                      "ledgerly_refactor/%s-task.txt" % self.task, "id": self.task},
            }),
            "environment": "main",
        }


def write_traj(name, data):
    os.makedirs(TRAJ_OUT, exist_ok=True)
    with open(os.path.join(TRAJ_OUT, name), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print("wrote", name)


def check_same(patch, name):
    with open(os.path.join(SUB, name), encoding="utf-8", newline="") as f:
        want = f.read()
    if patch != want:
        raise SystemExit("trajectory submission differs from %s" % name)


# --------------------------------------------------------------------------- 1: solving (1.x)
def solving():
    fresh()
    t = Traj1x("extract-normalize-sku", "claude-demo-1")
    occ = grep('strip().upper().replace(" ", "-")', "ledgerly")
    t.bash("Let me find every place where SKUs are normalised inline before extracting the helper.",
           "grep -rn 'strip().upper().replace(\" \", \"-\")' ledgerly", occ, 0.12)
    t.view("Five copies: three in stock.py, one in stock_count.py and one in cli.py. Let me look at the "
           "target module ledgerly/utils/text.py first.", "ledgerly/utils/text.py")
    t.bash("The file is written with CRLF line endings (its docstring says so). `file` will confirm.",
           "file ledgerly/utils/text.py",
           "ledgerly/utils/text.py: Python script, ASCII text executable, with CRLF line terminators\n", 0.05)
    cmd = ("python3 - <<'EOF'\np = 'ledgerly/utils/text.py'\nsrc = open(p, newline='').read()\n"
           "src += ('\\r\\n\\r\\ndef normalize_sku(raw):\\r\\n'\n"
           "        '    \"\"\"Canonical SKU: trimmed, upper case, spaces as dashes (`` ab 12`` -> ``AB-12``).\"\"\"\\r\\n'\n"
           "        '    return raw.strip().upper().replace(\" \", \"-\")\\r\\n')\n"
           "open(p, 'w', newline='').write(src)\nEOF")
    write("ledgerly/utils/text.py", read("ledgerly/utils/text.py") + NORMALIZE.replace("\n", "\r\n"))
    t.bash("The editor would write LF line endings into a CRLF file, so I append the helper with a small "
           "Python script that keeps `\\r\\n`.", cmd, "", 0.09)
    t.bash("Check that the file still parses and the helper behaves.",
           "python3 -c \"from ledgerly.utils.text import normalize_sku; print(normalize_sku(' ab 12'))\"",
           "AB-12\n", 0.18)
    t.replace("Now import the helper in ledgerly/inventory/stock.py.", "ledgerly/inventory/stock.py",
              '"""\n\n\nclass StockError', '"""\n\nfrom ledgerly.utils.text import normalize_sku\n\n\nclass StockError')
    sed = "sed -i 's/key = sku.strip().upper().replace(\" \", \"-\")/key = normalize_sku(sku)/' ledgerly/inventory/stock.py"
    s = read("ledgerly/inventory/stock.py")
    write("ledgerly/inventory/stock.py", s.replace('key = sku.strip().upper().replace(" ", "-")', "key = normalize_sku(sku)"))
    t.bash("The same line occurs three times in stock.py, so a str_replace would not be unique; sed replaces all three.",
           sed, "", 0.04)
    t.bash("Verify that no inline copy is left in stock.py.", "grep -n 'normalize_sku\\|upper()' ledgerly/inventory/stock.py",
           grep("normalize_sku\\|upper()", "ledgerly/inventory/stock.py").replace("ledgerly/inventory/stock.py:", ""), 0.03)
    t.replace("Next the stock count importer: import the helper.", "ledgerly/importers/stock_count.py",
              "from ledgerly.money import parse_amount\n",
              "from ledgerly.money import parse_amount\nfrom ledgerly.utils.text import normalize_sku\n")
    t.replace("And use it in read_count_sheet.", "ledgerly/importers/stock_count.py",
              'sku = row["sku"].strip().upper().replace(" ", "-")', 'sku = normalize_sku(row["sku"])')
    t.replace("Finally the CLI: import the helper next to the other utils import.", "ledgerly/cli.py",
              "from ledgerly.utils.dates import parse_date\n",
              "from ledgerly.utils.dates import parse_date\nfrom ledgerly.utils.text import normalize_sku\n")
    t.replace("And replace the inline normalisation in cmd_stock.", "ledgerly/cli.py",
              'sku = args.sku.strip().upper().replace(" ", "-")', "sku = normalize_sku(args.sku)")
    t.bash("Run the test suite to make sure nothing broke.", "python -m pytest -q",
           "." * 33 + "                                        [100%]\n33 passed in 0.31s\n", 2.71)
    data = t.submit("All five inline copies now call normalize_sku and the tests pass. Submitting.",
                    {"instance_cost": 0.4127, "tokens_sent": 118342, "tokens_received": 2961, "api_calls": 15})
    check_same(data["info"]["submission"], "extract-normalize-sku.solve.patch")
    write_traj("extract-normalize-sku.traj", data)


# --------------------------------------------------------------------------- 2: failed edits (1.x)
def failed_edits():
    fresh()
    t = Traj1x("add-log-parameter-post-entry", "gpt-demo-mini", list_content=True)
    t.view("Let me look at post_entry in ledgerly/journal.py.", "ledgerly/journal.py", (1, 20))
    t.replace("Add the logging import.", "ledgerly/journal.py", "import datetime\n", "import datetime\nimport logging\n")
    t.replace("Add a module logger after the imports.", "ledgerly/journal.py",
              "from ledgerly.utils.dates import parse_date\n",
              "from ledgerly.utils.dates import parse_date\n\nlogger = logging.getLogger(__name__)\n")
    t.replace("Add the log parameter with default False.", "ledgerly/journal.py",
              "def post_entry(journal, entry):", "def post_entry(journal, entry, log=False):")
    t.replace("Log the entry after appending it.", "ledgerly/journal.py",
              "    journal.entries.append(entry)\n    return entry\n",
              "    journal.entries.append(entry)\n    if log:\n    logger.info(\"posted %s on %s\", entry.description, entry.date.isoformat())\n    return entry\n",
              lint_error="E999 IndentationError: expected an indented block after 'if' statement on line %d"
              % (line_of("ledgerly/journal.py", "journal.entries.append(entry)") + 1))
    t.replace("I forgot to indent the body of the if. Retry with the right indentation.", "ledgerly/journal.py",
              "    journal.entries.append(entry)\n    return entry\n",
              "    journal.entries.append(entry)\n    if log:\n        logger.info(\"posted %s on %s\", entry.description, entry.date.isoformat())\n    return entry\n")
    t.replace("Document the parameter in the docstring.", "ledgerly/journal.py",
              "    inside a closed period.\n",
              "    inside a closed period. With ``log=True`` the posting is logged at INFO level.\n")
    t.replace("Now the call in reverse_entry.", "ledgerly/journal.py",
              "return post_entry(journal, mirror)", "return post_entry(journal, mirror, log=True)")
    t.replace("And the call in transfer.", "ledgerly/journal.py",
              "return post_entry(journal, entry)", "return post_entry(journal, entry, log=True)")
    t.replace("record_cogs in valuation.py also posts entries.", "ledgerly/inventory/valuation.py",
              "return post_entry(journal, entry)", "return post_entry(journal, entry, log=True)")
    t.replace("The bank importer.", "ledgerly/importers/bank.py",
              "post_entry(journal, statement_entry(row, rules))",
              "post_entry(journal, statement_entry(row, rules), log=True)")
    t.replace("Now the CLI calls.", "ledgerly/cli.py", "post_entry(journal, entry)", "post_entry(journal, entry, log=True)")
    t.replace("The string is not unique. Let me include the indentation of the call in open_journal.",
              "ledgerly/cli.py", "            post_entry(journal,entry)", "            post_entry(journal, entry, log=True)")
    found = grep("post_entry(", "ledgerly/cli.py").replace("ledgerly/cli.py:", "")
    for _ in range(3):
        t.bash("Let me look at the calls of post_entry in cli.py again.", "grep -n 'post_entry(' ledgerly/cli.py", found, 0.03)
    data = t.submit("I am running out of steps; the journal, valuation and bank importer are done. Submitting what I have.",
                    {"instance_cost": 1.2034, "tokens_sent": 384120, "tokens_received": 5214, "api_calls": 17})
    check_same(data["info"]["submission"], "add-log-parameter-post-entry.partial.patch")
    write_traj("add-log-parameter-post-entry.traj", data)


# --------------------------------------------------------------------------- 3: cost limit (0.x)
def cost_limit():
    fresh()
    task = "stock-ledger-class"
    steps, history = [], []
    history.append({"role": "system", "content": SYSTEM_0X, "agent": "primary"})
    history.append({"role": "user", "content": "We're currently solving the following issue within our repository. "
                    "Here's the issue text:\nISSUE:\n%s\n\nINSTRUCTIONS:\nNow, you're going to solve this issue on "
                    "your own. When you're satisfied with all of the changes you've made, you can submit your "
                    "changes to the code base by simply running the submit command.\n\n(Open file: n/a)\n"
                    "(Current directory: %s)\nbash-$" % (open(PROB % task).read(), ROOT), "agent": "primary"})
    state = {"open_file": "n/a"}

    def numbered(path, start=1, window=100):
        lines = read(path).split("\n")
        if lines[-1] == "":
            lines.pop()
        body = "\n".join("%d:%s" % (i, lines[i - 1]) for i in range(start, min(len(lines), start + window - 1) + 1))
        head = "[File: %s/%s (%d lines total)]\n" % (ROOT, path, len(lines))
        if start > 1:
            head += "(%d more lines above)\n" % (start - 1)
        return head + body

    def step(thought, action, observation):
        response = "%s\n\n```\n%s\n```" % (thought, action.rstrip("\n"))
        steps.append({"action": action, "observation": observation, "response": response,
                      "state": json.dumps({"open_file": state["open_file"], "working_dir": ROOT}) + "\n",
                      "thought": thought + "\n\n"})
        history.append({"role": "assistant", "content": response, "thought": thought + "\n\n",
                        "action": action, "agent": "primary"})
        history.append({"role": "user", "content": "%s\n(Open file: %s)\n(Current directory: %s)\nbash-$"
                        % (observation, state["open_file"], ROOT), "agent": "primary"})

    stock = "ledgerly/inventory/stock.py"
    step("Let me find where the stock functions are used.", "search_dir \"stock_on_hand\"\n",
         "Found %d matches for \"stock_on_hand\" in %s:\n%s\nEnd of matches for \"stock_on_hand\" in %s"
         % (len(grep("stock_on_hand", ".").splitlines()), ROOT,
            "\n".join("%s/%s (%d matches)" % (ROOT, f, c) for f, c in sorted(
                {l.split(":")[0]: grep("stock_on_hand", l.split(":")[0]).count("\n")
                 for l in grep("stock_on_hand", ".").splitlines()}.items()))
            .replace(ROOT + "/./", ROOT + "/"), ROOT))
    state["open_file"] = "%s/%s" % (ROOT, stock)
    step("Open the module that defines them.", "open ledgerly/inventory/stock.py\n", numbered(stock))
    text = read(stock)
    start = text.index("def receive_stock(")
    first = text[:start].count("\n") + 1
    last = text[:text.index("def low_stock(")].count("\n")
    cls = STOCK_LEDGER.strip("\n")
    new = text[:start] + cls + "\n\n\n" + text[text.index("def low_stock("):]
    write(stock, new)
    step("I will replace the three functions (lines %d-%d) with the StockLedger class." % (first, last),
         "edit %d:%d\n%s\n\n\nend_of_edit\n" % (first, last, cls),
         "File updated. Please review the changes and make sure they are correct (correct indentation, "
         "no duplicate lines, etc). Edit the file again if necessary.\n" + numbered(stock))
    cli = "ledgerly/cli.py"
    state["open_file"] = "%s/%s" % (ROOT, cli)
    step("Now the callers. Start with cli.py.", "open ledgerly/cli.py\n", numbered(cli))
    step("cmd_stock is further down.", "scroll_down\n", numbered(cli, 85))
    step("Let me view the stock command around the calls.", "goto 85\n", numbered(cli, 85))
    step("Let me view the stock command around the calls.", "goto 85\n", numbered(cli, 85))
    step("I need to see the imports again before editing.", "goto 1\n", numbered(cli, 1))
    step("Let me search for the old function names in this file.", "search_file \"receive_stock\"\n",
         "Found %d matches for \"receive_stock\" in %s/%s:\n%s\nEnd of matches for \"receive_stock\" in %s/%s"
         % (grep("receive_stock", cli).count("\n"), ROOT, cli,
            "\n".join("Line %s" % l for l in grep("receive_stock", cli).replace(cli + ":", "").splitlines()),
            ROOT, cli))
    patch = None
    info = {"exit_status": "exit_cost", "submission": patch,
            "model_stats": {"total_cost": 3.0412, "instance_cost": 3.0412, "tokens_sent": 1004223,
                            "tokens_received": 3310, "api_calls": 9}}
    data = {"environment": "swe_main", "trajectory": steps, "history": history, "info": info}
    write_traj("stock-ledger-class.traj", data)


def make_trajectories():
    solving()
    failed_edits()
    cost_limit()


if __name__ == "__main__":
    try:
        make_patches()
        make_predictions()
        make_trajectories()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
