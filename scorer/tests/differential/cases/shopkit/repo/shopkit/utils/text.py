import re
import unicodedata

WHITESPACE = re.compile(r"\s+")


class Formatter:
    def normalize(self, text, form="NFC"):
        return unicodedata.normalize(form, text)

    def slug(self, text):
        return slugify(text)


def normalize(text):
    return WHITESPACE.sub(" ", text).strip()


def slugify(text, sep="-"):
    text = normalize(text).lower()
    return re.sub(r"[^a-z0-9]+", sep, text).strip(sep)


def truncate(text, limit=20, suffix="..."):
    if len(text) <= limit:
        return text
    return text[: limit - len(suffix)] + suffix
