"""Text helpers for reports and identifiers.

This file uses Windows line endings on purpose: it was first written on the
shop's till PC and nobody has converted it since.
"""

import re
import unicodedata


def slugify(text):
    """ASCII slug for file names: ``Caf\u00e9 cr\u00e8me`` -> ``cafe-creme``."""
    norm = unicodedata.normalize("NFKD", text)
    ascii_text = norm.encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def truncate(text, width, ellipsis="\u2026"):
    """Cut ``text`` to ``width`` characters, ending with an ellipsis."""
    if len(text) <= width:
        return text
    return text[: max(0, width - len(ellipsis))] + ellipsis


def pad(text, width, align="<"):
    """Pad to ``width``; ``align`` is ``<``, ``>`` or ``^`` like str.format."""
    return "{:{}{}}".format(text, align, width)


def wrap_description(text, width=60):
    """Greedy word wrap used for long entry descriptions."""
    lines, current = [], ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = word if not current else current + " " + word
    if current:
        lines.append(current)
    return lines


def plural(count, singular, plural_form=None):
    if count == 1:
        return "1 %s" % singular
    return "%d %s" % (count, plural_form or singular + "s")
