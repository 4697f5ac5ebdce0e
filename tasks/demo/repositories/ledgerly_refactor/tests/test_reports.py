from ledgerly.journal import make_entry, post_entry
from ledgerly.reports.balance import format_table, render_trial_balance, trial_balance
from ledgerly.reports.export import currency_legend, export_csv
from ledgerly.reports.inventory_report import stock_summary


def _sample(journal, day):
    post_entry(journal, make_entry(day, "Sale", [("1000", "119"), ("4000", "-100"), ("2100", "-19")]))
    return journal


def test_format_table_alignment():
    text = format_table([["a", "1"], ["bb", "22"]], ["Name", "N"])
    assert text.splitlines() == ["Name   N", "----  --", "a      1", "bb    22"]


def test_trial_balance(journal, day):
    totals = trial_balance(_sample(journal, day))
    assert [str(v.amount) for v in totals.values()] == ["119", "-19", "-100"]
    assert "Total" in render_trial_balance(journal)


def test_export_csv(journal, day):
    lines = export_csv(_sample(journal, day)).splitlines()
    assert lines[0].startswith("date,reference")
    assert len(lines) == 4
    assert currency_legend(journal) == "EUR (\u20ac)"


def test_stock_summary():
    text = stock_summary({"AB-12": 2, "ZZ-9": 40})
    assert "AB-12" in text and "!" in text
