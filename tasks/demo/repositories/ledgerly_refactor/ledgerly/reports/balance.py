"""Trial balance and the plain-text table renderer used by every report."""

from decimal import Decimal

from ledgerly.money import Money, format_amount


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
    return "\n".join(out)


def trial_balance(journal, currency="EUR"):
    """``{account: Money}`` for every account with postings in ``currency``."""
    totals = {}
    for entry in journal:
        for posting in entry.postings:
            if posting.amount.currency != currency:
                continue
            prev = totals.get(posting.account, Money(Decimal(0), currency))
            totals[posting.account] = prev + posting.amount
    return dict(sorted(totals.items()))


def render_trial_balance(journal, currency="EUR"):
    """The trial balance as a text table with debit and credit columns."""
    rows = []
    debit_total = Money(Decimal(0), currency)
    credit_total = Money(Decimal(0), currency)
    for account, amount in trial_balance(journal, currency).items():
        name = account
        if journal.chart is not None and account in journal.chart:
            name = journal.chart.get(account).label()
        if amount.amount >= 0:
            rows.append([name, format_amount(amount), ""])
            debit_total = debit_total + amount
        else:
            rows.append([name, "", format_amount(-amount)])
            credit_total = credit_total - amount
    rows.append(["Total", format_amount(debit_total), format_amount(credit_total)])
    return format_table(rows, ["Account", "Debit", "Credit"])
