from ledgerly.importers.bank import counter_account, import_statement
from ledgerly.importers.stock_count import apply_count, read_count_sheet


def test_counter_account_rules():
    assert counter_account("Miete M\u00e4rz") == "6100"
    assert counter_account("Kontof\u00fchrungsgeb\u00fchr") == "6200"
    assert counter_account("Unknown payee") == "1999"


def test_import_statement(tmp_path, journal):
    path = tmp_path / "statement.csv"
    path.write_text(
        "date;reference;description;account;amount\n"
        "01.03.2024;S1;Miete M\u00e4rz;;-800,00\n"
        "02.03.2024;S2;Kundin Z\u00fcrich;;119,00\n",
        encoding="utf-8",
    )
    posted, skipped = import_statement(journal, path)
    assert (posted, skipped) == (2, [])
    assert journal.balance("1200").amount == -681


def test_stock_count(tmp_path, journal, day):
    path = tmp_path / "count.csv"
    path.write_text("sku,counted,unit_cost\nab 12,8,2.50\n", encoding="utf-8")
    levels = {"AB-12": 10}
    assert apply_count(journal, levels, read_count_sheet(path), day) == [("AB-12", -2)]
    assert levels == {"AB-12": 8}
