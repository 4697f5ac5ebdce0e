"""Merge several feeds into one river of news."""

from tinyfeed.models import Feed, FeedItem


def dedupe(items):
    """Keep the first item of each :meth:`FeedItem.key`."""
    seen = set()
    unique = []
    for item in items:
        if item.key() in seen:
            continue
        seen.add(item.key())
        unique.append(item)
    return unique


def merge_feeds(feeds, title="All feeds"):
    """One feed with the items of ``feeds``, newest first, duplicates removed."""
    items = [item for feed in feeds for item in feed.items]
    items.sort(key=FeedItem.sort_key, reverse=True)
    return Feed(title, "", dedupe(items))
