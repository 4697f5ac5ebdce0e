from ledgerly.storage.loaders import dump_json_entries, load_csv_entries, load_json_entries
from ledgerly.journal import make_entry


def test_csv_groups_rows_by_reference(tmp_path):
    path = tmp_path / "entries.csv"
    path.write_text(
        "date,reference,description,account,amount\n"
        "2024-01-02,A1,Caf\u00e9 supplies,6100,12.00\n"
        "2024-01-02,A1,Caf\u00e9 supplies,1000,-12.00\n"
        "2024-01-03,A2,Sale,1000,30\n"
        "2024-01-03,A2,Sale,4000,-30\n",
        encoding="utf-8",
    )
    entries = load_csv_entries(path)
    assert [e.reference for e in entries] == ["A1", "A2"]
    assert all(e.is_balanced() for e in entries)


def test_json_round_trip(tmp_path, day):
    entry = make_entry(day, "Gr\u00fc\u00dfe", [("1000", "1"), ("3000", "-1")], reference="R1")
    path = tmp_path / "j.json"
    assert dump_json_entries([entry], path) == 1
    (loaded,) = load_json_entries(path)
    assert loaded.description == "Gr\u00fc\u00dfe"
    assert loaded.postings[0].amount.amount == 1
