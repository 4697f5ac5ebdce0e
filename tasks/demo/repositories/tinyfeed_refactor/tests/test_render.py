from tinyfeed.parser import parse_feed
from tinyfeed.render import render_markdown, render_text, strip_html


def test_strip_html():
    # &nbsp; decodes to U+00A0, which counts as whitespace and is collapsed
    assert strip_html("<p>La <b>galette</b>&nbsp;est l\u00e0</p>") == "La galette est l\u00e0"
    assert strip_html("<i>abcdef</i>", limit=4) == "abc\u2026"
    assert strip_html(None) == ""


def test_render_text(rss_bytes):
    text = render_text(parse_feed(rss_bytes))
    assert text.splitlines()[0] == "Boulangerie Lef\u00e8vre"
    assert "2024-02-02  Cr\u00eapes pour la Chandeleur" in text


def test_render_markdown(rss_bytes):
    md = render_markdown(parse_feed(rss_bytes), limit=1)
    assert md.startswith("# Boulangerie")
    assert "[Cr\u00eapes pour la Chandeleur](https://bakery.example/crepes)" in md
