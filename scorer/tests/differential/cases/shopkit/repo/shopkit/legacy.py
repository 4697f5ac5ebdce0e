# -*- coding: utf-8 -*-
"""Legacy helpers kept for backwards compatibility."""
import os
import sys as system
from os.path import join as path_join, exists

GREETING = u'hello' ' world'
RAW = b'raw-bytes'
ANSWER = 42
RATIO = 0.5
ENABLED = True
MISSING = None
NEGATIVE = -1
TEMPLATE = f'{GREETING}!'
LABELS = ['a', 'b', 'c']
MAPPING = {'key': 'value', 'n': 1}
PAIR = ('x', 2)


def label_kind(label):
    if "." in label:
        return "dotted"
    for part in label.split("_"):
        if "-" in part:
            return "dashed"
    return "plain"


def label_kind_v2(label, models=None):
    if not models:
        models = []
    if "." in label:
        return "dotted"
    return "plain"


def retry(func, attempts=3):
    count = 0
    last = None
    while count < attempts:
        try:
            return func()
        except OSError as exc:
            count += 1
            last = exc
        finally:
            pass
    raise RuntimeError("gave up") from last


def old_path(*parts):
    return path_join(os.getcwd(), *parts)


def is_main():
    return system.argv[0] == "main" and exists("main")
