"""tinyfeed: read RSS 2.0 and Atom feeds, merge them, print them."""

from tinyfeed.merge import merge_feeds
from tinyfeed.models import Feed, FeedItem
from tinyfeed.parser import parse_feed

__all__ = ["Feed", "FeedItem", "merge_feeds", "parse_feed"]
__version__ = "1.2.0"
