"""``tinyfeed FILE... [--markdown] [--limit N]``: print merged feeds."""

import argparse
import sys

from tinyfeed.merge import merge_feeds
from tinyfeed.parser import FeedError, parse_feed
from tinyfeed.render import render_markdown, render_text


def main(argv=None):
    ap = argparse.ArgumentParser(prog="tinyfeed")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--limit", type=int, default=10)
    args = ap.parse_args(argv)
    feeds = []
    for path in args.files:
        with open(path, "rb") as f:
            try:
                feeds.append(parse_feed(f.read(), source=path))
            except FeedError as exc:
                print("%s: %s" % (path, exc), file=sys.stderr)
    merged = merge_feeds(feeds)
    render = render_markdown if args.markdown else render_text
    sys.stdout.write(render(merged, limit=args.limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
