import pytest

from tinyfeed.models import FeedItem
from tinyfeed.parser import FeedError, parse_date, parse_feed


def test_parse_rss(rss_bytes):
    feed = parse_feed(rss_bytes)
    assert feed.title == "Boulangerie Lef\u00e8vre"
    assert [i.guid for i in feed.items] == ["bakery-2024-01", "bakery-2024-02"]
    assert feed.items[0].title == "Galette des rois & frangipane"
    assert isinstance(feed.items[0], FeedItem)


def test_parse_atom(atom_bytes):
    feed = parse_feed(atom_bytes, source="market")
    assert feed.title == "Wochenmarkt S\u00fcd"
    assert feed.items[0].link == "https://market.example/spargel"
    assert feed.items[0].published.year == 2024
    assert feed.items[0].source == "market"


def test_rejects_other_documents():
    with pytest.raises(FeedError):
        parse_feed("<html></html>")
    with pytest.raises(FeedError):
        parse_feed("not xml at all")


def test_parse_date_formats():
    assert parse_date("Sat, 06 Jan 2024 08:00:00 +0100").day == 6
    assert parse_date("2024-02-03T09:00:00Z").hour == 9
    assert parse_date("someday") is None
