"""Every statement body kind, for walks that pass over statements unread."""
import os
from typing import Optional


def classify(value):
    if value is None:
        return "none"
    elif isinstance(value, int):
        from numbers import Number
        return "int"
    elif isinstance(value, str):
        return "str"
    else:
        raise TypeError(value)


def retry(fn, times=3):
    for attempt in range(times):
        try:
            return fn()
        except ValueError as e:
            from logging import getLogger
            getLogger(__name__).warning("retry %s: %s", attempt, e)
        except (KeyError, OSError):
            raise
        else:
            pass
        finally:
            os.environ.get("RETRY")
    else:
        raise RuntimeError("gave up")


def drain(queue):
    while queue:
        item = queue.pop()
        if item:
            continue
    else:
        return None


def shape_of(point):
    match point:
        case (0, 0):
            return "origin"
        case (x, 0):
            from math import fabs
            return f"x={fabs(x)}"
        case _:
            return "elsewhere"


class Reader:
    def __init__(self, path: Optional[str] = None):
        self.path = path

    def read(self):
        with open(self.path) as f:
            import json
            return json.load(f)

    async def aread(self):
        async with self.lock:
            async for chunk in self.stream():
                yield chunk
