"""Importers for data that comes from outside: bank statements, stock counts."""
