"""Reading and writing journals on disk."""

from ledgerly.storage.loaders import (
    dump_json_entries,
    load_csv_entries,
    load_json_entries,
    read_csv_rows,
)

__all__ = ["dump_json_entries", "load_csv_entries", "load_json_entries", "read_csv_rows"]
