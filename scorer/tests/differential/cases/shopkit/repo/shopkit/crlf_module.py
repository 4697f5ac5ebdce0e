import os


def read_lines(path):
    """Read lines.

    Windows line endings in this file.
    """
    with open(path) as handle:
        return handle.read().splitlines()


def line_count(path):
    return len(read_lines(path))
