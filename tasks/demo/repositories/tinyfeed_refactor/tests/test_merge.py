from tinyfeed.merge import dedupe, merge_feeds
from tinyfeed.models import FeedItem
from tinyfeed.parser import parse_feed


def test_merge_drops_duplicates_and_sorts(rss_bytes, atom_bytes):
    merged = merge_feeds([parse_feed(rss_bytes), parse_feed(atom_bytes)])
    assert [i.key() for i in merged.items] == ["urn:market:spargel", "bakery-2024-02", "bakery-2024-01"]


def test_dedupe_falls_back_to_link():
    a = FeedItem("A", "https://x.example/1")
    b = FeedItem("A again", "https://x.example/1")
    assert dedupe([a, b]) == [a]
