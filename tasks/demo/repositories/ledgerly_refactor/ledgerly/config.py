"""Settings, read from ``ledgerly.ini`` in the working directory if present."""

import configparser
import os

DEFAULTS = {
    "currency": "EUR",
    "journal": "journal.json",
    "stock": "stock.json",
    "low_stock_threshold": "5",
    "fiscal_year_start": "1",
}


class Settings:
    def __init__(self, values=None):
        self.values = dict(DEFAULTS)
        if values:
            self.values.update(values)

    def __getitem__(self, key):
        return self.values[key]

    def get_int(self, key):
        return int(self.values[key])

    @classmethod
    def load(cls, path="ledgerly.ini"):
        parser = configparser.ConfigParser()
        if os.path.exists(path):
            parser.read(path, encoding="utf-8")
        values = dict(parser["ledgerly"]) if parser.has_section("ledgerly") else {}
        return cls(values)
