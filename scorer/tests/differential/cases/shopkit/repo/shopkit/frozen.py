"""This file must never change: a test checks its sha256."""

FROZEN = True


def frozen():
    return FROZEN
