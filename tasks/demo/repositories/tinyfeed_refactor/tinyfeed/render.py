"""Render feeds as plain text or Markdown, and strip HTML from summaries."""

import html
import re

from tinyfeed.models import Feed

_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


def strip_html(text, limit=None):
    """Plain text from an HTML fragment: tags dropped, entities decoded,
    whitespace collapsed; cut to ``limit`` characters with an ellipsis."""
    plain = _SPACE.sub(" ", html.unescape(_TAG.sub(" ", text or ""))).strip()
    if limit is not None and len(plain) > limit:
        plain = plain[: max(0, limit - 1)].rstrip() + "\u2026"
    return plain


def _date(item):
    return item.published.strftime("%Y-%m-%d") if item.published else "----------"


def render_text(feed: Feed, limit=10, width=72):
    lines = [feed.title, "=" * len(feed.title)]
    for item in feed.latest(limit):
        lines.append("%s  %s" % (_date(item), item.title))
        if item.summary:
            lines.append("            " + strip_html(item.summary, width - 12))
    return "\n".join(lines) + "\n"


def render_markdown(feed: Feed, limit=10):
    lines = ["# %s" % feed.title, ""]
    for item in feed.latest(limit):
        lines.append("- [%s](%s) \u2014 %s" % (item.title, item.link, _date(item)))
        if item.summary:
            lines.append("  > " + strip_html(item.summary, 200))
    return "\n".join(lines) + "\n"
