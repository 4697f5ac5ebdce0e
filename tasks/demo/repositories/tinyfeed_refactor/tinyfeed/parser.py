"""Parse RSS 2.0 and Atom 1.0 documents into :class:`~tinyfeed.models.Feed`."""

import datetime
import email.utils
import xml.etree.ElementTree as ET

from tinyfeed.models import Feed, FeedItem
from tinyfeed.render import strip_html

ATOM = "{http://www.w3.org/2005/Atom}"


class FeedError(ValueError):
    """The document is not a feed we understand."""


def _text(node, path, default=""):
    found = node.find(path)
    return found.text.strip() if found is not None and found.text else default


def parse_date(value):
    """RFC 822 (RSS) or RFC 3339 (Atom) dates; ``None`` when unparseable."""
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        pass
    try:
        return datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def parse_rss(root, source=""):
    channel = root.find("channel")
    if channel is None:
        raise FeedError("RSS document without <channel>")
    feed = Feed(_text(channel, "title"), _text(channel, "link"))
    for node in channel.findall("item"):
        feed.items.append(
            FeedItem(
                title=strip_html(_text(node, "title")),
                link=_text(node, "link"),
                guid=_text(node, "guid"),
                published=parse_date(_text(node, "pubDate")),
                summary=_text(node, "description"),
                source=source or feed.title,
            )
        )
    return feed


def parse_atom(root, source=""):
    link = root.find(ATOM + "link")
    feed = Feed(_text(root, ATOM + "title"), link.get("href", "") if link is not None else "")
    for node in root.findall(ATOM + "entry"):
        entry_link = node.find(ATOM + "link")
        feed.items.append(
            FeedItem(
                title=strip_html(_text(node, ATOM + "title")),
                link=entry_link.get("href", "") if entry_link is not None else "",
                guid=_text(node, ATOM + "id"),
                published=parse_date(_text(node, ATOM + "updated")),
                summary=_text(node, ATOM + "summary"),
                source=source or feed.title,
            )
        )
    return feed


def parse_feed(document, source=""):
    """Parse ``document`` (str or bytes), detecting RSS or Atom."""
    try:
        root = ET.fromstring(document)
    except ET.ParseError as exc:
        raise FeedError("not XML: %s" % exc) from None
    if root.tag == "rss":
        return parse_rss(root, source)
    if root.tag == ATOM + "feed":
        return parse_atom(root, source)
    raise FeedError("unknown feed type <%s>" % root.tag)
