"""Data classes for feeds and their items."""

import datetime
from dataclasses import dataclass, field
from typing import List, Optional


@dataclass
class FeedItem:
    """One article of a feed (« item » in RSS, « entry » in Atom)."""

    title: str
    link: str
    guid: str = ""
    published: Optional[datetime.datetime] = None
    summary: str = ""
    source: str = ""

    def key(self):
        """Identity used to drop duplicates: the guid, else the link."""
        return self.guid or self.link

    def sort_key(self):
        epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        return (self.published or epoch, self.title)


@dataclass
class Feed:
    title: str
    link: str = ""
    items: List[FeedItem] = field(default_factory=list)

    def __len__(self):
        return len(self.items)

    def latest(self, n=10):
        return sorted(self.items, key=FeedItem.sort_key, reverse=True)[:n]
