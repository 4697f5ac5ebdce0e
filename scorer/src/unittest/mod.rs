//! unittest discovery and running: per-method verdicts as CPython 3.11's `unittest` gives them.
