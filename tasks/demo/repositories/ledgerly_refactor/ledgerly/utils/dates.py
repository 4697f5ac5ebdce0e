"""Date helpers: parsing user input, months and fiscal years."""

import calendar
import datetime

FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%Y%m%d")


def parse_date(text):
    """Parse ``2024-03-31``, ``31.03.2024``, ``31/03/2024`` or ``20240331``."""
    if isinstance(text, datetime.date):
        return text
    text = str(text).strip()
    for fmt in FORMATS:
        try:
            return datetime.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError("unrecognised date: %r" % text)


def month_range(year, month):
    """First and last day of a month."""
    last = calendar.monthrange(year, month)[1]
    return datetime.date(year, month, 1), datetime.date(year, month, last)


def fiscal_year(day, start_month=1):
    """The fiscal year ``day`` falls in, named after the year it ends in."""
    if start_month == 1:
        return day.year
    return day.year + 1 if day.month >= start_month else day.year


def quarter(day):
    return (day.month - 1) // 3 + 1


def iter_months(start, end):
    """Yield ``(year, month)`` from ``start`` to ``end`` inclusive."""
    year, month = start.year, start.month
    while (year, month) <= (end.year, end.month):
        yield year, month
        month += 1
        if month == 13:
            year, month = year + 1, 1
